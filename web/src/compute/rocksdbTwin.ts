/**
 * The RocksDB twin as the page draws it (documents/rocksdbTwin.ts): both trees level by level on
 * one key axis, each file placed by its key range, and the figures side by side with whether they
 * agree. Pure (unit-tested): the card only draws these numbers.
 *
 * A key's place on the axis is its first 8 bytes as a big-endian integer (the YCSB keys' id; a
 * shorter key is padded with zero bytes, which keeps the bytewise order), between the smallest
 * and the largest key either tree holds. Keys that share their first 8 bytes share a place.
 */
import type { PredictedTwinFigures, TwinCase, TwinFigures } from '../documents/rocksdbTwin';
import {
  agreementBar,
  figureListed,
  figuresAgree,
  TWIN_FIGURES,
  type AgreementBar,
  type Phase,
  type ScalarFigure,
} from '../documents/twinAgreement.mjs';


export interface KeyRange {
  smallest_key_hex: string;
  largest_key_hex: string;
}

/** The first 8 bytes of a key given in hex, as a big-endian integer. */
export function keyPrefix(hex: string): bigint {
  return BigInt(`0x${hex.slice(0, 16).padEnd(16, '0')}`);
}

export interface KeyDomain {
  min: bigint;
  max: bigint;
}

/** The smallest and largest key prefix of all `files`; null when there are none. */
export function keyDomain(files: Iterable<KeyRange>): KeyDomain | null {
  let min: bigint | null = null;
  let max: bigint | null = null;
  for (const f of files) {
    const lo = keyPrefix(f.smallest_key_hex);
    const hi = keyPrefix(f.largest_key_hex);
    if (min === null || lo < min) min = lo;
    if (max === null || hi > max) max = hi;
  }
  return min === null || max === null ? null : { min, max };
}

/** Where a key falls in the domain, 0 (its smallest key) to 1 (its largest), clamped. */
export function keyFraction(hex: string, domain: KeyDomain): number {
  const span = domain.max - domain.min;
  if (span <= 0n) return 0;
  const k = keyPrefix(hex);
  if (k <= domain.min) return 0;
  if (k >= domain.max) return 1;
  // Scale in BigInt first so keys that differ only far down the 8 bytes keep their order.
  const SCALE = 1_000_000_000n;
  return Number(((k - domain.min) * SCALE) / span) / Number(SCALE);
}

/** A file's rectangle in a level's row. */
export interface FileBox {
  /** Index of the file in the list given. */
  index: number;
  x: number;
  width: number;
  /** Sub-row: files whose key ranges overlap (level 0) go on separate lanes; a sorted level keeps one. */
  lane: number;
  /** Key range as fractions of the domain. */
  from: number;
  to: number;
}

export interface PlaceOptions {
  /** Left edge and width of the key axis. */
  x: number;
  width: number;
  /** Narrowest rectangle drawn (a file of one key still shows). */
  minWidth: number;
}

/**
 * Each file's rectangle: x and width from its key range over the domain (a domain of one key
 * fills the whole axis), and a lane so overlapping ranges never draw on top of each other:
 * files in key order, each on the first lane whose last file ends before it starts.
 */
export function placeFiles(files: readonly KeyRange[], domain: KeyDomain, o: PlaceOptions): { boxes: FileBox[]; lanes: number } {
  const single = domain.max <= domain.min;
  const spans = files.map((f, index) => ({
    index,
    from: single ? 0 : keyFraction(f.smallest_key_hex, domain),
    to: single ? 1 : keyFraction(f.largest_key_hex, domain),
    lo: keyPrefix(f.smallest_key_hex),
    hi: keyPrefix(f.largest_key_hex),
  }));
  const order = [...spans].sort((a, b) => (a.lo < b.lo ? -1 : a.lo > b.lo ? 1 : a.hi < b.hi ? -1 : a.hi > b.hi ? 1 : a.index - b.index));
  const laneEnds: bigint[] = [];
  const lanes = new Map<number, number>();
  for (const s of order) {
    let lane = laneEnds.findIndex((end) => end < s.lo);
    if (lane < 0) {
      lane = laneEnds.length;
      laneEnds.push(s.hi);
    } else {
      laneEnds[lane] = s.hi;
    }
    lanes.set(s.index, lane);
  }
  const minWidth = Math.min(o.minWidth, o.width);
  const boxes = spans.map((s) => {
    const width = Math.max(minWidth, (s.to - s.from) * o.width);
    // A minimum-width box at the right end is pulled back inside the axis.
    const x = Math.min(o.x + s.from * o.width, o.x + o.width - width);
    return { index: s.index, x, width, lane: lanes.get(s.index) ?? 0, from: s.from, to: s.to };
  });
  return { boxes, lanes: Math.max(1, laneEnds.length) };
}

/** The share of the domain the files' key ranges cover together (overlaps counted once), 0–1. */
export function keyCoverage(files: readonly KeyRange[], domain: KeyDomain): number {
  const span = domain.max - domain.min;
  if (files.length === 0) return 0;
  if (span <= 0n) return 1;
  const ranges = files
    .map((f) => [keyPrefix(f.smallest_key_hex), keyPrefix(f.largest_key_hex)] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  let covered = 0n;
  let start: bigint | null = null;
  let end = 0n;
  for (const [lo, hi] of ranges) {
    if (start === null || lo > end) {
      if (start !== null) covered += end - start;
      start = lo;
      end = hi;
    } else if (hi > end) {
      end = hi;
    }
  }
  if (start !== null) covered += end - start;
  const SCALE = 1_000_000_000n;
  return Number((covered * SCALE) / span) / Number(SCALE);
}

/** One file, either side, in the terms the card shows. */
export interface TwinFile extends KeyRange {
  name: string;
  entries: number;
  bytes: number;
}

export interface TwinLevel {
  level: number;
  files: TwinFile[];
  entries: number;
  bytes: number;
}

/** Both trees on the same levels: 0 to the deepest level either side holds a file in. */
export interface AlignedTrees {
  levels: number[];
  engine: TwinLevel[];
  rocksdb: TwinLevel[];
  /** Over every file of both trees; null when both are empty. */
  domain: KeyDomain | null;
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

function level(level: number, files: TwinFile[]): TwinLevel {
  return { level, files, entries: sum(files.map((f) => f.entries)), bytes: sum(files.map((f) => f.bytes)) };
}

export function alignTrees(c: TwinCase): AlignedTrees {
  const engineFiles = new Map<number, TwinFile[]>();
  for (const l of c.trees.engine) {
    const files = l.files.map((f) => ({ name: `table ${f.id}`, entries: f.entries, bytes: f.bytes, smallest_key_hex: f.smallest_key_hex, largest_key_hex: f.largest_key_hex }));
    engineFiles.set(l.level, [...(engineFiles.get(l.level) ?? []), ...files]);
  }
  const rocksdbFiles = new Map<number, TwinFile[]>();
  for (const l of c.trees.rocksdb.levels) {
    const files = l.files.map((f) => ({ name: f.name, entries: f.entries, bytes: f.size, smallest_key_hex: f.smallest_key_hex, largest_key_hex: f.largest_key_hex }));
    rocksdbFiles.set(l.level, [...(rocksdbFiles.get(l.level) ?? []), ...files]);
  }
  const used = [...engineFiles, ...rocksdbFiles].filter(([, files]) => files.length > 0).map(([l]) => l);
  const deepest = used.length > 0 ? Math.max(...used) : 0;
  const levels = Array.from({ length: deepest + 1 }, (_, i) => i);
  const engine = levels.map((l) => level(l, engineFiles.get(l) ?? []));
  const rocksdb = levels.map((l) => level(l, rocksdbFiles.get(l) ?? []));
  return { levels, engine, rocksdb, domain: keyDomain([...engine, ...rocksdb].flatMap((l) => l.files)) };
}

// ─── the picture

export type Side = 'engine' | 'rocksdb';

export interface LayoutOptions {
  width: number;
  /** Side by side from this width on; stacked below it. */
  sideBySideFrom?: number;
  labelWidth?: number;
  laneHeight?: number;
  minRowHeight?: number;
}

export interface LevelRowBox {
  level: number;
  y: number;
  height: number;
  /** Lanes the row's files take (more than one where key ranges overlap). */
  lanes: number;
  files: (FileBox & { y: number; height: number; file: TwinFile })[];
  /** Share of the key domain the level's files cover, 0–1. */
  coverage: number;
  entries: number;
  bytes: number;
}

export interface PanelBox {
  side: Side;
  x: number;
  y: number;
  width: number;
  /** The key axis inside the panel. */
  axisX: number;
  axisWidth: number;
  rows: LevelRowBox[];
  /** Where the key axis (ticks and labels) goes. */
  axisY: number;
}

export interface TwinLayout {
  width: number;
  height: number;
  sideBySide: boolean;
  panels: [PanelBox, PanelBox];
}

const PANEL_TITLE = 24;
const ROW_GAP = 8;
const AXIS_HEIGHT = 34;
const LANE_GAP = 2;

/**
 * Both trees in one picture: a panel per side (side by side when wide enough, the engine first),
 * one row per level with the same height on both sides (the taller side's lanes), each file a box
 * on its level's key axis. Every number is finite: an empty tree leaves empty rows.
 */
export function layoutTwin(trees: AlignedTrees, o: LayoutOptions): TwinLayout {
  const width = Math.max(1, o.width);
  const sideBySide = width >= (o.sideBySideFrom ?? 760);
  const labelWidth = o.labelWidth ?? 118;
  const laneHeight = o.laneHeight ?? 14;
  const minRow = o.minRowHeight ?? 38;
  const gap = 24;
  const panelWidth = sideBySide ? (width - gap) / 2 : width;
  const axisWidth = Math.max(1, panelWidth - labelWidth - 6);
  const domain = trees.domain ?? { min: 0n, max: 0n };

  const placed = (side: Side) =>
    trees[side].map((l) => ({ level: l, ...placeFiles(l.files, domain, { x: 0, width: axisWidth, minWidth: 2 }) }));
  const sides = { engine: placed('engine'), rocksdb: placed('rocksdb') };
  const rowHeights = trees.levels.map((_, i) => {
    const lanes = Math.max(sides.engine[i]?.lanes ?? 1, sides.rocksdb[i]?.lanes ?? 1);
    return Math.max(minRow, lanes * (laneHeight + LANE_GAP) + 8);
  });
  const rowsHeight = rowHeights.reduce((a, h) => a + h + ROW_GAP, 0);
  const panelHeight = PANEL_TITLE + rowsHeight + AXIS_HEIGHT;

  const panel = (side: Side, x: number, y: number): PanelBox => {
    const axisX = x + labelWidth;
    let rowY = y + PANEL_TITLE;
    const rows = sides[side].map(({ level, boxes, lanes }, i) => {
      const height = rowHeights[i] ?? minRow;
      const laneBlock = lanes * (laneHeight + LANE_GAP) - LANE_GAP;
      const top = rowY + (height - laneBlock) / 2;
      const rowBox: LevelRowBox = {
        level: level.level,
        y: rowY,
        height,
        lanes,
        files: boxes.map((b) => ({
          ...b,
          x: axisX + b.x,
          y: top + b.lane * (laneHeight + LANE_GAP),
          height: laneHeight,
          file: level.files[b.index] as TwinFile,
        })),
        coverage: trees.domain ? keyCoverage(level.files, domain) : 0,
        entries: level.entries,
        bytes: level.bytes,
      };
      rowY += height + ROW_GAP;
      return rowBox;
    });
    return { side, x, y, width: panelWidth, axisX, axisWidth, rows, axisY: rowY };
  };

  const panels: [PanelBox, PanelBox] = sideBySide
    ? [panel('engine', 0, 0), panel('rocksdb', panelWidth + gap, 0)]
    : [panel('engine', 0, 0), panel('rocksdb', 0, panelHeight + ROW_GAP)];
  return { width, height: sideBySide ? panelHeight : 2 * panelHeight + ROW_GAP, sideBySide, panels };
}

// ─── figures

/** engine ÷ RocksDB − 1; 0 when both are 0; null when only RocksDB's is 0 (no ratio to give). */
export function relativeDifference(engine: number, rocksdb: number): number | null {
  if (rocksdb === 0) return engine === 0 ? 0 : null;
  return engine / rocksdb - 1;
}

export interface FigureRow {
  id: string;
  phase: Phase;
  figure: keyof TwinFigures | `bytesPerLevel.${number}`;
  name: string;
  engine: number;
  rocksdb: number;
  difference: number | null;
  agrees: boolean;
  bar: AgreementBar;
  /** `lsm predict`'s figure, where the table recorded one and the predictor prices it. */
  predicted: number | null;
  /** Whether the prediction agrees with RocksDB by the same bar; null without a prediction. */
  predictedAgrees: boolean | null;
}

function row(phase: Phase, figure: FigureRow['figure'], name: string, engine: number, rocksdb: number, predicted: number | null = null): FigureRow {
  return {
    id: `${phase}.${figure}`,
    phase,
    figure,
    name,
    engine,
    rocksdb,
    difference: relativeDifference(engine, rocksdb),
    agrees: figuresAgree(engine, rocksdb),
    bar: agreementBar(engine, rocksdb),
    predicted,
    predictedAgrees: predicted === null ? null : figuresAgree(predicted, rocksdb),
  };
}

/** The predictor's figure for `key` in a phase, if the table has it (older tables do not). */
function predictedOf(pair: TwinCase['run'], key: ScalarFigure): number | null {
  if (!pair.predicted || !(key in pair.predicted)) return null;
  const v = pair.predicted[key as keyof PredictedTwinFigures];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/**
 * The figure table of a case, as the twin prints it: the run's figures (lookups' only if the run
 * looked up, scans' only if it scanned, writes' only if it wrote), then the load's writes; then
 * what each side wrote into each level per user byte and the trivial moves, for both phases.
 */
export function figureRows(c: TwinCase): FigureRow[] {
  const rows: FigureRow[] = [];
  for (const phase of ['run', 'load'] as const) {
    const pair = c[phase];
    const { engine, rocksdb } = pair;
    for (const [key, name] of TWIN_FIGURES) {
      if (!figureListed(key, phase, engine, rocksdb)) continue;
      rows.push(row(phase, key, name, engine[key] ?? 0, rocksdb[key] ?? 0, predictedOf(pair, key)));
    }
    if (rocksdb.writes === 0 && engine.writes === 0) continue;
    const depth = Math.max(engine.bytesPerLevel.length, rocksdb.bytesPerLevel.length);
    for (let l = 0; l < depth; l += 1) {
      const e = engine.bytesPerLevel[l] ?? 0;
      const r = rocksdb.bytesPerLevel[l] ?? 0;
      if (e === 0 && r === 0) continue;
      rows.push(row(phase, `bytesPerLevel.${l}`, l === 0 ? 'bytes flushed into L0 per user byte' : `bytes compacted into L${l} per user byte`, e, r));
    }
    rows.push(row(phase, 'trivialMoves', 'trivial moves (files moved down, not rewritten)', engine.trivialMoves, rocksdb.trivialMoves));
  }
  return rows;
}

/** A key prefix as people read it: the id in digits while it is a plausible id, else its 8 bytes in hex. */
export function formatKeyPrefix(k: bigint): string {
  if (k < 1_000_000_000_000n) return Number(k).toLocaleString('en-US');
  return `0x${k.toString(16).padStart(16, '0')}`;
}

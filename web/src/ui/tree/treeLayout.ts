/**
 * Where each part of the engine's tree goes in the picture. Pure (unit-tested): the component only
 * draws these boxes. Every level is its own track (levels grow T× per step, so one scale for all
 * would leave the top levels invisible); a level's track is its capacity, split into one slot per
 * run it may hold, and each run fills its slot in proportion to its bytes.
 */
import type { LevelInfo, RunInfo, TreeShape } from '../../documents/engine';

export interface RunBox {
  id: number;
  x: number;
  width: number;
  entries: number;
  bitsPerKey: number;
  fpr: number;
  /** Table boundaries inside the run (merges by file), as x positions. */
  cuts: number[];
  run: RunInfo;
}

export interface SlotBox {
  x: number;
  width: number;
}

export interface LevelRow {
  level: number;
  y: number;
  runs: RunBox[];
  slots: SlotBox[];
  entries: number;
  bytes: number;
  capacityBytes: number | null;
  /** Bytes held ÷ capacity (0 when unbounded). */
  fill: number;
  merging: boolean;
  /** The level a merge in progress writes into. */
  receiving: boolean;
  maxRuns: number;
  /** Drawn only so the picture keeps its height (the tree has no such level yet). */
  placeholder: boolean;
  /**
   * A merge of it is due and has not started: the engine says so (`dueLevel`), or it is over its
   * byte capacity or run limit and not merging (paced merges behind the writes, a run cut off
   * mid-merge, or merges left to Step).
   */
  overFull: boolean;
}

export interface TreeLayout {
  height: number;
  trackX: number;
  trackWidth: number;
  buffer: { y: number; fill: number; entries: number; bytes: number; capacity: number; width: number };
  levels: LevelRow[];
}

export interface LayoutOptions {
  width: number;
  labelWidth: number;
  rowHeight: number;
  rowGap: number;
  /** Space above the first row. */
  top: number;
  /** Draw at least this many levels (so the picture does not jump when level 2 appears). */
  minLevels?: number;
  /** The level whose merge the engine has due and not started (`WriteStallState::merge_due_level`). */
  dueLevel?: number | null;
  /** Bytes of one flushed buffer, for level 1 with merges by file (no byte capacity). */
  bufferBytes: number;
}

const MAX_CUTS = 120;

function levelCapacity(level: LevelInfo, bufferBytes: number): number {
  return level.capacity_bytes ?? bufferBytes * Math.max(1, level.max_runs);
}

function runBoxes(level: LevelInfo, x0: number, width: number, bufferBytes: number): { runs: RunBox[]; slots: SlotBox[] } {
  const capacity = levelCapacity(level, bufferBytes);
  const slotsCount = Math.max(level.max_runs, level.runs.length, 1);
  const slotW = width / slotsCount;
  const slots = Array.from({ length: slotsCount }, (_, i) => ({ x: x0 + i * slotW, width: slotW }));
  // Leveling: the one run fills the level in proportion to its bytes. Tiering: each run its slot.
  const runCapacity = capacity / Math.max(1, level.max_runs);
  const gap = Math.min(6, slotW * 0.06);
  const runs = level.runs.map((run, i) => {
    const frac = Math.min(1, run.entry_bytes / runCapacity);
    const w = Math.max(3, (slotW - gap) * frac);
    const x = x0 + i * slotW;
    const cuts: number[] = [];
    if (run.tables.length > 1 && run.tables.length <= MAX_CUTS) {
      let acc = 0;
      for (const t of run.tables.slice(0, -1)) {
        acc += t.entry_bytes;
        cuts.push(x + (w * acc) / Math.max(1, run.entry_bytes));
      }
    }
    return { id: run.id, x, width: w, entries: run.entries, bitsPerKey: run.bits_per_key, fpr: run.filter_fpr, cuts, run };
  });
  return { runs, slots };
}

export function layoutTree(tree: TreeShape, o: LayoutOptions): TreeLayout {
  const trackX = o.labelWidth;
  const trackWidth = Math.max(60, o.width - o.labelWidth - 8);
  const bufferY = o.top;
  const bufferFill = tree.buffer_capacity_bytes > 0 ? Math.min(1, tree.buffer_bytes / tree.buffer_capacity_bytes) : 0;
  // The buffer is drawn at the width of one slot of level 1, so a flush visibly "drops" into it.
  const l1 = tree.levels[0];
  const l1Slots = l1 ? Math.max(l1.max_runs, l1.runs.length, 1) : 1;
  const bufferWidth = Math.max(Math.min(trackWidth, 250), trackWidth / l1Slots);
  const count = Math.max(tree.levels.length, o.minLevels ?? 0);
  const levels: LevelRow[] = Array.from({ length: count }, (_, i) => {
    const level: LevelInfo = tree.levels[i] ?? {
      level: i + 1,
      capacity_bytes: null,
      max_runs: tree.levels[tree.levels.length - 1]?.max_runs ?? 1,
      runs: [],
    };
    const y = bufferY + (i + 1) * (o.rowHeight + o.rowGap);
    const { runs, slots } = runBoxes(level, trackX, trackWidth, o.bufferBytes);
    const bytes = level.runs.reduce((n, r) => n + r.entry_bytes, 0);
    const capacity = tree.levels[i] ? levelCapacity(level, o.bufferBytes) : null;
    return {
      level: i + 1,
      y,
      runs,
      slots,
      entries: level.runs.reduce((n, r) => n + r.entries, 0),
      bytes,
      capacityBytes: level.capacity_bytes,
      fill: capacity ? bytes / capacity : 0,
      merging: tree.merging_level === i + 1,
      overFull:
        tree.merging_level !== i + 1 &&
        (o.dueLevel === i + 1 || (level.capacity_bytes !== null && capacity !== null && bytes > capacity) || level.runs.length > level.max_runs),
      receiving: tree.merging_level !== null && tree.merging_level === i,
      maxRuns: level.max_runs,
      placeholder: !tree.levels[i],
    };
  });
  const height = bufferY + (count + 1) * (o.rowHeight + o.rowGap);
  return {
    height,
    trackX,
    trackWidth,
    buffer: { y: bufferY, fill: bufferFill, entries: tree.buffer_entries, bytes: tree.buffer_bytes, capacity: tree.buffer_capacity_bytes, width: bufferWidth },
    levels,
  };
}

/** Filter bits per key → colour: light (no filter) to deep blue (many bits), readable on a projector. */
export const BITS_DOMAIN = 12;
const STOPS: [number, [number, number, number]][] = [
  [0, [231, 236, 242]],
  [0.25, [158, 202, 225]],
  [0.5, [66, 146, 198]],
  [0.75, [33, 102, 172]],
  [1, [8, 48, 107]],
];

export function bitsColor(bitsPerKey: number): string {
  const t = Math.max(0, Math.min(1, bitsPerKey / BITS_DOMAIN));
  for (let i = 1; i < STOPS.length; i++) {
    const [t1, c1] = STOPS[i];
    const [t0, c0] = STOPS[i - 1];
    if (t <= t1) {
      const u = (t - t0) / (t1 - t0);
      const c = c0.map((v, k) => Math.round(v + (c1[k] - v) * u));
      return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
    }
  }
  return 'rgb(8, 48, 107)';
}

/** Text on a run of that colour: white on the dark half of the scale. */
export function bitsInk(bitsPerKey: number): string {
  return bitsPerKey / BITS_DOMAIN > 0.45 ? '#ffffff' : '#1b2430';
}

/**
 * A merge as it happens, for drawing: how far the merge has read through its inputs (a cursor
 * across each input run: a merge by key consumes every input at about the same pace) and the
 * output run growing in the level below, page by page, from the engine's own merge_progress. The
 * output grows with the pages merged (read): the engine builds the new file as it goes and counts
 * its pages written when the file is finished, so pages_written alone would sit at 0 until the end.
 */
export interface MergeView {
  /** The level being merged, and the one receiving the output. */
  from: number;
  into: number;
  pagesRead: number;
  pagesWritten: number;
  /** Data pages of every input run (the merging level's runs, plus the receiving run under leveling). */
  inputPages: number;
  /** Pages read ÷ input pages, 0..1. */
  readFraction: number;
  /** Cursor boxes over the input runs: the part already read. */
  consumed: { level: number; x: number; width: number }[];
  /** The output run so far, on the receiving level's row. */
  output: { x: number; width: number };
}

export function mergeView(tree: TreeShape, layout: TreeLayout): MergeView | null {
  const from = tree.merging_level;
  const progress = tree.merge_progress;
  if (from === null || !progress) return null;
  const source = layout.levels[from - 1];
  const target = layout.levels[from];
  if (!source) return null;
  // Under leveling the receiving run is read and rewritten too; under tiering the output is a new run.
  const targetIsInput = target !== undefined && target.maxRuns === 1 && target.runs.length > 0;
  const inputs = [...source.runs.map((r) => ({ level: from, r })), ...(targetIsInput && target ? target.runs.map((r) => ({ level: from + 1, r })) : [])];
  const inputPages = inputs.reduce((n, { r }) => n + r.run.data_pages, 0);
  const inputBytes = inputs.reduce((n, { r }) => n + r.run.entry_bytes, 0);
  const readFraction = inputPages > 0 ? Math.min(1, progress.pages_read / inputPages) : 0;
  const consumed = inputs.map(({ level, r }) => ({ level, x: r.x, width: r.width * readFraction }));
  // The output's full size in the receiving row's scale: its slot, filled as its bytes fill a run's share.
  let output = { x: layout.trackX, width: 0 };
  if (target) {
    const slots = target.slots;
    const slot = targetIsInput ? slots[0] : slots[Math.min(slots.length - 1, target.runs.length)];
    const capacity = (target.capacityBytes ?? inputBytes) / Math.max(1, target.maxRuns);
    const full = slot ? Math.max(3, (slot.width - 6) * Math.min(1, inputBytes / Math.max(1, capacity))) : 0;
    output = { x: slot?.x ?? layout.trackX, width: full * readFraction };
  }
  return { from, into: from + 1, pagesRead: progress.pages_read, pagesWritten: progress.pages_written, inputPages, readFraction, consumed, output };
}

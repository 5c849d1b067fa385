/**
 * The RocksDB twin as the MSLS page reads and draws it: the stored document checked field by field
 * (documents/rocksdbTwin.ts), each file placed by its key range, the levels' key coverage, both
 * trees aligned level by level, and the figure table with the twin's agreement bar
 * (compute/rocksdbTwin.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRocksdbTwin, ROCKSDB_TWIN_KIND, TwinDocumentError, workloadLabel, type TwinCase, type TwinFigures } from '../src/documents/rocksdbTwin';
import {
  alignTrees,
  figureRows,
  formatKeyPrefix,
  keyCoverage,
  keyDomain,
  keyFraction,
  keyPrefix,
  layoutTwin,
  placeFiles,
  relativeDifference,
} from '../src/compute/rocksdbTwin';
import { agreementBar, figuresAgree } from '../src/documents/twinAgreement.mjs';

/** A 23-byte YCSB-like key: an 8-byte big-endian id, then 15 bytes that only break ties. */
const key = (id: number, tail = 'ab') => id.toString(16).padStart(16, '0') + tail.repeat(15);
const range = (lo: number, hi: number) => ({ smallest_key_hex: key(lo), largest_key_hex: key(hi) });

const figures = (over: Partial<TwinFigures> = {}): TwinFigures => ({
  lookups: 1000,
  dataBlocksPerLookup: 1.2,
  filtersPerLookup: 0,
  scans: 0,
  dataBlocksPerScan: 0,
  cacheHitRate: 0.1,
  writes: 100,
  bytesWrittenPerUserByte: 3,
  entriesWrittenPerWrite: 2.9,
  bytesPerLevel: [1, 2],
  trivialMoves: 0,
  ...over,
});

function makeCase(): TwinCase {
  return {
    shape: 'defaults',
    label: "RocksDB 7.8's defaults",
    workload: 'ycsb:b',
    records: 1000,
    operations: 500,
    scale: 0.125,
    blockCacheBytes: 1 << 20,
    importNotes: ['warning: approximated block_cache.bytes'],
    run: { engine: figures({ dataBlocksPerLookup: 1.1 }), rocksdb: figures({ dataBlocksPerLookup: 1.25, bytesWrittenPerUserByte: 0, entriesWrittenPerWrite: 0, bytesPerLevel: [0] }) },
    load: { engine: figures({ trivialMoves: 8 }), rocksdb: figures({ bytesWrittenPerUserByte: 3.2, trivialMoves: 2 }) },
    trees: {
      engine: [
        { level: 0, files: [{ id: 7, entries: 50, bytes: 5000, ...range(0, 1000) }] },
        { level: 1, files: [{ id: 3, entries: 400, bytes: 40000, ...range(0, 499) }, { id: 4, entries: 400, bytes: 40000, ...range(500, 1000) }] },
      ],
      rocksdb: {
        levels: [
          { level: 0, file_count: 2, bytes: 2, entries: 60, files: [{ level: 0, name: '000010.sst', size: 1, entries: 30, ...range(0, 600) }, { level: 0, name: '000011.sst', size: 1, entries: 30, ...range(400, 1000) }] },
          { level: 1, file_count: 0, bytes: 0, entries: 0, files: [] },
          { level: 2, file_count: 1, bytes: 9, entries: 800, files: [{ level: 2, name: '000009.sst', size: 9, entries: 800, ...range(250, 750) }] },
          { level: 3, file_count: 0, bytes: 0, entries: 0, files: [] },
        ],
      },
    },
    rocksdbNotes: ['sync-compactions: …'],
    directReads: true,
  };
}

const doc = () => ({ kind: ROCKSDB_TWIN_KIND, version: 1, measured: '2026-11-26T17:23:47.037Z', records: 1000, operations: 500, scale: 0.125, cases: [makeCase()] });

/** The error parseRocksdbTwin gives after `edit` breaks a copy of the document. */
function problem(edit: (d: ReturnType<typeof doc> & Record<string, unknown>) => void): string {
  const d = structuredClone(doc()) as ReturnType<typeof doc> & Record<string, unknown>;
  edit(d);
  try {
    parseRocksdbTwin(d);
  } catch (e) {
    expect(e).toBeInstanceOf(TwinDocumentError);
    return (e as Error).message;
  }
  throw new Error('the document was accepted');
}

describe('the stored twin is checked field by field', () => {
  it('accepts a good document and keeps its numbers', () => {
    const twin = parseRocksdbTwin(doc());
    expect(twin.cases).toHaveLength(1);
    expect(twin.cases[0].run.rocksdb.dataBlocksPerLookup).toBe(1.25);
    expect(twin.cases[0].trees.rocksdb.levels[2].files[0]).toEqual({ level: 2, name: '000009.sst', size: 9, entries: 800, ...range(250, 750) });
    expect(twin.cases[0].trees.engine[1].files.map((f) => f.id)).toEqual([3, 4]);
  });

  it('accepts the committed file', () => {
    const file = path.resolve(__dirname, '../../public/measured/rocksdb-twin.json');
    const twin = parseRocksdbTwin(JSON.parse(fs.readFileSync(file, 'utf8')));
    expect(twin.cases.length).toBeGreaterThan(0);
    for (const c of twin.cases) expect(alignTrees(c).domain).not.toBeNull();
  });

  it('names the field that is wrong', () => {
    expect(problem((d) => (d.kind = 'lsm-navigator/leveldb-write-amp'))).toBe('kind must be "lsm-navigator/rocksdb-twin"');
    expect(problem((d) => ((d as Record<string, unknown>).version = 2))).toBe('version must be 1 (the only version this page reads)');
    expect(problem((d) => (d.measured = 'yesterday'))).toBe('measured must be a date (ISO 8601)');
    expect(problem((d) => (d.cases = []))).toBe('cases must hold at least one case');
    expect(problem((d) => ((d.cases[0].run.rocksdb as unknown as Record<string, unknown>).cacheHitRate = null))).toBe(
      'cases[0].run.rocksdb.cacheHitRate must be a finite number',
    );
    expect(problem((d) => (d.cases[0].load.engine.bytesPerLevel = [1, Number.NaN]))).toBe('cases[0].load.engine.bytesPerLevel[1] must be a finite number');
    expect(problem((d) => (d.cases[0].trees.rocksdb.levels[2].files[0].smallest_key_hex = 'xyz'))).toBe(
      'cases[0].trees.rocksdb.levels[2].files[0].smallest_key_hex must be a key in hex (two digits a byte)',
    );
    expect(problem((d) => (d.cases[0].trees.engine[1].files[1].largest_key_hex = key(10)))).toBe(
      'cases[0].trees.engine[1].files[1].largest_key_hex must not be below smallest_key_hex',
    );
    expect(problem((d) => (d.cases[0].trees.engine[0].files[0].entries = -1))).toBe('cases[0].trees.engine[0].files[0].entries must be a whole number ≥ 0');
    expect(problem((d) => delete (d.cases[0].trees as Record<string, unknown>).rocksdb)).toBe('cases[0].trees.rocksdb must be an object');
    expect(problem((d) => ((d.cases[0] as unknown as Record<string, unknown>).label = 7))).toBe('cases[0].label must be a string');
    expect(() => parseRocksdbTwin('{}')).toThrow('the document must be an object');
  });

  it('labels YCSB workloads', () => {
    expect(workloadLabel('ycsb:b')).toBe('YCSB B');
    expect(workloadLabel('trace.csv')).toBe('trace.csv');
  });
});

describe('a file is placed by its key range', () => {
  it('reads the first 8 bytes of a key as a big-endian integer', () => {
    expect(keyPrefix(key(0x61a62))).toBe(0x61a62n);
    expect(keyPrefix('01')).toBe(0x0100000000000000n);
    expect(keyPrefix('')).toBe(0n);
    expect(formatKeyPrefix(400_994n)).toBe('400,994');
    expect(formatKeyPrefix(0x0100000000000000n)).toBe('0x0100000000000000');
  });

  it('on a domain from the smallest to the largest key', () => {
    const domain = keyDomain([range(100, 300), range(50, 200), range(120, 1100)]);
    expect(domain).toEqual({ min: 50n, max: 1100n });
    expect(keyDomain([])).toBeNull();
    expect(keyFraction(key(50), { min: 50n, max: 1100n })).toBe(0);
    expect(keyFraction(key(575), { min: 50n, max: 1100n })).toBe(0.5);
    expect(keyFraction(key(1100), { min: 50n, max: 1100n })).toBe(1);
    expect(keyFraction(key(2000), { min: 50n, max: 1100n })).toBe(1);
    expect(keyFraction(key(7), { min: 7n, max: 7n })).toBe(0);
  });

  it('x and width over the axis, sorted levels on one lane', () => {
    const domain = { min: 0n, max: 1000n };
    const { boxes, lanes } = placeFiles([range(500, 1000), range(0, 499)], domain, { x: 100, width: 400, minWidth: 2 });
    expect(lanes).toBe(1);
    expect(boxes[0]).toEqual({ index: 0, x: 300, width: 200, lane: 0, from: 0.5, to: 1 });
    expect(boxes[1].x).toBe(100);
    expect(boxes[1].width).toBeCloseTo(199.6, 9);
    expect(boxes[1].lane).toBe(0);
  });

  it('overlapping files (level 0) on lanes of their own, a one-key file still drawn inside the axis', () => {
    const domain = { min: 0n, max: 1000n };
    const { boxes, lanes } = placeFiles([range(0, 600), range(400, 1000), range(700, 800), range(1000, 1000)], domain, { x: 0, width: 200, minWidth: 3 });
    expect(lanes).toBe(2);
    expect(boxes.map((b) => b.lane)).toEqual([0, 1, 0, 0]);
    expect(boxes[1]).toEqual({ index: 1, x: 80, width: 120, lane: 1, from: 0.4, to: 1 });
    // [1000, 1000]: 3 px wide, pulled back to end at the axis' right edge.
    expect(boxes[3]).toEqual({ index: 3, x: 197, width: 3, lane: 0, from: 1, to: 1 });
    // [700, 800] goes on lane 0 after [0, 600]; [1000, 1000] after it.
    expect(boxes[2].x).toBeCloseTo(140, 9);
    expect(boxes[2].width).toBeCloseTo(20, 9);
  });

  it('a domain of one key fills the axis', () => {
    const { boxes } = placeFiles([range(5, 5)], { min: 5n, max: 5n }, { x: 10, width: 50, minWidth: 2 });
    expect(boxes[0]).toEqual({ index: 0, x: 10, width: 50, lane: 0, from: 0, to: 1 });
  });

  it('key coverage counts overlaps once', () => {
    const domain = { min: 0n, max: 1000n };
    expect(keyCoverage([range(0, 600), range(400, 1000)], domain)).toBe(1);
    expect(keyCoverage([range(0, 100), range(50, 200), range(500, 600)], domain)).toBe(0.3);
    expect(keyCoverage([range(250, 750)], domain)).toBe(0.5);
    expect(keyCoverage([], domain)).toBe(0);
  });
});

describe('both trees, level by level', () => {
  it('aligns the levels down to the deepest file either side holds', () => {
    const t = alignTrees(makeCase());
    expect(t.levels).toEqual([0, 1, 2]);
    expect(t.engine.map((l) => [l.level, l.files.length, l.entries, l.bytes])).toEqual([
      [0, 1, 50, 5000],
      [1, 2, 800, 80000],
      [2, 0, 0, 0],
    ]);
    expect(t.rocksdb.map((l) => [l.level, l.files.length, l.entries])).toEqual([
      [0, 2, 60],
      [1, 0, 0],
      [2, 1, 800],
    ]);
    expect(t.rocksdb[0].files[0].name).toBe('000010.sst');
    expect(t.engine[1].files[0].name).toBe('table 3');
    expect(t.domain).toEqual({ min: 0n, max: 1000n });
  });

  it('lays out both panels with rows of equal height, side by side or stacked', () => {
    const t = alignTrees(makeCase());
    const wide = layoutTwin(t, { width: 1000, labelWidth: 100, laneHeight: 14, minRowHeight: 38 });
    expect(wide.sideBySide).toBe(true);
    const [engine, rocksdb] = wide.panels;
    expect(engine.width).toBe(488);
    expect(rocksdb.x).toBe(512);
    expect(engine.axisX).toBe(100);
    expect(engine.axisWidth).toBe(382);
    // Level 0: RocksDB's two overlapping files take two lanes of 16 px + 8: 40 px, on both sides.
    expect(engine.rows.map((r) => r.height)).toEqual([40, 38, 38]);
    expect(rocksdb.rows.map((r) => r.height)).toEqual([40, 38, 38]);
    expect(engine.rows.map((r) => r.y)).toEqual([24, 72, 118]);
    expect(rocksdb.rows[0].lanes).toBe(2);
    expect(rocksdb.rows[0].files.map((f) => [f.lane, f.y])).toEqual([
      [0, 29],
      [1, 45],
    ]);
    // RocksDB's L2 file [250, 750] sits in the middle half of its axis.
    const l2 = rocksdb.rows[2].files[0];
    expect(l2.x).toBeCloseTo(512 + 100 + 0.25 * 382, 9);
    expect(l2.width).toBeCloseTo(0.5 * 382, 9);
    expect(rocksdb.rows.map((r) => r.coverage)).toEqual([1, 0, 0.5]);
    expect(wide.height).toBe(24 + 40 + 38 + 38 + 3 * 8 + 34);

    const narrow = layoutTwin(t, { width: 500 });
    expect(narrow.sideBySide).toBe(false);
    expect(narrow.panels[1].y).toBe(narrow.height / 2 + 4);
    for (const p of narrow.panels) for (const r of p.rows) for (const f of r.files) for (const v of [f.x, f.y, f.width, f.height]) expect(Number.isFinite(v)).toBe(true);
  });
});

describe('the figure table', () => {
  it('holds figures to 10%, or 0.02 where both are below 0.2', () => {
    expect(agreementBar(0.15, 0.19)).toBe('absolute');
    expect(agreementBar(0.15, 0.2)).toBe('relative');
    expect(figuresAgree(0.1, 0.12)).toBe(true);
    expect(figuresAgree(0.1, 0.121)).toBe(false);
    expect(figuresAgree(1.09, 1.0)).toBe(true);
    expect(figuresAgree(1.11, 1.0)).toBe(false);
    expect(figuresAgree(1.1392, 1.2769)).toBe(false);
    expect(relativeDifference(1.1, 1.25)).toBeCloseTo(-0.12, 12);
    expect(relativeDifference(0, 0)).toBe(0);
    expect(relativeDifference(3, 0)).toBeNull();
  });

  it('lists what the twin compares, run then load', () => {
    const rows = figureRows(makeCase());
    expect(rows.map((r) => r.id)).toEqual([
      'run.dataBlocksPerLookup',
      'run.filtersPerLookup',
      'run.cacheHitRate',
      'run.bytesWrittenPerUserByte',
      'run.entriesWrittenPerWrite',
      'run.bytesPerLevel.0',
      'run.bytesPerLevel.1',
      'run.trivialMoves',
      'load.bytesWrittenPerUserByte',
      'load.entriesWrittenPerWrite',
      'load.bytesPerLevel.0',
      'load.bytesPerLevel.1',
      'load.trivialMoves',
    ]);
    const lookup = rows[0];
    expect([lookup.engine, lookup.rocksdb, lookup.bar, lookup.agrees]).toEqual([1.1, 1.25, 'relative', false]);
    // A table measured before predictions were recorded has none to show.
    expect(rows.every((r) => r.predicted === null && r.predictedAgrees === null)).toBe(true);
    expect(lookup.difference).toBeCloseTo(-0.12, 12);
    expect(rows[1]).toMatchObject({ engine: 0, rocksdb: 0, difference: 0, agrees: true, bar: 'absolute' });
    expect(rows[3]).toMatchObject({ engine: 3, rocksdb: 0, difference: null, agrees: false });
    expect(rows[8]).toMatchObject({ engine: 3, rocksdb: 3.2, agrees: true });
    expect(rows[8].difference).toBeCloseTo(-0.0625, 12);
    expect(rows[12]).toMatchObject({ engine: 8, rocksdb: 2, difference: 3, agrees: false });
  });

  it('shows index and filter block reads only where either side read some (metadata in the cache)', () => {
    const c = makeCase();
    c.run.engine.metadataBlocksPerLookup = 0.28;
    c.run.rocksdb.metadataBlocksPerLookup = 0.34;
    const rows = figureRows(c);
    expect(rows[2]).toMatchObject({ id: 'run.metadataBlocksPerLookup', engine: 0.28, rocksdb: 0.34, agrees: false });
    expect(rows[2].difference).toBeCloseTo(-0.06 / 0.34, 12);
    c.run.engine.metadataBlocksPerLookup = 0;
    c.run.rocksdb.metadataBlocksPerLookup = 0;
    expect(figureRows(c).map((r) => r.id)).not.toContain('run.metadataBlocksPerLookup');
  });
});

describe('figure rows with lsm predict', () => {
  it('carry the predicted figure and its verdict against RocksDB by the same bar; unpredicted figures carry none', () => {
    const c = makeCase();
    c.run.predicted = {
      dataBlocksPerLookup: 1.3,
      dataBlocksPerScan: null,
      filtersPerLookup: 0,
      cacheHitRate: 0.05,
      bytesWrittenPerUserByte: null,
      entriesWrittenPerWrite: null,
      filesPerLevel: [1, 2],
    };
    const rows = figureRows(c);
    const by = (id: string) => rows.find((r) => r.id === id)!;
    // 1.3 against RocksDB's 1.25: +4%, within 10%.
    expect([by('run.dataBlocksPerLookup').predicted, by('run.dataBlocksPerLookup').predictedAgrees]).toEqual([1.3, true]);
    // 0.05 against 0.1: both below 0.2, 0.05 apart, beyond 0.02.
    expect([by('run.cacheHitRate').predicted, by('run.cacheHitRate').predictedAgrees]).toEqual([0.05, false]);
    expect(by('run.entriesWrittenPerWrite').predicted).toBeNull();
    expect(by('run.bytesPerLevel.1').predictedAgrees).toBeNull();
    expect(by('load.bytesWrittenPerUserByte').predicted).toBeNull();
  });
});

describe('the stored predicted figures', () => {
  it('are read (numbers or null) and a wrong one is named', () => {
    const stored = JSON.parse(fs.readFileSync(path.join(__dirname, '../../public/measured/rocksdb-twin.json'), 'utf8'));
    const doc = parseRocksdbTwin(stored);
    const withPrediction = doc.cases.filter((c) => c.run.predicted);
    expect(withPrediction.length).toBe(stored.cases.filter((c: { run: { predicted?: unknown } }) => c.run.predicted).length);
    for (const c of withPrediction) expect(c.run.predicted!.dataBlocksPerLookup).toBe(stored.cases.find((s: TwinCase) => s.shape === c.shape && s.workload === c.workload).run.predicted.dataBlocksPerLookup);
    const bad = structuredClone(stored);
    bad.cases[0].run.predicted = { ...bad.cases[0].run.predicted, cacheHitRate: -1 };
    expect(() => parseRocksdbTwin(bad)).toThrow(/cases\[0\]\.run\.predicted\.cacheHitRate/);
  });
});

/**
 * The RocksDB twin, stored: public/measured/rocksdb-twin.json, written by `npm run rocksdb-twin`
 * (scripts/rocksdb-twin.mjs over interop/rocksdb/twin.mjs). Each case is one RocksDB shape (an
 * OPTIONS file) and one workload, run on the engine (what `lsm import --rocksdb` makes of the
 * file) and on real RocksDB 7.8 (through interop/rocksdb/referee.cc) on the same operation stream,
 * both reduced to the same figures and to their trees after the run.
 *
 * Levels are RocksDB's numbering on both sides (0 = L0). Keys are hex strings of the raw key bytes.
 *
 * The document comes from a script run elsewhere and is read as it is: `parseRocksdbTwin` checks
 * every field the page draws and names the first one that is wrong, so a stale or hand-edited file
 * shows an error instead of NaN.
 */

export const ROCKSDB_TWIN_KIND = 'lsm-navigator/rocksdb-twin';
export const ROCKSDB_TWIN_PATH = 'measured/rocksdb-twin.json';

/** One side's figures for one phase (interop/rocksdb/twin.mjs: rocksdbFigures / engineFigures). */
export interface TwinFigures {
  lookups: number;
  dataBlocksPerLookup: number;
  filtersPerLookup: number;
  /** Index and filter blocks read per point lookup: non-zero only when they live in the block
   * cache. Absent in tables measured before it was recorded. */
  metadataBlocksPerLookup?: number;
  scans: number;
  dataBlocksPerScan: number;
  cacheHitRate: number;
  writes: number;
  bytesWrittenPerUserByte: number;
  entriesWrittenPerWrite: number;
  /** Bytes flushes (index 0) and compactions wrote into each level, per user byte. */
  bytesPerLevel: number[];
  trivialMoves: number;
}

/** `lsm predict`'s figures for one phase (interop/rocksdb/twin.mjs: predictedFigures); null where
 * it predicts none (entries written; the load's reads; every figure but data blocks for a design
 * priced by whole levels). */
export interface PredictedTwinFigures {
  dataBlocksPerLookup: number | null;
  dataBlocksPerScan: number | null;
  filtersPerLookup: number | null;
  cacheHitRate: number | null;
  bytesWrittenPerUserByte: number | null;
  entriesWrittenPerWrite: number | null;
  /** Files per level of the replayed tree (level 0 first), after the phase. */
  filesPerLevel: number[] | null;
}

export interface TwinPair {
  engine: TwinFigures;
  rocksdb: TwinFigures;
  /** Absent in tables measured before the prediction was recorded. */
  predicted?: PredictedTwinFigures;
}

/** A table file of the engine's tree. */
export interface EngineTwinFile {
  id: number;
  entries: number;
  bytes: number;
  smallest_key_hex: string;
  largest_key_hex: string;
}

export interface EngineTwinLevel {
  level: number;
  files: EngineTwinFile[];
}

/** An SST file of RocksDB's tree, as the referee lists it. */
export interface RocksdbTwinFile {
  level: number;
  name: string;
  size: number;
  entries: number;
  smallest_key_hex: string;
  largest_key_hex: string;
}

export interface RocksdbTwinLevel {
  level: number;
  file_count: number;
  bytes: number;
  entries: number;
  files: RocksdbTwinFile[];
}

export interface RocksdbTwinTree {
  levels: RocksdbTwinLevel[];
}

export interface TwinCase {
  shape: string;
  label: string;
  /** e.g. "ycsb:b". */
  workload: string;
  records: number;
  operations: number;
  scale: number;
  blockCacheBytes: number;
  importNotes: string[];
  run: TwinPair;
  load: TwinPair;
  trees: { engine: EngineTwinLevel[]; rocksdb: RocksdbTwinTree };
  rocksdbNotes: string[];
  directReads: boolean | null;
}

export interface RocksdbTwin {
  kind: typeof ROCKSDB_TWIN_KIND;
  version: 1;
  /** When it was measured (ISO 8601). */
  measured: string;
  records: number;
  operations: number;
  scale: number;
  cases: TwinCase[];
}

/** The figure fields, in the order the document's producer lists them. */
export const FIGURE_FIELDS = [
  'lookups',
  'dataBlocksPerLookup',
  'filtersPerLookup',
  'scans',
  'dataBlocksPerScan',
  'cacheHitRate',
  'writes',
  'bytesWrittenPerUserByte',
  'entriesWrittenPerWrite',
  'trivialMoves',
] as const satisfies readonly (keyof TwinFigures)[];

/** A field of the document that is missing or wrong. */
export class TwinDocumentError extends Error {
  constructor(
    readonly field: string,
    problem: string,
  ) {
    super(`${field} ${problem}`);
    this.name = 'TwinDocumentError';
  }
}

type Obj = Record<string, unknown>;

function object(v: unknown, field: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new TwinDocumentError(field, 'must be an object');
  return v as Obj;
}

function array(v: unknown, field: string): unknown[] {
  if (!Array.isArray(v)) throw new TwinDocumentError(field, 'must be a list');
  return v;
}

function number(v: unknown, field: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new TwinDocumentError(field, 'must be a finite number');
  return v;
}

function count(v: unknown, field: string): number {
  const n = number(v, field);
  if (!Number.isInteger(n) || n < 0) throw new TwinDocumentError(field, 'must be a whole number ≥ 0');
  return n;
}

function nonNegative(v: unknown, field: string): number {
  const n = number(v, field);
  if (n < 0) throw new TwinDocumentError(field, 'must be ≥ 0');
  return n;
}

function string(v: unknown, field: string): string {
  if (typeof v !== 'string') throw new TwinDocumentError(field, 'must be a string');
  return v;
}

function strings(v: unknown, field: string): string[] {
  return array(v, field).map((s, i) => string(s, `${field}[${i}]`));
}

function keyHex(v: unknown, field: string): string {
  const s = string(v, field);
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(s)) throw new TwinDocumentError(field, 'must be a key in hex (two digits a byte)');
  return s.toLowerCase();
}

function keyRange(o: Obj, field: string): { smallest_key_hex: string; largest_key_hex: string } {
  const smallest = keyHex(o.smallest_key_hex, `${field}.smallest_key_hex`);
  const largest = keyHex(o.largest_key_hex, `${field}.largest_key_hex`);
  // Keys compare bytewise, and equal-length lower-case hex compares the same way as strings.
  if (compareKeyHex(smallest, largest) > 0) throw new TwinDocumentError(`${field}.largest_key_hex`, 'must not be below smallest_key_hex');
  return { smallest_key_hex: smallest, largest_key_hex: largest };
}

/** Bytewise order of two keys given in hex (a prefix sorts first). */
export function compareKeyHex(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}

function figures(v: unknown, field: string): TwinFigures {
  const o = object(v, field);
  const out = {} as TwinFigures;
  for (const key of FIGURE_FIELDS) out[key] = nonNegative(o[key], `${field}.${key}`);
  if (o.metadataBlocksPerLookup !== undefined) {
    out.metadataBlocksPerLookup = nonNegative(o.metadataBlocksPerLookup, `${field}.metadataBlocksPerLookup`);
  }
  out.bytesPerLevel = array(o.bytesPerLevel, `${field}.bytesPerLevel`).map((b, i) => nonNegative(b, `${field}.bytesPerLevel[${i}]`));
  return out;
}

const PREDICTED_FIELDS = ['dataBlocksPerLookup', 'dataBlocksPerScan', 'filtersPerLookup', 'cacheHitRate', 'bytesWrittenPerUserByte', 'entriesWrittenPerWrite'] as const;

/** `lsm predict`'s figures: each a number ≥ 0 or null (not predicted). */
function predicted(v: unknown, field: string): PredictedTwinFigures {
  const o = object(v, field);
  const out = {} as PredictedTwinFigures;
  for (const key of PREDICTED_FIELDS) out[key] = o[key] == null ? null : nonNegative(o[key], `${field}.${key}`);
  out.filesPerLevel = o.filesPerLevel == null ? null : array(o.filesPerLevel, `${field}.filesPerLevel`).map((n, i) => count(n, `${field}.filesPerLevel[${i}]`));
  return out;
}

function pair(v: unknown, field: string): TwinPair {
  const o = object(v, field);
  const out: TwinPair = { engine: figures(o.engine, `${field}.engine`), rocksdb: figures(o.rocksdb, `${field}.rocksdb`) };
  if (o.predicted !== undefined) out.predicted = predicted(o.predicted, `${field}.predicted`);
  return out;
}

function engineTree(v: unknown, field: string): EngineTwinLevel[] {
  return array(v, field).map((l, i) => {
    const at = `${field}[${i}]`;
    const level = object(l, at);
    return {
      level: count(level.level, `${at}.level`),
      files: array(level.files, `${at}.files`).map((f, j) => {
        const fat = `${at}.files[${j}]`;
        const file = object(f, fat);
        return {
          id: count(file.id, `${fat}.id`),
          entries: count(file.entries, `${fat}.entries`),
          bytes: count(file.bytes, `${fat}.bytes`),
          ...keyRange(file, fat),
        };
      }),
    };
  });
}

function rocksdbTree(v: unknown, field: string): RocksdbTwinTree {
  const tree = object(v, field);
  const levels = array(tree.levels, `${field}.levels`).map((l, i) => {
    const at = `${field}.levels[${i}]`;
    const level = object(l, at);
    const n = count(level.level, `${at}.level`);
    return {
      level: n,
      file_count: count(level.file_count, `${at}.file_count`),
      bytes: count(level.bytes, `${at}.bytes`),
      entries: count(level.entries, `${at}.entries`),
      files: array(level.files, `${at}.files`).map((f, j) => {
        const fat = `${at}.files[${j}]`;
        const file = object(f, fat);
        return {
          level: n,
          name: string(file.name, `${fat}.name`),
          size: count(file.size, `${fat}.size`),
          entries: count(file.entries, `${fat}.entries`),
          ...keyRange(file, fat),
        };
      }),
    };
  });
  return { levels };
}

function twinCase(v: unknown, field: string): TwinCase {
  const o = object(v, field);
  const trees = object(o.trees, `${field}.trees`);
  return {
    shape: string(o.shape, `${field}.shape`),
    label: string(o.label, `${field}.label`),
    workload: string(o.workload, `${field}.workload`),
    records: count(o.records, `${field}.records`),
    operations: count(o.operations, `${field}.operations`),
    scale: nonNegative(o.scale, `${field}.scale`),
    blockCacheBytes: count(o.blockCacheBytes, `${field}.blockCacheBytes`),
    importNotes: o.importNotes === undefined ? [] : strings(o.importNotes, `${field}.importNotes`),
    run: pair(o.run, `${field}.run`),
    load: pair(o.load, `${field}.load`),
    trees: { engine: engineTree(trees.engine, `${field}.trees.engine`), rocksdb: rocksdbTree(trees.rocksdb, `${field}.trees.rocksdb`) },
    rocksdbNotes: o.rocksdbNotes === undefined ? [] : strings(o.rocksdbNotes, `${field}.rocksdbNotes`),
    directReads: typeof o.directReads === 'boolean' ? o.directReads : null,
  };
}

/**
 * The stored twin, checked: every field the page reads, with the first wrong one named by its
 * path (`cases[1].run.rocksdb.cacheHitRate must be a finite number`). Fields the page does not
 * read are left out of the result.
 */
export function parseRocksdbTwin(doc: unknown): RocksdbTwin {
  const o = object(doc, 'the document');
  if (o.kind !== ROCKSDB_TWIN_KIND) throw new TwinDocumentError('kind', `must be "${ROCKSDB_TWIN_KIND}"`);
  if (o.version !== 1) throw new TwinDocumentError('version', 'must be 1 (the only version this page reads)');
  const measured = string(o.measured, 'measured');
  if (Number.isNaN(Date.parse(measured))) throw new TwinDocumentError('measured', 'must be a date (ISO 8601)');
  const cases = array(o.cases, 'cases').map((c, i) => twinCase(c, `cases[${i}]`));
  if (cases.length === 0) throw new TwinDocumentError('cases', 'must hold at least one case');
  return {
    kind: ROCKSDB_TWIN_KIND,
    version: 1,
    measured,
    records: count(o.records, 'records'),
    operations: count(o.operations, 'operations'),
    scale: nonNegative(o.scale, 'scale'),
    cases,
  };
}

/** A case's id, unique in a document: its shape and workload. */
export function caseId(c: Pick<TwinCase, 'shape' | 'workload'>): string {
  return `${c.shape}/${c.workload}`;
}

/** "YCSB B" for "ycsb:b"; any other workload name as it is. */
export function workloadLabel(workload: string): string {
  const m = /^ycsb:([a-z])$/i.exec(workload);
  return m ? `YCSB ${m[1].toUpperCase()}` : workload;
}

const base = () => import.meta.env.BASE_URL.replace(/\/?$/, '/');

let loading: Promise<RocksdbTwin> | null = null;

/** GET and check public/measured/rocksdb-twin.json, once per page load (a failure is retried next time). */
export function loadRocksdbTwin(): Promise<RocksdbTwin> {
  if (!loading) {
    const p = fetch(`${base()}${ROCKSDB_TWIN_PATH}`).then(async (res) => {
      if (!res.ok) throw new Error(`could not load /${ROCKSDB_TWIN_PATH}: HTTP ${res.status}`);
      const doc: unknown = await res.json();
      try {
        return parseRocksdbTwin(doc);
      } catch (e) {
        throw new Error(`/${ROCKSDB_TWIN_PATH}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
      }
    });
    p.catch(() => {
      loading = null;
    });
    loading = p;
  }
  return loading;
}

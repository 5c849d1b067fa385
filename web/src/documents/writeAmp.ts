/**
 * Write amplification as measured by destination level — the engine's `lsm writes` /
 * `WasmWriteAmp` result (wasm-engine/src/write_amp.rs) and the LevelDB driver's output
 * (interop/leveldb/write_amp.cc) share this shape — and the design that puts the engine, a real
 * LevelDB and the MSLS model on the same footing.
 *
 * Index l of the per-level arrays is LevelDB's level l: 0 is where flushes land (the engine's
 * level 1), which merges never write into.
 */
import type { MslsLevelParams } from '@lsm/models';
import type { EngineConfig, Workload } from './engine';

export interface WriteCheckpoint {
  /** Writes so far. */
  inserts: number;
  flushes: number;
  /**
   * Entries the flushes wrote: the engine's buffer holds one version per key, so the distinct
   * keys; LevelDB's flush writes every version its memtable holds, so every write.
   */
  flush_entries: number;
  /** LevelDB only: the distinct keys among them. */
  flush_distinct_keys?: number;
  flush_bytes: number;
  /** Entries merges wrote into each level. */
  entries_into: number[];
  bytes_into: number[];
  /** Merges into each level (the engine) or out of each level (LevelDB: index = source level). */
  compactions: number[];
  log_bytes: number;
  /** The engine only: data pages flushes and merges wrote, in all. */
  data_pages?: number;
  /** LevelDB only: files re-linked one level down without a rewrite (trivial moves). */
  moves_into?: number[];
}

/** What `WasmWriteAmp` / `lsm writes` measure (wasm-engine/src/write_amp.rs). */
export interface WriteAmpSpec {
  config: EngineConfig;
  workload: Workload;
  /** Writes between two checkpoints. */
  checkpoint: number;
  /** Also a checkpoint at every flush, once its merges are done. */
  checkpoint_at_flush?: boolean;
}

export interface WriteAmpResult {
  key_bytes: number;
  value_bytes: number;
  checkpoints: WriteCheckpoint[];
  inserts: number;
  /** Writes per flush, on average. */
  inserts_per_flush: number;
  /** LevelDB only: its version and settings. */
  leveldb?: string;
  write_buffer_bytes?: number;
  max_file_bytes?: number;
  compaction?: 'synchronous' | 'free';
}

/** LevelDB's fixed geometry (version_set.cc, dbformat.h): level 1 holds 10 MiB, each level 10× the one above, level 0 compacts at 4 files. */
export const LEVELDB = {
  level1Bytes: 10 * 1024 * 1024,
  growthFactor: 10,
  level0Trigger: 4,
  writeBufferBytes: 4 * 1024 * 1024,
  maxFileBytes: 2 * 1024 * 1024,
} as const;

/**
 * What LevelDB's byte thresholds mean in entries, measured on a run: its 4 MiB write buffer
 * counts arena bytes (a skiplist node and the internal key's 8 bytes on top of each entry), so it
 * flushes every `insertsPerFlush` writes; its 10 MiB level and 2 MiB file sizes count table bytes,
 * `tableBytesPerEntry` per entry.
 */
export interface LeveldbCalibration {
  insertsPerFlush: number;
  tableBytesPerEntry: number;
  keyBytes: number;
  valueBytes: number;
}

/**
 * The calibration a LevelDB run measured: its flush cadence, and the bytes per entry of the
 * tables its merges wrote (one version per key, as the levels hold them).
 */
export function leveldbCalibration(r: WriteAmpResult): LeveldbCalibration {
  const last = r.checkpoints[r.checkpoints.length - 1];
  const entries = (last?.entries_into ?? []).reduce((a, b) => a + b, 0);
  const bytes = (last?.bytes_into ?? []).reduce((a, b) => a + b, 0);
  if (!(r.inserts_per_flush > 0) || !(entries > 0)) throw new Error('the LevelDB run merged nothing: too few writes to calibrate');
  return { insertsPerFlush: r.inserts_per_flush, tableBytesPerEntry: bytes / entries, keyBytes: r.key_bytes, valueBytes: r.value_bytes };
}

/**
 * LevelDB's design as an EngineConfig, in the engine's units (entry bytes = key + value): the
 * same writes per flush (a log-size trigger), level 0 merged at 4 files, level 1 of 10 MiB of
 * LevelDB's tables and ×10 below, 2 MiB files, merges by file (round robin, widened and cut as
 * LevelDB does), 4 KiB pages and 10 bits/key filters (which the writes do not depend on).
 */
export function leveldbEngineConfig(c: LeveldbCalibration): EngineConfig {
  const entryBytes = c.keyBytes + c.valueBytes;
  const inEntryBytes = (leveldbBytes: number) => (leveldbBytes / c.tableBytesPerEntry) * entryBytes;
  const buffer = Math.round(c.insertsPerFlush * entryBytes);
  return {
    kind: 'lsm-navigator/engine-config',
    version: 1,
    name: `LevelDB 1.23's design in entries: a flush every ${Math.round(c.insertsPerFlush).toLocaleString('en-US')} writes, level 0 merged at 4 files, level 1 = 10 MiB of LevelDB tables (${c.tableBytesPerEntry.toFixed(1)} B per entry), ×10 below, 2 MiB files`,
    page_bytes: 4096,
    buffer_bytes: buffer,
    buffer_trigger: 'logged',
    levels: [
      { size_ratio: Number((inEntryBytes(LEVELDB.level1Bytes) / buffer).toPrecision(7)), max_runs: LEVELDB.level0Trigger - 1 },
      { size_ratio: LEVELDB.growthFactor, max_runs: 1 },
    ],
    filter: { allocation: 'uniform', bits_per_key: 10 },
    compaction: { granularity: 'file', target_file_bytes: Math.round(inEntryBytes(LEVELDB.maxFileBytes)) },
  };
}

/**
 * The MSLS model's parameters for the same design and N keys, in LevelDB's table bytes (the model
 * counts items, so only ratios matter), with LevelDB's flush, which writes every version.
 */
export function leveldbMslsParams(c: LeveldbCalibration, keySpace: number, theta: number): MslsLevelParams {
  return {
    keySpace,
    distribution: theta > 0 ? { kind: 'zipf', theta } : { kind: 'uniform' },
    entryBytes: c.tableBytesPerEntry,
    writeBufferBytes: c.insertsPerFlush * c.tableBytesPerEntry,
    level0Trigger: LEVELDB.level0Trigger,
    level1Bytes: LEVELDB.level1Bytes,
    growthFactor: LEVELDB.growthFactor,
    flushKeepsVersions: true,
  };
}

/** The steady-state experiment: N distinct keys written once, then `updates` updates drawn uniformly or by Zipf(θ) over them. */
export function steadyStateWorkload(keys: number, updates: number, theta: number, valueBytes: number, seed = 7): Workload {
  return {
    kind: 'lsm-navigator/workload',
    version: 1,
    name: `${keys.toLocaleString('en-US')} keys written once, then ${updates.toLocaleString('en-US')} ${theta > 0 ? `Zipf(${theta})` : 'uniform'} updates of ${valueBytes} B values`,
    seed,
    preload: { entries: keys, key_space: 0, key_bytes: 16, value_bytes: valueBytes },
    operations: updates,
    mix: { update: 1 },
    distribution: theta > 0 ? { kind: 'zipf', theta } : { kind: 'uniform' },
  };
}

/** One steady-state comparison with a real LevelDB (interop/leveldb/measure.ts). */
export interface LeveldbCase {
  id: string;
  /** N: distinct keys, each written once first. */
  keys: number;
  /** Updates after the N inserts; the first `warmup` of them are not measured. */
  updates: number;
  warmup: number;
  /** 0 = uniform updates. */
  theta: number;
  valueBytes: number;
}

/** Entries written per write over a window: by flushes, and by merges into level 1, 2, … (index 0 is level 1). */
export interface MeasuredWindow {
  from: number;
  to: number;
  flush: number;
  levels: number[];
  total: number;
  /** Level-0 merges in the window. */
  cycles: number;
}

export interface MeasuredSide {
  steady: MeasuredWindow;
  /** Cumulative entries written per write from empty, at every flush. */
  fromEmpty: { inserts: number; total: number }[];
  insertsPerFlush: number;
}

export interface LeveldbCaseResult {
  case: LeveldbCase;
  calibration: LeveldbCalibration;
  leveldb: MeasuredSide & { version: string };
  engine: MeasuredSide;
  /**
   * MSLS (Algorithm 1) with LevelDB's flush (every version): flushes, then merges into level 1,
   * 2, … — entries per write, the log apart; `paperFlush` is the paper's Unique(wal)/wal, what a
   * buffer that keeps one version per key (the engine's) flushes.
   */
  msls: { flush: number; paperFlush: number; levels: number[]; total: number; warnings: string[] };
}

export const LEVELDB_WRITE_AMP_KIND = 'lsm-navigator/leveldb-write-amp';

/** The stored comparison (public/measured/leveldb-write-amp.json, written by `npm run leveldb-write-amp`). */
export interface LeveldbComparison {
  kind: typeof LEVELDB_WRITE_AMP_KIND;
  version: 1;
  /** Day measured (YYYY-MM-DD). */
  measured: string;
  /** `lsm version` of the engine measured. */
  engine: string;
  results: LeveldbCaseResult[];
}

/**
 * Write amplification as measured by destination level — the engine's `lsm writes` /
 * `WasmWriteAmp` result (wasm-engine/crates/lsm-runner/src/write_amp.rs) and the LevelDB driver's output
 * (interop/leveldb/write_amp.cc) share this shape — the steady-state experiment, and the stored
 * comparison with LevelDB (its design in the engine's units: designs/leveldb.ts).
 *
 * Index l of the per-level arrays is LevelDB's level l: 0 is where flushes land (the engine's
 * level 1), which merges never write into.
 */
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

/** What `WasmWriteAmp` / `lsm writes` measure (wasm-engine/crates/lsm-runner/src/write_amp.rs). */
export interface WriteAmpSpec {
  config: EngineConfig;
  workload: Workload;
  /** Writes between two checkpoints; 0: none but the first and the last (and the flushes'). */
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
  /** LevelDB only: its own "leveldb.stats" at the end, [level, Write(MB)] for each level it lists. */
  stats_write_mb?: [number, number][];
  write_buffer_bytes?: number;
  max_file_bytes?: number;
  compaction?: 'synchronous' | 'free';
}

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
  /** flush + levels: the tables' write amplification (the log's 1 apart). */
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
  leveldb: MeasuredSide & {
    version: string;
    /** MiB its tables took in all, by the info-log counts and by its own "leveldb.stats" (whole MB per level). */
    accounting?: { logMiB: number; statsMiB: number; statsLevels: number };
  };
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

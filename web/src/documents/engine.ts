/**
 * The engine's documents as TypeScript sees them. Every Rust document type is generated from the
 * Rust types (`generated/`, by `cargo test -p lsm-ts`, which fails when they are stale) and
 * re-exported here; this file keeps only what is not a Rust document: the page's own narrowings
 * and names, and functions over the counters.
 */

export type * from './generated/EngineConfig';
export type * from './generated/Workload';
export type * from './generated/Calibration';
export type * from './generated/Report';
export type * from './generated/Run';
export type * from './generated/TuneOptions';
export type * from './generated/TuneResult';
export type * from './generated/Twin';
export type * from './generated/Bundle';
export type * from './generated/Warning';
export type * from './generated/TraceFit';
export type * from './generated/LogFit';
export type * from './generated/Growth';
export * from './generated/ranges';

import type { Merging as AnyMerging, OpClass, ReadCounters, Stats, WriteCounters } from './generated/Report';
import type { Progress } from './generated/Run';
import type { Plugin, Rank, Target } from './generated/TuneOptions';
import type { Memory, Priced, Steady, Verdict } from './generated/TuneResult';
import type { Proof } from './generated/Bundle';
import type { Warning } from './generated/Warning';
import type { UniversalConfig, WriteStallConfig } from './generated/EngineConfig';

/** Operation classes, in the order of Stats.ops and LevelStats.reads (lsm-engine's `OpClass::ALL`). */
export const OP_CLASSES = ['put', 'delete', 'get_zero_result', 'get_non_zero_result', 'get_tombstone', 'scan'] as const satisfies readonly OpClass[];

/**
 * When automatic merges run in the browser: the worker has one thread, so of lsm-engine's `Merging`
 * it keeps `paced` and `inline` (natively there is also `background`, merger threads).
 */
export type Merging = Exclude<AnyMerging, 'background'>;

/** When a report's merges ran: the browser's modes, or natively `background` (`lsm run --merges background`). */
export type ReportMerging = AnyMerging;

// The page's names for some generated types (lsm-tune's and lsm-runner's names are terser).
export type RunProgress = Progress;
export type WriteStalls = WriteStallConfig;
export type UniversalCompaction = UniversalConfig;
export type ExportWarning = Warning;
export type PricedDesign = Priced;
export type SteadyCost = Steady;
export type RocksdbMemory = Memory;
export type TuneVerdict = Verdict;
export type TuneTarget = Target;
export type TuneRank = Rank;
export type TunePlugin = Plugin;
export type TuneProof = Proof;

const ZERO_READS: ReadCounters = {
  filter_probes: 0,
  filter_negatives: 0,
  filter_positives: 0,
  filter_true_positives: 0,
  runs_skipped_by_range: 0,
  runs_without_filter: 0,
  data_pages_read: 0,
  index_pages_read: 0,
  filter_pages_read: 0,
  data_cache_hits: 0,
  index_cache_hits: 0,
  filter_cache_hits: 0,
  index_block_reads: 0,
  filter_block_reads: 0,
  filter_modules_probed: 0,
  filter_modules_skipped: 0,
  filters_skipped: 0,
  seeks: 0,
};

/** Reads of the given operation classes summed over every level. */
export function totalReads(stats: Stats, classes: readonly OpClass[] = OP_CLASSES): ReadCounters {
  const total = { ...ZERO_READS };
  for (const level of stats.levels) {
    for (const c of classes) {
      const r = level.reads[OP_CLASSES.indexOf(c)];
      for (const k of Object.keys(total) as (keyof ReadCounters)[]) total[k] += r[k];
    }
  }
  return total;
}

/** Every write counter at 0: the start of a sum, or of a test's counters. */
export const ZERO_WRITES: Readonly<WriteCounters> = {
  flushes: 0,
  compactions: 0,
  data_pages_written: 0,
  meta_pages_written: 0,
  bytes_written: 0,
  entries_written: 0,
  pages_read: 0,
  entries_read: 0,
  entries_dropped: 0,
  moves: 0,
  entries_moved: 0,
};

export function totalWrites(stats: Stats): WriteCounters {
  const total = { ...ZERO_WRITES };
  for (const level of stats.levels) {
    for (const k of Object.keys(total) as (keyof WriteCounters)[]) total[k] += level.writes[k];
  }
  return total;
}

/** The formats the engine writes a design in (lsm-export's `Format`, which is not serialized: its names). */
export type ExportFormat = 'engine' | 'rocksdb' | 'rocksdb-cpp' | 'db_bench';

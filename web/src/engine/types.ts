/**
 * The engine's documents as TypeScript sees them. EngineConfig mirrors
 * wasm-engine/src/config.rs; Stats and TreeShape mirror stats.rs and engine.rs.
 */

export interface LevelConfig {
  size_ratio: number;
  max_runs: number;
  bits_per_key?: number;
}

export interface EngineConfig {
  kind: 'lsm-navigator/engine-config';
  version: 1;
  name?: string;
  page_bytes: number;
  buffer_bytes: number;
  levels: LevelConfig[];
  filter: { allocation: 'explicit' | 'uniform' | 'monkey'; bits_per_key: number };
}

export interface ReadCounters {
  filter_probes: number;
  filter_negatives: number;
  filter_positives: number;
  filter_true_positives: number;
  runs_skipped_by_range: number;
  runs_without_filter: number;
  data_pages_read: number;
  index_pages_read: number;
  filter_pages_read: number;
  seeks: number;
}

export interface WriteCounters {
  flushes: number;
  compactions: number;
  data_pages_written: number;
  meta_pages_written: number;
  bytes_written: number;
  entries_written: number;
  pages_read: number;
  entries_read: number;
  entries_dropped: number;
}

/** Operation classes, in the order of Stats.ops and LevelStats.reads. */
export const OP_CLASSES = ['put', 'delete', 'get_zero_result', 'get_non_zero_result', 'get_tombstone', 'scan'] as const;
export type OpClass = (typeof OP_CLASSES)[number];

export interface LevelStats {
  reads: ReadCounters[];
  writes: WriteCounters;
}

export interface Stats {
  ops: number[];
  levels: LevelStats[];
  wal_bytes_written: number;
  wal_syncs: number;
  open_index_pages_read: number;
  open_filter_pages_read: number;
}

export interface RunInfo {
  id: number;
  entries: number;
  entry_bytes: number;
  file_bytes: number;
  data_pages: number;
  filter_bits: number;
  filter_hashes: number;
  bits_per_key: number;
  filter_fpr: number;
}

export interface LevelInfo {
  level: number;
  capacity_bytes: number;
  max_runs: number;
  runs: RunInfo[];
}

export interface TreeShape {
  buffer_entries: number;
  buffer_bytes: number;
  buffer_capacity_bytes: number;
  levels: LevelInfo[];
  merging_level: number | null;
}

export interface BatchResult {
  puts: number;
  deletes: number;
  gets: number;
  gets_found: number;
  scans: number;
  scanned_entries: number;
}

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

export function totalWrites(stats: Stats): WriteCounters {
  const total: WriteCounters = {
    flushes: 0,
    compactions: 0,
    data_pages_written: 0,
    meta_pages_written: 0,
    bytes_written: 0,
    entries_written: 0,
    pages_read: 0,
    entries_read: 0,
    entries_dropped: 0,
  };
  for (const level of stats.levels) {
    for (const k of Object.keys(total) as (keyof WriteCounters)[]) total[k] += level.writes[k];
  }
  return total;
}

/**
 * The engine's documents as TypeScript sees them. EngineConfig mirrors
 * wasm-engine/crates/lsm-core/src/config.rs; Stats and TreeShape mirror stats.rs and engine.rs.
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
  /** Fixed pages (default) or RocksDB's data blocks, filled until they reach page_bytes. */
  block_layout?: 'fixed_pages' | 'rocksdb';
  buffer_bytes: number;
  /** What fills the buffer: the entries it holds (`live`, default) or every write since the last flush (`logged`, LevelDB's and MSLS's wal). */
  buffer_trigger?: 'live' | 'logged' | 'arena';
  levels: LevelConfig[];
  filter: {
    allocation: 'explicit' | 'uniform' | 'monkey' | 'mnemosyne';
    bits_per_key: number;
    /**
     * The filters' structure: `bloom` (textbook, default), `modular` (SHaMBa), `fast_local_bloom`
     * (RocksDB's `bloomfilter:N:false` with format_version 5: 512-bit cache-line blocks) or
     * `ribbon` (RocksDB's `ribbonfilter:N:L`, Standard128Ribbon; bits_per_key is N, the
     * Bloom-equivalent bits per key, and needs allocation uniform or explicit).
     */
    kind?: 'bloom' | 'modular' | 'fast_local_bloom' | 'ribbon';
    /** Ribbon only: RocksDB's bloom_before_level (flushes count as level −1; default 0); in [−1, 64]. */
    bloom_before_level?: number;
    modules?: number;
    skip?: 'none' | 'partial' | 'full';
    /** Monkey only: size filters once at birth (default) or keep re-optimising them as runs come and go. */
    monkey_policy?: 'at_birth' | 'reoptimised';
    /** Re-optimised Monkey: rebuild once the expected saving is this many times the pages read (default 1). */
    rebuild_payback?: number;
  };
  compaction?: {
    granularity: 'level' | 'file';
    target_file_bytes?: number;
    /** Which file of an over-full level merges next (RocksDB's compaction_pri); file granularity only. */
    pick?: 'round_robin' | 'min_overlapping_ratio';
    /** A file overlapping nothing below moves down unrewritten; file granularity only. */
    trivial_moves?: boolean;
    /**
     * RocksDB's level_compaction_dynamic_level_bytes: targets from the last level up, level 1
     * (L0) merges into the base level over empty levels; file granularity only.
     */
    dynamic_level_bytes?: boolean;
    /** RocksDB's num_levels, L0 included (2–64, default 7); read only with dynamic_level_bytes or universal. */
    num_levels?: number;
    /** Output files cut at the level below's boundaries as LevelDB ('leveldb') or RocksDB 7.8 ('rocksdb') does. */
    output_cuts?: 'leveldb' | 'rocksdb';
    /**
     * RocksDB 7.8's universal compaction (compaction_style kCompactionStyleUniversal) instead of
     * the rules above: level 1 is L0 (each run one file), each deeper level one sorted run, and
     * RocksDB's picker merges consecutive runs. Omitted: none. Every field defaults to RocksDB's.
     */
    universal?: UniversalCompaction;
  };
  block_cache?: {
    bytes: number;
    cache_index_and_filter_blocks?: boolean;
    /** RocksDB's pin_l0_filter_and_index_blocks_in_cache: level 0's index and filter blocks stay pinned, charged to the cache. Needs cache_index_and_filter_blocks. */
    pin_l0_filter_and_index_blocks_in_cache?: boolean;
    high_priority_ratio?: number;
    /** RocksDB's LRU: a block hit once moves into the high-priority pool. */
    midpoint_insertion?: boolean;
    /**
     * RocksDB's index_type: 'binary_search' (default, one index block per file) or
     * 'two_level_index_search' (kTwoLevelIndexSearch: index partitions under a top-level index,
     * always through the block cache). Two-level needs block_layout 'rocksdb'.
     */
    index_type?: 'binary_search' | 'two_level_index_search';
    /** RocksDB's partition_filters: filters cut into partitions aligned with the index's. Needs index_type 'two_level_index_search'. */
    partition_filters?: boolean;
    /** RocksDB's metadata_block_size: bytes an index partition is cut at (64–16777216, default 4096). */
    metadata_block_size?: number;
    /** RocksDB's pin_top_level_index_and_filter (default true): the top levels stay pinned, charged to the cache. */
    pin_top_level_index_and_filter?: boolean;
  };
  statistics_window?: number;
  /** When writes slow down and stop behind merges (RocksDB 7.8's names and defaults; omitted: the defaults). */
  write_stalls?: WriteStalls;
}

/** RocksDB's write-stall thresholds (lsm-core/src/pacing.rs). Level 0 is the engine's level 1. */
export interface WriteStalls {
  /** Level-1 files at which writes slow down (1–2²⁰, at most the stop trigger; default 20). */
  level0_slowdown_writes_trigger?: number;
  /** Level-1 files at which writes stop until merges bring it below (1–2²⁰; default 36). */
  level0_stop_writes_trigger?: number;
  /** Estimated pending merge bytes at which writes slow down; 0 is no limit (default 64 GiB). */
  soft_pending_compaction_bytes_limit?: number;
  /** Estimated pending merge bytes at which writes stop; 0 is no limit, else ≥ the soft limit (default 256 GiB). */
  hard_pending_compaction_bytes_limit?: number;
}

/** RocksDB's compaction_options_universal and its trigger (lsm-core/src/universal.rs). */
export interface UniversalCompaction {
  /** Sorted runs (L0 files and non-empty levels) before a compaction is considered (1–1000, default 4). */
  level0_file_num_compaction_trigger?: number;
  /** Percent a stretch of runs may fall short of the next run and still take it (0–1000000, default 1). */
  size_ratio?: number;
  /** Fewest runs a size-ratio merge takes (≥ 2, default 2). */
  min_merge_width?: number;
  /** Most runs a size-ratio or run-count merge takes (≥ min_merge_width, default 4294967295). */
  max_merge_width?: number;
  /** Newer runs may add up to this percent of the oldest before everything merges (default 200). */
  max_size_amplification_percent?: number;
  /** What ends a stretch: its total size (default) or the last run's. */
  stop_style?: 'total_size' | 'similar_size';
  /** Merges whose input files overlap nowhere move them down unrewritten (default false). */
  allow_trivial_move?: boolean;
}

/** The Workload document (wasm-engine/crates/lsm-core/src/workload.rs). */
export interface Workload {
  kind: 'lsm-navigator/workload';
  version: 1;
  name?: string;
  seed: number;
  preload: { entries: number; key_space?: number; key_bytes: number; value_bytes: number };
  operations: number;
  mix: Partial<Record<'insert' | 'update' | 'delete' | 'get_existing' | 'get_missing' | 'range', number>>;
  distribution:
    | { kind: 'uniform' }
    | { kind: 'zipf'; theta: number }
    | { kind: 'latest'; theta: number }
    | { kind: 'hotspot'; hot_fraction: number; hot_probability: number };
  range_selectivity?: number;
}

/** Runner progress (wasm-engine/crates/lsm-runner/src/runner.rs). */
export interface RunProgress {
  phase: 'preload' | 'run' | 'done';
  preload_done: number;
  preload_total: number;
  run_done: number;
  run_total: number | null;
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
  data_cache_hits: number;
  index_cache_hits: number;
  filter_cache_hits: number;
  index_block_reads: number;
  filter_block_reads: number;
  filter_modules_probed: number;
  filter_modules_skipped: number;
  filters_skipped: number;
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
  /** Trivial moves into the level: files moved down without being read or rewritten. */
  moves: number;
  /** Entries those moves carried down. */
  entries_moved: number;
}

/** Operation classes, in the order of Stats.ops and LevelStats.reads. */
export const OP_CLASSES = ['put', 'delete', 'get_zero_result', 'get_non_zero_result', 'get_tombstone', 'scan'] as const;
export type OpClass = (typeof OP_CLASSES)[number];

/** Re-optimised Monkey's filter rebuilds (pages read: the policy's price) and module drops. */
export interface ResizeCounters {
  rebuilds: number;
  pages_read: number;
  shrinks: number;
}

export interface LevelStats {
  reads: ReadCounters[];
  writes: WriteCounters;
  filter_resizing?: ResizeCounters;
}

export interface Stats {
  ops: number[];
  levels: LevelStats[];
  wal_bytes_written: number;
  wal_syncs: number;
  /** Pages read when tables were opened. */
  open: ReadCounters;
  wal_records_replayed: number;
  /** Key and value bytes written by puts and deletes (absent in older reports). */
  user_bytes_written?: number;
  /** Writes that waited behind merges (absent in older reports). */
  stalls?: StallCounters;
}

/**
 * When automatic merges run in the browser (lsm-engine/src/merging.rs Merging; the CLI's `--merges`).
 * The native engine also has `background` (merger threads); the worker has one thread, so it keeps these two.
 */
export type Merging = 'paced' | 'inline';

/** When a report's merges ran: the browser's modes, or natively `background` (the default of `lsm run --dir`, on files). */
export type ReportMerging = Merging | 'background';

/**
 * Where writes stand against the write-stall thresholds between two writes (lsm-engine/src/merging.rs
 * WriteStallState, the worker's `stall` in every snapshot). Level 0 is the engine's level 1.
 */
export interface WriteStallState {
  /** The thresholds' verdict on the tree as it stands: what the next write does if merge work is pending. */
  stall: 'none' | 'slowdown' | 'stop';
  /** Writes pace the merges and stall at all (automatic merges, paced). */
  paced: boolean;
  /** Merge work is pending: the next write merges its share first. */
  merges_pending: boolean;
  /** Files in level 1 (RocksDB's level 0), as the level-0 triggers count them. */
  level0_files: number;
  /** Estimated bytes the pending merges write. */
  pending_bytes: number;
  /** Output pages a write merges at most while not slowed down. */
  slice_pages: number;
  /** Output pages a slowed-down write merges at most. */
  slowdown_slice_pages: number;
}

/** Write stalls (lsm-engine/src/stats.rs StallCounters): each counts writes. */
export interface StallCounters {
  /** Writes slowed down (a larger merge slice) at a slowdown threshold. */
  slowdowns: number;
  /** Writes stopped at a stop threshold until merges brought it below. */
  stops: number;
  /** Writes whose flush waited for the merges the last flush started. */
  flush_waits: number;
  /** Output pages merged by stalled writes. */
  pages_merged: number;
  /** Time spent stalled (only when operations were timed), ns. */
  stalled_ns: number;
}

/** One phase's writes (Report.writes: the run; Report.load_writes: the load). */
export interface WriteSummary {
  totals: WriteCounters;
  bytes_written_per_level: number[];
  pages_written_per_update: number;
  /** Absent in reports older than the load-phase summary. */
  user_bytes?: number;
  write_amplification?: number;
}

export interface TableInfo {
  id: number;
  entries: number;
  entry_bytes: number;
  file_bytes: number;
  data_pages: number;
  filter_bits: number;
  filter_hashes: number;
  filter_modules: number;
  bits_per_key: number;
  filter_fpr: number;
  accesses: number;
  found: number;
  estimated_empty_probes: number;
  /** Smallest and largest key, hex-encoded (RocksDB's smallestkey / largestkey). */
  min_key_hex: string;
  max_key_hex: string;
  /** Index and filter metadata held in memory: pinned blocks, top levels, data block ends (bytes). */
  metadata_memory_bytes?: number;
}

export interface RunInfo {
  id: number;
  entries: number;
  entry_bytes: number;
  file_bytes: number;
  data_pages: number;
  filter_bits: number;
  bits_per_key: number;
  /** Expected FPR for a key in the run's range (tables weighted by entries). */
  filter_fpr: number;
  /** Data pages read to rebuild its tables' filters (re-optimised Monkey). */
  filter_rebuild_pages?: number;
  tables: TableInfo[];
}

export interface LevelInfo {
  level: number;
  /** null: level 1 with merges by file, bounded by its run count only. */
  capacity_bytes: number | null;
  max_runs: number;
  runs: RunInfo[];
}

export interface TreeShape {
  buffer_entries: number;
  buffer_bytes: number;
  buffer_capacity_bytes: number;
  levels: LevelInfo[];
  merging_level: number | null;
  /** Pages the merge under way has read and written so far (absent in older documents). */
  merge_progress?: { pages_read: number; pages_written: number } | null;
  cache_bytes: number;
  mnemosyne_log_c: number | null;
}

export interface ClassSummary {
  class: OpClass;
  count: number;
  page_ios: number;
  io_per_op: number;
  data_pages_read: number;
  filter_probes: number;
  filter_negatives: number;
  filter_positives: number;
  filter_true_positives: number;
  filter_false_positives: number;
  seeks: number;
}

/** The Report document (wasm-engine/crates/lsm-runner/src/report.rs). */
export interface Report {
  kind: 'lsm-navigator/report';
  version: 1;
  engine: string;
  config: EngineConfig;
  /** When the run's merges ran (absent in reports written before it was recorded): the browser always runs paced or inline. */
  merges?: ReportMerging;
  workload: Workload | null;
  source: string;
  preload_operations: number;
  operations: Record<'insert' | 'update' | 'delete' | 'get_existing' | 'get_missing' | 'get' | 'range', number>;
  results: { get_existing_found: number; get_missing_found: number; get_found: number; range_entries: number };
  preload: Stats;
  run: Stats;
  summary: ClassSummary[];
  /** The run phase's writes. */
  writes: WriteSummary;
  /** The load phase's writes (absent in older reports: derive them from `preload`). */
  load_writes?: WriteSummary;
  tree: TreeShape;
  predicted: { zero_result_lookup_io: number; runs: number };
  /** The run's counters under RocksDB's statistics names (rocksdb.bloom.filter.useful, …). */
  rocksdb_counters: Record<string, number>;
  timings: { preload_ms: number; run_ms: number } | null;
  /** Per-operation latencies and throughput over time, when the run was timed (wall clock). */
  latency?: LatencyReport;
}

/** One operation class in one phase (wasm-engine/crates/lsm-runner/src/latency.rs), in nanoseconds. */
export interface ClassLatency {
  class: string;
  count: number;
  mean_ns: number;
  p50_ns: number;
  p90_ns: number;
  p95_ns: number;
  p99_ns: number;
  p999_ns: number;
  max_ns: number;
  /** When the slowest operation ended, on the runner's clock (`performance.now()` × 10⁶ in the browser). */
  max_end_ns: number;
  /** (upper bound in ns, operations), doubling from 64 ns. */
  buckets: [number, number][];
}

export interface ThroughputSample {
  /** Engine time since the phase began, at the sample's end. */
  seconds: number;
  ops: number;
  ops_per_sec: number;
}

export interface LatencyReport {
  clock_resolution_ns: number;
  load: ClassLatency[];
  run: ClassLatency[];
  load_throughput: ThroughputSample[];
  run_throughput: ThroughputSample[];
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
    moves: 0,
    entries_moved: 0,
  };
  for (const level of stats.levels) {
    for (const k of Object.keys(total) as (keyof WriteCounters)[]) total[k] += level.writes[k];
  }
  return total;
}

/** The formats the engine writes a design in (wasm-engine/crates/lsm-export). */
export type ExportFormat = 'engine' | 'rocksdb' | 'rocksdb-cpp' | 'db_bench';

export interface ExportWarning {
  field: string;
  kind: 'dropped' | 'rounded' | 'approximated';
  message: string;
}

/** What `tune::predict` says a run will measure (wasm-engine/crates/lsm-tune/src/predict.rs). */
export interface Prediction {
  /** I/O per operation: zero-result lookup, non-zero-result lookup, range lookup, write. */
  class_costs: [number, number, number, number];
  mix: [number, number, number, number];
  expected: number;
  runs: number;
  levels: number;
  tree: number[][];
  flushes: number;
  merges: number;
  pages_written: number;
}

export interface PricedDesign {
  config: EngineConfig;
  summary: string;
  prediction: Prediction;
  worst: number;
  worst_mix: [number, number, number, number];
  /** RocksDB designs: the steady-state cost the search ranks by (each write at its amortised share). */
  steady?: SteadyCost;
  /** RocksDB designs: the memory RocksDB charges for the design. */
  memory?: RocksdbMemory;
  /** Ranked by time: the priced I/O's time on the calibrated device (`worst` is then in µs too). */
  time?: TimeCost;
}

/** lsm-tune's `Steady`: lookups as the run replays them, writes amortised (Monkey Eq 10, Dostoevsky). */
export interface SteadyCost {
  class_costs: [number, number, number, number];
  expected: number;
  write_amp: number;
  space_amp: number;
  /** Bytes written per user byte the replay predicts over load + run (what the proof measures). */
  write_amp_replayed: number;
}

/** lsm-tune's `Memory`, bytes: memtables (write_buffer_size × max_write_buffer_number) + block cache + index/filter blocks held outside it. */
export interface RocksdbMemory {
  memtables: number;
  block_cache: number;
  filters: number;
  index: number;
  outside_cache: number;
  total: number;
}

/** A gain with the model's stated error around it; `keep` when that range holds 0. */
export interface TuneVerdict {
  gain: number;
  low: number;
  high: number;
  current_error: number;
  recommended_error: number;
  keep: boolean;
  words: string;
}

/** One RocksDB option the recommendation changes, with its reason and share of the gain. */
export interface OptionChange {
  section: string;
  option: string;
  from: string;
  to: string;
  reason: string;
  share: number;
}

export type TuneTarget = 'engine' | 'rocksdb';
/** What the tuner ranks designs by: I/O per operation, or predicted µs per operation on a calibrated device. */
export type TuneRank = 'io' | 'time';

/**
 * The tuner's inputs besides the design and the workload: lsm-tune's `TuneOptions` document, which
 * `lsm tune`'s flags and lsm-wasm's `tune_with` also build (unknown fields are refused).
 */
export interface TuneOptions {
  rho: number;
  target: TuneTarget;
  /** The memory budget in bytes; null: what the current design uses. */
  memory: number | null;
  /** RocksDB's max_write_buffer_number the memory is charged with, in [1, 64]; absent: 2. */
  write_buffers?: number;
  rank: TuneRank;
  /** Needed when rank is time. */
  calibration: Calibration | null;
  /** A plugin the user accepts building in (RocksDB target): per-level filter bits through the shipped C++ policy. Absent/null: none. */
  plugin?: TunePlugin | null;
}

/** Plugins the tuner may recommend (lsm-tune `per_level::Plugin`). */
export type TunePlugin = 'per-level-filters';

/** lsm-tune `Headline`: the recommendation's one gain, its range, keep or change, and what it measures. */
export interface TuneHeadline {
  gain: number;
  low: number;
  high: number;
  /** Keep your design: the recommendation is the current design. */
  keep: boolean;
  measures: string;
}

/** A plugin the recommendation cannot run without (lsm-tune `RequiredPlugin`). */
export interface RequiredPlugin {
  plugin: TunePlugin;
  /** The policy's name as RocksDB records it. */
  policy: string;
  /** The bundle's file holding it: policy.h. */
  file: string;
  /** Bits per key by RocksDB level, L0 first. */
  bits_by_level: number[];
  note: string;
}

/** The Tune result document (wasm-engine/crates/lsm-tune/src/lib.rs), the same as `lsm tune` prints. */
export interface TuneResult {
  kind: 'lsm-navigator/tune-result';
  version: 1;
  rho: number;
  target: TuneTarget;
  /** What the designs were ranked by; worst cases, neighbourhood, verdict and shares are in that unit. */
  rank?: TuneRank;
  /** The device ranked on (rank = time). */
  calibration?: Calibration;
  memory_bytes: number;
  workload: Workload;
  mix: [number, number, number, number];
  current: PricedDesign;
  nominal: PricedDesign;
  robust: PricedDesign;
  recommended: 'nominal' | 'robust';
  expected_loss: number;
  /** The gain in I/O per operation in the run as played (what the proof measures). */
  predicted_gain: number;
  /** The one headline gain, with the model's error around it and what it measures. */
  headline: TuneHeadline;
  candidates: number;
  neighbourhood: { samples: number; current: number[]; nominal: number[]; robust: number[] };
  /** Both designs predicted with twice the data (same operations). */
  grown: { records: number; current: number; recommended: number };
  /** RocksDB designs: max_write_buffer_number the memory was charged with. */
  write_buffers?: number;
  /** RocksDB designs: gain of the steady-state cost the search ranks by. */
  steady_gain?: number;
  verdict?: TuneVerdict;
  /** The recommendation as RocksDB options (empty when the verdict is keep). */
  changes?: OptionChange[];
  shares_note?: string;
  robust_note?: string;
  export_warnings?: string[];
  /** The plugin the user accepted, if any. */
  plugin_allowed?: TunePlugin;
  /** The plugin the recommendation needs; absent when its OPTIONS file alone runs it. */
  plugin?: RequiredPlugin;
}

/** Measured I/O per operation of the current and the recommended design, and where. */
export interface TuneProof {
  current: number;
  recommended: number;
  on: string;
}

export interface BundleFile {
  name: string;
  text: string;
}

/** What `lsm fit` prints (wasm-engine/crates/lsm-workload/src/fit.rs). */
export interface TraceFit {
  kind: 'lsm-navigator/trace-fit';
  version: 1;
  trace: string;
  preload_operations: number;
  run_operations: number;
  zero_result_share: number;
  popularity: {
    distribution: 'uniform' | 'zipf';
    theta: number;
    accesses: number;
    keys: number;
    uniform_p: number;
    log_likelihood_zipf: number;
    log_likelihood_uniform: number;
    ks_distance: number;
    /** (rank, observed accesses, fitted accesses) */
    rank_frequency: [number, number, number][];
  };
  mean_key_bytes: number;
  mean_value_bytes: number;
  data_bytes: number;
  notes: string[];
  workload: Workload;
}

/** Monkey's Fig 12A on the engine (wasm-engine/crates/lsm-runner/src/growth.rs). */
export type GrowthPolicy = 'uniform' | 'monkey_at_birth' | 'monkey_reoptimised';

export interface GrowthSpec {
  config: EngineConfig;
  from_log2: number;
  to_log2: number;
  lookups: number;
  value_bytes: number;
  policies?: GrowthPolicy[];
}

export interface GrowthPoint {
  policy: GrowthPolicy;
  entries: number;
  runs: number[];
  io_per_lookup: number;
  expected_io: number;
  optimum_io: number;
  bits_per_key: number;
  rebuilds: number;
  rebuild_pages: number;
}

export interface GrowthResult {
  kind: 'lsm-navigator/filter-growth';
  spec: GrowthSpec;
  points: GrowthPoint[];
}

/** What a device and a store's CPU cost (`lsm_core::calibration::Calibration`, `lsm calibrate`). */
export interface Calibration {
  kind: 'lsm-navigator/calibration';
  version: 1;
  /** Where the pages were timed: "files in /tmp (direct reads)", "OPFS (sync access handles)". */
  device: string;
  /** Whether page reads bypassed the OS cache (O_DIRECT); never in a browser. */
  direct_reads: boolean;
  page_bytes: number;
  /** Mean µs to read one page at a random offset, one read at a time. */
  page_read_us: number;
  /** µs per page a flush or merge writes: the device's batched, flushed write plus the merge CPU. */
  page_write_us: number;
  /** Whose CPU `cpu_us` is: "lsm-engine 0.1.0 (wasm)", "rocksdb 7.8.3". */
  store: string;
  /** CPU µs per operation of each class (zero-result, non-zero-result, range lookup, write), pages in memory. */
  cpu_us: [number, number, number, number];
  notes: string[];
}

/** A design's predicted time on a calibrated device (`lsm_core::calibration::TimeCost`). */
export interface TimeCost {
  us_per_op: [number, number, number, number];
  mean_us: number;
  ops_per_sec: number;
}

//! EngineConfig: the design the engine obeys. One definition, versioned, shared with the UI and
//! the exporters (`public/presets/*.json` are instances of it). This file holds the types, their
//! defaults and the ranges the page and the other crates read; each subsystem's validation lives
//! beside it in `config/` (`levels`, `filter`, `compaction`, `block_cache`), called in order by
//! `EngineConfig::validate`.

mod block_cache;
mod compaction;
mod filter;
mod levels;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::pacing::WriteStallConfig;
/// The range checks, where the documents' validation has always found them.
pub use crate::range::{check_integer, check_range};
use crate::universal::UniversalConfig;

/// The EngineConfig `version` this build reads and writes; validation rejects any other.
pub const CONFIG_VERSION: u32 = 1;
/// The `kind` every EngineConfig document carries, so a Workload or report passed by mistake is
/// rejected by name.
pub const CONFIG_KIND: &str = "lsm-navigator/engine-config";

/// A design: page and buffer sizes, the shape of each level, filters, merge granularity and
/// block cache. `from_json` parses and validates; a value built in code is checked only by
/// `validate`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct EngineConfig {
    /// Document type; must be `CONFIG_KIND` ("lsm-navigator/engine-config").
    #[cfg_attr(feature = "ts", ts(type = "\"lsm-navigator/engine-config\""))]
    pub kind: String,
    /// Schema version; must be `CONFIG_VERSION` (1).
    #[cfg_attr(feature = "ts", ts(type = "1"))]
    pub version: u32,
    /// Label for people (presets, the header of exported files); optional, not validated.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub name: String,
    /// Size of one data page (the unit of I/O), bytes; a power of two in [256, 65536].
    pub page_bytes: u32,
    /// How data is cut into pages: `fixed_pages` (default: every page exactly `page_bytes`, holding
    /// the entries that fit) or `rocksdb` (RocksDB's data blocks: entries are added until the
    /// block reaches `page_bytes`, its `block_size`, and blocks are stored back to back; a block
    /// read is one I/O, as RocksDB's `block_read_count` counts it).
    #[serde(default, skip_serializing_if = "is_default")]
    pub block_layout: BlockLayout,
    /// Write buffer (memtable) capacity in entry bytes (key + value lengths); in
    /// [page_bytes, 2³²].
    pub buffer_bytes: u64,
    /// What fills the buffer up to `buffer_bytes`: the entries it holds, or every write since
    /// the last flush.
    #[serde(default, skip_serializing_if = "is_default")]
    pub buffer_trigger: BufferTrigger,
    /// Shape of levels 1, 2, ...; the last entry also describes every deeper level.
    pub levels: Vec<LevelConfig>,
    /// How much filter memory there is, how it is split over runs or files, and the filters'
    /// structure.
    pub filter: FilterConfig,
    /// Whether a merge takes whole levels or single files; omitted: whole levels.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub compaction: CompactionConfig,
    /// The block cache; omitted: none, and filters and fence pointers pinned in memory.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub block_cache: BlockCacheConfig,
    /// Point lookups per file remembered by the access statistics (Merlin's window); in [1, 64],
    /// default 64.
    #[serde(default = "default_statistics_window")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub statistics_window: u32,
    /// When writes slow down and stop behind merges (RocksDB's write-stall thresholds); omitted:
    /// RocksDB's defaults.
    #[serde(default, skip_serializing_if = "is_default")]
    pub write_stalls: WriteStallConfig,
}

fn default_statistics_window() -> u32 {
    64
}

/// The shape of one level (an entry of `EngineConfig::levels`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct LevelConfig {
    /// Capacity of this level divided by the capacity of the one above (level 1: by the buffer),
    /// T; in [1, 1000], fractions allowed.
    pub size_ratio: f64,
    /// Runs the level may hold (1 = leveling, T−1 = tiering), K; in [1, 1000]. With `file`
    /// granularity every level below level 1 must have 1.
    pub max_runs: u32,
    /// Bits per key of this level's filters when `filter.allocation` is `explicit` (0 = no filter);
    /// in [0, 64], required with `explicit`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bits_per_key: Option<f64>,
}

/// How the filter memory budget is split over runs or files (JSON `filter.allocation`,
/// lowercase).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Allocation {
    /// Each level's `bits_per_key`.
    Explicit,
    /// The same bits per key everywhere (the state of the art Monkey compares with).
    Uniform,
    /// Monkey: the total budget `bits_per_key × entries` split optimally over the actual runs.
    Monkey,
    /// Mnemosyne: the budget split over files by their measured empty-lookup rates.
    Mnemosyne,
}

/// The structure of each filter (JSON `filter.kind`, snake_case); default `bloom`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum FilterKind {
    /// One textbook Bloom filter per run (or file): k = round(b·ln 2) probes anywhere in the
    /// filter, FPR (1 − e^{−k/b})^k. The models' filter.
    #[default]
    Bloom,
    /// SHaMBa's modular Bloom filter: `modules` smaller filters probed in order, each its own block.
    Modular,
    /// RocksDB's FastLocalBloom, what `filter_policy=bloomfilter:N:false` builds with
    /// `format_version=5` (7.8's default): every probe of a key falls in one 512-bit cache line,
    /// the probe count is chosen from millibits per key (`ChooseNumProbes`), and the filter is
    /// rounded up to whole 64-byte lines. Its FPR is a little above the textbook one (0.95% at
    /// 10 bits/key, against 0.82%): `filter_kinds::fast_local_bloom_fpr`.
    FastLocalBloom,
    /// RocksDB's Standard128Ribbon (`filter_policy=ribbonfilter:N:L`): `bits_per_key` is N, the
    /// *Bloom-equivalent* bits per key (the filter is sized for FastLocalBloom's estimated FPR at
    /// N bits/key and takes ~30% less memory). Files built before `bloom_before_level` get
    /// FastLocalBloom, as do filters too small for Ribbon to pay (`filter_kinds::ribbon_layout`).
    Ribbon,
}

/// SHaMBa's filter-skipping strategies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum FilterSkip {
    /// Always probe every module.
    #[default]
    None,
    /// Skip trailing modules whose utility is below the threshold.
    Partial,
    /// Skip any module whose utility is below the threshold.
    Full,
}

/// Filter memory and structure (JSON `filter`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct FilterConfig {
    /// How the budget is split over runs or files.
    pub allocation: Allocation,
    /// Average bits per entry for `uniform`, `monkey` and `mnemosyne` (ignored by `explicit`); in
    /// [0, 64].
    pub bits_per_key: f64,
    /// The filters' structure: `bloom` (textbook, default), `modular` (SHaMBa), `fast_local_bloom`
    /// (RocksDB's `bloomfilter`, format_version 5) or `ribbon` (RocksDB's `ribbonfilter`).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub kind: FilterKind,
    /// `ribbon` only: RocksDB's `bloom_before_level`. Files created at a RocksDB level below it
    /// get FastLocalBloom, the rest Ribbon; a flush counts as level −1 (RocksDB's rule), and
    /// engine level i is RocksDB's level i − 1. 0 (RocksDB's default): flushes get Bloom, every
    /// compaction output Ribbon; −1: Ribbon everywhere. In [−1, 64].
    #[serde(default, skip_serializing_if = "is_default")]
    pub bloom_before_level: i32,
    /// Modules per filter (`modular` only); in [1, 16], and exactly 1 for `bloom`. Default 1.
    #[serde(default = "one")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub modules: u32,
    /// SHaMBa's module skipping at lookup time; anything but `none` needs `kind` `modular`.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub skip: FilterSkip,
    /// Monkey only: size each filter once, when its run is born, or keep re-optimising the
    /// filters that exist as runs come and go.
    #[serde(default, skip_serializing_if = "is_default")]
    pub monkey_policy: MonkeyPolicy,
    /// Re-optimised Monkey: rebuild filters once the I/O they are expected to save before their
    /// runs next change is at least this many times the pages the rebuild reads (1 = break even);
    /// in [0, 1000000], default 1 (`DEFAULT_REBUILD_PAYBACK`).
    #[serde(default = "default_rebuild_payback", skip_serializing_if = "is_default_rebuild_payback")]
    pub rebuild_payback: f64,
}

impl FilterConfig {
    /// One plain Bloom filter per run (or file), no skipping, Monkey sized at birth.
    pub fn bloom(allocation: Allocation, bits_per_key: f64) -> Self {
        FilterConfig {
            allocation,
            bits_per_key,
            kind: FilterKind::Bloom,
            modules: 1,
            bloom_before_level: 0,
            skip: FilterSkip::None,
            monkey_policy: MonkeyPolicy::AtBirth,
            rebuild_payback: DEFAULT_REBUILD_PAYBACK,
        }
    }
}

fn one() -> u32 {
    1
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// `filter.rebuild_payback` when omitted: rebuild as soon as the expected saving pays for the
/// read (break even).
pub const DEFAULT_REBUILD_PAYBACK: f64 = 1.0;
/// Allowed `filter.rebuild_payback`, inclusive.
pub const REBUILD_PAYBACK_RANGE: (f64, f64) = (0.0, 1_000_000.0);

fn default_rebuild_payback() -> f64 {
    DEFAULT_REBUILD_PAYBACK
}

fn is_default_rebuild_payback(v: &f64) -> bool {
    *v == DEFAULT_REBUILD_PAYBACK
}

/// When Monkey's optimum is applied to a filter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum MonkeyPolicy {
    /// Once, when the run is born, for the tree the design says the data fills.
    #[default]
    AtBirth,
    /// New runs are sized for the tree that exists, and when runs come and go the filters that
    /// exist are brought toward the optimum for the runs that exist: shrunk by dropping modules
    /// (no I/O) or rebuilt from their run's keys (a counted sequential read) when that pays.
    Reoptimised,
}

/// How a table's data is cut into pages (JSON `block_layout`, snake_case).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum BlockLayout {
    /// Pages of exactly `page_bytes`: the entries that fit, zero padding after them.
    #[default]
    FixedPages,
    /// RocksDB's data blocks: filled until they reach `page_bytes` (`lsm_core::layout::rocksdb_block_is_full`),
    /// each stored at its own length.
    Rocksdb,
}

/// When the write buffer is full.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum BufferTrigger {
    /// When the entries it holds reach `buffer_bytes`: an overwrite replaces the buffered
    /// version, so under skew a flush carries more writes than it holds.
    #[default]
    Live,
    /// When the writes since the last flush, overwrites included, reach `buffer_bytes`: what a
    /// log-size trigger or a skiplist memtable that keeps every version does (LevelDB, RocksDB),
    /// and the `wal` of the MSLS model.
    Logged,
    /// RocksDB's skiplist memtable: every write since the last flush, each charged its arena
    /// bytes (key and value plus the internal key's sequence number, varint lengths and node
    /// pointers: `arena::entry_arena_bytes`), flushed a quarter arena block short of
    /// `buffer_bytes`, as RocksDB charges `write_buffer_size`.
    Arena,
}

/// What one merge takes (JSON `compaction.granularity`, lowercase); default `level`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Granularity {
    /// A merge takes whole levels (Monkey, Moose).
    #[default]
    Level,
    /// Runs are split into files; a merge takes one file and the overlapping files below
    /// (LevelDB/RocksDB, the design MSLS models).
    File,
}

/// Which file of an over-full level a merge by file takes (JSON `compaction.pick`, snake_case);
/// RocksDB's `compaction_pri`. Default `round_robin`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum FilePick {
    /// The file after the last one merged, wrapping around (LevelDB; RocksDB's `kRoundRobin`).
    #[default]
    RoundRobin,
    /// The file whose overlap with the level below is smallest relative to its own size, so a
    /// merge rewrites the fewest bytes below per byte it moves down (RocksDB's default,
    /// `kMinOverlappingRatio`). A file that overlaps nothing below scores 0 and goes first.
    MinOverlappingRatio,
}

/// How merges are cut (JSON `compaction`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct CompactionConfig {
    /// Whole levels (`level`) or one file and its overlap below (`file`).
    pub granularity: Granularity,
    /// Target size of one file with `file` granularity, in entry bytes; in [page_bytes, 2³²]
    /// (checked only with `file` granularity), default 2 MiB.
    #[serde(default = "default_target_file_bytes")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub target_file_bytes: u64,
    /// With `file` granularity: which file of an over-full level is merged next; default
    /// `round_robin`.
    #[serde(default, skip_serializing_if = "is_default")]
    pub pick: FilePick,
    /// With `file` granularity: a merge of one file that overlaps nothing in the level below
    /// moves the file down without rewriting it (RocksDB's and LevelDB's trivial move), unless
    /// it overlaps more than 25 target files' bytes two levels down. Default false: every merge
    /// rewrites its inputs.
    #[serde(default, skip_serializing_if = "is_default")]
    pub trivial_moves: bool,
    /// With `file` granularity: RocksDB's `level_compaction_dynamic_level_bytes`. The tree has
    /// RocksDB's `num_levels` levels, L0 (engine level 1, the flushed files) to the last level
    /// L(num_levels − 1) (engine level `num_levels`), and level targets are sized from the
    /// bottom up by RocksDB 7.8's `VersionStorageInfo::CalculateBaseBytes`
    /// (`compaction::dynamic_levels`): the largest level below L0 sets the last level's target,
    /// each level above it is a `max_bytes_for_level_multiplier`-th (`levels[1].size_ratio`) of
    /// the one below, up to the first level whose target is at most `max_bytes_for_level_base`
    /// (`buffer_bytes × levels[0].size_ratio`): the *base level*. Level 1 merges into the base
    /// level, over the empty levels between them (into the last level while the tree is empty);
    /// no target is below `max_bytes_for_level_base`. The next merge is the level with the
    /// highest compaction score, as 7.8's `ComputeCompactionScore` scores it. Deeper `levels`
    /// entries must repeat `levels[1]`'s size ratio (one multiplier, as RocksDB ignores
    /// `max_bytes_for_level_multiplier_additional` in this mode). Default false: static targets
    /// from the buffer down and no last level.
    #[serde(default, skip_serializing_if = "is_default")]
    pub dynamic_level_bytes: bool,
    /// RocksDB's `num_levels`, L0 included, with `dynamic_level_bytes`: engine level
    /// `num_levels` is the last level, which is never merged further down. In
    /// [2, 64] (`NUM_LEVELS_RANGE`), default 7; only `dynamic_level_bytes` reads it.
    #[serde(default = "default_num_levels", skip_serializing_if = "is_default_num_levels")]
    pub num_levels: u32,
    /// With `file` granularity: where a merge cuts its output files besides the target size.
    /// `leveldb` (default): once a file overlaps more than 10 target files' bytes two levels
    /// down. `rocksdb`: RocksDB 7.8's rules with `level_compaction_dynamic_file_size` (its
    /// default): a file above the bottom level may grow to twice the target; at a boundary of
    /// a file two levels down, cut when the file and its overlap
    /// there pass `max_compaction_bytes` (25 target files), when the next key would skip more
    /// than an eighth of a target file there, or when the file has reached 50% of the target
    /// plus 5% per boundary crossed (at most 90%).
    #[serde(default, skip_serializing_if = "is_default")]
    pub output_cuts: OutputCuts,
    /// RocksDB's universal compaction (`kCompactionStyleUniversal` with its
    /// `compaction_options_universal`), replacing the merge rules above: level 1 is L0, each of
    /// its runs one flushed (or merged) file; every non-empty level below is one sorted run; and
    /// RocksDB 7.8's picker (`universal::pick`) chooses which consecutive runs merge and into which
    /// level, over `num_levels` levels. `levels` give only bits per key (their size ratios and run
    /// counts are not read). With `file` granularity outputs below level 1 are cut at
    /// `target_file_bytes`; `pick`, `trivial_moves`, `dynamic_level_bytes` and `output_cuts` must
    /// keep their defaults. Omitted: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub universal: Option<UniversalConfig>,
}

/// Where merges by file cut their outputs (JSON `compaction.output_cuts`, lowercase).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum OutputCuts {
    /// LevelDB's: at the target size, or once the overlap two levels down passes 10 targets.
    #[default]
    Leveldb,
    /// RocksDB 7.8's (`CompactionOutputs::ShouldStopBefore` with dynamic file sizes).
    Rocksdb,
}

/// RocksDB's default `num_levels`: L0 to L6.
pub const DEFAULT_NUM_LEVELS: u32 = 7;
/// Allowed `compaction.num_levels`, inclusive: L0 and at least one level below it, and no more
/// levels than `levels` may list.
pub const NUM_LEVELS_RANGE: (u32, u32) = (2, MAX_LEVELS as u32);

fn default_num_levels() -> u32 {
    DEFAULT_NUM_LEVELS
}

fn is_default_num_levels(v: &u32) -> bool {
    *v == DEFAULT_NUM_LEVELS
}

fn default_target_file_bytes() -> u64 {
    2 << 20
}

impl Default for CompactionConfig {
    fn default() -> Self {
        CompactionConfig {
            granularity: Granularity::Level,
            target_file_bytes: default_target_file_bytes(),
            pick: FilePick::RoundRobin,
            trivial_moves: false,
            dynamic_level_bytes: false,
            num_levels: DEFAULT_NUM_LEVELS,
            output_cuts: OutputCuts::Leveldb,
            universal: None,
        }
    }
}

/// The cache of data pages and, optionally, filter and fence-pointer blocks (JSON
/// `block_cache`), with RocksDB's table options that say how those metadata blocks are cut and
/// held. The default, 0 bytes, is no cache.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct BlockCacheConfig {
    /// Cache capacity in bytes; 0 makes every data page access an I/O. At most 2⁴⁰.
    pub bytes: u64,
    /// Filter and fence-pointer blocks live in the cache too (and cost I/O on a miss); when
    /// false they are pinned in memory, as Monkey's model assumes.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub cache_index_and_filter_blocks: bool,
    /// RocksDB's `pin_l0_filter_and_index_blocks_in_cache`: the index and filter blocks of a file
    /// opened in level 0 (a flush's output) stay pinned — read once, never evicted, charged to
    /// the capacity — for as long as the file lives, trivial moves down included. Needs
    /// `cache_index_and_filter_blocks`. Default false.
    #[serde(default, skip_serializing_if = "is_default")]
    pub pin_l0_filter_and_index_blocks_in_cache: bool,
    /// Share of the capacity reserved for high-priority blocks (filters' first modules, fence
    /// pointers); 0 gives a single LRU. In [0, 1].
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub high_priority_ratio: f64,
    /// RocksDB's LRUCache with a high-priority pool (`high_pri_pool_ratio`, 0.5 by default):
    /// data blocks arrive at the head of the low pool (the midpoint), and a block hit once moves
    /// to the head of the high-priority pool. Needs `high_priority_ratio` > 0. Default false.
    #[serde(default, skip_serializing_if = "is_default")]
    pub midpoint_insertion: bool,
    /// RocksDB's `index_type`: `binary_search` (default, `kBinarySearch`: one index block per
    /// file) or `two_level_index_search` (`kTwoLevelIndexSearch`: the index cut into partitions
    /// of about `metadata_block_size` bytes, found through a top-level index; the partitions
    /// always go through the block cache). Two-level needs `block_layout` `rocksdb`.
    #[serde(default, skip_serializing_if = "is_default")]
    pub index_type: IndexType,
    /// RocksDB's `partition_filters`: each file's filter cut into partitions aligned with the
    /// index partitions (same kind and bits per key, so the same FPR), found through a top-level
    /// filter index; the partitions always go through the block cache. Needs `index_type`
    /// `two_level_index_search` and one filter module. Default false.
    #[serde(default, skip_serializing_if = "is_default")]
    pub partition_filters: bool,
    /// RocksDB's `metadata_block_size`: the bytes an index partition is cut at (a filter
    /// partition is sized for 90% of it). In [64, 2²⁴], default 4096.
    #[serde(default = "default_metadata_block_size", skip_serializing_if = "is_default_metadata_block_size")]
    pub metadata_block_size: u64,
    /// RocksDB's `pin_top_level_index_and_filter`: with `cache_index_and_filter_blocks`, the
    /// top-level index and filter index of a partitioned file stay pinned (charged to the
    /// cache, never evicted, never counted as a read); false sends them through the cache like
    /// any block. Without `cache_index_and_filter_blocks` the table holds them in any case.
    /// Default true.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub pin_top_level_index_and_filter: bool,
}

impl Default for BlockCacheConfig {
    fn default() -> Self {
        BlockCacheConfig {
            bytes: 0,
            cache_index_and_filter_blocks: false,
            pin_l0_filter_and_index_blocks_in_cache: false,
            high_priority_ratio: 0.0,
            midpoint_insertion: false,
            index_type: IndexType::BinarySearch,
            partition_filters: false,
            metadata_block_size: DEFAULT_METADATA_BLOCK_SIZE,
            pin_top_level_index_and_filter: true,
        }
    }
}

/// RocksDB's `BlockBasedTableOptions::index_type`, the two the engine builds (JSON
/// `block_cache.index_type`, snake_case).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum IndexType {
    /// `kBinarySearch`: one index block per file.
    #[default]
    BinarySearch,
    /// `kTwoLevelIndexSearch`: index partitions under a top-level index.
    TwoLevelIndexSearch,
}

/// Which of a file's metadata blocks are pinned (held by the table, never read per lookup):
/// what `BlockCacheConfig::metadata_pins` decides for one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MetadataPins {
    /// A whole (unpartitioned) index block or filter.
    pub unpartitioned: bool,
    /// The top-level index and filter index of a partitioned file.
    pub top_level: bool,
    /// The index and filter partitions.
    pub partitions: bool,
}

impl BlockCacheConfig {
    /// What a file opened in level 0 (`level0`: a flush's output, or a file recovered there)
    /// or deeper keeps pinned, as RocksDB 7.8 decides it (`PrefetchIndexAndFilterBlocks`):
    /// without `cache_index_and_filter_blocks` the table holds its index, filter and top
    /// levels, but partitions still go through the cache; with it, the top levels follow
    /// `pin_top_level_index_and_filter`, and level 0's blocks and partitions follow
    /// `pin_l0_filter_and_index_blocks_in_cache`.
    pub fn metadata_pins(&self, level0: bool) -> MetadataPins {
        let cached = self.cache_index_and_filter_blocks;
        let pin_l0 = cached && self.pin_l0_filter_and_index_blocks_in_cache && level0;
        MetadataPins {
            unpartitioned: !cached || pin_l0,
            top_level: !cached || self.pin_top_level_index_and_filter,
            partitions: pin_l0,
        }
    }

    /// Whether files are written with a two-level index.
    pub fn two_level_index(&self) -> bool {
        self.index_type == IndexType::TwoLevelIndexSearch
    }
}

/// RocksDB's default `metadata_block_size`.
pub const DEFAULT_METADATA_BLOCK_SIZE: u64 = 4096;
/// Allowed `block_cache.metadata_block_size`, inclusive.
pub const METADATA_BLOCK_SIZE_RANGE: (u64, u64) = (64, 1 << 24);

fn default_metadata_block_size() -> u64 {
    DEFAULT_METADATA_BLOCK_SIZE
}

fn is_default_metadata_block_size(v: &u64) -> bool {
    *v == DEFAULT_METADATA_BLOCK_SIZE
}

fn yes() -> bool {
    true
}

fn is_true(v: &bool) -> bool {
    *v
}

/// Allowed `page_bytes`, inclusive; it must also be a power of two.
pub const PAGE_BYTES_RANGE: (u32, u32) = (256, 65_536);
/// Allowed `levels[i].size_ratio`, inclusive.
pub const SIZE_RATIO_RANGE: (f64, f64) = (1.0, 1_000.0);
/// Allowed `filter.bloom_before_level`, inclusive: −1 (Ribbon everywhere) to a level below any tree.
pub const BLOOM_BEFORE_LEVEL_RANGE: (i32, i32) = (-1, 64);
/// Allowed `filter.modules`, inclusive (`bloom` filters need exactly 1).
pub const MODULES_RANGE: (u32, u32) = (1, 16);
/// Allowed `statistics_window`, inclusive.
pub const STATISTICS_WINDOW_RANGE: (u32, u32) = (1, 64);
/// Allowed `levels[i].max_runs`, inclusive.
pub const MAX_RUNS_RANGE: (u32, u32) = (1, 1_000);
/// Allowed bits per key, inclusive: `filter.bits_per_key` and every `levels[i].bits_per_key`.
pub const BITS_PER_KEY_RANGE: (f64, f64) = (0.0, 64.0);
/// Most entries `levels` may list. Not a bound on the tree's depth: levels past the list
/// repeat its last entry.
pub const MAX_LEVELS: usize = 64;

impl EngineConfig {
    /// Leveling or tiering with one size ratio everywhere: the designs of Monkey's paper.
    pub fn uniform_shape(size_ratio: f64, max_runs: u32, allocation: Allocation, bits_per_key: f64) -> Self {
        EngineConfig {
            kind: CONFIG_KIND.into(),
            version: CONFIG_VERSION,
            name: String::new(),
            page_bytes: 4096,
            block_layout: BlockLayout::FixedPages,
            buffer_bytes: 1 << 20,
            buffer_trigger: BufferTrigger::Live,
            levels: vec![LevelConfig { size_ratio, max_runs, bits_per_key: None }],
            filter: FilterConfig::bloom(allocation, bits_per_key),
            compaction: CompactionConfig::default(),
            block_cache: BlockCacheConfig::default(),
            statistics_window: default_statistics_window(),
            write_stalls: WriteStallConfig::default(),
        }
    }

    /// Parses and validates a document: `Error::Parse` for malformed JSON, wrong types or unknown
    /// fields, `Error::Invalid` for the first field out of range.
    pub fn from_json(text: &str) -> Result<Self> {
        crate::document::from_json("EngineConfig", text, Self::validate)
    }

    /// Pretty-printed JSON that `from_json` reads back to an equal value.
    pub fn to_json(&self) -> String {
        crate::document::to_json(self)
    }

    /// The configuration of level `i` (1-based); levels past the list repeat its last entry.
    pub fn level(&self, i: usize) -> &LevelConfig {
        let idx = i.saturating_sub(1).min(self.levels.len().saturating_sub(1));
        &self.levels[idx]
    }

    /// Checks every field's range and the combinations the engine supports; the first failure is
    /// an `Error::Invalid` naming the field (`levels[0].size_ratio`) and the allowed range.
    pub fn validate(&self) -> Result<()> {
        if self.kind != CONFIG_KIND {
            return Err(Error::invalid("kind", format!("must be \"{CONFIG_KIND}\", got \"{}\"", self.kind)));
        }
        if self.version != CONFIG_VERSION {
            return Err(Error::invalid(
                "version",
                format!("must be {CONFIG_VERSION} (the only version this engine reads), got {}", self.version),
            ));
        }
        let (lo, hi) = PAGE_BYTES_RANGE;
        if !(lo..=hi).contains(&self.page_bytes) || !self.page_bytes.is_power_of_two() {
            return Err(Error::invalid(
                "page_bytes",
                format!("must be a power of two in [{lo}, {hi}], got {}", self.page_bytes),
            ));
        }
        let min_buffer = u64::from(self.page_bytes);
        if self.buffer_bytes < min_buffer || self.buffer_bytes > 1 << 32 {
            return Err(Error::invalid(
                "buffer_bytes",
                format!("must be in [{min_buffer} (one page), {}], got {}", 1u64 << 32, self.buffer_bytes),
            ));
        }
        // The subsystems in the order their first failure has always been reported in: the cache's
        // level-0 pins sit between the filter's own fields and the Monkey policy that reads the cache.
        self.validate_levels()?;
        self.validate_filter()?;
        self.validate_l0_pins()?;
        self.validate_monkey_policy()?;
        self.validate_compaction()?;
        self.validate_block_cache()?;
        check_integer("statistics_window", self.statistics_window, STATISTICS_WINDOW_RANGE, "")?;
        self.write_stalls.validate()
    }
}

impl EngineConfig {
    /// Whether the design is RocksDB-shaped: RocksDB's data blocks and merges by file (what
    /// `lsm import --rocksdb` makes). Such a design reads as RocksDB does: the predictor prices
    /// it on RocksDB's file tree, and the engine's scans position every level as RocksDB's
    /// iterator does (`lsm_engine`'s scan: a level's next file is read once the scan reaches it,
    /// even past the scan's end).
    pub fn rocksdb_shaped(&self) -> bool {
        self.block_layout == BlockLayout::Rocksdb && self.compaction.granularity == Granularity::File
    }
}

/// The design the validation tests (here and in `config/`) start from: Monkey's leveling at
/// T = 10 with 10 bits per key.
#[cfg(test)]
fn sample() -> EngineConfig {
    EngineConfig::uniform_shape(10.0, 1, Allocation::Monkey, 10.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roundtrips_through_json() {
        let c = sample();
        assert_eq!(EngineConfig::from_json(&c.to_json()), Ok(c));
    }

    #[test]
    fn errors_name_the_field_and_range() {
        let mut c = sample();
        c.levels[0].size_ratio = 0.5;
        let e = c.validate().unwrap_err().to_string();
        assert_eq!(e, "levels[0].size_ratio: must be a number in [1, 1000], got 0.5");

        let mut c = sample();
        c.page_bytes = 3000;
        assert!(
            c.validate().unwrap_err().to_string().starts_with("page_bytes: must be a power of two in [256, 65536]")
        );

        let mut c = sample();
        c.filter.bits_per_key = f64::NAN;
        assert!(c.validate().unwrap_err().to_string().starts_with("filter.bits_per_key"));
    }

    #[test]
    fn unknown_fields_are_rejected_by_name() {
        let mut v: serde_json::Value = serde_json::from_str(&sample().to_json()).unwrap();
        v["bufer_bytes"] = 5.into();
        let e = EngineConfig::from_json(&v.to_string()).unwrap_err().to_string();
        assert!(e.contains("bufer_bytes"), "{e}");
    }

    #[test]
    fn pins_follow_rocksdbs_fallback_rules() {
        let pins = |cached: bool, pin_l0: bool, pin_top: bool, level0: bool| {
            let c = BlockCacheConfig {
                cache_index_and_filter_blocks: cached,
                pin_l0_filter_and_index_blocks_in_cache: pin_l0,
                pin_top_level_index_and_filter: pin_top,
                ..BlockCacheConfig::default()
            };
            let p = c.metadata_pins(level0);
            (p.unpartitioned, p.top_level, p.partitions)
        };
        // Not cached: the table holds whole blocks and top levels; partitions go through the cache.
        assert_eq!(pins(false, false, false, true), (true, true, false));
        // Cached: the top level pinned by default, partitions and whole blocks in the LRU...
        assert_eq!(pins(true, false, true, false), (false, true, false));
        assert_eq!(pins(true, false, false, false), (false, false, false));
        // ... but level 0's pinned with pin_l0, partitions included.
        assert_eq!(pins(true, true, true, true), (true, true, true));
        assert_eq!(pins(true, true, true, false), (false, true, false));
    }

    #[test]
    fn deeper_levels_repeat_the_last_entry() {
        let mut c = sample();
        c.levels.push(LevelConfig { size_ratio: 4.0, max_runs: 3, bits_per_key: None });
        assert_eq!(c.level(1).size_ratio, 10.0);
        assert_eq!(c.level(2).size_ratio, 4.0);
        assert_eq!(c.level(9).max_runs, 3);
    }
}

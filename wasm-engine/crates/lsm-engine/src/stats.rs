//! I/O accounting. Every page the engine touches is counted here, per operation class and per
//! level; the counters are the "measured" side of every measured-vs-predicted chart.

use serde::{Deserialize, Serialize};

/// Operation classes. Lookups are classed by outcome, which is what the models distinguish:
/// a zero-result lookup finds nothing, a non-zero-result lookup finds a value, and a lookup that
/// meets a tombstone stops there like a non-zero-result one but returns nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum OpClass {
    /// A write of a value (`Engine::put`).
    Put,
    /// A delete: a tombstone written (`Engine::delete`).
    Delete,
    /// A point lookup that found no version of its key.
    GetZeroResult,
    /// A point lookup that found a value.
    GetNonZeroResult,
    /// A point lookup that stopped at a tombstone: it returns nothing.
    GetTombstone,
    /// A range scan (`Engine::scan`, `Engine::scan_visit`).
    Scan,
}

impl OpClass {
    /// Every class, in `index` order.
    pub const ALL: [OpClass; 6] = [
        OpClass::Put,
        OpClass::Delete,
        OpClass::GetZeroResult,
        OpClass::GetNonZeroResult,
        OpClass::GetTombstone,
        OpClass::Scan,
    ];

    /// The class's slot in per-class arrays (`Stats::ops`, `LevelStats::reads`).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The snake_case name reports use, as in JSON (`get_zero_result`, …).
    pub fn name(self) -> &'static str {
        match self {
            OpClass::Put => "put",
            OpClass::Delete => "delete",
            OpClass::GetZeroResult => "get_zero_result",
            OpClass::GetNonZeroResult => "get_non_zero_result",
            OpClass::GetTombstone => "get_tombstone",
            OpClass::Scan => "scan",
        }
    }
}

/// Number of operation classes: the length of per-class arrays.
pub const OP_CLASSES: usize = OpClass::ALL.len();

/// What reads cost at one level (or in total). Filter counter names follow RocksDB's
/// `bloom.filter.useful` (negatives), `bloom.filter.full.positive` and `.full.true.positive`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ReadCounters {
    /// Filters consulted to an answer: `filter_negatives + filter_positives` (a filter skipped whole is
    /// not counted).
    pub filter_probes: u64,
    /// Filter said "absent": a page read avoided (`bloom.filter.useful`).
    pub filter_negatives: u64,
    /// Filter said "maybe" (`bloom.filter.full.positive`).
    pub filter_positives: u64,
    /// Filter said "maybe" and the key was there (`bloom.filter.full.true.positive`).
    pub filter_true_positives: u64,
    /// Runs whose key range excluded the key, so neither filter nor page was touched.
    pub runs_skipped_by_range: u64,
    /// Runs probed without a filter (none built for their level).
    pub runs_without_filter: u64,
    /// Data pages read from storage; a block-cache hit is not a read (`block.cache.data.miss`).
    pub data_pages_read: u64,
    /// Pages of fence-pointer (index) blocks read from storage: when a table is opened with its metadata
    /// pinned, or on a block-cache miss.
    pub index_pages_read: u64,
    /// Pages of filter modules read from storage: when a table is opened with its metadata pinned, or on a
    /// block-cache miss.
    pub filter_pages_read: u64,
    /// Block-cache hits: accesses that cost no I/O.
    pub data_cache_hits: u64,
    /// Fence-pointer blocks found in the block cache (`block.cache.index.hit`).
    pub index_cache_hits: u64,
    /// Filter modules found in the block cache (`block.cache.filter.hit`).
    pub filter_cache_hits: u64,
    /// Fence-pointer and filter-module blocks fetched from storage (each costs its pages).
    pub index_block_reads: u64,
    /// Filter modules fetched from storage, one per module (`block.cache.filter.miss`); their pages are in
    /// `filter_pages_read`.
    pub filter_block_reads: u64,
    /// Modular filters: modules probed, and modules skipped by SHaMBa's utility rule.
    pub filter_modules_probed: u64,
    /// Modules left unprobed by SHaMBa's utility rule: the module it skipped and every one after it.
    pub filter_modules_skipped: u64,
    /// Whole filters skipped by Mnemosyne's query-time rule or SHaMBa's full skipping.
    pub filters_skipped: u64,
    /// Range scans: one seek per run that overlaps the range.
    pub seeks: u64,
}

impl ReadCounters {
    /// Add `o`'s counters to these, field by field.
    pub fn add(&mut self, o: &ReadCounters) {
        self.filter_probes += o.filter_probes;
        self.filter_negatives += o.filter_negatives;
        self.filter_positives += o.filter_positives;
        self.filter_true_positives += o.filter_true_positives;
        self.runs_skipped_by_range += o.runs_skipped_by_range;
        self.runs_without_filter += o.runs_without_filter;
        self.data_pages_read += o.data_pages_read;
        self.index_pages_read += o.index_pages_read;
        self.filter_pages_read += o.filter_pages_read;
        self.data_cache_hits += o.data_cache_hits;
        self.index_cache_hits += o.index_cache_hits;
        self.filter_cache_hits += o.filter_cache_hits;
        self.index_block_reads += o.index_block_reads;
        self.filter_block_reads += o.filter_block_reads;
        self.filter_modules_probed += o.filter_modules_probed;
        self.filter_modules_skipped += o.filter_modules_skipped;
        self.filters_skipped += o.filters_skipped;
        self.seeks += o.seeks;
    }

    /// Page I/Os these reads cost.
    pub fn page_ios(&self) -> u64 {
        self.data_pages_read + self.index_pages_read + self.filter_pages_read
    }

    /// Block accesses answered by the cache.
    pub fn cache_hits(&self) -> u64 {
        self.data_cache_hits + self.index_cache_hits + self.filter_cache_hits
    }

    /// False positives: positives that found nothing.
    pub fn filter_false_positives(&self) -> u64 {
        self.filter_positives - self.filter_true_positives
    }
}

/// What flushes and compactions cost at one destination level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct WriteCounters {
    /// Flushes that wrote into this level (level 1 only), counted when each commits; a flush merged into
    /// level 1's newest run counts here, not in `compactions`.
    pub flushes: u64,
    /// Merges that wrote into this level (flushes excluded), counted when each commits.
    pub compactions: u64,
    /// Data pages written (flush and compaction output), the unit of the update-cost models.
    pub data_pages_written: u64,
    /// Filter, index and footer pages written alongside the data.
    pub meta_pages_written: u64,
    /// Bytes of the tables written: data pages, filter, index, range block and footer.
    pub bytes_written: u64,
    /// Entries written into new tables, tombstones included.
    pub entries_written: u64,
    /// Pages read as compaction input.
    pub pages_read: u64,
    /// Entries the merges took from their inputs, every version counted (a flush's buffer entries included).
    pub entries_read: u64,
    /// Versions dropped by merges (superseded values and tombstones that reached the bottom).
    pub entries_dropped: u64,
    /// Trivial moves into this level: a file of the level above that overlapped nothing here,
    /// moved down without being read or rewritten (RocksDB's compaction stats "Moved(GB)").
    #[serde(default)]
    pub moves: u64,
    /// Entries those moves carried down.
    #[serde(default)]
    pub entries_moved: u64,
}

impl WriteCounters {
    /// Add `o`'s counters to these, field by field.
    pub fn add(&mut self, o: &WriteCounters) {
        self.flushes += o.flushes;
        self.compactions += o.compactions;
        self.data_pages_written += o.data_pages_written;
        self.meta_pages_written += o.meta_pages_written;
        self.bytes_written += o.bytes_written;
        self.entries_written += o.entries_written;
        self.pages_read += o.pages_read;
        self.entries_read += o.entries_read;
        self.entries_dropped += o.entries_dropped;
        self.moves += o.moves;
        self.entries_moved += o.entries_moved;
    }
}

/// Filter rebuilds and module drops at one level (re-optimised Monkey).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ResizeCounters {
    /// Tables whose filter was rebuilt from their keys.
    pub rebuilds: u64,
    /// Data pages those rebuilds read: the price of the policy.
    pub pages_read: u64,
    /// Tables whose filter dropped modules.
    pub shrinks: u64,
}

impl ResizeCounters {
    /// Add `o`'s counters to these, field by field.
    pub fn add(&mut self, o: &ResizeCounters) {
        self.rebuilds += o.rebuilds;
        self.pages_read += o.pages_read;
        self.shrinks += o.shrinks;
    }
}

/// One level's counters: its reads per operation class, the flushes and merges that wrote into it, and
/// filter resizing.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LevelStats {
    /// Reads at this level, per operation class (indexed by `OpClass::index`).
    pub reads: [ReadCounters; OP_CLASSES],
    /// Flushes and merges whose output joined this level, counted when each commits.
    pub writes: WriteCounters,
    /// Re-optimised Monkey's filter rebuilds and shrinks at this level.
    #[serde(default)]
    pub filter_resizing: ResizeCounters,
}

/// Every counter the engine keeps, since it was opened or `Engine::reset_stats`. Pages are logical I/O,
/// counted above the storage layer, so they do not depend on the backend. A Report holds one per phase.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Stats {
    /// Operations executed, per class.
    pub ops: [u64; OP_CLASSES],
    /// Index 0 is level 1.
    pub levels: Vec<LevelStats>,
    /// Bytes of records written to the write-ahead log.
    pub wal_bytes_written: u64,
    /// Syncs of the write-ahead log by `Engine::sync` (none while the log is off): it follows how often the
    /// caller syncs.
    pub wal_syncs: u64,
    /// Pages read when tables are opened (footers, and pinned filters and fence pointers).
    pub open: ReadCounters,
    /// Records replayed from the write-ahead log when the database was opened.
    pub wal_records_replayed: u64,
    /// Key and value bytes the user wrote (puts and deletes): the denominator of write amplification.
    #[serde(default)]
    pub user_bytes_written: u64,
    /// Writes that waited behind merges (`pacing`): slowed down or stopped, and for how long.
    #[serde(default)]
    pub stalls: StallCounters,
}

/// Write stalls (RocksDB's `stall_micros` and its per-cause counts, in the engine's terms): each
/// counts writes, not episodes. With paced merging a slowed-down write merges a larger slice
/// (`pacing::SLOWDOWN_SLICE_PAGES`) and a stopped one merges until the stall clears; a write that
/// fills the buffer before the merges the last flush started are done stops too (the flush waits
/// for a quiet tree, so merges see the same trees as when each runs to completion at once).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct StallCounters {
    /// Writes slowed down (level-0 files or pending merge bytes at the slowdown threshold).
    pub slowdowns: u64,
    /// Writes stopped at a stop threshold.
    pub stops: u64,
    /// Writes whose flush waited for the merges still pending from the last flush (background
    /// merges: for the last buffer's flush to be installed).
    pub flush_waits: u64,
    /// Output pages merged by writes while they were slowed down or stopped.
    pub pages_merged: u64,
    /// Nanoseconds spent stalled, when the engine was given a clock (`Engine::set_stall_clock`).
    pub stalled_ns: u64,
}

impl StallCounters {
    /// Writes that stalled, whatever the cause.
    pub fn writes(&self) -> u64 {
        self.slowdowns + self.stops + self.flush_waits
    }
}

impl Stats {
    /// Level `level`'s counters (1-based), adding levels to reach it.
    pub fn level(&mut self, level: usize) -> &mut LevelStats {
        debug_assert!(level >= 1);
        if self.levels.len() < level {
            self.levels.resize_with(level, LevelStats::default);
        }
        &mut self.levels[level - 1]
    }

    /// Level `level`'s read counters for `class` (1-based), adding levels to reach it.
    pub fn reads(&mut self, level: usize, class: OpClass) -> &mut ReadCounters {
        &mut self.level(level).reads[class.index()]
    }

    /// Reads of one class summed over levels.
    pub fn total_reads(&self, class: OpClass) -> ReadCounters {
        let mut t = ReadCounters::default();
        for l in &self.levels {
            t.add(&l.reads[class.index()]);
        }
        t
    }

    /// Write counters summed over levels.
    pub fn total_writes(&self) -> WriteCounters {
        let mut t = WriteCounters::default();
        for l in &self.levels {
            t.add(&l.writes);
        }
        t
    }
}

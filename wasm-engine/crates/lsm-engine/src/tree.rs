//! The tree as the UI and reports see it: levels, runs, tables, entries and filters.

use serde::{Deserialize, Serialize};

use crate::run::Run;
use crate::table::Table;
use lsm_core::compaction;
use lsm_core::config::EngineConfig;

/// One table (SST file) as the UI and reports see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TableInfo {
    /// The table's id; its file is `table_file_name(id)`.
    pub id: u64,
    /// Entries, tombstones included.
    pub entries: u64,
    /// Key + value bytes of its entries (the unit of level capacities).
    pub entry_bytes: u64,
    /// Its file's length in bytes: data pages, filter, index, range block and footer.
    pub file_bytes: u64,
    /// Data pages it holds.
    pub data_pages: u64,
    /// Bits of its filter over all modules, as the filter stands now (0: no filter).
    pub filter_bits: u64,
    /// Hash functions of its filter, summed over modules.
    pub filter_hashes: u32,
    /// Filter modules: 1 for a plain Bloom filter, 0 without a filter.
    pub filter_modules: usize,
    /// `filter_bits / entries` (0 for an empty table).
    pub bits_per_key: f64,
    /// Theoretical FPR of the filter actually built (integer-k formula, product over modules).
    pub filter_fpr: f64,
    /// Lookups that reached this table and lookups that found their key here (since it was made).
    pub accesses: u64,
    /// Lookups that found their key here, as a value or a tombstone.
    pub found: u64,
    /// Merlin's estimate of the empty probes this table has seen.
    pub estimated_empty_probes: f64,
    /// Its smallest key, hex-encoded (as RocksDB's `GetLiveFilesMetaData` gives `smallestkey`).
    #[serde(default)]
    pub min_key_hex: String,
    /// Its largest key, hex-encoded.
    #[serde(default)]
    pub max_key_hex: String,
    /// Bytes of index and filter metadata it holds in memory: pinned blocks (whole, top levels
    /// of partitioned ones, partitions pinned with level 0's) and its data blocks' ends. What
    /// goes through the block cache is not counted here.
    #[serde(default)]
    pub metadata_memory_bytes: u64,
}

impl TableInfo {
    /// Describe `t`; `now` is the engine's point-lookup count, for Merlin's estimate.
    pub fn of(t: &Table, now: u64) -> TableInfo {
        let stats = t.stats.borrow();
        TableInfo {
            id: t.id,
            entries: t.entries,
            entry_bytes: t.entry_bytes,
            file_bytes: t.file_bytes,
            data_pages: t.data_pages,
            filter_bits: t.filter_bits(),
            filter_hashes: t.filter_hashes(),
            filter_modules: t.modules().len(),
            bits_per_key: if t.entries == 0 { 0.0 } else { t.filter_bits() as f64 / t.entries as f64 },
            filter_fpr: t.filter_fpr(),
            accesses: stats.accesses,
            found: stats.found,
            estimated_empty_probes: stats.estimate(now).empty,
            min_key_hex: crate::hex::encode_hex(t.min_key()),
            max_key_hex: crate::hex::encode_hex(t.max_key()),
            metadata_memory_bytes: t.pinned_metadata_bytes() + t.block_ends_bytes(),
        }
    }
}

/// One run as the UI and reports see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RunInfo {
    /// The run's id: within a level, a higher id is a newer run.
    pub id: u64,
    /// Entries over its tables, tombstones included.
    pub entries: u64,
    /// Key + value bytes over its tables.
    pub entry_bytes: u64,
    /// File bytes over its tables.
    pub file_bytes: u64,
    /// Data pages over its tables.
    pub data_pages: u64,
    /// Filter bits over its tables.
    pub filter_bits: u64,
    /// `filter_bits / entries` (0 for an empty run).
    pub bits_per_key: f64,
    /// Expected FPR for a key in the run's range: its tables' FPRs weighted by their entries.
    pub filter_fpr: f64,
    /// Data pages read to rebuild its tables' filters (re-optimised Monkey), over their lives.
    #[serde(default)]
    pub filter_rebuild_pages: u64,
    /// Its tables in key order (one when merges are by whole level).
    pub tables: Vec<TableInfo>,
}

impl RunInfo {
    /// Describe `r`; `now` is the engine's point-lookup count, for Merlin's estimates.
    pub fn of(r: &Run, now: u64) -> RunInfo {
        let tables: Vec<TableInfo> = r.tables.iter().map(|t| TableInfo::of(t, now)).collect();
        let entries: u64 = tables.iter().map(|t| t.entries).sum();
        let filter_bits: u64 = tables.iter().map(|t| t.filter_bits).sum();
        let weighted: f64 = tables.iter().map(|t| t.filter_fpr * t.entries as f64).sum();
        RunInfo {
            id: r.id,
            entries,
            entry_bytes: tables.iter().map(|t| t.entry_bytes).sum(),
            file_bytes: tables.iter().map(|t| t.file_bytes).sum(),
            data_pages: tables.iter().map(|t| t.data_pages).sum(),
            filter_bits,
            bits_per_key: if entries == 0 { 0.0 } else { filter_bits as f64 / entries as f64 },
            filter_fpr: if entries == 0 { 0.0 } else { weighted / entries as f64 },
            filter_rebuild_pages: r.tables.iter().map(|t| t.filter_rebuild_pages).sum(),
            tables,
        }
    }
}

/// One level as the UI and reports see it: its limits by the design, and its runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LevelInfo {
    /// The level's number: 1 is where flushes land.
    pub level: usize,
    /// Entry bytes the level holds when full (null: bounded by its run count only).
    pub capacity_bytes: Option<f64>,
    /// Runs the level may hold before it is merged down (its `LevelConfig::max_runs`).
    pub max_runs: u32,
    /// Its runs, newest first.
    pub runs: Vec<RunInfo>,
}

/// Describe level `level` (1-based) holding `runs`, with its limits from `config`; `now` as for
/// `TableInfo::of`.
pub fn level_info(config: &EngineConfig, level: usize, runs: &[Run], now: u64) -> LevelInfo {
    let g = compaction::geometry(config, level);
    // Universal compaction bounds no level by size: its picker looks at the runs' sizes.
    let bounded = g.capacity.is_finite() && config.compaction.universal.is_none();
    LevelInfo {
        level,
        capacity_bytes: bounded.then_some(g.capacity),
        max_runs: g.max_runs,
        runs: runs.iter().map(|r| RunInfo::of(r, now)).collect(),
    }
}

/// How far the merge under way has come (`TreeShape::merge_progress`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MergeProgress {
    /// Data pages of its inputs read so far.
    pub pages_read: u64,
    /// Pages of the output tables sealed so far, data and metadata (the table being written counts once
    /// sealed).
    pub pages_written: u64,
}

/// The tree as it stands: buffer fill, levels, runs and their filters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TreeShape {
    /// Entries in the write buffer: one per key, tombstones included.
    pub buffer_entries: u64,
    /// Key + value bytes the buffer holds.
    pub buffer_bytes: u64,
    /// The buffer's capacity (`EngineConfig::buffer_bytes`); `buffer_trigger` says whether the bytes held
    /// or the bytes written since the last flush fill it.
    pub buffer_capacity_bytes: u64,
    /// Levels from level 1 down; a level between others may be empty.
    pub levels: Vec<LevelInfo>,
    /// A merge is under way from this level (only when merges are stepped by the caller).
    pub merging_level: Option<usize>,
    /// The pages the merge under way has read and written so far (they join the level's
    /// counters in `Stats` when it finishes).
    #[serde(default)]
    pub merge_progress: Option<MergeProgress>,
    /// Bytes resident in the block cache.
    pub cache_bytes: u64,
    /// Mnemosyne's latest C (log of its Lagrange constant), when it has solved.
    pub mnemosyne_log_c: Option<f64>,
}

impl TreeShape {
    /// Expected I/O of a zero-result point lookup with this tree: the sum of its runs' FPRs.
    pub fn zero_result_cost(&self) -> f64 {
        // A fold from +0.0: `f64::sum` of nothing is −0.0, which printed as "-0.0000" for an empty tree.
        self.levels.iter().flat_map(|l| &l.runs).map(|r| r.filter_fpr).fold(0.0, |a, b| a + b)
    }

    /// Runs over all levels.
    pub fn run_count(&self) -> usize {
        self.levels.iter().map(|l| l.runs.len()).sum()
    }

    /// Entries in the runs and the buffer: versions, not keys (a key may count in several runs), tombstones
    /// included.
    pub fn entries(&self) -> u64 {
        self.levels.iter().flat_map(|l| &l.runs).map(|r| r.entries).sum::<u64>() + self.buffer_entries
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_tree_costs_plus_zero() {
        let empty = TreeShape {
            buffer_entries: 0,
            buffer_bytes: 0,
            buffer_capacity_bytes: 4096,
            levels: Vec::new(),
            merging_level: None,
            merge_progress: None,
            cache_bytes: 0,
            mnemosyne_log_c: None,
        };
        let cost = empty.zero_result_cost();
        assert!(cost == 0.0 && cost.is_sign_positive(), "{cost}");
        assert_eq!(format!("{cost:.4}"), "0.0000");
    }
}

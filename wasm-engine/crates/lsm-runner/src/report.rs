//! Report: what a run measured — operation counts, I/O per operation class and per level, bytes
//! written, the final tree, and the prediction from that tree. One definition, versioned; the
//! native CLI and the wasm worker produce it byte for byte alike (timings aside).

use serde::{Deserialize, Serialize};

use lsm_core::config::EngineConfig;
use lsm_core::workload::Workload;
use lsm_engine::stats::{OpClass, Stats, WriteCounters};
use lsm_engine::tree::TreeShape;

pub const REPORT_KIND: &str = "lsm-navigator/report";
pub const REPORT_VERSION: u32 = 1;

/// Operations by what the workload meant (run phase).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Intents {
    pub insert: u64,
    pub update: u64,
    pub delete: u64,
    pub get_existing: u64,
    pub get_missing: u64,
    /// Trace lookups, which do not say whether their key exists.
    pub get: u64,
    pub range: u64,
}

/// What reads returned (run phase).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Results {
    pub get_existing_found: u64,
    /// Should be 0: a "missing" key that was found means a generator bug.
    pub get_missing_found: u64,
    pub get_found: u64,
    pub range_entries: u64,
}

/// One operation class summed over levels, with the per-operation cost.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ClassSummary {
    pub class: String,
    pub count: u64,
    pub page_ios: u64,
    pub io_per_op: f64,
    pub data_pages_read: u64,
    pub filter_probes: u64,
    pub filter_negatives: u64,
    pub filter_positives: u64,
    pub filter_true_positives: u64,
    pub filter_false_positives: u64,
    pub seeks: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct WriteSummary {
    pub totals: WriteCounters,
    /// Bytes written by flushes and merges, per destination level (index 0 = level 1).
    pub bytes_written_per_level: Vec<u64>,
    /// Data pages written per update operation (insert, update or delete): the update cost.
    pub pages_written_per_update: f64,
    /// Key and value bytes the phase's writes carried.
    #[serde(default)]
    pub user_bytes: u64,
    /// Bytes flushes and merges wrote per byte the user wrote (0 when nothing was written).
    #[serde(default)]
    pub write_amplification: f64,
}

/// Predictions computed from the tree the run ended with.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Predicted {
    /// Σ over runs of each filter's FPR: the expected I/O of a zero-result lookup.
    pub zero_result_lookup_io: f64,
    pub runs: usize,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Timings {
    pub preload_ms: f64,
    pub run_ms: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub kind: String,
    pub version: u32,
    pub engine: String,
    pub config: EngineConfig,
    /// The generating workload, or None for a trace.
    pub workload: Option<Workload>,
    pub source: String,
    pub preload_operations: u64,
    pub operations: Intents,
    pub results: Results,
    /// Counters of the preload phase.
    pub preload: Stats,
    /// Counters of the measured run.
    pub run: Stats,
    pub summary: Vec<ClassSummary>,
    /// The run phase's writes (flushes and merges while the measured operations ran).
    pub writes: WriteSummary,
    /// The load phase's writes (the preload's flushes and merges).
    #[serde(default)]
    pub load_writes: WriteSummary,
    pub tree: TreeShape,
    pub predicted: Predicted,
    /// The measured run's counters under RocksDB's statistics names, for readers who know them.
    pub rocksdb_counters: std::collections::BTreeMap<String, u64>,
    /// Wall time, filled in by the caller; never part of a comparison.
    pub timings: Option<Timings>,
    /// Per-operation latencies and throughput over time, when the run was timed; wall-clock
    /// figures like `timings`, never part of a comparison.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency: Option<crate::latency::LatencyReport>,
}

pub fn summarize(stats: &Stats) -> Vec<ClassSummary> {
    OpClass::ALL
        .iter()
        .map(|&c| {
            let r = stats.total_reads(c);
            let count = stats.ops[c.index()];
            ClassSummary {
                class: c.name().to_string(),
                count,
                page_ios: r.page_ios(),
                io_per_op: if count == 0 { 0.0 } else { r.page_ios() as f64 / count as f64 },
                data_pages_read: r.data_pages_read,
                filter_probes: r.filter_probes,
                filter_negatives: r.filter_negatives,
                filter_positives: r.filter_positives,
                filter_true_positives: r.filter_true_positives,
                filter_false_positives: r.filter_false_positives(),
                seeks: r.seeks,
            }
        })
        .collect()
}

/// The counters RocksDB also keeps, under its `Statistics` ticker names.
pub fn rocksdb_counters(stats: &Stats, page_bytes: u32) -> std::collections::BTreeMap<String, u64> {
    let gets = [OpClass::GetZeroResult, OpClass::GetNonZeroResult, OpClass::GetTombstone];
    let mut point = lsm_engine::stats::ReadCounters::default();
    for c in gets {
        point.add(&stats.total_reads(c));
    }
    let mut all = point;
    all.add(&stats.total_reads(OpClass::Scan));
    let mut flush = WriteCounters::default();
    let mut compaction = WriteCounters::default();
    for l in &stats.levels {
        // Flushes write level 1; merges into level 1 (absorbing its newest run) count as flushes too.
        if l.writes.flushes > 0 {
            flush.add(&l.writes);
        } else {
            compaction.add(&l.writes);
        }
    }
    let page = u64::from(page_bytes);
    [
        ("rocksdb.bloom.filter.useful", point.filter_negatives),
        ("rocksdb.bloom.filter.full.positive", point.filter_positives),
        ("rocksdb.bloom.filter.full.true.positive", point.filter_true_positives),
        ("rocksdb.block.cache.data.hit", all.data_cache_hits),
        ("rocksdb.block.cache.data.miss", all.data_pages_read),
        ("rocksdb.block.cache.index.hit", all.index_cache_hits),
        ("rocksdb.block.cache.index.miss", all.index_block_reads),
        ("rocksdb.block.cache.filter.hit", all.filter_cache_hits),
        ("rocksdb.block.cache.filter.miss", all.filter_block_reads),
        ("rocksdb.number.keys.written", stats.ops[OpClass::Put.index()] + stats.ops[OpClass::Delete.index()]),
        ("rocksdb.number.keys.read", gets.iter().map(|c| stats.ops[c.index()]).sum()),
        ("rocksdb.number.db.seek", stats.ops[OpClass::Scan.index()]),
        ("rocksdb.flush.write.bytes", flush.bytes_written),
        ("rocksdb.compact.write.bytes", compaction.bytes_written),
        ("rocksdb.compact.read.bytes", (flush.pages_read + compaction.pages_read) * page),
        ("rocksdb.wal.bytes", stats.wal_bytes_written),
        ("rocksdb.wal.synced", stats.wal_syncs),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// The writes of one phase: `updates` is its inserts, updates and deletes.
pub fn write_summary(stats: &Stats, updates: u64) -> WriteSummary {
    let totals = stats.total_writes();
    let user_bytes = stats.user_bytes_written;
    WriteSummary {
        totals,
        bytes_written_per_level: stats.levels.iter().map(|l| l.writes.bytes_written).collect(),
        pages_written_per_update: if updates == 0 { 0.0 } else { totals.data_pages_written as f64 / updates as f64 },
        user_bytes,
        write_amplification: if user_bytes == 0 { 0.0 } else { totals.bytes_written as f64 / user_bytes as f64 },
    }
}

impl Report {
    /// Measured I/O per operation of the run phase: every page its lookups and scans read and
    /// its flushes and merges wrote, over its operations. What `tune::predict` predicts.
    pub fn io_per_op(&self) -> f64 {
        let o = &self.operations;
        let ops = o.insert + o.update + o.delete + o.get_existing + o.get_missing + o.get + o.range;
        let reads: u64 = self.summary.iter().map(|c| c.page_ios).sum();
        let writes = self.writes.totals.data_pages_written + self.writes.totals.meta_pages_written;
        if ops > 0 { (reads + writes) as f64 / ops as f64 } else { 0.0 }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    pub fn from_json(text: &str) -> lsm_core::error::Result<Report> {
        serde_json::from_str(text)
            .map_err(|e| lsm_core::error::Error::Parse { document: "Report".into(), message: e.to_string() })
    }

    /// The report without wall-clock figures and sync counts (one sync per step, so they follow
    /// how the caller chops the run): what must match between native and wasm runs.
    pub fn counters_only(&self) -> Report {
        let mut r = Report { timings: None, ..self.clone() };
        r.preload.wal_syncs = 0;
        r.run.wal_syncs = 0;
        r.rocksdb_counters.remove("rocksdb.wal.synced");
        r
    }
}

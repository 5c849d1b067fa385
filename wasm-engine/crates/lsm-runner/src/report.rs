//! Report: what a run measured — operation counts, I/O per operation class and per level, bytes
//! written, the final tree, and the prediction from that tree. One definition, versioned; the
//! native CLI and the wasm worker produce it byte for byte alike (timings aside).

use serde::{Deserialize, Serialize};

use lsm_core::config::EngineConfig;
use lsm_core::workload::Workload;
use lsm_engine::merging::Merging;
use lsm_engine::stats::{OpClass, Stats, WriteCounters};
use lsm_engine::tree::TreeShape;

/// The `kind` field of every Report.
pub const REPORT_KIND: &str = "lsm-navigator/report";
/// The format version this build writes in `version`.
pub const REPORT_VERSION: u32 = 1;

/// Operations by what the workload meant (run phase).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Intents {
    /// Writes of keys not written before (a trace's `I` lines).
    pub insert: u64,
    /// Writes of existing keys (a trace's `U` lines; also generated inserts once the key space is used up).
    pub update: u64,
    /// Deletes.
    pub delete: u64,
    /// Point lookups of keys the generator inserted (they may since have been deleted).
    pub get_existing: u64,
    /// Point lookups of keys never inserted: zero-result lookups by design.
    pub get_missing: u64,
    /// Trace lookups, which do not say whether their key exists.
    pub get: u64,
    /// Range scans.
    pub range: u64,
}

/// What reads returned (run phase).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Results {
    /// `get_existing` lookups that returned a value (fewer when some of their keys were deleted).
    pub get_existing_found: u64,
    /// Should be 0: a "missing" key that was found means a generator bug.
    pub get_missing_found: u64,
    /// Trace lookups (`get`) that returned a value.
    pub get_found: u64,
    /// Live entries the range scans returned, summed over scans.
    pub range_entries: u64,
}

/// One operation class summed over levels, with the per-operation cost.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ClassSummary {
    /// The engine's operation class (`OpClass::name`: put, delete, get_zero_result, …).
    #[cfg_attr(feature = "ts", ts(as = "OpClass"))]
    pub class: String,
    /// Operations of this class in the run phase.
    pub count: u64,
    /// Pages this class read from storage: data, index and filter pages (block-cache hits cost none).
    pub page_ios: u64,
    /// `page_ios / count` (0 when `count` is 0).
    pub io_per_op: f64,
    /// Data pages read from storage (`block.cache.data.miss` when a cache is on).
    pub data_pages_read: u64,
    /// Filters consulted to an answer: `filter_negatives + filter_positives`.
    pub filter_probes: u64,
    /// Filters that said "absent": a data page read avoided (`bloom.filter.useful`).
    pub filter_negatives: u64,
    /// Filters that said "maybe" (`bloom.filter.full.positive`).
    pub filter_positives: u64,
    /// Positives whose table held the key, as a value or a tombstone (`bloom.filter.full.true.positive`).
    pub filter_true_positives: u64,
    /// `filter_positives − filter_true_positives`: a data page read for nothing.
    pub filter_false_positives: u64,
    /// Range scans' seeks: one per scan and run whose key range overlaps the scanned range.
    pub seeks: u64,
}

/// The flushes and merges of one phase (the load or the measured run), with the update cost and write
/// amplification derived from them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct WriteSummary {
    /// The phase's write counters, summed over levels.
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
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Predicted {
    /// Σ over runs of each filter's FPR: the expected I/O of a zero-result lookup.
    pub zero_result_lookup_io: f64,
    /// Runs in that tree: the terms of the sum.
    pub runs: usize,
}

/// Wall time of each phase, in milliseconds; filled in by the caller, never part of a comparison.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Timings {
    /// Wall time of the preload (load) phase, in milliseconds.
    pub preload_ms: f64,
    /// Wall time of the measured run, in milliseconds.
    pub run_ms: f64,
}

/// What a run measured: the JSON document (`lsm-navigator/report`) the CLI writes and the web pages
/// read (`to_json`, `from_json`). Its counters match for every run of one spec, natively and in wasm;
/// wall-clock figures (`timings`, `latency`) and sync counts do not.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Report {
    /// Always `REPORT_KIND`.
    #[cfg_attr(feature = "ts", ts(type = "\"lsm-navigator/report\""))]
    pub kind: String,
    /// `REPORT_VERSION` of the build that wrote it.
    #[cfg_attr(feature = "ts", ts(type = "1"))]
    pub version: u32,
    /// The engine that ran: `lsm-engine` and its crate version.
    pub engine: String,
    /// The design the engine ran (`Engine::config`: for a reopened database, the one it stored).
    pub config: EngineConfig,
    /// When its merges ran (`Engine::merging`: `paced`, `inline` or `background`, the CLI's `--merges`), which
    /// decides the latency tail and the stalls; absent in reports written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merges: Option<Merging>,
    /// The generating workload, or None for a trace.
    pub workload: Option<Workload>,
    /// Where the operations came from: `workload`, or `trace:NAME` for a KVBench trace.
    pub source: String,
    /// Operations executed in the preload (load) phase.
    pub preload_operations: u64,
    /// The run phase's operations by what the workload meant them to do.
    pub operations: Intents,
    /// What the run phase's reads returned.
    pub results: Results,
    /// Counters of the preload phase.
    pub preload: Stats,
    /// Counters of the measured run.
    pub run: Stats,
    /// The run phase's reads per engine operation class (every `OpClass`, in `OpClass::ALL` order), summed
    /// over levels.
    pub summary: Vec<ClassSummary>,
    /// The run phase's writes (flushes and merges while the measured operations ran).
    pub writes: WriteSummary,
    /// The load phase's writes (the preload's flushes and merges).
    #[serde(default)]
    pub load_writes: WriteSummary,
    /// The tree the run ended with: buffer, levels, runs, tables and their filters.
    pub tree: TreeShape,
    /// Predictions computed from `tree`.
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

/// One `ClassSummary` per `OpClass`, in `OpClass::ALL` order (classes that never ran included, at 0).
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

    /// The report as pretty-printed JSON, which `from_json` reads back.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Parse a report written by `to_json`; a malformed document is a parse error naming `Report`.
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

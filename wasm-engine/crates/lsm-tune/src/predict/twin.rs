//! The figures the RocksDB twin compares, as a document: what `lsm predict` says RocksDB's own
//! counters will read for a RocksDB-shaped design.

/// The figures the RocksDB twin compares (interop/rocksdb/twin.mjs), predicted.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TwinFigures {
    /// Data blocks read (cache misses) per point lookup, zero- and non-zero-result together.
    pub data_blocks_per_lookup: f64,
    /// Data blocks read per scan.
    pub data_blocks_per_scan: f64,
    /// Filters probed per point lookup.
    pub filters_per_lookup: f64,
    /// Data block cache hits over data block accesses, lookups and scans together.
    pub cache_hit_rate: f64,
    /// Index and filter blocks (or partitions) read per point lookup: the misses of those in the
    /// block cache (`cache_index_and_filter_blocks`, or partitions, which always go through it).
    #[serde(default)]
    pub metadata_blocks_per_lookup: f64,
    /// Bytes flushes and merges wrote during the load, per user byte loaded.
    pub load_bytes_written_per_user_byte: f64,
    /// Bytes flushes and merges wrote during the run, per user byte written.
    pub run_bytes_written_per_user_byte: f64,
    /// Files per level after the load (level 1 = RocksDB's L0).
    pub files_after_load: Vec<usize>,
    /// Files per level when the run ends.
    pub files_after_run: Vec<usize>,
}

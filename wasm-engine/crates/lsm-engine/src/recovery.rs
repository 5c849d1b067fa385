//! What `Engine::open` found and did to bring a stored database back: the logs it replayed, the
//! torn tails it cut (writes and commits that never reached the disk whole), the leftover tables
//! of a flush or merge cut off before its commit, and the run the database recorded (`run_log`),
//! interrupted or not. The figures are the engine's own; nothing here is estimated.

use serde::Serialize;

use crate::run_log::RunRecord;

/// What opening a stored database recovered (`Engine::recovery`); all zero for a new database.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Recovery {
    /// A database was there (false: this open created it).
    pub existed: bool,
    /// The last run the database recorded, as recorded; `end` is null if it was interrupted.
    pub run: Option<RunRecord>,
    /// Tables the manifest names, opened.
    pub tables: u64,
    /// Write-ahead logs replayed into the buffer (the writes not yet in a table).
    pub logs_replayed: u64,
    /// Log records replayed: writes that were in the buffer, recovered.
    pub log_records_replayed: u64,
    /// Bytes of an unfinished last log record cut off: a write that never reached the disk whole,
    /// so it was never acknowledged.
    pub log_bytes_cut: u64,
    /// Bytes of an unfinished manifest record cut off: a flush or merge whose commit never
    /// reached the disk; the tree is as before it.
    pub manifest_bytes_cut: u64,
    /// Tables no manifest entry names, deleted: the outputs of flushes or merges cut off before
    /// their commit (their inputs are still in the tree).
    pub orphan_tables: u64,
    /// Their bytes.
    pub orphan_bytes: u64,
    /// Entries in the tree after recovery, buffer included (a key in several runs counts in each).
    pub entries: u64,
    /// The recovered tree has a merge due (a level over its capacity or run limit, as when an
    /// interrupted run left merging behind): with automatic merges, the next writes merge it a
    /// slice at a time (paced) or the next flush does (inline).
    pub merge_due: bool,
}

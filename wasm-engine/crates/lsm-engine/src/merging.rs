//! When automatic merges run (`Merging`) and what the pacer (`pacer`) keeps between writes. Its
//! own module so the engine can hold them without importing the pacer, which works on the engine.

use lsm_core::pacing::{Debt, Stall};
use serde::{Deserialize, Serialize};

/// When the merges a flush makes due run (with `auto_compact` on).
///
/// The browser runs the engine in one Web Worker and gets `Paced` too: a second worker for merges
/// would need the tree and the open OPFS files shared between workers (an OPFS sync access handle
/// belongs to one worker, and the tables are reference-counted in one wasm memory), while pacing
/// already keeps every write's merge work to a slice, so the worker answers between its batches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Merging {
    /// bLSM's spring and gear (`lsm_core::pacing`): each write merges its share of the pending work,
    /// so the merges are done by the next flush and no write waits for a whole merge; writes slow
    /// down or stop at the `write_stalls` thresholds. The merges, and so the bytes they write, are
    /// the ones `Inline` runs. What differs: lookups between two flushes may find a merge not yet
    /// installed (and read its inputs), and a table sized by its access statistics (Mnemosyne)
    /// counts the lookups made until it is sealed.
    #[default]
    Paced,
    /// Every merge runs to completion inside the write whose flush made it due, as RocksDB does
    /// when each write that seals a memtable waits for compactions (the referee's
    /// `--sync-compactions on`): the tree after N writes has every merge installed.
    Inline,
    /// Flushes and merges run on a merger of their own (`Engine::merge_in_background`: a flush
    /// thread and a merge thread natively) while the writer goes on; the writer installs each result once its
    /// outputs are durable, and writes stall only when the merger falls behind (`background`).
    /// Natively only: the browser keeps `Paced` (see above). The CLI's default on files
    /// (`lsm run --dir`: `lsm-cli`'s `merging_for`). Set without a merger, writes run as `Paced`.
    Background,
}

/// Where writes stand against the write-stall thresholds (`Engine::write_stall`): what a view of
/// the stalls shows between two writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct WriteStallState {
    /// The thresholds' verdict on the tree as it stands (`pacing::stall`): what the next write
    /// does if merge work is pending.
    pub stall: Stall,
    /// Writes pace the merges (or wait for a background merger) and stall at all (automatic
    /// merges on, `Merging::Paced` or `Background`); merges inline or left to `step` never
    /// stall a write.
    pub paced: bool,
    /// Merge work is pending, so the next write merges its share first (slowed down: a larger
    /// slice; stopped: slices until the verdict is no longer `Stop`).
    pub merges_pending: bool,
    /// Files in level 1 (RocksDB's level 0), as the level-0 triggers count them.
    pub level0_files: u64,
    /// The estimated bytes the pending merges write, as the pending-bytes limits count them.
    pub pending_bytes: u64,
    /// Output pages a write merges at most while not slowed down (`pacing::SLICE_PAGES`).
    pub slice_pages: u64,
    /// Output pages a slowed-down write merges at most (`pacing::SLOWDOWN_SLICE_PAGES`).
    pub slowdown_slice_pages: u64,
    /// The level whose merge the policy asks for next and has not started (null: none is due,
    /// or one is under way): what an over-full level waits for.
    pub merge_due_level: Option<u32>,
}

/// What the pacer remembers between writes, refreshed only when the tree or the job changes (a
/// write must not walk the tree).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PaceState {
    /// Merges may be due: set by a flush, cleared once a step finds nothing left to do.
    pub(crate) pending: bool,
    /// The tree or the job changed since `debt` was computed.
    pub(crate) stale: bool,
    /// Level-1 files and the estimated bytes the levels owe (`pacing::pending_compaction_bytes`).
    pub(crate) debt: Debt,
    /// Entry bytes of the current job's inputs when it was seen first.
    pub(crate) job_bytes: u64,
}

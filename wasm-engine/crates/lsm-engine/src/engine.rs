//! The LSM-tree: write buffer, levels of sorted runs, writes (lookups and scans: `read`).
//! Single-threaded and step-driven: flushes and merges (in `maintenance`) advance in bounded steps — paced against the
//! writes (`pacer`, the default), all at once after each flush (`Merging::Inline`), or only when
//! the caller asks (`auto_compact` off) — so the same code runs natively and in a Worker.
//! Durable: writes go to the write-ahead log first, the manifest records every change of the
//! tree, and `open` recovers exactly what was synced.

use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::driver::Background;
pub use crate::driver::Merger;
use crate::hex::decode_hex;
use crate::job::Job;
use crate::manifest::{Manifest, State};
use crate::memtable::{Frozen, Memtable};
pub use crate::merging::Merging;
use crate::merging::PaceState;
use crate::page::max_entry_bytes;
use crate::recovery::Recovery;
use crate::run::Run;
use crate::run_log::RunLog;
use crate::stats::{OpClass, ReadCounters, Stats};
use crate::storage::Storage;
use crate::table::{Table, TableCache};
use crate::tree::{TreeShape, level_info};
use crate::wal::{self, Wal};
use lsm_core::config::{BufferTrigger, EngineConfig};
use lsm_core::error::{Error, Result};

/// A database: the write buffer and the levels of sorted runs, with their write-ahead log and manifest,
/// on one `Storage`. `create` or `open` it, then `put`, `delete`, `get` and `scan`; `sync` makes the
/// writes so far durable. Single-threaded: a flush runs inside the write that finds the buffer full,
/// and merges right after it (or in `step`s when `auto_compact` is off).
pub struct Engine {
    pub(crate) config: EngineConfig,
    pub(crate) storage: Box<dyn Storage>,
    pub(crate) memtable: Memtable,
    /// A full buffer being flushed in paced steps: lookups and scans read it after the buffer and
    /// before the levels, until its flush commits.
    pub(crate) immutable: Option<Frozen>,
    /// The log that holds the immutable buffer's writes (the current log took over when it froze):
    /// synced by `sync` and deleted once the flush commits.
    pub(crate) flushing_wal: Option<Wal>,
    /// Index 0 is level 1; each level's runs newest first (highest id first).
    pub(crate) levels: Vec<Vec<Run>>,
    /// Round-robin positions of merges by file, per level (index 0 = level 1).
    pub(crate) cursors: Vec<Option<Vec<u8>>>,
    pub(crate) cache: TableCache,
    pub(crate) stats: Stats,
    pub(crate) state: State,
    pub(crate) manifest: Manifest,
    pub(crate) wal: Wal,
    pub(crate) job: Option<Job>,
    /// Point lookups so far (Merlin's D_global).
    pub(crate) lookups: u64,
    /// Mnemosyne's latest C, for the query-time skip rule.
    pub(crate) mnemosyne_log_c: Option<f64>,
    /// Re-optimised Monkey: whether the runs changed since the filters were last brought to
    /// the optimum, and the lookups and writes since then.
    pub(crate) filters: FilterState,
    /// Logs replayed at recovery besides the current one: deleted once a flush has committed
    /// what they held.
    pub(crate) replayed_logs: Vec<u64>,
    /// `get`'s reused per-level read counters.
    pub(crate) scratch: Vec<ReadCounters>,
    /// `get`'s reused list: each run's table that may hold the key, in probe order.
    pub(crate) probe_plan: Vec<Option<usize>>,
    /// Run merges without being asked (the default), as `merging` says. Off, merges wait for `step`.
    pub auto_compact: bool,
    /// When automatic merges run: paced against the writes (the default) or inline.
    pub merging: Merging,
    /// The pacer's figures between writes.
    pub(crate) pace: PaceState,
    /// Reads a clock in nanoseconds, to time stalls (the engine itself has none).
    pub(crate) stall_clock: Option<fn() -> f64>,
    /// Ids for logs, runs and tables: shared with a background merger, which names its outputs
    /// from it (`State::next_id` follows it in every manifest record).
    pub(crate) ids: Arc<AtomicU64>,
    /// The background merger and the jobs it holds (`Merging::Background`).
    pub(crate) background: Option<Background>,
    /// The database's record of the run on it (`run_log`).
    pub(crate) run_log: RunLog,
    /// What opening it recovered.
    pub(crate) recovery: Recovery,
}

impl Engine {
    /// A new, empty database on `storage` (which must hold none).
    pub fn create(config: EngineConfig, storage: Box<dyn Storage>) -> Result<Engine> {
        Self::open(storage, Some(config))
    }

    /// Open the database on `storage`, recovering it if one exists (its stored design is used),
    /// else creating one with `config`.
    pub fn open(mut storage: Box<dyn Storage>, config: Option<EngineConfig>) -> Result<Engine> {
        let loaded = Manifest::load(storage.as_mut())?;
        let recovering = loaded.is_some();
        let (manifest, state) = match loaded {
            Some(found) => found,
            None => {
                let config =
                    config.ok_or_else(|| Error::State("no database here, and no config to create one".into()))?;
                config.validate()?;
                if storage.list()?.iter().any(|f| f.ends_with(".sst") || f.ends_with(".wal")) {
                    return Err(Error::State(
                        "storage holds tables or logs but no manifest: refusing to overwrite it".into(),
                    ));
                }
                // Ids: 1 is the first log; tables and runs take later ids.
                let state = State::new(config, 2, 1);
                (Manifest::create(storage.as_mut(), 1, &state)?, state)
            }
        };
        let manifest_bytes_cut = manifest.cut;
        let run_log = RunLog::load(storage.as_mut())?;
        let config = state.config.clone();
        let next_id = state.next_id;
        let mut stats = Stats::default();
        let mut levels: Vec<Vec<Run>> = Vec::new();
        let mut by_run: std::collections::BTreeMap<(usize, u64), Vec<Rc<Table>>> = Default::default();
        let state_tables = state.tables.len() as u64;
        for e in state.tables.values() {
            // RocksDB opens each file at its level: level 0's may keep their metadata pinned.
            let pins = config.block_cache.metadata_pins(e.level == 1);
            let table = Table::open(e.table, storage.as_mut(), pins, &mut stats.open)?;
            by_run.entry((e.level, e.run)).or_default().push(Rc::new(table));
        }
        for ((level, run), tables) in by_run {
            while levels.len() < level {
                levels.push(Vec::new());
            }
            levels[level - 1].push(Run::new(run, tables));
        }
        for l in &mut levels {
            l.sort_by_key(|r| std::cmp::Reverse(r.id));
        }
        let cursors =
            (0..levels.len()).map(|i| state.cursors.get(&(i + 1).to_string()).and_then(|h| decode_hex(h))).collect();
        let mut engine = Engine {
            cache: TableCache::new(config.block_cache.bytes, config.block_cache.high_priority_ratio)
                .with_midpoint_insertion(config.block_cache.midpoint_insertion),
            wal: Wal::new(0),
            config,
            storage,
            memtable: Memtable::new(),
            immutable: None,
            flushing_wal: None,
            levels,
            cursors,
            stats,
            state,
            manifest,
            job: None,
            lookups: 0,
            mnemosyne_log_c: None,
            filters: Default::default(),
            replayed_logs: Vec::new(),
            scratch: Vec::new(),
            probe_plan: Vec::new(),
            auto_compact: true,
            merging: Merging::default(),
            pace: PaceState::default(),
            stall_clock: None,
            ids: Arc::new(AtomicU64::new(next_id)),
            background: None,
            recovery: Recovery {
                existed: recovering,
                run: run_log.record().cloned(),
                tables: state_tables,
                manifest_bytes_cut,
                ..Recovery::default()
            },
            run_log,
        };
        // Filters come back as built; the policy brings them to the optimum again.
        engine.mark_filters_stale();
        engine.charge_pinned_metadata();
        if recovering {
            engine.recover_logs()?;
        }
        engine.wal = Wal::new(engine.allocate_id());
        engine.wal.create(engine.storage.as_mut())?;
        engine.remove_orphans()?;
        // A database created (or recovered) is there after a crash, whatever follows.
        engine.storage.await_syncs()?;
        let tree = engine.tree();
        engine.recovery.entries =
            tree.buffer_entries + tree.levels.iter().flat_map(|l| &l.runs).map(|r| r.entries).sum::<u64>();
        engine.recovery.merge_due = engine.merge_due();
        // A merge left due (a run cut off while merges were paced behind its writes) resumes with
        // the next writes, a slice each, as it would have after the flush that made it due.
        engine.pace.pending = engine.recovery.merge_due;
        Ok(engine)
    }

    /// Replay every live log into the buffer (oldest first).
    fn recover_logs(&mut self) -> Result<()> {
        let mut logs: Vec<u64> = self
            .storage
            .list()?
            .iter()
            .filter_map(|f| f.strip_suffix(".wal").and_then(|n| n.parse().ok()))
            .filter(|&n| n >= self.state.wal)
            .collect();
        logs.sort_unstable();
        for n in logs {
            let replayed = wal::replay(n, self.storage.as_mut(), &mut self.memtable)?;
            self.stats.wal_records_replayed += replayed.records;
            self.recovery.logs_replayed += 1;
            self.recovery.log_records_replayed += replayed.records;
            self.recovery.log_bytes_cut += replayed.bytes_cut;
            self.state.next_id = self.state.next_id.max(n + 1);
            self.ids.fetch_max(n + 1, Ordering::Relaxed);
            self.replayed_logs.push(n);
        }
        Ok(())
    }

    /// Delete files no manifest entry or live log refers to (a crash's leftovers).
    fn remove_orphans(&mut self) -> Result<()> {
        for f in self.storage.list()? {
            let orphan = if let Some(id) = f.strip_suffix(".sst").and_then(|n| n.parse::<u64>().ok()) {
                !self.state.tables.contains_key(&id)
            } else if let Some(n) = f.strip_suffix(".wal").and_then(|n| n.parse::<u64>().ok()) {
                n < self.state.wal
            } else {
                false
            };
            if orphan {
                if f.ends_with(".sst") {
                    self.recovery.orphan_tables += 1;
                    self.recovery.orphan_bytes += self.storage.len(&f)?;
                }
                self.storage.delete(&f)?;
            }
        }
        Ok(())
    }

    pub(crate) fn allocate_id(&mut self) -> u64 {
        self.ids.fetch_add(1, Ordering::Relaxed)
    }

    /// The next id to be allocated, as a manifest edit records it.
    pub(crate) fn next_id(&self) -> u64 {
        self.ids.load(Ordering::Relaxed)
    }

    /// The design it runs: the one stored in its manifest (a reopened database keeps the one it was
    /// created with).
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// Every counter since the database was opened or `reset_stats` was called.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// Zero every counter (the runner does so between the load and the measured run).
    pub fn reset_stats(&mut self) {
        self.stats = Stats::default();
    }

    /// Time stalls with `now` (nanoseconds; `lsm_runner::clock::now_ns`): `Stats::stalls.stalled_ns`.
    pub fn set_stall_clock(&mut self, now: fn() -> f64) {
        self.stall_clock = Some(now);
    }

    /// Run every merge that is due to completion: a quiet tree (RocksDB's `WaitForCompact`).
    pub fn settle(&mut self) -> Result<()> {
        self.drain_background()?;
        self.finish_job()?;
        if self.auto_compact {
            self.maintain()?;
        }
        Ok(())
    }

    /// Give the storage back without closing (what a crash leaves behind).
    pub fn into_storage(self) -> Box<dyn Storage> {
        self.storage
    }

    fn check_entry(&self, key: &[u8], value: Option<&[u8]>) -> Result<()> {
        let max = max_entry_bytes(self.config.page_bytes);
        if key.is_empty() || key.len() > u16::MAX as usize {
            return Err(Error::TooLarge {
                field: "key".into(),
                message: format!("length must be in [1, {}] bytes", u16::MAX),
            });
        }
        let total = key.len() + value.map_or(0, <[u8]>::len);
        if total > max {
            return Err(Error::TooLarge {
                field: "entry".into(),
                message: format!(
                    "key + value is {total} B; a page of {} B holds at most {max} B",
                    self.config.page_bytes
                ),
            });
        }
        Ok(())
    }

    /// Whether writing `key` would take the buffer past its capacity, by the configured trigger.
    fn buffer_full_after(&self, key: &[u8], value: Option<&[u8]>) -> bool {
        let entry = crate::memtable::entry_bytes(key, value);
        let limit = self.config.buffer_bytes;
        match self.config.buffer_trigger {
            BufferTrigger::Logged => self.memtable.logged_bytes() + entry > limit,
            // RocksDB decides after the write that reaches the threshold; the engine flushes
            // before the next one, so the same writes share a buffer.
            BufferTrigger::Arena => {
                self.memtable.arena_bytes()
                    >= lsm_core::arena::flush_threshold(limit, lsm_core::arena::arena_block_bytes(limit))
            }
            // Only near the limit does it matter whether the write replaces a buffered version.
            BufferTrigger::Live => {
                self.memtable.bytes() + entry > limit && self.memtable.bytes_after(key, value) > limit
            }
        }
    }

    /// Write `key` = `value`, replacing any older version; flushes the buffer first if the write would
    /// overflow it. The key must be 1 to 65,535 bytes and key + value fit in one page
    /// (`page::max_entry_bytes`), else `Error::TooLarge`. Logged at once, durable after the next `sync`
    /// (with the write-ahead log off, only once flushed).
    pub fn put(&mut self, key: &[u8], value: &[u8]) -> Result<()> {
        self.write(key, Some(value), OpClass::Put)
    }

    /// Delete `key`: a tombstone that hides its older versions until a merge writing the oldest data in
    /// the tree drops it. Key size, flushing and durability as for `put`.
    pub fn delete(&mut self, key: &[u8]) -> Result<()> {
        self.write(key, None, OpClass::Delete)
    }

    fn write(&mut self, key: &[u8], value: Option<&[u8]>, class: OpClass) -> Result<()> {
        self.check_entry(key, value)?;
        if self.backgrounded() {
            let full = !self.memtable.is_empty() && self.buffer_full_after(key, value);
            self.background_write(full)?;
        } else if !self.memtable.is_empty() && self.buffer_full_after(key, value) {
            self.flush_buffer(true)?;
        } else if self.pace.pending {
            self.pace_write(crate::memtable::entry_bytes(key, value))?;
        }
        // Counted when logged, not when synced, so the figure does not depend on how often the
        // caller syncs.
        self.stats.wal_bytes_written += self.wal.append(key, value);
        self.stats.user_bytes_written += (key.len() + value.map_or(0, <[u8]>::len)) as u64;
        self.memtable.put(key, value);
        self.stats.ops[class.index()] += 1;
        self.note_write();
        Ok(())
    }

    /// Make every write so far durable: after this returns they survive a crash. With the
    /// write-ahead log off, only flushed writes are durable. Flushes and merges commit without
    /// waiting for the disk; this waits for them.
    pub fn sync(&mut self) -> Result<()> {
        self.storage.await_syncs()?;
        if let Some(old) = &mut self.flushing_wal {
            old.sync(self.storage.as_mut())?;
        }
        if self.wal.is_logging() {
            self.wal.sync(self.storage.as_mut())?;
            self.stats.wal_syncs += 1;
        }
        Ok(())
    }

    /// `sync`, when any write since the last one is not yet durable; else only wait for the
    /// flushes and merges in flight. (A caller recording acknowledged writes need not pay a second
    /// log sync after the one that acknowledged them.)
    pub(crate) fn sync_if_written(&mut self) -> Result<()> {
        if self.wal.is_dirty() || self.flushing_wal.as_ref().is_some_and(Wal::is_dirty) {
            self.sync()
        } else {
            self.storage.await_syncs()
        }
    }

    /// What opening this database recovered (all zero for a new one).
    pub fn recovery(&self) -> &Recovery {
        &self.recovery
    }

    /// Log writes ahead (the default), or not, as RocksDB's `WriteOptions::disableWAL` does: a
    /// like-for-like comparison with a benchmark that runs without a log, at the price of losing
    /// the buffer's writes on a crash. Turning it off drops what was logged and not yet synced.
    pub fn set_write_ahead_log(&mut self, on: bool) {
        self.wal.set_logging(on);
    }

    /// The tree as it stands: buffer, levels, runs, tables and their filters, for the UI and reports.
    pub fn tree(&self) -> TreeShape {
        TreeShape {
            buffer_entries: (self.memtable.len() + self.immutable.as_ref().map_or(0, Frozen::len)) as u64,
            buffer_bytes: self.memtable.bytes() + self.immutable.as_ref().map_or(0, Frozen::bytes),
            buffer_capacity_bytes: self.config.buffer_bytes,
            levels: self
                .levels
                .iter()
                .enumerate()
                .map(|(i, runs)| level_info(&self.config, i + 1, runs, self.lookups))
                .collect(),
            merging_level: self.job.as_ref().map(|j| j.source_level).or_else(|| {
                let bg = self.background.as_ref()?;
                bg.merge.as_ref().or(bg.flush.as_ref()).map(|(_, j)| j.source_level)
            }),
            merge_progress: self.job.as_ref().map(|j| crate::tree::MergeProgress {
                pages_read: j.counters.pages_read + j.merge.counters.pages_read,
                pages_written: j.counters.data_pages_written + j.counters.meta_pages_written,
            }),
            cache_bytes: self.cache.resident_bytes(),
            mnemosyne_log_c: self.mnemosyne_log_c,
        }
    }
}

/// Re-optimised Monkey's state between lookups (the policy is in `reoptimise`).
#[derive(Clone, Copy, Debug)]
pub struct FilterState {
    /// The runs changed since the filters were last planned: plan again at the next check.
    pub stale: bool,
    /// The point-lookup count when the runs last changed; checks fall on the first lookup after it and
    /// every 64 lookups from there.
    pub lookups_at_change: u64,
    /// Share of writes among recent writes and point lookups (exponential average).
    pub write_share: f64,
    /// `reoptimise::reserve_share` when the filters were last planned.
    pub settled_reserve: f64,
}

impl Default for FilterState {
    /// A new or reopened tree assumes writes until lookups show otherwise.
    fn default() -> Self {
        FilterState { stale: false, lookups_at_change: 0, write_share: 1.0, settled_reserve: 1.0 }
    }
}

//! Background merging (`Merging::Background`), the writer's side: a full buffer freezes and is
//! flushed by the merger while the writer goes on into a fresh one; merges run on the merger as
//! soon as the policy asks for them; the writer installs each result when it next looks.
//!
//! The crash protocol, pipelined: the merger writes a job's outputs and reports the job done
//! (`merger`); the writer then asks its own handle to sync them (`Storage::sync_later`), appends
//! the manifest record naming them, which reaches the disk only after those syncs, swaps the
//! tree, and deletes the inputs (and, for a flush, the log its buffer came from), each delete
//! ordered after the record (`Storage::commit_later`). Neither waits for the disk: a buffer
//! waiting for its flush waits for the table's writing, never for its `fdatasync`. A crash at
//! any point finds the last durable record's tree, whose tables are all there, and the logs it
//! names: a prefix of the acknowledged writes and nothing lost. Lookups and scans read the
//! installed tree (and the frozen buffer until its flush installs), so a job's outputs become
//! visible only at install.
//!
//! At most one flush and one merge are given out at once, and they never share a table: a flush
//! here always writes a new run into level 1, never merged into its newest run as inline and paced
//! flushes may (`FlushPlan::IntoNewestRun`), so the flush lane's work is one buffer's bytes and a
//! buffer never waits while level 1 is rewritten: the merge lane merges level 1's runs as the
//! policy asks, and the stall verdict counts them like RocksDB's level-0 files. A flush installs
//! into a run numbered at install, so it is newer than any merge output however the two finish.
//!
//! Writes stall only when the merger falls behind: a write that fills the buffer while the last
//! one is still flushing stops until that flush installs (RocksDB's `max_write_buffer_number` of
//! 2), and the pure verdict `pacing::stall` on level 1's files and the pending merge bytes slows a
//! write down (it waits for one merger step) or stops it (it waits until the verdict clears or
//! nothing is left out to wait for).

use std::rc::Rc;
use std::sync::Arc;

use crate::driver::{Background, Merger};
use crate::engine::Engine;
use crate::filestats::FileStats;
use crate::job::Job;
use crate::memtable::Frozen;
use crate::merge::Source;
use crate::merger::{Finished, SourceSpec, Task};
use crate::merging::Merging;
use crate::table::Table;
use lsm_core::error::Result;
use lsm_core::pacing::{self, Stall};

/// The longest a slowed-down write waits for the merger (a step that seals a large table can take
/// far longer; the stop threshold, not one write, is what holds the writer back until merges catch up).
const SLOWDOWN_WAIT: std::time::Duration = std::time::Duration::from_millis(1);

/// Trivial moves the writer makes in a row before it gives the merger a merge (a guard: each
/// move changes the tree, and the policy stops asking for them once levels fit).
const MAX_MOVES_AT_ONCE: usize = 64;

impl Engine {
    /// Run flushes and merges on `merger` from now on (`Merging::Background`): threads of its
    /// own (`Merger::threads`), or steps the caller drives (`Merger::stepped`,
    /// `background_step`). Whatever is pending runs to completion first.
    pub fn merge_in_background(&mut self, merger: Merger) -> Result<()> {
        self.settle()?;
        self.background = Some(Background::new(merger));
        self.merging = Merging::Background;
        self.auto_compact = true;
        Ok(())
    }

    /// One step of a stepped background merger (`Merger::stepped`): returns whether it did
    /// anything. Its results are installed by the writer's next write (or `settle`).
    pub fn background_step(&mut self) -> bool {
        self.background.as_mut().is_some_and(|bg| bg.driver.step())
    }

    /// Flushes and merges given to the background merger and not yet installed.
    pub fn background_jobs(&self) -> usize {
        self.background.as_ref().map_or(0, Background::in_flight)
    }

    /// Whether writes hand their flushes and merges to the background merger.
    pub(crate) fn backgrounded(&self) -> bool {
        self.merging == Merging::Background && self.auto_compact && self.background.is_some()
    }

    /// Before a write in background mode: install what the merger finished, freeze the buffer
    /// if the write would overflow it (`full`), give the merger work, and stall if it is behind.
    pub(crate) fn background_write(&mut self, full: bool) -> Result<()> {
        self.collect()?;
        if full {
            if self.immutable.is_some() {
                self.stats.stalls.flush_waits += 1;
                let started = self.stall_clock.map(|now| now());
                let waited = self.wait_while(|e| e.immutable.is_some());
                self.add_stalled_since(started);
                waited?;
            }
            self.rotate()?;
        }
        self.schedule()?;
        match pacing::stall(&self.background_debt(), &self.config.write_stalls) {
            Stall::None => Ok(()),
            _ if self.background_jobs() == 0 => Ok(()),
            Stall::Slowdown => {
                self.stats.stalls.slowdowns += 1;
                let started = self.stall_clock.map(|now| now());
                let waited = self.wait_briefly();
                self.add_stalled_since(started);
                waited
            }
            Stall::Stop => {
                self.stats.stalls.stops += 1;
                let started = self.stall_clock.map(|now| now());
                let waited =
                    self.wait_while(|e| pacing::stall(&e.background_debt(), &e.config.write_stalls) == Stall::Stop);
                self.add_stalled_since(started);
                waited
            }
        }
    }

    /// `flush` in background mode: the buffer's writes are in a table once this returns.
    pub(crate) fn background_flush(&mut self) -> Result<()> {
        self.collect()?;
        if !self.memtable.is_empty() {
            self.wait_while(|e| e.immutable.is_some())?;
            self.rotate()?;
        }
        self.wait_while(|e| e.immutable.is_some())
    }

    /// Wait for every flush and merge due to be done and installed (`settle`, and before a job
    /// the writer runs itself: `step`, `compact_all`).
    pub(crate) fn drain_background(&mut self) -> Result<()> {
        if self.background.is_none() {
            return Ok(());
        }
        self.collect()?;
        let give_out = self.backgrounded();
        loop {
            if give_out {
                self.schedule()?;
            }
            if self.background_jobs() == 0 {
                return Ok(());
            }
            self.wait_once()?;
        }
    }

    /// Wait for the merger (giving it work as it frees up) while `waiting` holds and something is
    /// out to wait for.
    fn wait_while(&mut self, waiting: impl Fn(&mut Engine) -> bool) -> Result<()> {
        while waiting(self) {
            self.schedule()?;
            if self.background_jobs() == 0 {
                return Ok(());
            }
            self.wait_once()?;
        }
        Ok(())
    }

    /// A slowed-down write's wait: one merger step or `SLOWDOWN_WAIT`, whichever comes first
    /// (RocksDB delays such a write by about a millisecond at a time), then install what finished.
    fn wait_briefly(&mut self) -> Result<()> {
        if let Some(bg) = self.background.as_mut() {
            bg.driver.wait_at_most(SLOWDOWN_WAIT)?;
        }
        self.collect()
    }

    /// One merger step (or one finished job), then install what finished.
    fn wait_once(&mut self) -> Result<()> {
        if let Some(bg) = self.background.as_mut() {
            bg.driver.wait()?;
        }
        self.collect()
    }

    /// Level 1's files and the pending merge bytes of the installed tree (refreshed only when it
    /// changed).
    fn background_debt(&mut self) -> pacing::Debt {
        if self.pace.stale {
            self.pace.debt = self.level_debt();
            self.pace.stale = false;
        }
        self.pace.debt
    }

    /// Give the merger the frozen buffer's flush, and a merge if the policy asks for one.
    fn schedule(&mut self) -> Result<()> {
        let Some(bg) = self.background.as_ref() else { return Ok(()) };
        let merge_out = bg.merge.is_some();
        if bg.flush.is_none()
            && let Some(frozen) = self.immutable.clone()
        {
            // Never into level 1's newest run: that would rewrite the run on the flush lane.
            let job = self.flush_job(frozen, false);
            self.submit(job);
        }
        if merge_out || !self.pace.pending {
            return Ok(());
        }
        for _ in 0..MAX_MOVES_AT_ONCE {
            if !self.start_job()? {
                // Nothing due until the tree changes again.
                self.pace.pending = false;
                return Ok(());
            }
            self.pace.stale = true;
            if let Some(job) = self.job.take() {
                self.submit(job);
                return Ok(());
            }
        }
        Ok(())
    }

    /// Hand `job` to the merger as a task.
    fn submit(&mut self, job: Job) {
        let sources = job
            .merge
            .sources()
            .iter()
            .map(|s| match s {
                Source::Buffer { frozen, .. } => SourceSpec::Buffer(frozen.clone()),
                Source::Run(c) => SourceSpec::Tables(c.tables().iter().map(|t| t.id).collect()),
            })
            .collect();
        let Some(bg) = self.background.as_mut() else { return };
        let number = bg.next_number;
        bg.next_number += 1;
        let task = Task {
            number,
            flush: job.flush,
            sources,
            rules: job.merge.rules(),
            config: Arc::new(self.config.clone()),
            view: self.tree_view(&job),
            inherit: job.inherit_inputs.clone(),
            prior: if job.flush { self.level1_prior() } else { (0.0, 0.0) },
            lookups: self.lookups,
            ids: self.ids.clone(),
        };
        let Some(bg) = self.background.as_mut() else { return };
        bg.driver.submit(task);
        if job.flush {
            bg.flush = Some((number, job));
        } else {
            bg.merge = Some((number, job));
        }
    }

    /// Install every job the merger has finished; a failed one is dropped (a flush is given out
    /// again from the frozen buffer, a merge picked again) and its error returned.
    fn collect(&mut self) -> Result<()> {
        let Some(bg) = self.background.as_mut() else { return Ok(()) };
        let outcomes = bg.driver.take_finished();
        let mut failed = None;
        for outcome in outcomes {
            let Some(bg) = self.background.as_mut() else { break };
            let job = if bg.flush.as_ref().is_some_and(|(n, _)| *n == outcome.number) {
                bg.flush.take()
            } else if bg.merge.as_ref().is_some_and(|(n, _)| *n == outcome.number) {
                bg.merge.take()
            } else {
                None
            };
            let Some((_, job)) = job else { continue };
            // Whatever happened, the tree may now owe a merge (or the same one again).
            self.pace.pending = true;
            self.pace.stale = true;
            let installed = outcome.result.and_then(|finished| self.install_finished(job, finished));
            if let Err(e) = installed {
                failed.get_or_insert(e);
            }
        }
        failed.map_or(Ok(()), Err)
    }

    /// Take a finished job's outputs as the merger built them (opening any it could not hand
    /// over) and commit the job: manifest record, tree, then the inputs' deletion
    /// (`maintenance::complete`).
    fn install_finished(&mut self, mut job: Job, finished: Finished) -> Result<()> {
        let pins = self.config.block_cache.metadata_pins(job.flush);
        let ids: Vec<u64> = finished.outputs.iter().map(|s| s.id).collect();
        for sealed in finished.outputs {
            // The merger only wrote it; the record `complete` appends waits for this sync.
            let synced = self.storage.sync_later(&crate::table::table_file_name(sealed.id));
            let opened = synced.and_then(|()| match sealed.table {
                Some(built) => Ok(built.into_table()),
                None => Table::open(sealed.id, self.storage.as_mut(), pins, &mut self.stats.open),
            });
            let mut table = match opened {
                Ok(t) => t,
                Err(e) => {
                    for id in ids {
                        let _ = self.storage.delete(&crate::table::table_file_name(id));
                    }
                    return Err(e);
                }
            };
            table.built_bits_per_key = sealed.bits_per_key;
            *table.stats.borrow_mut() = FileStats::new(self.lookups, sealed.probes, sealed.found);
            job.outputs.push(Rc::new(table));
        }
        job.counters = finished.counters;
        job.merge.counters = finished.merged;
        if let Some(c) = finished.log_c {
            self.mnemosyne_log_c = c;
        }
        if job.flush && job.inputs.is_empty() {
            // Newer than every run installed before it, merge outputs included.
            job.dest_run = self.allocate_id();
        }
        let flushed = if job.flush { self.immutable.clone() } else { None };
        let done = self.complete(job);
        if let Some(buffer) = flushed {
            release_off_path(buffer);
        }
        done
    }
}

/// Free a flushed buffer away from the writer: its B-tree, entry list and arena are a whole
/// buffer's allocations (40 ms to free at a 64 MiB buffer, measured at install), and the
/// writer would otherwise free them inside a write. The merger may hold the last reference
/// instead, and then frees it on its own thread.
fn release_off_path(buffer: Frozen) {
    #[cfg(feature = "files")]
    {
        // If no thread can be started, the closure (and the buffer) is dropped here.
        let _ = std::thread::Builder::new().name("lsm-release".into()).spawn(move || drop(buffer));
    }
    #[cfg(not(feature = "files"))]
    drop(buffer);
}

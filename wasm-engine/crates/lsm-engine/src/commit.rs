//! Committing a finished flush or merge, however it ran (inline, paced or on the background
//! merger): the manifest record naming its outputs, then the tree swapped to them, then its inputs
//! (and a flush's log) deleted, each delete ordered after the record, so a crash anywhere finds
//! a tree whose tables are all there.

use std::collections::BTreeMap;

use rustc_hash::FxHashSet;

use crate::engine::Engine;
use crate::hex::encode_hex;
use crate::job::Job;
use crate::manifest::{Edit, TableEntry};
use crate::run::Run;
use crate::wal;
use lsm_core::error::Result;

impl Engine {
    /// Commit a finished job to the manifest, then install it and delete its inputs.
    pub(crate) fn complete(&mut self, job: Job) -> Result<()> {
        let mut edit = Edit {
            remove: job.inputs.iter().map(|t| t.id).collect(),
            add: job
                .outputs
                .iter()
                .map(|t| TableEntry { table: t.id, level: job.dest_level, run: job.dest_run })
                .collect(),
            ..Edit::default()
        };
        if let Some(c) = &job.cursor {
            edit.cursors = BTreeMap::from([(job.source_level.to_string(), encode_hex(c))]);
        }
        if job.flush {
            // The flushed writes are in a table now: the log that took over when the buffer froze
            // (holding only later writes) is the oldest one recovery needs.
            edit.wal = Some(self.wal.number);
        }
        edit.next_id = self.next_id();
        let mut state = self.state.clone();
        state.apply(&edit);
        if let Err(e) = self.manifest.commit(self.storage.as_mut(), &edit, &state) {
            self.job = Some(job);
            self.abandon_job();
            return Err(e);
        }
        self.state = state;
        // Committed: the tree takes the job now, whatever a deletion below does (a file left
        // behind is an orphan the next open removes).
        if job.flush {
            self.immutable = None;
        }
        let retired_wal = if job.flush { self.flushing_wal.take() } else { None };
        self.install(&job);
        let mut counters = job.counters;
        counters.pages_read += job.merge.counters.pages_read;
        counters.entries_read += job.merge.counters.entries_read;
        counters.entries_dropped = counters.entries_read.saturating_sub(counters.entries_written);
        let w = &mut self.stats.level(job.dest_level).writes;
        if job.flush {
            w.flushes += 1;
        } else {
            w.compactions += 1;
        }
        w.add(&counters);
        if let Some(old) = retired_wal {
            self.storage.delete(old.file())?;
            // Not by listing the files: a list waits for every unlink the disk has queued.
            let (done, kept): (Vec<u64>, Vec<u64>) =
                self.replayed_logs.iter().partition(|&&n| n < self.state.wal && n != old.number);
            self.replayed_logs = kept;
            for n in done {
                self.storage.delete(&wal::wal_file_name(n))?;
            }
        }
        for t in &job.inputs {
            self.storage.delete(&t.file)?;
        }
        Ok(())
    }

    /// Swap the tree to the job's outputs (a commit's, or a trivial move's: `move_table`).
    pub(crate) fn install(&mut self, job: &Job) {
        self.mark_filters_stale();
        let consumed: FxHashSet<u64> = job.inputs.iter().map(|t| t.id).collect();
        for level in &mut self.levels {
            for run in level.iter_mut() {
                run.tables.retain(|t| !consumed.contains(&t.id));
            }
            level.retain(|r| !r.tables.is_empty());
        }
        while self.levels.len() < job.dest_level {
            self.levels.push(Vec::new());
        }
        let dest = &mut self.levels[job.dest_level - 1];
        if !job.outputs.is_empty() {
            match dest.iter_mut().find(|r| r.id == job.dest_run) {
                Some(run) => {
                    let mut tables = std::mem::take(&mut run.tables);
                    tables.extend(job.outputs.iter().cloned());
                    *run = Run::new(job.dest_run, tables);
                }
                None => dest.push(Run::new(job.dest_run, job.outputs.clone())),
            }
            dest.sort_by_key(|r| std::cmp::Reverse(r.id));
        }
        while self.levels.last().is_some_and(Vec::is_empty) {
            self.levels.pop();
        }
        self.charge_pinned_metadata();
        if let Some(c) = &job.cursor {
            while self.cursors.len() < job.source_level {
                self.cursors.push(None);
            }
            self.cursors[job.source_level - 1] = Some(c.clone());
        }
    }

    /// With index and filter blocks in the cache, the pinned ones (pin_l0) take its room.
    pub(crate) fn charge_pinned_metadata(&mut self) {
        if self.config.block_cache.cache_index_and_filter_blocks {
            let pinned =
                self.levels.iter().flatten().flat_map(|r| r.tables.iter()).map(|t| t.pinned_metadata_bytes()).sum();
            self.cache.set_pinned(pinned);
        }
    }
}

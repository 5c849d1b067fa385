//! Flushes and merges: what the policy (`compaction`) chooses is executed here in bounded steps,
//! each new table gets a filter sized by the configured allocation (`filter_sizing`: explicit, uniform, Monkey or
//! Mnemosyne) and inherited access statistics, and every finished job is committed (`commit`:
//! the manifest record before the inputs are deleted).

use std::collections::BTreeMap;

use rustc_hash::FxHashSet;
use std::rc::Rc;

use crate::cursor::RunCursor;
use crate::engine::Engine;
use crate::filestats::{FileStats, InheritInput, inherit};
use crate::hex::encode_hex;
use crate::job::Job;
use crate::manifest::{Edit, TableEntry};
use crate::merge::{Merge, Output, Progress, Source};
use crate::merging::Merging;
use crate::run::Run;
use crate::stats::{ReadCounters, WriteCounters};
use crate::table::{ReadCtx, Table, TableBuilder, TableCache};
use crate::universal::Start;
use lsm_core::compaction::{self, FilePlan, FlushPlan, MergePlan, Shape, TableShape};
use lsm_core::config::{Granularity, OutputCuts};
use lsm_core::error::Result;

/// A merge by file cuts an output once it would overlap more than this many target files' bytes
/// two levels down (LevelDB's kMaxGrandParentOverlapBytes, 10 × max_file_size).
const GRANDPARENT_OVERLAP_FILES: u64 = 10;
/// RocksDB's default `max_compaction_bytes`, in target files (25 × `target_file_size_base`).
const MAX_COMPACTION_FILES: u64 = 25;

impl Engine {
    fn shape(&self) -> Shape {
        Shape { levels: self.levels.iter().map(|l| l.iter().map(Run::entry_bytes).collect()).collect() }
    }

    fn file_shapes(&self) -> Vec<Vec<TableShape>> {
        self.levels
            .iter()
            .map(|runs| {
                runs.iter()
                    .flat_map(|r| r.tables.iter())
                    .map(|t| TableShape {
                        id: t.id,
                        bytes: t.entry_bytes,
                        min_key: t.min_key().to_vec(),
                        max_key: t.max_key().to_vec(),
                    })
                    .collect()
            })
            .collect()
    }

    pub(crate) fn target_bytes(&self) -> u64 {
        match self.config.compaction.granularity {
            Granularity::Level => u64::MAX,
            Granularity::File => self.config.compaction.target_file_bytes,
        }
    }

    fn deeper_data_exists(&self, level: usize) -> bool {
        self.levels.iter().skip(level).any(|l| !l.is_empty())
    }

    pub(crate) fn snapshot_inputs(&self, inputs: &[Rc<Table>], deep: &FxHashSet<u64>) -> Vec<(u64, InheritInput)> {
        inputs
            .iter()
            .map(|t| {
                let estimate = t.stats.borrow().estimate(self.lookups);
                (t.id, InheritInput { estimate, deep: deep.contains(&t.id), entries: t.entries })
            })
            .collect()
    }

    /// Write the buffer out (merged into level 1's newest run if that has room); returns once it
    /// is in a table (and, with merges inline, once the merges it made due are done).
    pub fn flush(&mut self) -> Result<()> {
        if self.backgrounded() {
            return self.background_flush();
        }
        self.flush_buffer(false)
    }

    /// Freeze the buffer and flush it. `paced` (a write that found the buffer full, with paced
    /// merging): the frozen buffer stays readable and its flush advances in the pacer's steps.
    pub(crate) fn flush_buffer(&mut self, paced: bool) -> Result<()> {
        if self.memtable.is_empty() {
            // A buffer frozen earlier may still be flushing: a flush asked for finishes it.
            if !paced && self.job.as_ref().is_some_and(|j| j.flush) {
                self.finish_job()?;
            }
            return Ok(());
        }
        self.settle_before_flush()?;
        let frozen = self.rotate()?;
        self.job = Some(self.flush_job(frozen.clone(), true));
        if paced && self.auto_compact && self.paced_mode() {
            self.pace.pending = true;
            self.pace.stale = true;
            return Ok(());
        }
        let result = self.run_job_to_end();
        if result.is_err() {
            // Nothing was committed: put the buffer and its log back so the engine stays usable.
            self.abandon_job();
            self.immutable = None;
            if let Some(old) = self.flushing_wal.take() {
                let fresh = std::mem::replace(&mut self.wal, old);
                let _ = self.storage.delete(fresh.file());
            }
            self.memtable.restore(&frozen);
            return result;
        }
        if self.auto_compact {
            match self.merging {
                Merging::Inline => self.maintain()?,
                Merging::Paced | Merging::Background => {
                    self.pace.pending = true;
                    self.pace.stale = true;
                }
            }
        }
        Ok(())
    }

    /// The job that writes `frozen` into level 1 (merged into its newest run if that has room
    /// and `may_absorb`: not while a background merge may be reading that run).
    /// The buffer freezes (lookups still read it) and a fresh log takes the writes after it, so
    /// the flush's commit can retire the old one. Every merge mode flushes through this.
    pub(crate) fn rotate(&mut self) -> Result<crate::memtable::Frozen> {
        let frozen = self.memtable.freeze();
        let number = self.allocate_id();
        let mut wal = self.wal.successor(number);
        if let Err(e) = wal.create(self.storage.as_mut()) {
            self.memtable.restore(&frozen);
            return Err(e);
        }
        self.flushing_wal = Some(std::mem::replace(&mut self.wal, wal));
        self.immutable = Some(frozen.clone());
        Ok(frozen)
    }

    pub(crate) fn flush_job(&mut self, frozen: crate::memtable::Frozen, may_absorb: bool) -> Job {
        let bytes = frozen.bytes();
        let plan = compaction::choose_flush(&self.shape(), &self.config, bytes);
        let absorbed: Vec<Rc<Table>> = match plan {
            FlushPlan::IntoNewestRun if may_absorb => {
                self.levels.first().and_then(|l| l.first()).map(|r| r.tables.clone()).unwrap_or_default()
            }
            FlushPlan::IntoNewestRun | FlushPlan::NewRun => Vec::new(),
        };
        let level1_runs = self.levels.first().map_or(0, Vec::len);
        let older_exist = level1_runs > usize::from(!absorbed.is_empty()) || self.deeper_data_exists(1);
        let deep: FxHashSet<u64> = absorbed.iter().map(|t| t.id).collect();
        let mut sources = vec![Source::buffer(frozen)];
        if !absorbed.is_empty() {
            sources.push(Source::Run(RunCursor::new(absorbed.clone(), None)));
        }
        let inherit_inputs = self.snapshot_inputs(&absorbed, &deep);
        let dest_run = self.allocate_id();
        Job {
            source_level: 0,
            dest_level: 1,
            inputs: absorbed,
            inherit_inputs,
            dest_run,
            merge: Merge::new(sources, !older_exist, self.target_bytes()),
            outputs: Vec::new(),
            counters: WriteCounters::default(),
            cursor: None,
            flush: true,
        }
    }

    /// Drop a failed job's outputs; the tree is as before it started.
    pub(crate) fn abandon_job(&mut self) {
        if let Some(job) = self.job.take() {
            for t in &job.outputs {
                let _ = self.storage.delete(&t.file);
            }
        }
    }

    fn run_job_to_end(&mut self) -> Result<()> {
        while self.job.is_some() {
            self.advance_job(u64::MAX)?;
        }
        Ok(())
    }

    /// Start the merge the policy asks for, if any.
    pub(crate) fn start_job(&mut self) -> Result<bool> {
        if self.config.compaction.universal.is_some() {
            let Some(picked) = self.universal_pick() else { return Ok(false) };
            match self.universal_start(picked) {
                Start::Merge(job) => self.job = Some(*job),
                Start::Move(plan) => self.move_table(plan)?,
            }
            return Ok(true);
        }
        let job = match self.config.compaction.granularity {
            Granularity::Level => match compaction::choose(&self.shape(), &self.config) {
                Some(plan) => self.level_job(plan),
                None => return Ok(false),
            },
            Granularity::File => {
                let runs_in_1 = self.levels.first().map_or(0, Vec::len);
                match compaction::choose_file(&self.file_shapes(), runs_in_1, &self.cursors, &self.config) {
                    Some(plan) if plan.trivial_move => {
                        self.move_table(plan)?;
                        return Ok(true);
                    }
                    Some(plan) => self.file_job(plan),
                    None => return Ok(false),
                }
            }
        };
        self.job = Some(job);
        Ok(true)
    }

    fn level_job(&mut self, plan: MergePlan) -> Job {
        let src = plan.level - 1;
        let mut runs: Vec<&Run> = self.levels[src].iter().collect();
        let absorbed = self.levels.get(src + 1).and_then(|l| l.first()).filter(|_| plan.into_newest_run);
        runs.extend(absorbed);
        let deep: FxHashSet<u64> = absorbed.iter().flat_map(|r| r.tables.iter().map(|t| t.id)).collect();
        let inputs: Vec<Rc<Table>> = runs.iter().flat_map(|r| r.tables.iter().cloned()).collect();
        let sources = runs.iter().map(|r| Source::Run(RunCursor::new(r.tables.clone(), None))).collect();
        let dest_runs = self.levels.get(src + 1).map_or(0, Vec::len);
        let older_exist = dest_runs > usize::from(absorbed.is_some()) || self.deeper_data_exists(src + 2);
        let inherit_inputs = self.snapshot_inputs(&inputs, &deep);
        let dest_run = self.allocate_id();
        Job {
            source_level: plan.level,
            dest_level: plan.level + 1,
            inputs,
            inherit_inputs,
            dest_run,
            merge: Merge::new(sources, !older_exist, u64::MAX),
            outputs: Vec::new(),
            counters: WriteCounters::default(),
            cursor: None,
            flush: false,
        }
    }

    /// A trivial move: the plan's tables change level in the manifest and in the tree (one
    /// commit); nothing is read or written (their filters and statistics go with them). A
    /// universal move may take tables of several levels (ids are unique over the tree).
    fn move_table(&mut self, plan: FilePlan) -> Result<()> {
        let tables: Vec<Rc<Table>> = self
            .levels
            .iter()
            .flatten()
            .flat_map(|r| r.tables.iter())
            .filter(|t| plan.tables.contains(&t.id))
            .cloned()
            .collect();
        if tables.len() != plan.tables.len() {
            return Err(lsm_core::error::Error::State(format!(
                "a trivial move names tables {:?}, which the tree does not all hold (from level {})",
                plan.tables, plan.level
            )));
        }
        let dest_run = match self.levels.get(plan.into - 1).and_then(|l| l.first()) {
            Some(run) => run.id,
            None => self.allocate_id(),
        };
        let mut edit = Edit {
            remove: tables.iter().map(|t| t.id).collect(),
            add: tables.iter().map(|t| TableEntry { table: t.id, level: plan.into, run: dest_run }).collect(),
            ..Edit::default()
        };
        if let Some(c) = &plan.cursor {
            edit.cursors = BTreeMap::from([(plan.level.to_string(), encode_hex(c))]);
        }
        edit.next_id = self.next_id();
        let mut state = self.state.clone();
        state.apply(&edit);
        self.manifest.commit(self.storage.as_mut(), &edit, &state)?;
        self.state = state;
        let job = Job {
            source_level: plan.level,
            dest_level: plan.into,
            inputs: tables.clone(),
            inherit_inputs: Vec::new(),
            dest_run,
            merge: Merge::new(Vec::new(), false, self.target_bytes()),
            outputs: tables.clone(),
            counters: WriteCounters::default(),
            cursor: plan.cursor,
            flush: false,
        };
        self.install(&job);
        let w = &mut self.stats.level(plan.into).writes;
        w.moves += tables.len() as u64;
        w.entries_moved += tables.iter().map(|t| t.entries).sum::<u64>();
        Ok(())
    }

    fn file_job(&mut self, plan: FilePlan) -> Job {
        let src = plan.level - 1;
        let find = |ids: &[u64], level: usize| -> Vec<Rc<Table>> {
            let mut found: Vec<Rc<Table>> = self
                .levels
                .get(level)
                .into_iter()
                .flatten()
                .flat_map(|r| r.tables.iter())
                .filter(|t| ids.contains(&t.id))
                .cloned()
                .collect();
            found.sort_by(|a, b| a.min_key().cmp(b.min_key()));
            found
        };
        // Level 1 holds one table per run, newest run first: each is its own source, in order.
        let mut sources = Vec::new();
        let mut inputs = Vec::new();
        if src == 0 {
            for run in &self.levels[0] {
                for t in run.tables.iter().filter(|t| plan.tables.contains(&t.id)) {
                    sources.push(Source::Run(RunCursor::new(vec![t.clone()], None)));
                    inputs.push(t.clone());
                }
            }
        } else {
            let picked = find(&plan.tables, src);
            sources.push(Source::Run(RunCursor::new(picked.clone(), None)));
            inputs.extend(picked);
        }
        let dest = plan.into - 1;
        let overlapping = find(&plan.overlapping, dest);
        if !overlapping.is_empty() {
            sources.push(Source::Run(RunCursor::new(overlapping.clone(), None)));
        }
        let deep: FxHashSet<u64> = overlapping.iter().map(|t| t.id).collect();
        inputs.extend(overlapping);
        let existing_run = self.levels.get(dest).and_then(|l| l.first()).map(|r| r.id);
        let dest_run = match existing_run {
            Some(id) => id,
            None => self.allocate_id(),
        };
        let inherit_inputs = self.snapshot_inputs(&inputs, &deep);
        let target = self.config.compaction.target_file_bytes;
        let lo = inputs.iter().map(|t| t.min_key()).min().unwrap_or_default();
        let hi = inputs.iter().map(|t| t.max_key()).max().unwrap_or_default();
        let mut grandparents: Vec<(Vec<u8>, Vec<u8>, u64)> = self
            .levels
            .get(dest + 1)
            .into_iter()
            .flatten()
            .flat_map(|r| r.tables.iter())
            .filter(|t| t.max_key() >= lo && t.min_key() <= hi)
            .map(|t| (t.min_key().to_vec(), t.max_key().to_vec(), t.entry_bytes))
            .collect();
        grandparents.sort();
        let bottommost = !self.deeper_data_exists(dest + 1);
        let merge = match self.config.compaction.output_cuts {
            OutputCuts::Leveldb => Merge::new(sources, bottommost, target)
                .limit_grandparent_overlap(grandparents, GRANDPARENT_OVERLAP_FILES.saturating_mul(target)),
            // With dynamic file sizes a file above the bottom may grow to twice the target
            // while it waits for a boundary below to cut at.
            OutputCuts::Rocksdb => {
                let largest = if bottommost { target } else { target.saturating_mul(2) };
                Merge::new(sources, bottommost, largest).rocksdb_output_cuts(
                    grandparents,
                    target,
                    MAX_COMPACTION_FILES.saturating_mul(target),
                )
            }
        };
        Job {
            source_level: plan.level,
            dest_level: plan.into,
            inputs,
            inherit_inputs,
            dest_run,
            merge,
            outputs: Vec::new(),
            counters: WriteCounters::default(),
            cursor: plan.cursor,
            flush: false,
        }
    }

    /// Advance the current job by about `max_pages` output pages; completes it when done.
    fn advance_job(&mut self, max_pages: u64) -> Result<()> {
        let Some(mut job) = self.job.take() else { return Ok(()) };
        let outcome = (|| -> Result<bool> {
            loop {
                if !job.merge.has_output() {
                    let id = self.allocate_id();
                    job.merge.start_output(TableBuilder::for_config(id, &self.config));
                }
                let mut reads = ReadCounters::default();
                let mut no_cache = TableCache::new(0, 0.0);
                let mut ctx = ReadCtx { storage: self.storage.as_mut(), cache: &mut no_cache, counters: &mut reads };
                match job.merge.step(&mut ctx, max_pages)? {
                    Progress::Working => return Ok(false),
                    Progress::OutputFull => {
                        self.seal(&mut job)?;
                        if max_pages != u64::MAX {
                            return Ok(false);
                        }
                    }
                    Progress::Done => {
                        self.seal(&mut job)?;
                        return Ok(true);
                    }
                }
            }
        })();
        match outcome {
            Ok(true) => self.complete(job),
            Ok(false) => {
                self.job = Some(job);
                Ok(())
            }
            Err(e) => {
                // A failed step may have lost entries it had taken from its sources (an output
                // that could not be written): start the job again from its inputs, which are
                // untouched until it commits (a flush, from its frozen buffer).
                self.job = Some(job);
                self.abandon_job();
                Err(e)
            }
        }
    }

    /// Finish the current output table: size its filter, inherit statistics, write it.
    fn seal(&mut self, job: &mut Job) -> Result<()> {
        let Some(Output { builder, contributions }) = job.merge.take_output() else { return Ok(()) };
        let id = builder.id();
        let entries = builder.entries();
        if entries == 0 {
            return Ok(());
        }
        let inherit_inputs: Vec<InheritInput> = job.inherit_inputs.iter().map(|(_, i)| *i).collect();
        let contributed: Vec<u64> = job
            .inherit_inputs
            .iter()
            .map(|(tid, _)| contributions.iter().find(|(c, _)| c == tid).map_or(0, |(_, n)| *n))
            .collect();
        let (mut probes, mut found) = inherit(&inherit_inputs, &contributed);
        if job.flush && probes == 0.0 {
            // A flushed file starts with the probe rate an average level-1 file sees (the L0 prior).
            (probes, found) = self.level1_prior();
        }
        let spec = self.filter_spec(job, entries, builder.entry_bytes(), (probes - found).max(0.0));
        let table = builder.finish(id, spec, self.storage.as_mut(), &mut job.counters)?;
        if let Some(mut table) = table {
            // Durable before the manifest names it, not before the merge goes on: the disk
            // syncs this table while the merge builds the next.
            self.storage.sync_later(&table.file)?;
            // A flush's output is opened in level 0: with pin_l0 its metadata stays pinned.
            table.apply_pins(self.config.block_cache.metadata_pins(job.flush));
            *table.stats.borrow_mut() = FileStats::new(self.lookups, probes, found);
            job.outputs.push(Rc::new(table));
        }
        Ok(())
    }

    pub(crate) fn level1_prior(&self) -> (f64, f64) {
        let level1: Vec<&Rc<Table>> = self.levels.first().into_iter().flatten().flat_map(|r| r.tables.iter()).collect();
        if level1.is_empty() {
            return (0.0, 0.0);
        }
        let n = level1.len() as f64;
        let (q, x) = level1.iter().fold((0.0, 0.0), |(q, x), t| {
            let e = t.stats.borrow().estimate(self.lookups);
            (q + e.probes, x + e.found)
        });
        (q / n, x / n)
    }

    pub(crate) fn finish_job(&mut self) -> Result<()> {
        if self.job.is_some() {
            self.run_job_to_end()?;
        }
        Ok(())
    }

    /// Advance merges by about `max_pages` output pages. Returns true while work remains.
    pub fn step(&mut self, max_pages: u64) -> Result<bool> {
        // A job picked here must not take tables a background merge is reading.
        self.drain_background()?;
        let more = self.step_once(max_pages)?;
        self.pace.pending = more;
        Ok(more)
    }

    fn step_once(&mut self, max_pages: u64) -> Result<bool> {
        if self.job.is_none() {
            // A frozen buffer whose flush failed to commit flushes again before any merge.
            if let Some(frozen) = self.immutable.clone() {
                self.job = Some(self.flush_job(frozen, true));
            } else if !self.start_job()? {
                return Ok(false);
            }
        }
        self.advance_job(max_pages.max(1))?;
        if self.job.is_some() {
            return Ok(true);
        }
        Ok(self.merge_due())
    }

    /// Whether the policy asks for a merge of the tree as it stands (no job in progress counted).
    pub(crate) fn merge_due(&self) -> bool {
        self.merge_due_level().is_some()
    }

    /// The source level (1-based) of the merge the policy asks for next, if any. Universal
    /// compaction merges sorted runs, not a level: its picks count as level 1's.
    pub(crate) fn merge_due_level(&self) -> Option<usize> {
        if self.config.compaction.universal.is_some() {
            return self.universal_pick().map(|_| 1);
        }
        match self.config.compaction.granularity {
            Granularity::Level => compaction::choose(&self.shape(), &self.config).map(|p| p.level),
            Granularity::File => {
                let runs_in_1 = self.levels.first().map_or(0, Vec::len);
                compaction::choose_file(&self.file_shapes(), runs_in_1, &self.cursors, &self.config).map(|p| p.level)
            }
        }
    }

    /// Run merges until every level is within its limits.
    pub fn maintain(&mut self) -> Result<()> {
        while self.step(u64::MAX)? {}
        Ok(())
    }

    /// Flush the buffer and merge the whole tree into a single run on the deepest level.
    pub fn compact_all(&mut self) -> Result<()> {
        self.drain_background()?;
        let auto = std::mem::replace(&mut self.auto_compact, false);
        let result = self.flush().and_then(|()| self.finish_job()).and_then(|()| self.merge_everything());
        self.auto_compact = auto;
        result
    }

    fn merge_everything(&mut self) -> Result<()> {
        let runs: Vec<Run> = self.levels.iter().flatten().cloned().collect();
        if runs.len() <= 1 {
            return Ok(());
        }
        // With dynamic level bytes or universal compaction the tree ends at its last level, where a full compaction puts
        // everything (as RocksDB's CompactRange does); otherwise at the deepest level holding data.
        let dest_level = if self.config.compaction.dynamic_level_bytes || self.config.compaction.universal.is_some() {
            self.levels.len().max(self.config.compaction.num_levels as usize)
        } else {
            self.levels.len()
        };
        let inputs: Vec<Rc<Table>> = runs.iter().flat_map(|r| r.tables.iter().cloned()).collect();
        let sources = runs.iter().map(|r| Source::Run(RunCursor::new(r.tables.clone(), None))).collect();
        let deep = FxHashSet::default();
        let inherit_inputs = self.snapshot_inputs(&inputs, &deep);
        let dest_run = self.allocate_id();
        self.job = Some(Job {
            source_level: dest_level,
            dest_level,
            inputs,
            inherit_inputs,
            dest_run,
            merge: Merge::new(sources, true, self.target_bytes()),
            outputs: Vec::new(),
            counters: WriteCounters::default(),
            cursor: None,
            flush: false,
        });
        self.run_job_to_end()
    }
}

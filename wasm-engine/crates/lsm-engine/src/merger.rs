//! The background merger's work: flushes and merges as plain-data `Task`s, run in bounded steps by
//! a state machine (`MergerCore`) over a storage handle of its own. The writer (`background`)
//! chooses every job and installs every result; the merger only reads the job's inputs and writes
//! its outputs (the writer makes them durable). Who drives the steps is `driver`'s business: a
//! thread of its own natively, or a caller (a seeded test scheduler) one step at a time — the same
//! code either way, so a failure found under a seeded interleaving replays from its seed.
//!
//! Why a task is plain data and the merger opens the input tables itself: the tree's tables are
//! `Rc` (lookups clone them on the hot path, and the browser build has one thread), and their
//! access statistics sit in a `RefCell` the writer updates on every probe. Sharing them with a
//! thread would put atomics and locks on every lookup. Instead a task names its inputs by id; the
//! merger opens them through its own handle (footer and block index, no filter), and hands back
//! its outputs whole, as the builder left them (`Handover`: a table that owns every block it
//! holds may cross threads), so the writer installs them without reading anything back. Inputs
//! are never deleted while a task reads them: the writer deletes them only after installing that
//! task.

use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::cursor::RunCursor;
use crate::filestats::{FileStats, InheritInput, inherit};
use crate::filter_budget;
use crate::memtable::Frozen;
use crate::merge::{Merge, MergeRules, Output, Progress, Source};
use crate::stats::{ReadCounters, WriteCounters};
use crate::storage::Storage;
use crate::table::{Handover, ReadCtx, Table, TableBuilder, TableCache};
use lsm_core::config::{EngineConfig, MetadataPins};
use lsm_core::error::{Error, Result};
use lsm_core::filter_budget::{Held, TreeView};

/// Output pages a merger step writes at most: small enough that a flush waiting behind a
/// merge's step waits little, large enough that the step's bookkeeping is noise.
pub(crate) const STEP_PAGES: u64 = 64;

/// One input of a task: a frozen buffer, or a run's tables by id, in key order.
pub(crate) enum SourceSpec {
    /// A buffer being flushed.
    Buffer(Frozen),
    /// A run's tables (those the job takes), in key order.
    Tables(Vec<u64>),
}

/// A flush or merge as the merger gets it: what to read, how to merge, how to size the new
/// filters. Everything in it is plain data, so it can be handed to another thread.
pub(crate) struct Task {
    /// The writer's number for the job, to match the result with it.
    pub number: u64,
    /// A flush (its outputs' filters and statistics start as level 1's do).
    pub flush: bool,
    /// Sources, newest first.
    pub sources: Vec<SourceSpec>,
    /// Tombstones and output cuts, as the writer's policy set them.
    pub rules: MergeRules,
    /// The design (table format, filters).
    pub config: Arc<EngineConfig>,
    /// The tree the new filters are sized against, as it stood when the job started.
    pub view: TreeView,
    /// Each input table's statistics when the job started, for inheritance.
    pub inherit: Vec<(u64, InheritInput)>,
    /// A flushed table's prior (probes, found) when it inherits none: level 1's average.
    pub prior: (f64, f64),
    /// The point-lookup count when the job started.
    pub lookups: u64,
    /// Where output ids come from (shared with the writer).
    pub ids: Arc<AtomicU64>,
}

/// An output table the merger wrote.
pub(crate) struct Sealed {
    /// Its id (file `table_file_name(id)`).
    pub id: u64,
    /// Inherited access statistics: probes and found.
    pub probes: f64,
    /// See `probes`.
    pub found: f64,
    /// Bits per key its filter was sized for.
    pub bits_per_key: f64,
    /// The table as built, its metadata pinned as the design pins it; `None` if it could not be
    /// handed over (the writer then opens the file).
    pub table: Option<Handover>,
}

/// A task done: its outputs, written but not yet synced (the writer syncs them before it names
/// them), and what it read and wrote.
pub(crate) struct Finished {
    /// Outputs in the order written (key order).
    pub outputs: Vec<Sealed>,
    /// Pages and bytes written.
    pub counters: WriteCounters,
    /// Input pages read and entries seen.
    pub merged: WriteCounters,
    /// Mnemosyne's `log C` from the last filter sized, if it sized one.
    pub log_c: Option<Option<f64>>,
}

/// What became of a task.
pub(crate) struct Outcome {
    /// The task's number.
    pub number: u64,
    /// Its outputs, or the failure that ended it (its outputs deleted, its inputs untouched).
    pub result: Result<Finished>,
}

/// A task being run: its inputs opened through the merger's storage.
struct Running {
    task: Task,
    merge: Merge,
    outputs: Vec<(Sealed, Held)>,
    counters: WriteCounters,
    log_c: Option<Option<f64>>,
    /// Every file it opened or wrote, to let go of once done.
    files: Vec<String>,
}

/// What a merger keeps: its storage handle and at most one flush and one merge. A step advances
/// the flush if there is one (a buffer must not wait for a long merge), else the merge.
pub(crate) struct MergerCore {
    storage: Box<dyn Storage>,
    flush: Option<Task>,
    merge: Option<Task>,
    running_flush: Option<Running>,
    running_merge: Option<Running>,
    finished: Vec<Outcome>,
}

impl MergerCore {
    /// A merger with nothing to do, on `storage`.
    pub(crate) fn new(storage: Box<dyn Storage>) -> Self {
        MergerCore { storage, flush: None, merge: None, running_flush: None, running_merge: None, finished: Vec::new() }
    }

    /// Take a task on. The writer gives at most one flush and one merge at a time.
    pub(crate) fn add(&mut self, task: Task) {
        if task.flush { self.flush = Some(task) } else { self.merge = Some(task) }
    }

    /// Whether it holds a task not yet done.
    pub(crate) fn busy(&self) -> bool {
        self.flush.is_some() || self.merge.is_some() || self.running_flush.is_some() || self.running_merge.is_some()
    }

    /// The tasks done (or failed) since the last call.
    pub(crate) fn take_finished(&mut self) -> Vec<Outcome> {
        std::mem::take(&mut self.finished)
    }

    /// One step: about `STEP_PAGES` output pages of the flush, or else of the merge. Returns
    /// whether it did anything.
    pub(crate) fn step(&mut self) -> bool {
        let flush = self.flush.is_some() || self.running_flush.is_some();
        let (waiting, running) =
            if flush { (&mut self.flush, &mut self.running_flush) } else { (&mut self.merge, &mut self.running_merge) };
        let storage = self.storage.as_mut();
        if running.is_none() {
            let Some(task) = waiting.take() else { return false };
            let number = task.number;
            match Running::open(task, storage) {
                Ok(r) => *running = Some(r),
                Err((e, files)) => {
                    let _ = release(storage, &files);
                    self.finished.push(Outcome { number, result: Err(e) });
                    return true;
                }
            }
        }
        let Some(run) = running.as_mut() else { return false };
        match run.step(storage) {
            Ok(false) => {}
            Ok(true) => {
                if let Some(run) = running.take() {
                    let number = run.task.number;
                    let result = run.finish(storage);
                    self.finished.push(Outcome { number, result });
                }
            }
            Err(e) => {
                if let Some(run) = running.take() {
                    for (s, _) in &run.outputs {
                        let _ = storage.delete(&crate::table::table_file_name(s.id));
                    }
                    let _ = release(storage, &run.files);
                    self.finished.push(Outcome { number: run.task.number, result: Err(e) });
                }
            }
        }
        true
    }
}

/// Let go of what the merger's handle keeps open for `files`, writing out what it buffered for
/// them; every file is let go of, and the first error is returned (on a failed task's way out it
/// is ignored: the task's own error is the one reported).
fn release(storage: &mut dyn Storage, files: &[String]) -> Result<()> {
    let mut first = Ok(());
    for f in files {
        let closed = storage.close(f);
        if first.is_ok() {
            first = closed;
        }
    }
    first
}

/// The merger opens inputs for sequential reading only: no filter, no pinned metadata.
const READ_ONLY: MetadataPins = MetadataPins { unpartitioned: false, top_level: false, partitions: false };

impl Running {
    /// Open the task's input tables and set up its merge.
    fn open(task: Task, storage: &mut dyn Storage) -> std::result::Result<Running, (Error, Vec<String>)> {
        let mut files = Vec::new();
        let mut sources = Vec::with_capacity(task.sources.len());
        let mut opened = ReadCounters::default();
        for spec in &task.sources {
            match spec {
                SourceSpec::Buffer(frozen) => sources.push(Source::buffer(frozen.clone())),
                SourceSpec::Tables(ids) => {
                    let mut tables = Vec::with_capacity(ids.len());
                    for &id in ids {
                        files.push(crate::table::table_file_name(id));
                        match Table::open(id, storage, READ_ONLY, &mut opened) {
                            Ok(t) => tables.push(Rc::new(t)),
                            Err(e) => return Err((e, files)),
                        }
                    }
                    sources.push(Source::Run(RunCursor::new(tables, None)));
                }
            }
        }
        let merge = Merge::with_rules(sources, task.rules.clone());
        Ok(Running { task, merge, outputs: Vec::new(), counters: WriteCounters::default(), log_c: None, files })
    }

    /// About `STEP_PAGES` output pages; returns whether the merge is done (its last output sealed).
    fn step(&mut self, storage: &mut dyn Storage) -> Result<bool> {
        if !self.merge.has_output() {
            let id = self.task.ids.fetch_add(1, Ordering::Relaxed);
            self.merge.start_output(TableBuilder::for_config(id, &self.task.config));
        }
        let mut reads = ReadCounters::default();
        let mut no_cache = TableCache::new(0, 0.0);
        let mut ctx = ReadCtx { storage: &mut *storage, cache: &mut no_cache, counters: &mut reads };
        let progress = self.merge.step(&mut ctx, STEP_PAGES)?;
        if progress != Progress::Working {
            self.seal(storage)?;
        }
        Ok(progress == Progress::Done)
    }

    /// Finish the current output: inherit statistics, size its filter against the task's view
    /// of the tree and the outputs so far, write it (the writer syncs it).
    fn seal(&mut self, storage: &mut dyn Storage) -> Result<()> {
        let Some(Output { builder, contributions }) = self.merge.take_output() else { return Ok(()) };
        let id = builder.id();
        let entries = builder.entries();
        if entries == 0 {
            return Ok(());
        }
        let task = &self.task;
        let inputs: Vec<InheritInput> = task.inherit.iter().map(|(_, i)| *i).collect();
        let contributed: Vec<u64> = task
            .inherit
            .iter()
            .map(|(tid, _)| contributions.iter().find(|(c, _)| c == tid).map_or(0, |(_, n)| *n))
            .collect();
        let (mut probes, mut found) = inherit(&inputs, &contributed);
        if task.flush && probes == 0.0 {
            (probes, found) = task.prior;
        }
        let held: Vec<Held> = self.outputs.iter().map(|(_, h)| *h).collect();
        let empty = (probes - found).max(0.0);
        let (spec, log_c) =
            filter_budget::filter_spec(&task.config, &task.view, &held, entries, builder.entry_bytes(), empty);
        if log_c.is_some() {
            self.log_c = log_c;
        }
        let Some(mut table) = builder.finish(id, spec, storage, &mut self.counters)? else { return Ok(()) };
        self.files.push(table.file.clone());
        table.apply_pins(task.config.block_cache.metadata_pins(task.flush));
        let estimate = FileStats::new(task.lookups, probes, found).estimate(task.lookups);
        let weight = Held {
            filter_bits: table.filter_bits() as f64,
            entries: table.entries as f64,
            entry_bytes: table.entry_bytes,
            empty_probes: estimate.empty,
        };
        let table = Handover::new(table).ok();
        self.outputs.push((Sealed { id, probes, found, bits_per_key: spec.bits_per_key, table }, weight));
        Ok(())
    }

    /// Let go of the files (every output's bytes written out) and hand the result over. The
    /// outputs are not synced here: the writer syncs them on its own handle, ordered before the
    /// manifest record that names them, so neither the merger nor a writer waiting for this
    /// flush waits for the disk (a flush's `fdatasync` took up to 100 ms behind a merge's
    /// writeback, measured at 10M entries, and the writer's buffer waited for it).
    fn finish(self, storage: &mut dyn Storage) -> Result<Finished> {
        if let Err(e) = release(storage, &self.files) {
            for (s, _) in &self.outputs {
                let _ = storage.delete(&crate::table::table_file_name(s.id));
            }
            return Err(e);
        }
        Ok(Finished {
            outputs: self.outputs.into_iter().map(|(s, _)| s).collect(),
            counters: self.counters,
            merged: self.merge.counters,
            log_c: self.log_c,
        })
    }
}

//! Universal compaction executed: the tree's sorted runs handed to RocksDB 7.8's picker
//! (`lsm_core::universal::pick`), and what it picks turned into a merge (or, with
//! `allow_trivial_move`, a move) that runs, commits and counts like every other.

use std::rc::Rc;

use rustc_hash::FxHashSet;

use crate::cursor::RunCursor;
use crate::engine::Engine;
use crate::job::Job;
use crate::merge::{Merge, Source};
use crate::run::Run;
use crate::stats::WriteCounters;
use crate::table::Table;
use lsm_core::compaction::FilePlan;
use lsm_core::universal::{self, SortedRun, UniversalPick};

/// What the picker chose, with the runs it chose among.
pub(crate) struct Picked {
    pick: UniversalPick,
    /// The picked runs, newest first.
    runs: Vec<Run>,
    /// Runs in the tree when it picked.
    run_count: usize,
}

/// What starting a universal merge gave.
pub(crate) enum Start {
    /// A merge to run in steps.
    Merge(Box<Job>),
    /// Files to move to a level as they are (`allow_trivial_move`).
    Move(FilePlan),
}

impl Engine {
    /// The tree's sorted runs, newest first, with their levels: level 1's runs (each one L0
    /// file), then each deeper level's run.
    fn sorted_runs(&self) -> Vec<(usize, &Run)> {
        self.levels.iter().enumerate().flat_map(|(i, runs)| runs.iter().map(move |r| (i + 1, r))).collect()
    }

    /// The merge universal compaction asks for now, if it is configured and asks for one.
    pub(crate) fn universal_pick(&self) -> Option<Picked> {
        let options = self.config.compaction.universal.as_ref()?;
        let runs = self.sorted_runs();
        // RocksDB compares file sizes: what is on disk, filters and index included.
        let sizes: Vec<SortedRun> = runs
            .iter()
            .map(|(level, run)| SortedRun { level: *level, bytes: run.tables.iter().map(|t| t.file_bytes).sum() })
            .collect();
        let pick = universal::pick(&sizes, options, self.config.compaction.num_levels as usize)?;
        Some(Picked {
            pick,
            runs: runs[pick.first..=pick.last].iter().map(|(_, r)| (*r).clone()).collect(),
            run_count: runs.len(),
        })
    }

    /// The merge (or move) for `picked`.
    pub(crate) fn universal_start(&mut self, picked: Picked) -> Start {
        let Picked { pick, runs, run_count } = picked;
        let inputs: Vec<Rc<Table>> = runs.iter().flat_map(|r| r.tables.iter().cloned()).collect();
        let start_level = self.levels.iter().position(|l| l.iter().any(|r| r.id == runs[0].id)).map_or(1, |i| i + 1);
        if let Some(options) = &self.config.compaction.universal {
            let ranges: Vec<(&[u8], &[u8])> = inputs.iter().map(|t| (t.min_key(), t.max_key())).collect();
            let level1: Vec<(&[u8], &[u8])> = self
                .levels
                .first()
                .into_iter()
                .flatten()
                .flat_map(|r| r.tables.iter().map(|t| (t.min_key(), t.max_key())))
                .collect();
            if universal::is_trivial_move(options, start_level, pick.output_level, &ranges, &level1) {
                return Start::Move(FilePlan {
                    level: start_level,
                    into: pick.output_level,
                    tables: inputs.iter().map(|t| t.id).collect(),
                    overlapping: Vec::new(),
                    cursor: None,
                    trivial_move: true,
                });
            }
        }
        // Newest run first: on equal keys the newest version wins.
        let sources = runs.iter().map(|r| Source::Run(RunCursor::new(r.tables.clone(), None))).collect();
        // The oldest input holds the deeper data, for the inheritance of access statistics.
        let deep: FxHashSet<u64> = runs.last().into_iter().flat_map(|r| r.tables.iter().map(|t| t.id)).collect();
        let inherit_inputs = self.snapshot_inputs(&inputs, &deep);
        // An L0 output is one file and takes the newest input's place among L0's runs (runs are
        // ordered by id), behind any newer flush it did not merge. Deeper outputs are one run of
        // the level, cut into files of the target size.
        let (dest_run, target) =
            if pick.output_level == 1 { (runs[0].id, u64::MAX) } else { (self.allocate_id(), self.target_bytes()) };
        Start::Merge(Box::new(Job {
            source_level: start_level,
            dest_level: pick.output_level,
            inputs,
            inherit_inputs,
            dest_run,
            merge: Merge::new(sources, pick.includes_oldest(run_count), target),
            outputs: Vec::new(),
            counters: WriteCounters::default(),
            cursor: None,
            flush: false,
        }))
    }
}

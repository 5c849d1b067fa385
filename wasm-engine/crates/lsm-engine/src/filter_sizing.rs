//! The engine's side of filter sizing: the view of the tree a job's new tables are sized against
//! (`filter_budget::TreeView`), and the filter a table sealed on the writer's thread gets.

use rustc_hash::FxHashSet;

use crate::engine::Engine;
use crate::filter::FilterSpec;
use crate::filter_budget;
use crate::job::Job;
use crate::run::Run;
use crate::table::Table;
use lsm_core::filter_budget::{Held, TreeView};

impl Engine {
    /// The filter a new table of `entries` gets (z: its estimated empty probes, for Mnemosyne).
    pub(crate) fn filter_spec(&mut self, job: &Job, entries: u64, entry_bytes: u64, empty_probes: f64) -> FilterSpec {
        let view = self.tree_view(job);
        let outputs: Vec<Held> = job.outputs.iter().map(|t| self.held(t)).collect();
        let (spec, log_c) =
            filter_budget::filter_spec(&self.config, &view, &outputs, entries, entry_bytes, empty_probes);
        if let Some(c) = log_c {
            self.mnemosyne_log_c = c;
        }
        spec
    }

    /// A table's weight in the filter budget now.
    pub(crate) fn held(&self, t: &Table) -> Held {
        Held {
            filter_bits: t.filter_bits() as f64,
            entries: t.entries as f64,
            entry_bytes: t.entry_bytes,
            empty_probes: t.stats.borrow().estimate(self.lookups).empty,
        }
    }

    /// The tree `job`'s tables are sized against: every table but its inputs (and its outputs).
    pub(crate) fn tree_view(&self, job: &Job) -> TreeView {
        let consumed: FxHashSet<u64> = job.inputs.iter().map(|t| t.id).collect();
        let staying = self
            .levels
            .iter()
            .flatten()
            .flat_map(|r| r.tables.iter())
            .filter(|t| !consumed.contains(&t.id))
            .map(|t| self.held(t))
            .collect();
        let live =
            |run: &Run| -> u64 { run.tables.iter().filter(|t| !consumed.contains(&t.id)).map(|t| t.entry_bytes).sum() };
        let deepest = self.levels.iter().rposition(|l| l.iter().any(|r| live(r) > 0)).map_or(0, |i| i + 1);
        let deepest = deepest.max(job.dest_level);
        let mut dest_live_bytes = 0;
        let mut others = Vec::new();
        for run in self.levels.get(deepest - 1).into_iter().flatten() {
            if deepest == job.dest_level && run.id == job.dest_run {
                dest_live_bytes += live(run);
            } else if live(run) > 0 {
                others.push(live(run) as f64);
            }
        }
        TreeView { dest_level: job.dest_level, flush: job.flush, staying, deepest, dest_live_bytes, others }
    }
}

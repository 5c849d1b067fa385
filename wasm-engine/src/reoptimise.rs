//! Monkey re-optimised: filters that stay optimal as the tree grows.
//!
//! Sized once at birth, a filter keeps the bits it got for the tree of that moment: a last-level
//! run born while the levels above were empty holds no more bits per key than the small runs that
//! come after it, although it holds most of the entries (leveling, T = 2, 5 bits/key, 2²⁰ entries:
//! 0.32 I/O per zero-result lookup at birth against 0.26 for the optimum over the same runs).
//! Here, whenever runs come or go, the policy solves Monkey's allocation over the runs that exist
//! (`allocation::optimal_fprs`, the models' exact allocator) with the whole budget
//! `bits_per_key × entries`, and brings the filters toward it:
//! - a modular filter that should shrink drops trailing modules (no I/O);
//! - a filter is rebuilt from its run's keys (a sequential read of the run, counted) when the I/O
//!   it is expected to save before its run next changes is at least `rebuild_payback` times the
//!   pages it reads — unless the filters exceed the budget, which forces the rebuild.
//!
//! `plan` is the pure decision; `Engine::reoptimise_filters` applies it.

use std::rc::Rc;

use crate::allocation::{RunWeight, bits_per_key_for_fpr, optimal_fprs};
use crate::bloom::FILTER_SEED;
use crate::compaction;
use crate::config::{Allocation, MonkeyPolicy};
use crate::cursor::TableCursor;
use crate::engine::Engine;
use crate::error::Result;
use crate::filter::{Filter, FilterSpec};
use crate::hash::hash64;
use crate::run::Run;
use crate::stats::ReadCounters;
use crate::table::{ReadCtx, Table};

/// A run's filter within this many bits per key of its target is left alone: closer than that,
/// a rebuild changes its false-positive rate by less than 5%.
pub const TOLERANCE_BITS_PER_KEY: f64 = 0.1;

/// How often, in point lookups, a pending re-optimisation is reconsidered.
pub const CHECK_EVERY_LOOKUPS: u64 = 64;

/// A run's filter as the planner sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct RunFilter {
    pub entries: f64,
    /// Filter bits per module (summed over the run's tables), in probe order.
    pub module_bits: Vec<f64>,
    /// Each module's false-positive rate (entry-weighted over the run's tables).
    pub module_fprs: Vec<f64>,
    /// Data pages a rebuild reads.
    pub pages: f64,
    /// Zero-result probes the run is expected to see before it next changes.
    pub expected_probes: f64,
}

impl RunFilter {
    pub fn bits(&self) -> f64 {
        self.module_bits.iter().sum()
    }

    pub fn fpr(&self) -> f64 {
        self.module_fprs.iter().product()
    }
}

/// What to do with one run's filter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Resize {
    Keep,
    /// Keep only the first `modules` modules.
    DropTo {
        modules: usize,
    },
    Rebuild {
        bits_per_key: f64,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub actions: Vec<Resize>,
    /// Every filter is at its target (or as close as it will get): nothing to reconsider until
    /// the runs change again.
    pub settled: bool,
}

/// Bits each run should hold: Monkey's optimum for zero-result lookups over these runs.
fn target_bits(runs: &[(f64, usize)], budget_bits: f64) -> Vec<f64> {
    let weights: Vec<RunWeight> = runs.iter().map(|&(entries, _)| RunWeight { entries, weight: 1.0 }).collect();
    optimal_fprs(&weights, budget_bits).iter().zip(runs).map(|(&p, &(n, _))| n * bits_per_key_for_fpr(p)).collect()
}

/// Decide how to bring `runs`' filters toward Monkey's optimum under `budget_bits`.
pub fn plan(runs: &[RunFilter], budget_bits: f64, payback: f64) -> Plan {
    let mut actions = vec![Resize::Keep; runs.len()];
    let indexed: Vec<(f64, usize)> = runs.iter().enumerate().map(|(i, r)| (r.entries, i)).collect();
    let targets = target_bits(&indexed, budget_bits);
    let off = |i: usize, bits: f64| (bits - targets[i]).abs() > TOLERANCE_BITS_PER_KEY * runs[i].entries;
    let mut bits: Vec<f64> = runs.iter().map(RunFilter::bits).collect();
    let mut fprs: Vec<f64> = runs.iter().map(RunFilter::fpr).collect();

    // Free shrinks first: drop the trailing modules a filter no longer pays for.
    for (i, r) in runs.iter().enumerate() {
        if !off(i, bits[i]) || bits[i] < targets[i] || r.module_bits.len() < 2 {
            continue;
        }
        let mut kept = r.module_bits.len();
        while kept > 0 && r.module_bits[..kept].iter().sum::<f64>() > targets[i] + 1e-9 {
            kept -= 1;
        }
        if kept < r.module_bits.len() {
            actions[i] = Resize::DropTo { modules: kept };
            bits[i] = r.module_bits[..kept].iter().sum();
            fprs[i] = r.module_fprs[..kept].iter().product();
        }
    }

    let pending: Vec<usize> =
        (0..runs.len()).filter(|&i| actions[i] == Resize::Keep && off(i, bits[i]) && runs[i].entries > 0.0).collect();
    if pending.is_empty() {
        return Plan { actions, settled: true };
    }
    let target_fpr = |i: usize| (-(targets[i] / runs[i].entries) * crate::allocation::LN2_SQ).exp();
    let gain = |i: usize| (fprs[i] - target_fpr(i)) * runs[i].expected_probes;
    let over_budget = bits.iter().sum::<f64>() > budget_bits * (1.0 + 1e-6) + 64.0 * runs.len() as f64;
    // A joint move pays over the longest-lived run's horizon: the bits a shrink frees keep paying
    // after the small runs change, because new runs are sized against the tree that exists.
    let horizon = pending.iter().map(|&i| runs[i].expected_probes).fold(0.0, f64::max);
    let total_gain: f64 = pending.iter().map(|&i| fprs[i] - target_fpr(i)).sum::<f64>() * horizon;
    let total_pages: f64 = pending.iter().map(|&i| runs[i].pages).sum();

    let rebuild: Vec<usize> = if over_budget || total_gain >= payback * total_pages {
        pending.clone()
    } else {
        // Not worth moving everything yet: grow the filters that pay for themselves out of the
        // budget the others leave unspent, best return first.
        let mut slack = budget_bits - bits.iter().sum::<f64>();
        let mut growers: Vec<usize> =
            pending.iter().copied().filter(|&i| targets[i] > bits[i] && gain(i) >= payback * runs[i].pages).collect();
        growers.sort_by(|&a, &b| (gain(b) / runs[b].pages.max(1.0)).total_cmp(&(gain(a) / runs[a].pages.max(1.0))));
        growers
            .into_iter()
            .filter(|&i| {
                let need = targets[i] - bits[i];
                let fits = need <= slack;
                if fits {
                    slack -= need;
                }
                fits
            })
            .collect()
    };
    if rebuild.is_empty() {
        return Plan { actions, settled: false };
    }
    // The rebuilt filters share what the others leave, optimally among themselves.
    let fixed: f64 = (0..runs.len()).filter(|i| !rebuild.contains(i)).map(|i| bits[i]).sum();
    let chosen: Vec<(f64, usize)> = rebuild.iter().map(|&i| (runs[i].entries, i)).collect();
    let shares = target_bits(&chosen, (budget_bits - fixed).max(0.0));
    for (&(entries, i), share) in chosen.iter().zip(shares) {
        actions[i] = Resize::Rebuild { bits_per_key: share / entries };
    }
    Plan { actions, settled: rebuild.len() == pending.len() }
}

/// Filter rebuilds and module drops at one level (re-optimised Monkey).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ResizeCounters {
    /// Tables whose filter was rebuilt from their keys.
    pub rebuilds: u64,
    /// Data pages those rebuilds read: the price of the policy.
    pub pages_read: u64,
    /// Tables whose filter dropped modules.
    pub shrinks: u64,
}

impl ResizeCounters {
    pub fn add(&mut self, o: &ResizeCounters) {
        self.rebuilds += o.rebuilds;
        self.pages_read += o.pages_read;
        self.shrinks += o.shrinks;
    }
}

impl Engine {
    fn reoptimising(&self) -> bool {
        self.config.filter.allocation == Allocation::Monkey
            && self.config.filter.monkey_policy == MonkeyPolicy::Reoptimised
    }

    /// The runs changed: filters may no longer be optimal.
    pub(crate) fn mark_filters_stale(&mut self) {
        if self.reoptimising() {
            self.filters.stale = true;
            self.filters.lookups_at_change = self.lookups;
            self.filters.bytes_at_change = self.stats.user_bytes_written;
        }
    }

    /// Called before each point lookup: reconsider stale filters every `CHECK_EVERY_LOOKUPS`.
    pub(crate) fn maybe_reoptimise_filters(&mut self) -> Result<()> {
        if !self.filters.stale || self.job.is_some() {
            return Ok(());
        }
        let since = self.lookups - self.filters.lookups_at_change;
        if since % CHECK_EVERY_LOOKUPS != 1 && CHECK_EVERY_LOOKUPS > 1 {
            return Ok(());
        }
        self.reoptimise_filters()
    }

    /// Entry bytes that must arrive before a run at `level` changes: what fits in the buffer and
    /// the levels above before they spill into it.
    fn bytes_until_change(&self, level: usize) -> f64 {
        let mut free = (self.config.buffer_bytes.saturating_sub(self.memtable.bytes())) as f64;
        for (i, runs) in self.levels.iter().enumerate().take(level - 1) {
            let g = compaction::geometry(&self.config, i + 1);
            let capacity = if g.capacity.is_finite() { g.capacity } else { g.unit * f64::from(g.max_runs) };
            let held: u64 = runs.iter().map(|r| r.entry_bytes()).sum();
            free += (capacity - held as f64).max(0.0);
        }
        free.max(1.0)
    }

    /// Plan and apply: drop modules, rebuild filters from their runs' keys.
    pub fn reoptimise_filters(&mut self) -> Result<()> {
        let lookups = (self.lookups - self.filters.lookups_at_change).max(1) as f64;
        let written = (self.stats.user_bytes_written - self.filters.bytes_at_change) as f64;
        let entries: u64 = self.levels.iter().flatten().map(Run::entries).sum();
        let bytes: u64 = self.levels.iter().flatten().map(Run::entry_bytes).sum();
        let entry_bytes = if entries == 0 { 1.0 } else { bytes as f64 / entries as f64 };
        // Lookups per entry byte written, measured since the runs last changed; with no writes
        // since then, as if the next entry were about to arrive.
        let rate = lookups / written.max(entry_bytes);
        let mut places = Vec::new();
        let mut runs = Vec::new();
        for (li, level) in self.levels.iter().enumerate() {
            let probes = rate * self.bytes_until_change(li + 1);
            for (ri, run) in level.iter().enumerate() {
                places.push((li, ri));
                runs.push(run_filter(&run.tables, probes));
            }
        }
        let budget = self.config.filter.bits_per_key * entries as f64;
        let plan = plan(&runs, budget, self.config.filter.rebuild_payback);
        // Shrinks before rebuilds, so the budget holds at every step.
        let mut order: Vec<usize> = (0..plan.actions.len()).collect();
        order.sort_by_key(|&i| !matches!(plan.actions[i], Resize::DropTo { .. }));
        for i in order {
            let (li, ri) = places[i];
            match plan.actions[i] {
                Resize::Keep => {}
                Resize::DropTo { modules } => self.drop_modules(li, ri, modules),
                Resize::Rebuild { bits_per_key } => self.rebuild_filters(li, ri, bits_per_key)?,
            }
        }
        self.filters.stale = !plan.settled;
        Ok(())
    }

    fn drop_modules(&mut self, li: usize, ri: usize, modules: usize) {
        let run = &mut self.levels[li][ri];
        let mut shrinks = 0;
        for t in &mut run.tables {
            let Some(pinned) = t.pinned_modules() else { continue };
            if pinned.len() <= modules {
                continue;
            }
            let kept = Filter::from_modules(pinned[..modules].iter().map(|m| (**m).clone()).collect());
            *t = Rc::new(t.with_filter(&kept, 0));
            shrinks += 1;
        }
        self.stats.level(li + 1).filter_resizing.shrinks += shrinks;
    }

    fn rebuild_filters(&mut self, li: usize, ri: usize, bits_per_key: f64) -> Result<()> {
        let modules =
            if self.config.filter.kind == crate::config::FilterKind::Modular { self.config.filter.modules } else { 1 };
        let spec = FilterSpec { bits_per_key: bits_per_key.clamp(0.0, crate::config::BITS_PER_KEY_RANGE.1), modules };
        let tables = self.levels[li][ri].tables.clone();
        let mut rebuilt = Vec::with_capacity(tables.len());
        let mut pages = 0;
        for t in tables {
            let mut counters = ReadCounters::default();
            let mut hashes = Vec::with_capacity(t.entries as usize);
            {
                let mut ctx =
                    ReadCtx { storage: self.storage.as_mut(), cache: &mut self.cache, counters: &mut counters };
                let mut cursor = TableCursor::new(t.clone(), None, &mut ctx)?;
                while cursor.advance(&mut ctx)? {
                    hashes.push(hash64(cursor.key(), FILTER_SEED));
                }
            }
            let read = counters.data_pages_read;
            pages += read;
            rebuilt.push(Rc::new(t.with_filter(&Filter::build(&hashes, spec), read)));
        }
        let counters = &mut self.stats.level(li + 1).filter_resizing;
        counters.rebuilds += rebuilt.len() as u64;
        counters.pages_read += pages;
        self.levels[li][ri].tables = rebuilt;
        Ok(())
    }
}

/// A run's filters summed over its tables.
fn run_filter(tables: &[Rc<Table>], expected_probes: f64) -> RunFilter {
    let modules = tables.iter().map(|t| t.modules().len()).max().unwrap_or(0);
    let entries: f64 = tables.iter().map(|t| t.entries as f64).sum();
    let mut module_bits = vec![0.0; modules];
    let mut module_fprs = vec![0.0; modules];
    for t in tables {
        let share = if entries > 0.0 { t.entries as f64 / entries } else { 0.0 };
        for d in 0..modules {
            module_bits[d] += t.modules().get(d).map_or(0.0, |m| m.bits as f64);
            module_fprs[d] += share * t.module_fprs().get(d).copied().unwrap_or(1.0);
        }
    }
    RunFilter {
        entries,
        module_bits,
        module_fprs,
        pages: tables.iter().map(|t| t.data_pages as f64).sum(),
        expected_probes,
    }
}

/// The re-optimisation state the engine keeps between lookups.
#[derive(Clone, Copy, Debug, Default)]
pub struct FilterState {
    pub stale: bool,
    pub lookups_at_change: u64,
    pub bytes_at_change: u64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::allocation::LN2_SQ;

    fn run(entries: f64, bits_per_key: f64, modules: usize, probes: f64) -> RunFilter {
        let per = entries * bits_per_key / modules as f64;
        let fpr = (-(bits_per_key / modules as f64) * LN2_SQ).exp();
        RunFilter {
            entries,
            module_bits: vec![per; modules],
            module_fprs: vec![fpr; modules],
            pages: entries / 35.0,
            expected_probes: probes,
        }
    }

    /// The tree of the issue: leveling, T = 2, 5 bits/key, 2²⁰ entries in four runs, each
    /// sized at birth (the two largest with 4.35 bits/key).
    fn grown_tree(probes: f64) -> Vec<RunFilter> {
        vec![
            run(36_156.0, 6.9, 1, probes),
            run(144_624.0, 6.0, 1, probes),
            run(289_248.0, 4.35, 1, probes),
            run(578_496.0, 4.35, 1, probes),
        ]
    }

    fn cost_after(runs: &[RunFilter], plan: &Plan) -> (f64, f64) {
        let mut io = 0.0;
        let mut bits = 0.0;
        for (r, a) in runs.iter().zip(&plan.actions) {
            let (b, p) = match *a {
                Resize::Keep => (r.bits(), r.fpr()),
                Resize::DropTo { modules } => {
                    (r.module_bits[..modules].iter().sum(), r.module_fprs[..modules].iter().product())
                }
                Resize::Rebuild { bits_per_key } => (bits_per_key * r.entries, (-bits_per_key * LN2_SQ).exp()),
            };
            io += p;
            bits += b;
        }
        (io, bits)
    }

    #[test]
    fn many_lookups_bring_every_filter_to_the_optimum_within_the_budget() {
        let runs = grown_tree(1e9);
        let budget = 5.0 * runs.iter().map(|r| r.entries).sum::<f64>();
        let p = plan(&runs, budget, 1.0);
        assert!(p.settled);
        let (io, bits) = cost_after(&runs, &p);
        // The optimum over these four runs (FPR proportional to run size): 0.2646.
        assert!((io - 0.2646).abs() < 0.001, "{io}");
        assert!(bits <= budget * (1.0 + 1e-9), "{bits} > {budget}");
        // Monkey: the false-positive rate proportional to run size, so the smallest run holds the
        // most bits per key.
        let Resize::Rebuild { bits_per_key: last } = p.actions[3] else { panic!("{:?}", p.actions) };
        let Resize::Rebuild { bits_per_key: first } = p.actions[0] else { panic!("{:?}", p.actions) };
        assert!(first > 9.0 && last < 4.1, "{first} {last}");
    }

    #[test]
    fn few_lookups_do_not_pay_for_a_rebuild() {
        let runs = grown_tree(10.0);
        let budget = 5.0 * runs.iter().map(|r| r.entries).sum::<f64>();
        let p = plan(&runs, budget, 1.0);
        assert_eq!(p.actions, vec![Resize::Keep; 4]);
        assert!(!p.settled, "still worth reconsidering as lookups come");
        // Payback 0 rebuilds regardless.
        assert!(plan(&runs, budget, 0.0).actions.iter().all(|a| matches!(a, Resize::Rebuild { .. })));
    }

    #[test]
    fn filters_at_the_optimum_are_left_alone() {
        let entries = [1e3, 2e3, 4e3];
        let budget = 8.0 * 7e3;
        let w: Vec<RunWeight> = entries.iter().map(|&e| RunWeight { entries: e, weight: 1.0 }).collect();
        let runs: Vec<RunFilter> = optimal_fprs(&w, budget)
            .iter()
            .zip(entries)
            .map(|(&p, e)| run(e, bits_per_key_for_fpr(p), 1, 1e9))
            .collect();
        let p = plan(&runs, budget, 1.0);
        assert_eq!(p, Plan { actions: vec![Resize::Keep; 3], settled: true });
    }

    #[test]
    fn a_modular_filter_shrinks_by_dropping_modules_without_io() {
        // Two runs: a small one holding far more than its share, in 4 modules.
        let runs = vec![run(1e3, 16.0, 4, 0.0), run(1e5, 4.0, 1, 0.0)];
        let budget = 5.0 * 101e3;
        let p = plan(&runs, budget, 1.0);
        let Resize::DropTo { modules } = p.actions[0] else { panic!("{:?}", p.actions) };
        assert!(modules < 4);
        // No lookups expected: the large run is not rebuilt.
        assert_eq!(p.actions[1], Resize::Keep);
    }

    #[test]
    fn over_budget_forces_the_rebuild() {
        let runs = vec![run(1e4, 10.0, 1, 0.0), run(1e5, 10.0, 1, 0.0)];
        let budget = 5.0 * 11e4;
        let p = plan(&runs, budget, 1.0);
        let (_, bits) = cost_after(&runs, &p);
        assert!(bits <= budget * (1.0 + 1e-9), "{bits} > {budget}");
        assert!(p.settled);
    }
}

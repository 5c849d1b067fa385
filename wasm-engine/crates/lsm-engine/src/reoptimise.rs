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
//!   it is expected to save before the tree next changes (the next flush) is at least
//!   `rebuild_payback` times the pages it reads — unless the filters exceed the budget, which
//!   forces the rebuild.
//!
//! "Before the next flush", not "before the run dies": every flush moves the optimum of every run
//! a little, and over a merge cycle the upper levels fill and empty, so the optimum for a deep run
//! rises and falls. Credited with its whole lifetime, a deep run's rebuild looked worth it after
//! every flush of a 40%-write workload and the policy chased the sawtooth (32K pages of rebuilds to
//! save 1.9K lookup I/Os over 100K operations). The lookups expected before the next flush come
//! from the recent operation mix (an exponential average over about `MIX_MEMORY` operations): in a
//! read-only phase they are unbounded and the filters follow the tree at once; under a steady
//! write stream only rebuilds that pay within one buffer's worth of writes are done.
//!
//! `plan` is the pure decision; `Engine::reoptimise_filters` applies it.

use std::rc::Rc;

use crate::cursor::TableCursor;
use crate::engine::Engine;
use crate::filter::{Filter, FilterSpec};
use crate::run::Run;
use crate::stats::ReadCounters;
use crate::table::{ReadCtx, Table};
use lsm_core::allocation::{RunWeight, bits_per_key_for_fpr, optimal_fprs};
use lsm_core::bloom::{FILTER_SEED, fpr_at_bits_per_key};
use lsm_core::config::{Allocation, MonkeyPolicy};
use lsm_core::error::Result;
use lsm_core::hash::hash64;

/// A run's filter within this many bits per key of its target is left alone: closer than that,
/// a rebuild changes its false-positive rate by less than 2%.
pub(crate) const TOLERANCE_BITS_PER_KEY: f64 = 0.04;

/// How often, in point lookups, a pending re-optimisation is reconsidered.
pub(crate) const CHECK_EVERY_LOOKUPS: u64 = 64;

/// From this share of writes in the recent mix up, the next flush's run gets its whole reserve.
pub(crate) const RESERVE_WRITE_SHARE: f64 = 0.01;

/// Operations the recent-mix estimate remembers (the weight of one operation is 1/`MIX_MEMORY`).
pub(crate) const MIX_MEMORY: f64 = 256.0;

/// A run's filter as the planner sees it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RunFilter {
    pub entries: f64,
    /// Filter bits per module (summed over the run's tables), in probe order.
    pub module_bits: Vec<f64>,
    /// Each module's false-positive rate (entry-weighted over the run's tables).
    pub module_fprs: Vec<f64>,
    /// Data pages a rebuild reads.
    pub pages: f64,
}

impl RunFilter {
    pub(crate) fn bits(&self) -> f64 {
        self.module_bits.iter().sum()
    }

    pub(crate) fn fpr(&self) -> f64 {
        self.module_fprs.iter().product()
    }
}

/// What to do with one run's filter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Resize {
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
pub(crate) struct Plan {
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

/// A run about to be born (the buffer's next flush): its entries and the budget it brings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Reserve {
    pub entries: f64,
    pub bits: f64,
}

/// Decide how to bring `runs`' filters toward Monkey's optimum under `budget_bits`, when
/// `horizon` lookups are expected before the tree next changes. With `reserve`, the optimum
/// counts the run the next flush brings, and the bits it will need beyond its own share stay
/// unspent: spent on the runs of the moment, they would leave the new run to be born starved.
pub(crate) fn plan(runs: &[RunFilter], budget_bits: f64, reserve: Option<Reserve>, horizon: f64, payback: f64) -> Plan {
    let mut actions = vec![Resize::Keep; runs.len()];
    let mut indexed: Vec<(f64, usize)> = runs.iter().enumerate().map(|(i, r)| (r.entries, i)).collect();
    let mut all_bits = budget_bits;
    if let Some(r) = reserve {
        indexed.push((r.entries, runs.len()));
        all_bits += r.bits;
    }
    let all_targets = target_bits(&indexed, all_bits);
    let targets = &all_targets[..runs.len()];
    let held_back = reserve.map_or(0.0, |r| (all_targets[runs.len()] - r.bits).max(0.0));
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
    // What a rebuild to the target will measure (integer hash count), like the current rates.
    let target_fpr = |i: usize| fpr_at_bits_per_key(targets[i] / runs[i].entries);
    let gain = |i: usize| (fprs[i] - target_fpr(i)) * horizon;
    let over_budget = bits.iter().sum::<f64>() > budget_bits * (1.0 + 1e-6) + 64.0 * runs.len() as f64;
    let total_gain: f64 = pending.iter().map(|&i| gain(i)).sum();
    let total_pages: f64 = pending.iter().map(|&i| runs[i].pages).sum();

    let rebuild: Vec<usize> = if over_budget || total_gain >= payback * total_pages {
        pending.clone()
    } else {
        // Not worth moving everything yet: grow the filters that pay for themselves out of the
        // budget the others leave unspent, best return first.
        let mut slack = budget_bits - held_back - bits.iter().sum::<f64>();
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
    // Each rebuilt filter gets its target. The filters left alone are within the tolerance of
    // theirs, so the tree holds its budget to within that tolerance.
    for &i in &rebuild {
        actions[i] = Resize::Rebuild { bits_per_key: targets[i] / runs[i].entries };
    }
    Plan { actions, settled: rebuild.len() == pending.len() }
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
        }
    }

    /// Count a write in the recent operation mix.
    #[inline]
    pub(crate) fn note_write(&mut self) {
        self.filters.write_share += (1.0 - self.filters.write_share) / MIX_MEMORY;
    }

    /// Called before each point lookup: count it in the recent mix, and reconsider stale
    /// filters every `CHECK_EVERY_LOOKUPS`.
    pub(crate) fn maybe_reoptimise_filters(&mut self) -> Result<()> {
        self.filters.write_share = decay_write_share(self.filters.write_share);
        if !self.reoptimising() || self.job.is_some() {
            return Ok(());
        }
        let since = self.lookups - self.filters.lookups_at_change;
        if since % CHECK_EVERY_LOOKUPS != 1 {
            return Ok(());
        }
        // Writes stopped (or started) since the filters settled: the reserve they kept for the
        // next flush's run is no longer (or now) needed.
        let share = reserve_share(self.filters.write_share);
        let settled = self.filters.settled_reserve;
        if (share - settled).abs() > 0.25 || (share == 0.0) != (settled == 0.0) {
            self.filters.stale = true;
        }
        if self.filters.stale { self.reoptimise_filters() } else { Ok(()) }
    }

    /// Plan and apply: drop modules, rebuild filters from their runs' keys.
    pub fn reoptimise_filters(&mut self) -> Result<()> {
        let entries: u64 = self.levels.iter().flatten().map(Run::entries).sum();
        let bytes: u64 = self.levels.iter().flatten().map(Run::entry_bytes).sum();
        let entry_bytes = if entries == 0 { 1.0 } else { bytes as f64 / entries as f64 };
        // Lookups expected before the buffer fills and flushes: lookups per write in the recent
        // mix, times the writes the buffer still takes.
        let writes_to_flush =
            (self.config.buffer_bytes.saturating_sub(self.memtable.bytes()) as f64 / entry_bytes).max(1.0);
        let ws = self.filters.write_share;
        let horizon = if ws <= f64::MIN_POSITIVE { f64::INFINITY } else { (1.0 - ws) / ws * writes_to_flush };
        // While writes keep coming, keep the next flush's run in view (see `plan`): all of it from
        // `RESERVE_WRITE_SHARE` writes up, less as writes thin out, none in a read-only phase.
        let share = reserve_share(ws);
        let reserve = (share > 0.0).then(|| {
            let entries = self.config.buffer_bytes as f64 / entry_bytes * share;
            Reserve { entries, bits: self.config.filter.bits_per_key * entries }
        });
        let mut places = Vec::new();
        let mut runs = Vec::new();
        for (li, level) in self.levels.iter().enumerate() {
            for (ri, run) in level.iter().enumerate() {
                places.push((li, ri));
                runs.push(run_filter(&run.tables));
            }
        }
        let budget = self.config.filter.bits_per_key * entries as f64;
        let plan = plan(&runs, budget, reserve, horizon, self.config.filter.rebuild_payback);
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
        self.filters.settled_reserve = share;
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
        let modules = if self.config.filter.kind == lsm_core::config::FilterKind::Modular {
            self.config.filter.modules
        } else {
            1
        };
        let spec = FilterSpec {
            bits_per_key: bits_per_key.clamp(0.0, lsm_core::config::BITS_PER_KEY_RANGE.1),
            modules,
            structure: lsm_core::filter_kinds::structure_for(&self.config.filter, false, li + 1),
        };
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
fn run_filter(tables: &[Rc<Table>]) -> RunFilter {
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
    RunFilter { entries, module_bits, module_fprs, pages: tables.iter().map(|t| t.data_pages as f64).sum() }
}

/// The recent mix's write share after one more lookup. A read-only phase decays it toward 0
/// forever; left alone it would sink into the subnormal range after about 180,000 lookups and stay
/// there (`x - x / 256` stops changing at the smallest subnormal), and every lookup would then pay
/// the core's microcode assist for subnormal arithmetic: 10–15% of a zero-result lookup's own
/// time, measured natively and in V8. A share that small is none (the planner reads any share up
/// to `f64::MIN_POSITIVE` as 0), so it becomes exactly 0 before its next step would leave the
/// normal range.
pub(crate) fn decay_write_share(write_share: f64) -> f64 {
    if write_share < f64::MIN_POSITIVE * MIX_MEMORY { 0.0 } else { write_share - write_share / MIX_MEMORY }
}

/// How much of the next flush's run to reserve bits for, from the recent share of writes: none
/// once writes have stopped (fewer than one in a thousand recent operations).
pub(crate) fn reserve_share(write_share: f64) -> f64 {
    if write_share < RESERVE_WRITE_SHARE / 10.0 { 0.0 } else { (write_share / RESERVE_WRITE_SHARE).min(1.0) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsm_core::allocation::LN2_SQ;

    fn run(entries: f64, bits_per_key: f64, modules: usize) -> RunFilter {
        let per = entries * bits_per_key / modules as f64;
        let fpr = (-(bits_per_key / modules as f64) * LN2_SQ).exp();
        RunFilter { entries, module_bits: vec![per; modules], module_fprs: vec![fpr; modules], pages: entries / 35.0 }
    }

    /// The tree of the issue: leveling, T = 2, 5 bits/key, 2²⁰ entries in four runs, each
    /// sized at birth (the two largest with 4.35 bits/key).
    fn grown_tree() -> Vec<RunFilter> {
        vec![run(36_156.0, 6.9, 1), run(144_624.0, 6.0, 1), run(289_248.0, 4.35, 1), run(578_496.0, 4.35, 1)]
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
    fn a_read_only_phase_decays_the_write_share_to_zero_never_subnormal() {
        let mut share = 1.0;
        let mut lookups = 0;
        while share > 0.0 {
            share = decay_write_share(share);
            lookups += 1;
            assert!(share == 0.0 || share.is_normal(), "after {lookups} lookups the share is {share:e}");
        }
        // 256 · ln(1 / (256 · 2.2e-308)) ≈ 180,000 lookups to the floor.
        assert!((179_000..182_000).contains(&lookups), "{lookups} lookups");
        assert_eq!(decay_write_share(0.0), 0.0);
        // Above the floor it is the plain exponential average.
        assert_eq!(decay_write_share(0.5), 0.5 - 0.5 / MIX_MEMORY);
    }

    #[test]
    fn many_lookups_bring_every_filter_to_the_optimum_within_the_budget() {
        let runs = grown_tree();
        let budget = 5.0 * runs.iter().map(|r| r.entries).sum::<f64>();
        let p = plan(&runs, budget, None, 1e9, 1.0);
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
        let runs = grown_tree();
        let budget = 5.0 * runs.iter().map(|r| r.entries).sum::<f64>();
        let p = plan(&runs, budget, None, 10.0, 1.0);
        assert_eq!(p.actions, vec![Resize::Keep; 4]);
        assert!(!p.settled, "still worth reconsidering as lookups come");
        // Payback 0 rebuilds regardless.
        assert!(plan(&runs, budget, None, 10.0, 0.0).actions.iter().all(|a| matches!(a, Resize::Rebuild { .. })));
    }

    #[test]
    fn filters_at_the_optimum_are_left_alone() {
        let entries = [1e3, 2e3, 4e3];
        let budget = 8.0 * 7e3;
        let w: Vec<RunWeight> = entries.iter().map(|&e| RunWeight { entries: e, weight: 1.0 }).collect();
        let runs: Vec<RunFilter> =
            optimal_fprs(&w, budget).iter().zip(entries).map(|(&p, e)| run(e, bits_per_key_for_fpr(p), 1)).collect();
        let p = plan(&runs, budget, None, 1e9, 1.0);
        assert_eq!(p, Plan { actions: vec![Resize::Keep; 3], settled: true });
    }

    #[test]
    fn a_modular_filter_shrinks_by_dropping_modules_without_io() {
        // Two runs: a small one holding far more than its share, in 4 modules.
        let runs = vec![run(1e3, 16.0, 4), run(1e5, 4.0, 1)];
        let budget = 5.0 * 101e3;
        let p = plan(&runs, budget, None, 0.0, 1.0);
        let Resize::DropTo { modules } = p.actions[0] else { panic!("{:?}", p.actions) };
        assert!(modules < 4);
        // No lookups expected: the large run is not rebuilt.
        assert_eq!(p.actions[1], Resize::Keep);
    }

    #[test]
    fn over_budget_forces_the_rebuild() {
        let runs = vec![run(1e4, 10.0, 1), run(1e5, 10.0, 1)];
        let budget = 5.0 * 11e4;
        let p = plan(&runs, budget, None, 0.0, 1.0);
        let (_, bits) = cost_after(&runs, &p);
        assert!(bits <= budget * (1.0 + 1e-9), "{bits} > {budget}");
        assert!(p.settled);
    }
}

//! How many filter bits a new table gets, as a pure function of what the tree holds besides the
//! job writing it (`TreeView`) and the job's outputs so far: explicit per level, uniform, Monkey
//! (optimal for the tree the design says the data fills) or Mnemosyne (optimal for the lookups
//! each file has seen). The tree never spends more than `bits_per_key × entries`.
//!
//! Pure, so the writer (`filter_sizing` builds the view when a table is sealed) and a background
//! merger (`merger`: the view taken when its job started, the tree changing only by installs)
//! size filters with the same code.

use crate::filter::FilterSpec;
use lsm_core::allocation::LN2_SQ;
use lsm_core::config::{Allocation, BITS_PER_KEY_RANGE, EngineConfig, FilterKind};
use lsm_core::filter_kinds::structure_for;
use lsm_core::math::ln;
use lsm_core::mnemosyne::{self, FileWeight};
use lsm_core::monkey_birth::monkey_bits_at_birth;

/// One table's weight in the budget.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Held {
    /// Filter bits it holds.
    pub filter_bits: f64,
    /// Entries it holds.
    pub entries: f64,
    /// Entry bytes it holds (Monkey counts a job's outputs by them).
    pub entry_bytes: u64,
    /// Its estimated empty probes (Mnemosyne).
    pub empty_probes: f64,
}

/// The tree as a job's new tables are sized against it: every table that stays (not one of the
/// job's inputs), in tree order, and Monkey's view of the deepest level.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct TreeView {
    /// The job writes into this level.
    pub dest_level: usize,
    /// The job is a flush (its filters may take another structure).
    pub flush: bool,
    /// Tables that stay, in tree order.
    pub staying: Vec<Held>,
    /// The deepest level holding live data, or the destination if deeper.
    pub deepest: usize,
    /// Live bytes of the destination run when it lies in the deepest level (0 otherwise).
    pub dest_live_bytes: u64,
    /// Live bytes of every other run of the deepest level holding any.
    pub others: Vec<f64>,
}

/// The filter a new table of `entries` (`entry_bytes`, `empty_probes` estimated) gets, given the
/// job's `outputs` so far; and, under Mnemosyne, the new `log C` the engine keeps for lookups.
pub(crate) fn filter_spec(
    config: &EngineConfig,
    view: &TreeView,
    outputs: &[Held],
    entries: u64,
    entry_bytes: u64,
    empty_probes: f64,
) -> (FilterSpec, Option<Option<f64>>) {
    let f = &config.filter;
    let modules = if f.kind == FilterKind::Modular { f.modules } else { 1 };
    let mut log_c = None;
    let bits_per_key = match f.allocation {
        Allocation::Explicit => config.level(view.dest_level).bits_per_key.unwrap_or(0.0),
        Allocation::Uniform => f.bits_per_key,
        // Re-optimised Monkey sizes new runs the same way: sized for the runs that exist, a
        // last-level run born while the levels above are empty takes nearly the whole budget,
        // and the runs born after it are starved unless a rebuild shrinks it, which a
        // write-heavy phase never pays for (mixed.json: 0.33 I/O per zero-result lookup against
        // 0.24 sized for the design's tree). Re-optimisation then moves them when lookups pay.
        Allocation::Monkey => {
            monkey_bits(config, view, outputs, entry_bytes).min(unspent_bits_per_key(config, view, outputs, entries))
        }
        Allocation::Mnemosyne => {
            let (bits, c) = mnemosyne_bits(config, view, outputs, entries, entry_bytes, empty_probes);
            log_c = Some(c);
            bits.min(unspent_bits_per_key(config, view, outputs, entries))
        }
    };
    let structure = structure_for(f, view.flush, view.dest_level);
    (FilterSpec { bits_per_key: bits_per_key.clamp(0.0, BITS_PER_KEY_RANGE.1), modules, structure }, log_c)
}

/// Bits per key left for a new table of `entries` once the filters that stay are paid for:
/// older filters keep the bits they were built with, so the optimal share of the budget is
/// capped by what they leave, and the tree never spends more than `bits_per_key × entries`.
fn unspent_bits_per_key(config: &EngineConfig, view: &TreeView, outputs: &[Held], entries: u64) -> f64 {
    let (spent, held) =
        view.staying.iter().chain(outputs).fold((0.0, 0.0), |(b, n), t| (b + t.filter_bits, n + t.entries));
    let budget = config.filter.bits_per_key * (held + entries as f64);
    ((budget - spent) / entries.max(1) as f64).max(0.0)
}

/// Monkey: the optimal bits for the destination level in the tree the design says this data
/// fills — every level above the deepest holding its runs at their design size, the deepest
/// holding the data it really has. Sizing by the design rather than by the shape of the
/// moment keeps the tree within its budget: a last-level run rebuilt while the levels above
/// happen to be empty would otherwise take the whole budget for itself. The upper levels
/// count as present `UPPER_LEVEL_OCCUPANCY` of the time (see `lsm_core::monkey_birth`).
fn monkey_bits(config: &EngineConfig, view: &TreeView, outputs: &[Held], entry_bytes: u64) -> f64 {
    let written: u64 = outputs.iter().map(|t| t.entry_bytes).sum::<u64>() + entry_bytes;
    let dest_bytes = written as f64 + view.dest_live_bytes as f64;
    monkey_bits_at_birth(config, view.deepest, view.dest_level, &view.others, dest_bytes)
}

/// Mnemosyne: sort-and-search over every live file's estimated empty probes (§A.4.8); returns
/// the bits and the solution's `log C`.
fn mnemosyne_bits(
    config: &EngineConfig,
    view: &TreeView,
    outputs: &[Held],
    entries: u64,
    entry_bytes: u64,
    empty_probes: f64,
) -> (f64, Option<f64>) {
    let mut files: Vec<FileWeight> = view
        .staying
        .iter()
        .chain(outputs)
        .map(|t| FileWeight { entries: t.entries, empty_probes: t.empty_probes })
        .collect();
    files.push(FileWeight { entries: entries as f64, empty_probes });
    let budget = config.filter.bits_per_key * files.iter().map(|f| f.entries).sum::<f64>();
    let solution = mnemosyne::allocate(&files, budget, 1.0);
    let bits = match solution.log_c {
        Some(c) if empty_probes > 0.0 => {
            mnemosyne::build_bits_per_key(-(ln(entries as f64 / empty_probes) + c) / LN2_SQ, BITS_PER_KEY_RANGE.1)
        }
        // No statistics yet: fall back to Monkey's workload-agnostic split, capped at the average.
        _ => monkey_bits(config, view, outputs, entry_bytes).min(config.filter.bits_per_key),
    };
    (bits, solution.log_c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn held(bits: f64, entries: f64) -> Held {
        Held { filter_bits: bits, entries, entry_bytes: entries as u64 * 10, empty_probes: 0.0 }
    }

    #[test]
    fn uniform_gives_every_table_the_configured_bits() {
        let c = EngineConfig::uniform_shape(10.0, 1, Allocation::Uniform, 7.0);
        let view = TreeView { dest_level: 2, deepest: 2, ..TreeView::default() };
        let (spec, log_c) = filter_spec(&c, &view, &[], 100, 1000, 0.0);
        assert_eq!((spec.bits_per_key, log_c), (7.0, None));
    }

    #[test]
    fn monkey_never_spends_more_than_the_budget_the_staying_filters_leave() {
        let c = EngineConfig::uniform_shape(10.0, 1, Allocation::Monkey, 5.0);
        // 1,000 staying entries already hold 9,000 bits of a 5 bits/key budget: 100 new entries
        // have 5 × 1,100 − 9,000 < 0 left, so they get none.
        let view = TreeView { dest_level: 1, deepest: 1, staying: vec![held(9_000.0, 1_000.0)], ..TreeView::default() };
        assert_eq!(filter_spec(&c, &view, &[], 100, 1000, 0.0).0.bits_per_key, 0.0);
        // With 5,000 bits held, 500 are left over 100 entries: at most 5 bits/key, and outputs
        // already sealed by the same job count against it too.
        let view = TreeView { staying: vec![held(5_000.0, 1_000.0)], ..view };
        assert!(filter_spec(&c, &view, &[], 100, 1000, 0.0).0.bits_per_key <= 5.0);
        assert_eq!(filter_spec(&c, &view, &[held(1_000.0, 100.0)], 100, 1000, 0.0).0.bits_per_key, 0.0);
    }
}

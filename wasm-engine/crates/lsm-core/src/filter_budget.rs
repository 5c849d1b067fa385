//! How many filter bits a new table gets, as a pure function of what the tree holds besides the
//! job writing it (`TreeView`) and the job's outputs so far: explicit per level, uniform, Monkey
//! (optimal for the tree the design says the data fills) or Mnemosyne (optimal for the lookups
//! each file has seen). The tree never spends more than `bits_per_key × entries`.
//!
//! Pure, and shared: the engine's writer (the view built when a table is sealed), its background
//! merger (the view taken when its job started) and the tuner's predictor (the same decision
//! replayed on sizes: `allocated_bits`, `unspent_bits_per_key`) size filters with this code.

use crate::allocation::LN2_SQ;
use crate::config::{Allocation, BITS_PER_KEY_RANGE, EngineConfig};
use crate::math::ln;
use crate::mnemosyne::{self, FileWeight};
use crate::monkey_birth::monkey_bits_at_birth;

/// One table's weight in the budget.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Held {
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
pub struct TreeView {
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

/// The bits per key a new table of `entries` (`entry_bytes`, `empty_probes` estimated) gets, given
/// the job's `outputs` so far; and, under Mnemosyne, the new `log C` the engine keeps for lookups.
pub fn table_bits(
    config: &EngineConfig,
    view: &TreeView,
    outputs: &[Held],
    entries: u64,
    entry_bytes: u64,
    empty_probes: f64,
) -> (f64, Option<Option<f64>>) {
    let mut log_c = None;
    // Re-optimised Monkey sizes new runs the same way: sized for the runs that exist, a
    // last-level run born while the levels above are empty takes nearly the whole budget,
    // and the runs born after it are starved unless a rebuild shrinks it, which a
    // write-heavy phase never pays for (mixed.json: 0.33 I/O per zero-result lookup against
    // 0.24 sized for the design's tree). Re-optimisation then moves them when lookups pay.
    let bits = allocated_bits(
        config,
        view.dest_level,
        || {
            let (spent, held) =
                view.staying.iter().chain(outputs).fold((0.0, 0.0), |(b, n), t| (b + t.filter_bits, n + t.entries));
            unspent_bits_per_key(config.filter.bits_per_key, spent, held, entries as f64)
        },
        || monkey_bits(config, view, outputs, entry_bytes),
        || {
            let (bits, c) = mnemosyne_bits(config, view, outputs, entries, empty_probes);
            log_c = Some(c);
            bits
        },
    );
    (bits, log_c)
}

/// The bits per key a new run born at `dest_level` gets under the design's allocation: explicit
/// per level, uniform, Monkey's (`monkey`: optimal for the tree the design says the data fills)
/// within what the staying filters leave (`unspent`), or Mnemosyne's from the lookups each file
/// has seen (`statistics`; without any yet, Monkey's split capped at the average). Each closure
/// is called at most once, and only when the allocation needs it.
pub fn allocated_bits(
    config: &EngineConfig,
    dest_level: usize,
    unspent: impl FnOnce() -> f64,
    monkey: impl FnOnce() -> f64,
    statistics: impl FnOnce() -> Option<f64>,
) -> f64 {
    let f = &config.filter;
    match f.allocation {
        Allocation::Explicit => config.level(dest_level).bits_per_key.unwrap_or(0.0),
        Allocation::Uniform => f.bits_per_key,
        Allocation::Monkey => monkey().min(unspent()),
        Allocation::Mnemosyne => match statistics() {
            Some(bits) => bits.min(unspent()),
            None => monkey().min(f.bits_per_key).min(unspent()),
        },
    }
    .clamp(0.0, BITS_PER_KEY_RANGE.1)
}

/// Bits per key left for a new table of `entries` once the filters that stay (`spent_bits` over
/// `held_entries`) are paid for: older filters keep the bits they were built with, so the optimal
/// share of the budget is capped by what they leave, and the tree never spends more than
/// `bits_per_key × entries`.
pub fn unspent_bits_per_key(bits_per_key: f64, spent_bits: f64, held_entries: f64, entries: f64) -> f64 {
    ((bits_per_key * (held_entries + entries) - spent_bits) / entries.max(1.0)).max(0.0)
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
/// the bits (None without statistics for the new table) and the solution's `log C`.
fn mnemosyne_bits(
    config: &EngineConfig,
    view: &TreeView,
    outputs: &[Held],
    entries: u64,
    empty_probes: f64,
) -> (Option<f64>, Option<f64>) {
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
            Some(mnemosyne::build_bits_per_key(-(ln(entries as f64 / empty_probes) + c) / LN2_SQ, BITS_PER_KEY_RANGE.1))
        }
        _ => None,
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
        let (spec, log_c) = table_bits(&c, &view, &[], 100, 1000, 0.0);
        assert_eq!((spec, log_c), (7.0, None));
    }

    #[test]
    fn monkey_never_spends_more_than_the_budget_the_staying_filters_leave() {
        let c = EngineConfig::uniform_shape(10.0, 1, Allocation::Monkey, 5.0);
        // 1,000 staying entries already hold 9,000 bits of a 5 bits/key budget: 100 new entries
        // have 5 × 1,100 − 9,000 < 0 left, so they get none.
        let view = TreeView { dest_level: 1, deepest: 1, staying: vec![held(9_000.0, 1_000.0)], ..TreeView::default() };
        assert_eq!(table_bits(&c, &view, &[], 100, 1000, 0.0).0, 0.0);
        // With 5,000 bits held, 500 are left over 100 entries: at most 5 bits/key, and outputs
        // already sealed by the same job count against it too.
        let view = TreeView { staying: vec![held(5_000.0, 1_000.0)], ..view };
        assert!(table_bits(&c, &view, &[], 100, 1000, 0.0).0 <= 5.0);
        assert_eq!(table_bits(&c, &view, &[held(1_000.0, 100.0)], 100, 1000, 0.0).0, 0.0);
    }

    #[test]
    fn the_bits_stay_within_the_range_whatever_the_allocation_asks() {
        // The one clamp every caller relies on (the engine's adapter adds none).
        let c = EngineConfig::uniform_shape(10.0, 1, Allocation::Monkey, 10.0);
        assert_eq!(allocated_bits(&c, 1, || 1e9, || 200.0, || None), BITS_PER_KEY_RANGE.1);
        assert_eq!(allocated_bits(&c, 1, || 1e9, || -3.0, || None), 0.0);
        assert_eq!(allocated_bits(&c, 1, || 4.0, || 200.0, || None), 4.0);
        let m = EngineConfig::uniform_shape(10.0, 1, Allocation::Mnemosyne, 10.0);
        assert_eq!(allocated_bits(&m, 1, || 1e9, || 0.0, || Some(99.0)), BITS_PER_KEY_RANGE.1);
    }
}

//! Monkey's filter bits for a run at its birth, from sizes alone: the engine sizes each new
//! table's filter with it (`lsm_engine::filter_sizing`) and the tuner's predictor replays it
//! (`lsm_tune::predict`), so the two cannot drift apart.

use crate::allocation::{RunWeight, bits_per_key_for_fpr, optimal_fpr_at};
use crate::compaction;
use crate::config::EngineConfig;

/// The share of its lifetime a filter sized for an upper level finds that level's runs present.
/// Upper levels fill and empty once per merge cycle, so a deeper run lives, on average, beside
/// half-full levels above it. Sizing against full upper levels (the paper's steady state)
/// reserves bits for runs that are mostly absent: with T = 10 tiering at 2¹⁶ entries and
/// 5 bits/key that left 4.04 bits/key spent and 1.05 I/O per zero-result lookup against
/// uniform's 0.83. Weighting the upper runs by one half (in both their entries and how often
/// they are probed) measured best over leveling and tiering sweeps from 2¹³ to 2¹⁸ entries,
/// against 0.3 and 0.7, and never worse than uniform there.
const UPPER_LEVEL_OCCUPANCY: f64 = 0.5;

/// Monkey's bits per key for a run born at `dest_level` holding `dest_bytes`, in the tree the
/// design says the data fills: every level above `deepest` holding its runs at their design size
/// (present `UPPER_LEVEL_OCCUPANCY` of the time), the deepest level holding `deepest_runs` (its
/// other live runs, entry bytes) and, if it is the destination, the new run. A pure function of
/// sizes, so the engine and its predictor (`tune::predict`) size filters identically.
pub fn monkey_bits_at_birth(
    config: &EngineConfig,
    deepest: usize,
    dest_level: usize,
    deepest_runs: &[f64],
    dest_bytes: f64,
) -> f64 {
    let deepest = deepest.max(dest_level);
    let mut runs = Vec::new();
    let mut dest_index = 0;
    for level in 1..deepest {
        let g = compaction::geometry(config, level);
        let capacity = if g.capacity.is_finite() { g.capacity } else { g.unit * f64::from(g.max_runs) };
        if level == dest_level {
            dest_index = runs.len();
        }
        for _ in 0..g.max_runs {
            runs.push(RunWeight {
                entries: UPPER_LEVEL_OCCUPANCY * capacity / f64::from(g.max_runs),
                weight: UPPER_LEVEL_OCCUPANCY,
            });
        }
    }
    runs.extend(deepest_runs.iter().map(|&entries| RunWeight { entries, weight: 1.0 }));
    if deepest == dest_level {
        dest_index = runs.len();
        runs.push(RunWeight { entries: dest_bytes, weight: 1.0 });
    }
    // Only ratios matter to the optimum, so entry bytes stand in for entries.
    let total: f64 = runs.iter().map(|r| r.entries).sum();
    if dest_index >= runs.len() {
        return 0.0;
    }
    bits_per_key_for_fpr(optimal_fpr_at(&runs, config.filter.bits_per_key * total, dest_index))
}

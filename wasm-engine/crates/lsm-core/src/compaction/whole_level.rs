//! Merges by whole level. Each level i has a capacity `cap_i = buffer × T_1 × … × T_i` bytes, at
//! most `K_i` runs, and runs of capacity `cap_i / K_i`. Data arrives at level i in units of
//! `cap_{i−1}` (a full level above, or the buffer for level 1). This is Moose's "active run"
//! scheme, which has leveling (K = 1), tiering (K = T−1 or T) and every per-level mix as special
//! cases:
//!
//! * an arrival is merged into the level's newest run if that run still has room, otherwise it
//!   becomes a new run (a run never grows past its capacity by more than a quarter unit);
//! * a level that holds more than K runs, or is full to within a quarter unit, is merged as a
//!   whole into the next level (into that level's newest run if it has room).
//!
//! The quarter-unit tolerance absorbs the few bytes a flush falls short of the buffer size, so
//! a leveled level really merges after T arrivals and not T+1.

use super::geometry::{LevelGeometry, geometries, geometry};
use crate::config::{EngineConfig, Granularity};

/// Sizes, in entry bytes, of the runs of each level (index 0 = level 1), newest run first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Shape {
    /// `levels[i]` lists the sizes of level i+1's runs, newest first; an empty list is an empty level.
    pub levels: Vec<Vec<u64>>,
}

/// Where a flushed buffer goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlushPlan {
    /// Write the buffer as a new run at the top of level 1.
    NewRun,
    /// Merge the buffer into level 1's newest run.
    IntoNewestRun,
}

/// A merge of every run of `level` into `level + 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MergePlan {
    /// Source level (1-based); all its runs are inputs.
    pub level: usize,
    /// Whether the destination's newest run joins the merge (it has room for the arrival).
    pub into_newest_run: bool,
}

fn can_absorb(g: &LevelGeometry, newest_run: Option<u64>, arrival: u64) -> bool {
    match newest_run {
        Some(size) => (size + arrival) as f64 <= g.run_capacity + g.unit / 4.0,
        None => false,
    }
}

/// Where to put a buffer of `buffer_bytes` that must be flushed.
pub fn choose_flush(shape: &Shape, config: &EngineConfig, buffer_bytes: u64) -> FlushPlan {
    // Universal compaction, too, keeps every flush as an L0 file of its own.
    if config.compaction.granularity == Granularity::File || config.compaction.universal.is_some() {
        return FlushPlan::NewRun;
    }
    let g = geometry(config, 1);
    let newest = shape.levels.first().and_then(|l| l.first().copied());
    if can_absorb(&g, newest, buffer_bytes) { FlushPlan::IntoNewestRun } else { FlushPlan::NewRun }
}

/// The next whole-level merge the shape needs, smallest level first; `None` when every level is
/// within its limits.
pub fn choose(shape: &Shape, config: &EngineConfig) -> Option<MergePlan> {
    let mut geometries = geometries(config).peekable();
    for (idx, runs) in shape.levels.iter().enumerate() {
        let level = idx + 1;
        let g = geometries.next()?;
        if runs.is_empty() {
            continue;
        }
        let total: u64 = runs.iter().sum();
        let too_many_runs = runs.len() > g.max_runs as usize;
        let full = total as f64 >= g.capacity - g.unit / 4.0;
        if too_many_runs || full {
            let next = geometries.peek().copied().unwrap_or_else(|| geometry(config, level + 1));
            let newest_below = shape.levels.get(level).and_then(|l| l.first().copied());
            return Some(MergePlan { level, into_newest_run: can_absorb(&next, newest_below, total) });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Allocation, LevelConfig};

    fn config(levels: &[(f64, u32)]) -> EngineConfig {
        let mut c = EngineConfig::uniform_shape(10.0, 1, Allocation::Uniform, 10.0);
        c.buffer_bytes = 100;
        c.levels =
            levels.iter().map(|&(t, k)| LevelConfig { size_ratio: t, max_runs: k, bits_per_key: None }).collect();
        c
    }

    /// Drive the policy with flushes of `flush` bytes (no key overlap, so merges keep sizes),
    /// returning the shape after `flushes` flushes.
    fn simulate(c: &EngineConfig, flushes: usize, flush: u64) -> Shape {
        let mut s = Shape::default();
        for _ in 0..flushes {
            if s.levels.is_empty() {
                s.levels.push(Vec::new());
            }
            match choose_flush(&s, c, flush) {
                FlushPlan::NewRun => s.levels[0].insert(0, flush),
                FlushPlan::IntoNewestRun => s.levels[0][0] += flush,
            }
            while let Some(p) = choose(&s, c) {
                let total: u64 = s.levels[p.level - 1].drain(..).sum();
                if s.levels.len() <= p.level {
                    s.levels.push(Vec::new());
                }
                let dst = &mut s.levels[p.level];
                if p.into_newest_run { dst[0] += total } else { dst.insert(0, total) }
            }
        }
        s
    }

    #[test]
    fn leveling_merges_after_t_arrivals() {
        let c = config(&[(10.0, 1)]);
        // 9 flushes stay in level 1 as one run; the 10th pushes it to level 2.
        assert_eq!(simulate(&c, 9, 99).levels, vec![vec![891]]);
        assert_eq!(simulate(&c, 10, 99).levels, vec![vec![], vec![990]]);
        assert_eq!(simulate(&c, 23, 99).levels, vec![vec![297], vec![1980]]);
        // 100 flushes fill level 2: everything lands in level 3.
        assert_eq!(simulate(&c, 100, 99).levels, vec![vec![], vec![], vec![9900]]);
    }

    #[test]
    fn tiering_keeps_t_minus_1_runs_with_either_convention() {
        for k in [9, 10] {
            let c = config(&[(10.0, k)]);
            assert_eq!(simulate(&c, 9, 99).levels, vec![vec![99; 9]], "K={k}");
            assert_eq!(simulate(&c, 10, 99).levels, vec![vec![], vec![990]], "K={k}");
            assert_eq!(simulate(&c, 35, 99).levels, vec![vec![99; 5], vec![990; 3]], "K={k}");
        }
    }

    #[test]
    fn lazy_leveling_tiers_inner_levels_and_levels_the_last() {
        let c = config(&[(4.0, 3), (4.0, 3), (4.0, 1)]);
        let s = simulate(&c, 4 * 4 * 3 + 1, 100);
        assert_eq!(s.levels, vec![vec![100], vec![], vec![4800]]);
    }

    #[test]
    fn moose_layout_with_fractional_run_magnification() {
        // Moose Fig. 1: n = {4,3,2}, r = {4,6,3}: run capacities {1, 8, 36} buffers.
        let c = config(&[(4.0, 4), (6.0, 3), (3.0, 2)]);
        let s = simulate(&c, 4 * 6, 100);
        assert_eq!(s.levels, vec![vec![], vec![], vec![2400]]);
        let s = simulate(&c, 4 * 6 * 2 + 4 * 3, 100);
        assert_eq!(s.levels, vec![vec![], vec![400, 800], vec![2400, 2400]]);
    }

    #[test]
    fn flush_into_full_leveled_run_starts_new_run_then_merges_down() {
        let c = config(&[(3.0, 1)]);
        let s = Shape { levels: vec![vec![300]] };
        assert_eq!(choose_flush(&s, &c, 100), FlushPlan::NewRun);
        assert_eq!(choose(&s, &c), Some(MergePlan { level: 1, into_newest_run: false }));
    }
}

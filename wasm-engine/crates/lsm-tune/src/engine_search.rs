//! The engine's wing of the search: every whole-level shape (leveling and tiering at each size
//! ratio, Monkey's and uniform filters, each filter setting) for the memory the current design
//! spends, ranked quickly, the leaders priced in full, then per-level shapes (lazy leveling) and
//! Mnemosyne's filters around the best. A design on the RocksDB target that RocksDB does not run
//! (not imported from its OPTIONS) is searched here too, over RocksDB's shape at each multiplier.

use std::cmp::Ordering;

use lsm_core::config::{Allocation, EngineConfig, Granularity};
use lsm_core::error::Result;
use lsm_core::workload::Workload;

use crate::designs::{lazy_leveling, level_design, memory_of, mnemosyne, rocksdb_design, summary, with_bits};
use crate::options::{Target, TuneOptions};
use crate::predict::{self, Predictor, class_mix};
use crate::rank::{Rank, Ranker};
use crate::result::{
    Grown, Headline, HeadlineDesigns, NEIGHBOUR_SAMPLES, Neighbourhood, Priced, TUNE_KIND, TUNE_VERSION, TuneResult,
    measure,
};
use crate::robust::{sample_neighbourhood, worst_case};
use crate::verdict;

const SIZE_RATIOS: [f64; 10] = [2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 16.0, 32.0, 64.0];
const FILTER_BITS: [f64; 12] = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.0, 16.0, 24.0];
/// The filter settings every shape is first ranked at; the rest of `FILTER_BITS` are then priced
/// for the shapes that ranked best, next to their best coarse setting (cost is smooth in the
/// bits: more bits fewer false positives, less buffer more merges).
const COARSE_BITS: [f64; 7] = [0.0, 2.0, 4.0, 6.0, 10.0, 16.0, 24.0];
/// Candidates per criterion (nominal, worst case) re-priced in full after the quick ranking.
const LEADERS: usize = 12;
/// Best uniform shapes per criterion whose per-level (lazy-leveling) variant, and whose filter
/// settings between the coarse ones, are also priced.
const REFINED: usize = 16;
/// Best fully priced designs per criterion whose Mnemosyne variant is also priced.
const MNEMOSYNE_VARIANTS: usize = 2;

/// The search on `options.target` over the shapes it can run (`options` validated).
pub(crate) fn search(current: &EngineConfig, given: &Workload, options: &TuneOptions) -> Result<TuneResult> {
    let (rho, target) = (options.rho, options.target);
    let predictor = Predictor::new(given)?;
    // Priced as the engine sees it (`Predictor::workload`); `given` keeps its generator.
    let workload = predictor.workload();
    let entries = workload.preload.entries;
    let memory = options.memory.unwrap_or_else(|| memory_of(current, entries));
    let mix = class_mix(workload);
    let ranker = Ranker::new(options.rank, options.calibration.as_ref(), mix);
    let price = |config: EngineConfig, quick: bool| -> Result<Priced> {
        let prediction = if quick {
            predictor.quick(&config, predict::QUICK_SAMPLES)?
        } else {
            predictor.predict(&config, predict::SAMPLES)?
        };
        let w = worst_case(&ranker.costs(&prediction.class_costs), &mix, rho)?;
        // Candidates are named by their summary when built (the quick ranking prices only them).
        let summary = if quick { config.name.clone() } else { summary(&config) };
        let time = ranker.time(&prediction.class_costs);
        Ok(Priced {
            summary,
            config,
            prediction,
            worst: w.cost,
            worst_mix: w.workload,
            steady: None,
            memory: None,
            time,
        })
    };
    let current_priced = price(current.clone(), false)?;
    // A quick ranking of every candidate (lookups priced at two moments of the run), then the
    // leaders by either criterion priced in full; the choice is made among fully priced designs.
    let mut quick = Vec::new();
    for c in candidates(target, current, entries, memory, &COARSE_BITS) {
        quick.push(price(c, true)?);
    }
    let mut criteria: Vec<fn(&Priced) -> f64> = vec![|p| p.ranked(), |p| p.worst];
    if options.rank == Rank::Time {
        // The leaders by I/O are priced in full too: the time ranking sees every design the I/O
        // ranking would choose from, so its choice is never slower on the device (at ρ = 0).
        criteria.push(|p| p.io());
    }
    let best = |quick: &[Priced], n: usize| -> Vec<usize> {
        let mut out: Vec<usize> = Vec::new();
        for &key in &criteria {
            let mut order: Vec<usize> = (0..quick.len()).collect();
            order.sort_by(|&a, &b| key(&quick[a]).total_cmp(&key(&quick[b])));
            out.extend(order.into_iter().take(n));
        }
        out.sort_unstable();
        out.dedup();
        out
    };
    let mut seen: Vec<String> = quick.iter().map(|p| p.summary.clone()).collect();
    for i in best(&quick, REFINED) {
        let finer: Vec<EngineConfig> = finer_bits(quick[i].config.filter.bits_per_key)
            .filter_map(|b| with_bits(&quick[i].config, b, entries, memory))
            .collect();
        for c in finer {
            if !seen.contains(&c.name) {
                seen.push(c.name.clone());
                quick.push(price(c, true)?);
            }
        }
    }
    // Back into the order the candidates are generated in (filter bits, then shape), so that
    // equal predictions resolve the same way whatever was refined.
    quick.sort_by(|a, b| {
        generation_order(&a.config).partial_cmp(&generation_order(&b.config)).unwrap_or(Ordering::Equal)
    });
    if target == Target::Engine {
        for i in best(&quick, REFINED) {
            let Some(c) = lazy_leveling(&quick[i].config, quick[i].prediction.levels) else { continue };
            if !seen.contains(&c.name) {
                seen.push(c.name.clone());
                quick.push(price(c, true)?);
            }
        }
    }
    let mut candidates_priced = quick.len() + 1;
    let leaders = best(&quick, LEADERS);
    let mut priced = vec![current_priced.clone()];
    for i in leaders {
        priced.push(price(quick[i].config.clone(), false)?);
    }
    if target == Target::Engine {
        // Mnemosyne's filters for the best designs priced in full, priced in full themselves: its
        // sizing follows the run phase's statistics, which the quick ranking only glimpses.
        let by = |key: fn(&Priced) -> f64| {
            let mut order: Vec<usize> = (0..priced.len()).collect();
            order.sort_by(|&a, &b| key(&priced[a]).total_cmp(&key(&priced[b])));
            order.truncate(MNEMOSYNE_VARIANTS);
            order
        };
        let mut bases = by(|p| p.ranked());
        bases.extend(by(|p| p.worst));
        for i in bases {
            let Some(c) = mnemosyne(&priced[i].config) else { continue };
            if !priced.iter().any(|p| p.config == c) {
                priced.push(price(c, false)?);
                candidates_priced += 1;
            }
        }
    }
    // Ties go to the earlier candidate: the current design first, so an equal one is not "better".
    let argmin = |key: &dyn Fn(&Priced) -> f64| -> Priced {
        priced.iter().fold(&priced[0], |best, p| if key(p) < key(best) - 1e-12 { p } else { best }).clone()
    };
    let nominal = argmin(&|p| p.ranked());
    let robust = if rho == 0.0 { nominal.clone() } else { argmin(&|p| p.worst) };
    let samples = sample_neighbourhood(&mix, rho, NEIGHBOUR_SAMPLES, 1)?;
    let recommended = if rho > 0.0 { "robust" } else { "nominal" };
    let chosen = if rho > 0.0 { &robust } else { &nominal };
    let grown = Grown::of(given, &current_priced.config, &chosen.config)?;
    let gain = |p: &Priced| {
        if current_priced.prediction.expected > 0.0 {
            1.0 - p.prediction.expected / current_priced.prediction.expected
        } else {
            0.0
        }
    };
    // The headline: the gain in what the search ranked by (the worst case within ρ, or the expected
    // cost), with the model's stated error around it.
    let judged = verdict::verdict(
        current_priced.headline_cost(rho),
        chosen.headline_cost(rho),
        &current_priced.ranked_costs(),
        &chosen.ranked_costs(),
        &mix,
        &ranker.unit(),
    );
    let mut headline = Headline::of(
        &judged,
        measure(rho, &ranker.unit(), "in the run as played"),
        HeadlineDesigns::at(rho, &current_priced, &nominal, &robust),
    );
    // The engine search always recommends its argmin; "keep" is when that is the current design
    // (the model's error is RocksDB's, stated as the range, not a reason to refuse a change).
    headline.keep = chosen.config == current_priced.config;
    Ok(TuneResult {
        kind: TUNE_KIND.into(),
        version: TUNE_VERSION,
        rho,
        target,
        rank: options.rank,
        calibration: ranker.calibration().cloned(),
        memory_bytes: memory,
        workload: workload.clone(),
        mix,
        neighbourhood: Neighbourhood::over(&samples, &current_priced, &nominal, &robust),
        expected_loss: if nominal.ranked() > 0.0 { robust.ranked() / nominal.ranked() - 1.0 } else { 0.0 },
        predicted_gain: gain(chosen),
        headline,
        candidates: candidates_priced,
        grown,
        recommended: recommended.into(),
        current: current_priced,
        nominal,
        robust,
        rocksdb: None,
    })
}

/// Where a candidate falls in the order `candidates` generates them: filter bits, policy, size
/// ratio, allocation (Monkey first).
fn generation_order(c: &EngineConfig) -> (f64, bool, f64, bool) {
    let tiered = c.levels.first().is_some_and(|l| l.max_runs > 1) && c.compaction.granularity == Granularity::Level;
    let ratio = c.levels.last().map_or(0.0, |l| l.size_ratio);
    (c.filter.bits_per_key, tiered, ratio, c.filter.allocation != Allocation::Monkey)
}

/// The settings of `FILTER_BITS` between `bits`' coarse neighbours (`COARSE_BITS`).
fn finer_bits(bits: f64) -> impl Iterator<Item = f64> {
    let below = COARSE_BITS.iter().copied().filter(|&b| b < bits).fold(f64::NEG_INFINITY, f64::max);
    let above = COARSE_BITS.iter().copied().filter(|&b| b > bits).fold(f64::INFINITY, f64::min);
    FILTER_BITS.into_iter().filter(move |&b| b > below && b < above && !COARSE_BITS.contains(&b))
}

/// The candidates on `target` for `memory` bytes of buffer and filters over `entries` keys, at
/// each filter setting of `bits`, shaped after `current` where the target fixes the shape.
fn candidates(target: Target, current: &EngineConfig, entries: u64, memory: f64, bits: &[f64]) -> Vec<EngineConfig> {
    let shapes = match target {
        Target::Engine => engine_shapes(current.page_bytes),
        Target::Rocksdb => rocksdb_shapes(current),
    };
    let mut out = Vec::new();
    for &bits in bits {
        for shape in &shapes {
            // Unfiltered, Monkey and uniform are one design: keep the uniform one.
            if bits == 0.0 && shape.filter.allocation == Allocation::Monkey {
                continue;
            }
            out.extend(with_bits(shape, bits, entries, memory));
        }
    }
    out
}

/// Whole-level shapes: leveling and tiering at each size ratio, with Monkey's and uniform filters.
fn engine_shapes(page_bytes: u32) -> Vec<EngineConfig> {
    let mut out = Vec::new();
    for tiering in [false, true] {
        for &t in &SIZE_RATIOS {
            if tiering && t > 16.0 {
                continue;
            }
            for a in [Allocation::Monkey, Allocation::Uniform] {
                out.push(level_design(page_bytes, tiering, t, 0, 0.0, a));
            }
        }
    }
    out
}

/// RocksDB's shape at each level multiplier. It keeps the current level 0 trigger and level-1
/// size (in write buffers) when the current design has RocksDB's shape; otherwise RocksDB's
/// defaults (4 files, 4 buffers). A design imported from RocksDB (`predict::rocksdb_shaped`)
/// also passes on how RocksDB runs it — its blocks, memtable, file picking, trivial moves,
/// output cuts, dynamic level bytes and block cache — so the candidates are priced the way the
/// current design is.
fn rocksdb_shapes(current: &EngineConfig) -> Vec<EngineConfig> {
    let (files, base) = match current.levels.as_slice() {
        [l0, _, ..] if current.compaction.granularity == Granularity::File => (l0.max_runs + 1, l0.size_ratio),
        _ => (4, 4.0),
    };
    let inherit = predict::rocksdb_shaped(current);
    [4.0, 5.0, 6.0, 8.0, 10.0, 12.0, 16.0, 20.0]
        .into_iter()
        .map(|t| {
            let mut c = rocksdb_design(current.page_bytes, files, base, t, 0, 0.0);
            if inherit {
                c.block_layout = current.block_layout;
                c.buffer_trigger = current.buffer_trigger;
                c.block_cache = current.block_cache.clone();
                c.filter.kind = current.filter.kind;
                let cc = &current.compaction;
                c.compaction.pick = cc.pick;
                c.compaction.trivial_moves = cc.trivial_moves;
                c.compaction.output_cuts = cc.output_cuts;
                c.compaction.dynamic_level_bytes = cc.dynamic_level_bytes;
                c.compaction.num_levels = cc.num_levels;
                c.name = summary(&c);
            }
            c
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finer_bits_fill_the_gaps_next_to_a_coarse_setting() {
        let finer = |b: f64| finer_bits(b).collect::<Vec<_>>();
        assert_eq!(finer(10.0), vec![8.0, 12.0]);
        assert_eq!(finer(4.0), vec![3.0, 5.0]);
        assert_eq!(finer(0.0), vec![1.0]);
        assert_eq!(finer(24.0), Vec::<f64>::new());
        // Every setting is coarse or next to one: the refinement can reach all of FILTER_BITS.
        let reachable: Vec<f64> = COARSE_BITS.iter().flat_map(|&b| std::iter::once(b).chain(finer_bits(b))).collect();
        assert!(FILTER_BITS.iter().all(|b| reachable.contains(b)), "{reachable:?}");
    }
}

//! Tune: from a design and a workload to a design for the same memory that the engine will
//! measure as cheaper, and the files to take home.
//!
//! * `predict`: what the engine will measure for a design, from its own merge policy and filter
//!   sizing replayed on sizes (so a predicted gain is a gain the engine shows).
//! * `robust`: Endure's worst case over workloads within KL-divergence ρ.
//! * `bundle`: the files (OPTIONS, engine JSON, YCSB properties, db_bench comparison, report).
//!
//! The search, for the memory the current design spends on its buffer and filters, over what the
//! target can run: for the engine, every (policy, size ratio, filter bits, allocation) with
//! whole-level merges, then per-level shapes around the best of them (Moose's per-level run
//! counts in the form Dostoevsky's lazy leveling gives them: every level above the deepest
//! tiered, the deepest leveled); for RocksDB, its own shape (level 0 of flushed files, leveled levels
//! merged file by file, one Bloom filter setting) with the write buffer, the level multiplier and
//! the bits per key free, so the OPTIONS file says exactly what was priced. The engine's best
//! designs are also priced with Mnemosyne's filters (sized by the lookups each run sees). The
//! current design is always a candidate, so the recommendation is never predicted worse than
//! where you are.
//! The nominal design minimises the predicted cost at the expected workload; the robust one the
//! worst case within ρ (ρ = 0: the nominal design).

pub mod bundle;
mod designs;
mod keymap;
mod popularity;
pub mod predict;
pub mod robust;
mod writes;

use std::cmp::Ordering;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use designs::with_bits;
pub use designs::{
    allocation_name, human_bytes, lazy_leveling, level_design, memory_of, mnemosyne, rocksdb_design, shape_summary,
    summary,
};
use lsm_core::config::{Allocation, EngineConfig, Granularity};
use lsm_core::error::{Error, Result};
use lsm_core::workload::Workload;
use predict::{Prediction, Predictor, class_mix};
use robust::{sample_neighbourhood, worst_case};

/// The `kind` of a `TuneResult` document.
pub const TUNE_KIND: &str = "lsm-navigator/tune-result";
/// The `version` of a `TuneResult` document.
pub const TUNE_VERSION: u32 = 1;
/// Workloads drawn from the ρ-neighbourhood for the distribution chart.
pub const NEIGHBOUR_SAMPLES: usize = 1_000;
/// Allowed ρ (Endure's KL-divergence radius, nats), inclusive; `tune` rejects any other.
pub const RHO_RANGE: (f64, f64) = (0.0, 10.0);

/// What the recommendation must run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    /// The engine: any policy, size ratio and filter allocation, merges by level.
    Engine,
    /// RocksDB: its leveled shape with merges by file and uniform Bloom filters.
    Rocksdb,
}

impl FromStr for Target {
    type Err = Error;
    fn from_str(s: &str) -> Result<Target> {
        match s {
            "engine" => Ok(Target::Engine),
            "rocksdb" => Ok(Target::Rocksdb),
            other => Err(Error::invalid("target", format!("must be engine or rocksdb, got \"{other}\""))),
        }
    }
}

const SIZE_RATIOS: [f64; 10] = [2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 16.0, 32.0, 64.0];
const FILTER_BITS: [f64; 12] = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.0, 16.0, 24.0];
/// The filter settings every shape is first ranked at; the rest of `FILTER_BITS` are then priced
/// for the shapes that ranked best, next to their best coarse setting (cost is smooth in the
/// bits: more bits fewer false positives, less buffer more merges).
const COARSE_BITS: [f64; 7] = [0.0, 2.0, 4.0, 6.0, 10.0, 16.0, 24.0];
/// Moments of the run phase the quick ranking prices lookups at.
const QUICK_SAMPLES: usize = 4;
/// Candidates per criterion (nominal, worst case) re-priced in full after the quick ranking.
const LEADERS: usize = 12;
/// Best uniform shapes per criterion whose per-level (lazy-leveling) variant, and whose filter
/// settings between the coarse ones, are also priced.
const REFINED: usize = 16;
/// Best fully priced designs per criterion whose Mnemosyne variant is also priced.
const MNEMOSYNE_VARIANTS: usize = 2;

/// One design as the tuner priced it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Priced {
    /// The design; a candidate's `name` is its summary (the current design keeps its own).
    pub config: EngineConfig,
    /// "leveling, T = 10, monkey filters at 12 bits/key, 16 MiB buffer".
    pub summary: String,
    /// What the engine is predicted to measure for it on the workload.
    pub prediction: Prediction,
    /// The worst expected cost within ρ, and the workload (class shares) that attains it.
    pub worst: f64,
    /// The class shares of that worst workload, in `predict::CLASSES` order.
    pub worst_mix: [f64; 4],
}

/// Each design's predicted cost on the sampled nearby workloads, sorted ascending.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Neighbourhood {
    /// Workloads sampled within ρ (`NEIGHBOUR_SAMPLES`; all equal to the expected one when
    /// ρ = 0).
    pub samples: usize,
    /// I/O per operation of the current design on each sample.
    pub current: Vec<f64>,
    /// I/O per operation of the nominal design on each sample.
    pub nominal: Vec<f64>,
    /// I/O per operation of the robust design on each sample.
    pub robust: Vec<f64>,
}

/// The result document: the same from the page and from `lsm tune`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TuneResult {
    /// Document type; always `TUNE_KIND` ("lsm-navigator/tune-result").
    pub kind: String,
    /// Always `TUNE_VERSION` (1).
    pub version: u32,
    /// Endure's ρ: how far (KL-divergence, nats) the mix may drift for the robust design; in
    /// [0, 10], 0 = no robustness.
    pub rho: f64,
    /// What the recommendation must run on.
    pub target: Target,
    /// Buffer plus filter memory, the same for every design considered.
    pub memory_bytes: f64,
    /// The workload tuned for, as given.
    pub workload: Workload,
    /// Class shares: zero-result lookups, non-zero-result lookups, range lookups, writes.
    pub mix: [f64; 4],
    /// The design tuned from, priced like the candidates.
    pub current: Priced,
    /// The least predicted cost at the expected workload; the current design unless one beats it.
    pub nominal: Priced,
    /// The least worst-case cost within ρ; the nominal design when ρ = 0.
    pub robust: Priced,
    /// "robust" when ρ > 0, else "nominal".
    pub recommended: String,
    /// Robust over nominal at the expected workload, minus 1 (what robustness costs).
    pub expected_loss: f64,
    /// Predicted gain of the recommendation over the current design at the expected workload.
    pub predicted_gain: f64,
    /// Designs priced, the current one included.
    pub candidates: usize,
    /// The three designs' costs on workloads sampled within ρ, for the distribution chart.
    pub neighbourhood: Neighbourhood,
    /// The current and the recommended design with twice the data (the same operations): a
    /// design tuned to one data size (a tree that happens to hold one run) can lose as it grows.
    pub grown: Grown,
}

/// The predicted cost of the current and the recommended design with twice the preload, the
/// run's operations unchanged.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Grown {
    /// Preload entries of the doubled workload.
    pub records: u64,
    /// Predicted I/O per operation of the current design at that size.
    pub current: f64,
    /// Predicted I/O per operation of the recommended design at that size.
    pub recommended: f64,
}

impl TuneResult {
    /// The recommended design: `robust` when ρ > 0, `nominal` otherwise.
    pub fn recommendation(&self) -> &Priced {
        if self.recommended == "robust" { &self.robust } else { &self.nominal }
    }

    /// The document as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

/// `workload` with its class shares replaced by `mix` (zero-result lookups, non-zero-result
/// lookups, range lookups, writes): a drifted workload, same data, keys and seed. Writes keep
/// the workload's own split between inserts, updates and deletes (updates if it had none).
pub fn drifted(workload: &Workload, mix: &[f64; 4]) -> Workload {
    let m = &workload.mix;
    let writes = m.insert + m.update + m.delete;
    let (i, u, d) =
        if writes > 0.0 { (m.insert / writes, m.update / writes, m.delete / writes) } else { (0.0, 1.0, 0.0) };
    let mut w = workload.clone();
    w.mix = lsm_core::workload::Mix {
        get_missing: mix[0],
        get_existing: mix[1],
        range: mix[2],
        insert: mix[3] * i,
        update: mix[3] * u,
        delete: mix[3] * d,
    };
    if mix[2] > 0.0 && w.range_selectivity <= 0.0 {
        // A workload that gains range lookups needs a length: YCSB's default, 50 of its records.
        w.range_selectivity = (50.0 / workload.preload.entries.max(1) as f64).min(1.0);
    }
    w.name = format!("{} (drifted)", workload.name);
    w
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

/// Tune `current` for `workload` on `target` with robustness `rho` (0 = nominal).
pub fn tune(current: &EngineConfig, workload: &Workload, rho: f64, target: Target) -> Result<TuneResult> {
    current.validate()?;
    workload.validate()?;
    if !(RHO_RANGE.0..=RHO_RANGE.1).contains(&rho) {
        return Err(Error::invalid(
            "rho",
            format!("must be a number in [{}, {}], got {rho}", RHO_RANGE.0, RHO_RANGE.1),
        ));
    }
    let entries = workload.preload.entries;
    let memory = memory_of(current, entries);
    let mix = class_mix(workload);
    let predictor = Predictor::new(workload)?;
    let price = |config: EngineConfig, quick: bool| -> Result<Priced> {
        let prediction = if quick {
            predictor.quick(&config, QUICK_SAMPLES)?
        } else {
            predictor.predict(&config, predict::SAMPLES)?
        };
        let w = worst_case(&prediction.class_costs, &mix, rho)?;
        // Candidates are named by their summary when built (the quick ranking prices only them).
        let summary = if quick { config.name.clone() } else { summary(&config) };
        Ok(Priced { summary, config, prediction, worst: w.cost, worst_mix: w.workload })
    };
    let current_priced = price(current.clone(), false)?;
    // A quick ranking of every candidate (lookups priced at two moments of the run), then the
    // leaders by either criterion priced in full; the choice is made among fully priced designs.
    let mut quick = Vec::new();
    for c in candidates(target, current, entries, memory, &COARSE_BITS) {
        quick.push(price(c, true)?);
    }
    let criteria: [fn(&Priced) -> f64; 2] = [|p| p.prediction.expected, |p| p.worst];
    let best = |quick: &[Priced], n: usize| -> Vec<usize> {
        let mut out: Vec<usize> = Vec::new();
        for key in criteria {
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
        let mut bases = by(|p| p.prediction.expected);
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
    let nominal = argmin(&|p| p.prediction.expected);
    let robust = if rho == 0.0 { nominal.clone() } else { argmin(&|p| p.worst) };
    let samples = sample_neighbourhood(&mix, rho, NEIGHBOUR_SAMPLES, 1)?;
    let on = |p: &Priced| {
        let mut v: Vec<f64> =
            samples.iter().map(|m| (0..4).map(|i| m[i] * p.prediction.class_costs[i]).sum()).collect();
        v.sort_by(f64::total_cmp);
        v
    };
    let recommended = if rho > 0.0 { "robust" } else { "nominal" };
    let chosen = if rho > 0.0 { &robust } else { &nominal };
    let mut doubled = workload.clone();
    doubled.preload.entries = workload.preload.entries.saturating_mul(2).max(1);
    let at_double = Predictor::new(&doubled)?;
    let grown = Grown {
        records: doubled.preload.entries,
        current: at_double.predict(&current_priced.config, predict::SAMPLES)?.expected,
        recommended: at_double.predict(&chosen.config, predict::SAMPLES)?.expected,
    };
    let gain = |p: &Priced| {
        if current_priced.prediction.expected > 0.0 {
            1.0 - p.prediction.expected / current_priced.prediction.expected
        } else {
            0.0
        }
    };
    Ok(TuneResult {
        kind: TUNE_KIND.into(),
        version: TUNE_VERSION,
        rho,
        target,
        memory_bytes: memory,
        workload: workload.clone(),
        mix,
        neighbourhood: Neighbourhood {
            samples: samples.len(),
            current: on(&current_priced),
            nominal: on(&nominal),
            robust: on(&robust),
        },
        expected_loss: if nominal.prediction.expected > 0.0 {
            robust.prediction.expected / nominal.prediction.expected - 1.0
        } else {
            0.0
        },
        predicted_gain: gain(chosen),
        candidates: candidates_priced,
        grown,
        recommended: recommended.into(),
        current: current_priced,
        nominal,
        robust,
    })
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

//! Tune: from a design and a workload to a design for the same memory that the engine will
//! measure as cheaper, and the files to take home.
//!
//! * `predict`: what the engine will measure for a design, from its own merge policy and filter
//!   sizing replayed on sizes (so a predicted gain is a gain the engine shows).
//! * `robust`: Endure's worst case over workloads within KL-divergence ρ.
//! * `bundle`: the files (OPTIONS, engine JSON, YCSB properties, db_bench comparison, report).
//!
//! The search: every (policy, size ratio, filter bits, allocation) the engine builds with whole-
//! level merges, for the memory the current design spends on its buffer and filters, plus the
//! current design itself, so the recommendation is never predicted worse than where you are.
//! The nominal design minimises the predicted cost at the expected workload; the robust one the
//! worst case within ρ (ρ = 0: the nominal design).

pub mod bundle;
pub mod predict;
pub mod robust;

use serde::Serialize;

use crate::config::{
    Allocation, BITS_PER_KEY_RANGE, CONFIG_KIND, CONFIG_VERSION, CompactionConfig, EngineConfig, Granularity,
    LevelConfig,
};
use crate::error::{Error, Result};
use crate::workload::Workload;
use predict::{Prediction, class_mix, predict};
use robust::{sample_neighbourhood, worst_case};

pub const TUNE_KIND: &str = "lsm-navigator/tune-result";
pub const TUNE_VERSION: u32 = 1;
/// Workloads drawn from the ρ-neighbourhood for the distribution chart.
pub const NEIGHBOUR_SAMPLES: usize = 1_000;
pub const RHO_RANGE: (f64, f64) = (0.0, 10.0);

const SIZE_RATIOS: [f64; 10] = [2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 16.0, 32.0, 64.0];
const FILTER_BITS: [f64; 12] = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.0, 16.0, 24.0];
/// The smallest buffer a candidate may have: below it, flushes (and the search) multiply.
const MIN_BUFFER_BYTES: f64 = 1_048_576.0;

/// One design as the tuner priced it.
#[derive(Clone, Debug, Serialize)]
pub struct Priced {
    pub config: EngineConfig,
    /// "leveling, T = 10, monkey filters at 12 bits/key, 16 MiB buffer".
    pub summary: String,
    pub prediction: Prediction,
    /// The worst expected cost within ρ, and the workload (class shares) that attains it.
    pub worst: f64,
    pub worst_mix: [f64; 4],
}

/// Each design's predicted cost on the sampled nearby workloads, sorted ascending.
#[derive(Clone, Debug, Serialize)]
pub struct Neighbourhood {
    pub samples: usize,
    pub current: Vec<f64>,
    pub nominal: Vec<f64>,
    pub robust: Vec<f64>,
}

/// The result document: the same from the page and from `lsm tune`.
#[derive(Clone, Debug, Serialize)]
pub struct TuneResult {
    pub kind: String,
    pub version: u32,
    pub rho: f64,
    /// Buffer plus filter memory, the same for every design considered.
    pub memory_bytes: f64,
    pub workload: Workload,
    /// Class shares: zero-result lookups, non-zero-result lookups, range lookups, writes.
    pub mix: [f64; 4],
    pub current: Priced,
    pub nominal: Priced,
    pub robust: Priced,
    /// "robust" when ρ > 0, else "nominal".
    pub recommended: String,
    /// Robust over nominal at the expected workload, minus 1 (what robustness costs).
    pub expected_loss: f64,
    /// Predicted gain of the recommendation over the current design at the expected workload.
    pub predicted_gain: f64,
    pub candidates: usize,
    pub neighbourhood: Neighbourhood,
}

impl TuneResult {
    pub fn recommendation(&self) -> &Priced {
        if self.recommended == "robust" { &self.robust } else { &self.nominal }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

/// Buffer plus filter memory of a design holding `entries` keys.
pub fn memory_of(config: &EngineConfig, entries: u64) -> f64 {
    config.buffer_bytes as f64 + config.filter.bits_per_key * entries as f64 / 8.0
}

/// A design with whole-level merges: one level spec for every level (T, and 1 run with
/// leveling or T − 1 with tiering), the filters' average bits per key and their allocation.
pub fn level_design(
    page_bytes: u32,
    tiering: bool,
    size_ratio: f64,
    buffer_bytes: u64,
    bits: f64,
    allocation: Allocation,
) -> EngineConfig {
    let max_runs = if tiering { (size_ratio - 1.0).round().max(1.0) as u32 } else { 1 };
    let mut config = EngineConfig::uniform_shape(size_ratio, max_runs, allocation, bits);
    config.kind = CONFIG_KIND.into();
    config.version = CONFIG_VERSION;
    config.page_bytes = page_bytes;
    config.buffer_bytes = buffer_bytes;
    config.compaction = CompactionConfig { granularity: Granularity::Level, ..CompactionConfig::default() };
    config.levels = vec![LevelConfig { size_ratio, max_runs, bits_per_key: None }];
    config.name = summary(&config);
    config
}

/// A design in one line.
pub fn summary(c: &EngineConfig) -> String {
    let deepest = c.levels.last();
    let shape = match deepest {
        Some(l) if l.max_runs == 1 => format!("leveling, T = {}", l.size_ratio),
        Some(l) => format!("tiering ({} runs), T = {}", l.max_runs, l.size_ratio),
        None => "no levels".into(),
    };
    let alloc = match c.filter.allocation {
        Allocation::Monkey => "Monkey",
        Allocation::Uniform => "uniform",
        Allocation::Mnemosyne => "Mnemosyne",
        Allocation::Explicit => "per-level",
    };
    let granularity = if c.compaction.granularity == Granularity::File { ", merges by file" } else { "" };
    format!(
        "{shape}{granularity}, {alloc} filters at {} bits/key, {} buffer",
        trim(c.filter.bits_per_key),
        human_bytes(c.buffer_bytes as f64)
    )
}

/// 64 MiB, 1.5 GiB, 512 KiB.
pub fn human_bytes(b: f64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = b;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < units.len() {
        v /= 1024.0;
        u += 1;
    }
    format!("{} {}", trim(if v >= 100.0 { v.round() } else { (v * 10.0).round() / 10.0 }), units[u])
}

fn trim(x: f64) -> String {
    let s = format!("{x:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The candidates for `memory` bytes of buffer and filters over `entries` keys.
fn candidates(page_bytes: u32, entries: u64, memory: f64) -> Vec<EngineConfig> {
    let mut out = Vec::new();
    for &bits in &FILTER_BITS {
        let buffer = memory - bits * entries as f64 / 8.0;
        if buffer < MIN_BUFFER_BYTES || bits > BITS_PER_KEY_RANGE.1 {
            continue;
        }
        for tiering in [false, true] {
            for &t in &SIZE_RATIOS {
                if tiering && t > 16.0 {
                    continue;
                }
                let allocations: &[Allocation] =
                    if bits > 0.0 { &[Allocation::Monkey, Allocation::Uniform] } else { &[Allocation::Uniform] };
                for &a in allocations {
                    out.push(level_design(page_bytes, tiering, t, buffer.floor() as u64, bits, a));
                }
            }
        }
    }
    out
}

/// Tune `current` for `workload` with robustness `rho` (0 = nominal).
pub fn tune(current: &EngineConfig, workload: &Workload, rho: f64) -> Result<TuneResult> {
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
    let price = |config: EngineConfig| -> Result<Priced> {
        let prediction = predict(&config, workload)?;
        let w = worst_case(&prediction.class_costs, &mix, rho)?;
        Ok(Priced { summary: summary(&config), config, prediction, worst: w.cost, worst_mix: w.workload })
    };
    let current_priced = price(current.clone())?;
    let mut priced = vec![current_priced.clone()];
    for c in candidates(current.page_bytes, entries, memory) {
        priced.push(price(c)?);
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
        candidates: priced.len(),
        recommended: recommended.into(),
        current: current_priced,
        nominal,
        robust,
    })
}

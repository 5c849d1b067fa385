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
//! worst case within ρ (ρ = 0: the nominal design). The cost is I/O per operation, or with a
//! device calibration (`rank`) the predicted time per operation on that device.
//!
//! A design RocksDB runs (imported from its OPTIONS file) tuned for RocksDB is searched instead
//! over RocksDB's own knobs (`knobs`: memtable size, level-0 trigger, level base, multiplier,
//! dynamic level bytes, target file size, Bloom or Ribbon bits, `optimize_filters_for_hits`,
//! `cache_index_and_filter_blocks`, leveled or universal compaction and its size amplification)
//! within one memory budget as RocksDB charges it (`memory`: memtables × `max_write_buffer_number`,
//! plus the block cache, plus index and filter blocks held outside it), the block cache taking what each
//! move leaves. Designs are ranked by their steady-state cost (`steady`: each write at its share
//! of the flushes and merges it causes); the gain carries the model's stated error (`verdict`),
//! and inside it the verdict is "keep your design". Every candidate exports to RocksDB OPTIONS
//! with no warning the current design has not. RocksDB's OPTIONS hold one `filter_policy`, so
//! per-level bits (Monkey's) are searched only when the user accepts a plugin
//! (`TuneOptions::plugin`, `per_level`): the shipped C++ policy (`lsm export --format
//! rocksdb-cpp`, `policy.h`) gives each level its bits; the result then says the plugin is
//! required (`TuneResult::plugin`, a line of the diff), and the bundle carries it.

pub mod bundle;
mod designs;
mod keymap;
pub mod knobs;
pub mod memory;
pub mod per_level;
mod popularity;
pub mod predict;
mod rank;
pub mod robust;
mod steady;
pub mod verdict;
mod writes;

use std::cmp::Ordering;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use designs::with_bits;
pub use designs::{
    allocation_name, human_bytes, lazy_leveling, level_design, memory_of, mnemosyne, rocksdb_design, rocksdb_summary,
    shape_summary, summary,
};
use knobs::{Knob, descend};
use lsm_core::calibration::{Calibration, TimeCost};
use lsm_core::config::{Allocation, EngineConfig, Granularity};
use lsm_core::error::{Error, Result};
use lsm_core::workload::Workload;
pub use memory::{DEFAULT_WRITE_BUFFERS, Memory};
pub use per_level::Plugin;
use predict::{Prediction, Predictor, class_mix};
pub use rank::Rank;
use rank::Ranker;
use robust::{sample_neighbourhood, worst_case};
pub use verdict::{OptionChange, Verdict};

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
/// RocksDB search: a move may raise the run's predicted cost by at most this share.
const RUN_SLACK: f64 = 0.005;
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
    /// The worst expected cost within ρ, in the unit ranked by (I/O or µs per operation), and the
    /// workload (class shares) that attains it.
    pub worst: f64,
    /// The class shares of that worst workload, in `predict::CLASSES` order.
    pub worst_mix: [f64; 4],
    /// RocksDB-shaped designs: the steady-state cost the search ranks by (writes amortised).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steady: Option<Steady>,
    /// RocksDB-shaped designs: the memory RocksDB charges for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<Memory>,
    /// Ranked by time: the time of `io_costs` on the calibrated device (µs per operation of each
    /// class, their mean, ops/s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<TimeCost>,
}

impl Priced {
    /// Per-class I/O the search prices: the steady-state one where there is one, else the run's.
    pub fn io_costs(&self) -> [f64; 4] {
        self.steady.as_ref().map_or(self.prediction.class_costs, |s| s.class_costs)
    }

    /// Expected I/O per operation the search prices (steady state where there is one).
    pub fn io(&self) -> f64 {
        self.steady.as_ref().map_or(self.prediction.expected, |s| s.expected)
    }

    /// Per-class cost the search ranks by: µs when ranked by time, else `io_costs`.
    pub fn ranked_costs(&self) -> [f64; 4] {
        self.time.as_ref().map_or_else(|| self.io_costs(), |t| t.us_per_op)
    }

    /// Expected cost the search ranks by: µs per operation when ranked by time, else `io`.
    pub fn ranked(&self) -> f64 {
        self.time.as_ref().map_or_else(|| self.io(), |t| t.mean_us)
    }
}

/// A recommendation that writes each byte more often than the current design is not free even
/// where the workload seldom writes: the data got there by writes, and will again. Said with the
/// verdict when the steady write amplification rises by a quarter or more.
fn write_amplification_caveat(current: &Priced, chosen: &Priced, write_share: f64) -> String {
    let (Some(a), Some(b)) = (&current.steady, &chosen.steady) else { return String::new() };
    if a.write_amp <= 0.0 || b.write_amp < 1.25 * a.write_amp {
        return String::new();
    }
    format!(
        "; it writes more: write amplification {:.2} → {:.2}, so every byte loaded or written costs {:.1}× the I/O \
         (writes are {:.0}% of this workload's operations)",
        a.write_amp,
        b.write_amp,
        b.write_amp / a.write_amp,
        100.0 * write_share
    )
}

/// The steady-state cost of a design: lookups as the run replays them, each write at its share of
/// the flushes and merges it will cause (`steady`: Monkey's and Dostoevsky's amortised cost), so a
/// design that writes more is never free, even when the run ends before its next flush.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Steady {
    /// I/O per operation of each class (`predict::CLASSES`); the write class amortised.
    pub class_costs: [f64; 4],
    /// Σ mix · class cost.
    pub expected: f64,
    /// Bytes written by flushes and merges per byte the user writes, in the steady state.
    pub write_amp: f64,
    /// Bytes the tree holds per byte of live data.
    pub space_amp: f64,
    /// Bytes written per user byte that the replay predicts over the load and the run together
    /// (what the proof measures as written per user byte, load + run).
    pub write_amp_replayed: f64,
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
    /// What the designs were ranked by: "io" (I/O per operation) or "time" (µs per operation on
    /// `calibration`'s device). The worst cases, the neighbourhood, `expected_loss`,
    /// `steady_gain`, the verdict and the options' shares are in that unit; `predicted_gain` and
    /// `grown` stay in I/O (what the proof measures).
    #[serde(default)]
    pub rank: Rank,
    /// The device calibration the designs were ranked on (`rank` = time).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calibration: Option<Calibration>,
    /// Buffer plus filter memory, the same for every design considered.
    pub memory_bytes: f64,
    /// The workload tuned for, as given.
    pub workload: Workload,
    /// Class shares: zero-result lookups, non-zero-result lookups, range lookups, writes.
    pub mix: [f64; 4],
    /// The design tuned from, priced like the candidates.
    pub current: Priced,
    /// The least predicted cost (in the unit ranked by) at the expected workload; the current design
    /// unless one beats it.
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
    /// RocksDB's `max_write_buffer_number` the memory was charged with (RocksDB designs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub write_buffers: Option<u32>,
    /// Predicted gain of the steady-state cost the search ranks by (RocksDB designs; equal to
    /// `predicted_gain` otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steady_gain: Option<f64>,
    /// The gain with the model's error around it, and "keep" when that range holds 0 (RocksDB
    /// designs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
    /// The recommendation as RocksDB options, old → new, each with its reason and share of the
    /// gain (RocksDB designs; empty when the verdict is "keep").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<OptionChange>,
    /// How the shares were counted.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub shares_note: String,
    /// Why the robust design equals the nominal one, or what it trades.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub robust_note: String,
    /// What `lsm export --format rocksdb` cannot express of the recommendation (beyond what it
    /// cannot express of the current design): empty for every RocksDB candidate (per-level bits a
    /// required plugin carries are in `plugin`, not here).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub export_warnings: Vec<String>,
    /// The plugins the user accepted (`TuneOptions::plugin`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plugin_allowed: Option<Plugin>,
    /// The plugin the recommendation needs (its per-level bits cannot be said in OPTIONS): None
    /// when the OPTIONS file alone runs it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plugin: Option<RequiredPlugin>,
}

/// A plugin the recommendation cannot run without.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RequiredPlugin {
    /// Which (`per-level-filters`).
    pub plugin: Plugin,
    /// The policy's name as RocksDB records it (`lsm_navigator.PerLevelBloomPolicy`).
    pub policy: String,
    /// The bundle's file holding it (`policy.h`; `lsm export --format rocksdb-cpp`).
    pub file: String,
    /// Bits per key by RocksDB level (index = the level a table is built for, L0 first).
    pub bits_by_level: Vec<f64>,
    /// What to do with it, in words.
    pub note: String,
}

impl RequiredPlugin {
    /// The plugin `config` needs, if any.
    pub fn of(config: &EngineConfig) -> Option<RequiredPlugin> {
        if !per_level::needs_plugin(config) {
            return None;
        }
        let bits = per_level::bits_by_level(config);
        Some(RequiredPlugin {
            plugin: Plugin::PerLevelFilters,
            policy: per_level::POLICY_NAME.into(),
            file: per_level::POLICY_FILE.into(),
            note: format!(
                "plugin required: the recommendation gives each level its own filter bits ({}; {} on average over the \
                 data), which an OPTIONS file cannot say (its one filter_policy holds the exporter's capacity-weighted \
                 mean of the levels' bits); build {} into your application and set table_options.filter_policy = \
                 lsm_navigator::NewPerLevelBloomPolicy() after loading the OPTIONS file — without it RocksDB runs that \
                 one value on every level, not the design priced",
                per_level::bits_summary(&bits),
                (config.filter.bits_per_key * 1000.0).round() / 1000.0,
                per_level::POLICY_FILE
            ),
            bits_by_level: bits,
        })
    }
}

/// The tuner's inputs besides the design and the workload.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneOptions {
    /// Endure's ρ, in [0, 10] (`RHO_RANGE`).
    pub rho: f64,
    /// What the recommendation must run on.
    pub target: Target,
    /// The memory every design must fit, in bytes (RocksDB: memtables + block cache + index and
    /// filter blocks held outside it; the engine: buffer + filters). None: what the current design
    /// uses. In [1 MiB, 2⁵⁰].
    pub memory: Option<f64>,
    /// RocksDB's `max_write_buffer_number` (memtables charged per write buffer); in [1, 64],
    /// default 2.
    pub write_buffers: u32,
    /// What the designs are ranked by (default: I/O per operation).
    pub rank: Rank,
    /// The device to rank on when `rank` is time (`lsm calibrate`, the Tune page's Calibrate).
    pub calibration: Option<Calibration>,
    /// A plugin the user accepts building in (RocksDB target): per-level filter bits through the
    /// shipped C++ policy. None (the default): only what an OPTIONS file can say.
    pub plugin: Option<Plugin>,
}

/// Allowed `TuneOptions::memory`, inclusive.
pub const MEMORY_RANGE: (f64, f64) = (1_048_576.0, 1_125_899_906_842_624.0);

impl TuneOptions {
    /// ρ and the target; the current design's memory and RocksDB's 2 write buffers.
    pub fn new(rho: f64, target: Target) -> TuneOptions {
        TuneOptions {
            rho,
            target,
            memory: None,
            write_buffers: DEFAULT_WRITE_BUFFERS,
            rank: Rank::Io,
            calibration: None,
            plugin: None,
        }
    }

    fn validate(&self) -> Result<()> {
        if !(RHO_RANGE.0..=RHO_RANGE.1).contains(&self.rho) {
            return Err(Error::invalid(
                "rho",
                format!("must be a number in [{}, {}], got {}", RHO_RANGE.0, RHO_RANGE.1, self.rho),
            ));
        }
        if let Some(m) = self.memory
            && !(MEMORY_RANGE.0..=MEMORY_RANGE.1).contains(&m)
        {
            return Err(Error::invalid("memory", format!("must be bytes in [1048576, 2^50], got {m}")));
        }
        if !(1..=64).contains(&self.write_buffers) {
            return Err(Error::invalid(
                "max_write_buffer_number",
                format!("must be a whole number in [1, 64], got {}", self.write_buffers),
            ));
        }
        match (&self.calibration, self.rank) {
            (None, Rank::Time) => Err(Error::invalid(
                "calibration",
                "ranking by time needs a device calibration (lsm calibrate, or the Tune page's Calibrate)",
            )),
            (Some(c), _) => c.validate(),
            (None, Rank::Io) => Ok(()),
        }
    }
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

/// Tune `current` for `workload` on `target` with robustness `rho` (0 = nominal), in the memory
/// the current design uses.
pub fn tune(current: &EngineConfig, workload: &Workload, rho: f64, target: Target) -> Result<TuneResult> {
    tune_with(current, workload, &TuneOptions::new(rho, target))
}

/// Tune `current` for `workload` as `options` say. A design RocksDB runs (imported from its
/// OPTIONS, `predict::rocksdb_shaped`) tuned for RocksDB is searched over RocksDB's own knobs
/// within one memory budget (`tune_rocksdb`); anything else as `tune` always has.
pub fn tune_with(current: &EngineConfig, workload: &Workload, options: &TuneOptions) -> Result<TuneResult> {
    current.validate()?;
    workload.validate()?;
    options.validate()?;
    if options.target == Target::Rocksdb && predict::rocksdb_shaped(current) {
        return tune_rocksdb(current, workload, options);
    }
    let (rho, target) = (options.rho, options.target);
    let entries = workload.preload.entries;
    let memory = options.memory.unwrap_or_else(|| memory_of(current, entries));
    let mix = class_mix(workload);
    let ranker = Ranker::new(options.rank, options.calibration.as_ref(), mix);
    let predictor = Predictor::new(workload)?;
    let price = |config: EngineConfig, quick: bool| -> Result<Priced> {
        let prediction = if quick {
            predictor.quick(&config, QUICK_SAMPLES)?
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
    let on = |p: &Priced| costs_over(&samples, &p.ranked_costs());
    let recommended = if rho > 0.0 { "robust" } else { "nominal" };
    let chosen = if rho > 0.0 { &robust } else { &nominal };
    let grown = grown(workload, &current_priced.config, &chosen.config)?;
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
        rank: options.rank,
        calibration: ranker.calibration().cloned(),
        memory_bytes: memory,
        workload: workload.clone(),
        mix,
        neighbourhood: Neighbourhood {
            samples: samples.len(),
            current: on(&current_priced),
            nominal: on(&nominal),
            robust: on(&robust),
        },
        expected_loss: if nominal.ranked() > 0.0 { robust.ranked() / nominal.ranked() - 1.0 } else { 0.0 },
        predicted_gain: gain(chosen),
        candidates: candidates_priced,
        grown,
        recommended: recommended.into(),
        current: current_priced,
        nominal,
        robust,
        write_buffers: None,
        steady_gain: None,
        verdict: None,
        changes: Vec::new(),
        shares_note: String::new(),
        robust_note: String::new(),
        export_warnings: Vec::new(),
        plugin_allowed: None,
        plugin: None,
    })
}

/// Live keys, entry sizes and blocks of the workload's data, for the memory charge and the
/// steady-state write cost.
struct RocksdbData {
    data: steady::Data,
    key_bytes: u64,
    value_bytes: u64,
    per_block: f64,
}

impl RocksdbData {
    fn new(workload: &Workload, page_bytes: u32) -> RocksdbData {
        let m = &workload.mix;
        let writes = m.insert + m.update + m.delete;
        let inserts = if writes > 0.0 { workload.operations as f64 * m.insert } else { 0.0 };
        let key_bytes = u64::from(workload.preload.key_bytes);
        let value_bytes = u64::from(workload.preload.value_bytes);
        let entry = (key_bytes + value_bytes) as usize;
        RocksdbData {
            data: steady::Data { keys: workload.preload.entries as f64 + inserts, entry_bytes: entry as f64 },
            key_bytes,
            value_bytes,
            per_block: lsm_core::layout::entries_per_block(entry, page_bytes as usize, true).max(1) as f64,
        }
    }

    fn shape(&self, c: &EngineConfig) -> steady::SteadyShape {
        steady::steady_shape(c, &self.data, self.key_bytes, self.value_bytes)
    }

    fn held(&self, c: &EngineConfig) -> memory::Held {
        memory::Held {
            keys: self.data.keys,
            per_block: self.per_block,
            last_level_share: self.shape(c).last_level_share,
        }
    }

    /// `prediction`'s costs with each write at its steady-state share (bytes written per user
    /// byte × the entry's bytes in pages).
    fn steady(&self, c: &EngineConfig, p: &Prediction, workload: &Workload) -> Steady {
        let shape = self.shape(c);
        let entry_pages = (self.data.entry_bytes + lsm_core::layout::ENTRY_HEADER as f64) / f64::from(c.page_bytes);
        let mut class_costs = p.class_costs;
        class_costs[3] = shape.write_amp * entry_pages;
        let expected = p.mix.iter().zip(class_costs).map(|(w, c)| w * c).sum();
        let load = workload.preload.entries as f64;
        let m = &workload.mix;
        let run = workload.operations as f64 * (m.insert + m.update + m.delete);
        let write_amp_replayed = p.twin.as_ref().map_or(0.0, |t| {
            if load + run > 0.0 {
                (t.load_bytes_written_per_user_byte * load + t.run_bytes_written_per_user_byte * run) / (load + run)
            } else {
                0.0
            }
        });
        Steady { class_costs, expected, write_amp: shape.write_amp, space_amp: shape.space_amp, write_amp_replayed }
    }
}

/// The field names of what `lsm export --format rocksdb` cannot express of `c`. A design whose
/// bits the per-level policy sets (`per_level::needs_plugin`) is exported as OPTIONS plus the
/// policy: the OPTIONS file's warnings about per-level bits are what the policy carries, so they
/// give way to what the policy (`rocksdb-cpp`) cannot express.
fn export_warnings(c: &EngineConfig, workload: &Workload) -> Vec<String> {
    let text = |f: lsm_export::Format| -> Vec<String> {
        lsm_export::export(c, f, Some(workload))
            .map(|e| e.warnings.iter().map(|w| format!("{}: {}", w.field, w.message)).collect())
            .unwrap_or_else(|e| vec![e.to_string()])
    };
    if !per_level::needs_plugin(c) {
        return text(lsm_export::Format::Rocksdb);
    }
    let mut out: Vec<String> = text(lsm_export::Format::Rocksdb)
        .into_iter()
        .filter(|w| !(w.starts_with("levels") || w.starts_with("filter.bits_per_key")))
        .collect();
    out.extend(text(lsm_export::Format::RocksdbCpp));
    out
}

/// RocksDB's knobs within one memory budget (`knobs`): coordinate descent from the current
/// design, ranked by the steady-state cost (nominal) or its worst case within ρ (robust), the
/// block cache taking what each move leaves of the budget; every candidate exports to RocksDB
/// OPTIONS with no more warnings than the current design.
fn tune_rocksdb(current: &EngineConfig, workload: &Workload, options: &TuneOptions) -> Result<TuneResult> {
    let rho = options.rho;
    let wb = options.write_buffers;
    let mix = class_mix(workload);
    let ranker = Ranker::new(options.rank, options.calibration.as_ref(), mix);
    let unit = ranker.unit();
    // The run's cost in the unit ranked by (the run's I/O, or its time on the device).
    let run_cost = |p: &Priced| ranker.expected(p.prediction.expected, &p.prediction.class_costs);
    let predictor = Predictor::new(workload)?;
    let data = RocksdbData::new(workload, current.page_bytes);
    let budget = options.memory.unwrap_or_else(|| memory::charge(current, &data.held(current), wb).total);
    // Per-level bits only where the user accepts the plugin that sets them.
    let allocator = options.plugin.map(|Plugin::PerLevelFilters| per_level::Allocator {
        data: data.data,
        key_bytes: data.key_bytes,
        value_bytes: data.value_bytes,
        zero: mix[0],
        existing: mix[1],
    });
    // The moves without the plugin, and with it: the descent is greedy, so more moves can lead
    // it elsewhere; both are searched and the better kept, so accepting the plugin never gives
    // a recommendation predicted worse than refusing it.
    let plain = |k: Knob, c: &EngineConfig| knobs::moves_with(k, c, None);
    let with_plugin = |k: Knob, c: &EngineConfig| knobs::moves_with(k, c, allocator.as_ref());
    let mut move_sets: Vec<knobs::Moves<'_>> = vec![&plain];
    if allocator.is_some() {
        move_sets.push(&with_plugin);
    }
    let price = |config: EngineConfig, quick: bool| -> Result<Priced> {
        let prediction = if quick {
            predictor.quick(&config, QUICK_SAMPLES)?
        } else {
            predictor.predict(&config, predict::SAMPLES)?
        };
        let steady = data.steady(&config, &prediction, workload);
        let w = worst_case(&ranker.costs(&steady.class_costs), &mix, rho)?;
        let memory = memory::charge(&config, &data.held(&config), wb);
        let time = ranker.time(&steady.class_costs);
        Ok(Priced {
            summary: rocksdb_summary(&config),
            config,
            prediction,
            worst: w.cost,
            worst_mix: w.workload,
            steady: Some(steady),
            memory: Some(memory),
            time,
        })
    };
    let mut current_priced = price(current.clone(), false)?;
    current_priced.summary = rocksdb_summary(current);
    let current_warnings = export_warnings(current, workload);
    let fit = |c: EngineConfig| -> Option<EngineConfig> {
        let held = data.held(&c);
        let c = memory::fit_cache(c, &held, wb, budget)?;
        // Never silently lossy: a candidate the OPTIONS file cannot say exactly is not one.
        export_warnings(&c, workload).iter().all(|w| current_warnings.contains(w)).then_some(c)
    };
    let start = match options.memory {
        None => current.clone(),
        Some(_) => fit(current.clone()).ok_or_else(|| {
            Error::invalid(
                "memory",
                format!(
                    "{budget} bytes leave no block cache after the current memtables and index/filter blocks ({} bytes)",
                    memory::charge(current, &data.held(current), wb).total - current.block_cache.bytes as f64
                ),
            )
        })?,
    };
    let mut candidates_priced = 1;
    let mut search_with =
        |key: fn(&Priced) -> f64, moves: knobs::Moves<'_>| -> Result<(Priced, Vec<knobs::Step<Priced>>)> {
            // A move must not cost more in the run than it saves: the steady state prices writes the
            // run may never see, and a user measures the run (the proof does).
            let run_no_worse = |a: &Priced, b: &Priced| run_cost(b) <= run_cost(a) * (1.0 + RUN_SLACK);
            let d = descend(
                price(start.clone(), true)?,
                &|p: &Priced| &p.config,
                moves,
                &fit,
                &mut |c| price(c, true),
                &key,
                &run_no_worse,
            )?;
            candidates_priced += d.priced + 1;
            // The path priced in full: the choice and the shares are made on full prices.
            let mut path =
                vec![if options.memory.is_none() { current_priced.clone() } else { price(start.clone(), false)? }];
            let mut steps = Vec::new();
            for s in &d.steps {
                let after = price(s.after.config.clone(), false)?;
                candidates_priced += 1;
                steps.push(knobs::Step { knob: s.knob, before: path[path.len() - 1].clone(), after: after.clone() });
                path.push(after);
            }
            // Ties go to the earlier design on the path: the start first. Priced in full, a design must
            // still cost no more than the start in the run.
            let best = path
                .iter()
                .filter(|p| run_no_worse(&path[0], p))
                .fold(&path[0], |b, p| if key(p) < key(b) - 1e-12 { p } else { b })
                .clone();
            let upto = path.iter().position(|p| p.config == best.config).unwrap_or(0);
            steps.truncate(upto);
            Ok((best, steps))
        };
    // Each set of moves searched; ties go to the first (no plugin).
    let mut search = |key: fn(&Priced) -> f64| -> Result<(Priced, Vec<knobs::Step<Priced>>)> {
        let mut best: Option<(Priced, Vec<knobs::Step<Priced>>)> = None;
        for moves in &move_sets {
            let found = search_with(key, *moves)?;
            if best.as_ref().is_none_or(|b| key(&found.0) < key(&b.0) - 1e-12) {
                best = Some(found);
            }
        }
        best.ok_or_else(|| Error::invalid("plugin", "no search was run"))
    };
    let (nominal, nominal_steps) = search(|p| p.ranked())?;
    let (robust, robust_steps) =
        if rho == 0.0 { (nominal.clone(), nominal_steps.clone()) } else { search(|p| p.worst)? };
    let recommended = if rho > 0.0 { "robust" } else { "nominal" };
    let (chosen, steps) = if rho > 0.0 { (&robust, &robust_steps) } else { (&nominal, &nominal_steps) };
    let ranked_key = |p: &Priced| if rho > 0.0 { p.worst } else { p.ranked() };
    let mut verdict = verdict::verdict(
        ranked_key(&current_priced),
        ranked_key(chosen),
        &current_priced.ranked_costs(),
        &chosen.ranked_costs(),
        &mix,
        &unit,
    );
    // The run, too, must gain beyond the model's error: a steady-state gain the run does not show
    // is not one the user can see.
    let run = verdict::verdict(
        run_cost(&current_priced),
        run_cost(chosen),
        &ranker.costs(&current_priced.prediction.class_costs),
        &ranker.costs(&chosen.prediction.class_costs),
        &mix,
        &unit,
    );
    if run.keep && !verdict.keep {
        verdict.keep = true;
        verdict.words = format!(
            "keep your design: the steady-state gain in {unit} ({:.1}%) does not show in the run, where the gain is inside the model's error ({:.1}% to {:.1}%)",
            100.0 * verdict.gain,
            100.0 * run.low,
            100.0 * run.high
        );
    }
    if !verdict.keep {
        verdict.words.push_str(&write_amplification_caveat(&current_priced, chosen, mix[3]));
    }
    let plugin = if verdict.keep { None } else { RequiredPlugin::of(&chosen.config) };
    if let Some(p) = &plugin {
        verdict.words.push_str(&format!("; {}", p.note));
    }
    let changes = if verdict.keep {
        Vec::new()
    } else {
        option_changes(&current_priced, chosen, steps, workload, ranked_key, options.plugin.is_some())
    };
    let samples = sample_neighbourhood(&mix, rho, NEIGHBOUR_SAMPLES, 1)?;
    let on = |p: &Priced| costs_over(&samples, &p.ranked_costs());
    let grown = grown(workload, &current_priced.config, &chosen.config)?;
    let gain = |a: f64, b: f64| if a > 0.0 { 1.0 - b / a } else { 0.0 };
    let export_warnings_new: Vec<String> =
        export_warnings(&chosen.config, workload).into_iter().filter(|w| !current_warnings.contains(w)).collect();
    Ok(TuneResult {
        kind: TUNE_KIND.into(),
        version: TUNE_VERSION,
        rho,
        target: Target::Rocksdb,
        rank: options.rank,
        calibration: ranker.calibration().cloned(),
        memory_bytes: budget,
        workload: workload.clone(),
        mix,
        neighbourhood: Neighbourhood {
            samples: samples.len(),
            current: on(&current_priced),
            nominal: on(&nominal),
            robust: on(&robust),
        },
        expected_loss: if nominal.ranked() > 0.0 { robust.ranked() / nominal.ranked() - 1.0 } else { 0.0 },
        predicted_gain: gain(current_priced.prediction.expected, chosen.prediction.expected),
        steady_gain: Some(gain(current_priced.ranked(), chosen.ranked())),
        candidates: candidates_priced,
        grown,
        recommended: recommended.into(),
        write_buffers: Some(wb),
        robust_note: robust_note(rho, &nominal, &robust, &mix),
        shares_note:
            "each change's share is the steady-state cost its move took off, the moves added one at a time in \
                      the order the search took them (coordinate descent), over the whole gain"
                .into(),
        changes,
        verdict: Some(verdict),
        export_warnings: export_warnings_new,
        plugin_allowed: options.plugin,
        plugin,
        current: current_priced,
        nominal,
        robust,
    })
}

/// The recommendation as RocksDB options, old → new: the options whose exported value differs,
/// each with the reason of the move that set it, its figures and its share of the gain.
fn option_changes(
    current: &Priced,
    chosen: &Priced,
    steps: &[knobs::Step<Priced>],
    workload: &Workload,
    key: impl Fn(&Priced) -> f64,
    plugin_allowed: bool,
) -> Vec<OptionChange> {
    let whole = key(current) - key(chosen);
    // With the plugin accepted, the per-level policy is one more "option" of the diff.
    let exported = |c: &EngineConfig| {
        let mut o = verdict::options_of(c, workload);
        if plugin_allowed {
            let bits = per_level::bits_by_level(c);
            let value = if bits.is_empty() {
                "none (the OPTIONS file's filter_policy on every level)".to_string()
            } else {
                format!("{}: {}", per_level::POLICY_NAME, per_level::bits_summary(&bits))
            };
            o.push((format!("C++ plugin {}", per_level::POLICY_FILE), knobs::PER_LEVEL_OPTION.to_string(), value));
        }
        o
    };
    let step_diffs: Vec<(Knob, f64, String, Vec<String>)> = steps
        .iter()
        .map(|s| {
            let share = if whole > 0.0 { (key(&s.before) - key(&s.after)) / whole } else { 0.0 };
            let (b, a) = (&s.before, &s.after);
            let time = match (&b.time, &a.time) {
                (Some(tb), Some(ta)) => format!("predicted µs per operation {:.1} → {:.1}, ", tb.mean_us, ta.mean_us),
                _ => String::new(),
            };
            let figures = format!(
                "{time}I/O per lookup {:.3} → {:.3}, write amplification {:.2} → {:.2}",
                lookup_cost(b),
                lookup_cost(a),
                b.steady.as_ref().map_or(0.0, |x| x.write_amp),
                a.steady.as_ref().map_or(0.0, |x| x.write_amp),
            );
            let names =
                verdict::option_diff(&exported(&b.config), &exported(&a.config)).into_iter().map(|d| d.1).collect();
            (s.knob, share, figures, names)
        })
        .collect();
    verdict::option_diff(&exported(&current.config), &exported(&chosen.config))
        .into_iter()
        .map(|(section, option, from, to)| {
            let movers: Vec<&(Knob, f64, String, Vec<String>)> =
                step_diffs.iter().filter(|d| d.3.contains(&option)).collect();
            let (reason, share) = if option == "block_cache" {
                ("the memory the budget leaves after the memtables and the index and filter blocks held outside the cache; \
                  its effect is counted in the moves that freed or took the memory"
                    .to_string(), 0.0)
            } else {
                // A move's share counts once, under its own option; options it sets alongside
                // (format_version with a filter, the slowdown trigger with the level-0 trigger) say so.
                let own: Vec<_> = movers.iter().filter(|d| d.0.option() == option).collect();
                if own.is_empty() {
                    let by = movers.iter().map(|d| d.0.option()).collect::<Vec<_>>().join(", ");
                    (if by.is_empty() { "set with the changes above".to_string() } else { format!("set with {by}") }, 0.0)
                } else {
                    // A knob moved more than once says why once, then each move's figures in order.
                    let figures = own.iter().map(|d| d.2.clone()).collect::<Vec<_>>().join("; then ");
                    let required = RequiredPlugin::of(&chosen.config)
                        .filter(|_| option == knobs::PER_LEVEL_OPTION)
                        .map_or(String::new(), |p| format!("{}. ", p.note));
                    (format!("{required}{}; {figures}", own[0].0.why()), own.iter().map(|d| d.1).sum())
                }
            };
            OptionChange { section, option, from, to, reason, share }
        })
        .collect()
}

/// I/O per point lookup or scan at the workload's read mix.
fn lookup_cost(p: &Priced) -> f64 {
    let c = p.io_costs();
    let reads: f64 = p.prediction.mix[..3].iter().sum();
    if reads > 0.0 { (0..3).map(|i| p.prediction.mix[i] * c[i]).sum::<f64>() / reads } else { 0.0 }
}

/// Why the robust design is the nominal one, or what it trades for the worst case.
fn robust_note(rho: f64, nominal: &Priced, robust: &Priced, mix: &[f64; 4]) -> String {
    let shares = |m: &[f64; 4]| m.iter().map(|x| format!("{:.0}%", 100.0 * x)).collect::<Vec<_>>().join(" / ");
    if rho == 0.0 {
        return "ρ = 0: the workload may not drift, so the robust design is the nominal one by definition".into();
    }
    if robust.config == nominal.config {
        let same = robust.worst_mix.iter().zip(mix).all(|(a, b)| (a - b).abs() < 1e-6);
        return if same {
            format!(
                "within ρ = {rho} the worst-case mix is the expected one ({}), so the nominal design is also the robust one",
                shares(mix)
            )
        } else {
            format!(
                "within ρ = {rho} the worst case is the mix {} (zero-result / non-zero-result / range / writes; expected {}), and no other design in the same memory costs less there: the nominal design is also the robust one",
                shares(&robust.worst_mix),
                shares(mix)
            )
        };
    }
    format!(
        "the robust design costs {:.1}% more at the expected mix and {:.1}% less at its worst mix within ρ = {rho} ({})",
        100.0 * (robust.ranked() / nominal.ranked().max(1e-300) - 1.0),
        100.0 * (1.0 - robust.worst / nominal.worst.max(1e-300)),
        shares(&robust.worst_mix)
    )
}

/// The cost of class costs `costs` on each sampled workload mix, sorted ascending (the
/// neighbourhood chart's series).
fn costs_over(samples: &[[f64; 4]], costs: &[f64; 4]) -> Vec<f64> {
    let mut v: Vec<f64> = samples.iter().map(|m| (0..4).map(|i| m[i] * costs[i]).sum()).collect();
    v.sort_by(f64::total_cmp);
    v
}

/// Both designs predicted with twice the preload, the run's operations unchanged.
fn grown(workload: &Workload, current: &EngineConfig, chosen: &EngineConfig) -> Result<Grown> {
    let mut doubled = workload.clone();
    doubled.preload.entries = workload.preload.entries.saturating_mul(2).max(1);
    let at_double = Predictor::new(&doubled)?;
    Ok(Grown {
        records: doubled.preload.entries,
        current: at_double.predict(current, predict::SAMPLES)?.expected,
        recommended: at_double.predict(chosen, predict::SAMPLES)?.expected,
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

//! The result document (`TuneResult`): every design as the tuner priced it, the recommendation,
//! and, for a RocksDB search, what only it gives (`RocksdbAdvice`).

use lsm_core::calibration::{Calibration, TimeCost};
use lsm_core::config::EngineConfig;
use lsm_core::error::Result;
use lsm_core::workload::Workload;
use serde::{Deserialize, Serialize};

use crate::options::Target;
use crate::predict::{self, Prediction, Predictor};
use crate::rank::Rank;
use crate::rocksdb::memory::Memory;
use crate::rocksdb::option_change::OptionChange;
use crate::rocksdb::per_level::{self, Plugin};
use crate::verdict::Verdict;

/// The `kind` of a `TuneResult` document.
pub const TUNE_KIND: &str = "lsm-navigator/tune-result";
/// The `version` of a `TuneResult` document.
pub const TUNE_VERSION: u32 = 1;
/// Workloads drawn from the ρ-neighbourhood for the distribution chart.
pub const NEIGHBOUR_SAMPLES: usize = 1_000;

/// One design as the tuner priced it.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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

    /// The cost the headline gain measures at `rho`: the worst case within ρ when ρ > 0 (what the
    /// robust search minimises), else `ranked` (what the nominal one does).
    pub fn headline_cost(&self, rho: f64) -> f64 {
        if rho > 0.0 { self.worst } else { self.ranked() }
    }
}

/// The steady-state cost of a design: lookups as the run replays them, each write at its share of
/// the flushes and merges it will cause (`steady`: Monkey's and Dostoevsky's amortised cost), so a
/// design that writes more is never free, even when the run ends before its next flush.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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

impl Neighbourhood {
    /// Each design's cost on every mix of `samples`, sorted ascending.
    pub(crate) fn over(samples: &[[f64; 4]], current: &Priced, nominal: &Priced, robust: &Priced) -> Neighbourhood {
        let on = |p: &Priced| costs_over(samples, &p.ranked_costs());
        Neighbourhood { samples: samples.len(), current: on(current), nominal: on(nominal), robust: on(robust) }
    }
}

/// The result document: the same from the page and from `lsm tune`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "TuneResultFields"))]
pub struct TuneResult {
    /// Document type; always `TUNE_KIND` ("lsm-navigator/tune-result").
    #[cfg_attr(feature = "ts", ts(type = "\"lsm-navigator/tune-result\""))]
    pub kind: String,
    /// Always `TUNE_VERSION` (1).
    #[cfg_attr(feature = "ts", ts(type = "1"))]
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
    #[cfg_attr(feature = "ts", ts(type = "\"nominal\" | \"robust\""))]
    pub recommended: String,
    /// Robust over nominal at the expected workload, minus 1 (what robustness costs).
    pub expected_loss: f64,
    /// Predicted gain of the recommendation over the current design in the run as played, in I/O
    /// per operation (what the proof measures); the headline gain may measure something else
    /// (`headline.measures`).
    pub predicted_gain: f64,
    /// The one gain the page, the table, REPORT.md and the CLI state for this recommendation, with
    /// the model's error around it, and what it measures.
    #[serde(default)]
    pub headline: Headline,
    /// Designs priced, the current one included.
    pub candidates: usize,
    /// The three designs' costs on workloads sampled within ρ, for the distribution chart.
    pub neighbourhood: Neighbourhood,
    /// The current and the recommended design with twice the data (the same operations): a
    /// design tuned to one data size (a tree that happens to hold one run) can lose as it grows.
    pub grown: Grown,
    /// What only a RocksDB search gives (a design imported from RocksDB tuned for RocksDB): the
    /// verdict, the option diff, the plugin. Its fields sit at the top level of the document.
    #[serde(flatten)]
    // ts-rs cannot flatten an `Option`: `TuneResultDocument` adds these fields to the TypeScript type.
    #[cfg_attr(feature = "ts", ts(skip))]
    pub rocksdb: Option<RocksdbAdvice>,
}

/// The recommendation's one headline gain: what the search ranked and judged by (the verdict's
/// gain for a RocksDB search), with the range the model's stated error allows, for "change" and
/// "keep" alike.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Headline {
    /// 1 − recommended / current, in the measure below.
    pub gain: f64,
    /// The least gain the model's error allows.
    pub low: f64,
    /// The largest.
    pub high: f64,
    /// Keep your design: the RocksDB verdict's range holds 0, or the search found nothing better;
    /// the recommendation is then the current design (`TuneResult::recommendation`).
    pub keep: bool,
    /// What the gain measures, in words: "steady-state I/O per operation", "the worst case within
    /// ρ = 0.5 of the steady-state I/O per operation", "I/O per operation in the run as played".
    pub measures: String,
    /// Each design the page's table shows, priced in that measure, so every row's gain is the
    /// headline's kind of gain (the recommended row's is `gain` itself).
    #[serde(default)]
    pub designs: HeadlineDesigns,
}

/// A design's cost in the headline's measure (`Priced::headline_cost`) and its gain over the
/// current design's (1 − cost / current; 0 when the current design costs nothing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct InHeadline {
    /// The cost, in the unit ranked by.
    pub cost: f64,
    /// 1 − cost / the current design's cost.
    pub gain: f64,
}

/// The three designs the result prices, each in the headline's measure.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct HeadlineDesigns {
    /// The design tuned from (its gain is 0).
    pub current: InHeadline,
    /// The nominal design.
    pub nominal: InHeadline,
    /// The robust design.
    pub robust: InHeadline,
}

impl HeadlineDesigns {
    /// The designs priced at `rho` in the headline's measure.
    pub(crate) fn at(rho: f64, current: &Priced, nominal: &Priced, robust: &Priced) -> HeadlineDesigns {
        let base = current.headline_cost(rho);
        let of = |p: &Priced| {
            let cost = p.headline_cost(rho);
            // The verdict's own formula (and its 0 for a design that costs nothing), so the
            // recommended row's gain is the headline's to the last bit.
            InHeadline { cost, gain: if base > 0.0 { 1.0 - cost / base } else { 0.0 } }
        };
        HeadlineDesigns { current: of(current), nominal: of(nominal), robust: of(robust) }
    }
}

/// What a headline gain measures, in words: the cost in `unit` (`where_`: "in the run as played",
/// "in the steady state"), or its worst case within ρ.
pub(crate) fn measure(rho: f64, unit: &str, where_: &str) -> String {
    if rho > 0.0 {
        format!("the worst case within ρ = {rho} of the {unit} {where_}")
    } else {
        format!("{unit} {where_}")
    }
}

impl Headline {
    /// The headline a verdict gives, measuring `measures`, with the designs in that measure.
    pub(crate) fn of(v: &Verdict, measures: String, designs: HeadlineDesigns) -> Headline {
        Headline { gain: v.gain, low: v.low, high: v.high, keep: v.keep, measures, designs }
    }
}

/// The TypeScript type of the whole `TuneResult` document (`TuneResult`). ts-rs derives every field
/// but the flattened `rocksdb` (as `TuneResultFields`), since it cannot flatten an `Option`; this
/// adds what serde reads there: every field of `RocksdbAdvice` at the top level, or none of them.
#[cfg(feature = "ts")]
pub struct TuneResultDocument;

#[cfg(feature = "ts")]
impl ts_rs::TS for TuneResultDocument {
    type WithoutGenerics = Self;
    type OptionInnerType = Self;

    fn name(_: &ts_rs::Config) -> String {
        "TuneResult".into()
    }

    fn inline(cfg: &ts_rs::Config) -> String {
        let advice = <RocksdbAdvice as ts_rs::TS>::name(cfg);
        format!("{} & ({advice} | {{ [K in keyof {advice}]?: never }})", <TuneResult as ts_rs::TS>::name(cfg))
    }

    fn decl(cfg: &ts_rs::Config) -> String {
        format!("type TuneResult = {};", Self::inline(cfg))
    }

    fn decl_concrete(cfg: &ts_rs::Config) -> String {
        Self::decl(cfg)
    }

    fn docs() -> Option<String> {
        <TuneResult as ts_rs::TS>::docs()
    }

    fn visit_dependencies(v: &mut impl ts_rs::TypeVisitor) {
        v.visit::<TuneResult>();
        v.visit::<RocksdbAdvice>();
    }

    fn output_path() -> Option<std::path::PathBuf> {
        Some("TuneResult.ts".into())
    }
}

/// What only the search over RocksDB's own knobs gives: the memory as RocksDB charges it, the
/// steady-state gain and its verdict, the option diff, and the plugin a recommendation may need.
/// The required fields (`write_buffers`, `steady_gain`, `verdict`) make a document without them
/// read back as no advice.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RocksdbAdvice {
    /// RocksDB's `max_write_buffer_number` the memory was charged with.
    pub write_buffers: u32,
    /// Predicted gain of the steady-state cost the search ranks by.
    pub steady_gain: f64,
    /// The gain with the model's error around it, and "keep" when that range holds 0.
    pub verdict: Verdict,
    /// The recommendation as RocksDB options, old → new, each with its reason and share of the
    /// gain (empty when the verdict is "keep").
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
    /// The process the run was priced under (`TuneOptions::process`).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub process: crate::predict::Process,
    /// `predicted_gain`'s range over the process's timing scenarios (level 0 at open, the open
    /// compaction's duration; `predict::process`): [min, max]. None under `continue`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub predicted_gain_range: Option<[f64; 2]>,
}

/// A plugin the recommendation cannot run without.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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

/// The predicted cost of the current and the recommended design with twice the preload, the
/// run's operations unchanged.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Grown {
    /// Preload entries of the doubled workload.
    pub records: u64,
    /// Predicted I/O per operation of the current design at that size.
    pub current: f64,
    /// Predicted I/O per operation of the recommended design at that size.
    pub recommended: f64,
}

impl Grown {
    /// Both designs predicted with twice the preload, the run's operations unchanged.
    pub(crate) fn of(workload: &Workload, current: &EngineConfig, chosen: &EngineConfig) -> Result<Grown> {
        let mut doubled = workload.clone();
        doubled.preload.entries = workload.preload.entries.saturating_mul(2).max(1);
        // A fixed key space (a db_bench line's ids) doubles with it, so it still exceeds them.
        match &mut doubled.db_bench {
            Some(play) => play.num = play.num.saturating_mul(2),
            None => doubled.preload.key_space = workload.preload.key_space.saturating_mul(2),
        }
        let at_double = Predictor::new(&doubled)?;
        Ok(Grown {
            records: doubled.preload.entries,
            current: at_double.predict(current, predict::SAMPLES)?.expected,
            recommended: at_double.predict(chosen, predict::SAMPLES)?.expected,
        })
    }
}

impl TuneResult {
    /// The recommended design: the current one when the headline says keep (a gain inside the
    /// model's error is no reason to change), else `robust` when ρ > 0, `nominal` otherwise.
    pub fn recommendation(&self) -> &Priced {
        if self.headline.keep {
            &self.current
        } else if self.recommended == "robust" {
            &self.robust
        } else {
            &self.nominal
        }
    }

    /// The document as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

/// The cost of class costs `costs` on each sampled workload mix, sorted ascending (the
/// neighbourhood chart's series).
fn costs_over(samples: &[[f64; 4]], costs: &[f64; 4]) -> Vec<f64> {
    let mut v: Vec<f64> = samples.iter().map(|m| (0..4).map(|i| m[i] * costs[i]).sum()).collect();
    v.sort_by(f64::total_cmp);
    v
}

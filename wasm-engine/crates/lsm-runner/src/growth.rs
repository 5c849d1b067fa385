//! Monkey's Figure 12A measured on the engine: zero-result lookup cost as the data doubles,
//! for uniform filters, Monkey sized at birth and Monkey re-optimised, next to the exact optimum
//! for the tree each policy actually built (Monkey's allocator over the runs measured).
//!
//! One tree per policy grows by inserts; at every power of two from 2^`from_log2` to
//! 2^`to_log2` entries it answers `lookups` zero-result lookups and the data pages they read are
//! counted. Inserted keys and probed keys come from one bijection of even and odd numbers, so
//! every probe is a true zero-result lookup and every policy sees the same keys in the same order.
//! Steppable, so the browser's worker can report progress and stop on a cancel.

use serde::{Deserialize, Serialize};

use lsm_core::allocation::{RunWeight, optimal_fprs};
use lsm_core::config::{Allocation, EngineConfig, MonkeyPolicy};
use lsm_core::error::{Error, Result};
use lsm_core::hash::mix;
use lsm_engine::engine::{Engine, Merging};
use lsm_engine::stats::OpClass;
use lsm_engine::storage::MemStorage;

/// The `kind` field of every `GrowthResult`.
pub const GROWTH_KIND: &str = "lsm-navigator/filter-growth";
/// Allowed `from_log2` and `to_log2`, inclusive: trees of 2^6 to 2^26 entries.
pub const LOG2_RANGE: (u32, u32) = (6, 26);
/// Allowed `lookups` per size, inclusive.
pub const LOOKUPS_RANGE: (u64, u64) = (100, 10_000_000);
const KEY_BYTES: usize = 16;

/// How a grown tree sizes its filters: one tree is grown per policy. JSON: `uniform`, `monkey_at_birth`,
/// `monkey_reoptimised`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum GrowthPolicy {
    /// The same bits per key in every run (`Allocation::Uniform`).
    Uniform,
    /// Monkey's allocation, each filter sized once when its run is written (`MonkeyPolicy::AtBirth`).
    MonkeyAtBirth,
    /// Monkey's allocation, filters brought back toward the optimum as runs come and go
    /// (`MonkeyPolicy::Reoptimised`).
    MonkeyReoptimised,
}

impl GrowthPolicy {
    /// Every policy, in the order a spec without `policies` grows them.
    pub const ALL: [GrowthPolicy; 3] =
        [GrowthPolicy::Uniform, GrowthPolicy::MonkeyAtBirth, GrowthPolicy::MonkeyReoptimised];

    /// The label charts and the CLI print ("uniform", "Monkey at birth", "Monkey re-optimised").
    pub fn name(self) -> &'static str {
        match self {
            GrowthPolicy::Uniform => "uniform",
            GrowthPolicy::MonkeyAtBirth => "Monkey at birth",
            GrowthPolicy::MonkeyReoptimised => "Monkey re-optimised",
        }
    }

    fn apply(self, config: &mut EngineConfig) {
        let (allocation, policy) = match self {
            GrowthPolicy::Uniform => (Allocation::Uniform, MonkeyPolicy::AtBirth),
            GrowthPolicy::MonkeyAtBirth => (Allocation::Monkey, MonkeyPolicy::AtBirth),
            GrowthPolicy::MonkeyReoptimised => (Allocation::Monkey, MonkeyPolicy::Reoptimised),
        };
        config.filter.allocation = allocation;
        config.filter.monkey_policy = policy;
    }
}

/// What to measure: the design (its filter allocation is set per policy), the sizes and lookups.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct GrowthSpec {
    /// The design; each policy overrides its `filter.allocation` and `filter.monkey_policy`.
    pub config: EngineConfig,
    /// The first size measured: 2^`from_log2` entries (within `LOG2_RANGE`).
    pub from_log2: u32,
    /// The last size measured: 2^`to_log2` entries (within `LOG2_RANGE`, ≥ `from_log2`).
    pub to_log2: u32,
    /// Zero-result lookups at each size.
    pub lookups: u64,
    /// Value bytes of every entry (keys are 16 B).
    pub value_bytes: u32,
    /// The policies to grow a tree for, in this order (JSON default: all of `GrowthPolicy::ALL`).
    #[serde(default = "all_policies")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub policies: Vec<GrowthPolicy>,
}

fn all_policies() -> Vec<GrowthPolicy> {
    GrowthPolicy::ALL.to_vec()
}

impl GrowthSpec {
    /// Check the design and every field against its range; the error names the first field out of it.
    pub fn validate(&self) -> Result<()> {
        self.config.validate()?;
        let (lo, hi) = LOG2_RANGE;
        for (field, v) in [("from_log2", self.from_log2), ("to_log2", self.to_log2)] {
            if !(lo..=hi).contains(&v) {
                return Err(Error::invalid(field, format!("must be an integer in [{lo}, {hi}], got {v}")));
            }
        }
        if self.to_log2 < self.from_log2 {
            return Err(Error::invalid(
                "to_log2",
                format!("must be ≥ from_log2 ({}), got {}", self.from_log2, self.to_log2),
            ));
        }
        let (llo, lhi) = LOOKUPS_RANGE;
        if !(llo..=lhi).contains(&self.lookups) {
            return Err(Error::invalid(
                "lookups",
                format!("must be an integer in [{llo}, {lhi}], got {}", self.lookups),
            ));
        }
        if self.policies.is_empty() {
            return Err(Error::invalid(
                "policies",
                "must name at least one of uniform, monkey_at_birth, monkey_reoptimised",
            ));
        }
        let max_value = lsm_engine::page::max_entry_bytes(self.config.page_bytes).saturating_sub(KEY_BYTES);
        if self.value_bytes as usize > max_value {
            return Err(Error::invalid(
                "value_bytes",
                format!("must be in [0, {max_value}] for {} B pages, got {}", self.config.page_bytes, self.value_bytes),
            ));
        }
        Ok(())
    }

    fn sizes(&self) -> impl Iterator<Item = u64> {
        (self.from_log2..=self.to_log2).map(|e| 1u64 << e)
    }

    /// Inserts and lookups the whole measurement performs.
    pub fn total_ops(&self) -> u64 {
        let points = u64::from(self.to_log2 - self.from_log2 + 1);
        self.policies.len() as u64 * ((1u64 << self.to_log2) + points * self.lookups)
    }
}

/// One policy at one size.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct GrowthPoint {
    /// The policy whose tree was measured.
    pub policy: GrowthPolicy,
    /// Entries inserted so far (some may still be in the buffer).
    pub entries: u64,
    /// Entries of each run, top level first.
    pub runs: Vec<u64>,
    /// Data pages read per zero-result lookup, measured.
    pub io_per_lookup: f64,
    /// Σ of the runs' filter FPRs as built: what this tree's filters should measure.
    pub expected_io: f64,
    /// Monkey's optimum for these very runs: the budget split so FPR is proportional to size.
    pub optimum_io: f64,
    /// Filter bits per entry in runs.
    pub bits_per_key: f64,
    /// Filter rebuilds and the data pages they read since the start (re-optimised only).
    pub rebuilds: u64,
    /// Data pages those rebuilds read, since the start.
    pub rebuild_pages: u64,
}

/// How far a growth measurement has come, returned by every `Growth::step`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct GrowthProgress {
    /// Inserts and lookups done so far, over every policy.
    pub done: u64,
    /// Inserts and lookups the whole measurement performs (`GrowthSpec::total_ops`).
    pub total: u64,
    /// The policy whose tree is growing (the last one once finished).
    pub policy: GrowthPolicy,
    /// Entries inserted into that policy's tree so far.
    pub entries: u64,
    /// Every policy's tree has been grown and measured.
    pub finished: bool,
}

/// What a growth measurement found: its spec and the points measured.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct GrowthResult {
    /// Always `GROWTH_KIND`.
    #[cfg_attr(feature = "ts", ts(type = "\"lsm-navigator/filter-growth\""))]
    pub kind: String,
    /// The spec measured.
    pub spec: GrowthSpec,
    /// One point per policy and size: policies in spec order, each one's sizes ascending.
    pub points: Vec<GrowthPoint>,
}

fn key(n: u64) -> [u8; KEY_BYTES] {
    let mut k = [0u8; KEY_BYTES];
    // `mix` is a bijection: distinct numbers give distinct keys, in an order unrelated to their value.
    k[..8].copy_from_slice(&mix(n).to_be_bytes());
    k[8..].copy_from_slice(&n.to_be_bytes());
    k
}

/// A growth measurement in progress: one in-memory tree at a time (policy by policy), advanced by `step`
/// so a worker can report progress and stop on a cancel.
pub struct Growth {
    spec: GrowthSpec,
    policy: usize,
    engine: Option<Engine>,
    inserted: u64,
    /// Lookups done at the current size (`None` while inserting toward it).
    probing: Option<u64>,
    io_before: u64,
    next_size: usize,
    done: u64,
    value: Vec<u8>,
    points: Vec<GrowthPoint>,
}

impl Growth {
    /// Validate `spec`; nothing is built or inserted before the first `step`.
    pub fn new(spec: GrowthSpec) -> Result<Growth> {
        spec.validate()?;
        let value = vec![b'v'; spec.value_bytes as usize];
        Ok(Growth {
            spec,
            policy: 0,
            engine: None,
            inserted: 0,
            probing: None,
            io_before: 0,
            next_size: 0,
            done: 0,
            value,
            points: Vec::new(),
        })
    }

    /// Whether every policy's tree has been grown and measured.
    pub fn finished(&self) -> bool {
        self.policy >= self.spec.policies.len()
    }

    /// Operations done and to do, and the tree growing.
    pub fn progress(&self) -> GrowthProgress {
        GrowthProgress {
            done: self.done,
            total: self.spec.total_ops(),
            policy: self.spec.policies[self.policy.min(self.spec.policies.len() - 1)],
            entries: self.inserted,
            finished: self.finished(),
        }
    }

    /// The points measured so far (all of them once `finished`).
    pub fn result(&self) -> GrowthResult {
        GrowthResult { kind: GROWTH_KIND.into(), spec: self.spec.clone(), points: self.points.clone() }
    }

    /// Advance by about `max_ops` inserts and lookups.
    pub fn step(&mut self, max_ops: u64) -> Result<GrowthProgress> {
        let mut budget = max_ops.max(1);
        while budget > 0 && !self.finished() {
            let policy = self.spec.policies[self.policy];
            if self.engine.is_none() {
                let mut config = self.spec.config.clone();
                policy.apply(&mut config);
                let mut engine = Engine::create(config, Box::new(MemStorage::new()))?;
                // Lookups are measured on the tree each size gives, every merge installed.
                engine.merging = Merging::Inline;
                self.engine = Some(engine);
                self.inserted = 0;
                self.next_size = 0;
                self.probing = None;
            }
            let Some(engine) = self.engine.as_mut() else { break };
            let Some(size) = self.spec.sizes().nth(self.next_size) else {
                self.engine = None;
                self.policy += 1;
                continue;
            };
            match self.probing {
                None => {
                    let n = (size - self.inserted).min(budget);
                    for i in self.inserted..self.inserted + n {
                        engine.put(&key(2 * i), &self.value)?;
                    }
                    self.inserted += n;
                    self.done += n;
                    budget -= n;
                    if self.inserted == size {
                        self.io_before = zero_result_pages(engine);
                        self.probing = Some(0);
                    }
                }
                Some(done) => {
                    let n = (self.spec.lookups - done).min(budget);
                    // Probe keys differ per size, so no size measures the one before it again.
                    let base = self.next_size as u64 * self.spec.lookups;
                    for j in base + done..base + done + n {
                        engine.get(&key(2 * j + 1))?;
                    }
                    self.done += n;
                    budget -= n;
                    if done + n < self.spec.lookups {
                        self.probing = Some(done + n);
                    } else {
                        let measured = zero_result_pages(engine) - self.io_before;
                        self.points.push(point(policy, engine, size, measured as f64 / self.spec.lookups as f64));
                        self.probing = None;
                        self.next_size += 1;
                    }
                }
            }
        }
        Ok(self.progress())
    }

    /// Run to the end.
    pub fn run(mut self) -> Result<GrowthResult> {
        while !self.finished() {
            self.step(1 << 20)?;
        }
        Ok(self.result())
    }
}

fn zero_result_pages(engine: &Engine) -> u64 {
    engine.stats().total_reads(OpClass::GetZeroResult).page_ios()
}

fn point(policy: GrowthPolicy, engine: &Engine, entries: u64, io_per_lookup: f64) -> GrowthPoint {
    let tree = engine.tree();
    let runs: Vec<_> = tree.levels.iter().flat_map(|l| l.runs.iter()).collect();
    let run_entries: Vec<u64> = runs.iter().map(|r| r.entries).collect();
    let held: u64 = run_entries.iter().sum();
    let bits: u64 = runs.iter().map(|r| r.filter_bits).sum();
    let weights: Vec<RunWeight> = run_entries.iter().map(|&e| RunWeight { entries: e as f64, weight: 1.0 }).collect();
    let budget = engine.config().filter.bits_per_key * held as f64;
    let resizing = engine.stats().levels.iter().fold(lsm_engine::stats::ResizeCounters::default(), |mut a, l| {
        a.add(&l.filter_resizing);
        a
    });
    GrowthPoint {
        policy,
        entries,
        runs: run_entries,
        io_per_lookup,
        expected_io: runs.iter().map(|r| r.filter_fpr).sum(),
        optimum_io: optimal_fprs(&weights, budget).iter().sum(),
        bits_per_key: if held == 0 { 0.0 } else { bits as f64 / held as f64 },
        rebuilds: resizing.rebuilds,
        rebuild_pages: resizing.pages_read,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(size_ratio: f64, bits: f64, to_log2: u32) -> GrowthSpec {
        let mut config = EngineConfig::uniform_shape(size_ratio, 1, Allocation::Monkey, bits);
        config.buffer_bytes = 16 << 10;
        GrowthSpec { config, from_log2: 12, to_log2, lookups: 20_000, value_bytes: 100, policies: all_policies() }
    }

    #[test]
    fn keys_are_distinct_and_probes_never_hit() {
        let inserted: rustc_hash::FxHashSet<[u8; 16]> = (0..10_000).map(|i| key(2 * i)).collect();
        assert_eq!(inserted.len(), 10_000);
        assert!((0..10_000).all(|j| !inserted.contains(&key(2 * j + 1))));
    }

    #[test]
    fn bad_specs_name_the_field() {
        let mut s = spec(2.0, 5.0, 14);
        s.to_log2 = 40;
        assert!(s.validate().unwrap_err().to_string().contains("to_log2"));
        let mut s = spec(2.0, 5.0, 14);
        s.lookups = 1;
        assert!(s.validate().unwrap_err().to_string().contains("lookups"));
        let mut s = spec(2.0, 5.0, 14);
        s.value_bytes = 1 << 20;
        assert!(s.validate().unwrap_err().to_string().contains("value_bytes"));
    }

    /// Leveling, T = 2, 5 bits/key, 2¹² … 2¹⁶ entries: re-optimised within 5% of the optimum for
    /// its tree, at birth no better than re-optimised, neither above uniform (beyond noise).
    #[test]
    fn reoptimised_tracks_the_optimum_as_the_tree_grows() {
        let result = Growth::new(spec(2.0, 5.0, 16)).unwrap().run().unwrap();
        assert_eq!(result.points.len(), 15);
        for size in 12..=16 {
            let at = |p: GrowthPolicy| result.points.iter().find(|x| x.policy == p && x.entries == 1 << size).unwrap();
            let (u, b, r) =
                (at(GrowthPolicy::Uniform), at(GrowthPolicy::MonkeyAtBirth), at(GrowthPolicy::MonkeyReoptimised));
            let noise = 3.0 * (u.io_per_lookup / 20_000.0).sqrt();
            assert!(r.io_per_lookup <= r.optimum_io * 1.05 + noise, "2^{size}: {r:?}");
            assert!(r.io_per_lookup <= u.io_per_lookup + noise, "2^{size}: {r:?} vs {u:?}");
            assert!(r.io_per_lookup <= b.io_per_lookup + noise, "2^{size}: {r:?} vs {b:?}");
            assert!(r.bits_per_key <= 5.0 * 1.01, "budget: {r:?}");
        }
    }
}

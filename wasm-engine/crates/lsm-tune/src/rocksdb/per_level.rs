//! Per-level filter bits on RocksDB through the shipped C++ policy, for a user who accepts a
//! plugin (`lsm tune --target rocksdb --plugin per-level-filters`, the Tune page's checkbox).
//!
//! An OPTIONS file holds one `filter_policy`, so without a plugin every level gets the same bits
//! per key. The policy `lsm export --format rocksdb-cpp` writes (`policy.h`,
//! `lsm_navigator::NewPerLevelBloomPolicy`) gives each level the bits the design lists for it, by
//! the level RocksDB builds a table for. The search here splits the design's filter memory over
//! RocksDB's levels as Monkey does (`lsm_core::allocation::optimal_fprs`: minimise the expected
//! false positives Σ wᵢ·pᵢ for the same Σ nᵢ·bitsᵢ), each level weighted by how often a lookup
//! probes it and finds nothing there:
//!
//! * level 0: its files (half its trigger on average, each a flushed memtable) are probed by
//!   every lookup;
//! * a deeper level: by every zero-result lookup, and by the non-zero-result lookups whose key
//!   lies deeper (the level's share of the data below it; the last level's filter saves such a
//!   lookup nothing, which is why RocksDB's `optimize_filters_for_hits` drops it). Key
//!   popularity is taken as uniform over the data here; the RocksDB predictor then prices the
//!   design with the workload's own distribution and the block cache, and the search keeps it
//!   only if that price is lower.
//!
//! Level sizes are the steady state's (`steady::leveled_sizes`: static targets from the top, or
//! dynamic ones from the last level up). Uniform bits are a feasible split of the same memory, so
//! Monkey's is never worse in that model (`tests`). Ribbon filters and universal compaction are
//! left uniform: the bits-to-FPR law used is Bloom's, and universal compaction places runs in
//! levels by age, not by the level RocksDB builds them for.

use std::str::FromStr;

use lsm_core::allocation::{RunWeight, bits_per_key_for_fpr, optimal_fprs};
use lsm_core::config::{Allocation, BITS_PER_KEY_RANGE, EngineConfig, FilterKind, Granularity};
use lsm_core::error::{Error, Result};
use serde::{Deserialize, Serialize};

use super::steady;

/// A plugin the user accepts building into their application.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum Plugin {
    /// `policy.h`: a C++ `FilterPolicy` giving each RocksDB level its own bits per key.
    PerLevelFilters,
}

impl Plugin {
    /// Its name on the command line and in the wasm options (`per-level-filters`).
    pub fn name(self) -> &'static str {
        match self {
            Plugin::PerLevelFilters => "per-level-filters",
        }
    }
}

impl FromStr for Plugin {
    type Err = Error;
    fn from_str(s: &str) -> Result<Plugin> {
        match s {
            "per-level-filters" => Ok(Plugin::PerLevelFilters),
            other => Err(Error::invalid("plugin", format!("must be per-level-filters, got \"{other}\""))),
        }
    }
}

/// The name RocksDB records for the shipped policy (its `Name()`).
pub const POLICY_NAME: &str = "lsm_navigator.PerLevelBloomPolicy";
/// The bundle's file holding the policy, as the referee (referee_setup.cc) and per_level_filters.cc include it.
pub const POLICY_FILE: &str = "policy.h";

/// Whether `config` gives its levels bits an OPTIONS file cannot state: explicit bits that are
/// neither one value everywhere nor one value with none on the last level
/// (`optimize_filters_for_hits`). Such a design needs the per-level policy.
pub fn needs_plugin(config: &EngineConfig) -> bool {
    if config.filter.allocation != Allocation::Explicit || config.levels.len() < 2 {
        return false;
    }
    let bits: Vec<f64> = config.levels.iter().map(|l| l.bits_per_key.unwrap_or(0.0)).collect();
    let (upper, last) = bits.split_at(bits.len() - 1);
    let same = |a: f64, b: f64| (a - b).abs() < 1e-9;
    let upper_uniform = upper.iter().all(|&b| same(b, upper[0]));
    !(upper_uniform && (same(last[0], upper[0]) || last[0] == 0.0))
}

/// Bits per key by RocksDB level (index = `level_at_creation`, L0 first) of a design that
/// needs the plugin; empty otherwise.
pub fn bits_by_level(config: &EngineConfig) -> Vec<f64> {
    if !needs_plugin(config) {
        return Vec::new();
    }
    config.levels.iter().map(|l| l.bits_per_key.unwrap_or(0.0)).collect()
}

/// "L0 7.2, L1 9.8, … bits/key".
pub fn bits_summary(bits: &[f64]) -> String {
    let levels: Vec<String> = bits.iter().enumerate().map(|(i, b)| format!("L{i} {}", round3(*b))).collect();
    format!("{} bits/key", levels.join(", "))
}

fn round3(b: f64) -> f64 {
    (b * 1000.0).round() / 1000.0
}

/// What the split needs of the workload: its data and the shares of its lookup classes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Allocator {
    /// Live keys and their bytes.
    pub(crate) data: steady::Data,
    pub(crate) key_bytes: u64,
    pub(crate) value_bytes: u64,
    /// Shares of zero-result and non-zero-result lookups.
    pub(crate) zero: f64,
    pub(crate) existing: f64,
}

impl Allocator {
    /// Entries and weight (filter probes that find nothing, per lookup, up to a constant) of
    /// each RocksDB level of `config` (index 0 = L0), over `num_levels` levels; None for a design
    /// the split does not apply to (universal, Ribbon, no filters).
    pub(crate) fn loads(&self, config: &EngineConfig) -> Option<Vec<RunWeight>> {
        if !applies(config) {
            return None;
        }
        let entry = self.data.entry_bytes.max(1.0);
        let n = self.data.keys * entry;
        let flushed = steady::flushed_bytes(config, self.key_bytes, self.value_bytes) / entry;
        let trigger = f64::from(config.levels.first().map_or(4, |l| l.max_runs + 1));
        // Level 0 holds 0 … trigger − 1 files between its compactions: half of that on average;
        // the levels below hold the rest of the data.
        let l0_files = ((trigger - 1.0) / 2.0).max(0.5);
        let l0_entries = (l0_files * flushed).min(self.data.keys);
        let base = config.buffer_bytes as f64 * config.levels.first().map_or(4.0, |l| l.size_ratio);
        let multiplier = config.levels.get(1).map_or(10.0, |l| l.size_ratio);
        let dynamic = config.compaction.dynamic_level_bytes;
        let sizes = steady::leveled_sizes(n - l0_entries * entry, base, multiplier, dynamic);
        let num_levels = (config.compaction.num_levels as usize).max(sizes.len() + 1).max(2);
        // RocksDB level of sizes[0]: L1 with static targets, the base level with dynamic ones.
        let first = if dynamic { num_levels - sizes.len() } else { 1 };
        let mut entries = vec![0.0; num_levels];
        for (i, s) in sizes.iter().enumerate() {
            entries[first + i] = s / entry;
        }
        let total: f64 = entries.iter().sum();
        let mut out = vec![RunWeight { entries: l0_entries, weight: l0_files * (self.zero + self.existing) }];
        let mut below = total;
        for &e in &entries[1..] {
            below -= e;
            let deeper = if total > 0.0 { below.max(0.0) / total } else { 0.0 };
            out.push(RunWeight { entries: e, weight: self.zero + self.existing * deeper });
        }
        Some(out)
    }

    /// `config` with its filter memory (`filter.bits_per_key` × the entries of `loads`) split
    /// over its levels as Monkey does: explicit bits per RocksDB level, `num_levels` of them, and
    /// `filter.bits_per_key` the mean they spend (less than asked where a level reached the
    /// 64-bit cap; the memory charge counts it). None where the split does not apply, or where it
    /// comes out as something an OPTIONS file says (one value, or one value with none on the last
    /// level: the other knobs search those).
    pub(crate) fn allocate(&self, config: &EngineConfig) -> Option<EngineConfig> {
        let loads = self.loads(config)?;
        let bits = split(&loads, config.filter.bits_per_key);
        let entries: f64 = loads.iter().map(|r| r.entries).sum();
        let spent: f64 = loads.iter().zip(&bits).map(|(r, b)| r.entries * b).sum();
        let mut c = config.clone();
        if entries > 0.0 {
            c.filter.bits_per_key = round3(spent / entries);
        }
        c.filter.allocation = Allocation::Explicit;
        if c.filter.kind == FilterKind::Bloom {
            c.filter.kind = FilterKind::FastLocalBloom;
        }
        let last = c.levels.last()?.clone();
        c.levels.truncate(bits.len());
        while c.levels.len() < bits.len() {
            c.levels.push(last.clone());
        }
        for (l, b) in c.levels.iter_mut().zip(bits) {
            l.bits_per_key = Some(b);
        }
        needs_plugin(&c).then_some(c)
    }
}

/// Whether a design's filters can be split per level: leveled compaction by file, Bloom filters,
/// some filter memory.
pub(crate) fn applies(config: &EngineConfig) -> bool {
    config.compaction.universal.is_none()
        && config.compaction.granularity == Granularity::File
        && config.levels.len() >= 2
        && config.filter.bits_per_key > 0.0
        && config.filter.kind != FilterKind::Ribbon
        && config.filter.kind != FilterKind::Modular
}

/// Monkey's bits per key for each of `loads` with `mean` bits per key over all their entries,
/// as RocksDB builds them: millibits, none under 0.5 bits, 1 bit from 0.5 to 1. Levels with no
/// entries (yet) get the bits of the nearest level below that has some, else above: a file
/// RocksDB builds there later gets bits sized for a level like it.
pub(crate) fn split(loads: &[RunWeight], mean: f64) -> Vec<f64> {
    let total: f64 = loads.iter().map(|r| r.entries).sum();
    let fprs = optimal_fprs(loads, mean * total);
    let mut bits: Vec<Option<f64>> = loads
        .iter()
        .zip(&fprs)
        .map(|(r, &p)| {
            (r.entries > 0.0).then(|| {
                let b = bits_per_key_for_fpr(p).clamp(BITS_PER_KEY_RANGE.0, BITS_PER_KEY_RANGE.1);
                if b < 0.5 {
                    0.0
                } else if b < 1.0 {
                    1.0
                } else {
                    round3(b)
                }
            })
        })
        .collect();
    for i in 0..bits.len() {
        if bits[i].is_none() {
            bits[i] = bits[i + 1..].iter().flatten().next().or_else(|| bits[..i].iter().flatten().next_back()).copied();
        }
    }
    bits.into_iter().map(|b| b.unwrap_or(mean)).collect()
}

/// Expected false positives per lookup, Σ wᵢ·pᵢ, of `bits` per key on `loads` (Bloom's law,
/// FPR = e^(−bits·ln²2)): what the split minimises.
#[cfg(test)]
fn false_positives(loads: &[RunWeight], bits: &[f64]) -> f64 {
    loads
        .iter()
        .zip(bits)
        .filter(|(r, _)| r.entries > 0.0)
        .map(|(r, &b)| r.weight * (-b * lsm_core::allocation::LN2_SQ).exp())
        .sum()
}

/// Filter bits the split spends: Σ nᵢ·bitsᵢ.
#[cfg(test)]
fn bits_spent(loads: &[RunWeight], bits: &[f64]) -> f64 {
    loads.iter().zip(bits).map(|(r, b)| r.entries * b).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leveled(bits: f64, dynamic: bool) -> EngineConfig {
        // RocksDB's shape: L0 trigger 4, level base 4 memtables of 8 MiB, multiplier 10.
        let mut c = crate::rocksdb_design(4096, 4, 4.0, 10.0, 8 << 20, bits);
        c.compaction.dynamic_level_bytes = dynamic;
        c
    }

    fn allocator(zero: f64, existing: f64) -> Allocator {
        // 2,000,000 keys of 16 + 100 bytes: 232 MB, so a static tree fills L1 (32 MiB) and L2.
        Allocator {
            data: steady::Data { keys: 2_000_000.0, entry_bytes: 116.0 },
            key_bytes: 16,
            value_bytes: 100,
            zero,
            existing,
        }
    }

    #[test]
    fn monkeys_split_spends_the_same_memory_and_never_does_worse_than_uniform() {
        for (zero, existing) in [(1.0, 0.0), (0.5, 0.5), (0.1, 0.9), (0.0, 1.0)] {
            for dynamic in [false, true] {
                let a = allocator(zero, existing);
                let c = leveled(10.0, dynamic);
                let loads = a.loads(&c).expect("a leveled Bloom design");
                let bits = split(&loads, 10.0);
                let uniform = vec![10.0; loads.len()];
                let spent = bits_spent(&loads, &bits);
                let budget = bits_spent(&loads, &uniform);
                // Millibits rounding only, unless a level reached the 64 bits a level may have.
                let capped = bits.contains(&BITS_PER_KEY_RANGE.1);
                assert!(spent <= budget * (1.0 + 1e-4), "{spent} vs {budget}");
                assert!(capped || (spent / budget - 1.0).abs() < 1e-4, "{spent} vs {budget}: {bits:?}");
                let (m, u) = (false_positives(&loads, &bits), false_positives(&loads, &uniform));
                assert!(m <= u * (1.0 + 1e-3), "{zero}/{existing} dynamic {dynamic}: {m} vs uniform {u}");
            }
        }
    }

    #[test]
    fn zero_result_lookups_on_a_static_tree_gain_nearly_half() {
        // Zero-result lookups only, 10 bits/key, 2,000,000 keys of 116 B. The static tree: L0's
        // 1.5 files (on average) of one 8 MiB memtable (72,316 entries each), L1 32 MiB
        // (289,262 entries), L2 the rest (1,602,264).
        let a = allocator(1.0, 0.0);
        let c = leveled(10.0, false);
        let loads = a.loads(&c).expect("applies");
        assert_eq!(loads.len(), 7);
        assert!((loads[0].entries - 1.5 * 72_315.6).abs() < 1.0 && loads[0].weight == 1.5, "{:?}", loads[0]);
        assert!((loads[1].entries - 289_262.3).abs() < 1.0, "{:?}", loads[1]);
        assert!((loads[2].entries - 1_602_264.3).abs() < 1.0, "{:?}", loads[2]);
        assert!((loads.iter().map(|r| r.entries).sum::<f64>() - 2e6).abs() < 1e-6);
        let bits = split(&loads, 10.0);
        // Smaller levels get more bits (Monkey: FPR proportional to entries over probes).
        assert!(bits[0] > bits[1] && bits[1] > bits[2], "{bits:?}");
        assert_eq!(bits[3..], [bits[2]; 4], "empty levels take the last filled level's bits");
        let uniform = false_positives(&loads, &[10.0; 7]);
        let monkey = false_positives(&loads, &bits);
        // Uniform: 3.5 probes (1.5 + 1 + 1) at e^{-10·ln²2} each = 0.02867.
        assert!((uniform - 3.5 * (-10.0 * lsm_core::allocation::LN2_SQ).exp()).abs() < 1e-12);
        assert!((uniform - 0.028_67).abs() < 1e-5, "{uniform}");
        // Monkey (every level filtered): Σ w·p = λ·N, ln λ = −(M·ln²2 + Σ n·ln(n/w)) / N, with N
        // the entries and M = 10·N the bits: 0.01550, 46% fewer false positives in the same memory.
        let n: f64 = loads.iter().map(|r| r.entries).sum();
        let nlog: f64 = loads.iter().filter(|r| r.entries > 0.0).map(|r| r.entries * (r.entries / r.weight).ln()).sum();
        let closed = (-(10.0 * n * lsm_core::allocation::LN2_SQ + nlog) / n).exp() * n;
        assert!((monkey / closed - 1.0).abs() < 1e-3, "{monkey} vs {closed}");
        assert!((monkey - 0.015_50).abs() < 1e-4, "{monkey} ({bits:?})");
        assert!((1.0 - monkey / uniform - 0.460).abs() < 0.005, "gain {}", 1.0 - monkey / uniform);
    }

    #[test]
    fn non_zero_result_lookups_leave_the_last_level_unfiltered() {
        // Only lookups of keys that exist: the last level's filter never says "not here".
        let a = allocator(0.0, 1.0);
        let c = leveled(2.0, true);
        let loads = a.loads(&c).expect("applies");
        assert_eq!(loads[6].weight, 0.0);
        let bits = split(&loads, 2.0);
        assert_eq!(bits[6], 0.0, "{bits:?}");
        // The dynamic tree's L5 (200,000 entries) and L0 share the 4,216,947 bits.
        assert!(bits[0] > bits[5] && bits[5] > 10.0, "{bits:?}");
        let allocated = a.allocate(&c).expect("applies");
        assert!(needs_plugin(&allocated), "{:?}", allocated.levels);
        assert_eq!(bits_by_level(&allocated), bits);
        assert!((allocated.filter.bits_per_key - 2.0).abs() < 1e-3, "{}", allocated.filter.bits_per_key);
        assert!(allocated.validate().is_ok());
        // At 10 bits/key every upper level reaches the 64-bit cap: one value above a bare last
        // level, which optimize_filters_for_hits says without a plugin.
        assert!(a.allocate(&leveled(10.0, true)).is_none());
    }

    #[test]
    fn one_value_everywhere_or_none_on_the_last_level_needs_no_plugin() {
        let mut c = leveled(10.0, true);
        assert!(!needs_plugin(&c));
        c.filter.allocation = Allocation::Explicit;
        c.levels = vec![c.levels[0].clone(), c.levels[1].clone(), c.levels[1].clone()];
        for (i, l) in c.levels.iter_mut().enumerate() {
            l.bits_per_key = Some(if i == 2 { 0.0 } else { 10.0 });
        }
        assert!(!needs_plugin(&c), "optimize_filters_for_hits");
        c.levels[0].bits_per_key = Some(12.0);
        assert!(needs_plugin(&c));
        assert_eq!(bits_summary(&bits_by_level(&c)), "L0 12, L1 10, L2 0 bits/key");
        assert_eq!("per-level-filters".parse::<Plugin>().ok(), Some(Plugin::PerLevelFilters));
        assert!("monkey".parse::<Plugin>().unwrap_err().to_string().contains("per-level-filters"));
    }
}

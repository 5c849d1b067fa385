//! How an EngineConfig lands on RocksDB's structure: the compaction style, how many levels are
//! described, which engine level each RocksDB level holds, byte conversions and filter bits per
//! level. The OPTIONS file, the C++ filter policy and the importer share it so they agree.

use lsm_core::allocation::{RunWeight, bits_per_key_for_fpr, optimal_fprs};
use lsm_core::compaction::geometry;
use lsm_core::config::{Allocation, EngineConfig, Granularity, MAX_LEVELS};
use lsm_core::workload::Workload;

/// RocksDB's default `num_levels` (L0 … L6): without a workload the export describes the
/// levels such a tree has.
pub(crate) const ROCKSDB_DEFAULT_NUM_LEVELS: usize = 7;

/// Memtable bytes RocksDB spends per entry beyond key and value: the 8-byte sequence/type
/// trailer, two length varints and the skip-list node pointers (4/3 on average) with arena
/// alignment. `write_buffer_size` counts these; the engine's `buffer_bytes` does not.
pub(crate) const MEMTABLE_ENTRY_OVERHEAD: f64 = 24.0;

/// SST bytes per entry beyond key and value: the 8-byte trailer and three length varints
/// (key prefix compression ignored). Level targets count file bytes; the engine counts entries.
pub(crate) const SST_ENTRY_OVERHEAD: f64 = 11.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Style {
    /// Leveled compaction; engine level i is RocksDB's Li and L0 only stages flushes.
    Leveled,
    /// Leveled compaction with a tiered first level: engine level 1 is RocksDB's L0 (flushes
    /// kept as separate sorted runs until the trigger), engine level i+1 is Li.
    L0Tiered,
    /// Universal compaction: RocksDB's own (`compaction.universal`, engine level i + 1 is Li), or
    /// tiered levels approximated by it.
    Universal,
}

pub(crate) struct Mapping<'a> {
    pub config: &'a EngineConfig,
    /// Engine levels described (1..=depth): as deep as the workload's data reaches, or RocksDB's
    /// default tree without one, and never fewer than the design lists.
    pub depth: usize,
    pub style: Style,
    /// Key + value bytes of the workload's entries, when a workload was given.
    pub entry_bytes: Option<f64>,
}

impl<'a> Mapping<'a> {
    pub(crate) fn new(config: &'a EngineConfig, workload: Option<&Workload>) -> Mapping<'a> {
        let entry_bytes = workload.map(|w| f64::from(w.preload.key_bytes) + f64::from(w.preload.value_bytes));
        let reach = match workload {
            Some(w) => levels_reached(config, data_bytes(w)),
            None => ROCKSDB_DEFAULT_NUM_LEVELS - 1,
        };
        let depth = match config.compaction.universal {
            // Universal compaction's tree has its num_levels levels, whatever the data fills.
            Some(_) => config.compaction.num_levels as usize,
            None => reach.max(config.levels.len()),
        }
        .clamp(1, MAX_LEVELS);
        let style = classify(config, depth);
        Mapping { config, depth, style, entry_bytes }
    }

    /// Entry bytes engine level `level` holds when full. With merges by file, level 1 is
    /// bounded by its run count only; it holds up to `max_runs` buffers.
    pub(crate) fn capacity(&self, level: usize) -> f64 {
        level_capacity(self.config, level)
    }

    /// The engine level whose `size_ratio` is RocksDB's ratio between L`rocks_level` and the
    /// level above (leveled styles).
    pub(crate) fn ratio_level(&self, rocks_level: usize) -> usize {
        match self.config.compaction.granularity {
            // Engine level r+1 is RocksDB's Lr, and level r's size ratio sets level r+1's capacity.
            Granularity::File => rocks_level,
            Granularity::Level => self.engine_level(rocks_level),
        }
    }

    pub(crate) fn rocks_ratio(&self, rocks_level: usize) -> f64 {
        self.config.level(self.ratio_level(rocks_level)).size_ratio
    }

    /// `num_levels` of the RocksDB tree.
    pub(crate) fn num_levels(&self) -> usize {
        if self.config.compaction.universal.is_some() {
            return self.config.compaction.num_levels as usize;
        }
        let needed = match self.style {
            Style::L0Tiered => self.depth,
            Style::Leveled | Style::Universal => self.depth + 1,
        };
        needed.max(ROCKSDB_DEFAULT_NUM_LEVELS)
    }

    /// The engine level RocksDB level `rocks_level` holds (leveled styles).
    pub(crate) fn engine_level(&self, rocks_level: usize) -> usize {
        match self.style {
            Style::L0Tiered => rocks_level + 1,
            Style::Leveled | Style::Universal => rocks_level.max(1),
        }
    }

    /// Factor from engine buffer bytes to `write_buffer_size`.
    pub(crate) fn memtable_scale(&self) -> f64 {
        if self.config.buffer_trigger == lsm_core::config::BufferTrigger::Arena {
            return 1.0; // already in RocksDB's arena bytes
        }
        self.entry_bytes.filter(|&e| e > 0.0).map_or(1.0, |e| (e + MEMTABLE_ENTRY_OVERHEAD) / e)
    }

    /// Factor from engine entry bytes to SST bytes (level targets, file sizes).
    pub(crate) fn sst_scale(&self) -> f64 {
        self.entry_bytes.filter(|&e| e > 0.0).map_or(1.0, |e| (e + SST_ENTRY_OVERHEAD) / e)
    }

    /// Index into `config.levels` of the entry that describes engine level `level`.
    pub(crate) fn config_index(&self, level: usize) -> usize {
        level.saturating_sub(1).min(self.config.levels.len().saturating_sub(1))
    }

    /// Filter bits per key of engine levels 1..=depth. Monkey's are its optimal split of the
    /// budget over a tree whose levels are full (the engine re-splits over the runs it has).
    pub(crate) fn level_bits(&self) -> Vec<f64> {
        let c = self.config;
        match c.filter.allocation {
            Allocation::Explicit => (1..=self.depth).map(|i| c.level(i).bits_per_key.unwrap_or(0.0).max(0.0)).collect(),
            Allocation::Uniform | Allocation::Mnemosyne => vec![c.filter.bits_per_key; self.depth],
            Allocation::Monkey => self.monkey_bits(),
        }
    }

    fn monkey_bits(&self) -> Vec<f64> {
        let mut runs = Vec::new();
        let mut first_run = Vec::new();
        let mut total = 0.0;
        for level in 1..=self.depth {
            let g = geometry(self.config, level);
            let capacity = level_capacity(self.config, level);
            first_run.push(runs.len());
            for _ in 0..g.max_runs {
                runs.push(RunWeight { entries: capacity / f64::from(g.max_runs), weight: 1.0 });
            }
            total += capacity;
        }
        // Entries scale out of the optimum (only their ratios matter), so bytes stand in for entries.
        let fprs = optimal_fprs(&runs, self.config.filter.bits_per_key * total);
        first_run.iter().map(|&j| bits_per_key_for_fpr(fprs[j])).collect()
    }
}

fn level_capacity(config: &EngineConfig, level: usize) -> f64 {
    let g = geometry(config, level);
    if g.capacity.is_finite() { g.capacity } else { f64::from(g.max_runs) * config.buffer_bytes as f64 }
}

/// Entry bytes a workload leaves in the tree at most: preload plus every insert.
fn data_bytes(w: &Workload) -> f64 {
    let inserts = (w.operations as f64 * w.mix.insert).round();
    (w.preload.entries as f64 + inserts) * (f64::from(w.preload.key_bytes) + f64::from(w.preload.value_bytes))
}

/// Fewest levels whose capacities add up to `bytes`.
fn levels_reached(config: &EngineConfig, bytes: f64) -> usize {
    let mut held = 0.0;
    for level in 1..=MAX_LEVELS {
        held += level_capacity(config, level);
        if held >= bytes {
            return level;
        }
    }
    MAX_LEVELS
}

fn classify(config: &EngineConfig, depth: usize) -> Style {
    if config.compaction.universal.is_some() {
        return Style::Universal;
    }
    if config.compaction.granularity == Granularity::File {
        // Level 1 holds flushed files, as RocksDB's L0 does; deeper levels are single runs.
        return Style::L0Tiered;
    }
    let tiered = |i: usize| config.level(i).max_runs > 1;
    let deeper_tiered = (2..=depth).any(tiered);
    if !tiered(1) && !deeper_tiered {
        return Style::Leveled;
    }
    if tiered(1) && depth >= 2 && !deeper_tiered {
        return Style::L0Tiered;
    }
    // Tiered everywhere except, perhaps, the last level (lazy leveling): universal compaction.
    if (1..depth).all(tiered) && (depth > 1 || tiered(1)) {
        return Style::Universal;
    }
    if tiered(1) { Style::L0Tiered } else { Style::Leveled }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsm_core::config::LevelConfig;

    fn design(levels: &[(f64, u32)]) -> EngineConfig {
        let mut c = EngineConfig::uniform_shape(10.0, 1, Allocation::Uniform, 10.0);
        c.levels =
            levels.iter().map(|&(t, k)| LevelConfig { size_ratio: t, max_runs: k, bits_per_key: None }).collect();
        c
    }

    #[test]
    fn styles_follow_the_run_counts() {
        let m = |l: &[(f64, u32)]| Mapping::new(&design(l), None).style;
        assert_eq!(m(&[(10.0, 1)]), Style::Leveled);
        assert_eq!(m(&[(4.0, 3), (10.0, 1)]), Style::L0Tiered);
        assert_eq!(m(&[(10.0, 9)]), Style::Universal);
        assert_eq!(m(&[(7.0, 3), (7.0, 3), (7.0, 3), (5.83, 2), (4.8, 2)]), Style::Universal);
        assert_eq!(m(&[(10.0, 1), (10.0, 3), (10.0, 1)]), Style::Leveled);
    }

    #[test]
    fn depth_follows_the_workload_and_never_cuts_listed_levels() {
        let c = design(&[(10.0, 1)]);
        assert_eq!(Mapping::new(&c, None).depth, 6);
        let mut w: Workload =
            serde_json::from_str(include_str!("../../../../public/examples/zero-result-lookups.json")).unwrap();
        // 100,000 × 116 B = 11.6 MB: 1 MiB buffer, T = 10 → levels of 10, 100 MiB → 2 levels.
        assert_eq!(Mapping::new(&c, Some(&w)).depth, 2);
        w.preload.entries = 10;
        assert_eq!(Mapping::new(&c, Some(&w)).depth, 1);
        let three = design(&[(10.0, 1), (10.0, 1), (10.0, 1)]);
        assert_eq!(Mapping::new(&three, Some(&w)).depth, 3);
    }

    #[test]
    fn monkey_bits_spend_the_budget_with_more_bits_on_smaller_levels() {
        let mut c = design(&[(10.0, 1)]);
        c.filter.allocation = Allocation::Monkey;
        let m = Mapping::new(&c, None);
        let bits = m.level_bits();
        let spent: f64 = bits.iter().enumerate().map(|(i, b)| b * m.capacity(i + 1)).sum();
        let budget: f64 = (1..=m.depth).map(|i| 10.0 * m.capacity(i)).sum();
        assert!((spent - budget).abs() / budget < 1e-9);
        assert!(bits.windows(2).all(|w| w[0] > w[1]), "{bits:?}");
    }
}

//! The designs the tuner builds and how it names them: whole-level shapes, lazy leveling,
//! RocksDB's shape, Mnemosyne's filters, and one design at another filter setting for the same
//! memory (`with_bits`, the one place the buffer is derived from the memory and the bits).

use lsm_core::config::{
    Allocation, BITS_PER_KEY_RANGE, CONFIG_KIND, CONFIG_VERSION, CompactionConfig, EngineConfig, Granularity,
    LevelConfig,
};

/// The smallest buffer a candidate may have: below it, flushes (and the search) multiply.
const MIN_BUFFER_BYTES: f64 = 1_048_576.0;

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

/// Dostoevsky's lazy leveling for a tree of `levels` levels, from a design with one shape for
/// every level: levels 1 … L − 1 tiered (T − 1 runs), the deepest leveled. `None` when the tree
/// has one level, or the size ratio is too large to tier.
pub fn lazy_leveling(base: &EngineConfig, levels: usize) -> Option<EngineConfig> {
    let [only] = base.levels.as_slice() else { return None };
    let t = only.size_ratio;
    if levels < 2 || !(3.0..=16.0).contains(&t) || base.compaction.granularity != Granularity::Level {
        return None;
    }
    let tiered = LevelConfig { size_ratio: t, max_runs: (t - 1.0).round() as u32, bits_per_key: None };
    let mut c = base.clone();
    c.levels = vec![tiered.clone(); levels - 1];
    c.levels.push(LevelConfig { max_runs: 1, ..tiered });
    c.name = summary(&c);
    Some(c)
}

/// The same design with Mnemosyne's filters in place of Monkey's: the budget split over runs by
/// the lookups each one sees, once the run phase has statistics. `None` without filters to split.
pub fn mnemosyne(base: &EngineConfig) -> Option<EngineConfig> {
    if base.filter.allocation != Allocation::Monkey || base.filter.bits_per_key <= 0.0 {
        return None;
    }
    let mut c = base.clone();
    c.filter.allocation = Allocation::Mnemosyne;
    c.name = summary(&c);
    Some(c)
}

/// A design in one line.
pub fn summary(c: &EngineConfig) -> String {
    format!(
        "{}, {} filters at {} bits/key, {} buffer",
        shape_summary(c),
        allocation_name(c.filter.allocation),
        trim(c.filter.bits_per_key),
        human_bytes(c.buffer_bytes as f64)
    )
}

/// A RocksDB design in one line, in RocksDB's terms: compaction style and its sizes, filters,
/// memtable and block cache.
pub fn rocksdb_summary(c: &EngineConfig) -> String {
    let shape = match &c.compaction.universal {
        Some(u) => format!(
            "universal, trigger {}, size amplification {}%",
            u.level0_file_num_compaction_trigger, u.max_size_amplification_percent
        ),
        None => format!(
            "leveled{}, L0 trigger {}, base {}, ×{}, files {}",
            if c.compaction.dynamic_level_bytes { " (dynamic)" } else { "" },
            c.levels.first().map_or(1, |l| l.max_runs + 1),
            human_bytes(c.buffer_bytes as f64 * c.levels.first().map_or(1.0, |l| l.size_ratio)),
            trim(c.levels.get(1).map_or(10.0, |l| l.size_ratio)),
            human_bytes(c.compaction.target_file_bytes as f64)
        ),
    };
    let kind = match c.filter.kind {
        lsm_core::config::FilterKind::Ribbon => "Ribbon",
        _ => "Bloom",
    };
    let filters = if c.filter.bits_per_key <= 0.0 {
        "no filters".to_string()
    } else if crate::rocksdb::per_level::needs_plugin(c) {
        format!(
            "{kind} per level through the plugin {} ({}; {} on average)",
            crate::rocksdb::per_level::POLICY_FILE,
            crate::rocksdb::per_level::bits_summary(&crate::rocksdb::per_level::bits_by_level(c)),
            trim(c.filter.bits_per_key)
        )
    } else {
        let last = if c.filter.allocation == Allocation::Explicit { ", none on the last level" } else { "" };
        format!("{kind} {} bits/key{last}", trim(c.filter.bits_per_key))
    };
    let cached = if c.block_cache.cache_index_and_filter_blocks { ", index and filters in it" } else { "" };
    format!(
        "{shape}; {filters}; memtable {}; block cache {}{cached}",
        human_bytes(c.buffer_bytes as f64),
        human_bytes(c.block_cache.bytes as f64)
    )
}

/// The tree's shape in words: policy and size ratio of the deepest level, and merges by file.
pub fn shape_summary(c: &EngineConfig) -> String {
    let same_shape = c.levels.windows(2).all(|w| w[0].size_ratio == w[1].size_ratio && w[0].max_runs == w[1].max_runs);
    let shape = match c.levels.last() {
        Some(last) if !same_shape => {
            let upper = &c.levels[..c.levels.len() - 1];
            if last.max_runs == 1
                && upper
                    .iter()
                    .all(|l| l.max_runs > 1 && l.max_runs == upper[0].max_runs && l.size_ratio == last.size_ratio)
            {
                let tiered =
                    if upper.len() == 1 { "level 1".to_string() } else { format!("levels 1–{}", upper.len()) };
                format!(
                    "lazy leveling ({tiered} tiered, {} runs; level {} leveled), T = {}",
                    upper[0].max_runs,
                    c.levels.len(),
                    last.size_ratio
                )
            } else {
                let list = |f: &dyn Fn(&LevelConfig) -> String| c.levels.iter().map(f).collect::<Vec<_>>().join("/");
                format!("per level T = {}, runs {}", list(&|l| trim(l.size_ratio)), list(&|l| l.max_runs.to_string()))
            }
        }
        Some(l) if l.max_runs == 1 => format!("leveling, T = {}", l.size_ratio),
        Some(l) => format!("tiering ({} runs), T = {}", l.max_runs, l.size_ratio),
        None => "no levels".into(),
    };
    if c.compaction.granularity == Granularity::File { format!("{shape}, merges by file") } else { shape }
}

/// How summaries and reports name an allocation: `Monkey`, `uniform`, `Mnemosyne`, `per-level`.
pub fn allocation_name(a: Allocation) -> &'static str {
    match a {
        Allocation::Monkey => "Monkey",
        Allocation::Uniform => "uniform",
        Allocation::Mnemosyne => "Mnemosyne",
        Allocation::Explicit => "per-level",
    }
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

/// RocksDB's shape: level 0 holds flushed files and merges into level 1 at `level0_files`
/// (its `level0_file_num_compaction_trigger`), level 1 holds `base_ratio` write buffers
/// (`max_bytes_for_level_base`), every deeper level `multiplier` times more; files are one
/// write buffer (`target_file_size_base`); one Bloom filter setting for every level.
pub fn rocksdb_design(
    page_bytes: u32,
    level0_files: u32,
    base_ratio: f64,
    multiplier: f64,
    buffer_bytes: u64,
    bits: f64,
) -> EngineConfig {
    let mut c = level_design(page_bytes, false, multiplier, buffer_bytes, bits, Allocation::Uniform);
    c.levels = vec![
        LevelConfig { size_ratio: base_ratio, max_runs: level0_files.saturating_sub(1).max(1), bits_per_key: None },
        LevelConfig { size_ratio: multiplier, max_runs: 1, bits_per_key: None },
    ];
    c.compaction = CompactionConfig {
        granularity: Granularity::File,
        target_file_bytes: buffer_bytes,
        ..CompactionConfig::default()
    };
    c.name = summary(&c);
    c
}

/// `config` with `bits` per key of filters and the rest of `memory` as its buffer (and, with
/// merges by file, as its file size, as RocksDB's shape has it); None if the buffer would be too small.
pub(super) fn with_bits(config: &EngineConfig, bits: f64, entries: u64, memory: f64) -> Option<EngineConfig> {
    let buffer = memory - bits * entries as f64 / 8.0;
    if buffer < MIN_BUFFER_BYTES || bits > BITS_PER_KEY_RANGE.1 {
        return None;
    }
    let mut c = config.clone();
    c.filter.bits_per_key = bits;
    c.buffer_bytes = buffer.floor() as u64;
    if c.compaction.granularity == Granularity::File {
        c.compaction.target_file_bytes = c.buffer_bytes;
    }
    c.name = summary(&c);
    Some(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mnemosyne_variants_replace_monkeys_filters_only() {
        let monkey = level_design(4096, true, 4.0, 8 << 20, 6.0, Allocation::Monkey);
        let m = mnemosyne(&monkey).expect("a Monkey design has a Mnemosyne variant");
        assert_eq!(m.filter.allocation, Allocation::Mnemosyne);
        assert_eq!(
            (m.levels.clone(), m.buffer_bytes, m.filter.bits_per_key),
            (monkey.levels, monkey.buffer_bytes, 6.0)
        );
        assert!(m.name.contains("Mnemosyne filters at 6 bits/key"), "{}", m.name);
        assert!(mnemosyne(&level_design(4096, true, 4.0, 8 << 20, 6.0, Allocation::Uniform)).is_none());
        assert!(mnemosyne(&level_design(4096, true, 4.0, 8 << 20, 0.0, Allocation::Monkey)).is_none());
    }

    #[test]
    fn with_bits_keeps_the_memory_and_rocksdb_files_the_buffer_size() {
        let entries = 1_000_000;
        let memory = 16.0 * 1_048_576.0;
        let base = rocksdb_design(4096, 4, 4.0, 10.0, 8 << 20, 10.0);
        let c = with_bits(&base, 16.0, entries, memory).expect("fits");
        assert_eq!(c.buffer_bytes, (memory - 2_000_000.0) as u64);
        assert_eq!(c.compaction.target_file_bytes, c.buffer_bytes);
        assert!((memory_of(&c, entries) - memory).abs() < 1.0);
        assert_eq!(c.name, summary(&c));
        // No room left for a buffer: not a candidate.
        assert!(with_bits(&base, 64.0, 100_000_000, memory).is_none());
    }
}

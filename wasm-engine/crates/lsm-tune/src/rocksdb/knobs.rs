//! RocksDB's own knobs, each as a move from one design to its neighbours, and the search over them
//! within one memory budget: coordinate descent from the current design. Every round tries each
//! knob's values (the block cache taking whatever memory the move frees or needs), keeps the best
//! move if it lowers the cost, and stops when a whole round finds none. The accepted moves are the
//! recommendation's changes, added one at a time, each with the cost it took off.

use lsm_core::config::{Allocation, EngineConfig, FilePick, FilterKind, Granularity, LevelConfig, OutputCuts};
use lsm_core::error::Result;
use lsm_core::universal::UniversalConfig;
use serde::{Deserialize, Serialize};

use super::per_level::{self, Allocator};

/// The moves of a knob from a design (`moves_with`, with or without the plugin).
pub(crate) type Moves<'a> = &'a dyn Fn(Knob, &EngineConfig) -> Vec<EngineConfig>;

/// How the recommendation's diff names the per-level policy (no OPTIONS file option can say it).
pub const PER_LEVEL_OPTION: &str = "per-level filter_policy (C++ plugin policy.h)";

/// One of RocksDB's options (or a group that moves together) the search sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Knob {
    /// `write_buffer_size` (`max_bytes_for_level_base` kept).
    WriteBufferSize,
    /// `level0_file_num_compaction_trigger` (universal's too).
    Level0Trigger,
    /// `max_bytes_for_level_base`.
    MaxBytesForLevelBase,
    /// `max_bytes_for_level_multiplier`.
    Multiplier,
    /// `level_compaction_dynamic_level_bytes`.
    DynamicLevelBytes,
    /// `target_file_size_base`.
    TargetFileSize,
    /// The filter's bits per key (`filter_policy`).
    FilterBits,
    /// Bloom (FastLocalBloom) or Ribbon (`filter_policy`).
    FilterKind,
    /// `optimize_filters_for_hits` (with dynamic level bytes, whose last level is fixed).
    OptimizeFiltersForHits,
    /// `cache_index_and_filter_blocks`.
    CacheIndexAndFilterBlocks,
    /// `compaction_style`: leveled or universal.
    CompactionStyle,
    /// Universal's `max_size_amplification_percent`.
    UniversalSizeAmplification,
    /// Bits per key by level through the shipped C++ policy (`policy.h`): only when the user
    /// accepts the plugin (`per_level`).
    PerLevelFilters,
}

/// Every knob, in the order a round tries them.
pub const KNOBS: [Knob; 13] = [
    Knob::FilterBits,
    Knob::PerLevelFilters,
    Knob::WriteBufferSize,
    Knob::CacheIndexAndFilterBlocks,
    Knob::OptimizeFiltersForHits,
    Knob::FilterKind,
    Knob::DynamicLevelBytes,
    Knob::Multiplier,
    Knob::Level0Trigger,
    Knob::MaxBytesForLevelBase,
    Knob::TargetFileSize,
    Knob::CompactionStyle,
    Knob::UniversalSizeAmplification,
];

const FILTER_BITS: [f64; 10] = [0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 16.0, 20.0, 24.0];
const MULTIPLIERS: [f64; 6] = [4.0, 6.0, 8.0, 10.0, 12.0, 16.0];
const TRIGGERS: [u32; 5] = [2, 4, 6, 8, 12];
/// Sizes relative to the design's own: write buffer, level base, target file.
const SIZE_FACTORS: [f64; 4] = [0.25, 0.5, 2.0, 4.0];
const SIZE_AMPLIFICATIONS: [u32; 4] = [50, 100, 200, 400];
/// The smallest target file a move makes.
const MIN_FILE_BYTES: f64 = 256.0 * 1024.0;
/// The smallest write buffer a move makes: RocksDB 7.8 (Debian's build, with assertions) aborts
/// opening a 400 KiB memtable (`MemTable::MemTable`: `!ShouldScheduleFlush()`, its arena's first
/// blocks already past the flush threshold); 2 MiB runs.
const MIN_WRITE_BUFFER_BYTES: f64 = 2.0 * 1024.0 * 1024.0;

impl Knob {
    /// The RocksDB option it sets, as its OPTIONS file names it.
    pub fn option(self) -> &'static str {
        match self {
            Knob::WriteBufferSize => "write_buffer_size",
            Knob::Level0Trigger => "level0_file_num_compaction_trigger",
            Knob::MaxBytesForLevelBase => "max_bytes_for_level_base",
            Knob::Multiplier => "max_bytes_for_level_multiplier",
            Knob::DynamicLevelBytes => "level_compaction_dynamic_level_bytes",
            Knob::TargetFileSize => "target_file_size_base",
            Knob::FilterBits | Knob::FilterKind => "filter_policy",
            Knob::OptimizeFiltersForHits => "optimize_filters_for_hits",
            Knob::CacheIndexAndFilterBlocks => "cache_index_and_filter_blocks",
            Knob::CompactionStyle => "compaction_style",
            Knob::UniversalSizeAmplification => "compaction_options_universal",
            Knob::PerLevelFilters => PER_LEVEL_OPTION,
        }
    }

    /// Why moving it can pay, in words.
    pub fn why(self) -> &'static str {
        match self {
            Knob::WriteBufferSize => {
                "a smaller memtable frees memory for the block cache; a larger one flushes less often and absorbs overwrites"
            }
            Knob::Level0Trigger => {
                "more level-0 files per compaction write less but make lookups probe more files; max_bytes_for_level_base may follow, so level 1 stays the size of a full level 0"
            }
            Knob::MaxBytesForLevelBase => "the first level's size sets how much each level-0 compaction rewrites",
            Knob::Multiplier => "fewer, larger levels: fewer files probed per lookup, more rewriting per level",
            Knob::DynamicLevelBytes => "level targets from the last level up keep the tree's shape at any data size",
            Knob::TargetFileSize => "file size sets how much each compaction rewrites and how many files there are",
            Knob::FilterBits => {
                "filters let lookups skip files that do not hold the key; their memory comes from the cache"
            }
            Knob::FilterKind => "Ribbon gives Bloom's false-positive rate in about 30% less memory",
            Knob::OptimizeFiltersForHits => {
                "lookups of keys that exist end in the last level, whose filter then saves nothing: its memory goes to the cache"
            }
            Knob::CacheIndexAndFilterBlocks => {
                "index and filter blocks charged to the cache compete with data blocks instead of being pinned"
            }
            Knob::CompactionStyle => {
                "universal compaction (tiering) writes each byte fewer times than leveled, lookups probe more runs"
            }
            Knob::UniversalSizeAmplification => "how much newer data may pile up before everything is merged",
            Knob::PerLevelFilters => {
                "Monkey's split of the same filter memory: more bits where a lookup probes often for little memory \
                 (level 0's files, small upper levels), fewer (none on the last level when every lookup finds its key) \
                 where a filter costs much and saves little; needs the C++ policy policy.h built into the application"
            }
        }
    }
}

fn is_universal(c: &EngineConfig) -> bool {
    c.compaction.universal.is_some()
}

fn trigger_of(c: &EngineConfig) -> u32 {
    match &c.compaction.universal {
        Some(u) => u.level0_file_num_compaction_trigger,
        None => c.levels.first().map_or(4, |l| l.max_runs + 1),
    }
}

/// `c` with every level's bits set as its allocation needs after a change of bits or levels.
fn with_level_bits(mut c: EngineConfig) -> EngineConfig {
    let bits = c.filter.bits_per_key;
    let explicit = c.filter.allocation == Allocation::Explicit;
    let n = c.levels.len();
    for (i, l) in c.levels.iter_mut().enumerate() {
        l.bits_per_key = if explicit { Some(if i + 1 == n { 0.0 } else { bits }) } else { None };
    }
    c
}

/// The designs one move of `knob` reaches from `c` (before the cache is fitted to the budget).
pub fn moves(knob: Knob, c: &EngineConfig) -> Vec<EngineConfig> {
    let mut out = Vec::new();
    let universal = is_universal(c);
    let leveled = !universal && c.compaction.granularity == Granularity::File && c.levels.len() >= 2;
    match knob {
        Knob::WriteBufferSize => {
            let base = c.buffer_bytes as f64 * c.levels.first().map_or(1.0, |l| l.size_ratio);
            for f in SIZE_FACTORS {
                let buffer = (c.buffer_bytes as f64 * f).round();
                if buffer < MIN_WRITE_BUFFER_BYTES {
                    continue;
                }
                let mut n = c.clone();
                n.buffer_bytes = buffer as u64;
                if leveled {
                    // max_bytes_for_level_base stays: level 1's ratio to the buffer follows it.
                    let ratio = base / buffer;
                    if !(1.0..=1_000.0).contains(&ratio) {
                        continue;
                    }
                    n.levels[0].size_ratio = ratio;
                }
                out.push(n);
            }
        }
        Knob::Level0Trigger => {
            let old = trigger_of(c);
            for t in TRIGGERS.into_iter().filter(|&t| t != old) {
                let mut n = c.clone();
                match &mut n.compaction.universal {
                    Some(u) => u.level0_file_num_compaction_trigger = t,
                    None if leveled => n.levels[0].max_runs = t - 1,
                    None => continue,
                }
                if leveled && old > 0 {
                    // And with max_bytes_for_level_base following it (RocksDB's tuning guide sizes
                    // level 1 like a full level 0, so a level-0 compaction merges like-sized
                    // inputs): alone, a later trigger only delays the same rewrites, and neither
                    // move pays by itself in the steady state.
                    let ratio = c.levels[0].size_ratio * f64::from(t) / f64::from(old);
                    if (1.0..=1_000.0).contains(&ratio) {
                        let mut both = n.clone();
                        both.levels[0].size_ratio = ratio;
                        out.push(both);
                    }
                }
                out.push(n);
            }
        }
        Knob::MaxBytesForLevelBase if leveled => {
            for f in SIZE_FACTORS {
                let ratio = c.levels[0].size_ratio * f;
                if (1.0..=1_000.0).contains(&ratio) {
                    let mut n = c.clone();
                    n.levels[0].size_ratio = ratio;
                    out.push(n);
                }
            }
        }
        Knob::Multiplier if leveled => {
            for m in MULTIPLIERS.into_iter().filter(|&m| m != c.levels[1].size_ratio) {
                let mut n = c.clone();
                n.levels.iter_mut().skip(1).for_each(|l| l.size_ratio = m);
                out.push(n);
            }
        }
        Knob::DynamicLevelBytes if leveled => {
            let mut n = c.clone();
            n.compaction.dynamic_level_bytes = !c.compaction.dynamic_level_bytes;
            if n.compaction.dynamic_level_bytes {
                n.compaction.num_levels = lsm_core::config::DEFAULT_NUM_LEVELS;
            } else if n.filter.allocation == Allocation::Explicit {
                // optimize_filters_for_hits is searched with dynamic levels only (a fixed last level).
                n.filter.allocation = Allocation::Uniform;
                n.levels.truncate(2);
                n = with_level_bits(n);
            }
            out.push(n);
        }
        Knob::TargetFileSize => {
            for f in SIZE_FACTORS {
                let bytes = (c.compaction.target_file_bytes as f64 * f).round();
                if bytes >= MIN_FILE_BYTES.max(f64::from(c.page_bytes)) && bytes <= (1u64 << 32) as f64 {
                    let mut n = c.clone();
                    n.compaction.target_file_bytes = bytes as u64;
                    out.push(n);
                }
            }
        }
        Knob::FilterBits => {
            // A filter the design has is never dropped: the block cache model prices a filter as
            // costing cache hits it does not cost on RocksDB (YCSB D, 200,000 records, 14.4 MiB
            // cache: 10 bits/key predicted 0.265 → 0.304 data blocks per lookup, measured 0.411 →
            // 0.251 blocks per operation), so "no filter" would win on a wrong price.
            let keep_some = c.filter.bits_per_key > 0.0;
            for b in FILTER_BITS.into_iter().filter(|&b| b != c.filter.bits_per_key && !(keep_some && b == 0.0)) {
                let mut n = c.clone();
                n.filter.bits_per_key = b;
                if n.filter.kind == FilterKind::Bloom {
                    // What RocksDB's bloomfilter builds (format_version 5).
                    n.filter.kind = FilterKind::FastLocalBloom;
                }
                if b == 0.0 {
                    n.filter.allocation = Allocation::Uniform;
                }
                out.push(with_level_bits(n));
            }
        }
        Knob::FilterKind if c.filter.bits_per_key > 0.0 => {
            let mut n = c.clone();
            n.filter.kind =
                if c.filter.kind == FilterKind::Ribbon { FilterKind::FastLocalBloom } else { FilterKind::Ribbon };
            n.filter.bloom_before_level = 0;
            out.push(n);
        }
        Knob::OptimizeFiltersForHits if leveled && c.compaction.dynamic_level_bytes && c.filter.bits_per_key > 0.0 => {
            let mut n = c.clone();
            if c.filter.allocation == Allocation::Explicit {
                n.filter.allocation = Allocation::Uniform;
                n.levels.truncate(2);
            } else {
                n.filter.allocation = Allocation::Explicit;
                let last = n.levels[n.levels.len() - 1].clone();
                while n.levels.len() < n.compaction.num_levels as usize {
                    n.levels.push(last.clone());
                }
            }
            out.push(with_level_bits(n));
        }
        Knob::CacheIndexAndFilterBlocks => {
            let mut n = c.clone();
            n.block_cache.cache_index_and_filter_blocks = !c.block_cache.cache_index_and_filter_blocks;
            n.block_cache.pin_l0_filter_and_index_blocks_in_cache = false;
            out.push(n);
        }
        Knob::CompactionStyle if c.compaction.granularity == Granularity::File => {
            out.push(if universal { to_leveled(c) } else { to_universal(c) });
        }
        Knob::UniversalSizeAmplification if universal => {
            for a in SIZE_AMPLIFICATIONS {
                let mut n = c.clone();
                if let Some(u) = &mut n.compaction.universal
                    && u.max_size_amplification_percent != a
                {
                    u.max_size_amplification_percent = a;
                    out.push(n);
                }
            }
        }
        _ => {}
    }
    out
}

/// The designs one move of `knob` reaches from `c`, with per-level bits where the user accepts
/// the plugin (`per_level`: Some): the `PerLevelFilters` knob splits a design's filter memory
/// over its levels (or returns to one value everywhere), and every move of a design whose bits are
/// split splits them again for its new shape and memory. Without the plugin, `moves`.
pub(crate) fn moves_with(knob: Knob, c: &EngineConfig, per_level: Option<&Allocator>) -> Vec<EngineConfig> {
    let Some(allocator) = per_level else { return moves(knob, c) };
    let split = per_level::needs_plugin(c);
    match knob {
        Knob::PerLevelFilters if split => {
            let mut n = c.clone();
            n.filter.allocation = Allocation::Uniform;
            n.levels.truncate(2);
            vec![with_level_bits(n)]
        }
        // Split at every filter memory, not only the design's: the split frees what a uniform
        // filter wastes (on the last level, when lookups find their keys), which pays only with
        // less memory in filters and more in the cache, a move the bits knob alone cannot make.
        Knob::PerLevelFilters if c.filter.kind != FilterKind::Ribbon => FILTER_BITS
            .into_iter()
            .filter(|&b| b > 0.0)
            .filter_map(|b| {
                let mut n = c.clone();
                n.filter.bits_per_key = b;
                if n.filter.kind == FilterKind::Bloom {
                    n.filter.kind = FilterKind::FastLocalBloom;
                }
                allocator.allocate(&n)
            })
            .collect(),
        Knob::PerLevelFilters => Vec::new(),
        // A split design's last level is Monkey's to set, and its law is Bloom's.
        Knob::OptimizeFiltersForHits | Knob::FilterKind if split => Vec::new(),
        _ if split => moves(knob, c)
            .into_iter()
            .map(|n| if per_level::applies(&n) { allocator.allocate(&n).unwrap_or(n) } else { n })
            .collect(),
        _ => moves(knob, c),
    }
}

/// Universal compaction with RocksDB's defaults but the design's level-0 trigger.
fn to_universal(c: &EngineConfig) -> EngineConfig {
    let mut n = c.clone();
    let bits = n.filter.bits_per_key;
    n.filter.allocation = Allocation::Uniform;
    n.filter.bits_per_key = bits;
    n.levels = vec![LevelConfig { size_ratio: 10.0, max_runs: 1, bits_per_key: None }];
    let cc = &mut n.compaction;
    cc.universal =
        Some(UniversalConfig { level0_file_num_compaction_trigger: trigger_of(c), ..UniversalConfig::default() });
    cc.pick = FilePick::RoundRobin;
    cc.trivial_moves = false;
    cc.dynamic_level_bytes = false;
    cc.output_cuts = OutputCuts::Leveldb;
    cc.num_levels = lsm_core::config::DEFAULT_NUM_LEVELS;
    n
}

/// RocksDB's leveled compaction with its defaults (level base 4 write buffers, multiplier 10) but
/// the design's level-0 trigger.
fn to_leveled(c: &EngineConfig) -> EngineConfig {
    let mut n = c.clone();
    n.levels = vec![
        LevelConfig { size_ratio: 4.0, max_runs: trigger_of(c).saturating_sub(1).max(1), bits_per_key: None },
        LevelConfig { size_ratio: 10.0, max_runs: 1, bits_per_key: None },
    ];
    let cc = &mut n.compaction;
    cc.universal = None;
    cc.pick = FilePick::MinOverlappingRatio;
    cc.trivial_moves = true;
    cc.output_cuts = OutputCuts::Rocksdb;
    n
}

/// One accepted move: the knob, and the designs before and after it (each a `T`: a priced design).
#[derive(Clone, Debug)]
pub(crate) struct Step<T> {
    pub(crate) knob: Knob,
    pub(crate) before: T,
    pub(crate) after: T,
}

/// What the descent found: the moves that led to its best design, and the designs priced.
pub(crate) struct Descent<T> {
    pub(crate) steps: Vec<Step<T>>,
    pub(crate) priced: usize,
}

/// Rounds of the descent at most (each tries every knob once).
const ROUNDS: usize = 4;
/// A move must lower the cost by this share to be taken: a change that buys less is not worth
/// an option the user must carry (and is far inside the model's error).
const MIN_STEP: f64 = 0.01;

/// Coordinate descent from `start` (priced): `moves` gives a knob's moves from a design
/// (`moves_with`), `fit` sets a moved design's block cache to the budget's rest (None: it does
/// not fit), `price` prices it, `cost` ranks, and `allowed(before, after)` may refuse a move
/// whatever its cost (a move that would cost more in the run the user will measure, though less
/// in the steady state).
pub(crate) fn descend<T: Clone>(
    start: T,
    config_of: &dyn Fn(&T) -> &EngineConfig,
    moves: Moves<'_>,
    fit: &dyn Fn(EngineConfig) -> Option<EngineConfig>,
    price: &mut dyn FnMut(EngineConfig) -> Result<T>,
    cost: &dyn Fn(&T) -> f64,
    allowed: &dyn Fn(&T, &T) -> bool,
) -> Result<Descent<T>> {
    let mut best = start;
    let mut steps = Vec::new();
    let mut priced = 0;
    let mut seen: Vec<EngineConfig> = vec![config_of(&best).clone()];
    for _ in 0..ROUNDS {
        let mut moved = false;
        for knob in KNOBS {
            let mut winner: Option<T> = None;
            for c in moves(knob, config_of(&best)) {
                let Some(c) = fit(c) else { continue };
                if c.validate().is_err() || seen.contains(&c) {
                    continue;
                }
                seen.push(c.clone());
                let p = price(c)?;
                priced += 1;
                if allowed(&best, &p) && winner.as_ref().is_none_or(|w| cost(&p) < cost(w)) {
                    winner = Some(p);
                }
            }
            if let Some(w) = winner
                && cost(&w) < cost(&best) * (1.0 - MIN_STEP)
            {
                steps.push(Step { knob, before: best.clone(), after: w.clone() });
                best = w;
                moved = true;
            }
        }
        if !moved {
            break;
        }
    }
    Ok(Descent { steps, priced })
}

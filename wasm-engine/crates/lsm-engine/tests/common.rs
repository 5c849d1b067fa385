//! Shared helpers for the engine's integration tests.
#![allow(clippy::unwrap_used)]
#![allow(dead_code)]

use lsm_core::config::{
    Allocation, BlockCacheConfig, CompactionConfig, EngineConfig, FilterKind, FilterSkip, Granularity, LevelConfig,
};

pub(crate) fn config(
    name: &str,
    page: u32,
    buffer: u64,
    levels: &[(f64, u32, Option<f64>)],
    allocation: Allocation,
    bpk: f64,
) -> EngineConfig {
    let mut c = EngineConfig::uniform_shape(10.0, 1, allocation, bpk);
    c.name = name.to_string();
    c.page_bytes = page;
    c.buffer_bytes = buffer;
    c.levels = levels.iter().map(|&(t, k, b)| LevelConfig { size_ratio: t, max_runs: k, bits_per_key: b }).collect();
    c.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
    c
}

/// The configurations the oracle tests run: every merge policy family, filters on and off.
pub(crate) fn oracle_configs() -> Vec<(EngineConfig, bool)> {
    use Allocation::*;
    let n = None;
    vec![
        (config("leveling T2 uniform 10", 512, 4096, &[(2.0, 1, n)], Uniform, 10.0), true),
        (config("leveling T3 monkey 5", 512, 4096, &[(3.0, 1, n)], Monkey, 5.0), true),
        (config("leveling T10 monkey 10", 1024, 8192, &[(10.0, 1, n)], Monkey, 10.0), true),
        (config("tiering T2 K1", 512, 4096, &[(2.0, 1, n)], Uniform, 6.0), true),
        (config("tiering T3 K2 uniform 8", 512, 4096, &[(3.0, 2, n)], Uniform, 8.0), true),
        (config("tiering T4 K3 monkey 4", 512, 4096, &[(4.0, 3, n)], Monkey, 4.0), true),
        (config("tiering T10 K9", 1024, 4096, &[(10.0, 9, n)], Uniform, 10.0), true),
        (config("tiering T4 K4", 512, 4096, &[(4.0, 4, n)], Monkey, 7.0), true),
        (config("lazy leveling T4", 512, 4096, &[(4.0, 3, n), (4.0, 3, n), (4.0, 1, n)], Monkey, 6.0), true),
        (config("moose fig1", 512, 4096, &[(4.0, 4, n), (6.0, 3, n), (3.0, 2, n)], Monkey, 5.0), true),
        (config("moose fractional", 512, 4096, &[(2.5, 1, n), (7.3, 3, n), (5.0, 2, n)], Uniform, 5.0), true),
        (
            config(
                "explicit 10/5/0",
                512,
                4096,
                &[(3.0, 1, Some(10.0)), (3.0, 1, Some(5.0)), (3.0, 1, Some(0.0))],
                Explicit,
                0.0,
            ),
            true,
        ),
        (config("filters off", 512, 4096, &[(4.0, 1, n)], Uniform, 0.0), true),
        (config("explicit all zero tiered", 512, 4096, &[(3.0, 2, Some(0.0))], Explicit, 0.0), true),
        (config("tiny pages", 256, 1024, &[(5.0, 1, n)], Uniform, 3.0), true),
        (config("big pages", 4096, 65536, &[(5.0, 4, n)], Uniform, 10.0), true),
        (config("stepped leveling T4", 512, 4096, &[(4.0, 1, n)], Monkey, 5.0), false),
        (config("stepped tiering T3", 512, 4096, &[(3.0, 2, n)], Uniform, 5.0), false),
        (config("stepped moose", 512, 4096, &[(4.0, 4, n), (6.0, 3, n), (3.0, 2, n)], Monkey, 5.0), false),
        (config("monkey 1 bit", 512, 4096, &[(3.0, 1, n)], Monkey, 1.0), true),
        (config("leveling T100", 512, 2048, &[(100.0, 1, n)], Uniform, 10.0), true),
        (config("mixed ratios", 512, 4096, &[(2.0, 1, n), (10.0, 9, n)], Monkey, 8.0), true),
        (reoptimised(config("leveling T2 monkey re-optimised", 512, 4096, &[(2.0, 1, n)], Monkey, 5.0), 1.0), true),
        (reoptimised(config("tiering T3 K2 re-optimised eager", 512, 4096, &[(3.0, 2, n)], Monkey, 6.0), 0.0), true),
        (reoptimised(config("stepped re-optimised", 512, 4096, &[(4.0, 1, n)], Monkey, 5.0), 0.0), false),
        (
            universal(config("universal, RocksDB's defaults, whole runs", 512, 4096, &[(10.0, 1, n)], Uniform, 8.0)),
            true,
        ),
        (universal(config("stepped universal", 512, 4096, &[(10.0, 1, n)], Uniform, 8.0)), false),
    ]
}

/// RocksDB's universal compaction with its default options over 5 levels (L0 to L4).
pub(crate) fn universal(mut c: EngineConfig) -> EngineConfig {
    c.compaction.universal = Some(lsm_core::universal::UniversalConfig::default());
    c.compaction.num_levels = 5;
    c.validate().unwrap_or_else(|e| panic!("{}: {e}", c.name));
    c
}

/// Universal compaction with every option away from its default: a trigger of 3, size ratio
/// 20%, 2 to 4 runs of similar size, 150% size amplification, trivial moves, 4 levels.
pub(crate) fn universal_tuned(mut c: EngineConfig) -> EngineConfig {
    c.compaction.universal = Some(lsm_core::universal::UniversalConfig {
        level0_file_num_compaction_trigger: 3,
        size_ratio: 20,
        min_merge_width: 2,
        max_merge_width: 4,
        max_size_amplification_percent: 150,
        stop_style: lsm_core::universal::StopStyle::SimilarSize,
        allow_trivial_move: true,
    });
    c.compaction.num_levels = 4;
    c.validate().unwrap_or_else(|e| panic!("{}: {e}", c.name));
    c
}

/// Monkey re-optimised with this rebuild payback (0: rebuild whenever a filter is off target).
pub(crate) fn reoptimised(mut c: EngineConfig, payback: f64) -> EngineConfig {
    c.filter.monkey_policy = lsm_core::config::MonkeyPolicy::Reoptimised;
    c.filter.rebuild_payback = payback;
    c.validate().unwrap_or_else(|e| panic!("{}: {e}", c.name));
    c
}

/// Configurations for the persistence features: merges by file, modular filters with skipping,
/// a small block cache holding filters and fences, Mnemosyne.
pub(crate) fn persistence_configs() -> Vec<EngineConfig> {
    use Allocation::*;
    let by_file = |mut c: EngineConfig| {
        c.compaction =
            CompactionConfig { granularity: Granularity::File, target_file_bytes: 2048, ..CompactionConfig::default() };
        c
    };
    let modular = |mut c: EngineConfig, modules: u32, skip: FilterSkip| {
        c.filter.kind = FilterKind::Modular;
        c.filter.modules = modules;
        c.filter.skip = skip;
        c
    };
    let cached = |mut c: EngineConfig, bytes: u64, metadata: bool| {
        c.block_cache = BlockCacheConfig {
            bytes,
            cache_index_and_filter_blocks: metadata,
            pin_l0_filter_and_index_blocks_in_cache: false,
            high_priority_ratio: 0.5,
            midpoint_insertion: false,
            ..BlockCacheConfig::default()
        };
        c
    };
    let pin_l0 = |mut c: EngineConfig| {
        c.block_cache.pin_l0_filter_and_index_blocks_in_cache = true;
        c.block_cache.midpoint_insertion = true;
        c
    };
    let rocksdb_picking = |mut c: EngineConfig| {
        c.compaction.pick = lsm_core::config::FilePick::MinOverlappingRatio;
        c.compaction.trivial_moves = true;
        c.block_layout = lsm_core::config::BlockLayout::Rocksdb;
        c.buffer_trigger = lsm_core::config::BufferTrigger::Arena;
        c.compaction.output_cuts = lsm_core::config::OutputCuts::Rocksdb;
        c
    };
    let dynamic = |mut c: EngineConfig| {
        c.compaction.dynamic_level_bytes = true;
        c.compaction.num_levels = 5;
        c.validate().unwrap_or_else(|e| panic!("{}: {e}", c.name));
        c
    };
    let kind = |mut c: EngineConfig, kind: FilterKind| {
        c.filter.kind = kind;
        c.validate().unwrap_or_else(|e| panic!("{}: {e}", c.name));
        c
    };
    let partitioned = |mut c: EngineConfig| {
        c.block_cache.index_type = lsm_core::config::IndexType::TwoLevelIndexSearch;
        c.block_cache.partition_filters = true;
        c.block_cache.metadata_block_size = 256;
        c.compaction.target_file_bytes = 16 << 10;
        c.validate().unwrap_or_else(|e| panic!("{}: {e}", c.name));
        c
    };
    let two_level_only = |mut c: EngineConfig| {
        c.block_cache.index_type = lsm_core::config::IndexType::TwoLevelIndexSearch;
        c.block_cache.metadata_block_size = 128;
        c.block_cache.pin_top_level_index_and_filter = false;
        c.compaction.target_file_bytes = 16 << 10;
        c.validate().unwrap_or_else(|e| panic!("{}: {e}", c.name));
        c
    };
    let n = None;
    let leveldb = || config("by file, LevelDB-like", 512, 4096, &[(2.5, 3, n), (4.0, 1, n)], Uniform, 8.0);
    vec![
        by_file(leveldb()),
        rocksdb_picking(by_file(config(
            "by file, RocksDB's picking, trivial moves, data blocks and memtable arena",
            512,
            4096,
            &[(4.0, 3, n), (4.0, 1, n)],
            Uniform,
            8.0,
        ))),
        // Level targets from the last level up: level 1 merges into the base level over empty
        // levels, which climbs as the data grows (5 levels: L0 to L4).
        dynamic(rocksdb_picking(by_file(config(
            "by file, dynamic level bytes, 5 levels",
            512,
            4096,
            &[(2.0, 3, n), (3.0, 1, n)],
            Uniform,
            8.0,
        )))),
        // RocksDB's universal compaction: outputs below L0 cut into 2 KiB files; and tuned.
        universal(by_file(config("universal by file", 512, 4096, &[(10.0, 1, n)], Uniform, 8.0))),
        universal_tuned(by_file(config("universal tuned, by file", 512, 4096, &[(10.0, 1, n)], Monkey, 6.0))),
        by_file(config("by file, monkey", 512, 4096, &[(2.0, 2, n), (3.0, 1, n)], Monkey, 6.0)),
        by_file(config("by file, mnemosyne", 512, 4096, &[(2.5, 3, n), (4.0, 1, n)], Mnemosyne, 6.0)),
        modular(config("modular 3, partial skip", 512, 4096, &[(4.0, 1, n)], Uniform, 10.0), 3, FilterSkip::Partial),
        cached(
            modular(
                config("modular 2, full skip, cached metadata", 512, 4096, &[(3.0, 2, n)], Monkey, 8.0),
                2,
                FilterSkip::Full,
            ),
            16 << 10,
            true,
        ),
        // Level 0's index and filter blocks pinned and charged to the cache, deeper ones cached;
        // files moved down trivially keep theirs pinned.
        pin_l0(cached(
            rocksdb_picking(by_file(config(
                "by file, RocksDB's picking, pinned L0 metadata",
                512,
                4096,
                &[(4.0, 3, n), (4.0, 1, n)],
                Uniform,
                8.0,
            ))),
            16 << 10,
            true,
        )),
        cached(config("small data cache", 512, 4096, &[(4.0, 3, n)], Uniform, 5.0), 8 << 10, false),
        cached(by_file(modular(leveldb(), 2, FilterSkip::None)), 4 << 10, true),
        // RocksDB's filters: FastLocalBloom everywhere; Ribbon below the flushes (whose filters
        // are FastLocalBloom, as are filters too small for Ribbon to pay), through the cache.
        kind(
            rocksdb_picking(by_file(config(
                "by file, FastLocalBloom",
                512,
                4096,
                &[(4.0, 3, n), (4.0, 1, n)],
                Monkey,
                8.0,
            ))),
            FilterKind::FastLocalBloom,
        ),
        cached(
            kind(config("ribbon, leveling", 512, 4096, &[(4.0, 1, n)], Uniform, 10.0), FilterKind::Ribbon),
            16 << 10,
            true,
        ),
        // RocksDB's partitioned filters and two-level index (256-byte partitions, 16 KiB files:
        // several partitions a file), all through a small cache with the top levels pinned.
        partitioned(cached(
            kind(
                rocksdb_picking(by_file(config(
                    "by file, partitioned filters, two-level index, cached",
                    512,
                    4096,
                    &[(4.0, 3, n), (4.0, 1, n)],
                    Uniform,
                    10.0,
                ))),
                FilterKind::FastLocalBloom,
            ),
            8 << 10,
            true,
        )),
        // A two-level index with a whole filter; level 0's metadata (partitions too) pinned,
        // the top levels of deeper files cached like any block.
        two_level_only(pin_l0(cached(
            rocksdb_picking(by_file(config(
                "by file, two-level index, pinned L0, cached top levels",
                512,
                4096,
                &[(4.0, 3, n), (4.0, 1, n)],
                Uniform,
                8.0,
            ))),
            8 << 10,
            true,
        ))),
        // Rebuilt filters live in memory: a reopen starts from the built ones and re-optimises.
        reoptimised(
            by_file(modular(
                config("by file, modular, re-optimised", 512, 4096, &[(2.0, 2, n), (3.0, 1, n)], Monkey, 8.0),
                3,
                FilterSkip::None,
            )),
            0.0,
        ),
    ]
}

/// The tree's table ids per level: what a reopen must give back exactly.
pub(crate) fn table_ids(e: &lsm_engine::engine::Engine) -> Vec<(usize, Vec<u64>)> {
    e.tree()
        .levels
        .iter()
        .map(|l| (l.level, l.runs.iter().flat_map(|r| r.tables.iter().map(|t| t.id)).collect()))
        .collect()
}

/// What a crash test knows was acknowledged: each key's newest value.
pub(crate) type State = std::collections::BTreeMap<Vec<u8>, Vec<u8>>;
/// A write: key and value, or None for a delete.
pub(crate) type Write = (Vec<u8>, Option<Vec<u8>>);

/// `op` applied to `state`.
pub(crate) fn apply(state: &mut State, op: &Write) {
    match &op.1 {
        Some(v) => state.insert(op.0.clone(), v.clone()),
        None => state.remove(&op.0),
    };
}

/// Whether `recovered` is the acknowledged writes plus some prefix of the `pending` ones (what a
/// crash may leave: every acknowledged write, and the unacknowledged ones up to some point).
pub(crate) fn is_acked_plus_prefix(acked: &State, pending: &[Write], recovered: &State) -> bool {
    let mut candidate = acked.clone();
    if candidate == *recovered {
        return true;
    }
    pending.iter().any(|op| {
        apply(&mut candidate, op);
        candidate == *recovered
    })
}

/// One write of a crash trial (operation `op`: a put over 400 keys, a delete one time in five),
/// and about one time in sixteen a sync that acknowledges every write pending before it. False
/// once the engine fails (the injected failure): the trial stops there.
pub(crate) fn random_acked_write(
    engine: &mut lsm_engine::engine::Engine,
    rng: &mut lsm_core::rng::Rng,
    op: u64,
    pending: &mut Vec<Write>,
    acked: &mut State,
) -> bool {
    let key = format!("key{:04}", rng.below(400)).into_bytes();
    let value = (rng.below(10) > 1).then(|| format!("value-{op}-{}", "x".repeat(rng.below(60) as usize)).into_bytes());
    let result = match &value {
        Some(v) => engine.put(&key, v),
        None => engine.delete(&key),
    };
    if result.is_err() {
        return false;
    }
    pending.push((key, value));
    if rng.below(16) == 0 {
        if engine.sync().is_err() {
            return false;
        }
        for p in pending.drain(..) {
            apply(acked, &p);
        }
    }
    true
}

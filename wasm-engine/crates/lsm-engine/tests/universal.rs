//! RocksDB's universal compaction on the engine: after every write the tree is one the picker
//! leaves alone; equal flushes merge as the picker's hand-worked replay says; keys written in
//! order move down without being rewritten when `allow_trivial_move` is on; and a reopen finds
//! every table where the manifest put it.
#![allow(clippy::unwrap_used)]

mod common;

use lsm_core::config::{Allocation, CompactionConfig, EngineConfig, Granularity};
use lsm_core::universal::{self, SortedRun, UniversalConfig};
use lsm_engine::engine::{Engine, Merging};
use lsm_engine::storage::MemStorage;
use lsm_engine::tree::TreeShape;

/// Universal compaction with `options` over 7 levels, 4 KiB buffers, whole runs or 4 KiB files.
fn design(options: UniversalConfig, by_file: bool) -> EngineConfig {
    let mut c = common::config("universal", 512, 4096, &[(10.0, 1, None)], Allocation::Uniform, 10.0);
    c.compaction = CompactionConfig {
        granularity: if by_file { Granularity::File } else { Granularity::Level },
        target_file_bytes: 4096,
        universal: Some(options),
        ..CompactionConfig::default()
    };
    c.validate().unwrap();
    c
}

/// The tree's sorted runs as the picker sees them (newest first, file bytes).
fn sorted_runs(tree: &TreeShape) -> Vec<SortedRun> {
    tree.levels
        .iter()
        .flat_map(|l| l.runs.iter().map(move |r| SortedRun { level: l.level, bytes: r.file_bytes }))
        .collect()
}

#[test]
fn after_every_write_the_picker_has_nothing_left_to_merge() {
    for by_file in [false, true] {
        let options = UniversalConfig::default();
        let mut e = Engine::create(design(options.clone(), by_file), Box::new(MemStorage::new())).unwrap();
        // The tree after every write, each merge installed inside the write that made it due.
        e.merging = Merging::Inline;
        let mut rng = lsm_core::rng::Rng::new(11);
        let mut deepest = 0;
        for i in 0..6_000u32 {
            let key = (rng.next_u64() % 3_000).to_be_bytes();
            e.put(&key, &i.to_le_bytes().repeat(15)).unwrap();
            let tree = e.tree();
            assert_eq!(universal::pick(&sorted_runs(&tree), &options, 7), None, "write {i}");
            for level in &tree.levels {
                if level.level == 1 {
                    // Every L0 run is one file, flushed or merged.
                    assert!(level.runs.iter().all(|r| r.tables.len() == 1), "write {i}");
                } else {
                    assert!(level.runs.len() <= 1, "write {i}: level {} holds {} runs", level.level, level.runs.len());
                }
                assert_eq!(level.capacity_bytes, None);
            }
            deepest = deepest.max(tree.levels.len());
        }
        assert_eq!(deepest, 7, "full merges reach the last level (L6)");
        let files_below_l0 = |e: &Engine| {
            e.tree().levels.iter().skip(1).map(|l| l.runs.iter().map(|r| r.tables.len()).sum::<usize>()).max()
        };
        // By file, runs below L0 are cut at the target (4 KiB); whole, one table per run.
        if by_file {
            assert!(files_below_l0(&e).unwrap() > 1);
        } else {
            assert_eq!(files_below_l0(&e), Some(1));
        }
    }
}

#[test]
fn equal_flushes_merge_as_the_picker_replayed_them() {
    // Distinct keys of one size and a buffer of exactly 32 entries: every flush is the same
    // table. Flush 4: size amplification, everything to L6. Flush 7: three flushes to L5.
    // Flush 9: two flushes to L4. Flush 10: four runs of 1, 2, 3 and 4 flushes, nothing to merge.
    let mut c = design(UniversalConfig::default(), false);
    c.buffer_bytes = 32 * 128;
    let mut e = Engine::create(c, Box::new(MemStorage::new())).unwrap();
    // The tree right after each flush, with the merges it made due.
    e.merging = Merging::Inline;
    let mut flushes = 0;
    let mut shapes = Vec::new();
    for id in 0..(10 * 32u32 + 1) {
        // Scattered keys: every run spans the key space.
        e.put(&id.reverse_bits().to_be_bytes(), &[1u8; 124]).unwrap();
        let written = e.stats().levels.first().map_or(0, |l| l.writes.flushes);
        if written > flushes {
            flushes = written;
            let tree = e.tree();
            let runs: Vec<(usize, u64)> =
                tree.levels.iter().flat_map(|l| l.runs.iter().map(move |r| (l.level, r.entries))).collect();
            shapes.push(runs);
        }
    }
    assert_eq!(shapes.len(), 10);
    assert_eq!(shapes[2], vec![(1, 32), (1, 32), (1, 32)]);
    assert_eq!(shapes[3], vec![(7, 128)]);
    assert_eq!(shapes[6], vec![(6, 96), (7, 128)]);
    assert_eq!(shapes[8], vec![(5, 64), (6, 96), (7, 128)]);
    assert_eq!(shapes[9], vec![(1, 32), (5, 64), (6, 96), (7, 128)]);
    let levels = &e.stats().levels;
    let compactions: Vec<u64> = levels.iter().map(|l| l.writes.compactions).collect();
    assert_eq!(compactions, vec![0, 0, 0, 0, 1, 1, 1]);
}

#[test]
fn keys_in_order_move_down_whole_with_trivial_moves() {
    let load = |allow_trivial_move: bool| {
        let options = UniversalConfig { allow_trivial_move, ..UniversalConfig::default() };
        let mut e = Engine::create(design(options, true), Box::new(MemStorage::new())).unwrap();
        for id in 0..4_000u32 {
            e.put(&id.to_be_bytes(), &[7u8; 60]).unwrap();
        }
        e
    };
    let mut moved = load(true);
    let rewritten = load(false);
    let writes = |e: &Engine| e.stats().levels.iter().map(|l| l.writes).collect::<Vec<_>>();
    let (m, r) = (writes(&moved), writes(&rewritten));
    let total = |ws: &[lsm_engine::stats::WriteCounters], f: fn(&lsm_engine::stats::WriteCounters) -> u64| {
        ws.iter().map(f).sum::<u64>()
    };
    assert!(total(&m, |w| w.moves) > 0, "{m:?}");
    assert_eq!(total(&r, |w| w.moves), 0);
    // Flushes are written once either way; with moves, far fewer compaction bytes.
    let compacted = |ws: &[lsm_engine::stats::WriteCounters]| total(ws, |w| w.bytes_written) - ws[0].bytes_written;
    assert!(compacted(&m) * 2 < compacted(&r), "{} vs {}", compacted(&m), compacted(&r));
    moved.sync().unwrap();
    let before = common::table_ids(&moved);
    let mut again = Engine::open(moved.into_storage(), None).unwrap();
    assert_eq!(common::table_ids(&again), before);
    for id in (0..4_000u32).step_by(37) {
        assert_eq!(again.get(&id.to_be_bytes()).unwrap(), Some(vec![7u8; 60]));
    }
    assert_eq!(again.get(&4_001u32.to_be_bytes()).unwrap(), None);
}

#[test]
fn compact_all_puts_everything_in_the_last_level() {
    let mut c = design(UniversalConfig::default(), true);
    c.compaction.num_levels = 5;
    let mut e = Engine::create(c, Box::new(MemStorage::new())).unwrap();
    for id in 0..3_000u32 {
        e.put(&(id % 1_000).to_be_bytes(), &id.to_le_bytes().repeat(20)).unwrap();
    }
    e.compact_all().unwrap();
    let tree = e.tree();
    assert_eq!(tree.levels.len(), 5);
    assert_eq!(tree.run_count(), 1);
    assert_eq!(tree.entries(), 1_000);
}

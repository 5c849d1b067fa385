//! Dynamic level bytes in the engine: level 1 merges into the base level over empty levels, the
//! base level climbs as the last level grows, and the tree survives a reopen.
#![allow(clippy::unwrap_used)]

mod common;

use lsm_core::compaction::{dynamic_levels, dynamic_scores};
use lsm_core::config::{Allocation, CompactionConfig, EngineConfig, FilePick, Granularity};
use lsm_engine::engine::Engine;
use lsm_engine::storage::MemStorage;

/// L0 trigger 4 (3 files at rest), max_bytes_for_level_base 4 buffers, multiplier 4, L0..L4.
fn design() -> EngineConfig {
    let n = None;
    let mut c = common::config("dynamic", 512, 4096, &[(4.0, 3, n), (4.0, 1, n)], Allocation::Uniform, 8.0);
    c.compaction = CompactionConfig {
        granularity: Granularity::File,
        target_file_bytes: 4096,
        pick: FilePick::MinOverlappingRatio,
        trivial_moves: true,
        dynamic_level_bytes: true,
        num_levels: 5,
        ..CompactionConfig::default()
    };
    c.validate().unwrap();
    c
}

/// A key of 8 bytes spread over the key space (a multiplicative hash of `i`).
fn key(i: u64) -> [u8; 8] {
    i.wrapping_mul(0x9E37_79B9_7F4A_7C15).to_be_bytes()
}

/// Entry bytes per engine level (level 1 first) and level 1's file count.
fn level_bytes(e: &Engine) -> (Vec<u64>, usize) {
    let tree = e.tree();
    let bytes =
        tree.levels.iter().map(|l| l.runs.iter().flat_map(|r| r.tables.iter()).map(|t| t.entry_bytes).sum()).collect();
    let files = tree.levels.first().map_or(0, |l| l.runs.iter().map(|r| r.tables.len()).sum());
    (bytes, files)
}

fn engine() -> Engine {
    Engine::create(design(), Box::new(MemStorage::new())).unwrap()
}

#[test]
fn the_first_merge_goes_straight_to_the_last_level() {
    let mut e = engine();
    let mut i = 0;
    while level_bytes(&e).0.len() < 2 {
        e.put(&key(i), &[7u8; 56]).unwrap();
        i += 1;
    }
    // Four flushed files (the trigger) went from level 1 into level 5 (RocksDB's L4, the last
    // level): levels 2 to 4 stay empty, nothing went through them.
    let (bytes, files) = level_bytes(&e);
    assert_eq!(bytes.len(), 5);
    assert_eq!(&bytes[..4], &[0, 0, 0, 0]);
    assert_eq!(files, 0);
    assert!(bytes[4] >= 4 * 3 * 1024, "{bytes:?}");
    let stats = e.stats();
    assert_eq!(stats.levels[4].writes.compactions, 1);
    assert!(stats.levels.iter().take(4).skip(1).all(|l| l.writes.compactions == 0 && l.writes.moves == 0));
}

#[test]
fn the_base_level_climbs_as_the_last_level_grows_and_levels_stay_within_target() {
    let c = design();
    let mut e = engine();
    let mut bases = Vec::new();
    for i in 0..20_000u64 {
        e.put(&key(i), &[7u8; 56]).unwrap();
        if i % 250 != 249 {
            continue;
        }
        // Merges are paced over the writes: look at the tree they leave once done.
        e.settle().unwrap();
        let (bytes, files) = level_bytes(&e);
        let d = dynamic_levels(&bytes, &c);
        if bases.last() != Some(&d.base_level) {
            bases.push(d.base_level);
        }
        // RocksDB's shape: nothing between level 1 and the base level, and no level left at a
        // score of 1 or more once merges are done.
        assert!(bytes.iter().take(d.base_level - 1).skip(1).all(|&b| b == 0), "{i}: {bytes:?}, base {}", d.base_level);
        let scores = dynamic_scores(&bytes, files, &d, &c);
        assert!(scores.iter().all(|&(_, s)| s < 1.0), "{i}: {bytes:?} scores {scores:?}");
    }
    // Level 5 (the last) while it is empty or small, level 4 once it outgrows
    // max_bytes_for_level_base × 4, then 3, then 2 (L1).
    assert_eq!(bases, vec![5, 4, 3, 2]);
    let (bytes, _) = level_bytes(&e);
    let d = dynamic_levels(&bytes, &c);
    let total: u64 = bytes.iter().sum();
    // The last level holds about (1 − 1/4) of the data, each level above a quarter of the next.
    assert!(bytes[4] as f64 >= 0.7 * total as f64, "{bytes:?}");
    for level in 2..=4 {
        assert!(bytes[level - 1] <= d.target(level), "level {level}: {bytes:?} vs {:?}", d.targets);
    }
    for i in (0..20_000u64).step_by(37) {
        assert_eq!(e.get(&key(i)).unwrap(), Some(vec![7u8; 56]));
    }
}

#[test]
fn a_tree_with_empty_middle_levels_reopens_as_it_was() {
    let mut e = engine();
    for i in 0..3_000u64 {
        e.put(&key(i), &[7u8; 56]).unwrap();
    }
    e.sync().unwrap();
    let (bytes, _) = level_bytes(&e);
    assert_eq!(bytes[1], 0, "level 2 is empty below a non-empty level 1: {bytes:?}");
    assert!(bytes[2] > 0 && bytes[4] > 0);
    let before = common::table_ids(&e);
    let mut again = Engine::open(e.into_storage(), None).unwrap();
    assert_eq!(common::table_ids(&again), before);
    for i in (0..3_000u64).step_by(7) {
        assert_eq!(again.get(&key(i)).unwrap(), Some(vec![7u8; 56]));
    }
    // Writing on continues from the same base level.
    for i in 3_000..6_000u64 {
        again.put(&key(i), &[7u8; 56]).unwrap();
    }
    let (bytes, _) = level_bytes(&again);
    assert_eq!(dynamic_levels(&bytes, &design()).base_level, 2, "{bytes:?}");
}

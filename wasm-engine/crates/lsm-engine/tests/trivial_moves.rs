//! RocksDB's trivial moves on the engine: keys written in order give files that never overlap the
//! level below, so with `trivial_moves` every merge below level 1 moves a file without reading or
//! writing it, and the tree holds the same data as when every merge rewrites.
#![allow(clippy::unwrap_used)]

mod common;

use lsm_core::config::{Allocation, CompactionConfig, EngineConfig, FilePick, Granularity};
use lsm_engine::engine::Engine;
use lsm_engine::storage::MemStorage;

fn design(trivial_moves: bool) -> EngineConfig {
    let n = None;
    let mut c = common::config("by file", 512, 4096, &[(4.0, 3, n), (4.0, 1, n)], Allocation::Uniform, 8.0);
    c.compaction = CompactionConfig {
        granularity: Granularity::File,
        target_file_bytes: 4096,
        pick: FilePick::MinOverlappingRatio,
        trivial_moves,
        ..CompactionConfig::default()
    };
    c
}

/// Writes ids 0..n in order; returns the engine (merges finished).
fn load_in_order(config: EngineConfig, n: u32) -> Engine {
    let mut e = Engine::create(config, Box::new(MemStorage::new())).unwrap();
    for id in 0..n {
        e.put(&id.to_be_bytes(), &[7u8; 60]).unwrap();
    }
    e
}

#[test]
fn keys_in_order_reach_the_deep_levels_by_moves_alone() {
    let moved = load_in_order(design(true), 20_000);
    let rewritten = load_in_order(design(false), 20_000);
    let deep = |e: &Engine| e.stats().levels.iter().skip(1).map(|l| l.writes).collect::<Vec<_>>();
    let (m, r) = (deep(&moved), deep(&rewritten));
    assert!(m.len() >= 2, "data reached level 3: {} levels below level 1", m.len());
    // Level 1 (LevelDB's L0) merges its files into level 2; deeper levels only receive moves.
    assert!(m[0].compactions > 0);
    for (i, w) in m.iter().enumerate().skip(1) {
        assert_eq!((w.compactions, w.bytes_written), (0, 0), "level {} was rewritten", i + 2);
        assert!(w.moves > 0 && w.entries_moved > 0, "level {} got no moves", i + 2);
    }
    let written = |ws: &[lsm_engine::stats::WriteCounters]| ws.iter().map(|w| w.bytes_written).sum::<u64>();
    assert!(written(&r) > 2 * written(&m), "moves save the rewrites: {} vs {}", written(&m), written(&r));
    // Same entries, same answers.
    let mut moved = moved;
    for id in (0..20_000u32).step_by(97) {
        assert_eq!(moved.get(&id.to_be_bytes()).unwrap(), Some(vec![7u8; 60]));
    }
    assert_eq!(moved.get(&20_001u32.to_be_bytes()).unwrap(), None);
}

#[test]
fn a_moved_file_is_where_the_manifest_says_after_a_reopen() {
    let e = load_in_order(design(true), 8_000);
    let before = common::table_ids(&e);
    assert!(before.iter().filter(|(_, ids)| !ids.is_empty()).count() >= 3);
    let mut again = Engine::open(e.into_storage(), None).unwrap();
    assert_eq!(common::table_ids(&again), before);
    assert_eq!(again.get(&4_321u32.to_be_bytes()).unwrap(), Some(vec![7u8; 60]));
}

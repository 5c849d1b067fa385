//! Paced merging changes when merges run, not what they write: the same writes give the same
//! bytes per level, the same merges and the same tree as merging inline, on every merge policy
//! family; and stalls are counted when the thresholds are hit.
#![allow(clippy::unwrap_used)]

mod common;

use lsm_core::config::EngineConfig;
use lsm_core::rng::Rng;
use lsm_engine::engine::{Engine, Merging};
use lsm_engine::stats::WriteCounters;
use lsm_engine::storage::MemStorage;

/// Play `writes` seeded puts and deletes (syncing now and then), then settle; the per-level write
/// counters, the stall counters and the tree's run sizes per level.
fn play(config: &EngineConfig, merging: Merging, writes: u64, seed: u64) -> (Vec<WriteCounters>, u64, Vec<Vec<u64>>) {
    let mut engine = Engine::create(config.clone(), Box::new(MemStorage::new())).unwrap();
    engine.merging = merging;
    let mut rng = Rng::new(seed);
    let max_value = (u64::from(config.page_bytes) / 2).min(120);
    for i in 0..writes {
        let k = format!("key{:06}", rng.below(20_000)).into_bytes();
        if rng.below(10) == 0 {
            engine.delete(&k).unwrap();
        } else {
            let v = vec![b'v'; rng.below(max_value + 1) as usize];
            engine.put(&k, &v).unwrap();
        }
        if i % 5_000 == 0 {
            engine.sync().unwrap();
        }
    }
    let stalls = engine.stats().stalls.writes();
    engine.settle().unwrap();
    let writes = engine.stats().levels.iter().map(|l| l.writes).collect();
    let shape = engine.tree().levels.iter().map(|l| l.runs.iter().map(|r| r.entries).collect()).collect();
    (writes, stalls, shape)
}

#[test]
fn paced_merges_write_what_inline_merges_write() {
    for (i, (config, auto)) in common::oracle_configs().into_iter().enumerate() {
        if !auto {
            continue;
        }
        let seed = 40 + i as u64;
        let (inline, inline_stalls, inline_shape) = play(&config, Merging::Inline, 30_000, seed);
        let (paced, _, paced_shape) = play(&config, Merging::Paced, 30_000, seed);
        assert_eq!(paced, inline, "config '{}': bytes written per level differ", config.name);
        assert_eq!(paced_shape, inline_shape, "config '{}': trees differ", config.name);
        assert_eq!(inline_stalls, 0, "config '{}': inline merges never stall", config.name);
        assert!(inline.iter().map(|w| w.compactions).sum::<u64>() > 0, "config '{}': no merge ran", config.name);
    }
}

#[test]
fn paced_writes_merge_between_flushes_and_stall_at_the_thresholds() {
    let (config, _) =
        common::oracle_configs().into_iter().find(|(c, a)| *a && c.compaction.universal.is_none()).unwrap();
    // Default thresholds: merges are paid by the writes between flushes, so writes neither slow
    // down nor stop, and no flush waits (at this size the gear keeps up).
    let mut engine = Engine::create(config.clone(), Box::new(MemStorage::new())).unwrap();
    let mut merged_between_flushes = false;
    for i in 0..40_000u64 {
        let flushes_before: u64 = engine.stats().levels.first().map_or(0, |l| l.writes.flushes);
        let compactions_before: u64 = engine.stats().levels.iter().map(|l| l.writes.compactions).sum();
        engine.put(format!("k{:07}", (i * 7919) % 50_000).as_bytes(), &[7u8; 40]).unwrap();
        let flushes: u64 = engine.stats().levels.first().map_or(0, |l| l.writes.flushes);
        let compactions: u64 = engine.stats().levels.iter().map(|l| l.writes.compactions).sum();
        // A merge finished inside a write that did not flush: it ran paced.
        merged_between_flushes |= compactions > compactions_before && flushes == flushes_before;
    }
    assert!(merged_between_flushes, "'{}': no merge completed between flushes", config.name);
    let s = engine.stats().stalls.clone();
    assert_eq!((s.slowdowns, s.stops), (0, 0), "'{}': {s:?}", config.name);

    // Level 1 at one file stops writes, at none slows them: every write with merges due stalls,
    // and nothing is lost.
    let mut tight = config.clone();
    tight.write_stalls.level0_slowdown_writes_trigger = 1;
    tight.write_stalls.level0_stop_writes_trigger = 1;
    tight.validate().unwrap();
    let mut engine = Engine::create(tight, Box::new(MemStorage::new())).unwrap();
    for i in 0..40_000u64 {
        engine.put(format!("k{:07}", (i * 7919) % 50_000).as_bytes(), &[7u8; 40]).unwrap();
    }
    let s = engine.stats().stalls.clone();
    assert!(s.stops > 0, "{s:?}");
    assert!(s.pages_merged > 0, "{s:?}");
    for i in (0..40_000u64).step_by(997) {
        assert_eq!(engine.get(format!("k{:07}", (i * 7919) % 50_000).as_bytes()).unwrap(), Some(vec![7u8; 40]));
    }
}

#[test]
fn write_stall_state_reaches_stop_at_the_trigger_and_clears_after_the_merge() {
    use lsm_core::pacing::Stall;
    // The teaching view's tree: 2 KiB buffer, 256 B pages, tiering with 3 runs per level, level 1
    // slowing writes at 2 files and stopping them at 4.
    let config = EngineConfig::from_json(
        r#"{"kind":"lsm-navigator/engine-config","version":1,"page_bytes":256,"buffer_bytes":2048,
            "levels":[{"size_ratio":4,"max_runs":3}],"filter":{"allocation":"monkey","bits_per_key":5},
            "write_stalls":{"level0_slowdown_writes_trigger":2,"level0_stop_writes_trigger":4}}"#,
    )
    .unwrap();
    let mut engine = Engine::create(config, Box::new(MemStorage::new())).unwrap();
    assert_eq!(engine.write_stall().stall, Stall::None);
    let (mut saw_slowdown, mut stops_seen) = (false, 0);
    for i in 0..2_000u64 {
        let before = engine.write_stall();
        let stops_before = engine.stats().stalls.stops;
        engine.put(format!("k{:07}", (i * 7919) % 100_000).as_bytes(), &[b'v'; 24]).unwrap();
        let after = engine.write_stall();
        let s = engine.stats().stalls.clone();
        // The verdict follows level 1's files and the triggers.
        let want = match after.level0_files {
            0 | 1 => Stall::None,
            2 | 3 => Stall::Slowdown,
            _ => Stall::Stop,
        };
        assert_eq!(after.stall, want, "write {i}: {after:?}");
        assert!(
            after.level0_files <= 4,
            "write {i}: level 1 holds at most 3 runs + the flush that fills it: {after:?}"
        );
        saw_slowdown |= after.stall == Stall::Slowdown;
        if before.stall == Stall::Stop {
            // The write after level 1 reached the stop trigger waited until a merge brought it below.
            assert_eq!(s.stops, stops_before + 1, "write {i}");
            assert!(after.level0_files < 4, "write {i}: {after:?}");
            stops_seen += 1;
        } else {
            assert_eq!(s.stops, stops_before, "write {i}: only a write that finds level 1 at the stop trigger stops");
        }
    }
    assert!(saw_slowdown);
    // 2,000 writes of 32 B fill 31 buffers: every fourth flush brings level 1 to 4 files.
    assert!(stops_seen >= 6, "{stops_seen} stops");
    assert_eq!(engine.stats().stalls.stops, stops_seen);
    assert!(engine.stats().stalls.pages_merged > 0);
    assert!(engine.stats().stalls.slowdowns > 0);
    // Merges left to `step` never stall a write.
    engine.auto_compact = false;
    assert!(!engine.write_stall().paced);
}

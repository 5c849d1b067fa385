//! Crash safety: cut the engine off at hundreds of random points — inside writes, syncs,
//! flushes, merges and manifest updates — keep a random part of every unsynced file tail (torn
//! writes), reopen, and check that every acknowledged (synced) write is there and nothing else
//! but a prefix of the unacknowledged ones.
#![allow(clippy::unwrap_used)]

mod common;

use lsm_core::config::{Allocation, CompactionConfig, EngineConfig, FilterKind, Granularity};
use lsm_core::error::Error;
use lsm_core::rng::Rng;
use lsm_engine::engine::{Engine, Merging};
use lsm_engine::storage::{MemStorage, Storage};

use common::{State, Write, apply, is_acked_plus_prefix};

fn configs() -> Vec<EngineConfig> {
    let n = None;
    let mut by_file = common::config("by file", 512, 2048, &[(2.0, 2, n), (3.0, 1, n)], Allocation::Monkey, 6.0);
    by_file.compaction =
        CompactionConfig { granularity: Granularity::File, target_file_bytes: 1024, ..CompactionConfig::default() };
    let mut moving = by_file.clone();
    moving.name = "by file, min-overlapping-ratio, trivial moves".into();
    moving.compaction.pick = lsm_core::config::FilePick::MinOverlappingRatio;
    moving.compaction.trivial_moves = true;
    moving.block_layout = lsm_core::config::BlockLayout::Rocksdb;
    let mut dynamic = moving.clone();
    dynamic.name = "by file, dynamic level bytes, 4 levels".into();
    dynamic.compaction.dynamic_level_bytes = true;
    dynamic.compaction.num_levels = 4;
    dynamic.validate().unwrap();
    // RocksDB's partitioned filters and two-level index, through a small cache.
    let mut partitioned = moving.clone();
    partitioned.name = "by file, partitioned filters, two-level index".into();
    partitioned.block_cache.bytes = 4096;
    partitioned.block_cache.cache_index_and_filter_blocks = true;
    partitioned.block_cache.index_type = lsm_core::config::IndexType::TwoLevelIndexSearch;
    partitioned.block_cache.partition_filters = true;
    partitioned.block_cache.metadata_block_size = 128;
    partitioned.validate().unwrap();
    let mut modular = common::config("modular tiering", 512, 2048, &[(3.0, 2, n)], Allocation::Uniform, 8.0);
    modular.filter.kind = FilterKind::Modular;
    modular.filter.modules = 2;
    vec![
        common::config("leveling", 512, 2048, &[(3.0, 1, n)], Allocation::Uniform, 8.0),
        common::universal_tuned(common::config("universal", 512, 2048, &[(10.0, 1, n)], Allocation::Uniform, 8.0)),
        by_file,
        moving,
        partitioned,
        dynamic,
        modular,
        common::config("mnemosyne", 512, 2048, &[(2.0, 1, n)], Allocation::Mnemosyne, 5.0),
        common::reoptimised(common::config("re-optimised", 512, 2048, &[(2.0, 1, n)], Allocation::Monkey, 5.0), 0.0),
    ]
}

/// One trial: random writes with periodic syncs until the injected failure, then a crash.
/// Returns the acknowledged state and the unacknowledged writes, or None if the database was
/// never created.
fn run_until_crash(
    config: &EngineConfig,
    merging: Merging,
    storage: &MemStorage,
    rng: &mut Rng,
) -> Option<(State, Vec<Write>, bool)> {
    storage.fail_after_writes(Some(rng.below(3000)));
    let mut engine = Engine::create(config.clone(), Box::new(storage.clone())).ok()?;
    engine.merging = merging;
    let mut acked = State::new();
    let mut pending: Vec<Write> = Vec::new();
    for op in 0..20_000u64 {
        if !common::random_acked_write(&mut engine, rng, op, &mut pending, &mut acked) {
            break;
        }
    }
    // Whether a flush or merge was half done when the engine stopped.
    let in_flight = engine.tree().merging_level.is_some();
    // The crash: no close, no sync; the engine's memory is simply gone.
    drop(engine);
    Some((acked, pending, in_flight))
}

fn recovered(storage: &MemStorage) -> Result<State, Error> {
    let mut engine = Engine::open(Box::new(storage.clone()), None)?;
    let all = engine.scan(b"", b"\xff")?;
    // Point lookups must agree with the scan (the filters and fences survived too).
    for (k, v) in all.iter().step_by(5) {
        assert_eq!(engine.get(k)?.as_ref(), Some(v));
    }
    Ok(all.into_iter().collect())
}

/// Paced merging (the default): crashes fall inside paced flushes and merges, between the writes
/// that advance them.
#[test]
fn acknowledged_writes_survive_500_random_crashes() {
    crash_trials(Merging::Paced, 0..560, 500);
}

#[test]
fn acknowledged_writes_survive_random_crashes_with_merges_inline() {
    crash_trials(Merging::Inline, 1000..1200, 150);
}

fn crash_trials(merging: Merging, seeds: std::ops::Range<u64>, at_least: u64) {
    let configs = configs();
    let mut trials = 0;
    let mut torn = 0;
    let mut mid_merge = 0;
    for trial in seeds {
        let config = &configs[(trial % configs.len() as u64) as usize];
        let mut rng = Rng::new(0xC4A5_0000 + trial);
        let storage = MemStorage::new();
        let Some((acked, pending, in_flight)) = run_until_crash(config, merging, &storage, &mut rng) else { continue };
        mid_merge += u64::from(in_flight);
        storage.fail_after_writes(None);
        // Keep a random part of each unsynced tail: nothing, all of it, or a torn piece.
        storage.crash(|_, unsynced| match rng.below(3) {
            0 => 0,
            1 => unsynced,
            _ => {
                torn += usize::from(unsynced > 0);
                rng.below(unsynced as u64 + 1) as usize
            }
        });
        let state =
            recovered(&storage).unwrap_or_else(|e| panic!("trial {trial} ({}): reopen failed: {e}", config.name));
        // The recovered state is the acknowledged one plus some prefix of the unacknowledged writes.
        assert!(
            is_acked_plus_prefix(&acked, &pending, &state),
            "trial {trial} ({}): recovered state is not the acknowledged writes plus a prefix of the rest",
            config.name
        );
        trials += 1;
    }
    println!(
        "{merging:?}: {trials} crash trials recovered exactly; {torn} file tails were torn; {mid_merge} crashed with a flush or merge half done"
    );
    assert!(trials >= at_least, "only {trials} trials ran");
    if merging == Merging::Paced {
        // Paced flushes and merges span writes: many crashes find one half done.
        assert!(mid_merge >= trials / 10, "only {mid_merge} of {trials} crashes found a flush or merge in flight");
    }
}

#[test]
fn without_the_log_a_crash_loses_only_the_buffer() {
    // RocksDB's disableWAL: flushed writes survive, the buffer's are gone, nothing else changes.
    for config in configs() {
        let storage = MemStorage::new();
        let mut engine = Engine::create(config.clone(), Box::new(storage.clone())).unwrap();
        engine.set_write_ahead_log(false);
        let mut rng = Rng::new(0x0A1_0000);
        let mut writes: Vec<Write> = Vec::new();
        for i in 0..3_000u64 {
            let key = format!("k{:06}", rng.below(2_000)).into_bytes();
            let value = if rng.below(10) == 0 { None } else { Some(format!("v{i}").into_bytes()) };
            match &value {
                Some(v) => engine.put(&key, v).unwrap(),
                None => engine.delete(&key).unwrap(),
            }
            writes.push((key, value));
            if i % 100 == 0 {
                engine.sync().unwrap();
            }
        }
        let stats = engine.stats().clone();
        assert_eq!(stats.wal_bytes_written, 0, "{}: nothing logged", config.name);
        drop(engine);
        storage.crash(|_, _| 0);
        assert!(!storage.clone().list().unwrap().iter().any(|f| f.ends_with(".wal")), "{}: no log files", config.name);
        let state = recovered(&storage).unwrap();
        // The recovered state is a prefix of the writes: everything up to the last flush.
        let mut candidate = State::new();
        let mut prefix = None;
        for (n, op) in writes.iter().enumerate() {
            if candidate == state {
                prefix = Some(n);
            }
            apply(&mut candidate, op);
        }
        let n = prefix.unwrap_or_else(|| panic!("{}: recovered state is no prefix of the writes", config.name));
        assert!(n > 0 && writes.len() - n < 400, "{}: {} of {} writes survived", config.name, n, writes.len());
    }
}

#[test]
fn a_database_is_there_after_a_crash_right_after_it_was_created() {
    // Merges commit without waiting for the disk; creating a database does wait (the soak found
    // a crash before the first sync losing the new manifest).
    for config in configs() {
        let storage = MemStorage::new();
        let engine = Engine::create(config.clone(), Box::new(storage.clone())).unwrap();
        drop(engine);
        storage.crash(|_, _| 0);
        let reopened = Engine::open(Box::new(storage.clone()), None).unwrap();
        assert_eq!(reopened.config().name, config.name);
    }
}

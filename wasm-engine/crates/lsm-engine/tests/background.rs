//! Background merges (`Merging::Background`) under a deterministic scheduler: a seeded
//! interleaving of writer operations and merger steps (`Merger::stepped`), so any failure
//! replays from the seed its message prints. Checked against a `BTreeMap` oracle, through
//! hundreds of crashes with torn tails injected while flushes and merges are out, and on a
//! real merger thread over files.
#![allow(clippy::unwrap_used)]

mod common;

use lsm_core::config::EngineConfig;
use lsm_core::error::Error;
use lsm_core::rng::Rng;
use lsm_engine::engine::{Engine, Merger};
use lsm_engine::stats::ReadCounters;
use lsm_engine::storage::{MemStorage, Storage};

use common::{State, Write, is_acked_plus_prefix};

/// An engine on `storage` whose merger's steps the test drives, on a second handle.
fn stepped(config: &EngineConfig, storage: &MemStorage) -> Result<Engine, Error> {
    let mut engine = Engine::create(config.clone(), Box::new(storage.clone()))?;
    engine.merge_in_background(Merger::stepped(Box::new(storage.clone())))?;
    Ok(engine)
}

/// What one scheduled run saw.
#[derive(Debug, Default, PartialEq)]
struct Seen {
    merger_steps: u64,
    /// Lookups and scans answered while a flush or merge was out.
    reads_in_flight: u64,
    flushes: u64,
    compactions: u64,
    tables: Vec<(usize, Vec<u64>)>,
}

/// Random writes, lookups and scans interleaved with merger steps by `seed`, each answer checked
/// against the oracle; then settled, checked whole, reopened and checked again.
fn scheduled_run(config: &EngineConfig, seed: u64, ops: u64) -> Seen {
    let mut rng = Rng::new(seed);
    let storage = MemStorage::new();
    let mut engine = stepped(config, &storage).unwrap();
    let mut oracle = State::new();
    let mut seen = Seen::default();
    // How eager the merger is this run: from starved (writes stall) to keeping up.
    let merger_share = 1 + rng.below(6);
    let key = |rng: &mut Rng| format!("key{:05}", rng.below(2_000)).into_bytes();
    for op in 0..ops {
        let steps = if rng.below(8) < merger_share { rng.below(4) } else { 0 };
        for _ in 0..steps {
            seen.merger_steps += u64::from(engine.background_step());
        }
        let out = engine.background_jobs() > 0;
        match rng.below(20) {
            0..=10 => {
                let k = key(&mut rng);
                let v = format!("v{op}-{}", "x".repeat(rng.below(40) as usize)).into_bytes();
                engine.put(&k, &v).unwrap();
                oracle.insert(k, v);
            }
            11..=12 => {
                let k = key(&mut rng);
                engine.delete(&k).unwrap();
                oracle.remove(&k);
            }
            13..=18 => {
                let k = key(&mut rng);
                assert_eq!(engine.get(&k).unwrap(), oracle.get(&k).cloned(), "seed {seed:#x}, op {op}: get");
                seen.reads_in_flight += u64::from(out);
            }
            _ => {
                let (a, b) = (key(&mut rng), key(&mut rng));
                let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
                let want: Vec<(Vec<u8>, Vec<u8>)> =
                    oracle.range(lo.clone()..=hi.clone()).map(|(k, v)| (k.clone(), v.clone())).collect();
                assert_eq!(engine.scan(&lo, &hi).unwrap(), want, "seed {seed:#x}, op {op}: scan");
                seen.reads_in_flight += u64::from(out);
            }
        }
    }
    engine.settle().unwrap();
    assert_eq!(engine.background_jobs(), 0, "seed {seed:#x}: settle leaves nothing out");
    let all: State = engine.scan(b"", b"\xff").unwrap().into_iter().collect();
    assert!(all == oracle, "seed {seed:#x} ({}): the settled tree differs from the oracle", config.name);
    for l in engine.stats().levels.iter() {
        seen.flushes += l.writes.flushes;
        seen.compactions += l.writes.compactions;
    }
    seen.tables = common::table_ids(&engine);
    engine.sync().unwrap();
    drop(engine);
    let reopened = Engine::open(Box::new(storage.clone()), None).unwrap();
    assert_eq!(common::table_ids(&reopened), seen.tables, "seed {seed:#x}: the reopened tree is the settled one");
    let mut reopened = reopened;
    let again: State = reopened.scan(b"", b"\xff").unwrap().into_iter().collect();
    assert!(again == oracle, "seed {seed:#x} ({}): the reopened tree differs from the oracle", config.name);
    seen
}

fn configs() -> Vec<EngineConfig> {
    let mut all: Vec<EngineConfig> = common::oracle_configs().into_iter().map(|(c, _)| c).collect();
    all.extend(common::persistence_configs());
    all
}

#[test]
fn the_oracle_agrees_under_seeded_interleavings_of_writer_and_merger() {
    let mut totals = Seen::default();
    for (i, config) in configs().iter().enumerate() {
        let seen = scheduled_run(config, 0xB6_0000 + i as u64, 6_000);
        totals.merger_steps += seen.merger_steps;
        totals.reads_in_flight += seen.reads_in_flight;
        totals.flushes += seen.flushes;
        totals.compactions += seen.compactions;
    }
    println!("background oracle: {totals:?}");
    assert!(totals.flushes > 100 && totals.compactions > 100, "flushes and merges ran on the merger: {totals:?}");
    assert!(totals.reads_in_flight > 1_000, "lookups and scans met jobs out: {totals:?}");
}

#[test]
fn a_seed_replays_the_same_interleaving() {
    let config = &configs()[1];
    let a = scheduled_run(config, 0x5EED, 4_000);
    let b = scheduled_run(config, 0x5EED, 4_000);
    assert_eq!(a, b, "same seed, same steps, same tree");
    assert!(a.compactions > 0);
}

/// Random writes, syncs and merger steps until the injected failure, then a crash. Returns the
/// acknowledged state, the unacknowledged writes and whether a job was out.
fn run_until_crash(config: &EngineConfig, storage: &MemStorage, rng: &mut Rng) -> Option<(State, Vec<Write>, bool)> {
    storage.fail_after_writes(Some(rng.below(3000)));
    let mut engine = stepped(config, storage).ok()?;
    let merger_share = 1 + rng.below(6);
    let mut acked = State::new();
    let mut pending: Vec<Write> = Vec::new();
    // Whether a job was out when the failure struck (a failed job is dropped before the write
    // that meets its failure returns).
    let mut in_flight = false;
    for op in 0..20_000u64 {
        in_flight = engine.background_jobs() > 0;
        if rng.below(8) < merger_share {
            for _ in 0..rng.below(4) {
                engine.background_step();
            }
        }
        if !common::random_acked_write(&mut engine, rng, op, &mut pending, &mut acked) {
            break;
        }
    }
    // The crash: no close, no sync; the writer's and the merger's memory are simply gone.
    drop(engine);
    Some((acked, pending, in_flight))
}

#[test]
fn acknowledged_writes_survive_crashes_with_merges_in_flight() {
    let configs = configs();
    let (mut trials, mut torn, mut in_flight) = (0u64, 0u64, 0u64);
    for trial in 0..620u64 {
        let config = &configs[(trial % configs.len() as u64) as usize];
        let seed = 0xBC_0000 + trial;
        let mut rng = Rng::new(seed);
        let storage = MemStorage::new();
        let Some((acked, pending, out)) = run_until_crash(config, &storage, &mut rng) else { continue };
        in_flight += u64::from(out);
        storage.fail_after_writes(None);
        storage.crash(|_, unsynced| match rng.below(3) {
            0 => 0,
            1 => unsynced,
            _ => {
                torn += u64::from(unsynced > 0);
                rng.below(unsynced as u64 + 1) as usize
            }
        });
        let mut engine = Engine::open(Box::new(storage.clone()), None)
            .unwrap_or_else(|e| panic!("seed {seed:#x} ({}): reopen failed: {e}", config.name));
        let state: State = engine.scan(b"", b"\xff").unwrap().into_iter().collect();
        for (k, v) in state.iter().step_by(5) {
            assert_eq!(engine.get(k).unwrap().as_ref(), Some(v), "seed {seed:#x}: lookup after recovery");
        }
        assert!(
            is_acked_plus_prefix(&acked, &pending, &state),
            "seed {seed:#x} ({}): recovered state is not the acknowledged writes plus a prefix",
            config.name
        );
        trials += 1;
    }
    println!("background: {trials} crash trials recovered exactly; {torn} tails torn; {in_flight} with a job out");
    assert!(trials >= 500, "only {trials} trials ran");
    assert!(in_flight >= trials / 4, "only {in_flight} of {trials} crashes found a flush or merge out");
    assert!(torn >= 50, "only {torn} torn tails");
}

#[test]
fn outputs_become_visible_only_when_the_writer_installs_them() {
    let config = &configs()[0];
    let storage = MemStorage::new();
    let mut engine = stepped(config, &storage).unwrap();
    let mut i = 0u64;
    // Fill the buffer until it freezes and its flush is out.
    while engine.background_jobs() == 0 {
        engine.put(format!("k{i:06}").as_bytes(), b"v").unwrap();
        i += 1;
    }
    let before = common::table_ids(&engine);
    let tables_before = storage.clone().list().unwrap().iter().filter(|f| f.ends_with(".sst")).count();
    while engine.background_step() {}
    // The merger wrote the flush's table, but the tree is as it was until the writer looks.
    let tables_after = storage.clone().list().unwrap().iter().filter(|f| f.ends_with(".sst")).count();
    assert!(tables_after > tables_before, "the merger wrote its output");
    assert_eq!(common::table_ids(&engine), before);
    assert_eq!(engine.background_jobs(), 1);
    assert_eq!(engine.get(b"k000000").unwrap().as_deref(), Some(&b"v"[..]), "the frozen buffer still answers");
    engine.put(b"next", b"v").unwrap();
    assert_ne!(common::table_ids(&engine), before, "installed at the next write");
}

#[test]
fn outputs_are_handed_over_as_built_and_nothing_is_read_back_at_install() {
    // The merger hands the writer each table as its builder left it (filter and fence pointers
    // in memory, pinned as the design pins them), as an inline merge keeps it: installing reads no
    // footer, filter or index again, and a lookup afterwards finds what was written.
    let mut merged = 0;
    let all = configs();
    for config in &all {
        let storage = MemStorage::new();
        let mut engine = stepped(config, &storage).unwrap();
        for i in 0..20_000u64 {
            engine.put(format!("k{:05}", (i * 7919) % 10_000).as_bytes(), format!("v{i}").as_bytes()).unwrap();
            if i % 3 == 0 {
                engine.background_step();
            }
        }
        engine.settle().unwrap();
        let stats = engine.stats();
        let written: (u64, u64) =
            stats.levels.iter().fold((0, 0), |(f, c), l| (f + l.writes.flushes, c + l.writes.compactions));
        assert!(written.0 > 0, "{}: flushes ran", config.name);
        merged += usize::from(written.1 > 0);
        assert_eq!(stats.open, ReadCounters::default(), "{}: read back at install", config.name);
        let k = (19_999u64 * 7919) % 10_000;
        assert_eq!(
            engine.get(format!("k{k:05}").as_bytes()).unwrap().as_deref(),
            Some(&b"v19999"[..]),
            "{}",
            config.name
        );
    }
    assert!(merged * 2 >= all.len(), "merges installed in {merged} of {} designs", all.len());
}

#[test]
fn a_starved_merger_stalls_writes_and_they_are_counted() {
    // Level 0 stops at 4 files: a merger never stepped by the scheduler makes writes wait (and
    // run the merger's steps themselves, as a blocked writer waits for a thread).
    let mut config = configs()[0].clone();
    config.write_stalls.level0_slowdown_writes_trigger = 2;
    config.write_stalls.level0_stop_writes_trigger = 4;
    config.validate().unwrap();
    let storage = MemStorage::new();
    let mut engine = stepped(&config, &storage).unwrap();
    let mut oracle = State::new();
    for i in 0..20_000u64 {
        let k = format!("k{:05}", (i * 7919) % 5_000).into_bytes();
        engine.put(&k, format!("v{i}").as_bytes()).unwrap();
        oracle.insert(k, format!("v{i}").into_bytes());
    }
    let s = engine.stats().stalls.clone();
    assert!(s.flush_waits > 0, "a full buffer waited for the last flush: {s:?}");
    engine.settle().unwrap();
    let all: State = engine.scan(b"", b"\xff").unwrap().into_iter().collect();
    assert!(all == oracle);
}

/// Real merger threads over files: the same answers as the oracle, the tree reopened intact.
#[cfg(feature = "files")]
#[test]
fn a_merger_thread_over_files_agrees_with_the_oracle() {
    use lsm_engine::storage::FileStorage;
    let shm = std::path::Path::new("/dev/shm");
    let base = if shm.is_dir() { shm.to_path_buf() } else { std::env::temp_dir() };
    for (n, config) in configs().iter().enumerate().step_by(4) {
        let dir = base.join(format!("lsm-bg-thread-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut engine = Engine::create(config.clone(), Box::new(FileStorage::open(&dir).unwrap())).unwrap();
        let open = || -> Result<Box<dyn Storage + Send>, Error> { Ok(Box::new(FileStorage::open(&dir)?)) };
        engine.merge_in_background(Merger::threads(open).unwrap()).unwrap();
        assert_eq!(engine.merging, lsm_engine::engine::Merging::Background);
        let mut rng = Rng::new(0x7EAD + n as u64);
        let mut oracle = State::new();
        for op in 0..30_000u64 {
            let k = format!("key{:05}", rng.below(3_000)).into_bytes();
            match rng.below(10) {
                0..=5 => {
                    let v = format!("v{op}").into_bytes();
                    engine.put(&k, &v).unwrap();
                    oracle.insert(k, v);
                }
                6 => {
                    engine.delete(&k).unwrap();
                    oracle.remove(&k);
                }
                _ => assert_eq!(engine.get(&k).unwrap(), oracle.get(&k).cloned(), "{}: op {op}", config.name),
            }
        }
        engine.settle().unwrap();
        let all: State = engine.scan(b"", b"\xff").unwrap().into_iter().collect();
        assert!(all == oracle, "{}: settled tree differs", config.name);
        let tables = common::table_ids(&engine);
        let flushes: u64 = engine.stats().levels.iter().map(|l| l.writes.flushes).sum();
        assert!(flushes > 0, "{}", config.name);
        engine.sync().unwrap();
        drop(engine);
        let mut reopened = Engine::open(Box::new(FileStorage::open(&dir).unwrap()), None).unwrap();
        assert_eq!(common::table_ids(&reopened), tables, "{}", config.name);
        let again: State = reopened.scan(b"", b"\xff").unwrap().into_iter().collect();
        assert!(again == oracle, "{}: reopened tree differs", config.name);
        drop(reopened);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

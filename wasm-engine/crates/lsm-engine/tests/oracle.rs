//! Model-based property test: random operations on the engine and on a `BTreeMap` must give the
//! same answers, for every merge-policy family, with flushes and stepped merges interleaved —
//! and, for the persistence features, with close/reopen steps on memory and file storage.
#![allow(clippy::unwrap_used)]

mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use lsm_core::config::{EngineConfig, MonkeyPolicy};
use lsm_core::rng::Rng;
use lsm_engine::engine::{Engine, Merging};
use lsm_engine::storage::{FileStorage, MemStorage, Storage};

const OPS_PER_CONFIG: u64 = 100_000;
const KEY_SPACE: u64 = 3_000;

/// Keys of varying length: a 2-byte id and 0..=9 filler bytes that depend on the id.
fn key(id: u64) -> Vec<u8> {
    let mut k = vec![(id >> 8) as u8, id as u8];
    k.extend(std::iter::repeat_n(b'k', (id % 10) as usize));
    k
}

fn value(rng: &mut Rng, max: u64) -> Vec<u8> {
    let len = rng.below(max + 1) as usize;
    (0..len).map(|_| rng.below(256) as u8).collect()
}

#[derive(Clone, Copy, PartialEq)]
enum Backend {
    Memory,
    Files,
}

struct Db {
    engine: Option<Engine>,
    backend: Backend,
    dir: PathBuf,
    auto_compact: bool,
    merging: Merging,
}

impl Db {
    fn new(config: EngineConfig, backend: Backend, auto_compact: bool, merging: Merging, seed: u64) -> Db {
        // tmpfs where available: these checks are about reading back what was written, and a
        // disk's fsync latency (thousands of syncs) would only make them slow.
        let shm = std::path::Path::new("/dev/shm");
        let base = if shm.is_dir() { shm.to_path_buf() } else { std::env::temp_dir() };
        let dir = base.join(format!("lsm-oracle-{}-{seed}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let storage: Box<dyn Storage> = match backend {
            Backend::Memory => Box::new(MemStorage::new()),
            Backend::Files => Box::new(FileStorage::open(&dir).unwrap()),
        };
        let mut engine = Engine::create(config, storage).unwrap();
        engine.auto_compact = auto_compact;
        engine.merging = merging;
        Db { engine: Some(engine), backend, dir, auto_compact, merging }
    }

    fn engine(&mut self) -> &mut Engine {
        self.engine.as_mut().unwrap()
    }

    /// Close (after a sync) and open again from what storage holds.
    fn reopen(&mut self) {
        let mut engine = self.engine.take().unwrap();
        engine.sync().unwrap();
        let storage = match self.backend {
            Backend::Memory => engine.into_storage(),
            Backend::Files => {
                drop(engine);
                Box::new(FileStorage::open(&self.dir).unwrap())
            }
        };
        let mut engine = Engine::open(storage, None).unwrap();
        engine.auto_compact = self.auto_compact;
        engine.merging = self.merging;
        self.engine = Some(engine);
    }
}

impl Drop for Db {
    fn drop(&mut self) {
        if self.backend == Backend::Files {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// Drive `ops` random operations; `reopen_per_mille` of them close and reopen the database.
fn check(config: EngineConfig, auto_compact: bool, backend: Backend, reopen_per_mille: u64, seed: u64, ops: u64) {
    check_merging(config, auto_compact, Merging::Paced, backend, reopen_per_mille, seed, ops);
}

fn check_merging(
    config: EngineConfig,
    auto_compact: bool,
    merging: Merging,
    backend: Backend,
    reopen_per_mille: u64,
    seed: u64,
    ops: u64,
) {
    let name = config.name.clone();
    let max_value = (u64::from(config.page_bytes) / 2).min(200);
    let mut db = Db::new(config, backend, auto_compact, merging, seed);
    let mut oracle: BTreeMap<Vec<u8>, Vec<u8>> = BTreeMap::new();
    let mut rng = Rng::new(seed);
    let mut reopens = 0;
    for op in 0..ops {
        let at = || format!("config '{name}', seed {seed}, op {op}");
        let k = key(rng.below(KEY_SPACE));
        let dice = rng.below(1000);
        if dice < reopen_per_mille {
            db.reopen();
            reopens += 1;
            continue;
        }
        match dice % 100 {
            0..35 => {
                let v = value(&mut rng, max_value);
                db.engine().put(&k, &v).unwrap_or_else(|e| panic!("{}: put: {e}", at()));
                oracle.insert(k, v);
            }
            35..45 => {
                db.engine().delete(&k).unwrap_or_else(|e| panic!("{}: delete: {e}", at()));
                oracle.remove(&k);
            }
            45..82 => {
                let got = db.engine().get(&k).unwrap_or_else(|e| panic!("{}: get: {e}", at()));
                assert_eq!(got.as_ref(), oracle.get(&k), "{}: get {k:?}", at());
            }
            82..87 => {
                let end = key(rng.below(KEY_SPACE));
                let got = db.engine().scan(&k, &end).unwrap_or_else(|e| panic!("{}: scan: {e}", at()));
                let want: Vec<(Vec<u8>, Vec<u8>)> = if k <= end {
                    oracle.range(k.clone()..=end.clone()).map(|(a, b)| (a.clone(), b.clone())).collect()
                } else {
                    Vec::new()
                };
                assert_eq!(got, want, "{}: scan {k:?}..={end:?}", at());
            }
            87..88 => db.engine().flush().unwrap_or_else(|e| panic!("{}: flush: {e}", at())),
            _ => {
                let pages = 1 + rng.below(8);
                db.engine().step(pages).unwrap_or_else(|e| panic!("{}: step: {e}", at()));
            }
        }
    }
    let filters = db.engine().config().filter.clone();
    if filters.monkey_policy == MonkeyPolicy::Reoptimised && filters.rebuild_payback == 0.0 && reopen_per_mille == 0 {
        let rebuilds: u64 = db.engine().stats().levels.iter().map(|l| l.filter_resizing.rebuilds).sum();
        assert!(rebuilds > 0, "config '{name}': the re-optimised policy never rebuilt a filter");
    }
    let all: Vec<(Vec<u8>, Vec<u8>)> = oracle.iter().map(|(a, b)| (a.clone(), b.clone())).collect();
    let (lo, hi) = (vec![0u8], vec![0xFFu8; 12]);
    assert_eq!(db.engine().scan(&lo, &hi).unwrap(), all, "config '{name}': full scan");
    db.reopen();
    assert_eq!(db.engine().scan(&lo, &hi).unwrap(), all, "config '{name}': full scan after reopen");
    db.engine().compact_all().unwrap();
    let tree = db.engine().tree();
    assert!(
        tree.levels.iter().filter(|l| !l.runs.is_empty()).count() <= 1,
        "config '{name}': compact_all left several levels"
    );
    assert_eq!(db.engine().scan(&lo, &hi).unwrap(), all, "config '{name}': full scan after compact_all");
    assert_eq!(tree.entries(), oracle.len() as u64, "config '{name}': tombstones must be gone after compact_all");
    for (k, v) in oracle.iter().step_by(7) {
        assert_eq!(db.engine().get(k).unwrap().as_ref(), Some(v), "config '{name}': get after compact_all");
    }
    if reopen_per_mille > 0 {
        assert!(reopens > 0, "config '{name}': no reopen happened");
    }
}

#[test]
fn engine_matches_btreemap_oracle_on_every_config() {
    let configs = common::oracle_configs();
    assert!(configs.len() >= 20);
    for (i, (config, auto_compact)) in configs.into_iter().enumerate() {
        check(config, auto_compact, Backend::Memory, 0, 1000 + i as u64, OPS_PER_CONFIG);
    }
}

#[test]
fn engine_matches_btreemap_oracle_with_merges_inline() {
    // The default is paced merging (the test above); inline runs every merge inside the write.
    for (i, (config, auto_compact)) in common::oracle_configs().into_iter().enumerate().filter(|(_, (_, a))| *a) {
        check_merging(config, auto_compact, Merging::Inline, Backend::Memory, 0, 1500 + i as u64, OPS_PER_CONFIG / 4);
    }
}

#[test]
fn engine_matches_btreemap_oracle_while_writes_stall() {
    // Thresholds low enough that writes slow down and stop on every merge policy family.
    for (i, (mut config, _)) in common::oracle_configs().into_iter().enumerate() {
        config.write_stalls.level0_slowdown_writes_trigger = 2;
        config.write_stalls.level0_stop_writes_trigger = 3;
        config.write_stalls.soft_pending_compaction_bytes_limit = 8 << 10;
        config.write_stalls.hard_pending_compaction_bytes_limit = 64 << 10;
        check_merging(config, true, Merging::Paced, Backend::Memory, 1, 1700 + i as u64, OPS_PER_CONFIG / 4);
    }
}

#[test]
fn oracle_holds_across_reopens_with_persistence_features_in_memory() {
    for (i, config) in common::persistence_configs().into_iter().enumerate() {
        check(config, i % 2 == 0, Backend::Memory, 2, 2000 + i as u64, OPS_PER_CONFIG);
    }
}

#[test]
fn oracle_holds_across_reopens_on_files() {
    let mut configs = common::persistence_configs();
    configs.push(common::oracle_configs().swap_remove(2).0);
    for (i, config) in configs.into_iter().enumerate() {
        check(config, i % 2 == 1, Backend::Files, 2, 3000 + i as u64, OPS_PER_CONFIG / 2);
    }
}

//! Model-based property test: random operations on the engine and on a `BTreeMap` must give the
//! same answers, for every merge-policy family, with flushes and stepped merges interleaved.
#![allow(clippy::unwrap_used)]

mod common;

use std::collections::BTreeMap;

use lsm_engine::engine::Engine;
use lsm_engine::rng::Rng;
use lsm_engine::storage::MemStorage;

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

#[test]
fn engine_matches_btreemap_oracle_on_every_config() {
    let configs = common::oracle_configs();
    assert!(configs.len() >= 20);
    for (seed, (config, auto_compact)) in configs.into_iter().enumerate() {
        let name = config.name.clone();
        let max_value = (config.page_bytes as u64 / 2).min(200);
        let mut engine = Engine::create(config, Box::new(MemStorage::new())).unwrap();
        engine.auto_compact = auto_compact;
        let mut oracle: BTreeMap<Vec<u8>, Vec<u8>> = BTreeMap::new();
        let mut rng = Rng::new(seed as u64 + 1000);
        for op in 0..OPS_PER_CONFIG {
            let at = || format!("config '{name}', seed {}, op {op}", seed + 1000);
            let k = key(rng.below(KEY_SPACE));
            match rng.below(100) {
                0..35 => {
                    let v = value(&mut rng, max_value);
                    engine.put(&k, &v).unwrap_or_else(|e| panic!("{}: put: {e}", at()));
                    oracle.insert(k, v);
                }
                35..45 => {
                    engine.delete(&k).unwrap_or_else(|e| panic!("{}: delete: {e}", at()));
                    oracle.remove(&k);
                }
                45..82 => {
                    let got = engine.get(&k).unwrap_or_else(|e| panic!("{}: get: {e}", at()));
                    assert_eq!(got.as_ref(), oracle.get(&k), "{}: get {k:?}", at());
                }
                82..87 => {
                    let end = key(rng.below(KEY_SPACE));
                    let got = engine.scan(&k, &end).unwrap_or_else(|e| panic!("{}: scan: {e}", at()));
                    let want: Vec<(Vec<u8>, Vec<u8>)> = if k <= end {
                        oracle.range(k.clone()..=end.clone()).map(|(a, b)| (a.clone(), b.clone())).collect()
                    } else {
                        Vec::new()
                    };
                    assert_eq!(got, want, "{}: scan {k:?}..={end:?}", at());
                }
                87..88 => engine.flush().unwrap_or_else(|e| panic!("{}: flush: {e}", at())),
                _ => {
                    let pages = 1 + rng.below(8);
                    engine.step(pages).unwrap_or_else(|e| panic!("{}: step: {e}", at()));
                }
            }
        }
        let all: Vec<(Vec<u8>, Vec<u8>)> = oracle.iter().map(|(a, b)| (a.clone(), b.clone())).collect();
        let (lo, hi) = (vec![0u8], vec![0xFFu8; 12]);
        assert_eq!(engine.scan(&lo, &hi).unwrap(), all, "config '{name}': full scan");
        engine.compact_all().unwrap();
        let tree = engine.tree();
        assert!(tree.run_count() <= 1, "config '{name}': compact_all left {} runs", tree.run_count());
        assert_eq!(engine.scan(&lo, &hi).unwrap(), all, "config '{name}': full scan after compact_all");
        let entries: u64 = tree.levels.iter().flat_map(|l| &l.runs).map(|r| r.entries).sum();
        assert_eq!(entries, oracle.len() as u64, "config '{name}': tombstones must be gone after compact_all");
    }
}

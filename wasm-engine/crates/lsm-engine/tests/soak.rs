//! Long oracle mode (`npm run soak`; not part of `npm test`): millions of random operations per
//! configuration on the engine and on a `BTreeMap`, with syncs, clean reopens and crashes in
//! between. A crash drops the engine without a sync and keeps a random part of every unsynced file
//! tail (nothing, all, or a torn piece); the reopened database must hold every acknowledged
//! (synced) write and, beyond that, only a prefix of the unacknowledged ones.
//!
//! Figures are printed per configuration and in total: operations checked, divergences (a read
//! that disagrees with the oracle), lost acknowledged writes, crashes and reopens. The test fails
//! if either count is not zero. Sizes come from the environment:
//! `SOAK_OPS_PER_CONFIG` (default 2,000,000) and `SOAK_SEED` (default 1).

// The soak prints its own wall time for the person running it; no measurement depends on it.
#![allow(clippy::disallowed_methods)]
#![allow(clippy::unwrap_used)]

mod common;

use std::collections::BTreeMap;
use std::time::Instant;

use lsm_core::config::EngineConfig;
use lsm_core::rng::Rng;
use lsm_engine::engine::Engine;
use lsm_engine::storage::MemStorage;

type State = BTreeMap<Vec<u8>, Vec<u8>>;
/// A write: key and value, or None for a delete.
type Write = (Vec<u8>, Option<Vec<u8>>);

const KEY_SPACE: u64 = 4_000;

fn key(id: u64) -> Vec<u8> {
    let mut k = format!("{id:06}").into_bytes();
    k.extend(std::iter::repeat_n(b'k', (id % 7) as usize));
    k
}

fn apply(state: &mut State, w: &Write) {
    match &w.1 {
        Some(v) => state.insert(w.0.clone(), v.clone()),
        None => state.remove(&w.0),
    };
}

#[derive(Default, Debug, Clone, Copy)]
struct Tally {
    ops: u64,
    reads_checked: u64,
    divergences: u64,
    lost_acknowledged: u64,
    crashes: u64,
    torn_tails: u64,
    reopens: u64,
}

impl Tally {
    fn add(&mut self, o: &Tally) {
        self.ops += o.ops;
        self.reads_checked += o.reads_checked;
        self.divergences += o.divergences;
        self.lost_acknowledged += o.lost_acknowledged;
        self.crashes += o.crashes;
        self.torn_tails += o.torn_tails;
        self.reopens += o.reopens;
    }
}

struct Soak {
    storage: MemStorage,
    engine: Option<Engine>,
    auto_compact: bool,
    /// What the last sync made durable.
    acked: State,
    /// Writes since the last sync, in order.
    pending: Vec<Write>,
    /// What reads must see: `acked` with `pending` applied.
    current: State,
    tally: Tally,
}

impl Soak {
    fn engine(&mut self) -> &mut Engine {
        self.engine.as_mut().unwrap()
    }

    fn sync(&mut self) -> lsm_core::error::Result<()> {
        self.engine().sync()?;
        for w in self.pending.drain(..) {
            apply(&mut self.acked, &w);
        }
        Ok(())
    }

    fn open(&mut self) {
        let mut engine = Engine::open(Box::new(self.storage.clone()), None).unwrap();
        engine.auto_compact = self.auto_compact;
        self.engine = Some(engine);
    }

    fn everything(&mut self) -> State {
        self.engine().scan(b"", b"\xff").unwrap().into_iter().collect()
    }

    /// Close after a sync and open again: nothing may change.
    fn reopen(&mut self) {
        self.storage.fail_after_writes(None);
        self.sync().unwrap();
        drop(self.engine.take());
        self.open();
        self.tally.reopens += 1;
        let now = self.everything();
        if now != self.current {
            self.tally.divergences += 1;
        }
    }

    /// Drop the engine without a sync, tear the unsynced tails, reopen and check what survived.
    fn crash(&mut self, rng: &mut Rng) {
        drop(self.engine.take());
        self.storage.fail_after_writes(None);
        let mut torn = 0;
        self.storage.crash(|_, unsynced| match rng.below(3) {
            0 => 0,
            1 => unsynced,
            _ => {
                torn += u64::from(unsynced > 0);
                rng.below(unsynced as u64 + 1) as usize
            }
        });
        self.tally.crashes += 1;
        self.tally.torn_tails += torn;
        self.open();
        let recovered = self.everything();
        // Acknowledged writes, then some prefix of the unacknowledged ones.
        let mut candidate = self.acked.clone();
        let mut matched = candidate == recovered;
        for w in &self.pending {
            if matched {
                break;
            }
            apply(&mut candidate, w);
            matched = candidate == recovered;
        }
        if !matched {
            self.tally.lost_acknowledged +=
                self.acked.iter().filter(|(k, v)| recovered.get(*k) != Some(*v)).count().max(1) as u64;
        }
        // Whatever survived is the new truth, durable from here on.
        self.acked = recovered.clone();
        self.current = recovered;
        self.pending.clear();
    }
}

fn soak(config: EngineConfig, auto_compact: bool, seed: u64, ops: u64) -> Tally {
    let storage = MemStorage::new();
    let mut engine = Engine::create(config.clone(), Box::new(storage.clone())).unwrap();
    engine.auto_compact = auto_compact;
    let mut s = Soak {
        storage,
        engine: Some(engine),
        auto_compact,
        acked: State::new(),
        pending: Vec::new(),
        current: State::new(),
        tally: Tally::default(),
    };
    let mut rng = Rng::new(seed);
    let max_value = (u64::from(config.page_bytes) / 2).min(200);
    for op in 0..ops {
        if let Err(e) = one_op(&mut s, &mut rng, op, max_value) {
            // The injected failure: the process died inside that operation's storage writes.
            assert!(e.to_string().contains("injected failure"), "op {op}: {e}");
            s.storage.fail_after_writes(None);
            s.crash(&mut rng);
        }
        s.tally.ops += 1;
    }
    // The end: everything, after a sync and a clean reopen, and after merging it all.
    s.reopen();
    s.engine().compact_all().unwrap();
    if s.everything() != s.current {
        s.tally.divergences += 1;
    }
    s.tally
}

/// One random operation, checked against the oracle. An error is an injected storage failure.
fn one_op(s: &mut Soak, rng: &mut Rng, op: u64, max_value: u64) -> lsm_core::error::Result<()> {
    {
        let k = key(rng.below(KEY_SPACE));
        match rng.below(10_000) {
            0..3500 => {
                let len = rng.below(max_value + 1) as usize;
                let v: Vec<u8> = (0..len).map(|i| (op as usize + i) as u8).collect();
                // A write that dies half-way may or may not have reached the log: pending either way.
                s.pending.push((k.clone(), Some(v.clone())));
                s.engine().put(&k, &v)?;
                s.current.insert(k, v);
            }
            3500..4500 => {
                s.pending.push((k.clone(), None));
                s.engine().delete(&k)?;
                s.current.remove(&k);
            }
            4500..8200 => {
                let got = s.engine().get(&k)?;
                s.tally.reads_checked += 1;
                if got.as_ref() != s.current.get(&k) {
                    s.tally.divergences += 1;
                }
            }
            8200..8700 => {
                let end = key(rng.below(KEY_SPACE));
                let got = s.engine().scan(&k, &end)?;
                s.tally.reads_checked += 1;
                let want: Vec<(Vec<u8>, Vec<u8>)> = if k <= end {
                    s.current.range(k.clone()..=end).map(|(a, b)| (a.clone(), b.clone())).collect()
                } else {
                    Vec::new()
                };
                if got != want {
                    s.tally.divergences += 1;
                }
            }
            8700..9900 => {
                let pages = 1 + rng.below(16);
                s.engine().step(pages)?;
            }
            9900..9990 => s.sync()?,
            // Die between operations, or arm a death somewhere in the next storage writes
            // (inside a write, a sync, a flush, a merge or a manifest update).
            9990..9991 => s.crash(rng),
            9991..9993 => s.storage.fail_after_writes(Some(rng.below(400))),
            9993..9994 => s.reopen(),
            _ => {}
        }
    }
    Ok(())
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.replace('_', "").parse().ok()).unwrap_or(default)
}

#[test]
#[ignore = "long: run with `npm run soak`"]
fn soak_every_configuration_with_crashes_and_reopens() {
    let ops = env_u64("SOAK_OPS_PER_CONFIG", 2_000_000);
    let seed = env_u64("SOAK_SEED", 1);
    let mut configs: Vec<(EngineConfig, bool)> = common::oracle_configs();
    configs.extend(common::persistence_configs().into_iter().map(|c| (c, true)));
    assert!(configs.len() >= 20);
    println!("soak: {} configurations × {ops} operations, seed {seed}", configs.len());
    let mut total = Tally::default();
    let started = Instant::now();
    for (i, (config, auto_compact)) in configs.into_iter().enumerate() {
        let name = format!("{:>2} {}", i + 1, config.name);
        let t0 = Instant::now();
        let t = soak(config, auto_compact, seed * 1_000 + i as u64, ops);
        println!(
            "  {name:<40} {:>10} ops  {:>9} reads checked  {:>4} crashes ({} torn)  {:>4} reopens  divergences {}  lost acknowledged {}  {:.1} s",
            t.ops,
            t.reads_checked,
            t.crashes,
            t.torn_tails,
            t.reopens,
            t.divergences,
            t.lost_acknowledged,
            t0.elapsed().as_secs_f64()
        );
        total.add(&t);
    }
    println!(
        "soak total: {} operations checked ({} reads compared with the oracle), {} crashes ({} with torn tails), {} reopens; {} divergences, {} lost acknowledged writes; {:.0} s",
        total.ops,
        total.reads_checked,
        total.crashes,
        total.torn_tails,
        total.reopens,
        total.divergences,
        total.lost_acknowledged,
        started.elapsed().as_secs_f64()
    );
    assert_eq!(total.divergences, 0, "reads disagreed with the oracle");
    assert_eq!(total.lost_acknowledged, 0, "acknowledged writes were lost");
}

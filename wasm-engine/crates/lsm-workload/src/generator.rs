//! Turns a Workload into a deterministic stream of operations.

use crate::keys::{KeyCodec, Permutation, fill_value};
use crate::mixgraph::DbBench;
use crate::ycsb_client::CoreWorkload;

pub use crate::ops::{Intent, Op, OpSource, OwnedOp, Phase};
use lsm_core::math::ln;
use lsm_core::rng::{Rng, Zipf};
use lsm_core::workload::{Distribution, Workload};
use lsm_core::ycsb::{GrayZipf, YcsbClient, exponential_gamma, scramble, scrambled_ranks};

/// A `Workload` as a deterministic `OpSource`: the preload's inserts, then the run. One
/// document gives the same operations natively and in wasm. A document with `ycsb` is played
/// as YCSB's CoreWorkload (`ycsb_client`), one with `db_bench` as db_bench (`mixgraph`), any
/// other by the engine's own generator.
pub enum Generator {
    /// The engine's own keys and choosers.
    Synthetic(Box<Synthetic>),
    /// YCSB's CoreWorkload through one of its clients.
    Ycsb(Box<CoreWorkload>),
    /// db_bench's fill and benchmark (mixgraph and the plain ones), as db_bench draws them.
    Mixgraph(Box<DbBench>),
}

impl Generator {
    /// A generator at the start of `w`'s preload; `w` must be valid (`Workload::validate`).
    pub fn new(w: &Workload) -> Self {
        if let Some(play) = &w.db_bench {
            return Generator::Mixgraph(Box::new(DbBench::new(w, play)));
        }
        match &w.ycsb {
            Some(play) => Generator::Ycsb(Box::new(CoreWorkload::new(w, play))),
            None => Generator::Synthetic(Box::new(Synthetic::new(w))),
        }
    }
}

impl OpSource for Generator {
    fn next_op(&mut self) -> lsm_core::error::Result<Option<(Phase, Op<'_>)>> {
        match self {
            Generator::Synthetic(g) => g.next_op(),
            Generator::Ycsb(g) => g.next_op(),
            Generator::Mixgraph(g) => g.next_op(),
        }
    }

    fn totals(&self) -> (u64, Option<u64>) {
        match self {
            Generator::Synthetic(g) => g.totals(),
            Generator::Ycsb(g) => g.totals(),
            Generator::Mixgraph(g) => g.totals(),
        }
    }
}

/// The engine's own generator: binary keys (big-endian ids in a seeded permutation), the
/// distributions over insertion indices, ranges by key-space fraction.
pub struct Synthetic {
    rng: Rng,
    perm: Permutation,
    codec: KeyCodec,
    key_space: u64,
    value_bytes: usize,
    /// Insert indices [0, inserted) name keys that were written (some since deleted).
    inserted: u64,
    deleted: Vec<u64>,
    zipf: Option<Zipf>,
    latest: bool,
    /// Scrambled Zipf: YCSB's Gray ranks, hashed onto the insert indices [0, max_inserts).
    scrambled: Option<(GrayZipf, u64)>,
    /// Exponential: γ of −ln(u)/γ, counted back from the newest insert.
    exponential: Option<f64>,
    /// A read-modify-write's write, owed after its lookup.
    owed_write: Option<u64>,
    /// Hotspot: (ids in the hot range, probability of picking it).
    hotspot: Option<(u64, f64)>,
    /// Cumulative mix: insert, update, delete, get_existing, get_missing, range, read_modify_write.
    cumulative: [f64; 7],
    range_span: u64,
    preload_left: u64,
    run_left: u64,
    totals: (u64, u64),
    version: u64,
    key: Vec<u8>,
    end: Vec<u8>,
    value: Vec<u8>,
}

const DELETED_RETRIES: u32 = 16;
/// Draws a hotspot pick may take to land on a key of the wanted kind before falling back.
const HOTSPOT_TRIES: u32 = 64;

impl Synthetic {
    /// A generator at the start of `w`'s preload; `w` must be valid (`Workload::validate`).
    pub fn new(w: &Workload) -> Self {
        let key_space = w.key_space();
        let mut cumulative = [0.0; 7];
        let mut acc = 0.0;
        for (i, (_, v)) in w.mix.parts().iter().enumerate() {
            acc += v;
            cumulative[i] = acc;
        }
        let (zipf, latest) = match w.distribution {
            Distribution::Zipf { theta } => (Some(Zipf::new(theta, 1)), false),
            Distribution::Latest { theta } => (Some(Zipf::new(theta, 1)), true),
            _ => (None, false),
        };
        let scrambled = match w.distribution {
            Distribution::ScrambledZipf { theta } => Some((scrambled_ranks(theta), w.max_inserts().max(1))),
            _ => None,
        };
        let exponential = match w.distribution {
            Distribution::Exponential { percentile, fraction } => {
                Some(exponential_gamma(percentile, fraction, w.preload.entries.max(1)))
            }
            _ => None,
        };
        let hotspot = match w.distribution {
            Distribution::Hotspot { hot_fraction, hot_probability } => {
                Some((((hot_fraction * key_space as f64) as u64).clamp(1, key_space - 1), hot_probability))
            }
            _ => None,
        };
        let range_span = ((w.range_selectivity * key_space as f64).round() as u64).clamp(1, key_space);
        Synthetic {
            rng: Rng::new(w.seed),
            perm: Permutation::new(key_space, w.seed ^ 0x7065_726D),
            codec: KeyCodec { key_bytes: w.preload.key_bytes as usize },
            key_space,
            value_bytes: w.preload.value_bytes as usize,
            inserted: 0,
            deleted: Vec::new(),
            zipf,
            latest,
            scrambled,
            exponential,
            owed_write: None,
            hotspot,
            cumulative,
            range_span,
            preload_left: w.preload.entries,
            run_left: w.operations,
            // A read-modify-write is two operations: how many the run draws is not known up front.
            totals: (w.preload.entries, if w.mix.read_modify_write > 0.0 { u64::MAX } else { w.operations }),
            version: 0,
            key: Vec::new(),
            end: Vec::new(),
            value: Vec::new(),
        }
    }

    fn is_deleted(&self, index: u64) -> bool {
        self.deleted.get((index / 64) as usize).is_some_and(|w| w & (1 << (index % 64)) != 0)
    }

    fn set_deleted(&mut self, index: u64, deleted: bool) {
        let word = (index / 64) as usize;
        if self.deleted.len() <= word {
            self.deleted.resize(word + 1, 0);
        }
        if deleted {
            self.deleted[word] |= 1 << (index % 64);
        } else {
            self.deleted[word] &= !(1 << (index % 64));
        }
    }

    /// An id drawn from the hotspot distribution over the whole key space.
    fn hotspot_id(&mut self, hot: u64, p: f64) -> u64 {
        if self.rng.next_f64() < p { self.rng.below(hot) } else { hot + self.rng.below(self.key_space - hot) }
    }

    /// Hotspot picks by key id, then keeps the id only if it is (or is not) inserted.
    fn pick_hotspot(&mut self, existing: bool) -> Option<u64> {
        let (hot, p) = self.hotspot?;
        for _ in 0..HOTSPOT_TRIES {
            let id = self.hotspot_id(hot, p);
            let index = self.perm.invert(id);
            let inserted = index < self.inserted;
            if inserted == existing && !(existing && self.is_deleted(index)) {
                return Some(index);
            }
        }
        None
    }

    /// An insert index that names a live key, by the configured distribution. A deleted pick is
    /// retried a few times, then kept (the lookup will meet its tombstone).
    fn pick_existing(&mut self) -> Option<u64> {
        let n = self.inserted;
        if n == 0 {
            return None;
        }
        if let Some(index) = self.pick_hotspot(true) {
            return Some(index);
        }
        if let Some(index) = self.pick_scrambled_or_exponential() {
            return Some(index);
        }
        let mut index = 0;
        for _ in 0..DELETED_RETRIES {
            let rank = match &mut self.zipf {
                Some(z) => {
                    z.resize(n);
                    z.sample(&mut self.rng)
                }
                None => self.rng.below(n),
            };
            index = if self.latest { n - 1 - rank } else { rank };
            if !self.is_deleted(index) {
                break;
            }
        }
        Some(index)
    }

    /// YCSB's scrambled Zipfian or exponential over insert indices; draws that name no live key
    /// are drawn again, a bounded number of times.
    fn pick_scrambled_or_exponential(&mut self) -> Option<u64> {
        let n = self.inserted;
        for _ in 0..HOTSPOT_TRIES {
            let index = if let Some((ranks, items)) = &self.scrambled {
                // YCSB-cpp's unsigned scramble: never None.
                scramble(YcsbClient::Cpp, ranks.draw(self.rng.next_f64()), *items).unwrap_or(n)
            } else if let Some(gamma) = self.exponential {
                let back = (-ln(1.0 - self.rng.next_f64()) / gamma).trunc();
                if back >= n as f64 {
                    continue;
                }
                n - 1 - back as u64
            } else {
                return None;
            };
            if index < n && !self.is_deleted(index) {
                return Some(index);
            }
        }
        if self.scrambled.is_some() || self.exponential.is_some() { Some(self.rng.below(n)) } else { None }
    }

    fn put_op(&mut self, intent: Intent, index: u64) -> Op<'_> {
        let id = self.perm.apply(index);
        self.version += 1;
        self.codec.encode(id, &mut self.key);
        fill_value(id, self.version, self.value_bytes, &mut self.value);
        Op::Put { intent, id, key: &self.key, value: &self.value }
    }

    fn insert(&mut self) -> Op<'_> {
        if self.inserted >= self.key_space {
            // The key space is used up: the insert becomes an update of an existing key.
            let index = self.pick_existing().unwrap_or(0);
            self.set_deleted(index, false);
            return self.put_op(Intent::Update, index);
        }
        let index = self.inserted;
        self.inserted += 1;
        self.put_op(Intent::Insert, index)
    }

    fn run_op(&mut self) -> Op<'_> {
        if let Some(index) = self.owed_write.take() {
            self.set_deleted(index, false);
            return self.put_op(Intent::Update, index);
        }
        let u = self.rng.next_f64();
        let kind = self.cumulative.iter().position(|&c| u < c).unwrap_or(5);
        match kind {
            0 => self.insert(),
            6 => {
                let Some(index) = self.pick_existing() else { return self.insert() };
                self.owed_write = Some(index);
                let id = self.perm.apply(index);
                self.codec.encode(id, &mut self.key);
                Op::Get { intent: Intent::GetExisting, id, key: &self.key }
            }
            1..=3 => {
                let Some(index) = self.pick_existing() else { return self.insert() };
                match kind {
                    1 => {
                        self.set_deleted(index, false);
                        self.put_op(Intent::Update, index)
                    }
                    2 => {
                        self.set_deleted(index, true);
                        let id = self.perm.apply(index);
                        self.codec.encode(id, &mut self.key);
                        Op::Delete { id, key: &self.key }
                    }
                    _ => {
                        let id = self.perm.apply(index);
                        self.codec.encode(id, &mut self.key);
                        Op::Get { intent: Intent::GetExisting, id, key: &self.key }
                    }
                }
            }
            4 => {
                if self.inserted >= self.key_space {
                    let index = self.pick_existing().unwrap_or(0);
                    let id = self.perm.apply(index);
                    self.codec.encode(id, &mut self.key);
                    return Op::Get { intent: Intent::GetExisting, id, key: &self.key };
                }
                let index = match self.pick_hotspot(false) {
                    Some(i) => i,
                    None => self.inserted + self.rng.below(self.key_space - self.inserted),
                };
                let id = self.perm.apply(index);
                self.codec.encode(id, &mut self.key);
                Op::Get { intent: Intent::GetMissing, id, key: &self.key }
            }
            _ => {
                let lo = self.rng.below(self.key_space - self.range_span + 1);
                let hi = lo + self.range_span - 1;
                self.codec.range_bounds(lo, hi, &mut self.key, &mut self.end);
                Op::Range { lo, hi, start: &self.key, end: &self.end }
            }
        }
    }
}

impl OpSource for Synthetic {
    fn next_op(&mut self) -> lsm_core::error::Result<Option<(Phase, Op<'_>)>> {
        if self.preload_left > 0 {
            self.preload_left -= 1;
            return Ok(Some((Phase::Preload, self.insert())));
        }
        if self.owed_write.is_some() {
            return Ok(Some((Phase::Run, self.run_op())));
        }
        if self.run_left > 0 {
            self.run_left -= 1;
            return Ok(Some((Phase::Run, self.run_op())));
        }
        Ok(None)
    }

    fn totals(&self) -> (u64, Option<u64>) {
        (self.totals.0, (self.totals.1 != u64::MAX).then_some(self.totals.1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsm_core::workload::{Mix, Preload, WORKLOAD_KIND};

    fn workload(mix: Mix, distribution: Distribution) -> Workload {
        Workload {
            kind: WORKLOAD_KIND.into(),
            version: 1,
            name: String::new(),
            seed: 9,
            preload: Preload { entries: 1000, key_space: 0, key_bytes: 16, value_bytes: 20 },
            operations: 10_000,
            mix,
            distribution,
            range_selectivity: 0.01,
            ycsb: None,
            db_bench: None,
        }
    }

    fn drain(g: &mut Generator) -> Vec<(Phase, String)> {
        let mut out = Vec::new();
        while let Some((phase, op)) = g.next_op().unwrap() {
            out.push((phase, format!("{op:?}")));
        }
        out
    }

    #[test]
    fn same_seed_same_operations() {
        let mix = Mix {
            insert: 0.2,
            update: 0.2,
            delete: 0.1,
            get_existing: 0.2,
            get_missing: 0.2,
            range: 0.1,
            read_modify_write: 0.0,
        };
        let w = workload(mix, Distribution::Zipf { theta: 0.8 });
        let a = drain(&mut Generator::new(&w));
        let b = drain(&mut Generator::new(&w));
        assert_eq!(a.len(), 11_000);
        assert_eq!(a, b);
        assert_eq!(a.iter().filter(|(p, _)| *p == Phase::Preload).count(), 1000);
    }

    #[test]
    fn missing_keys_are_never_inserted_and_existing_ones_are() {
        let mix = Mix { insert: 0.3, get_existing: 0.35, get_missing: 0.35, ..Mix::default() };
        let mut g = Synthetic::new(&workload(mix, Distribution::Uniform));
        let mut live = rustc_hash::FxHashSet::default();
        let (mut existing, mut missing) = (0, 0);
        while let Some((_, op)) = g.next_op().unwrap() {
            match op {
                Op::Put { id, .. } => {
                    live.insert(id);
                }
                Op::Get { intent: Intent::GetExisting, id, .. } => {
                    assert!(live.contains(&id));
                    existing += 1;
                }
                Op::Get { intent: Intent::GetMissing, id, .. } => {
                    assert!(!live.contains(&id));
                    missing += 1;
                }
                other => panic!("unexpected {other:?}"),
            }
        }
        assert!(existing > 3000 && missing > 3000);
    }

    #[test]
    fn latest_favours_recent_inserts() {
        let mix = Mix { get_existing: 1.0, ..Mix::default() };
        let mut g = Synthetic::new(&workload(mix, Distribution::Latest { theta: 1.2 }));
        let newest_ids: rustc_hash::FxHashSet<u64> = (900..1000).map(|i| g.perm.apply(i)).collect();
        let mut hot = 0;
        while let Some((phase, op)) = g.next_op().unwrap() {
            if let (Phase::Run, Op::Get { id, .. }) = (phase, op) {
                hot += u32::from(newest_ids.contains(&id));
            }
        }
        assert!(hot > 7_000, "only {hot} of 10,000 lookups hit the newest 10% of keys");
    }
}

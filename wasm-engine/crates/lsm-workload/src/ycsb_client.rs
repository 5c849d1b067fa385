//! A Workload with a `ycsb` section played as YCSB's CoreWorkload and one of its RocksDB
//! clients play it (`lsm_core::ycsb` has the arithmetic and its sources): the load writes key
//! numbers 0, 1, 2 … as `user<hash>` names with serialised rows; the run draws CoreWorkload's
//! operations, picks keys with its choosers (scrambled Zipfian, skewed latest, hotspot,
//! exponential, uniform), performs updates as the client does (Get + Put for a
//! read-modify-write binding) and scans a drawn number of records from a drawn key.
//!
//! What is not YCSB's: the random numbers (YCSB seeds nothing; this is seeded, so a run can be
//! repeated), and, for non-constant field lengths, a read-modify-write rewrites every field with
//! freshly drawn lengths (the stored lengths are distributed as YCSB's, without keeping each
//! row's fields).

use std::collections::BTreeSet;

use lsm_core::math::ln;
use lsm_core::rng::Rng;
use lsm_core::workload::{Distribution, Workload};
use lsm_core::ycsb::{
    GrayZipf, LengthDistribution, YcsbPlay, YcsbUpdates, ZIPFIAN_CONSTANT, exponential_gamma, field_name, key_name,
    scramble, scrambled_items, scrambled_ranks, zeta,
};

use crate::ops::{Intent, Op, OpSource, Phase};

/// CoreWorkload's five operations, in the order the mix's cumulative shares are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ClientOp {
    Read,
    Update,
    Insert,
    Scan,
    ReadModifyWrite,
}

/// One engine operation still owed for the current client operation.
#[derive(Clone, Copy, Debug)]
enum Step {
    Get(u64),
    /// Put key number `.0`, every field (`true`) or one.
    Put(u64, bool),
}

/// YCSB's request-distribution choosers, over key numbers.
#[derive(Clone, Debug)]
enum Chooser {
    /// `UniformLongGenerator` over the loaded records.
    Uniform,
    /// `ScrambledZipfianGenerator`: Gray ranks over 10¹⁰ + 1 items, hashed onto `items`.
    Scrambled { ranks: GrayZipf, items: u64 },
    /// `SkewedLatestGenerator`: last − Gray(last).
    Latest { zipf: GrayZipf },
    /// `HotspotIntegerGenerator` over the loaded records.
    Hotspot { hot: u64, cold: u64, p: f64 },
    /// `ExponentialGenerator`: last − ⌊−ln(u)/γ⌋.
    Exponential { gamma: f64 },
}

/// The client operations a run draws, and how many engine operations each becomes.
struct Mixer {
    cumulative: [f64; 5],
    rng: Rng,
}

impl Mixer {
    fn new(w: &Workload) -> Mixer {
        let m = &w.mix;
        let shares = [m.get_existing, m.update, m.insert, m.range, m.read_modify_write];
        let mut cumulative = [0.0; 5];
        let mut acc = 0.0;
        for (c, s) in cumulative.iter_mut().zip(shares) {
            acc += s;
            *c = acc;
        }
        Mixer { cumulative, rng: Rng::new(w.seed ^ 0x7963_7362_6F70) }
    }

    fn next(&mut self) -> ClientOp {
        let u = self.rng.next_f64() * self.cumulative[4];
        match self.cumulative.iter().position(|&c| u < c).unwrap_or(4) {
            0 => ClientOp::Read,
            1 => ClientOp::Update,
            2 => ClientOp::Insert,
            3 => ClientOp::Scan,
            _ => ClientOp::ReadModifyWrite,
        }
    }
}

/// Engine operations one client operation becomes.
fn engine_ops(op: ClientOp, updates: YcsbUpdates) -> u64 {
    let read_first = u64::from(updates == YcsbUpdates::ReadModifyWrite);
    match op {
        ClientOp::Read | ClientOp::Insert | ClientOp::Scan => 1,
        ClientOp::Update => 1 + read_first,
        ClientOp::ReadModifyWrite => 2 + read_first,
    }
}

/// A `ycsb` Workload as a deterministic `OpSource`.
pub struct CoreWorkload {
    play: YcsbPlay,
    rng: Rng,
    mixer: Mixer,
    /// Records loaded before the run (`recordcount`).
    records: u64,
    /// Key numbers [0, inserted) are written; the next insert writes `inserted`.
    inserted: u64,
    /// Built when the run starts (the latest chooser sums ζ over the loaded records).
    chooser: Option<Chooser>,
    distribution: Distribution,
    operations: u64,
    insert_share: f64,
    scan_lengths: Option<GrayZipf>,
    field_lengths: Option<GrayZipf>,
    /// Every written key name, when the mix scans: a scan's end is the name `len` records on.
    live: Option<BTreeSet<Vec<u8>>>,
    /// Engine operations owed for the current client operation, last first.
    steps: Vec<Step>,
    preload_left: u64,
    run_left: u64,
    totals: (u64, u64),
    version: u64,
    key: Vec<u8>,
    end: Vec<u8>,
    value: Vec<u8>,
}

impl CoreWorkload {
    /// A stream at the start of `w`'s load; `w` must be valid and carry `ycsb`.
    pub fn new(w: &Workload, play: &YcsbPlay) -> CoreWorkload {
        // Count the run's engine operations up front by replaying the operation draws.
        let mut count = Mixer::new(w);
        let run: u64 = (0..w.operations).map(|_| engine_ops(count.next(), play.updates)).sum();
        let scan_lengths = (play.scan_length_distribution == LengthDistribution::Zipfian).then(|| {
            let items = u64::from(play.max_scan_length - play.min_scan_length + 1);
            GrayZipf::new(items, ZIPFIAN_CONSTANT, zeta(items, ZIPFIAN_CONSTANT))
        });
        let field_lengths = (play.field_length_distribution == LengthDistribution::Zipfian).then(|| {
            let items = u64::from(play.field_length);
            GrayZipf::new(items, ZIPFIAN_CONSTANT, zeta(items, ZIPFIAN_CONSTANT))
        });
        CoreWorkload {
            play: play.clone(),
            rng: Rng::new(w.seed),
            mixer: Mixer::new(w),
            records: w.preload.entries,
            inserted: 0,
            chooser: None,
            distribution: w.distribution.clone(),
            operations: w.operations,
            insert_share: w.mix.insert,
            scan_lengths,
            field_lengths,
            live: (w.mix.range > 0.0).then(BTreeSet::new),
            steps: Vec::new(),
            preload_left: w.preload.entries,
            run_left: w.operations,
            totals: (w.preload.entries, run),
            version: 0,
            key: Vec::new(),
            end: Vec::new(),
            value: Vec::new(),
        }
    }

    fn build_chooser(&self) -> Chooser {
        let records = self.records;
        match self.distribution {
            Distribution::ScrambledZipf { theta } => Chooser::Scrambled {
                ranks: scrambled_ranks(theta),
                items: scrambled_items(self.play.client, records, self.operations, self.insert_share),
            },
            Distribution::Latest { theta } => {
                // `new ZipfianGenerator(lastValue)`: ζ over the records less one.
                let items = records.saturating_sub(1).max(2);
                Chooser::Latest { zipf: GrayZipf::new(items, theta, zeta(items, theta)) }
            }
            Distribution::Hotspot { hot_fraction, hot_probability } => {
                let hot = (records as f64 * hot_fraction) as u64;
                Chooser::Hotspot { hot, cold: records - hot, p: hot_probability }
            }
            Distribution::Exponential { percentile, fraction } => {
                Chooser::Exponential { gamma: exponential_gamma(percentile, fraction, records) }
            }
            Distribution::Uniform | Distribution::Zipf { .. } => Chooser::Uniform,
        }
    }

    /// `nextKeynum()`: a key number at most the last inserted one, drawn again when above it.
    fn next_keynum(&mut self) -> u64 {
        let last = self.inserted.saturating_sub(1);
        // Built on first use, once the load is done.
        let mut chooser = match self.chooser.take() {
            Some(c) => c,
            None => self.build_chooser(),
        };
        let keynum = self.draw_keynum(&mut chooser, last);
        self.chooser = Some(chooser);
        keynum
    }

    fn draw_keynum(&mut self, chooser: &mut Chooser, last: u64) -> u64 {
        let rng = &mut self.rng;
        match chooser {
            Chooser::Uniform => rng.below(self.records.max(1)),
            Chooser::Scrambled { ranks, items } => loop {
                let rank = ranks.draw(rng.next_f64());
                if let Some(k) = scramble(self.play.client, rank, *items)
                    && k <= last
                {
                    return k;
                }
            },
            Chooser::Latest { zipf } => {
                if last < 2 {
                    return last;
                }
                zipf.grow_to(last);
                last - zipf.rank(rng.next_f64(), last).min(last)
            }
            Chooser::Hotspot { hot, cold, p } => {
                if *hot > 0 && (rng.next_f64() < *p || *cold == 0) {
                    rng.below(*hot)
                } else {
                    *hot + rng.below((*cold).max(1))
                }
            }
            Chooser::Exponential { gamma } => loop {
                let back = -ln(1.0 - rng.next_f64()) / *gamma;
                let k = last as f64 - back.trunc();
                if k >= 0.0 {
                    return k as u64;
                }
            },
        }
    }

    fn field_length(&mut self) -> usize {
        let p = &self.play;
        (match (p.field_length_distribution, &self.field_lengths) {
            (LengthDistribution::Zipfian, Some(z)) => 1 + z.rank(self.rng.next_f64(), u64::from(p.field_length)),
            (LengthDistribution::Uniform, _) => {
                let lo = u64::from(p.shortest_field());
                lo + self.rng.below(u64::from(p.field_length) - lo + 1)
            }
            _ => u64::from(p.field_length),
        }) as usize
    }

    /// The row a write stores: every field, or one field `only`, each as
    /// `u32 name length, name, u32 value length, value` (both bindings' SerializeRow).
    fn fill_row(&mut self, keynum: u64, only: Option<u32>) {
        self.version += 1;
        let mut state = keynum.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ self.version;
        let fields: Vec<u32> = match only {
            Some(f) => vec![f],
            None => (0..self.play.field_count).collect(),
        };
        self.value.clear();
        for f in fields {
            let name = field_name(f);
            let len = self.field_length();
            self.value.extend_from_slice(&(name.len() as u32).to_le_bytes());
            self.value.extend_from_slice(name.as_bytes());
            self.value.extend_from_slice(&(len as u32).to_le_bytes());
            let start = self.value.len();
            self.value.resize(start + len, 0);
            for chunk in self.value[start..].chunks_mut(8) {
                let w = lsm_core::rng::splitmix64(&mut state);
                for (i, c) in chunk.iter_mut().enumerate() {
                    // Printable, as YCSB's random byte strings are.
                    *c = b' ' + ((w >> (i * 8)) as u8 % 95);
                }
            }
        }
    }

    fn put(&mut self, intent: Intent, keynum: u64, all_fields: bool) -> Op<'_> {
        key_name(&self.play, keynum, &mut self.key);
        let only = if all_fields { None } else { Some(self.rng.below(u64::from(self.play.field_count)) as u32) };
        self.fill_row(keynum, only);
        if let Some(live) = &mut self.live
            && intent == Intent::Insert
        {
            live.insert(self.key.clone());
        }
        Op::Put { intent, id: keynum, key: &self.key, value: &self.value }
    }

    fn get(&mut self, keynum: u64) -> Op<'_> {
        key_name(&self.play, keynum, &mut self.key);
        Op::Get { intent: Intent::GetExisting, id: keynum, key: &self.key }
    }

    fn insert(&mut self) -> Op<'_> {
        let keynum = self.inserted;
        self.inserted += 1;
        self.put(Intent::Insert, keynum, true)
    }

    fn scan(&mut self) -> Op<'_> {
        let keynum = self.next_keynum();
        let p = &self.play;
        let len = match &self.scan_lengths {
            Some(z) => {
                u64::from(p.min_scan_length)
                    + z.rank(self.rng.next_f64(), u64::from(p.max_scan_length - p.min_scan_length + 1))
            }
            None => u64::from(p.min_scan_length) + self.rng.below(u64::from(p.max_scan_length - p.min_scan_length) + 1),
        };
        key_name(&self.play, keynum, &mut self.key);
        self.end.clear();
        // A scanning mix keeps every name (`new`).
        let last = self.live.as_ref().and_then(|live| live.range(self.key.clone()..).take(len.max(1) as usize).last());
        self.end.extend_from_slice(last.map_or(self.key.as_slice(), |k| k.as_slice()));
        Op::Range { lo: 0, hi: 0, start: &self.key, end: &self.end }
    }

    fn step(&mut self, step: Step) -> Op<'_> {
        match step {
            Step::Get(k) => self.get(k),
            Step::Put(k, all) => self.put(Intent::Update, k, all),
        }
    }

    fn run_op(&mut self) -> Op<'_> {
        if let Some(step) = self.steps.pop() {
            return self.step(step);
        }
        self.run_left -= 1;
        let op = self.mixer.next();
        let rmw = self.play.updates == YcsbUpdates::ReadModifyWrite;
        let all = self.play.write_all_fields;
        match op {
            ClientOp::Insert => self.insert(),
            ClientOp::Scan => self.scan(),
            ClientOp::Read => {
                let k = self.next_keynum();
                self.get(k)
            }
            ClientOp::Update | ClientOp::ReadModifyWrite => {
                let k = self.next_keynum();
                // A read-modify-write binding rewrites the whole row it read.
                self.steps.push(Step::Put(k, all || rmw));
                if rmw {
                    self.steps.push(Step::Get(k));
                }
                if op == ClientOp::ReadModifyWrite {
                    self.steps.push(Step::Get(k));
                }
                match self.steps.pop() {
                    Some(first) => self.step(first),
                    None => self.get(k),
                }
            }
        }
    }
}

impl OpSource for CoreWorkload {
    fn next_op(&mut self) -> lsm_core::error::Result<Option<(Phase, Op<'_>)>> {
        if self.preload_left > 0 {
            self.preload_left -= 1;
            return Ok(Some((Phase::Preload, self.insert())));
        }
        if self.run_left > 0 || !self.steps.is_empty() {
            return Ok(Some((Phase::Run, self.run_op())));
        }
        Ok(None)
    }

    fn totals(&self) -> (u64, Option<u64>) {
        (self.totals.0, Some(self.totals.1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::Generator;
    use lsm_core::workload::{Mix, Preload, WORKLOAD_KIND};
    use lsm_core::ycsb::{SCRAMBLED_RANKS, YcsbClient, key_name, scrambled_ranks};

    fn workload(client: YcsbClient, records: u64, operations: u64, mix: Mix, distribution: Distribution) -> Workload {
        let play = YcsbPlay::defaults(client);
        let range_selectivity = if mix.range > 0.0 { 0.01 } else { 0.0 };
        Workload {
            kind: WORKLOAD_KIND.into(),
            version: 1,
            name: String::new(),
            seed: 7,
            preload: Preload { entries: records, key_space: 0, key_bytes: 23, value_bytes: 1140 },
            operations,
            mix,
            distribution,
            range_selectivity,
            ycsb: Some(play),
            db_bench: None,
        }
    }

    fn loaded(w: &Workload) -> CoreWorkload {
        let mut g = CoreWorkload::new(w, w.ycsb.as_ref().unwrap());
        g.inserted = g.records;
        g.preload_left = 0;
        g
    }

    #[test]
    fn a_load_writes_ycsbs_first_keys_and_rows() {
        let mix = Mix { get_existing: 1.0, ..Mix::default() };
        let w = workload(YcsbClient::Java, 3, 0, mix, Distribution::Uniform);
        w.validate().unwrap();
        let mut g = Generator::new(&w);
        let mut keys = Vec::new();
        while let Some((phase, op)) = g.next_op().unwrap() {
            let Op::Put { key, value, intent, .. } = op else { panic!("a load only inserts") };
            assert_eq!((phase, intent, value.len()), (Phase::Preload, Intent::Insert, 1140));
            // The first field's name length, then its name, as the bindings serialise it.
            assert_eq!(&value[..10], b"\x06\x00\x00\x00field0");
            keys.push(String::from_utf8(key.to_vec()).unwrap());
        }
        // YCSB (Java)'s first three keys: user + |FNV-64(0)|, |FNV-64(1)|, |FNV-64(2)|.
        assert_eq!(keys[0], "user6284781860667377211");
        let mut expected = Vec::new();
        for k in 0..3 {
            key_name(w.ycsb.as_ref().unwrap(), k, &mut expected);
            assert_eq!(keys[k as usize].as_bytes(), expected.as_slice());
        }
        assert_eq!(keys.len(), 3);
    }

    #[test]
    fn updates_read_then_write_the_same_row_and_rmw_reads_twice() {
        let mix = Mix { update: 0.5, read_modify_write: 0.5, ..Mix::default() };
        let w = workload(YcsbClient::Cpp, 100, 1000, mix, Distribution::ScrambledZipf { theta: 0.99 });
        w.validate().unwrap();
        let mut g = Generator::new(&w);
        let (_, promised) = g.totals();
        let mut run = Vec::new();
        while let Some((phase, op)) = g.next_op().unwrap() {
            if phase == Phase::Run {
                run.push(match op {
                    Op::Get { id, .. } => ('G', id),
                    Op::Put { id, value, .. } => {
                        assert_eq!(value.len(), 1140, "a read-modify-write rewrites the whole row");
                        ('P', id)
                    }
                    other => panic!("{other:?}"),
                });
            }
        }
        assert_eq!(Some(run.len() as u64), promised, "totals counts every engine operation up front");
        // Every Put follows a Get of the same key; an RMW is Get, Get, Put.
        let mut i = 0;
        let (mut updates, mut rmws) = (0, 0);
        while i < run.len() {
            if run[i + 1].0 == 'P' {
                assert_eq!(run[i].1, run[i + 1].1);
                updates += 1;
                i += 2;
            } else {
                assert_eq!((run[i + 1].0, run[i + 2].0), ('G', 'P'));
                assert!(run[i].1 == run[i + 1].1 && run[i + 1].1 == run[i + 2].1);
                rmws += 1;
                i += 3;
            }
        }
        assert_eq!(updates + rmws, 1000);
        assert!((400..600).contains(&updates), "{updates}");
    }

    #[test]
    fn scrambled_zipfian_frequencies_are_ycsbs_within_one_percent() {
        // 1,000 records, no inserts: items = 1,000 (YCSB-cpp). The exact mass of each item: the
        // Gray masses of the first 10⁷ ranks hashed onto it, plus the rest spread evenly (10⁷
        // ranks per item remain).
        let items = 1000u64;
        let ranks = scrambled_ranks(0.99);
        let count = SCRAMBLED_RANKS;
        let mut expected = vec![0.0f64; items as usize];
        let head = 10_000_000u64;
        let mut covered = 0.0;
        for r in 0..head {
            let m = ranks.mass(r, count);
            covered += m;
            expected[scramble(YcsbClient::Cpp, r, items).unwrap() as usize] += m;
        }
        for e in &mut expected {
            *e += (1.0 - covered) / items as f64;
        }
        let mix = Mix { get_existing: 1.0, ..Mix::default() };
        let mut g = loaded(&workload(YcsbClient::Cpp, items, 0, mix, Distribution::ScrambledZipf { theta: 0.99 }));
        let draws = 10_000_000u64;
        let mut seen = vec![0u64; items as usize];
        for _ in 0..draws {
            seen[g.next_keynum() as usize] += 1;
        }
        let mut order: Vec<usize> = (0..items as usize).collect();
        order.sort_by(|&a, &b| expected[b].total_cmp(&expected[a]));
        for &k in &order[..10] {
            let got = seen[k] as f64 / draws as f64;
            assert!((got / expected[k] - 1.0).abs() < 0.01, "item {k}: drew {got}, YCSB's mass {}", expected[k]);
        }
        // The hottest item holds rank 0 (1/ζ = 3.78%) and whatever else hashes onto it.
        assert!(expected[order[0]] > 0.0378);
    }

    #[test]
    fn the_top_thousand_of_a_million_draw_about_29_percent() {
        // YCSB's scrambled Zipfian at 10⁶ records: a thousand items take ~29% of the picks (a
        // plain Zipf over the records would give them ~52%).
        let records = 1_000_000u64;
        let mix = Mix { get_existing: 1.0, ..Mix::default() };
        let mut g = loaded(&workload(YcsbClient::Java, records, 0, mix, Distribution::ScrambledZipf { theta: 0.99 }));
        let draws = 2_000_000u64;
        let mut seen = vec![0u32; records as usize];
        for _ in 0..draws {
            seen[g.next_keynum() as usize] += 1;
        }
        seen.sort_unstable_by(|a, b| b.cmp(a));
        let top: u64 = seen[..1000].iter().map(|&c| u64::from(c)).sum();
        let share = top as f64 / draws as f64;
        assert!((0.27..0.31).contains(&share), "top 1,000 drew {share}");
    }

    #[test]
    fn latest_favours_the_newest_and_scans_end_len_records_on() {
        let mix = Mix { range: 0.5, insert: 0.5, ..Mix::default() };
        let mut w = workload(YcsbClient::Cpp, 2000, 2000, mix, Distribution::Latest { theta: 0.99 });
        w.ycsb.as_mut().unwrap().max_scan_length = 10;
        w.validate().unwrap();
        let mut g = Generator::new(&w);
        let mut names = std::collections::BTreeSet::new();
        while let Some((_, op)) = g.next_op().unwrap() {
            match op {
                Op::Put { key, .. } => {
                    names.insert(key.to_vec());
                }
                Op::Range { start, end, .. } => {
                    let covered = names.range(start.to_vec()..=end.to_vec()).count();
                    assert!((1..=10).contains(&covered), "a scan covers 1 to 10 records, got {covered}");
                }
                other => panic!("{other:?}"),
            }
        }
        let mut g = loaded(&workload(
            YcsbClient::Cpp,
            10_000,
            0,
            Mix { get_existing: 1.0, ..Mix::default() },
            Distribution::Latest { theta: 0.99 },
        ));
        let newest = (0..100_000).filter(|_| g.next_keynum() >= 9_000).count();
        assert!(newest > 70_000, "the newest 10% drew {newest} of 100,000");
    }

    #[test]
    fn ycsb_sections_are_checked() {
        let mix = Mix { get_missing: 1.0, ..Mix::default() };
        let w = workload(YcsbClient::Cpp, 10, 10, mix, Distribution::Uniform);
        assert_eq!(
            w.validate().unwrap_err().to_string(),
            "mix.get_missing: must be 0 with ycsb: YCSB's CoreWorkload has no such operation, got 1"
        );
        let mut w =
            workload(YcsbClient::Cpp, 10, 10, Mix { get_existing: 1.0, ..Mix::default() }, Distribution::Uniform);
        w.preload.value_bytes = 1000;
        assert!(w.validate().unwrap_err().to_string().starts_with("preload.value_bytes: must be 1140 with ycsb"));
    }
}

//! A Workload with a `db_bench` section played as db_bench (RocksDB 7.8.3) plays it: keys as
//! `GenerateKeyFromInt` forms them (the id's 8 big-endian bytes after an optional prefix id,
//! padded with '0'), the fill (`fillrandom` draws ids with repeats, `fillseq` counts), then the
//! benchmark — mixgraph's Get/Put/Seek from one draw per operation exactly as `MixGraph` derives
//! the key, the query type, the value size and the scan length from it (`lsm_core::mixgraph`),
//! or readrandomwriterandom's batches of 100, updaterandom's Get + Put, seekrandom, readrandom.
//!
//! The random numbers are db_bench's too: each benchmark's thread draws from
//! `Random64(seed_base + n)` (std::mt19937_64), n counting the benchmarks run (1 for the fill, 2
//! for the benchmark after it), and spends one draw per operation choosing the database
//! (`SelectDBWithCfh`) before the draws that pick the key — so with the Workload's `seed` as
//! `--seed`, the stream is db_bench's own: the same keys, query types, value sizes and scan
//! lengths in the same order. What is not db_bench's: value bytes (printable, not
//! `compression_ratio`-compressible). A Seek then N Nexts is a range from the
//! key to the N-th written key at or after it (an empty range — end before start — for N = 0).

use lsm_core::db_bench::{DbBenchBenchmark, DbBenchLoad, DbBenchPlay};
use lsm_core::mixgraph::{KeyRanges, Mt64, QueryDecider, mix_scan_length, mix_value_size};
use lsm_core::workload::Workload;

use crate::keys::fill_value;
use crate::ops::{Intent, Op, OpSource, Phase};

/// An id as db_bench keys it: `GenerateKeyFromInt` takes a uint64, so a negative power-law draw
/// (`static_cast<int64_t>(rand.Next()) % num`) names a key above every id.
type KeyInt = i64;

/// A `db_bench` Workload as a deterministic `OpSource`.
pub struct DbBench {
    play: DbBenchPlay,
    /// The fill's thread's `Random64`.
    fill_rng: Mt64,
    /// The benchmark's thread's `Random64`.
    rng: Mt64,
    num: i64,
    key_size: usize,
    /// (prefix ids, ids per prefix) when keys carry a prefix.
    prefix: Option<(u64, u64)>,
    ranges: Option<KeyRanges>,
    decider: QueryDecider,
    value_max: i64,
    /// Written keys by their rank in key order (`ord`).
    written: Vec<u64>,
    value_bytes: usize,
    fill_next: u64,
    /// readrandomwriterandom's batch: Gets then Puts left.
    weights: (u32, u32),
    /// updaterandom's Put, owed after its Get.
    owed_put: Option<KeyInt>,
    preload_left: u64,
    run_left: u64,
    totals: (u64, u64),
    version: u64,
    key: Vec<u8>,
    end: Vec<u8>,
    value: Vec<u8>,
}

impl DbBench {
    /// A stream at the start of `w`'s fill; `w` must be valid and carry `db_bench`.
    pub fn new(w: &Workload, play: &DbBenchPlay) -> DbBench {
        let prefix = (play.keys_per_prefix > 0 && play.prefix_size > 0).then(|| {
            let prefixes = (play.num / play.keys_per_prefix).max(1);
            (prefixes, play.num.div_ceil(prefixes))
        });
        let mixgraph = play.benchmark == DbBenchBenchmark::Mixgraph;
        let engine_ops = if play.benchmark == DbBenchBenchmark::Updaterandom { 2 } else { 1 };
        DbBench {
            play: play.clone(),
            fill_rng: Mt64::new(w.seed.wrapping_add(1)),
            // The benchmark's thread is the second one db_bench starts when a fill ran first.
            rng: Mt64::new(w.seed.wrapping_add(if play.load == DbBenchLoad::None { 1 } else { 2 })),
            num: play.num as i64,
            key_size: w.preload.key_bytes as usize,
            prefix,
            ranges: (mixgraph && play.uses_key_ranges()).then(|| play.key_ranges()),
            decider: play.query_decider(),
            value_max: play.value_max(),
            written: Vec::new(),
            value_bytes: w.preload.value_bytes as usize,
            fill_next: 0,
            weights: (0, 0),
            owed_put: None,
            preload_left: w.preload.entries,
            run_left: w.operations,
            totals: (w.preload.entries, w.operations * engine_ops),
            version: 0,
            key: Vec::new(),
            end: Vec::new(),
            value: Vec::new(),
        }
    }

    /// `GenerateKeyFromInt(v)`: prefix id (`v % prefixes`, its low `prefix_size` ≤ 8 bytes
    /// big-endian, then '0's), the id's 8 bytes big-endian, '0' padding to `key_size`.
    fn encode(&mut self, k: KeyInt) {
        let v = k as u64;
        self.key.clear();
        if let Some((prefixes, _)) = self.prefix {
            let p = v % prefixes;
            let size = self.play.prefix_size as usize;
            let bytes = size.min(8);
            self.key.extend_from_slice(&p.to_be_bytes()[8 - bytes..]);
            self.key.resize(size, b'0');
        }
        let bytes = (self.key_size - self.key.len()).min(8);
        self.key.extend_from_slice(&v.to_be_bytes()[8 - bytes..]);
        self.key.resize(self.key_size, b'0');
    }

    /// The key's rank in key order: ids, then (a power law's) negative draws; with a prefix,
    /// by prefix id then id.
    fn ord(&self, k: KeyInt) -> u64 {
        match self.prefix {
            Some((prefixes, per)) => {
                let v = k as u64;
                (v % prefixes) * per + v / prefixes
            }
            None if k < 0 => (2 * self.num + k - 1) as u64,
            None => k as u64,
        }
    }

    /// The key of rank `ord` (`ord`'s inverse).
    fn key_of(&self, ord: u64) -> KeyInt {
        match self.prefix {
            Some((prefixes, per)) => ((ord / per) + (ord % per) * prefixes) as i64,
            None if ord >= self.num as u64 => ord as i64 + 1 - 2 * self.num,
            None => ord as i64,
        }
    }

    fn is_written(&self, ord: u64) -> bool {
        self.written.get((ord / 64) as usize).is_some_and(|w| w & (1 << (ord % 64)) != 0)
    }

    fn mark(&mut self, ord: u64) {
        let word = (ord / 64) as usize;
        if self.written.len() <= word {
            self.written.resize(word + 1, 0);
        }
        self.written[word] |= 1 << (ord % 64);
    }

    /// The rank of the `n`-th (n ≥ 1) written key at or after rank `from`, or of the last one
    /// when fewer follow; `None` when none does.
    fn nth_written_from(&self, from: u64, n: u64) -> Option<u64> {
        let (mut left, mut last) = (n, None);
        let mut word = (from / 64) as usize;
        let mut bits = self.written.get(word)? & (!0u64 << (from % 64));
        loop {
            let count = u64::from(bits.count_ones());
            if count >= left {
                for _ in 1..left {
                    bits &= bits - 1;
                }
                return Some(word as u64 * 64 + u64::from(bits.trailing_zeros()));
            }
            if count > 0 {
                left -= count;
                last = Some(word as u64 * 64 + 63 - u64::from(bits.leading_zeros()));
            }
            word += 1;
            match self.written.get(word) {
                Some(&b) => bits = b,
                None => return last,
            }
        }
    }

    fn put(&mut self, k: KeyInt, len: usize) -> Op<'_> {
        let ord = self.ord(k);
        let intent = if self.is_written(ord) { Intent::Update } else { Intent::Insert };
        self.mark(ord);
        self.version += 1;
        self.encode(k);
        fill_value(k as u64, self.version, len, &mut self.value);
        Op::Put { intent, id: k as u64, key: &self.key, value: &self.value }
    }

    fn get(&mut self, k: KeyInt) -> Op<'_> {
        let intent = if self.is_written(self.ord(k)) { Intent::GetExisting } else { Intent::GetMissing };
        self.encode(k);
        Op::Get { intent, id: k as u64, key: &self.key }
    }

    /// Seek(key) then up to `nexts` Nexts: the range from the key to the last record read.
    fn seek(&mut self, k: KeyInt, nexts: u64) -> Op<'_> {
        let last = if nexts == 0 { None } else { self.nth_written_from(self.ord(k), nexts) };
        match last {
            Some(ord) => {
                let end = self.key_of(ord);
                self.encode(end);
                std::mem::swap(&mut self.key, &mut self.end);
            }
            None => self.end.clear(),
        }
        let hi = last.map_or(0, |o| self.key_of(o) as u64);
        self.encode(k);
        Op::Range { lo: k as u64, hi, start: &self.key, end: &self.end }
    }

    fn fill_op(&mut self) -> Op<'_> {
        let k = match self.play.load {
            DbBenchLoad::Fillseq => {
                self.fill_next += 1;
                (self.fill_next - 1) as i64
            }
            _ => {
                // DoWrite draws the database (`rand.Next() % num_key_gens`), then the key.
                self.fill_rng.next_u64();
                (self.fill_rng.next_u64() % self.num as u64) as i64
            }
        };
        self.put(k, self.value_bytes)
    }

    /// `SelectDBWithCfh(thread)`'s draw, then `GetRandomKey`'s: a 64-bit draw modulo num.
    fn random_key(&mut self) -> i64 {
        self.rng.next_u64();
        (self.rng.next_u64() % self.num as u64) as i64
    }

    /// One `MixGraph` iteration: the key, the query type, the value size and the scan length,
    /// all from one draw as db_bench derives them.
    fn mixgraph_op(&mut self) -> Op<'_> {
        let ini_rand = self.random_key();
        let rand_v = ini_rand % self.num;
        let u = rand_v as f64 / self.num as f64;
        let p = &self.play;
        let key = p.mixgraph_key(self.ranges.as_ref(), ini_rand);
        match self.decider.get_type(rand_v) {
            0 => self.get(key),
            1 => {
                let len = mix_value_size(u, p.value_theta, p.value_k, p.value_sigma, self.value_max);
                self.put(key, len.max(0) as usize)
            }
            _ => {
                let len = mix_scan_length(u, p.iter_theta, p.iter_k, p.iter_sigma, p.mix_max_scan_len as i64);
                self.seek(key, len as u64)
            }
        }
    }

    fn run_op(&mut self) -> Op<'_> {
        if let Some(k) = self.owed_put.take() {
            return self.put(k, self.value_bytes);
        }
        self.run_left -= 1;
        match self.play.benchmark {
            DbBenchBenchmark::Mixgraph => self.mixgraph_op(),
            DbBenchBenchmark::Readrandom | DbBenchBenchmark::None => {
                let k = self.random_key();
                self.get(k)
            }
            DbBenchBenchmark::Seekrandom => {
                // SeekRandom draws the key first and chooses no database (one DB).
                let k = (self.rng.next_u64() % self.num as u64) as i64;
                self.seek(k, u64::from(self.play.seek_nexts))
            }
            DbBenchBenchmark::Updaterandom => {
                let k = self.random_key();
                self.owed_put = Some(k);
                self.get(k)
            }
            DbBenchBenchmark::Readrandomwriterandom => {
                let k = self.random_key();
                if self.weights == (0, 0) {
                    self.weights = (self.play.readwritepercent, 100 - self.play.readwritepercent);
                }
                if self.weights.0 > 0 {
                    self.weights.0 -= 1;
                    self.get(k)
                } else {
                    self.weights.1 -= 1;
                    self.put(k, self.value_bytes)
                }
            }
        }
    }
}

impl OpSource for DbBench {
    fn next_op(&mut self) -> lsm_core::error::Result<Option<(Phase, Op<'_>)>> {
        if self.preload_left > 0 {
            self.preload_left -= 1;
            return Ok(Some((Phase::Preload, self.fill_op())));
        }
        if self.owed_put.is_some() || self.run_left > 0 {
            return Ok(Some((Phase::Run, self.run_op())));
        }
        Ok(None)
    }

    fn totals(&self) -> (u64, Option<u64>) {
        (self.totals.0, Some(self.totals.1))
    }
}

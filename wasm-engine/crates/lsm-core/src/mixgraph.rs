//! db_bench's `mixgraph` arithmetic (RocksDB 7.8.3, tools/db_bench_tool.cc), as pure functions
//! shared by the generator that plays it (lsm-workload) and the engine view that prices it:
//! `Random64` (std::mt19937_64, which db_bench seeds per key to scatter power-law seeds over
//! keys and to shuffle the key ranges), `ParetoCdfInversion`, `PowerCdfInversion`, the
//! `QueryDecider` that turns a draw into Get/Put/Seek, and `GenerateTwoTermExpKeys`, the
//! key-range hotness a·e^(bx)+c·e^(dx) over `keyrange_num` ranges.

use crate::math::{exp, ln, pow};

/// std::mt19937_64, the generator behind RocksDB's `Random64` (word size 64, n = 312, m = 156,
/// r = 31, the standard's constants).
#[derive(Clone)]
pub struct Mt64 {
    state: Box<[u64; 312]>,
    index: usize,
}

const MT_N: usize = 312;
const MT_M: usize = 156;
const MT_UPPER: u64 = 0xFFFF_FFFF_8000_0000;
const MT_LOWER: u64 = 0x7FFF_FFFF;
const MT_MATRIX: u64 = 0xB502_6F5A_A966_19E9;

fn mt_word(prev: u64, i: usize) -> u64 {
    6_364_136_223_846_793_005u64.wrapping_mul(prev ^ (prev >> 62)).wrapping_add(i as u64)
}

fn mt_twist(a: u64, b: u64, c: u64) -> u64 {
    let x = (a & MT_UPPER) | (b & MT_LOWER);
    let xa = if x & 1 == 1 { (x >> 1) ^ MT_MATRIX } else { x >> 1 };
    c ^ xa
}

fn mt_temper(mut y: u64) -> u64 {
    y ^= (y >> 29) & 0x5555_5555_5555_5555;
    y ^= (y << 17) & 0x71D6_7FFF_EDA6_0000;
    y ^= (y << 37) & 0xFFF7_EEE0_0000_0000;
    y ^ (y >> 43)
}

impl Mt64 {
    /// `std::mt19937_64(seed)`.
    pub fn new(seed: u64) -> Mt64 {
        let mut state = Box::new([0u64; MT_N]);
        state[0] = seed;
        for i in 1..MT_N {
            state[i] = mt_word(state[i - 1], i);
        }
        Mt64 { state, index: MT_N }
    }

    /// The next output (`generator_()`).
    pub fn next_u64(&mut self) -> u64 {
        if self.index >= MT_N {
            for i in 0..MT_N {
                let v = mt_twist(self.state[i], self.state[(i + 1) % MT_N], self.state[(i + MT_M) % MT_N]);
                self.state[i] = v;
            }
            self.index = 0;
        }
        let y = self.state[self.index];
        self.index += 1;
        mt_temper(y)
    }
}

/// The first output of `Random64(seed)` without building the whole state: db_bench draws one
/// number from a generator seeded per key (`Random64 rand(key_seed); rand.Next()`), and the
/// first output needs only words 0, 1 and 156 of the seeded state.
pub fn mt64_first(seed: u64) -> u64 {
    let mut w = seed;
    let (w0, mut w1) = (seed, 0);
    for i in 1..=MT_M {
        w = mt_word(w, i);
        if i == 1 {
            w1 = w;
        }
    }
    mt_temper(mt_twist(w0, w1, w))
}

/// `static_cast<int64_t>(x)` as x86-64 computes it: a value out of range (or infinite, as
/// ParetoCdfInversion gives for u = 0) becomes i64::MIN, where Rust's `as` would saturate.
pub fn to_i64_x86(x: f64) -> i64 {
    // A NaN is in no range, so it too becomes i64::MIN.
    if !(-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&x) { i64::MIN } else { x as i64 }
}

/// `ParetoCdfInversion(u, theta, k, sigma)`: the generalized Pareto's inverse CDF, rounded up.
pub fn pareto_cdf_inversion(u: f64, theta: f64, k: f64, sigma: f64) -> i64 {
    let ret = if k == 0.0 { theta - sigma * ln(u) } else { theta + sigma * (pow(u, -k) - 1.0) / k };
    to_i64_x86(ret.ceil())
}

/// `PowerCdfInversion(u, a, b)`: the inverse of the power CDF y = a·x^b, rounded up.
pub fn power_cdf_inversion(u: f64, a: f64, b: f64) -> i64 {
    to_i64_x86(pow(u / a, 1.0 / b).ceil())
}

/// A Put's value size as MixGraph draws it from `u`: Pareto, raised to 10, and above `value_max`
/// wrapped (`val_size % value_max`, not clamped).
pub fn mix_value_size(u: f64, theta: f64, k: f64, sigma: f64, value_max: i64) -> i64 {
    let v = pareto_cdf_inversion(u, theta, k, sigma);
    if v < 10 {
        10
    } else if v > value_max {
        v % value_max
    } else {
        v
    }
}

/// A Seek's scan length as MixGraph draws it from `u`: Pareto modulo `scan_len_max` (C++'s `%`
/// keeps the sign, and a negative length reads nothing).
pub fn mix_scan_length(u: f64, theta: f64, k: f64, sigma: f64, scan_len_max: i64) -> i64 {
    (pareto_cdf_inversion(u, theta, k, sigma) % scan_len_max).max(0)
}

/// `QueryDecider`: the ratios stretched over 1000 slots, each rounded up, so the shares played
/// are the slot counts over their sum (0 Get, 1 Put, 2 Seek).
#[derive(Clone, Debug, PartialEq)]
pub struct QueryDecider {
    /// Cumulative slot ends, one per query type.
    pub ends: Vec<i64>,
}

impl QueryDecider {
    /// `Initiate(ratio)`; the ratios must not all be 0.
    pub fn new(ratios: &[f64]) -> QueryDecider {
        let sum: f64 = ratios.iter().sum();
        let mut range = 0i64;
        let ends = ratios
            .iter()
            .map(|r| {
                range += (1000.0 * (r / sum)).ceil() as i64;
                range
            })
            .collect();
        QueryDecider { ends }
    }

    /// `GetType(rand_num)`: the query type of a draw.
    pub fn get_type(&self, rand_num: i64) -> usize {
        let range = *self.ends.last().unwrap_or(&1);
        let pos = rand_num.unsigned_abs() % range.max(1) as u64;
        self.ends.iter().position(|&e| (pos as i64) < e).unwrap_or(0)
    }

    /// The share of draws each query type gets (slot counts over their sum).
    pub fn shares(&self) -> Vec<f64> {
        let range = *self.ends.last().unwrap_or(&1) as f64;
        let mut prev = 0;
        self.ends
            .iter()
            .map(|&e| {
                let s = (e - prev) as f64 / range;
                prev = e;
                s
            })
            .collect()
    }
}

/// `GenerateTwoTermExpKeys`: `keyrange_num` ranges of `total_keys / keyrange_num` keys, range x
/// (counted from the last, x = keyrange_num … 1) given weight a·e^(bx)+c·e^(dx) as a whole
/// number of slots out of `rand_max`, then shuffled by `Random64(rand_max)`.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyRanges {
    /// Keys per range.
    pub size: i64,
    /// Each range's (first slot, slots), in key order after the shuffle.
    pub units: Vec<(i64, i64)>,
    /// Total slots (`keyrange_rand_max_`).
    pub rand_max: i64,
}

impl KeyRanges {
    /// `InitiateExpDistribution(total_keys, a, b, c, d)` with `keyrange_num` ranges (≤ 0 is 1).
    /// Needs `total_keys ≥ keyrange_num` and some range of positive weight (validation checks).
    pub fn new(total_keys: i64, keyrange_num: i64, a: f64, b: f64, c: f64, d: f64) -> KeyRanges {
        let num = keyrange_num.max(1);
        let size = total_keys / num;
        let mut amplify = 0i64;
        let mut start = 0i64;
        let mut units = Vec::with_capacity(num as usize);
        for pfx in (1..=num).rev() {
            let x = pfx as f64;
            let mut p = a * exp(b * x) + c * exp(d * x);
            if p < 1e-16 {
                p = 0.0;
            }
            if amplify == 0 && p > 0.0 {
                amplify = to_i64_x86((1.0 / p).floor()).saturating_add(1);
            }
            let access = if p <= 0.0 { 0 } else { to_i64_x86((amplify as f64 * p).floor()) };
            units.push((start, access));
            start = start.saturating_add(access);
        }
        let rand_max = start;
        let mut rng = Mt64::new(rand_max as u64);
        // db_bench swaps over FLAGS_keyrange_num (the same as `num` for a positive flag).
        for i in 0..num as usize {
            let pos = (rng.next_u64() % num as u64) as usize;
            units.swap(i, pos);
        }
        let mut offset = 0i64;
        // Saturating as the total is: slots that overflow 64 bits give a `rand_max` outside
        // 1..=2^62, which validation refuses (db_bench's own sums would wrap).
        for u in &mut units {
            u.0 = offset;
            offset = offset.saturating_add(u.1);
        }
        KeyRanges { size, units, rand_max }
    }

    /// The range a draw's `keyrange_rand` (in [0, rand_max)) lands in: the last whose first slot
    /// is at most it (db_bench's binary search).
    pub fn range_of(&self, keyrange_rand: i64) -> usize {
        let (mut start, mut end) = (0usize, self.units.len());
        while start + 1 < end {
            let mid = start + (end - start) / 2;
            if keyrange_rand < self.units[mid].0 {
                end = mid;
            } else {
                start = mid;
            }
        }
        start
    }

    /// `DistGetKeyID(ini_rand, key_dist_a, key_dist_b)`: the range by hotness, then the key in
    /// it uniformly (`ini_rand % size`) or by the power law, its seed scattered by Random64.
    pub fn key_id(&self, ini_rand: i64, key_dist_a: f64, key_dist_b: f64) -> i64 {
        let range = self.range_of(ini_rand % self.rand_max) as i64;
        self.size * range + self.offset(ini_rand % self.size, key_dist_a, key_dist_b)
    }

    /// The key's offset in its range for a draw whose `ini_rand % size` is `j`: `j` itself
    /// (uniform), or the power law's seed for u = j / size, scattered by Random64.
    pub fn offset(&self, j: i64, key_dist_a: f64, key_dist_b: f64) -> i64 {
        if key_dist_a == 0.0 || key_dist_b == 0.0 {
            return j;
        }
        let u = j as f64 / self.size as f64;
        let seed = to_i64_x86(pow(u / key_dist_a, 1.0 / key_dist_b).ceil());
        (mt64_first(seed as u64) % self.size as u64) as i64
    }

    /// The share of draws each range (in key order) receives, for a uniform `ini_rand` over
    /// `num` ids: its slots over all slots (ids ≫ slots, so the modulo is even to < slots/num).
    pub fn shares(&self) -> Vec<f64> {
        self.units.iter().map(|&(_, n)| n as f64 / self.rand_max.max(1) as f64).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mt64_matches_the_standard() {
        // [rand.predef]: the 10000th output of a default-constructed mt19937_64 (seed 5489).
        let mut g = Mt64::new(5489);
        let mut last = 0;
        for _ in 0..10_000 {
            last = g.next_u64();
        }
        assert_eq!(last, 9_981_545_732_273_789_042);
        for seed in [0u64, 1, 5489, 123_456_789, u64::MAX] {
            assert_eq!(mt64_first(seed), Mt64::new(seed).next_u64(), "seed {seed}");
        }
    }

    #[test]
    fn pareto_and_power_invert_as_db_bench() {
        // ZippyDB's value sizes: θ 0, k 0.2615, σ 25.45; at u = 0.5: 25.45·(0.5^−0.2615 − 1)/0.2615.
        let at_half = 25.45 * (pow(0.5, -0.2615) - 1.0) / 0.2615;
        assert_eq!(pareto_cdf_inversion(0.5, 0.0, 0.2615, 25.45), at_half.ceil() as i64);
        assert_eq!(pareto_cdf_inversion(0.5, 0.0, 0.0, 10.0), (10.0 * 2f64.ln()).ceil() as i64);
        assert_eq!(pareto_cdf_inversion(0.0, 0.0, 0.2615, 25.45), i64::MIN);
        assert_eq!(mix_value_size(0.0, 0.0, 0.2615, 25.45, 1024), 10);
        assert_eq!(
            mix_value_size(1e-12, 0.0, 0.2615, 25.45, 1024),
            pareto_cdf_inversion(1e-12, 0.0, 0.2615, 25.45) % 1024
        );
        assert_eq!(mix_scan_length(0.0, 0.0, 2.517, 14.236, 10_000), 0);
        // (0.5 / 0.002312)^(1/0.3467), rounded up.
        assert_eq!(power_cdf_inversion(0.5, 0.002312, 0.3467), pow(0.5 / 0.002312, 1.0 / 0.3467).ceil() as i64);
    }

    #[test]
    fn key_ranges_whose_slots_overflow_saturate() {
        // A fuzzer's find: with d = 35 a range's slots (amplify · weight) pass i64's range, and
        // the cast gives i64::MIN as x86 does; summing must not panic, and the total is one
        // validation refuses (outside 1..=2^62).
        let r = KeyRanges::new(3000, 35, 14.18, -0.917, 0.0164, 35.08082);
        assert!(!(1..=1i64 << 62).contains(&r.rand_max), "{}", r.rand_max);
    }

    #[test]
    fn query_decider_rounds_slots_up() {
        let q = QueryDecider::new(&[0.83, 0.14, 0.03]);
        assert_eq!(q.ends, vec![830, 970, 1000]);
        assert_eq!(q.get_type(829), 0);
        assert_eq!(q.get_type(830), 1);
        assert_eq!(q.get_type(1999), 2);
        // Three equal thirds: 334 slots each, 1002 in all.
        let q = QueryDecider::new(&[1.0, 1.0, 1.0]);
        assert_eq!(q.ends, vec![334, 668, 1002]);
    }

    #[test]
    fn zippydb_key_ranges_follow_the_two_term_exponential() {
        let r = KeyRanges::new(5_000_000, 30, 14.18, -2.917, 0.0164, -0.08082);
        assert_eq!(r.units.len(), 30);
        assert_eq!(r.size, 166_666);
        // Range x gets ⌊amplify·w(x)⌋ slots, amplify = ⌊1/w(30)⌋ + 1 (the first weight met);
        // the hottest is x = 1, about w(1)/Σw before the flooring.
        let weight = |x: f64| 14.18 * exp(-2.917 * x) + 0.0164 * exp(-0.08082 * x);
        let amplify = (1.0 / weight(30.0)).floor() + 1.0;
        let slots = |x: f64| (amplify * weight(x)).floor();
        assert_eq!(r.rand_max, (1..=30).map(|x| slots(x as f64)).sum::<f64>() as i64);
        let hottest = r.shares().into_iter().fold(0.0, f64::max);
        assert_eq!(hottest, slots(1.0) / r.rand_max as f64);
        let total: f64 = (1..=30).map(|x| weight(x as f64)).sum();
        assert!((hottest / (weight(1.0) / total) - 1.0).abs() < 0.025);
        let sum: f64 = r.shares().iter().sum();
        assert!((sum - 1.0).abs() < 1e-12);
        // A draw lands in the range whose slots hold it.
        for (i, &(start, n)) in r.units.iter().enumerate() {
            if n > 0 {
                assert_eq!(r.range_of(start), i);
                assert_eq!(r.range_of(start + n - 1), i);
            }
        }
    }
}

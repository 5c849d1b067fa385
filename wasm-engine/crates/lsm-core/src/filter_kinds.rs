//! The FPR and size of each filter structure the engine builds: the textbook Bloom filter, and
//! RocksDB 7.8's FastLocalBloom and Standard128Ribbon, as functions of bits per key and keys.
//! Pure: the engine sizes its filters with these, and the predictor prices lookups with
//! `structure_fpr` (and `structure_for` to know which structure a file at a level gets).
//!
//! The RocksDB facts (from 7.8.3's `util/bloom_impl.h`, `table/block_based/filter_policy.cc`,
//! `util/ribbon_impl.h` and `util/ribbon_config.cc`, restated here, not copied):
//! - FastLocalBloom: millibits/key = round(1000·b); bytes = ⌈n·millibits/8000⌉ rounded up to
//!   whole 64-byte lines (plus 5 bytes of metadata RocksDB appends); every probe of a key lands in
//!   one 512-bit line; the probe count is a step function of millibits/key (`fast_local_bloom_probes`).
//! - Ribbon (Dillinger & Walzer 2021, "Ribbon filter: practically smaller than Bloom and Xor"):
//!   n keys get `ribbon_slots(n)` slots (chosen so that banding fails for about 1 seed in 20),
//!   rounded up to whole 128-slot blocks; each block stores c or c + 1 solution columns, c + 1
//!   from `upper_start_block` on, so that the FPR (2^−c per key in a c-column block) meets
//!   RocksDB's target, the FPR its own estimate gives FastLocalBloom at the configured bits/key
//!   (`rocksdb_cache_local_estimate`). Small filters use FastLocalBloom when it is smaller.

use crate::bloom::fpr_at_bits_per_key;
use crate::config::{FilterConfig, FilterKind};
use crate::math::{exp, ln, pow};

/// Bits in one FastLocalBloom block: a 64-byte cache line.
pub const CACHE_LINE_BITS: u32 = 512;
/// Bytes of metadata RocksDB appends to every built-in filter (a marker, probes or seed, sizes).
pub const ROCKSDB_FILTER_METADATA_BYTES: u64 = 5;
/// Slots per Ribbon block: the width of a coefficient row (RocksDB's `Unsigned128`).
pub const RIBBON_COEFF_BITS: u64 = 128;
/// Ribbon re-seeds a failed banding this many times (a one-byte seed) before falling back to
/// FastLocalBloom.
pub const RIBBON_MAX_SEEDS: u32 = 256;

/// What one table's filter physically is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Structure {
    /// Textbook Bloom filter (also every module of a modular filter).
    Bloom,
    /// RocksDB's cache-local Bloom filter (format_version 5).
    FastLocalBloom,
    /// RocksDB's Standard128Ribbon.
    Ribbon,
}

/// The structure a table gets under `filter`, built by a flush (`flush`) or by a merge into
/// engine level `engine_level` (1-based; RocksDB's level `engine_level − 1`). Only `ribbon` depends
/// on it: files of a RocksDB level below `bloom_before_level` get FastLocalBloom, a flush counting
/// as level −1 (RocksDB's `RibbonFilterPolicy::GetBuilderWithContext`).
pub fn structure_for(filter: &FilterConfig, flush: bool, engine_level: usize) -> Structure {
    match filter.kind {
        FilterKind::Bloom | FilterKind::Modular => Structure::Bloom,
        FilterKind::FastLocalBloom => Structure::FastLocalBloom,
        FilterKind::Ribbon => {
            let levelish = if flush { -1 } else { engine_level as i64 - 1 };
            if levelish < i64::from(filter.bloom_before_level) { Structure::FastLocalBloom } else { Structure::Ribbon }
        }
    }
}

/// The expected FPR of a `structure` filter built for `entries` keys at `bits_per_key` (for
/// Ribbon, RocksDB's Bloom-equivalent bits per key), as the engine builds it: what the predictor
/// should charge a lookup that reaches a table with no matching key. `entries` matters for
/// FastLocalBloom's line rounding and for Ribbon's slot overhead and its Bloom fallback; pass
/// the table's key count (1,000,000 is a fair default for big files). 1 for no filter.
pub fn structure_fpr(structure: Structure, bits_per_key: f64, entries: u64) -> f64 {
    match structure {
        Structure::Bloom => fpr_at_bits_per_key(bits_per_key),
        Structure::FastLocalBloom => match fast_local_bloom_size(entries, bits_per_key) {
            Some(s) => fast_local_bloom_fpr(s.bytes as f64 * 8.0 / entries.max(1) as f64, s.probes),
            None => 1.0,
        },
        Structure::Ribbon => match ribbon_layout(entries, bits_per_key, 0.5) {
            Some(RibbonLayout::Ribbon(r)) => r.fpr(),
            Some(RibbonLayout::BloomFallback(s)) => {
                fast_local_bloom_fpr(s.bytes as f64 * 8.0 / entries.max(1) as f64, s.probes)
            }
            None => 1.0,
        },
    }
}

/// Filter bytes a `structure` filter takes for `entries` keys at `bits_per_key`, as RocksDB
/// sizes it (without RocksDB's 5 metadata bytes); textbook Bloom: ⌈n·b⌉ bits in whole 64-bit words.
pub fn structure_bytes(structure: Structure, bits_per_key: f64, entries: u64) -> u64 {
    match structure {
        Structure::Bloom => {
            if entries == 0 || crate::bloom::optimal_hashes(bits_per_key) == 0 {
                0
            } else {
                ((entries as f64 * bits_per_key).ceil() as u64).max(64).div_ceil(64) * 8
            }
        }
        Structure::FastLocalBloom => fast_local_bloom_size(entries, bits_per_key).map_or(0, |s| s.bytes),
        Structure::Ribbon => match ribbon_layout(entries, bits_per_key, 0.5) {
            Some(RibbonLayout::Ribbon(r)) => r.bytes(),
            Some(RibbonLayout::BloomFallback(s)) => s.bytes,
            None => 0,
        },
    }
}

/// RocksDB's millibits per key for a configured bits per key (`BloomLikeFilterPolicy`): below 0.5
/// no filter (0), below 1 one bit, at most 100 bits; rounded to the nearest millibit.
pub fn rocksdb_millibits(bits_per_key: f64) -> u32 {
    if bits_per_key.is_nan() || bits_per_key < 0.5 {
        return 0;
    }
    let b = bits_per_key.clamp(1.0, 100.0);
    (b * 1000.0 + 0.500001) as u32
}

/// FastLocalBloom's probe count for a millibits-per-key setting (RocksDB's `ChooseNumProbes`,
/// tuned by measurement: fewer probes than a textbook filter at high bits/key, e.g. 9 at 16).
pub fn fast_local_bloom_probes(millibits_per_key: u32) -> u32 {
    // (upper bound of millibits, probes): the step function from RocksDB 7.8.
    const STEPS: [(u32, u32); 12] = [
        (2080, 1),
        (3580, 2),
        (5100, 3),
        (6640, 4),
        (8300, 5),
        (10070, 6),
        (11720, 7),
        (14001, 8),
        (16050, 9),
        (18300, 10),
        (22001, 11),
        (25501, 12),
    ];
    if let Some(&(_, k)) = STEPS.iter().find(|&&(upto, _)| millibits_per_key <= upto) {
        return k;
    }
    if millibits_per_key > 50_000 { 24 } else { (millibits_per_key - 1) / 2000 - 1 }
}

/// A FastLocalBloom filter's size and probes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FastLocalBloomSize {
    /// Filter bytes, a whole number of 64-byte lines (RocksDB adds 5 bytes of metadata).
    pub bytes: u64,
    /// Probes per key, all in one line.
    pub probes: u32,
}

/// The size RocksDB 7.8 gives a FastLocalBloom filter of `entries` keys at `bits_per_key`
/// (`FastLocalBloomBitsBuilder::CalculateSpace` with `optimize_filters_for_memory=false`, its
/// default): ⌈n·millibits/8000⌉ bytes rounded up to 64, and the probes of the configured
/// millibits. `None`: no filter (no keys, or under half a bit per key).
pub fn fast_local_bloom_size(entries: u64, bits_per_key: f64) -> Option<FastLocalBloomSize> {
    let millibits = rocksdb_millibits(bits_per_key);
    if entries == 0 || millibits == 0 {
        return None;
    }
    let raw = (entries * u64::from(millibits)).div_ceil(8000).min(0xffff_ffc0);
    Some(FastLocalBloomSize { bytes: raw.div_ceil(64) * 64, probes: fast_local_bloom_probes(millibits) })
}

/// Textbook FPR of a Bloom filter of `bits_per_key` and `probes` (RocksDB's `StandardFpRate`,
/// real-valued bits per key).
fn standard_fpr(bits_per_key: f64, probes: u32) -> f64 {
    let k = f64::from(probes);
    pow(1.0 - exp(-k / bits_per_key), k)
}

/// The expected FPR of a FastLocalBloom filter of `bits_per_key` (real bits: its bytes · 8 / keys)
/// and `probes`: a missing key probes one 512-bit line that holds a Poisson(512/b) number of keys,
/// each of which set `probes` bits of it; the FPR is the average over that load of
/// (1 − (1 − 1/512)^{jk})^k. The per-line load variance is what puts it above the textbook
/// filter (0.953% against 0.819% at 10 bits/key with 6 probes; RocksDB's comment gives 0.9535%
/// for this ideal and measures about 0.957% for its probe placement).
pub fn fast_local_bloom_fpr(bits_per_key: f64, probes: u32) -> f64 {
    if bits_per_key.is_nan() || bits_per_key <= 0.0 || probes == 0 {
        return 1.0;
    }
    let line = f64::from(CACHE_LINE_BITS);
    let lambda = line / bits_per_key;
    let k = f64::from(probes);
    let miss_one = ln(1.0 - 1.0 / line);
    // Sum the Poisson terms outward from the mode until they no longer count.
    let mode = lambda.floor();
    let term = |j: f64, p: f64| p * pow(1.0 - exp(j * k * miss_one), k);
    let log_p_mode = mode * ln(lambda) - lambda - ln_factorial(mode);
    let p_mode = exp(log_p_mode);
    let mut sum = term(mode, p_mode);
    let (mut j, mut p) = (mode, p_mode);
    while j > 0.0 {
        p *= j / lambda;
        j -= 1.0;
        sum += term(j, p);
        if p < 1e-18 {
            break;
        }
    }
    let (mut j, mut p) = (mode, p_mode);
    loop {
        j += 1.0;
        p *= lambda / j;
        sum += term(j, p);
        if p < 1e-18 && j > lambda {
            break;
        }
    }
    sum.clamp(0.0, 1.0)
}

/// ln(n!) for whole n ≥ 0 (Stirling's series past 20, exact below).
fn ln_factorial(n: f64) -> f64 {
    if n < 20.0 {
        let mut acc = 0.0;
        let mut i = 2.0;
        while i <= n {
            acc += ln(i);
            i += 1.0;
        }
        return acc;
    }
    let x = n + 1.0;
    (x - 0.5) * ln(x) - x + 0.5 * ln(2.0 * std::f64::consts::PI) + 1.0 / (12.0 * x) - 1.0 / (360.0 * x * x * x)
}

/// RocksDB's own FPR estimate for a cache-local Bloom filter (`BloomMath::CacheLocalFpRate`):
/// the mean of the textbook FPRs of a line one standard deviation more and one less loaded than
/// average. RocksDB sizes Ribbon filters with it, so Ribbon's target FPR is this, not the
/// Poisson average `fast_local_bloom_fpr` computes.
pub fn rocksdb_cache_local_estimate(bits_per_key: f64, probes: u32) -> f64 {
    if bits_per_key <= 0.0 {
        return 1.0;
    }
    let line = f64::from(CACHE_LINE_BITS);
    let keys = line / bits_per_key;
    let sd = keys.sqrt();
    (standard_fpr(line / (keys + sd), probes) + standard_fpr(line / (keys - sd), probes)) / 2.0
}

/// Keys 2^i slots hold with about a 1-in-20 chance per seed that banding fails, for 128-bit
/// coefficient rows without "smash" (RocksDB's measured table, `kOneIn20, 128`); 0: too few
/// slots to be supported.
const RIBBON_KNOWN_TO_ADD: [f64; 18] = [
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 248.851, 499.532, 1001.26, 2003.97, 4005.59, 8000.39, 15966.6, 31828.1,
    63447.3, 126506.0,
];
/// Past 2^17 slots, each doubling adds this much to the slots-per-key overhead (128-bit rows).
const RIBBON_FACTOR_PER_POW2: f64 = 0.0038;

fn ribbon_keys_for_pow2(log2_slots: u32) -> f64 {
    let known = RIBBON_KNOWN_TO_ADD.len() as u32;
    if log2_slots < known {
        return RIBBON_KNOWN_TO_ADD[log2_slots as usize];
    }
    let last = known - 1;
    let final_factor = f64::from(1u32 << last) / RIBBON_KNOWN_TO_ADD[last as usize];
    let base = final_factor - f64::from(last) * RIBBON_FACTOR_PER_POW2;
    pow(2.0, f64::from(log2_slots)) / (base + f64::from(log2_slots) * RIBBON_FACTOR_PER_POW2)
}

/// Slots for `keys` keys before rounding to blocks (RocksDB's `BandingConfigHelper1::GetNumSlots`:
/// interpolated between the powers of two of the measured table, rounded up).
pub fn ribbon_slots_unrounded(keys: u64) -> u64 {
    if keys == 0 {
        return 0;
    }
    let keys_f = keys as f64;
    let mut log2 = (ln(keys_f) * std::f64::consts::LOG2_E + 0.5) as u32;
    let mut lower = ribbon_keys_for_pow2(log2);
    if log2 == 0 || lower == 0.0 {
        return 2 * RIBBON_COEFF_BITS;
    }
    let upper;
    if keys_f < lower {
        upper = lower;
        log2 -= 1;
        lower = ribbon_keys_for_pow2(log2);
        if lower == 0.0 {
            // Between the smallest supported size and the one below it: the smallest.
            return 2 * RIBBON_COEFF_BITS;
        }
    } else {
        upper = ribbon_keys_for_pow2(log2 + 1);
    }
    let portion = (keys_f - lower) / (upper - lower);
    let lower_slots = pow(2.0, f64::from(log2));
    (portion * lower_slots + lower_slots + 0.999_999_999) as u64
}

/// Slots for `keys` keys, in whole 128-slot blocks and at least two blocks
/// (`NumEntriesToNumSlots`).
pub fn ribbon_slots(keys: u64) -> u64 {
    let s = ribbon_slots_unrounded(keys).div_ceil(RIBBON_COEFF_BITS) * RIBBON_COEFF_BITS;
    if s == RIBBON_COEFF_BITS { 2 * RIBBON_COEFF_BITS } else { s }
}

/// The shape of a Ribbon filter's solution: blocks of 128 slots, each with `lower_columns` or
/// `lower_columns + 1` result bits per slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RibbonShape {
    /// Slots, a multiple of 128 (at least 256).
    pub slots: u64,
    /// Result columns of the blocks before `upper_start_block`; later blocks have one more.
    pub lower_columns: u32,
    /// First block with `lower_columns + 1` columns.
    pub upper_start_block: u64,
}

impl RibbonShape {
    /// 128-slot blocks.
    pub fn blocks(&self) -> u64 {
        self.slots / RIBBON_COEFF_BITS
    }

    /// Positions a key's row may start at: every slot that leaves room for 128 coefficients.
    pub fn starts(&self) -> u64 {
        self.slots - RIBBON_COEFF_BITS + 1
    }

    /// Result columns of block `b`.
    pub fn columns(&self, block: u64) -> u32 {
        self.lower_columns + u32::from(block >= self.upper_start_block)
    }

    /// Solution bytes: 16 per block and column (RocksDB adds 5 bytes of metadata).
    pub fn bytes(&self) -> u64 {
        let segments = self.blocks() * u64::from(self.lower_columns) + (self.blocks() - self.upper_start_block);
        segments * 16
    }

    /// Expected FPR: a missing key whose row starts in a c-column block matches with chance 2^−c
    /// (its result bits are a hash of the key, independent of the solution); starts are uniform.
    /// RocksDB's `ExpectedFpRate`.
    pub fn fpr(&self) -> f64 {
        let lower_portion = (self.upper_start_block * RIBBON_COEFF_BITS) as f64 / self.starts() as f64;
        let lower = pow(0.5, f64::from(self.lower_columns));
        lower_portion.min(1.0) * lower + (1.0 - lower_portion.min(1.0)) * lower / 2.0
    }
}

/// A Ribbon filter as RocksDB sizes it, or the FastLocalBloom it falls back to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RibbonLayout {
    /// A Ribbon filter of this shape.
    Ribbon(RibbonShape),
    /// FastLocalBloom at the same configured bits per key: smaller for filters of under 1024 slots.
    BloomFallback(FastLocalBloomSize),
}

/// RocksDB 7.8's Standard128Ribbon for `keys` keys at `bloom_bits_per_key` Bloom-equivalent bits
/// per key: the target FPR is FastLocalBloom's estimated FPR at those bits
/// (`rocksdb_cache_local_estimate`); the columns are split between c and c + 1 per block so that
/// the share of starts in c-column blocks meets it (`GetBytesForOneInFpRate`), `rounding` in
/// [0, 1) nudging the split (RocksDB takes it from the first key's hash). Filters of fewer than
/// 1024 slots fall back to FastLocalBloom when that is smaller. `None`: no filter.
pub fn ribbon_layout(keys: u64, bloom_bits_per_key: f64, rounding: f64) -> Option<RibbonLayout> {
    let millibits = rocksdb_millibits(bloom_bits_per_key);
    if keys == 0 || millibits == 0 {
        return None;
    }
    let configured = f64::from(rocksdb_millibits(bloom_bits_per_key)) / 1000.0;
    let target = rocksdb_cache_local_estimate(configured.clamp(1.0, 100.0), fast_local_bloom_probes(millibits));
    let one_in = 1.0 / target;
    let slots = ribbon_slots(keys);
    let blocks = slots / RIBBON_COEFF_BITS;
    let starts = slots - RIBBON_COEFF_BITS + 1;
    let shape = if one_in >= f64::from(u32::MAX) {
        RibbonShape { slots, lower_columns: 32, upper_start_block: blocks }
    } else {
        let lower_columns = (one_in as u32).max(1).ilog2();
        let lower_fpr = pow(2.0, -f64::from(lower_columns));
        let upper_fpr = lower_fpr / 2.0;
        let lower_portion = ((target - upper_fpr) / (lower_fpr - upper_fpr)).clamp(0.0, 1.0);
        let usb = ((lower_portion * starts as f64 + rounding.clamp(0.0, 0.999_999)) / RIBBON_COEFF_BITS as f64) as u64;
        RibbonShape { slots, lower_columns, upper_start_block: usb.min(blocks) }
    };
    if slots < 1024
        && let Some(bloom) = fast_local_bloom_size(keys, bloom_bits_per_key)
        && bloom.bytes < shape.bytes()
    {
        return Some(RibbonLayout::BloomFallback(bloom));
    }
    Some(RibbonLayout::Ribbon(shape))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probes_follow_rocksdb_choose_num_probes() {
        assert_eq!(fast_local_bloom_probes(rocksdb_millibits(10.0)), 6);
        assert_eq!(fast_local_bloom_probes(rocksdb_millibits(5.0)), 3);
        assert_eq!(fast_local_bloom_probes(rocksdb_millibits(16.0)), 9);
        assert_eq!(fast_local_bloom_probes(rocksdb_millibits(8.3)), 5);
        assert_eq!(fast_local_bloom_probes(28_000), 12);
        assert_eq!(fast_local_bloom_probes(28_001), 13);
        assert_eq!(fast_local_bloom_probes(50_000), 23);
        assert_eq!(fast_local_bloom_probes(50_001), 24);
        assert_eq!(rocksdb_millibits(0.4), 0);
        assert_eq!(rocksdb_millibits(0.7), 1000);
        assert_eq!(rocksdb_millibits(9.9995), 10_000);
    }

    #[test]
    fn fast_local_bloom_rounds_to_whole_lines() {
        // 1000 keys at 10 bits/key: 1250 bytes → 1280 (20 lines).
        assert_eq!(fast_local_bloom_size(1000, 10.0), Some(FastLocalBloomSize { bytes: 1280, probes: 6 }));
        assert_eq!(fast_local_bloom_size(1, 10.0).map(|s| s.bytes), Some(64));
        assert_eq!(fast_local_bloom_size(0, 10.0), None);
        assert_eq!(fast_local_bloom_size(100, 0.3), None);
    }

    #[test]
    fn fast_local_bloom_fpr_is_the_cache_local_ideal() {
        // RocksDB's bloom_impl.h: 10 bits/key, 6 probes, 512-bit lines: 0.9535% with distinct
        // probes, "about 0.957%" for its implementation (whose probes may repeat, like these).
        let f = fast_local_bloom_fpr(10.0, 6);
        assert!((f - 0.00957).abs() < 0.00002, "{f}");
        assert!(f > 0.009535);
        // Above the textbook filter at the same probes and bits, which is 0.8436% at k = 6.
        assert!((standard_fpr(10.0, 6) - 0.008436).abs() < 0.000002);
        // Independent vectors (the same Poisson sum in Python, 400 terms).
        let vectors = [(5.0, 3, 0.092885), (16.0, 9, 0.00082563)];
        for (b, k, expected) in vectors {
            let f = fast_local_bloom_fpr(b, k);
            assert!((f - expected).abs() / expected < 0.01, "b {b}: {f} vs {expected}");
        }
        // RocksDB's ±1σ estimate (the same formula in Python): a little under the Poisson average.
        for (b, k, expected) in [(10.0, 6, 0.0095327), (5.0, 3, 0.092693), (16.0, 9, 0.00079678)] {
            let est = rocksdb_cache_local_estimate(b, k);
            assert!((est - expected).abs() / expected < 1e-4, "b {b}: {est} vs {expected}");
        }
    }

    #[test]
    fn ribbon_slots_follow_the_measured_table() {
        // 2^12 slots hold 4005.59 keys at the 1-in-20 failure chance: 4005 keys need ≤ 4096.
        assert_eq!(ribbon_slots_unrounded(4005), 4096);
        assert_eq!(ribbon_slots(4005), 4096);
        // Overhead grows with size: ~3.6% at 2^17 slots, ~5% at 2^20.
        let n = 1_000_000;
        let overhead = ribbon_slots(n) as f64 / n as f64;
        assert!((overhead - 1.0466).abs() < 0.002, "{overhead}");
        assert_eq!(ribbon_slots(1), 256);
    }

    #[test]
    fn ribbon_meets_bloom_fpr_in_less_space() {
        for (b, n) in [(10.0, 100_000u64), (5.0, 100_000), (16.0, 100_000), (10.0, 1_000_000)] {
            let Some(RibbonLayout::Ribbon(shape)) = ribbon_layout(n, b, 0.5) else { panic!("ribbon expected") };
            let target = rocksdb_cache_local_estimate(b, fast_local_bloom_probes(rocksdb_millibits(b)));
            assert!((shape.fpr() - target).abs() / target < 0.01, "b {b}: {} vs {target}", shape.fpr());
            let bits = shape.bytes() as f64 * 8.0 / n as f64;
            let bloom = fast_local_bloom_size(n, b).map(|s| s.bytes as f64 * 8.0 / n as f64).unwrap_or(0.0);
            println!("b {b} n {n}: ribbon {bits:.3} bits/key, fpr {:.5}; bloom {bloom:.3}", shape.fpr());
            assert!(bits < 0.8 * bloom, "ribbon {bits} vs bloom {bloom}");
        }
        // 10 bits/key, 100,000 keys: 6 or 7 columns, 22.0% of the starts in 6-column blocks
        // ((0.0095327 − 1/128) / (1/64 − 1/128)), so 6.780 bits per slot.
        let Some(RibbonLayout::Ribbon(s)) = ribbon_layout(100_000, 10.0, 0.5) else { panic!() };
        assert_eq!(s.lower_columns, 6);
        let per_slot = s.bytes() as f64 * 8.0 / s.slots as f64;
        assert!((per_slot - 6.780).abs() < 0.002, "{per_slot}");
    }

    #[test]
    fn small_ribbon_filters_fall_back_to_bloom() {
        // 50 keys at 10 bits/key: 256 slots of 6.7 bits cost 215 B; FastLocalBloom 64 B.
        assert!(matches!(ribbon_layout(50, 10.0, 0.5), Some(RibbonLayout::BloomFallback(_))));
        assert!(matches!(ribbon_layout(5000, 10.0, 0.5), Some(RibbonLayout::Ribbon(_))));
        assert_eq!(ribbon_layout(0, 10.0, 0.5), None);
    }

    #[test]
    fn structures_by_level() {
        let mut f = FilterConfig::bloom(crate::config::Allocation::Uniform, 10.0);
        assert_eq!(structure_for(&f, true, 1), Structure::Bloom);
        f.kind = FilterKind::Ribbon;
        assert_eq!(structure_for(&f, true, 1), Structure::FastLocalBloom);
        assert_eq!(structure_for(&f, false, 1), Structure::Ribbon);
        f.bloom_before_level = 2;
        assert_eq!(structure_for(&f, false, 2), Structure::FastLocalBloom);
        assert_eq!(structure_for(&f, false, 3), Structure::Ribbon);
        f.bloom_before_level = -1;
        assert_eq!(structure_for(&f, true, 1), Structure::Ribbon);
        let flb = structure_fpr(Structure::FastLocalBloom, 10.0, 1_000_000);
        let textbook = structure_fpr(Structure::Bloom, 10.0, 1_000_000);
        assert!(flb > 1.15 * textbook && flb < 1.18 * textbook, "{flb} vs {textbook}");
        assert_eq!(structure_fpr(Structure::Ribbon, 0.0, 1000), 1.0);
    }
}

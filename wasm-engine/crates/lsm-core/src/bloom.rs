//! Standard Bloom filter: m bits, k probes placed by double hashing of one 64-bit key hash.
//!
//! The FPR of this filter is the textbook `(1 − e^{−kn/m})^k`, which is what the models use, so
//! measured false positives can be compared with predictions directly (a blocked, cache-local
//! filter would be faster but would need its own FPR curve).

use crate::hash::hash64;
use crate::math::{exp, pow};

/// Seed of the filter hash; part of the file format.
pub const FILTER_SEED: u64 = 0x5EED_B100_F11E_0001;

/// Integer hash count for a bits-per-key budget: round(b·ln 2), at least 1, at most 30.
pub fn optimal_hashes(bits_per_key: f64) -> u32 {
    if bits_per_key.is_nan() || bits_per_key <= 0.0 {
        return 0;
    }
    (bits_per_key * std::f64::consts::LN_2).round().clamp(1.0, 30.0) as u32
}

/// Expected FPR of a filter with `bits` bits, `hashes` probes and `entries` keys (integer-k formula).
pub fn expected_fpr(bits: u64, hashes: u32, entries: u64) -> f64 {
    if bits == 0 || hashes == 0 {
        return 1.0;
    }
    if entries == 0 {
        return 0.0;
    }
    let k = f64::from(hashes);
    pow(1.0 - exp(-k * entries as f64 / bits as f64), k)
}

/// FPR of a filter with `bits_per_key` bits per key and the hash count it gets
/// (`optimal_hashes`): `expected_fpr` per key, for sizes known only as averages.
pub fn fpr_at_bits_per_key(bits_per_key: f64) -> f64 {
    let k = optimal_hashes(bits_per_key);
    if k == 0 {
        return 1.0;
    }
    let k = f64::from(k);
    pow(1.0 - exp(-k / bits_per_key), k)
}

/// The probe positions of one key. Each position comes from its own full 64-bit remix of the key
/// hash (a splitmix64 step): positions behave as independent, so a filter's measured FPR stays
/// within binomial noise of the formula. Plain double hashing (h1 + i·h2) looked cheaper but
/// measurably inflated the spread of FPR across filters, which the model comparisons would see.
#[derive(Clone, Copy, Debug)]
pub struct Probe {
    h: u64,
}

impl Probe {
    /// The probes of `key`, hashed with `FILTER_SEED`.
    #[inline]
    pub fn new(key: &[u8]) -> Self {
        Self::from_hash(hash64(key, FILTER_SEED))
    }

    /// The probes of a key whose hash is already known: `hash64(key, FILTER_SEED)`, or a remix of
    /// it for the later modules of a modular filter.
    #[inline]
    pub fn from_hash(h: u64) -> Self {
        Probe { h }
    }

    /// Position i in [0, m): a multiply-shift of the top 32 bits (no division on the lookup path).
    #[inline]
    fn position(&self, i: u32, m: u64) -> u64 {
        let mut z = self.h.wrapping_add(u64::from(i + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        ((z >> 32) * m) >> 32
    }
}

/// A standard Bloom filter of whole 64-bit words; its FPR is `expected_fpr(bits, hashes, keys)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Bloom {
    words: Vec<u64>,
    bits: u64,
    hashes: u32,
}

impl Bloom {
    /// A filter sized for `entries` keys at `bits_per_key` (rounded up to whole 64-bit words).
    /// A budget of zero bits gives an empty filter that is never consulted.
    pub fn with_bits_per_key(entries: u64, bits_per_key: f64) -> Self {
        let hashes = optimal_hashes(bits_per_key);
        if hashes == 0 || entries == 0 {
            return Bloom { words: Vec::new(), bits: 0, hashes: 0 };
        }
        let bits = ((entries as f64 * bits_per_key).ceil() as u64).max(64);
        Self::with_bits(bits, hashes)
    }

    /// An empty filter of `bits` bits rounded up to whole 64-bit words, setting `hashes` bits per
    /// key (a filter with bits must have at least one hash).
    pub fn with_bits(bits: u64, hashes: u32) -> Self {
        let words = bits.div_ceil(64) as usize;
        Bloom { words: vec![0; words], bits: words as u64 * 64, hashes }
    }

    /// True for a filter of no bits: the run has no filter, and `may_contain` always says yes.
    pub fn is_empty(&self) -> bool {
        self.bits == 0
    }

    /// Size in bits, a multiple of 64 (m).
    pub fn bits(&self) -> u64 {
        self.bits
    }

    /// Bits set and probed per key (k).
    pub fn hashes(&self) -> u32 {
        self.hashes
    }

    /// Adds a key, given by its probes.
    pub fn insert(&mut self, probe: Probe) {
        for i in 0..self.hashes {
            let p = probe.position(i, self.bits);
            self.words[(p >> 6) as usize] |= 1 << (p & 63);
        }
    }

    /// False means the key is certainly absent. An empty filter answers true (no information).
    #[inline]
    pub fn may_contain(&self, probe: Probe) -> bool {
        for i in 0..self.hashes {
            let p = probe.position(i, self.bits);
            if self.words[(p >> 6) as usize] & (1 << (p & 63)) == 0 {
                return false;
            }
        }
        true
    }

    /// Serialised form: u32 hashes, u32 pad, then the words little-endian.
    pub fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.hashes.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        for w in &self.words {
            out.extend_from_slice(&w.to_le_bytes());
        }
    }

    /// Reads back what `encode` wrote; `None` when the length is not 8 plus whole words or the
    /// hash count is impossible (over 64, or non-zero with no words).
    pub fn decode(bytes: &[u8]) -> Option<Self> {
        if bytes.len() < 8 || !(bytes.len() - 8).is_multiple_of(8) {
            return None;
        }
        let hashes = u32::from_le_bytes(bytes[0..4].try_into().ok()?);
        let words: Vec<u64> =
            bytes[8..].chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap_or([0; 8]))).collect();
        if hashes > 64 || (words.is_empty() && hashes != 0) {
            return None;
        }
        let bits = words.len() as u64 * 64;
        Some(Bloom { words, bits, hashes })
    }

    /// Bytes `encode` writes: 8 plus 8 per word.
    pub fn encoded_len(&self) -> usize {
        8 + self.words.len() * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measure(bits_per_key: f64, n: u64, probes: u64) -> (f64, f64) {
        let mut f = Bloom::with_bits_per_key(n, bits_per_key);
        for i in 0..n {
            f.insert(Probe::new(&(i * 2).to_be_bytes()));
        }
        let fp = (0..probes).filter(|i| f.may_contain(Probe::new(&(i * 2 + 1).to_be_bytes()))).count();
        (fp as f64 / probes as f64, expected_fpr(f.bits(), f.hashes(), n))
    }

    #[test]
    fn no_false_negatives() {
        let mut f = Bloom::with_bits_per_key(10_000, 3.0);
        for i in 0..10_000u64 {
            f.insert(Probe::new(&i.to_le_bytes()));
        }
        assert!((0..10_000u64).all(|i| f.may_contain(Probe::new(&i.to_le_bytes()))));
    }

    #[test]
    fn measured_fpr_matches_integer_k_formula_within_10_percent() {
        // 100,000 keys, 1,000,000 missing probes at each budget.
        for bpk in [2.0, 5.0, 10.0] {
            let (measured, expected) = measure(bpk, 100_000, 1_000_000);
            let rel = (measured - expected).abs() / expected;
            println!("bits/key {bpk}: measured {measured:.5} expected {expected:.5} rel {rel:.4}");
            assert!(rel < 0.10, "bits/key {bpk}: measured {measured} vs {expected}");
        }
    }

    #[test]
    fn encode_roundtrip() {
        let mut f = Bloom::with_bits_per_key(100, 7.5);
        f.insert(Probe::new(b"a"));
        let mut buf = Vec::new();
        f.encode(&mut buf);
        assert_eq!(buf.len(), f.encoded_len());
        assert_eq!(Bloom::decode(&buf), Some(f));
    }

    #[test]
    fn hash_count_is_rounded_b_ln2() {
        assert_eq!(optimal_hashes(10.0), 7);
        assert_eq!(optimal_hashes(5.0), 3);
        assert_eq!(optimal_hashes(2.0), 1);
        assert_eq!(optimal_hashes(0.0), 0);
    }
}

//! How workloads turn numbers into keys and values.
//!
//! A key is the big-endian id (8 bytes, so keys sort by id) padded to the configured length with
//! bytes derived from the id. Workloads insert ids in the order of a seeded pseudo-random
//! permutation of the key space, so the i-th insert is `permutation(i)`: inserted keys are
//! distinct and scattered over the whole space, and any index not inserted yet names a key
//! that is certainly missing but lies among the existing ones (a real zero-result lookup, not
//! one a key-range check can dismiss).

use lsm_core::hash::hash64;

/// A bijection on [0, size): a 4-round Feistel network on the smallest even-bit domain
/// ≥ size, with cycle walking back into range.
#[derive(Clone, Debug)]
pub(crate) struct Permutation {
    size: u64,
    half_bits: u32,
    seed: u64,
}

impl Permutation {
    pub(crate) fn new(size: u64, seed: u64) -> Self {
        let bits = 64 - size.saturating_sub(1).leading_zeros();
        let half_bits = bits.div_ceil(2).max(1);
        Permutation { size, half_bits, seed }
    }

    fn feistel(&self, x: u64) -> u64 {
        let mask = (1u64 << self.half_bits) - 1;
        let (mut left, mut right) = (x >> self.half_bits, x & mask);
        for round in 0..4u64 {
            let f = hash64(&right.to_le_bytes(), self.seed ^ round.wrapping_mul(0x9E37_79B9)) & mask;
            (left, right) = (right, left ^ f);
        }
        (left << self.half_bits) | right
    }

    fn feistel_inverse(&self, x: u64) -> u64 {
        let mask = (1u64 << self.half_bits) - 1;
        let (mut left, mut right) = (x >> self.half_bits, x & mask);
        for round in (0..4u64).rev() {
            let f = hash64(&left.to_le_bytes(), self.seed ^ round.wrapping_mul(0x9E37_79B9)) & mask;
            (left, right) = (right ^ f, left);
        }
        (left << self.half_bits) | right
    }

    /// The index i with `apply(i) == id` (cycle walking backwards).
    pub(crate) fn invert(&self, id: u64) -> u64 {
        debug_assert!(id < self.size);
        let mut x = id;
        loop {
            x = self.feistel_inverse(x);
            if x < self.size {
                return x;
            }
        }
    }

    pub(crate) fn apply(&self, i: u64) -> u64 {
        debug_assert!(i < self.size);
        let mut x = i;
        loop {
            x = self.feistel(x);
            if x < self.size {
                return x;
            }
        }
    }
}

/// Encodes ids as keys of a fixed length (≥ 8 bytes).
#[derive(Clone, Copy, Debug)]
pub(crate) struct KeyCodec {
    pub key_bytes: usize,
}

impl KeyCodec {
    pub(crate) fn encode(&self, id: u64, out: &mut Vec<u8>) {
        out.clear();
        out.extend_from_slice(&id.to_be_bytes());
        let mut filler = hash64(&id.to_le_bytes(), 0x6B65_7973);
        while out.len() < self.key_bytes {
            let b = filler.to_le_bytes();
            let n = (self.key_bytes - out.len()).min(8);
            out.extend_from_slice(&b[..n]);
            filler = filler.rotate_left(29).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    /// Smallest and largest key any id in [lo, hi] can have (range-scan bounds).
    pub(crate) fn range_bounds(&self, lo: u64, hi: u64, start: &mut Vec<u8>, end: &mut Vec<u8>) {
        start.clear();
        start.extend_from_slice(&lo.to_be_bytes());
        start.resize(self.key_bytes, 0x00);
        end.clear();
        end.extend_from_slice(&hi.to_be_bytes());
        end.resize(self.key_bytes, 0xFF);
    }

    #[cfg(test)]
    /// The id a key encodes (its first 8 bytes).
    pub(crate) fn decode(&self, key: &[u8]) -> Option<u64> {
        Some(u64::from_be_bytes(key.get(..8)?.try_into().ok()?))
    }
}

/// Printable value bytes for (id, version), so a generated workload written as a KVBench trace
/// reads back byte for byte.
pub(crate) fn fill_value(id: u64, version: u64, len: usize, out: &mut Vec<u8>) {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    out.clear();
    out.resize(len, 0);
    let mut state = id.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ version;
    // Ten 6-bit characters per 64-bit draw.
    for chunk in out.chunks_mut(10) {
        let w = lsm_core::rng::splitmix64(&mut state);
        for (i, c) in chunk.iter_mut().enumerate() {
            *c = ALPHABET[((w >> (i * 6)) & 63) as usize];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutation_is_a_bijection() {
        for size in [1u64, 2, 3, 10, 1000, 4097] {
            let p = Permutation::new(size, 42);
            let mut seen = vec![false; size as usize];
            for i in 0..size {
                let x = p.apply(i) as usize;
                assert!(!seen[x], "size {size}: {x} twice");
                seen[x] = true;
                assert_eq!(p.invert(x as u64), i);
            }
        }
    }

    #[test]
    fn keys_sort_by_id_and_range_bounds_enclose_them() {
        let c = KeyCodec { key_bytes: 16 };
        let (mut a, mut b) = (Vec::new(), Vec::new());
        c.encode(5, &mut a);
        c.encode(6, &mut b);
        assert!(a < b && a.len() == 16);
        assert_eq!(c.decode(&a), Some(5));
        let (mut s, mut e) = (Vec::new(), Vec::new());
        c.range_bounds(5, 6, &mut s, &mut e);
        assert!(s <= a && b <= e);
    }

    #[test]
    fn values_are_printable_and_deterministic() {
        let (mut v1, mut v2) = (Vec::new(), Vec::new());
        fill_value(9, 1, 100, &mut v1);
        fill_value(9, 1, 100, &mut v2);
        assert_eq!(v1, v2);
        assert_eq!(v1.len(), 100);
        assert!(v1.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'+' || *b == b'/'));
    }
}

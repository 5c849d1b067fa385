//! The kernels' inputs: 16 B keys and 100 B values (the benchmark workload's sizes), drawn with
//! `lsm_core::rng::Rng`, so the same seed gives the same bytes natively and in wasm.

use std::collections::BTreeSet;

use lsm_core::bloom::FILTER_SEED;
use lsm_core::hash::{hash64, mix};
use lsm_core::rng::Rng;

/// Key length in bytes.
pub const KEY_BYTES: usize = 16;
/// Value length in bytes.
pub const VALUE_BYTES: usize = 100;
/// Page size of the kernels that write or read pages (the default `page_bytes`).
pub const PAGE_BYTES: u32 = 4096;
/// Filter budget of the kernels that build filters (the benchmark configuration's).
pub const BITS_PER_KEY: f64 = 10.0;

/// A key.
pub type Key = [u8; KEY_BYTES];

/// The key of `id`: a scrambled first half, so keys of consecutive ids fall anywhere in key
/// order and their 8-byte prefixes (the buffer's and the fences' integer comparisons) differ,
/// then `id` itself. Distinct ids give distinct keys.
pub fn key(id: u64) -> Key {
    let mut k = [0u8; KEY_BYTES];
    k[..8].copy_from_slice(&mix(id ^ 0xA5A5_5A5A_C3C3_3C3C).to_be_bytes());
    k[8..].copy_from_slice(&id.to_be_bytes());
    k
}

/// The filter hash of `key`, as the table builder and a lookup compute it.
pub fn key_hash(key: &[u8]) -> u64 {
    hash64(key, FILTER_SEED)
}

/// A value of random bytes.
pub fn value(rng: &mut Rng) -> Vec<u8> {
    (0..VALUE_BYTES).map(|_| rng.next_u64() as u8).collect()
}

/// `n` distinct ids below `space` (n ≤ space), in increasing order.
pub fn distinct_ids(rng: &mut Rng, n: usize, space: u64) -> Vec<u64> {
    let n = n.min(usize::try_from(space).unwrap_or(usize::MAX));
    let mut ids = BTreeSet::new();
    while ids.len() < n {
        ids.insert(rng.below(space));
    }
    ids.into_iter().collect()
}

/// Keys of `ids`, sorted by key (the order a table holds them in).
pub fn sorted_keys(ids: &[u64]) -> Vec<Key> {
    let mut keys: Vec<Key> = ids.iter().map(|&id| key(id)).collect();
    keys.sort_unstable();
    keys
}

/// Shuffle in place (Fisher–Yates), so probes of present and missing keys come in no pattern a
/// branch predictor could learn.
pub fn shuffle<T>(rng: &mut Rng, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

/// `n` probe keys, half of them from `present` (chosen at random) and half absent: keys of odd
/// ids below `2 · missing_space`, so `present` must hold keys of even ids only. Shuffled.
pub fn probes(rng: &mut Rng, present: &[Key], n: usize, missing_space: u64) -> Vec<Key> {
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        if i % 2 == 0 && !present.is_empty() {
            out.push(present[rng.below(present.len() as u64) as usize]);
        } else {
            out.push(key(2 * rng.below(missing_space) + 1));
        }
    }
    shuffle(rng, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_the_same_for_the_same_seed() {
        let ids = distinct_ids(&mut Rng::new(1), 1000, 5000);
        assert_eq!(ids.len(), 1000);
        assert_eq!(ids, distinct_ids(&mut Rng::new(1), 1000, 5000));
        let keys = sorted_keys(&ids);
        assert!(keys.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn probes_are_half_present() {
        let present = sorted_keys(&(0..100).map(|i| 2 * i).collect::<Vec<_>>());
        let p = probes(&mut Rng::new(2), &present, 1000, 1 << 20);
        let hits = p.iter().filter(|k| present.binary_search(k).is_ok()).count();
        assert_eq!(hits, 500);
    }
}

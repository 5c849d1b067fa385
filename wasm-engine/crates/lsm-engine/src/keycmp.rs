//! Key comparison without memcmp: keys compare 8 bytes at a time, as little-endian words
//! compared for equality, and at the first word that differs its lowest set bit of `x ^ y` names
//! the first differing byte. No byte swap: wasm has no instruction for one (a big-endian load
//! costs it a dozen shifts and masks), and no memcmp either (Rust's is a byte-at-a-time loop
//! there). Natively this saves the call into memcmp.

use std::cmp::Ordering;

/// `a.cmp(b)`: byte order, a proper prefix first.
#[inline]
pub(crate) fn compare(a: &[u8], b: &[u8]) -> Ordering {
    let n = a.len().min(b.len());
    let (mut a8, mut b8) = (a[..n].chunks_exact(8), b[..n].chunks_exact(8));
    for (x, y) in a8.by_ref().zip(b8.by_ref()) {
        let (x, y) = (word(x), word(y));
        if x != y {
            return first_difference(x, y);
        }
    }
    // The last 0–7 common bytes, zero-padded alike (both the same length), then the lengths.
    let (x, y) = (tail(a8.remainder()), tail(b8.remainder()));
    if x != y {
        return first_difference(x, y);
    }
    a.len().cmp(&b.len())
}

/// `a == b`.
#[inline]
pub(crate) fn equal(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && compare(a, b) == Ordering::Equal
}

/// The order of two different little-endian words: that of their first (lowest) differing byte.
#[inline]
fn first_difference(x: u64, y: u64) -> Ordering {
    let shift = (x ^ y).trailing_zeros() & !7;
    ((x >> shift) as u8).cmp(&((y >> shift) as u8))
}

#[inline]
fn word(k: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(k);
    u64::from_le_bytes(w)
}

/// Up to 7 bytes as a little-endian word, zero-padded (a loop: a copy of a variable length
/// would be a call in wasm).
#[inline]
fn tail(k: &[u8]) -> u64 {
    k.iter().enumerate().fold(0, |w, (i, &b)| w | u64::from(b) << (8 * i))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_byte_order() {
        let keys: [&[u8]; 14] = [
            b"",
            b"a",
            b"abcdefgh",
            b"abcdefgh\0",
            b"abcdefgi",
            b"abcdefghij",
            b"b",
            b"\xff\xff\xff\xff\xff\xff\xff\xff",
            b"abcdefgh\0\0\0\0\0\0\0\0",
            b"abcdefgh\0\0\0\0\0\0\0\0\0",
            b"abcdefghijklmnop",
            b"abcdefghijklmnoq",
            b"abcdefghijklmnopq",
            b"abcdefghijklmno\xff",
        ];
        for a in keys {
            for b in keys {
                assert_eq!(compare(a, b), a.cmp(b), "{a:?} vs {b:?}");
                assert_eq!(equal(a, b), a == b, "{a:?} vs {b:?}");
            }
        }
    }

    #[test]
    fn agrees_with_byte_order_on_random_keys() {
        // Short keys over few byte values, so that long common prefixes, zero bytes and proper
        // prefixes are common.
        let mut rng = lsm_core::rng::Rng::new(31);
        let key = |rng: &mut lsm_core::rng::Rng| -> Vec<u8> {
            let len = (rng.next_u64() % 20) as usize;
            (0..len).map(|_| [0u8, 1, 0x7f, 0xff][(rng.next_u64() % 4) as usize]).collect()
        };
        for _ in 0..20_000 {
            let (a, b) = (key(&mut rng), key(&mut rng));
            assert_eq!(compare(&a, &b), a.cmp(&b), "{a:?} vs {b:?}");
            assert_eq!(equal(&a, &b), a == b, "{a:?} vs {b:?}");
            assert!(equal(&a, &a.clone()));
        }
    }
}

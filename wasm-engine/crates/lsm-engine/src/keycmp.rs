//! Key comparison with a fast path: most keys differ in their first 8 bytes, which compare as one
//! big-endian integer without a call into memcmp.

use std::cmp::Ordering;

#[inline]
pub(crate) fn compare(a: &[u8], b: &[u8]) -> Ordering {
    if a.len() >= 8 && b.len() >= 8 {
        let (x, y) = (load(a), load(b));
        if x != y {
            return x.cmp(&y);
        }
    }
    a.cmp(b)
}

#[inline]
fn load(k: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&k[..8]);
    u64::from_be_bytes(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_byte_order() {
        let keys: [&[u8]; 8] = [
            b"",
            b"a",
            b"abcdefgh",
            b"abcdefgh\0",
            b"abcdefgi",
            b"abcdefghij",
            b"b",
            b"\xff\xff\xff\xff\xff\xff\xff\xff",
        ];
        for a in keys {
            for b in keys {
                assert_eq!(compare(a, b), a.cmp(b), "{a:?} vs {b:?}");
            }
        }
    }
}

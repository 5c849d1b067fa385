//! Checksummed record framing for the write-ahead log and the manifest:
//! `[u32 length][u32 check of the length][u32 checksum of the payload][payload]`.
//!
//! A crash can only cut an append short, so an incomplete last record is a torn tail: dropped,
//! it was never acknowledged. A complete record that fails a check is corruption and reported
//! with file and offset — the separate length check makes a flipped length field corruption too,
//! rather than a record that merely looks unfinished.

use lsm_core::error::{Error, Result};
use lsm_core::hash::checksum;

const HEADER: usize = 12;

/// A check of the length field alone: any single flipped bit changes it (an odd multiplier is
/// a bijection, so no two lengths share a check).
fn length_check(len: u32) -> u32 {
    (len ^ 0xA5A5_5A5A).wrapping_mul(0x9E37_79B1).rotate_left(13) ^ 0x5BD1_E995
}

pub(crate) fn encode(payload: &[u8], out: &mut Vec<u8>) {
    let len = payload.len() as u32;
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&length_check(len).to_le_bytes());
    out.extend_from_slice(&checksum(payload).to_le_bytes());
    out.extend_from_slice(payload);
}

/// Every complete record's payload (as ranges of `bytes`) and the length of the valid prefix.
pub(crate) fn decode_all(file: &str, bytes: &[u8]) -> Result<(Vec<std::ops::Range<usize>>, usize)> {
    let mut records = Vec::new();
    let mut pos = 0;
    while pos < bytes.len() {
        let rest = &bytes[pos..];
        if rest.len() < HEADER {
            break; // torn header
        }
        let word = |i: usize| u32::from_le_bytes([rest[i], rest[i + 1], rest[i + 2], rest[i + 3]]);
        let len = word(0);
        if len == 0 && word(4) == 0 && word(8) == 0 && rest.iter().all(|&b| b == 0) {
            break; // zero-filled tail left by a crash
        }
        if word(4) != length_check(len) {
            return Err(Error::corruption(file, pos as u64, "record length check mismatch"));
        }
        let end = HEADER + len as usize;
        if rest.len() < end {
            break; // torn payload
        }
        if checksum(&rest[HEADER..end]) != word(8) {
            return Err(Error::corruption(file, pos as u64, "record checksum mismatch"));
        }
        records.push(pos + HEADER..pos + end);
        pos += end;
    }
    Ok((records, pos))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<u8> {
        let mut out = Vec::new();
        for p in [&b"first"[..], b"", b"third record"] {
            encode(p, &mut out);
        }
        out
    }

    #[test]
    fn roundtrip_and_torn_tails() {
        let bytes = sample();
        let (recs, valid) = decode_all("f", &bytes).unwrap();
        assert_eq!(recs.len(), 3);
        assert_eq!(&bytes[recs[2].clone()], b"third record");
        assert_eq!(valid, bytes.len());
        for cut in 0..bytes.len() {
            let (recs, valid) = decode_all("f", &bytes[..cut]).unwrap();
            assert!(valid <= cut && recs.len() <= 3);
        }
    }

    #[test]
    fn every_flipped_byte_is_corruption() {
        let bytes = sample();
        for i in 0..bytes.len() {
            for mask in [0x01, 0x80] {
                let mut b = bytes.clone();
                b[i] ^= mask;
                let r = decode_all("wal", &b);
                assert!(matches!(r, Err(Error::Corruption { .. })), "flip {mask:#x} at {i} went unnoticed: {r:?}");
            }
        }
    }
}

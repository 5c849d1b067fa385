//! RocksDB's FastLocalBloom (format_version 5): a Bloom filter cut into 512-bit lines, one line
//! per key, every probe of the key inside it. The line comes from the low 32 bits of the key's
//! hash (a multiply-shift onto the line count), the probes from the high 32 bits, multiplied by
//! the 32-bit golden ratio between probes, each taking its top 9 bits as a bit of the line. Its
//! size and probe count are RocksDB's (`lsm_core::filter_kinds::fast_local_bloom_size`), and so is
//! its FPR, above a textbook filter's because some lines are more crowded than others
//! (`lsm_core::filter_kinds::fast_local_bloom_fpr`).

use lsm_core::filter_kinds::{CACHE_LINE_BITS, FastLocalBloomSize, fast_local_bloom_size};

/// Words of one 512-bit line.
const LINE_WORDS: usize = (CACHE_LINE_BITS / 64) as usize;
/// Multiplier between one probe and the next: 2³² divided by the golden ratio.
const GOLDEN32: u32 = 0x9E37_79B9;

/// A FastLocalBloom filter.
#[derive(Clone, Debug, PartialEq)]
pub struct FastLocalBloom {
    words: Vec<u64>,
    probes: u32,
}

impl FastLocalBloom {
    /// A filter of `keys` keys (their 64-bit hashes) at `bits_per_key`, sized as RocksDB sizes it;
    /// `None` when RocksDB would build none (no keys, under half a bit per key).
    pub fn build(keys: u64, key_hashes: impl Iterator<Item = u64>, bits_per_key: f64) -> Option<Self> {
        let FastLocalBloomSize { bytes, probes } = fast_local_bloom_size(keys, bits_per_key)?;
        let mut f = FastLocalBloom { words: vec![0; (bytes / 8) as usize], probes };
        for h in key_hashes {
            f.insert(h);
        }
        Some(f)
    }

    fn lines(&self) -> u64 {
        (self.words.len() / LINE_WORDS) as u64
    }

    /// The first word of the line key hash `h` maps to.
    #[inline]
    fn line_start(&self, h: u64) -> usize {
        (((h & 0xFFFF_FFFF) * self.lines()) >> 32) as usize * LINE_WORDS
    }

    fn insert(&mut self, h: u64) {
        let at = self.line_start(h);
        let mut p = (h >> 32) as u32;
        for _ in 0..self.probes {
            let bit = (p >> 23) as usize;
            self.words[at + bit / 64] |= 1 << (bit % 64);
            p = p.wrapping_mul(GOLDEN32);
        }
    }

    /// False means the key of hash `h` is certainly absent.
    #[inline]
    pub fn may_contain(&self, h: u64) -> bool {
        let at = self.line_start(h);
        let mut p = (h >> 32) as u32;
        for _ in 0..self.probes {
            let bit = (p >> 23) as usize;
            if self.words[at + bit / 64] & (1 << (bit % 64)) == 0 {
                return false;
            }
            p = p.wrapping_mul(GOLDEN32);
        }
        true
    }

    /// The line a probe of `h` reads (its first word), for `prefetch`.
    #[inline]
    pub fn line(&self, h: u64) -> &u64 {
        &self.words[self.line_start(h)]
    }

    /// Size in bits, whole 512-bit lines.
    pub fn bits(&self) -> u64 {
        self.words.len() as u64 * 64
    }

    /// Probes per key.
    pub fn probes(&self) -> u32 {
        self.probes
    }

    /// Serialised form: u32 probes, u32 pad, then the words little-endian.
    pub fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.probes.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        for w in &self.words {
            out.extend_from_slice(&w.to_le_bytes());
        }
    }

    /// Reads back what `encode` wrote; `None` unless it is 8 bytes and whole lines with 1 to 24
    /// probes.
    pub fn decode(bytes: &[u8]) -> Option<Self> {
        let body = bytes.get(8..)?;
        if body.is_empty() || !body.len().is_multiple_of(LINE_WORDS * 8) {
            return None;
        }
        let probes = u32::from_le_bytes(bytes.get(0..4)?.try_into().ok()?);
        if !(1..=24).contains(&probes) {
            return None;
        }
        let words = body.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap_or([0; 8]))).collect();
        Some(FastLocalBloom { words, probes })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsm_core::filter_kinds::{fast_local_bloom_fpr, fast_local_bloom_probes, rocksdb_millibits};
    use lsm_core::hash::hash64;

    fn hashes(n: u64, odd: u64) -> impl Iterator<Item = u64> {
        (0..n).map(move |i| hash64(&(i * 2 + odd).to_be_bytes(), lsm_core::bloom::FILTER_SEED))
    }

    #[test]
    fn sized_as_rocksdb_sizes_it_and_no_false_negatives() {
        let f = FastLocalBloom::build(1000, hashes(1000, 0), 10.0).unwrap();
        assert_eq!((f.bits(), f.probes()), (1280 * 8, 6));
        assert!(hashes(1000, 0).all(|h| f.may_contain(h)));
        assert_eq!(FastLocalBloom::build(1000, hashes(1000, 0), 0.4), None);
        let mut buf = Vec::new();
        f.encode(&mut buf);
        assert_eq!(FastLocalBloom::decode(&buf), Some(f));
        assert_eq!(FastLocalBloom::decode(&buf[..buf.len() - 8]), None);
    }

    /// 1,000,000 keys, 2,000,000 missing keys at each budget: the formula's FPR within 2% plus
    /// three binomial standard deviations (at 10 bits/key: 2% + 2.2%).
    #[test]
    fn measured_fpr_matches_the_cache_local_formula() {
        let n = 1_000_000;
        for b in [5.0, 10.0, 16.0] {
            let f = FastLocalBloom::build(n, hashes(n, 0), b).unwrap();
            let probes = 2_000_000;
            let fp = hashes(probes, 1).filter(|&h| f.may_contain(h)).count() as f64 / probes as f64;
            let expected = fast_local_bloom_fpr(f.bits() as f64 / n as f64, f.probes());
            println!("fast local bloom {b} bits/key: measured {fp:.5} formula {expected:.5}");
            assert_eq!(f.probes(), fast_local_bloom_probes(rocksdb_millibits(b)));
            let tolerance = 0.02 * expected + 3.0 * (expected / probes as f64).sqrt();
            assert!((fp - expected).abs() < tolerance, "{b}: measured {fp} vs {expected}");
        }
    }
}

//! The table format's fixed parts: constants, the footer, fence pointers and the range block.

use lsm_core::error::{Error, Result};
use lsm_core::hash::checksum;

pub(super) const MAGIC: u64 = u64::from_le_bytes(*b"LSMNSST1");
pub(super) const FORMAT_VERSION: u32 = 2;
pub(super) const FOOTER_BYTES: usize = 112;
/// Data pages are buffered and appended in chunks this large (large sequential writes).
pub(super) const WRITE_CHUNK: usize = 1 << 20;

/// The first 8 bytes of a key as a big-endian integer (zero-padded): comparing these first
/// decides most key comparisons without a memcmp.
#[inline]
fn prefix(key: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    let n = key.len().min(8);
    b[..n].copy_from_slice(&key[..n]);
    u64::from_be_bytes(b)
}

/// A table's file name: its id, zero-padded so names sort in creation order.
pub fn table_file_name(id: u64) -> String {
    format!("{id:08}.sst")
}

/// A table's fence pointers: the first key of every data page, searched (`page_for`) for the one page
/// that may hold a key.
#[derive(Debug, PartialEq)]
pub struct Fences {
    keys: Vec<Box<[u8]>>,
    prefixes: Vec<u64>,
    /// The keys bound each block from above (RocksDB's index: a short separator at least the
    /// block's last key and below the next block's first), not the block's first key.
    separators: bool,
    /// With RocksDB-style blocks: where each data block ends in the file (the next one starts
    /// there); `None` for fixed pages, whose offsets follow from the page size.
    ends: Option<Vec<u64>>,
}

impl Fences {
    pub(super) fn new(keys: Vec<Box<[u8]>>) -> Self {
        let prefixes = keys.iter().map(|k| prefix(k)).collect();
        Fences { keys, prefixes, separators: false, ends: None }
    }

    /// Fences of variable-length blocks ending at `ends` (one per key). With `separators` the
    /// keys are upper bounds (`shortest_separator`, `short_successor`), else first keys.
    pub(super) fn with_ends(keys: Vec<Box<[u8]>>, ends: Vec<u64>, separators: bool) -> Self {
        debug_assert_eq!(keys.len(), ends.len());
        Fences { ends: Some(ends), separators, ..Fences::new(keys) }
    }

    /// Upper bounds with no block ends: a partitioned table's top level (its partitions' places
    /// are kept beside it).
    pub(super) fn bounds(keys: Vec<Box<[u8]>>) -> Self {
        Fences { separators: true, ..Fences::new(keys) }
    }

    /// The keys, in order.
    pub(super) fn keys(&self) -> &[Box<[u8]>] {
        &self.keys
    }

    /// Where each data block ends, for RocksDB-style blocks.
    pub(super) fn ends(&self) -> Option<&[u64]> {
        self.ends.as_deref()
    }

    /// How many fences: one per data page.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether there is none (a table always has at least one page).
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The page that holds `key` if any does: the last page whose first key is ≤ key, or with
    /// separators the first page whose bound is ≥ key (the last page past every bound; the
    /// table's key range rules such keys out before the index is asked).
    #[inline]
    pub fn page_for(&self, key: &[u8]) -> usize {
        let p = prefix(key);
        let (mut lo, mut hi) = (0, self.keys.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            let fp = self.prefixes[mid];
            let go_right = if self.separators {
                if fp != p { fp < p } else { &self.keys[mid][..] < key }
            } else if fp != p {
                fp < p
            } else {
                &self.keys[mid][..] <= key
            };
            if go_right {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if self.separators { lo.min(self.keys.len().saturating_sub(1)) } else { lo.saturating_sub(1) }
    }

    pub(super) fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&(self.keys.len() as u32).to_le_bytes());
        for k in &self.keys {
            out.extend_from_slice(&(k.len() as u16).to_le_bytes());
            out.extend_from_slice(k);
        }
        // Like RocksDB's index, which holds a block handle per block.
        for end in self.ends.iter().flatten() {
            out.extend_from_slice(&end.to_le_bytes());
        }
    }

    /// The index block `b`; `blocks` says whether it carries block ends (RocksDB-style blocks),
    /// `separators` whether its keys bound the blocks from above.
    pub(super) fn decode(b: &[u8], blocks: bool, separators: bool) -> Option<Fences> {
        let n = u32::from_le_bytes(b.get(0..4)?.try_into().ok()?) as usize;
        let mut pos = 4;
        let mut keys = Vec::with_capacity(n);
        for _ in 0..n {
            let len = u16::from_le_bytes(b.get(pos..pos + 2)?.try_into().ok()?) as usize;
            keys.push(Box::from(b.get(pos + 2..pos + 2 + len)?));
            pos += 2 + len;
        }
        if !blocks {
            return (pos == b.len()).then(|| Fences::new(keys));
        }
        let ends: Vec<u64> =
            b.get(pos..)?.chunks(8).map(|c| c.try_into().ok().map(u64::from_le_bytes)).collect::<Option<_>>()?;
        let increasing = ends.windows(2).all(|w| w[0] < w[1]);
        (ends.len() == n && increasing && (b.len() - pos).is_multiple_of(8))
            .then(|| Fences::with_ends(keys, ends, separators))
    }
}

/// The shortest key `s` with `start ≤ s < limit` that RocksDB's bytewise comparator puts in an
/// index (`FindShortestSeparator`), given `start < limit`: `start` up to the first byte where
/// they differ, that byte raised by one — or, where that would reach `limit`, the first byte
/// after it below 0xff raised by one. `start` whole when one key is a prefix of the other.
pub(super) fn shortest_separator(start: &[u8], limit: &[u8]) -> Vec<u8> {
    let common = start.iter().zip(limit).take_while(|(a, b)| a == b).count();
    if common >= start.len().min(limit.len()) || start[common] >= limit[common] {
        return start.to_vec();
    }
    if common < limit.len() - 1 || start[common] + 1 < limit[common] {
        let mut s = start[..=common].to_vec();
        s[common] += 1;
        return s;
    }
    // Raising the differing byte would reach `limit`: raise a later byte of `start` instead.
    match start.iter().enumerate().skip(common + 1).find(|(_, b)| **b < 0xff) {
        Some((i, _)) => {
            let mut s = start[..=i].to_vec();
            s[i] += 1;
            s
        }
        None => start.to_vec(),
    }
}

/// The shortest key at least `key` (RocksDB's `FindShortSuccessor`): `key` up to its first byte
/// below 0xff, raised by one; `key` itself if every byte is 0xff. The last block's bound.
pub(super) fn short_successor(key: &[u8]) -> Vec<u8> {
    match key.iter().position(|&b| b < 0xff) {
        Some(i) => {
            let mut s = key[..=i].to_vec();
            s[i] += 1;
            s
        }
        None => key.to_vec(),
    }
}

pub(super) struct Footer {
    pub(super) page_bytes: u32,
    /// Data cut into RocksDB-style blocks (their ends are in the index block), not fixed pages.
    pub(super) rocksdb_blocks: bool,
    /// The index holds RocksDB's separators, not first keys (tables written since the index
    /// was sized as RocksDB's; older RocksDB-style tables keep first keys).
    pub(super) separator_index: bool,
    pub(super) data_pages: u64,
    pub(super) entries: u64,
    pub(super) entry_bytes: u64,
    pub(super) filter_offset: u64,
    pub(super) filter_len: u64,
    pub(super) filter_dir_len: u32,
    pub(super) filter_dir_sum: u32,
    pub(super) index_offset: u64,
    pub(super) index_len: u64,
    pub(super) index_sum: u32,
    pub(super) range_sum: u32,
    pub(super) range_offset: u64,
    pub(super) range_len: u32,
    /// RocksDB's `kTwoLevelIndexSearch`: the index block is a top level over index partitions,
    /// which lie between the filter block and it.
    pub(super) two_level_index: bool,
    /// RocksDB's `partition_filters`: the filter block is a top level over filter partitions,
    /// which lie between the data blocks and it (its "directory" is the whole block).
    pub(super) partitioned_filter: bool,
}

/// Footer flags (the u32 at byte 104; 0 in files written before partitions).
const TWO_LEVEL_INDEX: u32 = 1;
const PARTITIONED_FILTER: u32 = 2;

impl Footer {
    pub(super) fn encode(&self, out: &mut Vec<u8>) {
        let start = out.len();
        out.extend_from_slice(&MAGIC.to_le_bytes());
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&self.page_bytes.to_le_bytes());
        for v in [self.data_pages, self.entries, self.entry_bytes, self.filter_offset, self.filter_len] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.filter_dir_len.to_le_bytes());
        out.extend_from_slice(&self.filter_dir_sum.to_le_bytes());
        out.extend_from_slice(&self.index_offset.to_le_bytes());
        out.extend_from_slice(&self.index_len.to_le_bytes());
        out.extend_from_slice(&self.index_sum.to_le_bytes());
        out.extend_from_slice(&self.range_sum.to_le_bytes());
        out.extend_from_slice(&self.range_offset.to_le_bytes());
        out.extend_from_slice(&self.range_len.to_le_bytes());
        // 0: fixed pages; 1: RocksDB-style blocks, first-key index; 2: the same with separators.
        let layout = if self.separator_index { 2u32 } else { u32::from(self.rocksdb_blocks) };
        out.extend_from_slice(&layout.to_le_bytes());
        let flags = if self.two_level_index { TWO_LEVEL_INDEX } else { 0 }
            | if self.partitioned_filter { PARTITIONED_FILTER } else { 0 };
        out.extend_from_slice(&flags.to_le_bytes());
        let sum = checksum(&out[start..]);
        out.extend_from_slice(&sum.to_le_bytes());
        debug_assert_eq!(out.len() - start, FOOTER_BYTES);
    }

    pub(super) fn decode(file: &str, at: u64, b: &[u8]) -> Result<Footer> {
        let bad = |m: &str| Error::corruption(file, at, m.to_string());
        if b.len() != FOOTER_BYTES {
            return Err(bad("footer has the wrong length"));
        }
        let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let u64_at = |i: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&b[i..i + 8]);
            u64::from_le_bytes(w)
        };
        if checksum(&b[..108]) != u32_at(108) {
            return Err(bad("footer checksum mismatch"));
        }
        if u64_at(0) != MAGIC {
            return Err(bad("not a table file (bad magic)"));
        }
        if u32_at(8) != FORMAT_VERSION {
            return Err(bad("unsupported table format version"));
        }
        Ok(Footer {
            page_bytes: u32_at(12),
            rocksdb_blocks: matches!(u32_at(100), 1 | 2),
            separator_index: u32_at(100) == 2,
            data_pages: u64_at(16),
            entries: u64_at(24),
            entry_bytes: u64_at(32),
            filter_offset: u64_at(40),
            filter_len: u64_at(48),
            filter_dir_len: u32_at(56),
            filter_dir_sum: u32_at(60),
            index_offset: u64_at(64),
            index_len: u64_at(72),
            index_sum: u32_at(80),
            range_sum: u32_at(84),
            range_offset: u64_at(88),
            range_len: u32_at(96),
            two_level_index: u32_at(104) & TWO_LEVEL_INDEX != 0,
            partitioned_filter: u32_at(104) & PARTITIONED_FILTER != 0,
        })
    }
}

/// The smallest and largest key of a table.
pub(super) type KeyRange = (Box<[u8]>, Box<[u8]>);

pub(super) fn decode_range(b: &[u8]) -> Option<KeyRange> {
    let l1 = u16::from_le_bytes(b.get(0..2)?.try_into().ok()?) as usize;
    let min = b.get(2..2 + l1)?;
    let l2 = u16::from_le_bytes(b.get(2 + l1..4 + l1)?.try_into().ok()?) as usize;
    let max = b.get(4 + l1..4 + l1 + l2)?;
    (4 + l1 + l2 == b.len() && min <= max).then(|| (Box::from(min), Box::from(max)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fence_search_agrees_with_plain_comparison() {
        let keys: Vec<Box<[u8]>> =
            [&b"a"[..], b"ab", b"ab\0", b"abcdefgh", b"abcdefghi", b"abcdefgz", b"b", b"zzzzzzzzzz"]
                .iter()
                .map(|k| Box::from(*k))
                .collect();
        let f = Fences::new(keys.clone());
        for probe in [
            &b""[..],
            b"a",
            b"aa",
            b"ab",
            b"ab\0",
            b"ab\0\0",
            b"abcdefgh",
            b"abcdefgha",
            b"abcdefgy",
            b"c",
            b"zzzzzzzzzzz",
        ] {
            let want = keys.partition_point(|k| &k[..] <= probe).saturating_sub(1);
            assert_eq!(f.page_for(probe), want, "{probe:?}");
        }
    }

    #[test]
    fn separators_are_rocksdbs_shortest_keys_between_blocks() {
        // The first differing byte raised by one.
        assert_eq!(shortest_separator(b"abcdx", b"abfzz"), b"abd");
        // Raising it would reach `limit` (its last byte): raise the next byte below 0xff instead.
        assert_eq!(shortest_separator(b"ab1xyz", b"ab2"), b"ab1y");
        assert_eq!(shortest_separator(&[1, 0xff, 0xff, 7], &[2]), vec![1, 0xff, 0xff, 8]);
        // One a prefix of the other, or nothing to gain: `start` itself.
        assert_eq!(shortest_separator(b"ab", b"abc"), b"ab");
        assert_eq!(shortest_separator(&[1, 0xff], &[2]), vec![1, 0xff]);
        // The successor of the last key.
        assert_eq!(short_successor(&[0, 0, 5, 9]), vec![1]);
        assert_eq!(short_successor(&[0xff, 0xfe, 3]), vec![0xff, 0xff]);
        assert_eq!(short_successor(&[0xff, 0xff]), vec![0xff, 0xff]);
    }

    #[test]
    fn a_separator_index_finds_the_block_whose_bound_is_the_first_at_or_above_the_key() {
        // Blocks [a..c], [e..g], [k..m]: bounds d ("c" < d ≤ "e"), h, n.
        let keys = [&b"d"[..], b"h", b"n"].iter().map(|k| Box::from(*k)).collect();
        let f = Fences::with_ends(keys, vec![10, 20, 30], true);
        let cases: [(&[u8], usize); 7] = [(b"a", 0), (b"c", 0), (b"d", 0), (b"da", 1), (b"g", 1), (b"k", 2), (b"m", 2)];
        for (key, page) in cases {
            assert_eq!(f.page_for(key), page, "{:?}", std::str::from_utf8(key));
        }
        // Past the last bound (the key range check rules this out first): the last block.
        assert_eq!(f.page_for(b"z"), 2);
        let mut encoded = Vec::new();
        f.encode(&mut encoded);
        let back = Fences::decode(&encoded, true, true).unwrap();
        assert_eq!((back.page_for(b"da"), back.page_for(b"c")), (1, 0));
    }
}

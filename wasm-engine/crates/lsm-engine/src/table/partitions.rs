//! A partitioned table's top levels (RocksDB's `kTwoLevelIndexSearch` and `partition_filters`):
//! for each index or filter partition, the key that bounds it from above (the separator of its
//! last data block, as RocksDB keys them) and where it lies. A lookup searches the top level,
//! then reads one partition through the block cache.

use std::rc::Rc;

use crate::filter::{Module, ModuleInfo};

use super::format::Fences;

/// Where one index partition lies, and the first data block it indexes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct IndexPartition {
    pub(super) offset: u64,
    pub(super) len: u32,
    pub(super) sum: u32,
    pub(super) first_block: u32,
}

/// The top-level index: one bound and handle per index partition.
#[derive(Debug, PartialEq)]
pub struct IndexTop {
    pub(super) bounds: Fences,
    pub(super) parts: Vec<IndexPartition>,
}

/// The top-level filter index: one bound per filter partition, and each partition's directory
/// entry (structure, bits, its offset from where the filter partitions start, length, checksum).
#[derive(Debug, PartialEq)]
pub struct FilterTop {
    pub(super) bounds: Fences,
    pub(super) parts: Vec<ModuleInfo>,
}

/// Every partition of a table, held in memory (RocksDB's `pin_l0_filter_and_index_blocks_in_cache`
/// pins a level-0 file's partitions too).
#[derive(Debug)]
pub(super) struct PinnedPartitions {
    pub(super) index: Vec<Rc<Fences>>,
    pub(super) filter: Vec<Rc<Module>>,
    /// Their bytes in the file: what they are charged.
    pub(super) bytes: u64,
}

/// A table's partitioned metadata: which parts are partitioned, where the filter's top level is,
/// and what is held in memory. Empty for a table with one index block and a whole filter.
#[derive(Clone, Debug, Default)]
pub(super) struct PartitionedMeta {
    /// The index block is a top level over index partitions.
    pub(super) two_level: bool,
    /// The filter block is a top level over filter partitions.
    pub(super) filter: bool,
    /// Where the filter partitions start (the end of the data blocks).
    pub(super) filter_parts_offset: u64,
    /// The top-level filter index: its length and checksum (it starts at `Table::filter_offset`).
    pub(super) filter_top_len: u64,
    pub(super) filter_top_sum: u32,
    /// Top levels held by the table (pinned), else read through the block cache.
    pub(super) index_top: Option<Rc<IndexTop>>,
    pub(super) filter_top: Option<Rc<FilterTop>>,
    pub(super) partitions: Option<Rc<PinnedPartitions>>,
}

const INDEX_HANDLE: usize = 20;

fn encode_keys_with(out: &mut Vec<u8>, keys: &[Box<[u8]>], mut handle: impl FnMut(usize, &mut Vec<u8>)) {
    out.extend_from_slice(&(keys.len() as u32).to_le_bytes());
    for (i, k) in keys.iter().enumerate() {
        out.extend_from_slice(&(k.len() as u16).to_le_bytes());
        out.extend_from_slice(k);
        handle(i, out);
    }
}

/// Keys and fixed-size handles: `[u32 n] n × {[u16 len][key][handle]}`.
fn decode_keys_with<H>(b: &[u8], handle_len: usize, decode: impl Fn(&[u8]) -> Option<H>) -> Option<(Fences, Vec<H>)> {
    let n = u32::from_le_bytes(b.get(0..4)?.try_into().ok()?) as usize;
    let mut pos = 4;
    let (mut keys, mut handles) = (Vec::with_capacity(n.min(1 << 16)), Vec::with_capacity(n.min(1 << 16)));
    for _ in 0..n {
        let len = u16::from_le_bytes(b.get(pos..pos + 2)?.try_into().ok()?) as usize;
        keys.push(Box::from(b.get(pos + 2..pos + 2 + len)?));
        pos += 2 + len;
        handles.push(decode(b.get(pos..pos + handle_len)?)?);
        pos += handle_len;
    }
    (pos == b.len() && n > 0).then(|| (Fences::bounds(keys), handles))
}

impl IndexTop {
    pub(super) fn new(keys: Vec<Box<[u8]>>, parts: Vec<IndexPartition>) -> Self {
        IndexTop { bounds: Fences::bounds(keys), parts }
    }

    /// The partition that indexes `key`: the first whose bound is at least `key` (the last one
    /// past every bound).
    pub(super) fn partition_for(&self, key: &[u8]) -> usize {
        self.bounds.page_for(key)
    }

    /// Data blocks partition `k` indexes, of `data_blocks` in the table.
    pub(super) fn blocks_in(&self, k: usize, data_blocks: u64) -> u64 {
        let end = self.parts.get(k + 1).map_or(data_blocks, |p| u64::from(p.first_block));
        end - u64::from(self.parts[k].first_block)
    }

    pub(super) fn encode(&self, out: &mut Vec<u8>) {
        encode_keys_with(out, self.bounds.keys(), |i, out| {
            let p = &self.parts[i];
            out.extend_from_slice(&p.offset.to_le_bytes());
            out.extend_from_slice(&p.len.to_le_bytes());
            out.extend_from_slice(&p.sum.to_le_bytes());
            out.extend_from_slice(&p.first_block.to_le_bytes());
        });
    }

    pub(super) fn decode(b: &[u8]) -> Option<IndexTop> {
        let (bounds, parts) = decode_keys_with(b, INDEX_HANDLE, |h| {
            let u32_at = |i: usize| h[i..i + 4].try_into().ok().map(u32::from_le_bytes);
            Some(IndexPartition {
                offset: u64::from_le_bytes(h[0..8].try_into().ok()?),
                len: u32_at(8)?,
                sum: u32_at(12)?,
                first_block: u32_at(16)?,
            })
        })?;
        let ordered = parts.first().is_some_and(|p| p.first_block == 0)
            && parts.windows(2).all(|w| w[0].first_block < w[1].first_block && w[0].offset < w[1].offset);
        ordered.then_some(IndexTop { bounds, parts })
    }
}

impl FilterTop {
    pub(super) fn new(keys: Vec<Box<[u8]>>, parts: Vec<ModuleInfo>) -> Self {
        FilterTop { bounds: Fences::bounds(keys), parts }
    }

    /// The partition whose keys may include `key`: the first whose bound is at least `key`.
    pub(super) fn partition_for(&self, key: &[u8]) -> usize {
        self.bounds.page_for(key)
    }

    /// One directory entry standing for the whole partitioned filter: its structure and
    /// probes, and the bits of every partition (what its FPR and memory are reckoned from).
    pub(super) fn aggregate(&self) -> ModuleInfo {
        let first = self.parts[0];
        ModuleInfo { bits: self.parts.iter().map(|p| p.bits).sum(), offset: 0, len: 0, checksum: 0, ..first }
    }

    /// Bytes of all partitions.
    pub(super) fn partition_bytes(&self) -> u64 {
        self.parts.iter().map(|p| u64::from(p.len)).sum()
    }

    pub(super) fn encode(&self, out: &mut Vec<u8>) {
        encode_keys_with(out, self.bounds.keys(), |i, out| self.parts[i].encode_entry(out));
    }

    pub(super) fn decode(b: &[u8]) -> Option<FilterTop> {
        let (bounds, parts) = decode_keys_with(b, ModuleInfo::ENTRY_BYTES, ModuleInfo::decode_entry)?;
        Some(FilterTop { bounds, parts })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsm_core::filter_kinds::Structure;

    fn keys(ks: &[&[u8]]) -> Vec<Box<[u8]>> {
        ks.iter().map(|k| Box::from(*k)).collect()
    }

    #[test]
    fn top_levels_round_trip_and_find_the_partition_bounding_a_key() {
        let part = |offset, first_block| IndexPartition { offset, len: 100, sum: 7, first_block };
        let top = IndexTop::new(keys(&[b"d", b"k", b"q"]), vec![part(1000, 0), part(1100, 4), part(1200, 9)]);
        let mut bytes = Vec::new();
        top.encode(&mut bytes);
        let back = IndexTop::decode(&bytes).unwrap();
        assert_eq!(back, top);
        let found: Vec<usize> =
            [&b"a"[..], b"d", b"da", b"k", b"p", b"z"].iter().map(|k| back.partition_for(k)).collect();
        assert_eq!(found, vec![0, 0, 1, 1, 2, 2]);
        assert_eq!((back.blocks_in(0, 12), back.blocks_in(2, 12)), (4, 3));
        // A truncated or disordered top level is rejected.
        assert_eq!(IndexTop::decode(&bytes[..bytes.len() - 1]), None);
        let bad = IndexTop::new(keys(&[b"d", b"k"]), vec![part(1000, 0), part(900, 4)]);
        let mut bytes = Vec::new();
        bad.encode(&mut bytes);
        assert_eq!(IndexTop::decode(&bytes), None);

        let info = |offset| ModuleInfo {
            structure: Structure::FastLocalBloom,
            hashes: 6,
            bits: 29_184,
            offset,
            len: 3653,
            checksum: 9,
        };
        let top = FilterTop::new(keys(&[b"e", b"m"]), vec![info(0), info(3653)]);
        let mut bytes = Vec::new();
        top.encode(&mut bytes);
        let back = FilterTop::decode(&bytes).unwrap();
        assert_eq!(back, top);
        assert_eq!((back.partition_for(b"e"), back.partition_for(b"f"), back.partition_bytes()), (0, 1, 7306));
    }
}

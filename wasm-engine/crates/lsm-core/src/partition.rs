//! RocksDB's partitioned metadata (`index_type=kTwoLevelIndexSearch`, `partition_filters=true`):
//! where a table's index and filter are cut into partitions of about `metadata_block_size`
//! bytes, each found through a small top-level index. Pure rules, shared by the engine's table
//! builder and the predictor.
//!
//! RocksDB 7.8 (`PartitionedIndexBuilder`, `PartitionedFilterBlockBuilder`):
//! - An index partition is closed when a data block is finished and either the partition has
//!   reached `metadata_block_size` (the same size-with-deviation rule as data blocks) or the
//!   filter builder asked for a cut; the finished block's entry then opens the next partition.
//! - The filter builder asks for a cut once its partition holds `keys_per_partition` keys (the
//!   keys a filter of ⌈0.9 × metadata_block_size⌉ bytes holds at the configured bits per key),
//!   and closes its partition at the key that follows the index cut: the filter partition takes
//!   the keys of the block whose finishing cut the index, so it ends one data block after the
//!   index partition, and is found by that block's separator.
//! - The top-level index holds, per partition, the separator of its last data block and the
//!   partition's place in the file.

use crate::filter_kinds::{ROCKSDB_FILTER_METADATA_BYTES, Structure, rocksdb_millibits, structure_bytes};
use crate::layout::ROCKSDB_BLOCK_SIZE_DEVIATION;

pub use crate::config::DEFAULT_METADATA_BLOCK_SIZE;

/// The bytes a filter partition is sized for: `metadata_block_size` less the block size
/// deviation, rounded up (a cut is granted only at the next data block, so RocksDB aims low).
pub fn filter_partition_bytes(metadata_block_size: u64) -> u64 {
    let deviation = ROCKSDB_BLOCK_SIZE_DEVIATION as u64;
    ((metadata_block_size * (100 - deviation)).div_ceil(100)).max(1)
}

/// Keys a filter partition takes before the filter builder asks for a cut (RocksDB's
/// `ApproximateNumEntries` of `filter_partition_bytes`): FastLocalBloom's exact inverse (whole
/// 64-byte lines after 5 metadata bytes, at RocksDB's millibits per key); for Ribbon and the
/// textbook Bloom the largest key count whose filter fits. At least 1.
pub fn keys_per_filter_partition(structure: Structure, bits_per_key: f64, metadata_block_size: u64) -> u64 {
    let bytes = filter_partition_bytes(metadata_block_size);
    let keys = match structure {
        Structure::FastLocalBloom => {
            let millibits = u64::from(rocksdb_millibits(bits_per_key));
            if millibits == 0 {
                return u64::MAX;
            }
            let usable = bytes.saturating_sub(ROCKSDB_FILTER_METADATA_BYTES) & !63;
            8000 * usable / millibits
        }
        Structure::Bloom | Structure::Ribbon => {
            let budget = match structure {
                Structure::Ribbon => bytes.saturating_sub(ROCKSDB_FILTER_METADATA_BYTES),
                _ => bytes,
            };
            if structure_bytes(structure, bits_per_key, 1 << 20) == 0 {
                return u64::MAX;
            }
            // The largest n with structure_bytes(n) ≤ budget (sizes grow with n).
            let (mut lo, mut hi) = (0u64, budget * 8 + 64);
            while lo < hi {
                let mid = (lo + hi).div_ceil(2);
                if structure_bytes(structure, bits_per_key, mid) <= budget { lo = mid } else { hi = mid - 1 }
            }
            lo
        }
    };
    keys.max(1)
}

/// Where the next partition cut falls, fed as a table builder goes: `filter_key` before each
/// key goes to the filter, `block_finished` when a data block is finished and another follows.
#[derive(Clone, Debug)]
pub struct MetadataPartitioner {
    /// `u64::MAX` when the filter is not partitioned (it never asks for a cut).
    keys_per_filter_partition: u64,
    metadata_block_size: u64,
    /// Bytes and entries of the index partition being filled.
    index_bytes: u64,
    index_entries: u64,
    /// Keys in the filter partition being filled.
    filter_keys: u64,
    /// The filter builder asked the index builder for a cut (granted at the next block end).
    cut_requested: bool,
    /// The index was cut: the filter partition closes before its next key.
    cut_filter: bool,
}

/// Bytes an empty index partition starts with (its entry count).
pub const INDEX_PARTITION_HEADER: u64 = 4;

impl MetadataPartitioner {
    /// A partitioner for `metadata_block_size`; `keys_per_filter_partition` from
    /// `keys_per_filter_partition` (`u64::MAX` when only the index is partitioned).
    pub fn new(metadata_block_size: u64, keys_per_filter_partition: u64) -> Self {
        MetadataPartitioner {
            keys_per_filter_partition,
            metadata_block_size,
            index_bytes: INDEX_PARTITION_HEADER,
            index_entries: 0,
            filter_keys: 0,
            cut_requested: false,
            cut_filter: false,
        }
    }

    /// A data block was finished and another follows; its index entry takes `entry_bytes`.
    /// True: the index partition being filled is closed before this entry, which opens the next.
    pub fn block_finished(&mut self, entry_bytes: u64) -> bool {
        let cut = self.index_entries > 0 && (self.cut_requested || self.index_is_full(entry_bytes));
        if cut {
            self.index_bytes = INDEX_PARTITION_HEADER;
            self.index_entries = 0;
            self.cut_requested = false;
            self.cut_filter = true;
        }
        self.index_bytes += entry_bytes;
        self.index_entries += 1;
        cut
    }

    /// A key is about to be added to the filter. True: the filter partition being filled is
    /// closed before it (the keys so far are one partition).
    pub fn filter_key(&mut self) -> bool {
        // RocksDB asks once, when the count is reached exactly, and keeps the request until a
        // block end grants it.
        if self.filter_keys == self.keys_per_filter_partition {
            self.cut_requested = true;
        }
        let cut = self.cut_filter;
        if cut {
            self.cut_filter = false;
            self.filter_keys = 0;
        }
        self.filter_keys += 1;
        cut
    }

    /// RocksDB's size rule for a metadata block (`FlushBlockBySizePolicy` at
    /// `metadata_block_size`): full once it reaches the size, or when the next entry would take it
    /// past the size and it is already past the deviation limit.
    fn index_is_full(&self, next: u64) -> bool {
        let size = self.metadata_block_size;
        let limit = (size * (100 - ROCKSDB_BLOCK_SIZE_DEVIATION as u64)).div_ceil(100);
        self.index_bytes >= size || (self.index_bytes + next > size && self.index_bytes > limit)
    }
}

/// Where a table's partitions start: the first data block of each index partition and the
/// first key (0-based, in key order) of each filter partition. Both start with 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cuts {
    /// First data block of each index partition.
    pub index: Vec<u64>,
    /// First key of each filter partition (just `[0]` when the filter is not partitioned).
    pub filter: Vec<u64>,
}

/// The cuts of a table whose data blocks hold `block_entries` keys each and whose index
/// entries take `index_entry_bytes` each (one per block), replaying RocksDB's builder
/// (`MetadataPartitioner`).
pub fn cut(
    block_entries: &[u64],
    index_entry_bytes: &[u64],
    metadata_block_size: u64,
    keys_per_filter_partition: u64,
) -> Cuts {
    let mut p = MetadataPartitioner::new(metadata_block_size, keys_per_filter_partition);
    let mut cuts = Cuts { index: vec![0], filter: vec![0] };
    let mut key = 0u64;
    for (b, &n) in block_entries.iter().enumerate() {
        // Block b − 1 was finished when block b's first key came.
        if b > 0 && p.block_finished(index_entry_bytes[b - 1]) {
            cuts.index.push(b as u64 - 1);
        }
        for _ in 0..n {
            if p.filter_key() && key > 0 && keys_per_filter_partition != u64::MAX {
                cuts.filter.push(key);
            }
            key += 1;
        }
    }
    cuts
}

/// Index partitions and filter partitions of a table of `data_blocks` blocks and `entries`
/// keys, each block's index entry taking `index_entry_bytes` and `entries_per_block` keys to a
/// block: the counts the predictor prices with (what `MetadataPartitioner` gives a table of
/// equal blocks). Filter partitions are 0 when `keys_per_filter_partition` is `u64::MAX`.
pub fn partition_counts(
    data_blocks: u64,
    entries_per_block: u64,
    index_entry_bytes: u64,
    metadata_block_size: u64,
    keys_per_filter_partition: u64,
) -> (u64, u64) {
    let mut p = MetadataPartitioner::new(metadata_block_size, keys_per_filter_partition);
    let (mut index, mut filter) = (1, 1);
    for b in 0..data_blocks {
        if b > 0 && p.block_finished(index_entry_bytes) {
            index += 1;
        }
        for _ in 0..entries_per_block.max(1) {
            if p.filter_key() {
                filter += 1;
            }
        }
    }
    let filter = if keys_per_filter_partition == u64::MAX { 0 } else { filter };
    (index, filter)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_4_kib_partition_holds_rocksdbs_key_count() {
        // ⌈4096 × 0.9⌉ = 3687 B; less 5 metadata bytes, whole 64 B lines: 3648 B = 29,184 bits.
        assert_eq!(filter_partition_bytes(4096), 3687);
        assert_eq!(keys_per_filter_partition(Structure::FastLocalBloom, 10.0, 4096), 2918);
        assert_eq!(keys_per_filter_partition(Structure::FastLocalBloom, 16.0, 4096), 1824);
        // Textbook Bloom: whole 64-bit words of ⌈n·b⌉ bits within 3687 B (3680 B = 29,440 bits).
        assert_eq!(keys_per_filter_partition(Structure::Bloom, 10.0, 4096), 2944);
        // Ribbon takes more keys in the same bytes than FastLocalBloom at the same FPR.
        let ribbon = keys_per_filter_partition(Structure::Ribbon, 10.0, 4096);
        assert!(ribbon > 2918 && ribbon < 4500, "{ribbon}");
        assert!(structure_bytes(Structure::Ribbon, 10.0, ribbon) <= 3682);
        assert!(structure_bytes(Structure::Ribbon, 10.0, ribbon + 1) > 3682);
        // No filter: never asks for a cut.
        assert_eq!(keys_per_filter_partition(Structure::FastLocalBloom, 0.0, 4096), u64::MAX);
    }

    #[test]
    fn the_index_is_cut_by_size_before_the_entry_that_would_overflow() {
        // 4 B header + 100 B entries in a 1,000 B partition (deviation limit 900 B): 9 entries
        // make 904 B, past the limit, and a tenth would make 1,004 B: cut before it.
        let mut p = MetadataPartitioner::new(1000, u64::MAX);
        let cuts: Vec<bool> = (0..20).map(|_| p.block_finished(100)).collect();
        let at: Vec<usize> = cuts.iter().enumerate().filter(|(_, c)| **c).map(|(i, _)| i).collect();
        assert_eq!(at, vec![9, 18]);
        // The filter partition follows the index cut at the next key, not before.
        let mut p = MetadataPartitioner::new(1000, u64::MAX);
        assert!(!p.filter_key());
        for _ in 0..9 {
            p.block_finished(100);
        }
        assert!(p.block_finished(100));
        assert!(p.filter_key());
        assert!(!p.filter_key());
    }

    #[test]
    fn a_full_filter_partition_cuts_both_at_the_next_block_end() {
        // 3 keys per filter partition, 2 keys per block, small index entries (never full by size).
        let mut p = MetadataPartitioner::new(1 << 20, 3);
        let mut events = Vec::new();
        for key in 0..12 {
            if key > 0 && key % 2 == 0 && p.block_finished(10) {
                events.push(format!("index cut at the end of block {}", key / 2 - 1));
            }
            if p.filter_key() {
                events.push(format!("filter cut before key {key}"));
            }
        }
        // Key 3 finds 3 keys in the partition and asks; block 1 ends at key 4: the index
        // partition closes with block 0 (block 1's entry opens the next), the filter partition
        // with keys 0..4 (blocks 0 and 1). Again at key 7, granted when block 3 ends.
        assert_eq!(
            events,
            [
                "index cut at the end of block 1",
                "filter cut before key 4",
                "index cut at the end of block 3",
                "filter cut before key 8",
            ]
        );
    }

    #[test]
    fn cuts_start_the_index_at_the_block_that_closed_it_and_the_filter_one_block_later() {
        // 6 blocks of 2 keys, 3 keys per filter partition (as in the test above): the index
        // partitions start at blocks 0, 1 and 3 (the finished block's entry opens the next), the
        // filter partitions at keys 0, 4 and 8 (blocks 0, 2 and 4).
        let c = cut(&[2; 6], &[10; 6], 1 << 20, 3);
        assert_eq!(c, Cuts { index: vec![0, 1, 3], filter: vec![0, 4, 8] });
        // Only the index partitioned, by size: 4 + 9 × 100 B, the tenth entry cut.
        let c = cut(&[5; 25], &[100; 25], 1000, u64::MAX);
        assert_eq!(c, Cuts { index: vec![0, 9, 18], filter: vec![0] });
    }

    #[test]
    fn counts_follow_the_cut_rule() {
        // 100 blocks of 30 keys, 2,918 keys per filter partition: the filter asks at key 2,918
        // (in block 97), granted when block 97 ends → 2 partitions of each.
        assert_eq!(partition_counts(100, 30, 20, 4096, 2918), (2, 2));
        // Index entries of 40 B: 4,096 B hold 102 entries; 1,000 blocks → 10 index partitions,
        // no filter partitions.
        let (index, filter) = partition_counts(1000, 30, 40, 4096, u64::MAX);
        assert_eq!(filter, 0);
        assert_eq!(index, 1000u64.div_ceil(102));
    }
}

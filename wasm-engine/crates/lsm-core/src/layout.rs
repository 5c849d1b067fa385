//! The byte layout of a data page that sizes depend on: the engine writes pages in it
//! (`lsm_engine::page`) and the tuner's predictor counts entries per page with it.

/// `[u32 checksum of the rest][u16 count]` at the start of every page.
pub const PAGE_HEADER: usize = 6;
/// `[u16 key length][u32 value length, or u32::MAX for a tombstone]` before every entry.
pub const ENTRY_HEADER: usize = 6;

/// RocksDB's `block_size_deviation` default, in percent: a block whose next entry would take it
/// past the block size is closed early once it is at least 100 − 10 = 90% full.
pub const ROCKSDB_BLOCK_SIZE_DEVIATION: usize = 10;

/// RocksDB's rule for closing a data block (`FlushBlockBySizePolicy`), with the engine's entry
/// encoding: a block of `used` bytes is closed before an entry of `next` bytes (header included)
/// once it has reached `block_bytes`, or when that entry would take it past `block_bytes` and it
/// is already within the deviation of full. An empty block is never closed, so a block may
/// exceed `block_bytes` by less than one entry.
pub fn rocksdb_block_is_full(used: usize, next: usize, block_bytes: usize) -> bool {
    if used <= PAGE_HEADER {
        return false;
    }
    used >= block_bytes
        || (used + next > block_bytes && used * 100 >= block_bytes * (100 - ROCKSDB_BLOCK_SIZE_DEVIATION))
}

/// Entries of `entry_bytes` (key + value) that one block of `block_bytes` holds under RocksDB's
/// rule: the engine's pages hold those that fit; RocksDB's blocks take entries until full.
pub fn entries_per_block(entry_bytes: usize, block_bytes: usize, rocksdb_blocks: bool) -> usize {
    let entry = entry_bytes + ENTRY_HEADER;
    if !rocksdb_blocks {
        return ((block_bytes - PAGE_HEADER) / entry).max(1);
    }
    let mut used = PAGE_HEADER;
    let mut n = 0;
    while !rocksdb_block_is_full(used, entry, block_bytes) {
        used += entry;
        n += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rocksdb_blocks_take_entries_until_full_where_pages_keep_what_fits() {
        // YCSB records, 1,023 B (+ 6 B header): a 4 KiB page holds 3; RocksDB's block takes a
        // 4th, since 3 entries (3,093 B) are not yet 90% of 4,096, and closes at 4,122 B.
        assert_eq!(entries_per_block(1023, 4096, false), 3);
        assert_eq!(entries_per_block(1023, 4096, true), 4);
        // Small entries: within 10% of full the block closes rather than overflow.
        assert_eq!(entries_per_block(100, 4096, false), 38);
        assert_eq!(entries_per_block(100, 4096, true), 38);
        // An entry larger than the block gets a block of its own.
        assert_eq!(entries_per_block(5000, 4096, true), 1);
    }
}

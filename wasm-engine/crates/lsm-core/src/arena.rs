//! RocksDB's memtable as its arena counts it, so a design imported from an OPTIONS file flushes
//! after as many writes as RocksDB does. RocksDB charges `write_buffer_size` with arena bytes, not
//! key + value bytes: each write (an overwrite too: the skiplist keeps every version) allocates
//! its internal key (the user key and an 8-byte sequence number and type), two varint lengths,
//! the value, and a skiplist node's next pointers (8 bytes per level, 4/3 levels on average with
//! RocksDB's branching factor 4), rounded up to 8-byte alignment. The memtable is flushed once its
//! arena, allocating blocks of `write_buffer_size / 8`, has taken its last block and that block is
//! three quarters used (RocksDB's `MemTable::ShouldFlushNow`): at `write_buffer_size` less a
//! quarter block.

/// Bytes of a varint encoding of `n` (7 bits per byte).
fn varint_bytes(n: u64) -> u64 {
    let bits = 64 - u64::from(n.leading_zeros()).min(63);
    bits.div_ceil(7).max(1)
}

/// Sequence number and value type, appended to every user key in the memtable.
const SEQUENCE_BYTES: u64 = 8;
/// A skiplist node's next pointers: 8 bytes per level, 4/3 levels on average (as a fraction of
/// 3 to stay in integers).
const NODE_POINTER_BYTES_X3: u64 = 8 * 4;

/// Arena bytes one write of `key_bytes` + `value_bytes` takes in RocksDB's skiplist memtable.
pub fn entry_arena_bytes(key_bytes: u64, value_bytes: u64) -> u64 {
    let internal_key = key_bytes + SEQUENCE_BYTES;
    let encoded = varint_bytes(internal_key) + internal_key + varint_bytes(value_bytes) + value_bytes;
    let node = NODE_POINTER_BYTES_X3.div_ceil(3);
    (encoded + node).div_ceil(8) * 8
}

/// RocksDB's default arena block: `write_buffer_size / 8`, at most 1 MiB, rounded up to 4 KiB
/// (`arena_block_size` sanitized).
pub fn arena_block_bytes(write_buffer_size: u64) -> u64 {
    (write_buffer_size / 8).min(1 << 20).div_ceil(4096) * 4096
}

/// Share of the arena that RocksDB's concurrent memtable leaves unused: `ConcurrentArena` hands
/// out per-core shards of each block, and their tails go unfilled. Measured with the referee on
/// RocksDB 7.8 (YCSB records: 959.6 entries per 1 MiB memtable, 63,201 per 64 MiB): 1.0% and
/// 0.9% fewer than the arena model without it; 1% is that measurement, not a derived figure.
const SHARD_SLACK_PERCENT: u64 = 1;

/// Arena bytes at which RocksDB flushes a memtable of `write_buffer_size` with arena blocks of
/// `block` bytes: the last block allocated and three quarters used, less the shards' slack.
pub fn flush_threshold(write_buffer_size: u64, block: u64) -> u64 {
    let allocated = write_buffer_size.saturating_sub(block / 4);
    allocated - allocated / 100 * SHARD_SLACK_PERCENT
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ycsb_record_takes_its_bytes_plus_the_skiplists() {
        // YCSB: a 23-byte key and a 1,000-byte value: 1 + 31 + 2 + 1000 + 11 = 1045 → 1048.
        assert_eq!(entry_arena_bytes(23, 1000), 1048);
        assert_eq!(varint_bytes(127), 1);
        assert_eq!(varint_bytes(128), 2);
        assert_eq!(varint_bytes(0), 1);
    }

    #[test]
    fn a_memtable_flushes_as_many_records_as_rocksdb_measured() {
        // RocksDB 7.8 measured by the referee, YCSB records: 19,192 entries in 20 flushes of a
        // 1 MiB memtable (959.6 each); 3 flushes of 63,201 from a 64 MiB one.
        let per_flush = |wbs: u64| flush_threshold(wbs, arena_block_bytes(wbs)) / entry_arena_bytes(23, 1000);
        assert_eq!(arena_block_bytes(1 << 20), 128 << 10);
        assert_eq!(arena_block_bytes(64 << 20), 1 << 20, "capped at 1 MiB");
        assert_eq!(per_flush(1 << 20), 959);
        assert_eq!(per_flush(64 << 20), 63_147);
        assert!((per_flush(64 << 20) as f64 / 63_201.0 - 1.0).abs() < 0.002);
    }
}

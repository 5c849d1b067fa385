//! The memory a RocksDB design spends, as RocksDB charges it, and a design fitted to a budget.
//!
//! RocksDB's memory for one column family: the memtables (`write_buffer_size` ×
//! `max_write_buffer_number`: one being written and the ones waiting to flush), the block cache's
//! capacity, and the table readers' index and filter blocks — held outside the cache unless
//! `cache_index_and_filter_blocks`, when they live in (and are charged to) the cache. The proof
//! measures the same sum (interop/rocksdb/proof.mjs `memoryOf`: memtables + cache +
//! `rocksdb.estimate-table-readers-mem`).

use lsm_core::config::{Allocation, EngineConfig};
use lsm_core::filter_kinds::{structure_bytes, structure_for};
use serde::{Deserialize, Serialize};

/// RocksDB's default `max_write_buffer_number`.
pub const DEFAULT_WRITE_BUFFERS: u32 = 2;
/// Bytes a table's index spends per data block: the separator key (RocksDB shortens it to the
/// prefix that separates two blocks) and the block handle. Measured with the referee on RocksDB
/// 7.8, YCSB records at 1,000,000 (no filters: 5,033,570 bytes of table readers for 250,000
/// blocks of 4 entries), `tests::the_defaults_charge_what_rocksdb_measured`.
pub const INDEX_BYTES_PER_BLOCK: f64 = 20.0;
/// The smallest block cache a candidate keeps (a cache of 0 turns RocksDB's cache off).
pub const MIN_CACHE_BYTES: f64 = 64.0 * 1024.0;

/// One design's memory, in bytes.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Memory {
    /// `write_buffer_size` × `max_write_buffer_number`.
    pub memtables: f64,
    /// The block cache's capacity.
    pub block_cache: f64,
    /// Filter blocks of every table (Bloom or Ribbon at the design's bits; none on the last level
    /// with `optimize_filters_for_hits`).
    pub filters: f64,
    /// Index blocks of every table.
    pub index: f64,
    /// Filters and index held outside the cache (0 with `cache_index_and_filter_blocks`).
    pub outside_cache: f64,
    /// memtables + block cache + what is held outside it.
    pub total: f64,
}

/// The data the memory is charged for.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Held {
    /// Live keys.
    pub(crate) keys: f64,
    /// Entries per data block.
    pub(crate) per_block: f64,
    /// Share of the keys in the last level (its filters are dropped by `optimize_filters_for_hits`).
    pub(crate) last_level_share: f64,
}

/// Whether `config` drops the last level's filter (`optimize_filters_for_hits`, as the importer
/// spells it: explicit bits, the deepest level's 0). A design whose bits the per-level policy
/// sets (`per_level`) spends `bits_per_key` × keys as split, whatever its last level gets.
pub(crate) fn drops_last_filter(config: &EngineConfig) -> bool {
    config.filter.allocation == Allocation::Explicit
        && !super::per_level::needs_plugin(config)
        && config.levels.last().is_some_and(|l| l.bits_per_key == Some(0.0))
        && config.levels.iter().rev().skip(1).any(|l| l.bits_per_key.unwrap_or(0.0) > 0.0)
}

/// RocksDB's charge for `config` holding `held`, with `write_buffers` memtables.
pub(crate) fn charge(config: &EngineConfig, held: &Held, write_buffers: u32) -> Memory {
    let memtables = config.buffer_bytes as f64 * f64::from(write_buffers);
    let block_cache = config.block_cache.bytes as f64;
    let filtered = if drops_last_filter(config) { held.keys * (1.0 - held.last_level_share) } else { held.keys };
    let filters = if config.filter.bits_per_key > 0.0 && filtered >= 1.0 {
        // Compaction outputs' structure (Ribbon's memory saving, where it applies).
        let structure = structure_for(&config.filter, false, 3);
        structure_bytes(structure, config.filter.bits_per_key, filtered as u64) as f64
    } else {
        0.0
    };
    let index = held.keys / held.per_block.max(1.0) * INDEX_BYTES_PER_BLOCK;
    let outside_cache = if config.block_cache.cache_index_and_filter_blocks { 0.0 } else { filters + index };
    Memory { memtables, block_cache, filters, index, outside_cache, total: memtables + block_cache + outside_cache }
}

/// `config` with its block cache set to what `budget` leaves after the memtables and what is held
/// outside the cache; None when that is under `MIN_CACHE_BYTES`.
pub(crate) fn fit_cache(
    mut config: EngineConfig,
    held: &Held,
    write_buffers: u32,
    budget: f64,
) -> Option<EngineConfig> {
    let mut m = charge(&config, held, write_buffers);
    m.block_cache = 0.0;
    let cache = (budget - m.memtables - m.outside_cache).floor();
    if cache < MIN_CACHE_BYTES {
        return None;
    }
    config.block_cache.bytes = cache as u64;
    Some(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RocksDB 7.8's defaults as an OPTIONS file states them (64 MiB memtables, 256 MiB level
    /// base, no filter, 8 MiB cache), with `bits` of Bloom filter when > 0.
    fn defaults(bits: f64, write_buffer_size: u64) -> EngineConfig {
        let filter = if bits > 0.0 { format!("bloomfilter:{bits}:false") } else { "nullptr".into() };
        let text = format!(
            "[Version]\n  rocksdb_version=7.8.3\n[DBOptions]\n  create_if_missing=true\n[CFOptions \"default\"]\n  \
             write_buffer_size={write_buffer_size}\n[TableOptions/BlockBasedTable \"default\"]\n  filter_policy={filter}\n  \
             block_cache={{capacity=8388608}}\n"
        );
        lsm_export::import(&text, lsm_export::ImportKind::Rocksdb).expect("imports").config
    }

    /// YCSB's 1,000,000 records (23-byte keys, 1,000-byte values): 4 entries per RocksDB block.
    fn ycsb_1m() -> Held {
        let per_block = lsm_core::layout::entries_per_block(1023, 4096, true) as f64;
        assert_eq!(per_block, 4.0);
        Held { keys: 1_000_000.0, per_block, last_level_share: 0.9 }
    }

    #[test]
    fn the_defaults_charge_what_rocksdb_measured() {
        // Measured with the referee on RocksDB 7.8 (public/measured/tune-proof-rocksdb-1m.json,
        // YCSB B, defaults): memtables 134,217,728 + cache 8,388,608 + table readers 5,033,570.
        let m = charge(&defaults(0.0, 64 << 20), &ycsb_1m(), DEFAULT_WRITE_BUFFERS);
        assert_eq!(m.memtables, 134_217_728.0);
        assert_eq!(m.block_cache, 8_388_608.0);
        assert_eq!(m.filters, 0.0);
        assert_eq!(m.index, 5_000_000.0);
        let measured = 134_217_728.0 + 8_388_608.0 + 5_033_570.0;
        assert!((m.total / measured - 1.0).abs() < 0.005, "{} vs {measured}", m.total);
        // 24 bits/key of Bloom with a 61.1 MiB memtable: measured table readers 8,110,346 (the
        // filters' 3,000,000 bytes, FastLocalBloom rounding to 64-byte lines, and the index).
        let mut c = defaults(24.0, 64_108_864);
        c.block_cache.bytes = 8_388_608;
        let m = charge(&c, &ycsb_1m(), DEFAULT_WRITE_BUFFERS);
        assert!((m.filters - 3_000_000.0).abs() < 3_000.0, "{}", m.filters);
        assert!((m.outside_cache / 8_110_346.0 - 1.0).abs() < 0.02, "{}", m.outside_cache);
        assert_eq!(m.memtables, 128_217_728.0);
        // Charged to the cache instead, the index and filters add nothing outside it.
        c.block_cache.cache_index_and_filter_blocks = true;
        let cached = charge(&c, &ycsb_1m(), DEFAULT_WRITE_BUFFERS);
        assert_eq!(cached.outside_cache, 0.0);
        assert_eq!(cached.total, cached.memtables + cached.block_cache);
    }

    #[test]
    fn the_cache_takes_what_the_budget_leaves() {
        let held = ycsb_1m();
        let c = defaults(10.0, 16 << 20);
        let budget = 150_000_000.0;
        let fitted = fit_cache(c.clone(), &held, 2, budget).expect("fits");
        let m = charge(&fitted, &held, 2);
        assert!((m.total - budget).abs() <= 1.0, "{} vs {budget}", m.total);
        assert_eq!(m.memtables, 2.0 * f64::from(16 << 20));
        // optimize_filters_for_hits: the last level's 90% of the keys go unfiltered.
        let mut explicit = c.clone();
        explicit.filter.allocation = Allocation::Explicit;
        explicit.levels = vec![explicit.levels[0].clone(), explicit.levels[1].clone(), explicit.levels[1].clone()];
        for (i, l) in explicit.levels.iter_mut().enumerate() {
            l.bits_per_key = Some(if i == 2 { 0.0 } else { 10.0 });
        }
        assert!(drops_last_filter(&explicit));
        let dropped = charge(&explicit, &held, 2);
        assert!((dropped.filters / charge(&c, &held, 2).filters - 0.1).abs() < 0.01, "{}", dropped.filters);
        // No room for a cache: not a candidate.
        assert!(fit_cache(c, &held, 2, 38_000_000.0).is_none());
    }
}

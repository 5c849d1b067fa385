//! The block-based table's cache: its capacity, what it holds and pins (index and filter
//! blocks, level 0's), and the partitioned metadata.

use lsm_core::config::{BlockCacheConfig, IndexType, METADATA_BLOCK_SIZE_RANGE};
use lsm_core::error::{Error, Result};

use super::defaults::ROCKSDB_HIGH_PRI_POOL_RATIO;
use super::reader::{Reader, parse_size};
use crate::ini::parse_struct;
use crate::{Warning, WarningKind};

/// The table's block cache (`block_cache`, `no_block_cache`, `cache_index_and_filter_blocks`, the
/// pinning options, the partitioned metadata); `default_bytes` when the file configures none.
pub(super) fn block_cache(
    table: &mut Reader,
    default_bytes: u64,
    warnings: &mut Vec<Warning>,
) -> Result<BlockCacheConfig> {
    let no_cache = table.boolean("no_block_cache")?.unwrap_or(false);
    let cache_index = table.boolean("cache_index_and_filter_blocks")?.unwrap_or(false);
    let pin_l0 = table.boolean("pin_l0_filter_and_index_blocks_in_cache")?.unwrap_or(false);
    if pin_l0 && !cache_index {
        warnings.push(Warning::new(
            "block_cache.pin_l0_filter_and_index_blocks_in_cache",
            WarningKind::Dropped,
            "true has no effect without cache_index_and_filter_blocks: every file's index and filter are pinned",
        ));
    }
    // RocksDB's LRUCache: a high-priority pool of half the capacity by default, which a block
    // enters once it has been hit.
    let mut config = BlockCacheConfig {
        bytes: 0,
        cache_index_and_filter_blocks: cache_index,
        pin_l0_filter_and_index_blocks_in_cache: pin_l0 && cache_index,
        high_priority_ratio: ROCKSDB_HIGH_PRI_POOL_RATIO,
        midpoint_insertion: true,
        ..BlockCacheConfig::default()
    };
    partitioned_metadata(table, &mut config, warnings)?;
    if no_cache {
        let (index_type, partition_filters, metadata_block_size, pin_top_level_index_and_filter) = (
            config.index_type,
            config.partition_filters,
            config.metadata_block_size,
            config.pin_top_level_index_and_filter,
        );
        return Ok(BlockCacheConfig {
            index_type,
            partition_filters,
            metadata_block_size,
            pin_top_level_index_and_filter,
            ..BlockCacheConfig::default()
        });
    }
    match table.raw("block_cache") {
        Some(v) if v.contains('=') => {
            for (name, value) in parse_struct(v)? {
                match name.as_str() {
                    "capacity" => config.bytes = parse_size("block_cache.capacity", &value)?,
                    "high_pri_pool_ratio" => {
                        config.high_priority_ratio = value.parse::<f64>().map_err(|_| {
                            Error::invalid(
                                "block_cache.high_pri_pool_ratio",
                                format!("must be a number, got \"{value}\""),
                            )
                        })?
                    }
                    other => warnings.push(Warning::new(
                        "block_cache",
                        WarningKind::Dropped,
                        format!("block_cache option {other}={value} has no engine equivalent"),
                    )),
                }
            }
        }
        Some(v) => config.bytes = parse_size("block_cache", v)?,
        None => {
            config.bytes = default_bytes;
            warnings.push(Warning::new(
                "block_cache.bytes",
                WarningKind::Approximated,
                format!(
                    "no block_cache set: RocksDB creates its default internal cache, {default_bytes} bytes for this \
                     file's rocksdb_version (8 MiB before 8.0, 32 MiB since; 32 MiB when the file names no version)"
                ),
            ));
        }
    }
    config.bytes = config.bytes.min(1 << 40);
    config.high_priority_ratio = config.high_priority_ratio.clamp(0.0, 1.0);
    config.midpoint_insertion = config.high_priority_ratio > 0.0;
    Ok(config)
}

/// RocksDB's partitioned metadata: `index_type` (binary search or two-level; the others are
/// read as binary search), `partition_filters` (RocksDB ignores it without a two-level index),
/// `metadata_block_size` and `pin_top_level_index_and_filter`; `metadata_cache_options` other
/// than its fallbacks is named as not modelled.
pub(super) fn partitioned_metadata(
    table: &mut Reader,
    config: &mut BlockCacheConfig,
    warnings: &mut Vec<Warning>,
) -> Result<()> {
    match table.raw("index_type") {
        None | Some("kBinarySearch") => {}
        Some("kTwoLevelIndexSearch") => config.index_type = IndexType::TwoLevelIndexSearch,
        Some(other) => warnings.push(Warning::new(
            "block_cache.index_type",
            WarningKind::Approximated,
            format!(
                "index_type {other}: imported as kBinarySearch (the engine builds binary-search and two-level indexes)"
            ),
        )),
    }
    if table.boolean("partition_filters")?.unwrap_or(false) {
        if config.index_type == IndexType::TwoLevelIndexSearch {
            config.partition_filters = true;
        } else {
            warnings.push(Warning::new(
                "block_cache.partition_filters",
                WarningKind::Dropped,
                "true without index_type=kTwoLevelIndexSearch: RocksDB ignores it too (filter partitions follow the index's)",
            ));
        }
    }
    if let Some(size) = table.size("metadata_block_size")? {
        let (lo, hi) = METADATA_BLOCK_SIZE_RANGE;
        config.metadata_block_size = size.clamp(lo, hi);
        if config.metadata_block_size != size {
            warnings.push(Warning::new(
                "block_cache.metadata_block_size",
                WarningKind::Rounded,
                format!(
                    "metadata_block_size {size} becomes {}: the engine's range is [{lo}, {hi}]",
                    config.metadata_block_size
                ),
            ));
        }
    }
    if let Some(pin) = table.boolean("pin_top_level_index_and_filter")? {
        config.pin_top_level_index_and_filter = pin;
    }
    if let Some(m) = table.raw("metadata_cache_options") {
        let fallback_only = parse_struct(m)?.iter().all(|(_, v)| v == "kFallback");
        if !fallback_only {
            warnings.push(Warning::new(
                "block_cache",
                WarningKind::Dropped,
                format!(
                    "metadata_cache_options {m}: not modelled; pinning follows pin_top_level_index_and_filter and \
                     pin_l0_filter_and_index_blocks_in_cache (the kFallback rules)"
                ),
            ));
        }
    }
    Ok(())
}

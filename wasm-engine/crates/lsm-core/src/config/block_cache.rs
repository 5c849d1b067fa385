//! The block cache's validation: its capacity and pools, what it pins, and RocksDB's partitioned
//! metadata (which reads the block layout and the filter too).

use super::{BlockLayout, EngineConfig, METADATA_BLOCK_SIZE_RANGE, MonkeyPolicy, check_integer, check_range};
use crate::error::{Error, Result};

impl EngineConfig {
    /// Level 0's pins are a rule of the cache: without it every file's index and filter are
    /// pinned already.
    pub(super) fn validate_l0_pins(&self) -> Result<()> {
        if self.block_cache.pin_l0_filter_and_index_blocks_in_cache && !self.block_cache.cache_index_and_filter_blocks {
            return Err(Error::invalid(
                "block_cache.pin_l0_filter_and_index_blocks_in_cache",
                "needs block_cache.cache_index_and_filter_blocks true (otherwise every file's index and filter are pinned)",
            ));
        }
        Ok(())
    }

    /// `block_cache`: capacity, the high-priority pool midpoint insertion needs, and the
    /// partitioned metadata.
    pub(super) fn validate_block_cache(&self) -> Result<()> {
        if self.block_cache.bytes > 1 << 40 {
            return Err(Error::invalid(
                "block_cache.bytes",
                format!("must be in [0, {}], got {}", 1u64 << 40, self.block_cache.bytes),
            ));
        }
        check_range("block_cache.high_priority_ratio", self.block_cache.high_priority_ratio, 0.0, 1.0)?;
        if self.block_cache.midpoint_insertion && self.block_cache.high_priority_ratio <= 0.0 {
            return Err(Error::invalid(
                "block_cache.midpoint_insertion",
                "needs a high-priority pool: block_cache.high_priority_ratio in (0, 1] (RocksDB's default is 0.5)",
            ));
        }
        self.validate_partitions()
    }

    /// Partitioned metadata: `metadata_block_size` in range; a two-level index over RocksDB's
    /// blocks; partitioned filters over a two-level index, one module, filters sized once.
    fn validate_partitions(&self) -> Result<()> {
        let c = &self.block_cache;
        check_integer("block_cache.metadata_block_size", c.metadata_block_size, METADATA_BLOCK_SIZE_RANGE, " (bytes)")?;
        if c.two_level_index() && self.block_layout != BlockLayout::Rocksdb {
            return Err(Error::invalid(
                "block_cache.index_type",
                "\"two_level_index_search\" needs block_layout \"rocksdb\" (its partitions index RocksDB's data blocks)",
            ));
        }
        if c.partition_filters {
            if !c.two_level_index() {
                return Err(Error::invalid(
                    "block_cache.partition_filters",
                    "needs block_cache.index_type \"two_level_index_search\" (filter partitions follow the index's)",
                ));
            }
            if self.filter.modules != 1 {
                return Err(Error::invalid(
                    "block_cache.partition_filters",
                    "needs filter.modules 1 (one filter, cut by key)",
                ));
            }
            if self.filter.monkey_policy == MonkeyPolicy::Reoptimised {
                return Err(Error::invalid(
                    "block_cache.partition_filters",
                    "cannot be used with filter.monkey_policy \"reoptimised\" (rebuilt filters live in memory, not in partitions)",
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{FilterKind, IndexType, sample};

    #[test]
    fn partitioned_metadata_takes_rocksdbs_names_defaults_and_ranges() {
        let mut v: serde_json::Value = serde_json::from_str(&sample().to_json()).unwrap();
        v["block_layout"] = "rocksdb".into();
        v["block_cache"] = serde_json::json!({
            "bytes": 1 << 20, "cache_index_and_filter_blocks": true,
            "index_type": "two_level_index_search", "partition_filters": true
        });
        let c = EngineConfig::from_json(&v.to_string()).unwrap();
        assert!(c.block_cache.two_level_index() && c.block_cache.partition_filters);
        // RocksDB's defaults: 4096-byte partitions, the top level pinned; not written when default.
        assert_eq!((c.block_cache.metadata_block_size, c.block_cache.pin_top_level_index_and_filter), (4096, true));
        let json = c.to_json();
        assert!(json.contains("\"two_level_index_search\"") && !json.contains("metadata_block_size"), "{json}");
        assert!(!sample().to_json().contains("index_type"));
        assert_eq!(EngineConfig::from_json(&json), Ok(c.clone()));

        let mut bad = c.clone();
        bad.block_cache.metadata_block_size = 32;
        assert_eq!(
            bad.validate().unwrap_err().to_string(),
            "block_cache.metadata_block_size: must be an integer in [64, 16777216] (bytes), got 32"
        );
        let mut bad = c.clone();
        bad.block_cache.index_type = IndexType::BinarySearch;
        assert!(
            bad.validate()
                .unwrap_err()
                .to_string()
                .starts_with("block_cache.partition_filters: needs block_cache.index_type")
        );
        let mut bad = c.clone();
        bad.block_layout = BlockLayout::FixedPages;
        assert!(
            bad.validate()
                .unwrap_err()
                .to_string()
                .starts_with("block_cache.index_type: \"two_level_index_search\" needs")
        );
        let mut bad = c;
        bad.filter.kind = FilterKind::Modular;
        bad.filter.modules = 2;
        assert!(
            bad.validate()
                .unwrap_err()
                .to_string()
                .starts_with("block_cache.partition_filters: needs filter.modules 1")
        );
    }
}

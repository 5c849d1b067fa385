//! The filter's validation: bits per key, modules and module skipping, RocksDB's filter kinds,
//! and Monkey's re-optimising policy.

use super::{
    Allocation, BITS_PER_KEY_RANGE, BLOOM_BEFORE_LEVEL_RANGE, EngineConfig, FilterKind, FilterSkip, MODULES_RANGE,
    MonkeyPolicy, REBUILD_PAYBACK_RANGE, check_integer, check_range,
};
use crate::error::{Error, Result};

impl EngineConfig {
    /// `filter`'s own fields: the budget, modules (and skipping, which needs several), RocksDB's
    /// kinds, and the rebuild payback.
    pub(super) fn validate_filter(&self) -> Result<()> {
        let (blo, bhi) = BITS_PER_KEY_RANGE;
        check_range("filter.bits_per_key", self.filter.bits_per_key, blo, bhi)?;
        check_integer("filter.modules", self.filter.modules, MODULES_RANGE, "")?;
        if self.filter.kind != FilterKind::Modular && self.filter.modules != 1 {
            return Err(Error::invalid("filter.modules", "must be 1 unless filter.kind is \"modular\""));
        }
        self.validate_filter_kind()?;
        if self.filter.skip != FilterSkip::None && self.filter.kind != FilterKind::Modular {
            return Err(Error::invalid("filter.skip", "module skipping needs filter.kind \"modular\""));
        }
        let (plo, phi) = REBUILD_PAYBACK_RANGE;
        check_range("filter.rebuild_payback", self.filter.rebuild_payback, plo, phi)?;
        Ok(())
    }

    /// Re-optimised Monkey rebuilds Monkey's filters and keeps them in memory: it needs Monkey's
    /// allocation and filters outside the block cache.
    pub(super) fn validate_monkey_policy(&self) -> Result<()> {
        if self.filter.monkey_policy == MonkeyPolicy::Reoptimised {
            if self.filter.allocation != Allocation::Monkey {
                return Err(Error::invalid(
                    "filter.monkey_policy",
                    "\"reoptimised\" needs filter.allocation \"monkey\"",
                ));
            }
            if self.block_cache.cache_index_and_filter_blocks {
                return Err(Error::invalid(
                    "filter.monkey_policy",
                    "\"reoptimised\" keeps rebuilt filters in memory, so it needs \
                     block_cache.cache_index_and_filter_blocks false",
                ));
            }
        }
        Ok(())
    }

    /// RocksDB's filter kinds: `bloom_before_level` in range and read only by `ribbon`; Ribbon's
    /// bits per key are Bloom-equivalent, not memory, so it takes no memory-budget allocation.
    fn validate_filter_kind(&self) -> Result<()> {
        let f = &self.filter;
        check_integer(
            "filter.bloom_before_level",
            f.bloom_before_level,
            BLOOM_BEFORE_LEVEL_RANGE,
            " (RocksDB's bloom_before_level)",
        )?;
        if f.kind != FilterKind::Ribbon && f.bloom_before_level != 0 {
            return Err(Error::invalid(
                "filter.bloom_before_level",
                "is read only with filter.kind \"ribbon\"; leave it at 0 or set the kind",
            ));
        }
        if f.kind == FilterKind::Ribbon && matches!(f.allocation, Allocation::Monkey | Allocation::Mnemosyne) {
            return Err(Error::invalid(
                "filter.allocation",
                "must be \"uniform\" or \"explicit\" with filter.kind \"ribbon\": Ribbon's bits per key are \
                 RocksDB's Bloom-equivalent bits (the FPR of a Bloom filter of that size), not a share of a memory budget",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::sample;

    #[test]
    fn rocksdb_filter_kinds_parse_and_validate() {
        let mut v: serde_json::Value = serde_json::from_str(&sample().to_json()).unwrap();
        v["filter"]["kind"] = "fast_local_bloom".into();
        assert_eq!(EngineConfig::from_json(&v.to_string()).unwrap().filter.kind, FilterKind::FastLocalBloom);
        v["filter"]["kind"] = "ribbon".into();
        let e = EngineConfig::from_json(&v.to_string()).unwrap_err().to_string();
        assert!(e.starts_with("filter.allocation: must be \"uniform\" or \"explicit\""), "{e}");
        v["filter"]["allocation"] = "uniform".into();
        v["filter"]["bloom_before_level"] = (-1).into();
        let c = EngineConfig::from_json(&v.to_string()).unwrap();
        assert_eq!((c.filter.kind, c.filter.bloom_before_level), (FilterKind::Ribbon, -1));
        assert_eq!(EngineConfig::from_json(&c.to_json()), Ok(c.clone()));
        let mut bad = c.clone();
        bad.filter.bloom_before_level = -2;
        assert_eq!(
            bad.validate().unwrap_err().to_string(),
            "filter.bloom_before_level: must be an integer in [-1, 64] (RocksDB's bloom_before_level), got -2"
        );
        let mut bad = c;
        bad.filter.kind = FilterKind::FastLocalBloom;
        assert!(bad.validate().unwrap_err().to_string().starts_with("filter.bloom_before_level: is read only"));
        // Existing designs are unchanged: the default kind is the textbook Bloom filter, not written.
        assert!(!sample().to_json().contains("bloom_before_level"));
        assert_eq!(sample().filter.kind, FilterKind::Bloom);
    }
}

//! `filter_policy` under `format_version`: bits per key, the filter kind (legacy or
//! FastLocalBloom, Ribbon) and Ribbon's `bloom_before_level`.

use lsm_core::config::{Allocation, BLOOM_BEFORE_LEVEL_RANGE, FilterConfig, FilterKind};

use crate::{Warning, WarningKind};

/// What `filter_policy` builds: bits per key, the filter kind and Ribbon's `bloom_before_level`.
pub(super) struct FilterPolicy {
    pub(super) bits: f64,
    pub(super) kind: FilterKind,
    pub(super) bloom_before_level: i32,
}

/// `filter_policy` (RocksDB 7.x spellings and the older names) under `format_version`:
/// `bloomfilter:N:false` builds FastLocalBloom from format_version 5 on and the legacy Bloom
/// filter below it; `ribbonfilter:N:L` a Standard128Ribbon with Bloom-equivalent N bits per key
/// and FastLocalBloom before level L (7.8 writes L; 0 when absent).
pub(super) fn filter_policy(policy: Option<&str>, format_version: u64, warnings: &mut Vec<Warning>) -> FilterPolicy {
    let none = FilterPolicy { bits: 0.0, kind: FilterKind::Bloom, bloom_before_level: 0 };
    let Some(policy) = policy.map(str::trim).filter(|p| !p.is_empty() && *p != "nullptr") else {
        return none;
    };
    let parts: Vec<&str> = policy.split(':').collect();
    let bits = parts.get(1).and_then(|b| b.trim().parse::<f64>().ok());
    let bloom = |bits: f64, warnings: &mut Vec<Warning>| {
        if format_version >= 5 {
            return FilterPolicy { bits, kind: FilterKind::FastLocalBloom, bloom_before_level: 0 };
        }
        warnings.push(Warning::new(
            "filter.kind",
            WarningKind::Approximated,
            format!(
                "{policy} with format_version={format_version}: RocksDB's legacy Bloom filter (cache-local, about \
                 1.14% false positives at 10 bits/key), imported as the textbook Bloom filter"
            ),
        ));
        FilterPolicy { bits, kind: FilterKind::Bloom, bloom_before_level: 0 }
    };
    match (parts[0], bits) {
        ("bloomfilter" | "rocksdb.BloomFilter", Some(b)) => bloom(b.clamp(0.0, 64.0), warnings),
        ("ribbonfilter" | "rocksdb.RibbonFilter", Some(b)) => {
            let (lo, hi) = BLOOM_BEFORE_LEVEL_RANGE;
            let level = parts.get(2).and_then(|l| l.trim().parse::<i64>().ok()).unwrap_or(0);
            if level < i64::from(lo) || level > i64::from(hi) {
                warnings.push(Warning::new(
                    "filter.bloom_before_level",
                    WarningKind::Approximated,
                    format!("{policy}: bloom_before_level {level} clamped to [{lo}, {hi}]"),
                ));
            }
            FilterPolicy {
                bits: b.clamp(0.0, 64.0),
                kind: FilterKind::Ribbon,
                bloom_before_level: level.clamp(i64::from(lo), i64::from(hi)) as i32,
            }
        }
        _ => {
            warnings.push(Warning::new(
                "filter.bits_per_key",
                WarningKind::Approximated,
                format!("filter_policy \"{policy}\" does not record its bits per key here; 10 assumed"),
            ));
            bloom(10.0, warnings)
        }
    }
}

pub(super) fn default_filter() -> FilterConfig {
    FilterConfig::bloom(Allocation::Uniform, 0.0)
}

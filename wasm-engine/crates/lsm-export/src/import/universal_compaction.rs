//! Universal compaction: `compaction_options_universal` and the trigger as the engine's
//! universal picker, with RocksDB's defaults for what the file leaves out.

use lsm_core::config::LevelConfig;
use lsm_core::error::{Error, Result};
use lsm_core::universal::{self, StopStyle, UniversalConfig};

use super::defaults::{DEFAULT_L0_TRIGGER, DEFAULT_MULTIPLIER};
use super::levels::engine_num_levels;
use super::reader::{Reader, parse_bool, parse_size};
use crate::ini::parse_struct;
use crate::{Warning, WarningKind};

/// Universal compaction's `levels`: they give only bits per key (one entry, repeated), the
/// picker reads no size ratio or run count.
pub(super) const UNIVERSAL_LEVELS: LevelConfig =
    LevelConfig { size_ratio: DEFAULT_MULTIPLIER, max_runs: 1, bits_per_key: None };

/// `compaction_options_universal` and the trigger as `compaction.universal`, with RocksDB's
/// defaults for what the file leaves out, and `num_levels` in the engine's range. Values the
/// engine reads differently are rounded with a warning; options it does not model are named.
pub(super) fn universal_shape(
    cf: &mut Reader,
    num_levels: u64,
    warnings: &mut Vec<Warning>,
    unknown: &mut Vec<String>,
) -> Result<(UniversalConfig, u32)> {
    let options = match cf.raw("compaction_options_universal") {
        Some(v) => parse_struct(v)?,
        None => Vec::new(),
    };
    let mut u = UniversalConfig::default();
    let field = |name: &str| format!("compaction.universal.{name}");
    let as_u32 = |name: &str, v: &str| -> Result<u32> {
        let n = parse_size(&format!("compaction_options_universal.{name}"), v)?;
        Ok(u32::try_from(n).unwrap_or(u32::MAX))
    };
    for (name, value) in &options {
        let option = format!("compaction_options_universal.{name}");
        match name.as_str() {
            "size_ratio" => u.size_ratio = as_u32(name, value)?,
            "min_merge_width" => u.min_merge_width = as_u32(name, value)?,
            "max_merge_width" => u.max_merge_width = as_u32(name, value)?,
            "max_size_amplification_percent" => u.max_size_amplification_percent = as_u32(name, value)?,
            "stop_style" => {
                u.stop_style = match value.as_str() {
                    "kCompactionStopStyleTotalSize" => StopStyle::TotalSize,
                    "kCompactionStopStyleSimilarSize" => StopStyle::SimilarSize,
                    other => {
                        return Err(Error::invalid(
                            option,
                            format!(
                                "must be kCompactionStopStyleTotalSize or kCompactionStopStyleSimilarSize, got \"{other}\""
                            ),
                        ));
                    }
                }
            }
            "allow_trivial_move" => u.allow_trivial_move = parse_bool(&option, value)?,
            "compression_size_percent" => {
                if value.trim() != "-1" {
                    warnings.push(Warning::new(
                        "compaction.universal",
                        WarningKind::Dropped,
                        format!("{option}={value}: the engine stores pages uncompressed"),
                    ));
                }
            }
            "incremental" => {
                if parse_bool(&option, value)? {
                    warnings.push(Warning::new(
                        "compaction.universal",
                        WarningKind::Approximated,
                        format!("{option}=true (RocksDB's experimental incremental size-amplification merges) is not modelled: whole sorted runs merge"),
                    ));
                }
            }
            _ => unknown.push(format!("CFOptions.{option}")),
        }
    }
    let trigger = cf.size("level0_file_num_compaction_trigger")?.unwrap_or(DEFAULT_L0_TRIGGER);
    let (lo, hi) = universal::TRIGGER_RANGE;
    u.level0_file_num_compaction_trigger = trigger.clamp(u64::from(lo), u64::from(hi)) as u32;
    if u64::from(u.level0_file_num_compaction_trigger) != trigger {
        warnings.push(Warning::new(
            field("level0_file_num_compaction_trigger"),
            WarningKind::Rounded,
            format!(
                "level0_file_num_compaction_trigger {trigger} becomes {} (the engine takes [{lo}, {hi}])",
                u.level0_file_num_compaction_trigger
            ),
        ));
    }
    let (_, hi) = universal::SIZE_RATIO_PERCENT_RANGE;
    if u.size_ratio > hi {
        warnings.push(Warning::new(
            field("size_ratio"),
            WarningKind::Rounded,
            format!("size_ratio {} becomes {hi} (the engine's largest; either joins every run)", u.size_ratio),
        ));
        u.size_ratio = hi;
    }
    // RocksDB merges at least two runs whatever min_merge_width says.
    if u.min_merge_width < universal::MIN_MERGE_WIDTH {
        warnings.push(Warning::new(
            field("min_merge_width"),
            WarningKind::Rounded,
            format!("min_merge_width {} becomes 2, as RocksDB reads it", u.min_merge_width),
        ));
        u.min_merge_width = universal::MIN_MERGE_WIDTH;
    }
    if u.max_merge_width < u.min_merge_width {
        warnings.push(Warning::new(
            field("max_merge_width"),
            WarningKind::Approximated,
            format!(
                "max_merge_width {} below min_merge_width {}: RocksDB would never merge by size ratio or run count; \
                 the engine merges min_merge_width runs",
                u.max_merge_width, u.min_merge_width
            ),
        ));
        u.max_merge_width = u.min_merge_width;
    }
    let n = engine_num_levels(num_levels, "the engine's universal tree has L0 and at least one level", warnings);
    // Options of leveled compaction that RocksDB's universal picker never reads: named, as the
    // engine ignores them too.
    let ignored: Vec<&str> = [
        "max_bytes_for_level_base",
        "max_bytes_for_level_multiplier",
        "max_bytes_for_level_multiplier_additional",
        "level_compaction_dynamic_level_bytes",
        "level_compaction_dynamic_file_size",
        "compaction_pri",
    ]
    .into_iter()
    .filter(|name| cf.raw(name).is_some())
    .collect();
    if !ignored.is_empty() {
        warnings.push(Warning::new(
            "compaction.universal",
            WarningKind::Dropped,
            format!("{}: leveled compaction's options, which universal compaction does not read", ignored.join(", ")),
        ));
    }
    Ok((u, n))
}

//! RocksDB's write-stall thresholds as the engine's pacing.

use lsm_core::error::{Error, Result};
use lsm_core::pacing::{LEVEL0_TRIGGER_RANGE, WriteStallConfig};

use super::reader::Reader;
use crate::{Warning, WarningKind};

/// RocksDB's write-stall thresholds (defaults: 7.8's). A level-0 trigger below 1 (RocksDB: a
/// negative slowdown trigger turns the slowdown off) is raised to the range's floor or, for the
/// slowdown, to the stop trigger; a slowdown trigger above the stop trigger is lowered to it; a
/// soft byte limit above the hard one is lowered to it — each with a warning.
pub(super) fn write_stalls(cf: &mut Reader<'_>, warnings: &mut Vec<Warning>) -> Result<WriteStallConfig> {
    let int = |name: &str, v: &str| {
        v.trim().parse::<i64>().map_err(|_| Error::invalid(name, format!("must be an integer, got \"{v}\"")))
    };
    let defaults = WriteStallConfig::default();
    let (lo, hi) = LEVEL0_TRIGGER_RANGE;
    let stop_raw =
        cf.parsed("level0_stop_writes_trigger", int)?.unwrap_or(i64::from(defaults.level0_stop_writes_trigger));
    let stop = stop_raw.clamp(i64::from(lo), i64::from(hi)) as u32;
    if i64::from(stop) != stop_raw {
        warnings.push(Warning::new(
            "write_stalls.level0_stop_writes_trigger",
            WarningKind::Rounded,
            format!("level0_stop_writes_trigger {stop_raw} is outside [{lo}, {hi}]; {stop} used"),
        ));
    }
    let slow_raw =
        cf.parsed("level0_slowdown_writes_trigger", int)?.unwrap_or(i64::from(defaults.level0_slowdown_writes_trigger));
    let slow = if slow_raw < 1 { stop } else { slow_raw.min(i64::from(stop)) as u32 };
    if i64::from(slow) != slow_raw {
        warnings.push(Warning::new(
            "write_stalls.level0_slowdown_writes_trigger",
            WarningKind::Approximated,
            format!(
                "level0_slowdown_writes_trigger {slow_raw}: the engine slows writes down by level-0 files from [{lo}, \
                 level0_stop_writes_trigger = {stop}]; {slow} used"
            ),
        ));
    }
    let hard = cf.size("hard_pending_compaction_bytes_limit")?.unwrap_or(defaults.hard_pending_compaction_bytes_limit);
    let soft_raw =
        cf.size("soft_pending_compaction_bytes_limit")?.unwrap_or(defaults.soft_pending_compaction_bytes_limit);
    let soft = if hard != 0 { soft_raw.min(hard) } else { soft_raw };
    if soft != soft_raw {
        warnings.push(Warning::new(
            "write_stalls.soft_pending_compaction_bytes_limit",
            WarningKind::Rounded,
            format!("soft_pending_compaction_bytes_limit {soft_raw} is above the hard limit; {soft} used"),
        ));
    }
    Ok(WriteStallConfig {
        level0_slowdown_writes_trigger: slow,
        level0_stop_writes_trigger: stop,
        soft_pending_compaction_bytes_limit: soft,
        hard_pending_compaction_bytes_limit: hard,
    })
}

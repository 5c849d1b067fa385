//! The levels' validation: how many entries `levels` lists, and each one's size ratio, run limit
//! and bits per key against the ranges `config` declares.

use super::{
    Allocation, BITS_PER_KEY_RANGE, EngineConfig, MAX_LEVELS, MAX_RUNS_RANGE, SIZE_RATIO_RANGE, check_integer,
    check_range,
};
use crate::error::{Error, Result};

impl EngineConfig {
    /// `levels`: 1 to `MAX_LEVELS` entries, each in range; bits per key are required of every
    /// level with `explicit` allocation (the only one that reads them).
    pub(super) fn validate_levels(&self) -> Result<()> {
        if self.levels.is_empty() || self.levels.len() > MAX_LEVELS {
            return Err(Error::invalid(
                "levels",
                format!("must list between 1 and {MAX_LEVELS} levels, got {}", self.levels.len()),
            ));
        }
        for (i, level) in self.levels.iter().enumerate() {
            let (lo, hi) = SIZE_RATIO_RANGE;
            check_range(&format!("levels[{i}].size_ratio"), level.size_ratio, lo, hi)?;
            check_integer(&format!("levels[{i}].max_runs"), level.max_runs, MAX_RUNS_RANGE, "")?;
            let (blo, bhi) = BITS_PER_KEY_RANGE;
            match (self.filter.allocation, level.bits_per_key) {
                (Allocation::Explicit, None) => {
                    return Err(Error::invalid(
                        format!("levels[{i}].bits_per_key"),
                        format!("is required when filter.allocation is \"explicit\" (a number in [{blo}, {bhi}])"),
                    ));
                }
                (_, Some(b)) => check_range(&format!("levels[{i}].bits_per_key"), b, blo, bhi)?,
                _ => {}
            }
        }
        Ok(())
    }
}

//! The compaction's validation: what merges by file need (a target file size, one run below
//! level 1), the merge-by-file rules refused with whole-level merges, dynamic level bytes'
//! `num_levels` and single multiplier, and universal compaction's options and the rules it
//! replaces.

use super::{DEFAULT_NUM_LEVELS, EngineConfig, FilePick, Granularity, NUM_LEVELS_RANGE, OutputCuts, check_integer};
use crate::error::{Error, Result};
use crate::universal::UniversalConfig;

impl EngineConfig {
    /// `compaction`: merges by file and their options, or none of those options with whole-level
    /// merges; then the number of levels and the policy that reads it.
    pub(super) fn validate_compaction(&self) -> Result<()> {
        if self.compaction.granularity == Granularity::File {
            let t = self.compaction.target_file_bytes;
            if t < u64::from(self.page_bytes) || t > 1 << 32 {
                return Err(Error::invalid(
                    "compaction.target_file_bytes",
                    format!("must be in [{} (one page), {}], got {t}", self.page_bytes, 1u64 << 32),
                ));
            }
            // Levels 2 and deeper (including levels that repeat the last entry) hold one run.
            let deeper = if self.levels.len() == 1 { 0 } else { 1 };
            if let Some(i) = self.levels.iter().skip(deeper).position(|l| l.max_runs != 1) {
                return Err(Error::invalid(
                    format!("levels[{}].max_runs", i + deeper),
                    "must be 1 with file granularity for every level below level 1 (only level 1 may hold \
                     several runs, like LevelDB's level 0; list level 2 separately)",
                ));
            }
        } else if self.compaction.pick != FilePick::RoundRobin
            || self.compaction.trivial_moves
            || self.compaction.dynamic_level_bytes
        {
            let field = if self.compaction.dynamic_level_bytes {
                "compaction.dynamic_level_bytes"
            } else if self.compaction.trivial_moves {
                "compaction.trivial_moves"
            } else {
                "compaction.pick"
            };
            return Err(Error::invalid(
                field,
                "applies to merges by file only: set compaction.granularity to \"file\" (whole-level merges pick no file)",
            ));
        }
        self.validate_dynamic_level_bytes()
    }

    /// `compaction.num_levels` in range and set only with `dynamic_level_bytes` (a value nothing
    /// reads is a mistake, not a no-op), and one multiplier below level 2 in that mode.
    fn validate_dynamic_level_bytes(&self) -> Result<()> {
        let c = &self.compaction;
        check_integer("compaction.num_levels", c.num_levels, NUM_LEVELS_RANGE, " (RocksDB's num_levels, L0 included)")?;
        if let Some(u) = &c.universal {
            return self.validate_universal(u);
        }
        if !c.dynamic_level_bytes {
            if c.num_levels != DEFAULT_NUM_LEVELS {
                return Err(Error::invalid(
                    "compaction.num_levels",
                    format!(
                        "is read only with compaction.dynamic_level_bytes true or compaction.universal (static levels \
                         have no last level); leave it at {DEFAULT_NUM_LEVELS} or set one of them"
                    ),
                ));
            }
            return Ok(());
        }
        // Levels 3 and deeper: one multiplier, levels[1]'s (or levels[0]'s when only one is listed).
        let multiplier = self.level(2).size_ratio;
        if let Some(i) = self.levels.iter().skip(2).position(|l| l.size_ratio != multiplier) {
            return Err(Error::invalid(
                format!("levels[{}].size_ratio", i + 2),
                format!(
                    "must equal levels[1].size_ratio ({multiplier}) with compaction.dynamic_level_bytes: \
                     RocksDB sizes every level below the base level by one max_bytes_for_level_multiplier"
                ),
            ));
        }
        Ok(())
    }

    /// Universal compaction's options in range, and the merge-by-file rules it replaces at their
    /// defaults (a rule nothing reads is a mistake, not a no-op).
    fn validate_universal(&self, u: &UniversalConfig) -> Result<()> {
        u.validate()?;
        let c = &self.compaction;
        let replaced = [
            ("compaction.pick", c.pick != FilePick::RoundRobin),
            ("compaction.trivial_moves", c.trivial_moves),
            ("compaction.dynamic_level_bytes", c.dynamic_level_bytes),
            ("compaction.output_cuts", c.output_cuts != OutputCuts::Leveldb),
        ];
        if let Some((field, _)) = replaced.iter().find(|(_, set)| *set) {
            return Err(Error::invalid(
                *field,
                "is not read with compaction.universal (its picker chooses the merges, and \
                 compaction.universal.allow_trivial_move the moves); leave it at its default",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Allocation, sample};

    #[test]
    fn universal_compaction_reads_num_levels_and_refuses_the_rules_it_replaces() {
        let mut c = sample();
        c.compaction.universal = Some(UniversalConfig::default());
        c.compaction.num_levels = 5;
        assert_eq!(c.validate(), Ok(()));
        assert!(c.to_json().contains("\"universal\": {"), "{}", c.to_json());
        assert_eq!(EngineConfig::from_json(&c.to_json()), Ok(c.clone()));
        let mut by_file = c.clone();
        by_file.compaction.granularity = Granularity::File;
        by_file.compaction.target_file_bytes = 1 << 20;
        assert_eq!(by_file.validate(), Ok(()));
        by_file.compaction.dynamic_level_bytes = true;
        let e = by_file.validate().unwrap_err().to_string();
        assert!(e.starts_with("compaction.dynamic_level_bytes: is not read with compaction.universal"), "{e}");
        c.compaction.universal = Some(UniversalConfig { max_merge_width: 1, ..UniversalConfig::default() });
        let e = c.validate().unwrap_err().to_string();
        assert!(e.starts_with("compaction.universal.max_merge_width: must be an integer in [2, "), "{e}");
    }

    #[test]
    fn picking_and_moving_files_needs_merges_by_file() {
        let mut c = EngineConfig::uniform_shape(10.0, 1, Allocation::Uniform, 10.0);
        c.compaction.trivial_moves = true;
        let e = c.validate().unwrap_err().to_string();
        assert!(e.contains("compaction.trivial_moves") && e.contains("\"file\""), "{e}");
        c.compaction.trivial_moves = false;
        c.compaction.pick = FilePick::MinOverlappingRatio;
        assert!(c.validate().unwrap_err().to_string().contains("compaction.pick"));
    }
}

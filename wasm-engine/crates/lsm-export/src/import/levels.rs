//! Leveled compaction's shape: the level-0 trigger, the level base, the multipliers and
//! `num_levels` as the engine's levels, and `compaction_pri` as its file pick.

use lsm_core::config::{FilePick, Granularity, LevelConfig, MAX_LEVELS, NUM_LEVELS_RANGE, SIZE_RATIO_RANGE};
use lsm_core::error::{Error, Result};

use super::defaults::{DEFAULT_L0_TRIGGER, DEFAULT_LEVEL_BASE, DEFAULT_MULTIPLIER, DYNAMIC_LEVEL_BYTES_SINCE, version};
use super::reader::Reader;
use crate::ini::{Ini, split_list};
use crate::{Warning, WarningKind, number};

/// Leveled compaction. A trigger of 1 compacts every flush into L1 (engine level i = Li); a
/// larger trigger keeps that many flushes in L0, a tiered engine level 1 (engine level i+1 = Li).
/// Returns the levels, the granularity and, with `level_compaction_dynamic_level_bytes`, the
/// number of levels the engine's dynamic mode takes (`compaction.num_levels`).
pub(super) fn level_shape(
    ini: &Ini,
    cf: &mut Reader,
    wbs: u64,
    num_levels: u64,
    warnings: &mut Vec<Warning>,
) -> Result<(Vec<LevelConfig>, Granularity, Option<u32>)> {
    let trigger = cf.size("level0_file_num_compaction_trigger")?.unwrap_or(DEFAULT_L0_TRIGGER).max(1);
    let base = cf.size("max_bytes_for_level_base")?.unwrap_or(DEFAULT_LEVEL_BASE) as f64;
    let multiplier = cf.float("max_bytes_for_level_multiplier")?.unwrap_or(DEFAULT_MULTIPLIER);
    let additional: Vec<f64> = match cf.raw("max_bytes_for_level_multiplier_additional") {
        Some(list) => split_list(list)
            .iter()
            .filter(|s| !s.is_empty())
            .map(|s| {
                s.parse::<f64>().map_err(|_| {
                    Error::invalid("max_bytes_for_level_multiplier_additional", format!("\"{s}\" is not a number"))
                })
            })
            .collect::<Result<_>>()?,
        None => Vec::new(),
    };
    let dynamic = match cf.boolean("level_compaction_dynamic_level_bytes")? {
        Some(d) => d,
        None => version(ini).is_some_and(|v| v >= DYNAMIC_LEVEL_BYTES_SINCE),
    };
    // Merges by file: engine level 1 is L0 (up to trigger − 1 flushed files at rest), and its
    // size ratio sets L1's capacity relative to the buffer (with dynamic level bytes,
    // max_bytes_for_level_base, the base level's largest target).
    if trigger == 1 {
        warnings.push(Warning::new(
            "levels[0].max_runs",
            WarningKind::Approximated,
            "level0_file_num_compaction_trigger = 1 compacts every flush; the engine keeps one flushed file \
             in level 1 before it merges",
        ));
    }
    let mut levels = vec![LevelConfig {
        size_ratio: ratio(base / wbs as f64, "max_bytes_for_level_base", 1, warnings),
        max_runs: (trigger - 1).max(1) as u32,
        bits_per_key: None,
    }];
    if dynamic {
        // One multiplier for every level (`levels[1]`, repeated below); the engine's dynamic
        // mode takes RocksDB's last level from num_levels.
        if additional.iter().any(|&a| a != 1.0) {
            warnings.push(Warning::new(
                "levels",
                WarningKind::Dropped,
                "max_bytes_for_level_multiplier_additional: RocksDB itself ignores it with \
                 level_compaction_dynamic_level_bytes, and so does the engine",
            ));
        }
        let n = engine_num_levels(num_levels, "dynamic level bytes needs L0 and a last level", warnings);
        levels.push(LevelConfig {
            size_ratio: ratio(multiplier, "max_bytes_for_level_multiplier", 2, warnings),
            max_runs: 1,
            bits_per_key: None,
        });
        return Ok((levels, Granularity::File, Some(n)));
    }
    let factor = |rocks_level: usize| multiplier * additional.get(rocks_level - 1).copied().unwrap_or(1.0);
    let rocks_levels = usize::try_from(num_levels).unwrap_or(MAX_LEVELS).min(MAX_LEVELS + 1);
    for rocks_level in 2..rocks_levels {
        let level = levels.len() + 1;
        if level > MAX_LEVELS {
            break;
        }
        let r = ratio(factor(rocks_level), "max_bytes_for_level_multiplier", level, warnings);
        levels.push(LevelConfig { size_ratio: r, max_runs: 1, bits_per_key: None });
    }
    // RocksDB's leveled compaction always works file by file.
    Ok((levels, Granularity::File, None))
}

pub(super) fn ratio(value: f64, option: &str, level: usize, warnings: &mut Vec<Warning>) -> f64 {
    let (lo, hi) = SIZE_RATIO_RANGE;
    let r = if value.is_finite() { value.clamp(lo, hi) } else { lo };
    if r != value {
        warnings.push(Warning::new(
            format!("levels[{}].size_ratio", level - 1),
            WarningKind::Rounded,
            format!("{option} gives level {level} a size ratio of {}; the engine needs [{lo}, {hi}]", number(value, 4)),
        ));
    }
    r
}

/// Drop trailing level entries equal to the one before: the last entry repeats anyway.
pub(super) fn collapse(levels: &mut Vec<LevelConfig>) {
    while levels.len() > 1 && levels[levels.len() - 1] == levels[levels.len() - 2] {
        levels.pop();
    }
}

/// RocksDB's `num_levels` in the engine's range (`NUM_LEVELS_RANGE`), with a warning that says
/// `why` when it had to move.
pub(super) fn engine_num_levels(num_levels: u64, why: &str, warnings: &mut Vec<Warning>) -> u32 {
    let (lo, hi) = NUM_LEVELS_RANGE;
    let n = num_levels.clamp(u64::from(lo), u64::from(hi)) as u32;
    if u64::from(n) != num_levels {
        warnings.push(Warning::new(
            "compaction.num_levels",
            WarningKind::Rounded,
            format!("num_levels {num_levels} becomes {n}: {why}, at most {hi} levels"),
        ));
    }
    n
}

/// `compaction_pri` as the engine's file pick. Leveled compaction always moves a file that
/// overlaps nothing below (RocksDB has no option to turn trivial moves off), so the import turns
/// them on; the two size- and age-based priorities have no engine mechanism and become RocksDB's
/// default, with a warning.
pub(super) fn file_pick(pri: Option<&str>, granularity: Granularity, warnings: &mut Vec<Warning>) -> Result<FilePick> {
    if granularity != Granularity::File {
        return Ok(FilePick::RoundRobin);
    }
    Ok(match pri.unwrap_or("kMinOverlappingRatio") {
        "kMinOverlappingRatio" => FilePick::MinOverlappingRatio,
        "kRoundRobin" => FilePick::RoundRobin,
        other @ ("kByCompensatedSize" | "kOldestLargestSeqFirst" | "kOldestSmallestSeqFirst") => {
            warnings.push(Warning::new(
                "compaction.pick",
                WarningKind::Approximated,
                format!(
                    "compaction_pri {other} has no engine mechanism; kMinOverlappingRatio (RocksDB's default) used"
                ),
            ));
            FilePick::MinOverlappingRatio
        }
        other => {
            return Err(Error::invalid(
                "compaction_pri",
                format!(
                    "must be kByCompensatedSize, kOldestLargestSeqFirst, kOldestSmallestSeqFirst, \
                     kMinOverlappingRatio or kRoundRobin, got \"{other}\""
                ),
            ));
        }
    })
}

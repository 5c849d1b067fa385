//! RocksDB's `level_compaction_dynamic_level_bytes`: level targets derived from the largest level
//! (the base level and the targets below it) and the scores that order merges by them. The
//! merges these choose are built by `super::by_file`.

use crate::config::EngineConfig;

/// RocksDB's level targets with `level_compaction_dynamic_level_bytes`, in engine levels
/// (engine level i+1 is RocksDB's Li).
#[derive(Clone, Debug, PartialEq)]
pub struct DynamicLevels {
    /// The engine level level 1 (L0) merges into: RocksDB's base level + 1. The levels between
    /// them are empty.
    pub base_level: usize,
    /// Target bytes of engine levels 1..=`num_levels`, level 1 first. `u64::MAX` (never over
    /// target) for level 1, which its file count bounds, for the levels above the base level, and
    /// for every level while nothing lies below level 1.
    pub targets: Vec<u64>,
}

impl DynamicLevels {
    /// The target of `level` (1-based); `u64::MAX` past the last level.
    pub fn target(&self, level: usize) -> u64 {
        level.checked_sub(1).and_then(|i| self.targets.get(i)).copied().unwrap_or(u64::MAX)
    }
}

/// RocksDB's `max_bytes_for_level_base` in the engine's terms: the capacity level 2 (L1) has
/// with static targets, `buffer_bytes × levels[0].size_ratio` (truncated to bytes).
pub fn level_base_bytes(config: &EngineConfig) -> u64 {
    (config.buffer_bytes as f64 * config.level(1).size_ratio) as u64
}

/// `value / by`, truncated to a whole byte as RocksDB's `static_cast<uint64_t>` does.
fn divide(value: u64, by: f64) -> u64 {
    (value as f64 / by) as u64
}

/// The base level and every level's target for a tree whose engine levels hold `level_bytes`
/// (index 0 = level 1), as RocksDB 7.8's `VersionStorageInfo::CalculateBaseBytes` computes them
/// in dynamic mode. L0's size does not enter (7.8 no longer lets it). With `n` = `num_levels`:
///
/// * nothing below L0: the base level is the last one, L(n−1), and no level has a target;
/// * otherwise, from the largest level below L0 (not the last level's size: a merge can leave
///   the last level smaller for a while), the size the first non-empty level would get if the
///   last level's target were that largest size (divided by the multiplier once per level
///   between them, truncating each time). If that is at most `base / multiplier`, the first
///   non-empty level is the base level, with `base / multiplier + 1` bytes (more levels hold
///   data than the tree needs); otherwise the base level climbs from the first non-empty level
///   while the size is above `base`, dividing once more per level (and stops at L1, capped at
///   `base`);
/// * the base level's target is that size, and each level below it the multiplier times the
///   one above (RocksDB's `MultiplyCheckOverflow`), none below `base`: a target under L0's
///   would make L1+ look fuller than L0 and starve L0's merges.
pub fn dynamic_levels(level_bytes: &[u64], config: &EngineConfig) -> DynamicLevels {
    let n = config.compaction.num_levels as usize;
    let bytes = |rocks_level: usize| level_bytes.get(rocks_level).copied().unwrap_or(0);
    let mut targets = vec![u64::MAX; n];
    let first_non_empty = (1..n).find(|&i| bytes(i) > 0);
    let max_level_size = (1..n).map(bytes).max().unwrap_or(0);
    let Some(first_non_empty) = first_non_empty else {
        // L0 merges straight into the last level; nothing below it merges by size.
        return DynamicLevels { base_level: n, targets };
    };
    let multiplier = config.level(2).size_ratio;
    let base_max = level_base_bytes(config);
    let base_min = divide(base_max, multiplier);
    let mut size = max_level_size;
    for _ in first_non_empty..n - 1 {
        size = divide(size, multiplier);
    }
    let (base_level, base_size) = if size <= base_min {
        (first_non_empty, base_min + 1)
    } else {
        let mut base = first_non_empty;
        while base > 1 && size > base_max {
            base -= 1;
            size = divide(size, multiplier);
        }
        (base, size.min(base_max))
    };
    let mut level_size = base_size;
    for (i, target) in targets.iter_mut().enumerate().skip(base_level) {
        if i > base_level {
            level_size = multiply_check_overflow(level_size, multiplier);
        }
        *target = level_size.max(base_max);
    }
    DynamicLevels { base_level: base_level + 1, targets }
}

/// RocksDB's `MultiplyCheckOverflow`: `value × by`, or `value` unchanged where that overflows.
fn multiply_check_overflow(value: u64, by: f64) -> u64 {
    if value == 0 || by <= 0.0 {
        return 0;
    }
    if ((u64::MAX / value) as f64) < by {
        return value;
    }
    (value as f64 * by) as u64
}

/// RocksDB 7.8's `VersionStorageInfo::ComputeCompactionScore` in dynamic mode, for engine levels
/// 1..`num_levels` (the last level is never merged down), highest score first (ties: the
/// shallower level). A level whose score is at least 1 needs a merge. Nothing is being
/// compacted while the engine picks, so every file counts.
///
/// * Level 1 (L0): its files over `level0_file_num_compaction_trigger` (`levels[0].max_runs + 1`);
///   at least 1.01 once its bytes reach `max_bytes_for_level_base`; and, when its bytes exceed
///   the base level's target, at least its bytes over the larger of the base level's bytes and
///   target (so a large L0 goes before the base level). A score above 1 is scaled by 10.
/// * Deeper levels: bytes over target while under it. Over it, the score is bytes over
///   target plus the bytes bound to arrive from above (L0's bytes and every shallower level's
///   excess), times 10: a level about to receive much is merged later.
pub fn dynamic_scores(
    level_bytes: &[u64],
    level_1_files: usize,
    levels: &DynamicLevels,
    config: &EngineConfig,
) -> Vec<(usize, f64)> {
    const SCORE_SCALE: f64 = 10.0;
    let n = config.compaction.num_levels as usize;
    let bytes = |i: usize| level_bytes.get(i).copied().unwrap_or(0);
    let trigger = f64::from(config.level(1).max_runs) + 1.0;
    let base_bytes = level_base_bytes(config);
    let l0 = bytes(0);
    let mut score = level_1_files as f64 / trigger;
    if l0 >= base_bytes {
        score = score.max(1.01);
    }
    let base_target = levels.target(levels.base_level);
    if l0 > base_target {
        let base_now = bytes(levels.base_level - 1);
        score = score.max(l0 as f64 / base_now.max(base_target) as f64);
    }
    if score > 1.0 {
        score *= SCORE_SCALE;
    }
    let mut scores = vec![(1, score)];
    let mut arriving = l0 as f64;
    for i in 1..n - 1 {
        let (b, target) = (bytes(i), levels.targets[i]);
        let score =
            if b < target { b as f64 / target as f64 } else { b as f64 / (target as f64 + arriving) * SCORE_SCALE };
        if b > target {
            arriving += (b - target) as f64;
        }
        scores.push((i + 1, score));
    }
    scores.sort_by(|a, b| b.1.total_cmp(&a.1));
    scores
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compaction::by_file::tests::{leveldb, t};
    use crate::compaction::choose_file;
    use crate::config::{Allocation, LevelConfig};

    /// max_bytes_for_level_base 1,000 (buffer 100 × 10), multiplier 10, L0 trigger 4, L0..L6.
    fn dynamic() -> EngineConfig {
        let mut c = leveldb();
        c.compaction.trivial_moves = true;
        c.compaction.dynamic_level_bytes = true;
        c.levels[0].size_ratio = 10.0;
        c
    }

    /// Engine levels 1..=7 holding `bytes` (RocksDB's L0..L6).
    fn levels(bytes: [u64; 7]) -> DynamicLevels {
        dynamic_levels(&bytes, &dynamic())
    }

    const MAX: u64 = u64::MAX;

    #[test]
    fn an_empty_tree_merges_level_1_into_the_last_level() {
        let d = levels([500, 0, 0, 0, 0, 0, 0]);
        assert_eq!((d.base_level, d.targets), (7, vec![MAX; 7]));
    }

    #[test]
    fn the_base_level_climbs_until_its_target_is_at_most_the_level_base() {
        // L6 = 50,000: L5 would be 5,000 (> 1,000), L4 500: L4 is the base level (engine level 5),
        // its target raised to max_bytes_for_level_base.
        let d = levels([0, 0, 0, 0, 0, 0, 50_000]);
        assert_eq!((d.base_level, d.targets), (5, vec![MAX, MAX, MAX, MAX, 1_000, 5_000, 50_000]));
        // The largest level, not the last one, sets the last level's target.
        let d = levels([0, 0, 0, 0, 0, 60_000, 50_000]);
        assert_eq!((d.base_level, d.targets), (5, vec![MAX, MAX, MAX, MAX, 1_000, 6_000, 60_000]));
        // 20,000 in L6: L5 2,000, L4 200 (truncated divisions); L4's target 1,000, L5's 2,000.
        let d = levels([0, 0, 0, 0, 0, 0, 20_000]);
        assert_eq!((d.base_level, d.targets), (5, vec![MAX, MAX, MAX, MAX, 1_000, 2_000, 20_000]));
    }

    #[test]
    fn more_levels_than_the_data_needs_keep_the_first_non_empty_one_as_base() {
        // L4 = 10, L6 = 900: L4 would get 9 ≤ 1,000 / 10, so L4 is the base level at 101 bytes,
        // every target raised to at least 1,000.
        let d = levels([0, 0, 0, 0, 10, 0, 900]);
        assert_eq!((d.base_level, d.targets), (5, vec![MAX, MAX, MAX, MAX, 1_000, 1_010, 10_100]));
        // L5 = 200, L6 = 1,500: L5 would get 150, above 100 and at most 1,000: L5 is the base.
        let d = levels([0, 0, 0, 0, 0, 200, 1_500]);
        assert_eq!((d.base_level, d.targets), (6, vec![MAX, MAX, MAX, MAX, MAX, 1_000, 1_500]));
    }

    #[test]
    fn a_tree_too_large_for_its_levels_stops_at_l1_capped_at_the_level_base() {
        let d = levels([0, 0, 0, 0, 0, 0, 1_000_000_000]);
        assert_eq!(d.base_level, 2);
        assert_eq!(d.targets, vec![MAX, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000]);
    }

    #[test]
    fn scores_rank_level_1_by_files_and_deeper_levels_by_bytes_over_target_and_arrivals() {
        let c = dynamic();
        let bytes = [400, 0, 0, 0, 1_500, 0, 50_000];
        let d = dynamic_levels(&bytes, &c);
        // 4 files at a trigger of 4: exactly 1 (not scaled). L4 over its 1,000: 1,500 over
        // (1,000 + the 400 bound to arrive from L0) × 10.
        let scores = dynamic_scores(&bytes, 4, &d, &c);
        assert_eq!(scores[0].0, 5);
        assert!((scores[0].1 - 1_500.0 / 1_400.0 * 10.0).abs() < 1e-9, "{scores:?}");
        assert_eq!(scores[1], (1, 1.0));
        // Empty L5 (target 5,000) scores 0, however much is bound to arrive.
        assert!(scores.iter().any(|&(l, s)| l == 6 && s == 0.0));
        // 5 files: 1.25, scaled by 10, ahead of L4.
        let scores = dynamic_scores(&bytes, 5, &d, &c);
        assert_eq!(scores[0], (1, 12.5));
        // L0 at max_bytes_for_level_base counts as due (1.01, scaled); over the base level's
        // target and bytes, by their ratio.
        let scores = dynamic_scores(&[1_000, 0, 0, 0, 0, 0, 50_000], 1, &d, &c);
        assert!((scores[0].1 - 10.1).abs() < 1e-9, "{scores:?}");
        let d2 = dynamic_levels(&[3_000, 0, 0, 0, 1_200, 0, 50_000], &c);
        let scores = dynamic_scores(&[3_000, 0, 0, 0, 1_200, 0, 50_000], 1, &d2, &c);
        assert_eq!(scores[0], (1, 3_000.0 / 1_200.0 * 10.0));
    }

    #[test]
    fn level_1_merges_into_the_base_level_over_the_empty_levels() {
        let c = dynamic();
        let l0 = vec![t(1, 100, 10, 50), t(2, 100, 20, 60), t(3, 100, 30, 40), t(4, 100, 5, 70)];
        let mut tree = vec![l0.clone(), vec![], vec![], vec![], vec![], vec![], vec![]];
        assert_eq!(choose_file(&tree, 3, &[], &c), None, "3 files are under the trigger");
        // Empty tree: into the last level (engine level 7), nothing to rewrite there.
        let plan = choose_file(&tree, 4, &[], &c).unwrap();
        assert_eq!(
            (plan.level, plan.into, plan.tables, plan.overlapping, plan.trivial_move),
            (1, 7, vec![1, 2, 3, 4], vec![], false)
        );
        // With L6 at 50,000 bytes, L4 (engine level 5) is the base level.
        tree[6] = vec![t(10, 25_000, 0, 49), t(11, 25_000, 50, 99)];
        tree[4] = vec![t(12, 500, 0, 9), t(13, 300, 30, 45)];
        let plan = choose_file(&tree, 4, &[], &c).unwrap();
        assert_eq!((plan.into, plan.overlapping), (5, vec![12, 13]));
        // Flushed files that overlap neither each other nor the base level (over their whole
        // span, as RocksDB's TryPickL0TrivialMove checks) move down whole, in key order.
        tree[0] = vec![t(1, 100, 60, 69), t(2, 100, 50, 59), t(3, 100, 46, 49), t(4, 100, 80, 89)];
        let plan = choose_file(&tree, 4, &[], &c).unwrap();
        assert_eq!((plan.into, plan.tables, plan.trivial_move), (5, vec![3, 2, 1, 4], true));
        // One of them inside the span of the others over a base-level file: merged.
        tree[0][2] = t(3, 100, 10, 20);
        let plan = choose_file(&tree, 4, &[], &c).unwrap();
        assert_eq!((plan.overlapping, plan.trivial_move), (vec![13], false));
    }

    #[test]
    fn a_level_over_its_target_merges_one_file_into_the_next_even_below_the_base() {
        let c = dynamic();
        let mut tree = vec![vec![], vec![], vec![], vec![], vec![], vec![], vec![]];
        tree[6] = vec![t(10, 25_000, 0, 49), t(11, 25_000, 50, 99)];
        tree[4] = vec![t(12, 800, 0, 9), t(13, 700, 30, 45)];
        let plan = choose_file(&tree, 0, &[], &c).unwrap();
        // L4 (1,500 > 1,000) merges a file into L5, which is empty; the file would overlap
        // 25,000 bytes two levels down (over 25 target files), so it is rewritten, not moved.
        assert_eq!((plan.level, plan.into, plan.tables, plan.trivial_move), (5, 6, vec![12], false));
        // With small files below it moves.
        tree[6] = vec![t(10, 1_000, 0, 49), t(11, 49_000, 50, 99)];
        let plan = choose_file(&tree, 0, &[], &c).unwrap();
        assert_eq!((plan.level, plan.into, plan.tables, plan.trivial_move), (5, 6, vec![12], true));
        tree[6] = vec![t(10, 25_000, 0, 49), t(11, 25_000, 50, 99)];
        // The last level is never merged down, however far over its target.
        tree[4].clear();
        tree[6].push(t(14, 90_000, 100, 120));
        assert_eq!(choose_file(&tree, 0, &[], &c), None);
    }

    #[test]
    fn dynamic_level_bytes_is_validated_with_the_field_and_range() {
        let valid = || {
            let mut c = dynamic();
            c.buffer_bytes = 4096;
            c.compaction.target_file_bytes = 4096;
            c
        };
        let mut c = valid();
        assert_eq!(c.validate(), Ok(()));
        c.compaction.num_levels = 1;
        let e = c.validate().unwrap_err().to_string();
        assert!(e.starts_with("compaction.num_levels: must be an integer in [2, 64]"), "{e}");
        c.compaction.num_levels = 7;
        c.levels.push(LevelConfig { size_ratio: 8.0, max_runs: 1, bits_per_key: None });
        let e = c.validate().unwrap_err().to_string();
        assert!(e.starts_with("levels[2].size_ratio: must equal levels[1].size_ratio (10)"), "{e}");
        let mut c = valid();
        c.compaction.dynamic_level_bytes = false;
        c.compaction.num_levels = 5;
        assert!(c.validate().unwrap_err().to_string().starts_with("compaction.num_levels: is read only with"));
        let mut c = EngineConfig::uniform_shape(10.0, 1, Allocation::Uniform, 10.0);
        c.compaction.dynamic_level_bytes = true;
        let e = c.validate().unwrap_err().to_string();
        assert!(e.contains("compaction.dynamic_level_bytes") && e.contains("\"file\""), "{e}");
        // Omitted in JSON when off and at 7 levels; read back when on.
        let json = valid().to_json();
        assert!(json.contains("\"dynamic_level_bytes\": true") && !json.contains("num_levels"), "{json}");
        assert_eq!(EngineConfig::from_json(&json), Ok(valid()));
        let mut five = valid();
        five.compaction.num_levels = 5;
        assert!(five.to_json().contains("\"num_levels\": 5"));
        assert_eq!(EngineConfig::from_json(&five.to_json()), Ok(five));
    }
}

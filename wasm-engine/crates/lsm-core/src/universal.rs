//! RocksDB 7.8's universal compaction (`compaction_style=kCompactionStyleUniversal`): its options
//! (`compaction.universal` of an EngineConfig) and its picker, as a pure function of the sorted
//! runs' sizes, so the engine executes it and a predictor can replay it on sizes alone.
//!
//! The tree has RocksDB's `num_levels` levels: engine level 1 is L0, where every file is a
//! sorted run of its own, and each non-empty level below it (engine level i + 1 is Li) is one
//! sorted run. Runs are listed newest first: L0's files, then L1, L2, … The picker, as 7.8's
//! `UniversalCompactionBuilder::PickCompaction` decides when nothing else is compacting:
//!
//! 1. nothing while there are fewer runs than `level0_file_num_compaction_trigger`;
//! 2. size amplification: when the runs newer than the oldest add up to at least
//!    `max_size_amplification_percent` % of the oldest, every run merges into the last level;
//! 3. size ratio: from the newest run on, the first stretch of at least `min_merge_width` (and at
//!    most `max_merge_width`) consecutive runs where each next run is at most the picked runs'
//!    total (`stop_style` `total_size`; the last picked run's size with `similar_size`, which also
//!    stops at a run much smaller than it) grown by `size_ratio` %;
//! 4. sorted run count: with more runs than the trigger, the same stretch without the size
//!    test, as wide as it takes to come back to the trigger (runs − trigger + 1 runs).
//!
//! The output goes to the last level when the oldest run is merged; otherwise to the level just
//! above the next older run (L0, one file, when that run is an L0 file). Outputs to L0 are one
//! file; deeper outputs are cut at `target_file_size_base`. Periodic, TTL and deletion-triggered
//! compactions, `incremental` and `compression_size_percent` are not modelled; a file's
//! compensated size (which RocksDB raises for files with many deletions) is its size.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::range::check_integer;

/// Which test ends a stretch of runs picked for their sizes (RocksDB's `stop_style`;
/// JSON `total_size` or `similar_size`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum StopStyle {
    /// `kCompactionStopStyleTotalSize` (RocksDB's default): the next run joins while it is at
    /// most the total of the runs picked so far, grown by `size_ratio` %.
    #[default]
    TotalSize,
    /// `kCompactionStopStyleSimilarSize`: the next run joins while it and the last run picked
    /// are each at most the other grown by `size_ratio` %.
    SimilarSize,
}

/// RocksDB's `compaction_options_universal`, with the `level0_file_num_compaction_trigger` that
/// starts it (JSON `compaction.universal`). Every field has RocksDB 7.8's default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct UniversalConfig {
    /// RocksDB's `level0_file_num_compaction_trigger`: compactions are considered once the tree
    /// holds this many sorted runs (L0 files and non-empty levels together); in [1, 1000],
    /// default 4.
    #[serde(default = "default_trigger")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub level0_file_num_compaction_trigger: u32,
    /// `size_ratio`: percent by which a stretch's size may fall short of the next run's and
    /// still take it; in [0, 1000000], default 1.
    #[serde(default = "default_size_ratio")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub size_ratio: u32,
    /// `min_merge_width`: fewest runs a size-ratio merge takes; in [2, 2³² − 1], default 2 (RocksDB
    /// treats 0 and 1 as 2).
    #[serde(default = "default_min_merge_width")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub min_merge_width: u32,
    /// `max_merge_width`: most runs a size-ratio or run-count merge takes; in [2, 2³² − 1],
    /// default 2³² − 1 (RocksDB's UINT_MAX).
    #[serde(default = "default_max_merge_width")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub max_merge_width: u32,
    /// `max_size_amplification_percent`: the runs newer than the oldest may add up to this
    /// percent of the oldest before everything is merged; in [0, 2³² − 1], default 200.
    #[serde(default = "default_size_amp")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub max_size_amplification_percent: u32,
    /// `stop_style`; default `total_size`.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub stop_style: StopStyle,
    /// `allow_trivial_move`: a merge whose input files overlap nowhere moves them to the output
    /// level without rewriting them (never from L0 unless all of L0's files are disjoint, never
    /// into L0); default false.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub allow_trivial_move: bool,
}

fn default_trigger() -> u32 {
    4
}
fn default_size_ratio() -> u32 {
    1
}
fn default_min_merge_width() -> u32 {
    2
}
fn default_max_merge_width() -> u32 {
    u32::MAX
}
fn default_size_amp() -> u32 {
    200
}

impl Default for UniversalConfig {
    fn default() -> Self {
        UniversalConfig {
            level0_file_num_compaction_trigger: default_trigger(),
            size_ratio: default_size_ratio(),
            min_merge_width: default_min_merge_width(),
            max_merge_width: default_max_merge_width(),
            max_size_amplification_percent: default_size_amp(),
            stop_style: StopStyle::TotalSize,
            allow_trivial_move: false,
        }
    }
}

/// Allowed `compaction.universal.level0_file_num_compaction_trigger`, inclusive.
pub const TRIGGER_RANGE: (u32, u32) = (1, 1_000);
/// Allowed `compaction.universal.size_ratio` (percent), inclusive.
pub const SIZE_RATIO_PERCENT_RANGE: (u32, u32) = (0, 1_000_000);
/// Fewest runs `min_merge_width` and `max_merge_width` may name.
pub const MIN_MERGE_WIDTH: u32 = 2;

impl UniversalConfig {
    /// Each field in its range, and `max_merge_width` ≥ `min_merge_width`; the error names the
    /// field as `compaction.universal.<name>`.
    pub fn validate(&self) -> Result<()> {
        let field = |name: &str| format!("compaction.universal.{name}");
        check_integer(
            &field("level0_file_num_compaction_trigger"),
            self.level0_file_num_compaction_trigger,
            TRIGGER_RANGE,
            "",
        )?;
        let (lo, hi) = SIZE_RATIO_PERCENT_RANGE;
        if !(lo..=hi).contains(&self.size_ratio) {
            return Err(Error::invalid(
                field("size_ratio"),
                format!("must be an integer percent in [{lo}, {hi}], got {}", self.size_ratio),
            ));
        }
        for (name, width) in [("min_merge_width", self.min_merge_width), ("max_merge_width", self.max_merge_width)] {
            check_integer(&field(name), width, (MIN_MERGE_WIDTH, u32::MAX), "")?;
        }
        if self.max_merge_width < self.min_merge_width {
            return Err(Error::invalid(
                field("max_merge_width"),
                format!(
                    "must be at least min_merge_width ({}), got {}: no size-ratio merge could ever start",
                    self.min_merge_width, self.max_merge_width
                ),
            ));
        }
        Ok(())
    }
}

/// One sorted run as the picker sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SortedRun {
    /// Engine level (1 = L0, whose every file is a run; level i + 1 is RocksDB's Li).
    pub level: usize,
    /// Its size: RocksDB compares file sizes; any unit works if every run uses the same.
    pub bytes: u64,
}

/// Why the picker chose a merge (RocksDB's `CompactionReason`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PickReason {
    /// `kUniversalSizeAmplification`: every run, into the last level.
    SizeAmplification,
    /// `kUniversalSizeRatio`: a stretch of runs of similar size.
    SizeRatio,
    /// `kUniversalSortedRunNum`: too many runs, merged regardless of their sizes.
    SortedRunNum,
}

/// A universal merge: runs `first..=last` of the list given to `pick` (newest first) into
/// `output_level`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UniversalPick {
    /// Index of the newest run merged.
    pub first: usize,
    /// Index of the oldest run merged (inclusive).
    pub last: usize,
    /// Engine level the output goes to (1 = L0: one file; `num_levels` = the last level).
    pub output_level: usize,
    /// Which of the picker's tests chose it.
    pub reason: PickReason,
}

impl UniversalPick {
    /// Whether the oldest run of the tree is merged: nothing older remains, so tombstones can go.
    pub fn includes_oldest(&self, runs: usize) -> bool {
        self.last + 1 == runs
    }
}

/// RocksDB 7.8's universal picker over `runs` (newest first, every run of the tree) in a tree of
/// `num_levels` levels (L0 included). None: nothing to merge.
pub fn pick(runs: &[SortedRun], options: &UniversalConfig, num_levels: usize) -> Option<UniversalPick> {
    let trigger = options.level0_file_num_compaction_trigger as usize;
    if runs.is_empty() || runs.len() < trigger {
        return None;
    }
    if let Some(p) = reduce_size_amplification(runs, options, num_levels) {
        return Some(p);
    }
    if let Some(p) = reduce_sorted_runs(runs, options, Some(options.size_ratio), usize::MAX, num_levels) {
        return Some(p);
    }
    if runs.len() > trigger {
        let width = runs.len() - trigger + 1;
        return reduce_sorted_runs(runs, options, None, width, num_levels)
            .map(|p| UniversalPick { reason: PickReason::SortedRunNum, ..p });
    }
    None
}

/// `PickCompactionToReduceSizeAmp`: everything, once the runs newer than the oldest reach
/// `max_size_amplification_percent` of it.
fn reduce_size_amplification(
    runs: &[SortedRun],
    options: &UniversalConfig,
    num_levels: usize,
) -> Option<UniversalPick> {
    let (oldest, newer) = runs.split_last()?;
    if newer.is_empty() {
        return None;
    }
    let candidate: u128 = newer.iter().map(|r| u128::from(r.bytes)).sum();
    if candidate * 100 < u128::from(options.max_size_amplification_percent) * u128::from(oldest.bytes) {
        return None;
    }
    Some(UniversalPick {
        first: 0,
        last: runs.len() - 1,
        output_level: num_levels,
        reason: PickReason::SizeAmplification,
    })
}

/// `PickCompactionToReduceSortedRuns`: the first stretch, from the newest run on, of at least
/// `min_merge_width` and at most `max_merge_width` (and `max_runs`) runs in which each next run is
/// no larger than the stretch grown by `ratio` percent (None: any size, the run-count rule).
fn reduce_sorted_runs(
    runs: &[SortedRun],
    options: &UniversalConfig,
    ratio: Option<u32>,
    max_runs: usize,
    num_levels: usize,
) -> Option<UniversalPick> {
    let min_width = (options.min_merge_width as usize).max(MIN_MERGE_WIDTH as usize);
    let max_width = (options.max_merge_width as usize).min(max_runs);
    // RocksDB passes UINT_MAX for "any size": the grown stretch then exceeds any run.
    let grow = 100.0 + f64::from(ratio.unwrap_or(u32::MAX));
    for start in 0..runs.len() {
        let mut count = 1;
        let mut size = runs[start].bytes;
        for next in &runs[start + 1..] {
            if count >= max_width {
                break;
            }
            // RocksDB scales in doubles; so does this, for the same ties.
            if (size as f64) * grow / 100.0 < next.bytes as f64 {
                break;
            }
            match options.stop_style {
                StopStyle::SimilarSize => {
                    if (next.bytes as f64) * grow / 100.0 < size as f64 {
                        break;
                    }
                    size = next.bytes;
                }
                StopStyle::TotalSize => size += next.bytes,
            }
            count += 1;
        }
        if count >= min_width {
            return Some(UniversalPick {
                first: start,
                last: start + count - 1,
                output_level: output_level(runs, start + count, num_levels),
                reason: PickReason::SizeRatio,
            });
        }
    }
    None
}

/// Where a merge of runs up to (not including) `first_after` writes: the last level when no
/// older run remains, L0 when the next older run is an L0 file, else the level above it.
fn output_level(runs: &[SortedRun], first_after: usize, num_levels: usize) -> usize {
    match runs.get(first_after) {
        None => num_levels,
        Some(next) if next.level <= 1 => 1,
        Some(next) => next.level - 1,
    }
}

/// One input file's key range, for `is_trivial_move`.
pub type KeyRange<'a> = (&'a [u8], &'a [u8]);

/// Whether a picked merge moves its files instead of rewriting them (`allow_trivial_move`, as
/// 7.8's `IsInputFilesNonOverlapping` and `Compaction::IsTrivialMove` decide): never into L0 or
/// within one level, from L0 only when every L0 file of the tree (`level1_files`) is disjoint
/// from the others, and only when no two input files (`inputs`) overlap.
pub fn is_trivial_move(
    options: &UniversalConfig,
    start_level: usize,
    output_level: usize,
    inputs: &[KeyRange<'_>],
    level1_files: &[KeyRange<'_>],
) -> bool {
    let disjoint = |files: &[KeyRange<'_>]| {
        let mut sorted = files.to_vec();
        sorted.sort_by(|a, b| a.0.cmp(b.0));
        sorted.windows(2).all(|w| w[0].1 < w[1].0)
    };
    options.allow_trivial_move
        && output_level != 1
        && start_level != output_level
        && (start_level != 1 || disjoint(level1_files))
        && disjoint(inputs)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs newest first: `l0` files of level 1, then (level, bytes) of deeper levels.
    fn runs(l0: &[u64], deeper: &[(usize, u64)]) -> Vec<SortedRun> {
        l0.iter()
            .map(|&bytes| SortedRun { level: 1, bytes })
            .chain(deeper.iter().map(|&(level, bytes)| SortedRun { level, bytes }))
            .collect()
    }

    fn picked(p: Option<UniversalPick>) -> Option<(usize, usize, usize, PickReason)> {
        p.map(|p| (p.first, p.last, p.output_level, p.reason))
    }

    const N: usize = 7;

    #[test]
    fn fewer_runs_than_the_trigger_merge_nothing() {
        let o = UniversalConfig::default();
        assert_eq!(pick(&runs(&[10, 10, 10], &[]), &o, N), None);
        assert_eq!(pick(&[], &o, N), None);
    }

    #[test]
    fn four_equal_flushes_merge_whole_into_the_last_level_for_size_amplification() {
        // 10 + 10 + 10 = 30 newer bytes over an oldest run of 10: 300% ≥ 200%.
        let o = UniversalConfig::default();
        assert_eq!(picked(pick(&runs(&[10, 10, 10, 10], &[]), &o, N)), Some((0, 3, 7, PickReason::SizeAmplification)));
    }

    #[test]
    fn size_amplification_compares_the_newer_runs_with_the_oldest() {
        let o = UniversalConfig::default();
        // 40 newer bytes over an oldest run of 30: 133%, under 200%. Size ratio then takes every
        // run (10 → 20 → 30 → 40, and 40 · 1.01 ≥ 30), so the output is the last level anyway.
        let tree = runs(&[10, 10, 10, 10], &[(7, 30)]);
        assert_eq!(picked(pick(&tree, &o, N)), Some((0, 4, 7, PickReason::SizeRatio)));
        // 40 over 100: 40%; size ratio takes the four flushes (40.4 < 100) and writes them to L5
        // (engine level 6), above L6.
        assert_eq!(picked(pick(&runs(&[10, 10, 10, 10], &[(7, 100)]), &o, N)), Some((0, 3, 6, PickReason::SizeRatio)));
        // Exactly 200% is enough: 150 · 100 ≥ 200 · 75.
        assert_eq!(
            picked(pick(&runs(&[50, 50, 50], &[(7, 75)]), &o, N)),
            Some((0, 3, 7, PickReason::SizeAmplification))
        );
        // 149 · 100 < 200 · 75: not for size amplification (size ratio takes them all instead).
        assert_eq!(picked(pick(&runs(&[50, 50, 49], &[(7, 75)]), &o, N)), Some((0, 3, 7, PickReason::SizeRatio)));
        // max_size_amplification_percent 10: 40 over 1,000 is 4%, 40 over 300 is 13%.
        let tight = UniversalConfig { max_size_amplification_percent: 10, ..UniversalConfig::default() };
        assert_eq!(
            picked(pick(&runs(&[10, 10, 10, 10], &[(7, 1_000)]), &tight, N)).map(|p| p.3),
            Some(PickReason::SizeRatio)
        );
        assert_eq!(
            picked(pick(&runs(&[10, 10, 10, 10], &[(7, 300)]), &tight, N)),
            Some((0, 4, 7, PickReason::SizeAmplification))
        );
    }

    #[test]
    fn size_ratio_skips_newer_runs_that_start_no_stretch() {
        let o = UniversalConfig::default();
        // 1 then 10: 1.01 < 10 stops at once (1 run); from 10: 10 ≤ 10.1, then 20 ≤ 20.2, then
        // the L6 run of 1,000 > 40.4: runs 1..=3, written above L6 (to L5, engine level 6).
        let tree = runs(&[1, 10, 10, 20], &[(7, 1_000)]);
        assert_eq!(picked(pick(&tree, &o, N)), Some((1, 3, 6, PickReason::SizeRatio)));
    }

    #[test]
    fn the_output_goes_above_the_next_older_run_or_to_l0() {
        let o = UniversalConfig::default();
        // Two flushes of 5 then an L0 file of 100: the stretch ends before an L0 file, so the
        // output is one L0 file.
        let tree = runs(&[5, 5, 100, 100], &[(7, 10_000)]);
        assert_eq!(picked(pick(&tree, &o, N)), Some((0, 1, 1, PickReason::SizeRatio)));
        // A stretch ending before L3 (engine level 4) goes to L2 (engine level 3).
        let tree = runs(&[5, 5, 5], &[(4, 1_000), (7, 10_000)]);
        assert_eq!(picked(pick(&tree, &o, N)), Some((0, 2, 3, PickReason::SizeRatio)));
        // With 3 levels the last is engine level 3.
        assert_eq!(picked(pick(&runs(&[10, 10, 10, 10], &[]), &o, 3)).map(|p| p.2), Some(3));
    }

    #[test]
    fn size_ratio_percent_widens_what_counts_as_similar() {
        // 100 then 120: 100 · 1.01 < 120 stops; with size_ratio 20, 100 · 1.2 = 120 ≥ 120 joins.
        let tree = runs(&[100, 120, 1_000, 1_000], &[(7, 100_000)]);
        let tight = UniversalConfig::default();
        assert_eq!(picked(pick(&tree, &tight, N)), Some((2, 3, 6, PickReason::SizeRatio)));
        let loose = UniversalConfig { size_ratio: 20, ..UniversalConfig::default() };
        assert_eq!(picked(pick(&tree, &loose, N)), Some((0, 1, 1, PickReason::SizeRatio)));
    }

    #[test]
    fn merge_widths_bound_a_stretch() {
        let tree = runs(&[10, 10, 10, 10, 10], &[(7, 100_000)]);
        // max_merge_width 3: the first three flushes, into L0 (the next run is an L0 file).
        let narrow = UniversalConfig { max_merge_width: 3, ..UniversalConfig::default() };
        assert_eq!(picked(pick(&tree, &narrow, N)), Some((0, 2, 1, PickReason::SizeRatio)));
        // min_merge_width 6: no stretch of similar runs is wide enough, and the run-count rule
        // (6 runs over a trigger of 4: merge 3) is held to min_merge_width too: RocksDB declines.
        let wide = UniversalConfig { min_merge_width: 6, max_merge_width: 8, ..UniversalConfig::default() };
        assert_eq!(pick(&tree, &wide, N), None);
        // Nine runs each larger than all newer ones (none similar): 9 − 4 + 1 = 6 merge by count.
        let tree = runs(&[1, 3, 9, 27, 81, 243, 729, 2_187], &[(7, 1_000_000_000)]);
        assert_eq!(picked(pick(&tree, &wide, N)), Some((0, 5, 1, PickReason::SortedRunNum)));
    }

    #[test]
    fn too_many_runs_merge_regardless_of_size_down_to_the_trigger() {
        let o = UniversalConfig::default();
        // Each run is far larger than everything newer: no stretch by size; 5 runs > trigger 4:
        // merge 2 of them, the newest two, into the level above the next (L4 → L3).
        let tree = runs(&[1], &[(2, 100), (3, 10_000), (5, 1_000_000), (7, 100_000_000)]);
        assert_eq!(picked(pick(&tree, &o, N)), Some((0, 1, 2, PickReason::SortedRunNum)));
        // Exactly at the trigger nothing is merged (RocksDB's picker declines).
        assert_eq!(pick(&tree[1..], &o, N), None);
    }

    #[test]
    fn similar_size_stops_at_a_run_much_smaller_than_the_last_picked() {
        // Total size: 100, 100, 10 → 10 ≤ 202 joins. Similar size: 10 · 1.01 < 100 stops.
        let tree = runs(&[100, 100, 10, 10], &[(7, 100_000)]);
        let total = UniversalConfig::default();
        assert_eq!(picked(pick(&tree, &total, N)), Some((0, 3, 6, PickReason::SizeRatio)));
        let similar = UniversalConfig { stop_style: StopStyle::SimilarSize, ..UniversalConfig::default() };
        assert_eq!(picked(pick(&tree, &similar, N)), Some((0, 1, 1, PickReason::SizeRatio)));
        // And the next run must be similar to the last picked, not to the total: 100, 100, 150
        // stops at 150 (> 101) though the total, 200, would take it.
        let tree = runs(&[100, 100, 150], &[(7, 100_000)]);
        assert_eq!(picked(pick(&tree, &similar, N)), Some((0, 1, 1, PickReason::SizeRatio)));
        assert_eq!(picked(pick(&tree, &total, N)), Some((0, 2, 6, PickReason::SizeRatio)));
    }

    #[test]
    fn equal_flushes_replayed() {
        // Flushes of 1 on the default options, each followed by merges until the picker declines.
        let o = UniversalConfig::default();
        let mut tree: Vec<SortedRun> = Vec::new();
        let mut picks = Vec::new();
        for _ in 0..12 {
            tree.insert(0, SortedRun { level: 1, bytes: 1 });
            while let Some(p) = pick(&tree, &o, N) {
                let merged: u64 = tree[p.first..=p.last].iter().map(|r| r.bytes).sum();
                tree.splice(p.first..=p.last, [SortedRun { level: p.output_level, bytes: merged }]);
                picks.push((p.first, p.last, p.output_level, p.reason));
            }
        }
        use PickReason::*;
        // Flush 4: 1,1,1,1 → 300% size amplification → L6 = 4. Flush 7: 1,1,1 | 4 → 3.03 < 4,
        // size ratio → L5 = 3. Flush 9: 1,1 | 3 | 4 → L4 = 2. Flush 10: 1 | 2 | 3 | 4, no stretch
        // and exactly the trigger: nothing. Flush 11: 1,1,2,3,4 → one stretch of all → L6 = 11.
        assert_eq!(
            picks,
            vec![(0, 3, 7, SizeAmplification), (0, 2, 6, SizeRatio), (0, 1, 5, SizeRatio), (0, 4, 7, SizeRatio)]
        );
        assert_eq!(tree, runs(&[1], &[(7, 11)]));
    }

    #[test]
    fn trivial_moves_need_disjoint_inputs_and_not_l0_as_output() {
        let on = UniversalConfig { allow_trivial_move: true, ..UniversalConfig::default() };
        let a: KeyRange<'_> = (b"a", b"c");
        let b: KeyRange<'_> = (b"d", b"f");
        let overlapping: KeyRange<'_> = (b"c", b"e");
        assert!(is_trivial_move(&on, 2, 7, &[a, b], &[]));
        assert!(!is_trivial_move(&on, 2, 7, &[a, overlapping], &[]));
        assert!(!is_trivial_move(&UniversalConfig::default(), 2, 7, &[a, b], &[]));
        // From L0: only if every L0 file of the tree is disjoint from the others.
        assert!(is_trivial_move(&on, 1, 7, &[a, b], &[a, b]));
        assert!(!is_trivial_move(&on, 1, 7, &[a, b], &[a, b, overlapping]));
        // Never into L0, never within a level.
        assert!(!is_trivial_move(&on, 1, 1, &[a, b], &[a, b]));
        assert!(!is_trivial_move(&on, 7, 7, &[a, b], &[]));
    }

    #[test]
    fn options_are_validated_with_the_field_and_range() {
        assert_eq!(UniversalConfig::default().validate(), Ok(()));
        let e = UniversalConfig { min_merge_width: 1, ..UniversalConfig::default() }.validate().unwrap_err();
        assert_eq!(e.to_string(), "compaction.universal.min_merge_width: must be an integer in [2, 4294967295], got 1");
        let e = UniversalConfig { min_merge_width: 5, max_merge_width: 4, ..UniversalConfig::default() }
            .validate()
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("compaction.universal.max_merge_width: must be at least min_merge_width (5)"), "{e}");
        let e = UniversalConfig { level0_file_num_compaction_trigger: 0, ..UniversalConfig::default() }
            .validate()
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("compaction.universal.level0_file_num_compaction_trigger: must be an integer in [1, 1000]")
        );
        let e = UniversalConfig { size_ratio: 2_000_000, ..UniversalConfig::default() }.validate().unwrap_err();
        assert!(e.to_string().starts_with("compaction.universal.size_ratio"), "{e}");
    }

    #[test]
    fn json_omits_nothing_and_fills_rocksdb_defaults() {
        let parsed: UniversalConfig = serde_json::from_str("{}").unwrap();
        assert_eq!(parsed, UniversalConfig::default());
        let parsed: UniversalConfig =
            serde_json::from_str(r#"{"stop_style": "similar_size", "size_ratio": 10}"#).unwrap();
        assert_eq!(
            (parsed.stop_style, parsed.size_ratio, parsed.max_merge_width),
            (StopStyle::SimilarSize, 10, u32::MAX)
        );
        assert!(serde_json::from_str::<UniversalConfig>(r#"{"sizeratio": 1}"#).is_err());
    }
}

//! Merge policy: a pure function of the tree shape and the config that says what to merge next.
//!
//! Each level i has a capacity `cap_i = buffer × T_1 × … × T_i` bytes, at most `K_i` runs, and
//! runs of capacity `cap_i / K_i`. Data arrives at level i in units of `cap_{i−1}` (a full level
//! above, or the buffer for level 1). This is Moose's "active run" scheme, which has leveling
//! (K = 1), tiering (K = T−1 or T) and every per-level mix as special cases:
//!
//! * an arrival is merged into the level's newest run if that run still has room, otherwise it
//!   becomes a new run (a run never grows past its capacity by more than a quarter unit);
//! * a level that holds more than K runs, or is full to within a quarter unit, is merged as a
//!   whole into the next level (into that level's newest run if it has room).
//!
//! The quarter-unit tolerance absorbs the few bytes a flush falls short of the buffer size, so
//! a leveled level really merges after T arrivals and not T+1.

use crate::config::{EngineConfig, FilePick, Granularity};

/// Sizes, in entry bytes, of the runs of each level (index 0 = level 1), newest run first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Shape {
    /// `levels[i]` lists the sizes of level i+1's runs, newest first; an empty list is an empty level.
    pub levels: Vec<Vec<u64>>,
}

/// One table as the file-granular policy sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct TableShape {
    /// The table's id; a `FilePlan` names tables by it.
    pub id: u64,
    /// Entry bytes (key + value lengths) it holds, the unit level capacities are in.
    pub bytes: u64,
    /// Smallest key the table holds.
    pub min_key: Vec<u8>,
    /// Largest key the table holds.
    pub max_key: Vec<u8>,
}

/// Where a flushed buffer goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlushPlan {
    /// Write the buffer as a new run at the top of level 1.
    NewRun,
    /// Merge the buffer into level 1's newest run.
    IntoNewestRun,
}

/// A merge of every run of `level` into `level + 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MergePlan {
    /// Source level (1-based); all its runs are inputs.
    pub level: usize,
    /// Whether the destination's newest run joins the merge (it has room for the arrival).
    pub into_newest_run: bool,
}

/// A merge by file: `tables` of `level` with the `overlapping` tables of `level + 1`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FilePlan {
    /// Source level (1-based): `tables` are in it, `overlapping` in `level + 1`.
    pub level: usize,
    /// Ids of the source level's tables to merge (at level 1, every flushed file).
    pub tables: Vec<u64>,
    /// Ids of the tables of `level + 1` whose key ranges meet the inputs'; the merge rewrites them.
    pub overlapping: Vec<u64>,
    /// The new round-robin cursor of `level` (the largest key merged), if it moves.
    pub cursor: Option<Vec<u8>>,
    /// The single input overlaps nothing below: it moves down as it is, nothing is rewritten.
    pub trivial_move: bool,
}

/// Geometry of one level derived from the config.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LevelGeometry {
    /// Bytes the level holds when full (infinite for level 1 with merges by file: it is bounded
    /// by its run count, like LevelDB's level 0).
    pub capacity: f64,
    /// Bytes of one arrival (the capacity of the level above, or the buffer).
    pub unit: f64,
    /// Runs the level may hold before it is merged down (its `LevelConfig::max_runs`).
    pub max_runs: u32,
    /// Bytes one run may hold: `capacity / max_runs` (with merges by file, `capacity`).
    pub run_capacity: f64,
}

/// The geometry of `level` (1-based). Multiplies the size ratios above it each call; use
/// `geometries` to walk every level.
pub fn geometry(config: &EngineConfig, level: usize) -> LevelGeometry {
    let mut scale = config.buffer_bytes as f64;
    for i in 1..level {
        scale *= config.level(i).size_ratio;
    }
    geometry_at(config, level, scale)
}

/// Every level's geometry, level 1 first: `geometry` without recomputing the product of the size
/// ratios above each level (the policy asks after every flush).
pub fn geometries(config: &EngineConfig) -> impl Iterator<Item = LevelGeometry> + '_ {
    let mut scale = config.buffer_bytes as f64;
    (1..).map(move |level| {
        let g = geometry_at(config, level, scale);
        scale *= config.level(level).size_ratio;
        g
    })
}

/// The geometry of `level`, given `scale`: the buffer times the size ratios of the levels above.
fn geometry_at(config: &EngineConfig, level: usize, scale: f64) -> LevelGeometry {
    let lc = config.level(level);
    if config.compaction.granularity == Granularity::File {
        // Level 1 holds flushed files; its size ratio sets level 2's capacity (LevelDB's L1).
        let capacity = if level == 1 { f64::INFINITY } else { scale };
        return LevelGeometry {
            capacity,
            unit: config.buffer_bytes as f64,
            max_runs: lc.max_runs,
            run_capacity: capacity,
        };
    }
    let unit = scale;
    let capacity = unit * lc.size_ratio;
    LevelGeometry { capacity, unit, max_runs: lc.max_runs, run_capacity: capacity / f64::from(lc.max_runs) }
}

fn can_absorb(g: &LevelGeometry, newest_run: Option<u64>, arrival: u64) -> bool {
    match newest_run {
        Some(size) => (size + arrival) as f64 <= g.run_capacity + g.unit / 4.0,
        None => false,
    }
}

/// Where to put a buffer of `buffer_bytes` that must be flushed.
pub fn choose_flush(shape: &Shape, config: &EngineConfig, buffer_bytes: u64) -> FlushPlan {
    if config.compaction.granularity == Granularity::File {
        return FlushPlan::NewRun;
    }
    let g = geometry(config, 1);
    let newest = shape.levels.first().and_then(|l| l.first().copied());
    if can_absorb(&g, newest, buffer_bytes) { FlushPlan::IntoNewestRun } else { FlushPlan::NewRun }
}

/// The next whole-level merge the shape needs, smallest level first; `None` when every level is
/// within its limits.
pub fn choose(shape: &Shape, config: &EngineConfig) -> Option<MergePlan> {
    let mut geometries = geometries(config).peekable();
    for (idx, runs) in shape.levels.iter().enumerate() {
        let level = idx + 1;
        let g = geometries.next()?;
        if runs.is_empty() {
            continue;
        }
        let total: u64 = runs.iter().sum();
        let too_many_runs = runs.len() > g.max_runs as usize;
        let full = total as f64 >= g.capacity - g.unit / 4.0;
        if too_many_runs || full {
            let next = geometries.peek().copied().unwrap_or_else(|| geometry(config, level + 1));
            let newest_below = shape.levels.get(level).and_then(|l| l.first().copied());
            return Some(MergePlan { level, into_newest_run: can_absorb(&next, newest_below, total) });
        }
    }
    None
}

fn overlapping(tables: &[TableShape], lo: &[u8], hi: &[u8]) -> Vec<u64> {
    tables.iter().filter(|t| t.max_key.as_slice() >= lo && t.min_key.as_slice() <= hi).map(|t| t.id).collect()
}

/// Merges that take more than this many files' bytes are not widened by `expand`, and a file
/// that overlaps more than this many files' bytes two levels down is not moved trivially
/// (LevelDB's 25 × max_file_size; RocksDB's default `max_compaction_bytes`, 25 ×
/// `target_file_size_base`).
const EXPANDED_MERGE_FILES: u64 = 25;

fn overlap_bytes(tables: &[TableShape], lo: &[u8], hi: &[u8]) -> u64 {
    tables.iter().filter(|t| t.max_key.as_slice() >= lo && t.min_key.as_slice() <= hi).map(|t| t.bytes).sum()
}

/// RocksDB's `kMinOverlappingRatio`: the file of `tables` whose overlap below, per byte of its
/// own, is smallest (the first such file in key order on a tie; RocksDB scores in units of
/// 1/1024 with integer division, kept here so ties fall alike).
fn min_overlapping_ratio<'a>(tables: &'a [TableShape], below: &[TableShape]) -> Option<&'a TableShape> {
    tables.iter().min_by_key(|t| overlap_bytes(below, &t.min_key, &t.max_key).saturating_mul(1024) / t.bytes.max(1))
}

/// LevelDB's widening of a merge: the files below are rewritten whole, so files of the source
/// level that fall inside their range can join for free — as long as they pull in no further
/// file below and the merge stays under `EXPANDED_MERGE_FILES` files' bytes. Returns the wider
/// inputs and the (unchanged) files below, or None.
fn expand<'a>(
    level: &'a [TableShape],
    below: &[TableShape],
    inputs: &[&'a TableShape],
    under: &[u64],
    config: &EngineConfig,
) -> Option<(Vec<&'a TableShape>, Vec<u64>)> {
    let under_tables: Vec<&TableShape> = below.iter().filter(|t| under.contains(&t.id)).collect();
    if under_tables.is_empty() {
        return None;
    }
    let lo = inputs.iter().chain(&under_tables).map(|t| t.min_key.as_slice()).min()?;
    let hi = inputs.iter().chain(&under_tables).map(|t| t.max_key.as_slice()).max()?;
    let wider: Vec<&TableShape> =
        level.iter().filter(|t| t.max_key.as_slice() >= lo && t.min_key.as_slice() <= hi).collect();
    let bytes = |ts: &[&TableShape]| ts.iter().map(|t| t.bytes).sum::<u64>();
    let limit = EXPANDED_MERGE_FILES.saturating_mul(config.compaction.target_file_bytes);
    if wider.len() <= inputs.len() || bytes(&wider) + bytes(&under_tables) >= limit {
        return None;
    }
    let new_lo = wider.iter().map(|t| t.min_key.as_slice()).min()?;
    let new_hi = wider.iter().map(|t| t.max_key.as_slice()).max()?;
    let new_under = overlapping(below, new_lo, new_hi);
    (new_under.len() == under.len()).then_some((wider, new_under))
}

/// The next merge by file (LevelDB-style), smallest level first. `levels[i]` lists the tables of
/// level i+1: for level 1 every flushed file, for deeper levels the tables of their single run
/// in key order. `cursors[i]` is level i+1's round-robin position.
pub fn choose_file(
    levels: &[Vec<TableShape>],
    runs_in_level_1: usize,
    cursors: &[Option<Vec<u8>>],
    config: &EngineConfig,
) -> Option<FilePlan> {
    let below = |level: usize| levels.get(level).map_or(&[][..], Vec::as_slice);
    if let Some(l0) = levels.first().filter(|l| !l.is_empty() && runs_in_level_1 > config.level(1).max_runs as usize) {
        let lo = l0.iter().map(|t| t.min_key.as_slice()).min().unwrap_or(&[]);
        let hi = l0.iter().map(|t| t.max_key.as_slice()).max().unwrap_or(&[]);
        return Some(FilePlan {
            level: 1,
            tables: l0.iter().map(|t| t.id).collect(),
            overlapping: overlapping(below(1), lo, hi),
            cursor: None,
            trivial_move: false,
        });
    }
    for (idx, tables) in levels.iter().enumerate().skip(1) {
        let level = idx + 1;
        let total: u64 = tables.iter().map(|t| t.bytes).sum();
        if tables.is_empty() || (total as f64) <= geometry(config, level).capacity {
            continue;
        }
        let pick = match config.compaction.pick {
            // Round robin, as LevelDB does: the first table that ends past the cursor (one that
            // straddles it is next), wrapping around to the first.
            FilePick::RoundRobin => {
                let cursor = cursors.get(idx).and_then(|c| c.as_deref());
                cursor.and_then(|c| tables.iter().find(|t| t.max_key.as_slice() > c)).unwrap_or(&tables[0])
            }
            FilePick::MinOverlappingRatio => min_overlapping_ratio(tables, below(level)).unwrap_or(&tables[0]),
        };
        let mut inputs = vec![pick];
        let mut under = overlapping(below(level), &pick.min_key, &pick.max_key);
        let cursor = match config.compaction.pick {
            FilePick::RoundRobin => Some(pick.max_key.clone()),
            FilePick::MinOverlappingRatio => None,
        };
        let limit = EXPANDED_MERGE_FILES.saturating_mul(config.compaction.target_file_bytes);
        if config.compaction.trivial_moves
            && under.is_empty()
            && overlap_bytes(below(level + 1), &pick.min_key, &pick.max_key) <= limit
        {
            return Some(FilePlan { level, tables: vec![pick.id], overlapping: Vec::new(), cursor, trivial_move: true });
        }
        if let Some((more, same_under)) = expand(tables, below(level), &inputs, &under, config) {
            inputs = more;
            under = same_under;
        }
        let cursor = cursor.and(inputs.iter().map(|t| t.max_key.clone()).max());
        return Some(FilePlan {
            level,
            tables: inputs.iter().map(|t| t.id).collect(),
            overlapping: under,
            cursor,
            trivial_move: false,
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Allocation, LevelConfig};

    fn config(levels: &[(f64, u32)]) -> EngineConfig {
        let mut c = EngineConfig::uniform_shape(10.0, 1, Allocation::Uniform, 10.0);
        c.buffer_bytes = 100;
        c.levels =
            levels.iter().map(|&(t, k)| LevelConfig { size_ratio: t, max_runs: k, bits_per_key: None }).collect();
        c
    }

    /// Drive the policy with flushes of `flush` bytes (no key overlap, so merges keep sizes),
    /// returning the shape after `flushes` flushes.
    fn simulate(c: &EngineConfig, flushes: usize, flush: u64) -> Shape {
        let mut s = Shape::default();
        for _ in 0..flushes {
            if s.levels.is_empty() {
                s.levels.push(Vec::new());
            }
            match choose_flush(&s, c, flush) {
                FlushPlan::NewRun => s.levels[0].insert(0, flush),
                FlushPlan::IntoNewestRun => s.levels[0][0] += flush,
            }
            while let Some(p) = choose(&s, c) {
                let total: u64 = s.levels[p.level - 1].drain(..).sum();
                if s.levels.len() <= p.level {
                    s.levels.push(Vec::new());
                }
                let dst = &mut s.levels[p.level];
                if p.into_newest_run { dst[0] += total } else { dst.insert(0, total) }
            }
        }
        s
    }

    #[test]
    fn leveling_merges_after_t_arrivals() {
        let c = config(&[(10.0, 1)]);
        // 9 flushes stay in level 1 as one run; the 10th pushes it to level 2.
        assert_eq!(simulate(&c, 9, 99).levels, vec![vec![891]]);
        assert_eq!(simulate(&c, 10, 99).levels, vec![vec![], vec![990]]);
        assert_eq!(simulate(&c, 23, 99).levels, vec![vec![297], vec![1980]]);
        // 100 flushes fill level 2: everything lands in level 3.
        assert_eq!(simulate(&c, 100, 99).levels, vec![vec![], vec![], vec![9900]]);
    }

    #[test]
    fn tiering_keeps_t_minus_1_runs_with_either_convention() {
        for k in [9, 10] {
            let c = config(&[(10.0, k)]);
            assert_eq!(simulate(&c, 9, 99).levels, vec![vec![99; 9]], "K={k}");
            assert_eq!(simulate(&c, 10, 99).levels, vec![vec![], vec![990]], "K={k}");
            assert_eq!(simulate(&c, 35, 99).levels, vec![vec![99; 5], vec![990; 3]], "K={k}");
        }
    }

    #[test]
    fn geometries_step_through_the_levels_as_geometry_computes_each() {
        for granularity in [Granularity::Level, Granularity::File] {
            let mut c = config(&[(3.0, 2), (7.0, 1), (10.0, 4)]);
            c.compaction.granularity = granularity;
            let stepped: Vec<LevelGeometry> = geometries(&c).take(6).collect();
            let each: Vec<LevelGeometry> = (1..=6).map(|l| geometry(&c, l)).collect();
            assert_eq!(stepped, each, "{granularity:?}");
        }
        // Level 3 of a level-granular tree: arrivals of 100 × 3 × 7 bytes, 10 of them when full.
        let g = geometry(&config(&[(3.0, 2), (7.0, 1), (10.0, 4)]), 3);
        assert_eq!((g.unit, g.capacity, g.max_runs), (2100.0, 21000.0, 4));
    }

    #[test]
    fn lazy_leveling_tiers_inner_levels_and_levels_the_last() {
        let c = config(&[(4.0, 3), (4.0, 3), (4.0, 1)]);
        let s = simulate(&c, 4 * 4 * 3 + 1, 100);
        assert_eq!(s.levels, vec![vec![100], vec![], vec![4800]]);
    }

    #[test]
    fn moose_layout_with_fractional_run_magnification() {
        // Moose Fig. 1: n = {4,3,2}, r = {4,6,3}: run capacities {1, 8, 36} buffers.
        let c = config(&[(4.0, 4), (6.0, 3), (3.0, 2)]);
        let s = simulate(&c, 4 * 6, 100);
        assert_eq!(s.levels, vec![vec![], vec![], vec![2400]]);
        let s = simulate(&c, 4 * 6 * 2 + 4 * 3, 100);
        assert_eq!(s.levels, vec![vec![], vec![400, 800], vec![2400, 2400]]);
    }

    #[test]
    fn flush_into_full_leveled_run_starts_new_run_then_merges_down() {
        let c = config(&[(3.0, 1)]);
        let s = Shape { levels: vec![vec![300]] };
        assert_eq!(choose_flush(&s, &c, 100), FlushPlan::NewRun);
        assert_eq!(choose(&s, &c), Some(MergePlan { level: 1, into_newest_run: false }));
    }
}

#[cfg(test)]
mod file_tests {
    use super::*;
    use crate::config::{Allocation, CompactionConfig, LevelConfig};

    fn t(id: u64, bytes: u64, lo: u8, hi: u8) -> TableShape {
        TableShape { id, bytes, min_key: vec![lo], max_key: vec![hi] }
    }

    fn leveldb() -> EngineConfig {
        let mut c = EngineConfig::uniform_shape(10.0, 1, Allocation::Uniform, 10.0);
        c.buffer_bytes = 100;
        c.compaction = CompactionConfig { granularity: Granularity::File, target_file_bytes: 100, ..CompactionConfig::default() };
        c.levels = vec![
            LevelConfig { size_ratio: 2.5, max_runs: 3, bits_per_key: None },
            LevelConfig { size_ratio: 10.0, max_runs: 1, bits_per_key: None },
        ];
        c
    }

    #[test]
    fn level_1_merges_all_its_files_into_the_overlap_below_once_it_has_too_many() {
        let c = leveldb();
        assert_eq!(geometry(&c, 2).capacity, 250.0);
        assert_eq!(geometry(&c, 3).capacity, 2500.0);
        let l0 = vec![t(1, 100, 10, 50), t(2, 100, 20, 60), t(3, 100, 30, 40)];
        let l1 = vec![t(4, 50, 0, 9), t(5, 50, 10, 30), t(6, 50, 31, 70), t(7, 50, 71, 99)];
        assert_eq!(choose_file(&[l0.clone(), l1.clone()], 3, &[], &c), None);
        let mut more = l0;
        more.push(t(8, 100, 55, 65));
        let plan = choose_file(&[more, l1], 4, &[], &c).unwrap();
        assert_eq!((plan.level, plan.tables, plan.overlapping), (1, vec![1, 2, 3, 8], vec![5, 6]));
    }

    #[test]
    fn deeper_levels_pick_one_file_round_robin() {
        let c = leveldb();
        let l1 = vec![t(4, 100, 0, 9), t(5, 100, 10, 30), t(6, 100, 31, 70)];
        let l2 = vec![t(9, 100, 0, 20), t(10, 100, 21, 50), t(11, 100, 51, 99)];
        let plan = choose_file(&[vec![], l1.clone(), l2.clone()], 0, &[], &c).unwrap();
        assert_eq!((plan.level, plan.tables.clone(), plan.overlapping.clone()), (2, vec![4], vec![9]));
        let cursors = vec![None, plan.cursor.clone()];
        let plan = choose_file(&[vec![], l1.clone(), l2.clone()], 0, &cursors, &c).unwrap();
        assert_eq!((plan.tables, plan.overlapping), (vec![5], vec![9, 10]));
        // A file that straddles the cursor is next (LevelDB: the first file ending past it).
        let cursors = vec![None, Some(vec![20])];
        assert_eq!(choose_file(&[vec![], l1.clone(), l2.clone()], 0, &cursors, &c).unwrap().tables, vec![5]);
        // Past the last file the cursor wraps to the first.
        let cursors = vec![None, Some(vec![70])];
        assert_eq!(choose_file(&[vec![], l1, l2], 0, &cursors, &c).unwrap().tables, vec![4]);
    }

    #[test]
    fn a_merge_widens_to_the_files_inside_the_range_it_rewrites_below() {
        let c = leveldb();
        // Level 2's files 4 and 5 both lie inside file 9 below: picking 4 takes 5 along, and the
        // cursor moves past both. File 6 would pull in file 10 too, so it stays.
        let l1 = vec![t(4, 100, 0, 9), t(5, 100, 10, 18), t(6, 100, 21, 40), t(7, 100, 60, 70)];
        let l2 = vec![t(9, 100, 0, 20), t(10, 100, 21, 50), t(11, 100, 51, 99)];
        let plan = choose_file(&[vec![], l1.clone(), l2.clone()], 0, &[], &c).unwrap();
        assert_eq!((plan.tables, plan.overlapping, plan.cursor), (vec![4, 5], vec![9], Some(vec![18])));
        // Not past 25 files' bytes (target 100 B each): wider inputs of 2,500 B are refused.
        let big = vec![t(4, 100, 0, 9), t(5, 2_400, 10, 18), t(6, 100, 21, 40)];
        let plan = choose_file(&[vec![], big, l2], 0, &[], &c).unwrap();
        assert_eq!(plan.tables, vec![4]);
    }

    fn rocksdb() -> EngineConfig {
        let mut c = leveldb();
        c.compaction.pick = FilePick::MinOverlappingRatio;
        c.compaction.trivial_moves = true;
        c
    }

    #[test]
    fn min_overlapping_ratio_takes_the_file_that_rewrites_least_below_per_byte() {
        let c = rocksdb();
        // Overlap below per byte: file 4 → 100/100, file 5 → 300/300 (ties at 1, the first
        // wins), file 6 → 100/200 = 0.5: file 6 goes, and no cursor is kept.
        let l1 = vec![t(4, 100, 0, 9), t(5, 300, 10, 30), t(6, 200, 40, 70)];
        let l2 = vec![t(9, 100, 0, 9), t(10, 200, 12, 20), t(12, 100, 25, 30), t(11, 100, 50, 99)];
        let plan = choose_file(&[vec![], l1.clone(), l2.clone()], 0, &[], &c).unwrap();
        assert_eq!((plan.tables, plan.overlapping, plan.cursor, plan.trivial_move), (vec![6], vec![11], None, false));
        // Round robin, on the same tree, starts at the first file.
        let mut rr = c.clone();
        rr.compaction.pick = FilePick::RoundRobin;
        assert_eq!(choose_file(&[vec![], l1, l2], 0, &[], &rr).unwrap().tables, vec![4]);
    }

    #[test]
    fn a_file_that_overlaps_nothing_below_moves_down_whole_and_goes_first() {
        let c = rocksdb();
        let l1 = vec![t(4, 100, 0, 9), t(5, 100, 31, 40), t(6, 100, 60, 70)];
        let l2 = vec![t(9, 100, 0, 20), t(11, 100, 51, 99)];
        let plan = choose_file(&[vec![], l1.clone(), l2.clone()], 0, &[], &c).unwrap();
        assert_eq!((plan.tables, plan.overlapping, plan.trivial_move), (vec![5], vec![], true));
        // Into an empty level every file moves.
        let plan = choose_file(&[vec![], l1.clone(), vec![]], 0, &[], &c).unwrap();
        assert_eq!((plan.tables, plan.trivial_move), (vec![4], true));
        // Without trivial moves the same file is rewritten (alone).
        let mut rewrite = c.clone();
        rewrite.compaction.trivial_moves = false;
        let plan = choose_file(&[vec![], l1.clone(), l2.clone()], 0, &[], &rewrite).unwrap();
        assert_eq!((plan.tables, plan.trivial_move), (vec![5], false));
        // A file that would overlap more than 25 target files' bytes two levels down is rewritten.
        let grandparents = vec![t(20, 2_600, 30, 45)];
        let plan = choose_file(&[vec![], l1, l2, grandparents], 0, &[], &c).unwrap();
        assert!(!plan.trivial_move);
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

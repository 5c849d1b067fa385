//! Merges by file, LevelDB's and RocksDB's leveled compaction: the due level with the highest
//! score merges one file (level 1: all its files) into the files of the next level it overlaps,
//! picked round robin or by RocksDB's minimum overlapping ratio, widened as LevelDB widens, or
//! moved down whole where it overlaps nothing below (a trivial move). With dynamic level bytes
//! the order and the targets are RocksDB's (`super::dynamic`).

use super::dynamic::{dynamic_levels, dynamic_scores};
use super::geometry::geometry;
use crate::config::{EngineConfig, FilePick};

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

/// A merge by file: `tables` of `level` with the `overlapping` tables of level `into`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FilePlan {
    /// Source level (1-based): `tables` are in it, `overlapping` in `into`.
    pub level: usize,
    /// Destination level: `level + 1`, except that with dynamic level bytes level 1 merges into
    /// the base level, over the empty levels between them.
    pub into: usize,
    /// Ids of the source level's tables to merge (at level 1, every flushed file).
    pub tables: Vec<u64>,
    /// Ids of the tables of `into` whose key ranges meet the inputs'; the merge rewrites them.
    pub overlapping: Vec<u64>,
    /// The new round-robin cursor of `level` (the largest key merged), if it moves.
    pub cursor: Option<Vec<u8>>,
    /// The inputs overlap nothing in `into` (nor each other): they move down as they are, nothing
    /// is rewritten.
    pub trivial_move: bool,
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
/// in key order. `cursors[i]` is level i+1's round-robin position. With
/// `compaction.dynamic_level_bytes`, RocksDB's order and targets instead (`choose_file_dynamic`).
pub fn choose_file(
    levels: &[Vec<TableShape>],
    runs_in_level_1: usize,
    cursors: &[Option<Vec<u8>>],
    config: &EngineConfig,
) -> Option<FilePlan> {
    if config.compaction.dynamic_level_bytes {
        return choose_file_dynamic(levels, runs_in_level_1, cursors, config);
    }
    // The due level with the highest score goes first, as in LevelDB's and RocksDB's pickers:
    // level 1 scored by its files against the trigger, deeper levels by bytes against capacity
    // (ties to the smaller level). Inline merging drains every due merge after each flush, so two
    // levels are due at once only while merges run beside the writes; there, level 1 always first
    // would let level 2 grow past its capacity for as long as flushes keep coming, and every
    // level-1 merge would rewrite all of it.
    let mut best: Option<(usize, f64)> = None;
    let level1_runs = config.level(1).max_runs as usize;
    if levels.first().is_some_and(|l| !l.is_empty() && runs_in_level_1 > level1_runs) {
        best = Some((1, runs_in_level_1 as f64 / (level1_runs + 1) as f64));
    }
    for (idx, tables) in levels.iter().enumerate().skip(1) {
        let level = idx + 1;
        let total: u64 = tables.iter().map(|t| t.bytes).sum();
        let capacity = geometry(config, level).capacity;
        if tables.is_empty() || (total as f64) <= capacity {
            continue;
        }
        let score = total as f64 / capacity;
        if best.is_none_or(|(_, top)| score > top) {
            best = Some((level, score));
        }
    }
    match best? {
        (1, _) => level1_plan(levels, 2, false, config),
        (level, _) => level_plan(levels, level, cursors, config),
    }
}

/// Level 1's merge into level `into`: every flushed file, with the files of `into` they overlap.
/// With `l0_moves`, files that overlap neither each other nor anything in `into` move down
/// whole (RocksDB's `Compaction::IsTrivialMove` from L0, which needs L0's files disjoint).
fn level1_plan(levels: &[Vec<TableShape>], into: usize, l0_moves: bool, config: &EngineConfig) -> Option<FilePlan> {
    let l0 = levels.first().filter(|l| !l.is_empty())?;
    let below = |level: usize| levels.get(level - 1).map_or(&[][..], Vec::as_slice);
    let lo = l0.iter().map(|t| t.min_key.as_slice()).min().unwrap_or(&[]);
    let hi = l0.iter().map(|t| t.max_key.as_slice()).max().unwrap_or(&[]);
    let overlapping = overlapping(below(into), lo, hi);
    let limit = EXPANDED_MERGE_FILES.saturating_mul(config.compaction.target_file_bytes);
    let mut sorted: Vec<&TableShape> = l0.iter().collect();
    sorted.sort_by(|a, b| a.min_key.cmp(&b.min_key));
    let disjoint = sorted.windows(2).all(|w| w[0].max_key < w[1].min_key);
    let trivial_move = l0_moves
        && config.compaction.trivial_moves
        && overlapping.is_empty()
        && disjoint
        && l0.iter().all(|t| overlap_bytes(below(into + 1), &t.min_key, &t.max_key) <= limit);
    Some(FilePlan {
        level: 1,
        into,
        tables: if trivial_move { sorted.iter().map(|t| t.id).collect() } else { l0.iter().map(|t| t.id).collect() },
        overlapping,
        cursor: None,
        trivial_move,
    })
}

/// The merge of one file of `level` (≥ 2, holding tables) into `level + 1`: the file `pick`
/// chooses, moved whole if it overlaps nothing below, otherwise widened by `expand`.
fn level_plan(
    levels: &[Vec<TableShape>],
    level: usize,
    cursors: &[Option<Vec<u8>>],
    config: &EngineConfig,
) -> Option<FilePlan> {
    let below = |level: usize| levels.get(level).map_or(&[][..], Vec::as_slice);
    let tables = levels.get(level - 1).filter(|t| !t.is_empty())?;
    let idx = level - 1;
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
    let movable = |t: &TableShape| overlap_bytes(below(level + 1), &t.min_key, &t.max_key) <= limit;
    if config.compaction.trivial_moves && under.is_empty() && movable(pick) {
        let tables = match config.compaction.pick {
            FilePick::RoundRobin => vec![pick.id],
            FilePick::MinOverlappingRatio => extend_trivial_move(tables, pick, below(level), limit, movable),
        };
        return Some(FilePlan { level, into: level + 1, tables, overlapping: Vec::new(), cursor, trivial_move: true });
    }
    if let Some((more, same_under)) = expand(tables, below(level), &inputs, &under, config) {
        inputs = more;
        under = same_under;
    }
    let cursor = cursor.and(inputs.iter().map(|t| t.max_key.clone()).max());
    Some(FilePlan {
        level,
        into: level + 1,
        tables: inputs.iter().map(|t| t.id).collect(),
        overlapping: under,
        cursor,
        trivial_move: false,
    })
}

/// Files RocksDB moves at once: `kMaxMultiTrivialMove` in its level picker.
const MAX_FILES_PER_TRIVIAL_MOVE: usize = 4;

/// RocksDB 7.8's `TryExtendNonL0TrivialMove`: a file picked to move whole takes the files after
/// it in key order along, while the range from the pick to the last one still overlaps nothing
/// below, up to 4 files and `max_compaction_bytes` (`limit`) in total. Moving 4 files where
/// one would bring the level under target leaves the level well under it: after a YCSB load
/// of 1M records RocksDB's L1 held 134 MB of its 256 MB target, and the next level-0 merge
/// rewrote that much less. Returns the ids to move, the pick first.
fn extend_trivial_move(
    tables: &[TableShape],
    pick: &TableShape,
    below: &[TableShape],
    limit: u64,
    movable: impl Fn(&TableShape) -> bool,
) -> Vec<u64> {
    let mut ids = vec![pick.id];
    let mut bytes = pick.bytes;
    let start = tables.iter().position(|t| t.id == pick.id).map_or(tables.len(), |i| i + 1);
    for next in &tables[start..] {
        bytes = bytes.saturating_add(next.bytes);
        if ids.len() >= MAX_FILES_PER_TRIVIAL_MOVE
            || overlap_bytes(below, &pick.min_key, &next.max_key) > 0
            || bytes > limit
            || !movable(next)
        {
            break;
        }
        ids.push(next.id);
    }
    ids
}

/// `choose_file` with dynamic level bytes: the level with the highest score at least 1 merges
/// (RocksDB's `LevelCompactionBuilder::SetupInitialFiles`), level 1 into the base level, any
/// other level one file into the level below.
fn choose_file_dynamic(
    levels: &[Vec<TableShape>],
    runs_in_level_1: usize,
    cursors: &[Option<Vec<u8>>],
    config: &EngineConfig,
) -> Option<FilePlan> {
    let bytes: Vec<u64> = levels.iter().map(|l| l.iter().map(|t| t.bytes).sum()).collect();
    let dynamic = dynamic_levels(&bytes, config);
    for (level, score) in dynamic_scores(&bytes, runs_in_level_1, &dynamic, config) {
        if score < 1.0 {
            break;
        }
        let plan = if level == 1 {
            level1_plan(levels, dynamic.base_level, true, config)
        } else {
            level_plan(levels, level, cursors, config)
        };
        if plan.is_some() {
            return plan;
        }
    }
    None
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::config::{Allocation, CompactionConfig, Granularity, LevelConfig};

    /// Table `id` of `bytes` over the one-byte keys `lo..=hi`.
    pub(in crate::compaction) fn t(id: u64, bytes: u64, lo: u8, hi: u8) -> TableShape {
        TableShape { id, bytes, min_key: vec![lo], max_key: vec![hi] }
    }

    /// Merges by file with LevelDB's rules: buffer and target files 100 B, level 1 of 3 runs and T = 2.5, then T = 10.
    pub(in crate::compaction) fn leveldb() -> EngineConfig {
        let mut c = EngineConfig::uniform_shape(10.0, 1, Allocation::Uniform, 10.0);
        c.buffer_bytes = 100;
        c.compaction =
            CompactionConfig { granularity: Granularity::File, target_file_bytes: 100, ..CompactionConfig::default() };
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
    fn the_due_level_with_the_highest_score_merges_first() {
        let c = leveldb();
        let l0 = vec![t(1, 100, 10, 50), t(2, 100, 20, 60), t(3, 100, 30, 40), t(8, 100, 55, 65)];
        // Level 1 holds 4 files against a trigger of 4 (score 1.0); level 2, 300 bytes against 250 (1.2).
        let l1 = vec![t(4, 100, 0, 9), t(5, 100, 10, 30), t(6, 100, 31, 70)];
        let plan = choose_file(&[l0.clone(), l1.clone()], 4, &[], &c).unwrap();
        assert_eq!((plan.level, plan.tables), (2, vec![4]));
        // With 6 files level 1 scores 1.5 and goes first.
        let mut more = l0;
        more.extend([t(12, 100, 70, 80), t(13, 100, 81, 90)]);
        let plan = choose_file(&[more, l1], 6, &[], &c).unwrap();
        assert_eq!(plan.level, 1);
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
        // Into an empty level the first file moves, and takes the files after it along.
        let plan = choose_file(&[vec![], l1.clone(), vec![]], 0, &[], &c).unwrap();
        assert_eq!((plan.tables, plan.trivial_move), (vec![4, 5, 6], true));
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
    fn a_trivial_move_takes_up_to_four_files_while_their_range_overlaps_nothing_below() {
        let c = rocksdb();
        let l1: Vec<TableShape> = (0..6).map(|i| t(10 + u64::from(i), 100, i * 10, i * 10 + 5)).collect();
        // Nothing below: the first file and the three after it (RocksDB's kMaxMultiTrivialMove).
        let plan = choose_file(&[vec![], l1.clone(), vec![]], 0, &[], &c).unwrap();
        assert_eq!((plan.tables, plan.trivial_move), (vec![10, 11, 12, 13], true));
        // A file below at 27 lies between the third and fourth files: the range from the pick to
        // the fourth would overlap it, so three move. (Files 12 and 13 overlap nothing, but the
        // extension stops at the first range that does.)
        let below = vec![t(30, 100, 27, 28)];
        let plan = choose_file(&[vec![], l1.clone(), below], 0, &[], &c).unwrap();
        assert_eq!((plan.tables, plan.trivial_move), (vec![10, 11, 12], true));
        // Not past 25 target files' bytes (target 100 B): the fourth file would make 2,600 B.
        let mut heavy = l1.clone();
        heavy[3].bytes = 2_300;
        let plan = choose_file(&[vec![], heavy, vec![]], 0, &[], &c).unwrap();
        assert_eq!(plan.tables, vec![10, 11, 12]);
        // LevelDB (round robin) moves one file at a time.
        let mut rr = c.clone();
        rr.compaction.pick = FilePick::RoundRobin;
        assert_eq!(choose_file(&[vec![], l1, vec![]], 0, &[], &rr).unwrap().tables, vec![10]);
    }
}

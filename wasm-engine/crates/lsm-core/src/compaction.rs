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
    // Universal compaction, too, keeps every flush as an L0 file of its own.
    if config.compaction.granularity == Granularity::File || config.compaction.universal.is_some() {
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

#[cfg(test)]
mod dynamic_tests {
    use super::*;
    use crate::config::{Allocation, CompactionConfig, LevelConfig};

    fn t(id: u64, bytes: u64, lo: u8, hi: u8) -> TableShape {
        TableShape { id, bytes, min_key: vec![lo], max_key: vec![hi] }
    }

    /// max_bytes_for_level_base 1,000 (buffer 100 × 10), multiplier 10, L0 trigger 4, L0..L6.
    fn dynamic() -> EngineConfig {
        let mut c = EngineConfig::uniform_shape(10.0, 1, Allocation::Uniform, 10.0);
        c.buffer_bytes = 100;
        c.compaction = CompactionConfig {
            granularity: Granularity::File,
            target_file_bytes: 100,
            trivial_moves: true,
            dynamic_level_bytes: true,
            ..CompactionConfig::default()
        };
        c.levels = vec![
            LevelConfig { size_ratio: 10.0, max_runs: 3, bits_per_key: None },
            LevelConfig { size_ratio: 10.0, max_runs: 1, bits_per_key: None },
        ];
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

//! A RocksDB-shaped tree replayed on sizes, file by file, with each file's key range: the
//! engine's own file policy (`compaction::choose_file`: level 0's trigger, min-overlapping-ratio
//! or round-robin picking, trivial moves, dynamic level bytes) decides every merge, applied to
//! files that carry only a key range and their entries by the flush that wrote them (a file's
//! *content*: which memtables its entries came from, so a lookup knows which file holds a key
//! written at a given time — after trivial moves, a level's files hold disjoint stretches of
//! time as well as of keys).
//!
//! Keys are hashed into the key space, so every file's entries are spread evenly over its key
//! range (positions in [0, 1)). A flushed file of n keys spans [1/(n+1), n/(n+1)], the expected
//! extremes of n uniform keys. A merge's output is cut into files of the target size at even
//! entry counts along the merged range's density; with `output_cuts: rocksdb` also where RocksDB
//! 7.8 cuts at the files two levels down (`rocksdb_cuts`), which lines a level's files up with
//! the level below and so decides how much later merges rewrite.
//!
//! With `compaction.universal` RocksDB 7.8's universal picker decides the merges instead
//! (`universal`: whole sorted runs merged, as the engine's `universal.rs` does).

use lsm_core::compaction::{FilePlan, TableShape, choose_file};
use lsm_core::config::{EngineConfig, OutputCuts};

use super::super::writes::WriteSequence;

mod universal;

/// One table: its key range (positions in [0, 1)), its entries, and its entries by the flush
/// (index into `FileTree::flushed`) that first wrote them, in flush order.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct File {
    pub(super) id: u64,
    pub(super) lo: f64,
    pub(super) hi: f64,
    pub(super) entries: f64,
    pub(super) content: Vec<(usize, f64)>,
    /// Where in its range each flush's entries lie: `content` by stretch of key space, each
    /// stretch even. A merge's output can hold a flush's entries in part of its range only (the
    /// rest of them went down earlier, or by a trivial move), so spreading them over the whole
    /// range would misplace them, and with them the next merge's cuts.
    pub(super) spans: Vec<Span>,
    /// The write at which the file was written: its blocks are not cached before it.
    pub(super) born: f64,
}

/// Entries of one flush lying evenly over `[lo, hi]` of a file's range.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Span {
    pub(super) flush: usize,
    pub(super) lo: f64,
    pub(super) hi: f64,
    pub(super) entries: f64,
}

/// The tree: `levels[0]` is level 1 (RocksDB's L0, newest file first), deeper levels in key order.
#[derive(Clone)]
pub(super) struct FileTree<'a> {
    config: &'a EngineConfig,
    writes: &'a WriteSequence,
    entry_bytes: f64,
    pub(super) levels: Vec<Vec<File>>,
    /// The write interval of every flush so far: a file's `content` indexes it.
    pub(super) flushed: Vec<(f64, f64)>,
    /// Entries per unit of key space of each flushed file: no merge holds more of that flush.
    flushed_density: Vec<f64>,
    cursors: Vec<Option<Vec<u8>>>,
    next_id: u64,
    /// The write of the flush being replayed: when the files it and its merges write are born.
    now: f64,
    /// Entries written by flushes and merges (trivial moves write nothing) since counting began.
    pub(super) entries_written: f64,
    /// Files written (flushes and merge outputs) since counting began.
    pub(super) files_written: f64,
    pub(super) flushes: u64,
    pub(super) merges: u64,
    pub(super) trivial_moves: u64,
}

/// A key position as the 8 big-endian bytes the policy compares.
fn key_of(position: f64) -> Vec<u8> {
    let scaled = (position.clamp(0.0, 1.0) * 18_446_744_073_709_551_615.0) as u64;
    scaled.to_be_bytes().to_vec()
}

/// The key one after `key` (8 big-endian bytes), or `key` at the end of the space.
fn next_key(key: Vec<u8>) -> Vec<u8> {
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&key[..8]);
    u64::from_be_bytes(bytes).saturating_add(1).to_be_bytes().to_vec()
}

impl<'a> FileTree<'a> {
    pub(super) fn new(config: &'a EngineConfig, writes: &'a WriteSequence, entry_bytes: f64) -> FileTree<'a> {
        FileTree {
            config,
            writes,
            entry_bytes,
            levels: vec![Vec::new()],
            flushed: Vec::new(),
            flushed_density: Vec::new(),
            cursors: Vec::new(),
            next_id: 1,
            now: 0.0,
            entries_written: 0.0,
            files_written: 0.0,
            flushes: 0,
            merges: 0,
            trivial_moves: 0,
        }
    }

    /// Restart the write counters (the load's writes are counted apart from the run's).
    pub(super) fn reset_counters(&mut self) {
        self.entries_written = 0.0;
        self.files_written = 0.0;
        self.flushes = 0;
        self.merges = 0;
        self.trivial_moves = 0;
    }

    fn id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// The memtable holding writes `[lo, hi)` becomes a level-0 file; then merge until the
    /// policy is satisfied.
    pub(super) fn flush(&mut self, lo: f64, hi: f64) {
        self.flush_held(lo, hi);
        self.maintain();
    }

    /// The memtable holding writes `[lo, hi)` becomes a level-0 file, and no merge runs yet: a
    /// flush whose compactions background work has not reached (`process`).
    pub(super) fn flush_held(&mut self, lo: f64, hi: f64) {
        let n = self.writes.keys_in(lo, hi);
        if n < 1.0 {
            return;
        }
        let id = self.id();
        self.now = hi;
        self.flushed.push((lo, hi));
        let flush = self.flushed.len() - 1;
        let (a, b) = (1.0 / (n + 1.0), n / (n + 1.0));
        let spans = vec![Span { flush, lo: a, hi: b, entries: n }];
        let file = File { id, lo: a, hi: b, entries: n, content: vec![(flush, n)], spans, born: hi };
        self.flushed_density.push(n / (file.hi - file.lo).max(1e-300));
        self.levels[0].insert(0, file);
        self.entries_written += n;
        self.files_written += 1.0;
        self.flushes += 1;
    }

    fn shapes(&self) -> Vec<Vec<TableShape>> {
        self.levels
            .iter()
            .map(|l| {
                l.iter()
                    .map(|f| TableShape {
                        id: f.id,
                        bytes: (f.entries * self.entry_bytes).round() as u64,
                        // Files next to each other share no key: the next starts one key later.
                        min_key: next_key(key_of(f.lo)),
                        max_key: key_of(f.hi),
                    })
                    .collect()
            })
            .collect()
    }

    /// Merge until the policy is satisfied.
    pub(super) fn maintain(&mut self) {
        if let Some(options) = &self.config.compaction.universal {
            self.maintain_universal(options);
            return;
        }
        // A policy that never settles would be a bug in it; bound the replay rather than hang.
        for _ in 0..100_000 {
            let Some(plan) = choose_file(&self.shapes(), self.levels[0].len(), &self.cursors, self.config) else {
                return;
            };
            self.apply(&plan);
        }
    }

    fn ensure_level(&mut self, level: usize) {
        while self.levels.len() < level {
            self.levels.push(Vec::new());
        }
        while self.cursors.len() < level {
            self.cursors.push(None);
        }
    }

    fn take(&mut self, level: usize, ids: &[u64]) -> Vec<File> {
        let (taken, kept): (Vec<File>, Vec<File>) =
            std::mem::take(&mut self.levels[level - 1]).into_iter().partition(|f| ids.contains(&f.id));
        self.levels[level - 1] = kept;
        taken
    }

    fn place(&mut self, level: usize, files: Vec<File>) {
        let l = &mut self.levels[level - 1];
        l.extend(files);
        l.sort_by(|a, b| a.lo.total_cmp(&b.lo));
    }

    fn apply(&mut self, plan: &FilePlan) {
        self.ensure_level(plan.into.max(plan.level));
        if let Some(c) = &plan.cursor {
            self.cursors[plan.level - 1] = Some(c.clone());
        }
        let moved = self.take(plan.level, &plan.tables);
        if plan.trivial_move {
            self.trivial_moves += moved.len() as u64;
            self.place(plan.into, moved);
            return;
        }
        let below = self.take(plan.into, &plan.overlapping);
        let grandparents: Vec<(f64, f64, f64)> = self
            .levels
            .get(plan.into)
            .into_iter()
            .flatten()
            .map(|f| (f.lo, f.hi, f.entries * self.entry_bytes))
            .collect();
        let bottommost = self.levels.iter().skip(plan.into).all(Vec::is_empty);
        let outputs = self.merge_outputs(&moved, &below, &grandparents, bottommost);
        self.merges += 1;
        self.entries_written += outputs.iter().map(|f| f.entries).sum::<f64>();
        self.files_written += outputs.len() as f64;
        self.place(plan.into, outputs);
    }

    /// The files a merge writes: per stretch of key space, each flush's entries per unit of key
    /// space summed over the inputs' spans covering it (at most what the flush wrote there),
    /// cut every target file's entries.
    fn merge_outputs(
        &mut self,
        newer: &[File],
        older: &[File],
        grandparents: &[(f64, f64, f64)],
        bottommost: bool,
    ) -> Vec<File> {
        let inputs: Vec<&File> = newer.iter().chain(older).collect();
        let spans: Vec<&Span> = inputs.iter().flat_map(|f| &f.spans).collect();
        let mut edges: Vec<f64> = spans.iter().flat_map(|s| [s.lo, s.hi]).collect();
        edges.sort_by(f64::total_cmp);
        edges.dedup();
        let stretches: Vec<Stretch> = edges
            .windows(2)
            .filter(|w| w[1] > w[0])
            .map(|w| {
                let (a, b) = (w[0], w[1]);
                let mut density: Vec<(usize, f64)> = Vec::new();
                for s in spans.iter().filter(|s| s.lo <= a && s.hi >= b) {
                    let d = s.entries / (s.hi - s.lo).max(1e-300);
                    match density.iter_mut().find(|(j, _)| *j == s.flush) {
                        Some((_, x)) => *x += d,
                        None => density.push((s.flush, d)),
                    }
                }
                for (k, d) in &mut density {
                    *d = d.min(self.flushed_density[*k]);
                }
                density.sort_by_key(|x| x.0);
                (a, b, density)
            })
            .filter(|s| !s.2.is_empty())
            .collect();
        let curve = Cumulative::new(stretches.iter().map(|(a, b, d)| (*a, *b, d.iter().map(|x| x.1).sum())).collect());
        let target = self.config.compaction.target_file_bytes as f64;
        let cuts = match self.config.compaction.output_cuts {
            OutputCuts::Rocksdb => rocksdb_cuts(&curve, self.entry_bytes, target, grandparents, bottommost),
            OutputCuts::Leveldb => size_cuts(&curve, target / self.entry_bytes),
        };
        let cuts = without_slivers(&curve, cuts);
        let mut outputs = Vec::with_capacity(cuts.len() + 1);
        let mut i = 0;
        let mut pos = curve.start();
        for end in cuts.into_iter().chain(std::iter::once(f64::INFINITY)) {
            let start = pos;
            let mut content: Vec<(usize, f64)> = Vec::new();
            let mut spans: Vec<Span> = Vec::new();
            while let Some((a, b, d)) = stretches.get(i) {
                if end <= *a {
                    break;
                }
                let from = pos.max(*a);
                let to = b.min(end);
                for &(j, dj) in d {
                    let e = dj * (to - from);
                    match content.iter_mut().find(|(c, _)| *c == j) {
                        Some((_, x)) => *x += e,
                        None => content.push((j, e)),
                    }
                    extend_spans(&mut spans, Span { flush: j, lo: from, hi: to, entries: e });
                }
                pos = to;
                if end < *b {
                    break;
                }
                i += 1;
            }
            let entries: f64 = content.iter().map(|x| x.1).sum();
            content.sort_by_key(|x| x.0);
            let id = self.id();
            outputs.push(File { id, lo: start, hi: pos, entries, content, spans, born: self.now });
        }
        outputs.retain(|f| f.entries > 0.0);
        outputs
    }
}

/// Add `next` to a file's spans: it extends the flush's last span if it continues it at the
/// same density (within 1%), else it is a span of its own.
fn extend_spans(spans: &mut Vec<Span>, next: Span) {
    let density = |s: &Span| s.entries / (s.hi - s.lo).max(1e-300);
    if let Some(last) = spans.iter_mut().rev().find(|s| s.flush == next.flush)
        && last.hi == next.lo
        && (density(last) - density(&next)).abs() <= 0.01 * density(&next)
    {
        last.hi = next.hi;
        last.entries += next.entries;
        return;
    }
    spans.push(next);
}

/// A stretch of key space `(from, to, entries per unit of key space by flush)` a merge covers.
type Stretch = (f64, f64, Vec<(usize, f64)>);

/// Entries of a merge's output from its start up to a key position: stretches `(a, b, entries
/// per unit of key space)` in key order, gaps between them empty.
struct Cumulative {
    stretches: Vec<(f64, f64, f64)>,
    before: Vec<f64>,
}

impl Cumulative {
    fn new(stretches: Vec<(f64, f64, f64)>) -> Cumulative {
        let before = stretches
            .iter()
            .scan(0.0, |acc, (a, b, d)| {
                let here = *acc;
                *acc += (b - a) * d;
                Some(here)
            })
            .collect();
        Cumulative { stretches, before }
    }

    fn start(&self) -> f64 {
        self.stretches.first().map_or(0.0, |s| s.0)
    }

    fn end(&self) -> f64 {
        self.stretches.last().map_or(0.0, |s| s.1)
    }

    /// Entries before position `x`.
    fn at(&self, x: f64) -> f64 {
        let i = self.stretches.partition_point(|s| s.0 <= x);
        if i == 0 {
            return 0.0;
        }
        let (a, b, d) = self.stretches[i - 1];
        self.before[i - 1] + (x.min(b) - a) * d
    }

    /// The position before which `entries` entries lie (the end if fewer do).
    fn position_of(&self, entries: f64) -> f64 {
        let i = self.before.partition_point(|&e| e <= entries);
        if i == 0 {
            return self.start();
        }
        let (a, b, d) = self.stretches[i - 1];
        (a + (entries - self.before[i - 1]) / d.max(1e-300)).min(b)
    }
}

/// `cuts` without those that would make a file of less than one entry (a remainder left by
/// sizes that divide evenly, on sizes only): a real merge writes no such file, and a sliver in
/// the level below would look to later merges like a whole file their outputs skip.
fn without_slivers(curve: &Cumulative, cuts: Vec<f64>) -> Vec<f64> {
    let end = curve.at(curve.end());
    let mut kept: Vec<f64> = Vec::with_capacity(cuts.len());
    let mut last = 0.0;
    for c in cuts {
        let at = curve.at(c);
        if at - last >= 1.0 && end - at >= 1.0 {
            kept.push(c);
            last = at;
        }
    }
    kept
}

/// Cuts every `per_file` entries (the last file takes the rest).
fn size_cuts(curve: &Cumulative, per_file: f64) -> Vec<f64> {
    let total = curve.at(curve.end());
    let files = (total / per_file.max(1.0)).ceil().max(1.0) as usize;
    (1..files).map(|k| curve.position_of(k as f64 * per_file)).collect()
}

/// RocksDB 7.8's cuts with `level_compaction_dynamic_file_size` (`OutputCuts::Rocksdb`, the
/// engine's `Grandparents` rule), on sizes: a file above the bottom level grows to at most twice
/// the target (the target at the bottom); at each boundary of a file two levels down
/// (`grandparents`: key range and bytes) it is cut once it and the bytes it overlaps there pass
/// 25 targets, or once it has reached 50% of the target plus 5% per boundary crossed (at most
/// 90%). RocksDB decides once per key, after counting every boundary between the previous key
/// and this one: where one grandparent file ends and the next begins (adjacent files, the usual
/// case) the output has crossed two boundaries before the size is compared, not one, so the
/// boundaries within one key of each other are taken together here. When such a step also
/// passes a whole grandparent file (2 boundaries from a gap, 3 from inside a file) that holds
/// more than 1/8 of the target, the output is cut there (RocksDB's skippable-file rule).
fn rocksdb_cuts(
    curve: &Cumulative,
    entry_bytes: f64,
    target: f64,
    grandparents: &[(f64, f64, f64)],
    bottommost: bool,
) -> Vec<f64> {
    let largest = if bottommost { target } else { 2.0 * target } / entry_bytes;
    let max_compaction = 25.0 * target;
    let (start, end) = (curve.start(), curve.end());
    // Boundaries inside the output's range: (position, entering (a file's bytes) or leaving).
    let mut events: Vec<(f64, Option<f64>)> = grandparents
        .iter()
        .flat_map(|&(lo, hi, bytes)| [(lo, Some(bytes)), (hi, None)])
        .filter(|&(x, _)| x > start && x < end)
        .collect();
    events.sort_by(|a, b| a.0.total_cmp(&b.0));
    // The output starts inside a grandparent file if one spans the start.
    let mut current = grandparents.iter().find(|g| g.0 <= start && start <= g.1).map(|g| g.2);
    let mut overlapped = current.unwrap_or(0.0);
    let mut boundaries = 0u32;
    let mut cuts = Vec::new();
    let mut from = 0.0;
    let size_cut = |upto: f64, from: &mut f64, cuts: &mut Vec<f64>| -> bool {
        let mut cut = false;
        while upto - *from > largest {
            *from += largest;
            cuts.push(curve.position_of(*from));
            cut = true;
        }
        cut
    };
    let mut i = 0;
    while i < events.len() {
        let x = events[i].0;
        let upto = curve.at(x);
        if size_cut(upto, &mut from, &mut cuts) {
            boundaries = 0;
            overlapped = current.unwrap_or(0.0);
        }
        // The boundaries one key step crosses: those less than one entry past the first.
        let (in_gap, before) = (current.is_none(), overlapped);
        let mut crossed = 0u32;
        let mut at = x;
        while let Some(&(y, entering)) = events.get(i) {
            if crossed > 0 && curve.at(y) - upto >= 1.0 {
                break;
            }
            crossed += 1;
            at = y;
            if let Some(bytes) = entering {
                overlapped += bytes;
                current = Some(bytes);
            } else {
                current = None;
            }
            i += 1;
        }
        boundaries += crossed;
        let output = (upto - from) * entry_bytes;
        if output <= 0.0 {
            continue;
        }
        let skippable = if in_gap { 2 } else { 3 };
        let skipped = crossed >= skippable && overlapped - before > target / 8.0;
        let step = (target / 100.0).ceil() * f64::from(50 + (boundaries * 5).min(40));
        if overlapped + output > max_compaction || skipped || output >= step {
            cuts.push(at);
            from = curve.at(at);
            boundaries = 0;
            overlapped = current.unwrap_or(0.0);
        }
    }
    size_cut(curve.at(end), &mut from, &mut cuts);
    cuts
}

/// The files probed, in order, by a lookup of the key at `x`, with their levels (1 = L0).
pub(super) fn probe_list(levels: &[Vec<File>], x: f64) -> Vec<(usize, &File)> {
    let mut out: Vec<(usize, &File)> =
        levels.first().into_iter().flatten().filter(|f| f.lo <= x && x <= f.hi).map(|f| (1, f)).collect();
    for (i, level) in levels.iter().enumerate().skip(1) {
        if let Some(f) = level.iter().find(|f| f.lo <= x && x <= f.hi) {
            out.push((i + 1, f));
        }
    }
    out
}

/// The files a scan reaches only through their first data block, with their levels (1 = L0)
/// and the share of scans (starts uniform over the key space, each spanning `span` of it) that
/// do so. RocksDB's iterator (no `iterate_upper_bound`) positions every level-0 file and, per
/// deeper level, the first file whose largest key is at least the scan's start (`FindFile`),
/// reading the block it seeks to even when that file begins past the scan's end; and a level
/// whose file is used up steps into its next file and reads its first block. So a file is read
/// at its first block by the scans that start in the gap before it (before level 0's file; in
/// a deeper level between the previous file and it) and by those that leave the previous file
/// for that gap. The engine's scans do the same (`Run::reached`).
pub(super) fn first_block_reads(levels: &[Vec<File>], span: f64) -> Vec<(usize, &File, f64)> {
    // Starts in (from, to), clipped to the key space.
    let share = |from: f64, to: f64| (to.min(1.0) - from.max(0.0)).max(0.0);
    let mut out: Vec<(usize, &File, f64)> = Vec::new();
    for f in levels.first().into_iter().flatten() {
        out.push((1, f, share(0.0, f.lo)));
    }
    for (i, level) in levels.iter().enumerate().skip(1) {
        let mut before = 0.0;
        for (k, f) in level.iter().enumerate() {
            // Scans from the previous file's last `span` of starts end in the gap (all of them,
            // if the gap is narrower).
            let from = if k == 0 { 0.0 } else { before - span.min((f.lo - before).max(0.0)) };
            out.push((i + 1, f, share(from, f.lo)));
            before = f.hi;
        }
    }
    out.retain(|&(_, _, p)| p > 0.0);
    out
}

impl File {
    /// Entries of this file per key of the key space in its range.
    pub(super) fn density_per_key(&self, inserted: f64) -> f64 {
        if self.hi > self.lo { self.entries / (inserted * (self.hi - self.lo)) } else { 0.0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 1,000 entries of 1 byte spread evenly over [0, 1].
    fn even_curve() -> Cumulative {
        Cumulative::new(vec![(0.0, 1.0, 1_000.0)])
    }

    #[test]
    fn adjacent_grandparent_files_are_two_boundaries_crossed_at_once() {
        // Target 100 B; grandparent files of 57 entries' width side by side. Where the first
        // ends and the second begins the output holds 57 B: one boundary would cut it (55% of
        // the target), two do not (60%), and RocksDB counts both before comparing. The next
        // pair makes 4 (70%), passed at 114 B.
        let grandparents: Vec<(f64, f64, f64)> =
            (0..17).map(|i| (f64::from(i) * 0.057, f64::from(i + 1) * 0.057, 57.0)).collect();
        let cuts = rocksdb_cuts(&even_curve(), 1.0, 100.0, &grandparents, false);
        assert!((cuts[0] - 0.114).abs() < 1e-9, "first cut at {}", cuts[0]);
        assert!((cuts[1] - 0.228).abs() < 1e-9, "second cut at {}", cuts[1]);
    }

    #[test]
    fn a_step_over_a_whole_grandparent_file_cuts_the_output() {
        // A grandparent file narrower than one entry lies inside a key step: the step crosses
        // its start and end, and the next file's start, from inside the file before (3
        // boundaries) and adds more than 1/8 of the target: RocksDB cuts before the key.
        let grandparents = [(0.0, 0.02, 20.0), (0.02, 0.0200001, 13.0), (0.0200001, 0.5, 480.0)];
        let cuts = rocksdb_cuts(&even_curve(), 1.0, 100.0, &grandparents, false);
        assert!((cuts[0] - 0.0200001).abs() < 1e-9, "cuts {cuts:?}");
        // One of 12 bytes (under 1/8 of the target) is stepped over without a cut.
        let grandparents = [(0.0, 0.02, 20.0), (0.02, 0.0200001, 12.0), (0.0200001, 0.5, 0.0)];
        let cuts = rocksdb_cuts(&even_curve(), 1.0, 100.0, &grandparents, false);
        assert!(cuts[0] > 0.1, "cuts {cuts:?}");
    }

    #[test]
    fn no_file_of_less_than_one_entry_is_cut() {
        // 200 entries in files of 100 leave a remainder of 1e-9 entries by rounding: no file.
        let curve = Cumulative::new(vec![(0.0, 1.0, 200.000_000_001)]);
        assert_eq!(without_slivers(&curve, size_cuts(&curve, 100.0)).len(), 1);
        assert_eq!(without_slivers(&curve, vec![0.25, 0.251, 0.5]), vec![0.25, 0.5]);
    }

    #[test]
    fn key_positions_keep_their_order_as_bytes() {
        assert!(key_of(0.25) < key_of(0.5));
        assert!(key_of(0.999_999) < key_of(1.0));
        assert_eq!(key_of(0.0), vec![0; 8]);
    }
}

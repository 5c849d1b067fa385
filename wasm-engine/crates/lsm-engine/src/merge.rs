//! K-way merge of sorted sources (the buffer and runs) into new tables, resumable in bounded
//! steps. Sources are ordered newest first: on equal keys the newest version wins and the rest
//! are dropped; tombstones are dropped too when the output will be the oldest data in the tree.
//! With a target table size the output is split into several tables (merges by file).

use std::cmp::Ordering;

use crate::cursor::RunCursor;
use crate::keycmp::compare;
use crate::memtable::Frozen;
use crate::stats::WriteCounters;
use crate::table::{ReadCtx, TableBuilder};
use lsm_core::error::Result;

/// One input of a merge: a flushed buffer or a cursor over a run. A merge takes its sources newest
/// first: on equal keys the first one's version wins.
pub enum Source {
    /// A flushed buffer; `pos` is one past the current entry (0 before the first advance).
    Buffer {
        /// The buffer's entries, in key order.
        frozen: Frozen,
        /// One past the current entry (0 before the first advance).
        pos: usize,
    },
    /// A run, read through its cursor.
    Run(RunCursor),
}

impl Source {
    /// A flushed buffer as a source, before its first entry.
    pub fn buffer(frozen: Frozen) -> Self {
        Source::Buffer { frozen, pos: 0 }
    }

    #[inline]
    fn valid(&self) -> bool {
        match self {
            Source::Buffer { frozen, pos } => *pos >= 1 && *pos <= frozen.len(),
            Source::Run(c) => c.valid(),
        }
    }

    #[inline]
    fn key(&self) -> &[u8] {
        match self {
            Source::Buffer { frozen, pos } => frozen.key(pos - 1),
            Source::Run(c) => c.key(),
        }
    }

    #[inline]
    fn value(&self) -> Option<&[u8]> {
        match self {
            Source::Buffer { frozen, pos } => frozen.value(pos - 1),
            Source::Run(c) => c.value(),
        }
    }

    /// The current entry as a page encodes it (runs only; the buffer holds no encoding).
    #[inline]
    fn encoded(&self) -> Option<&[u8]> {
        match self {
            Source::Buffer { .. } => None,
            Source::Run(c) => Some(c.encoded()),
        }
    }

    /// The table the current entry comes from (none for the buffer).
    #[inline]
    fn table_id(&self) -> Option<u64> {
        match self {
            Source::Buffer { .. } => None,
            Source::Run(c) => c.table().map(|t| t.id),
        }
    }

    fn advance(&mut self, ctx: &mut ReadCtx<'_>) -> Result<()> {
        match self {
            Source::Buffer { frozen, pos } => *pos = (*pos + 1).min(frozen.len() + 1),
            Source::Run(c) => {
                c.advance(ctx)?;
            }
        }
        Ok(())
    }
}

/// What a call to `step` ended with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// The page budget ran out; call again.
    Working,
    /// The current output reached the target size; seal it (`take_output`) and continue.
    OutputFull,
    /// Every source is exhausted; seal the last output.
    Done,
}

/// An output table being written, and which input tables fed it (for statistics inheritance).
pub struct Output {
    /// The table being written.
    pub builder: TableBuilder,
    /// (input table id, entries it contributed), in first-seen order.
    pub contributions: Vec<(u64, u64)>,
}

/// How an output file is cut at the files two levels down (the "grandparents").
#[derive(Clone, Debug)]
enum CutRule {
    /// LevelDB's: once the file overlaps more than `limit` bytes there. The overlap counted
    /// runs on across outputs cut for size, and only a cut made by this limit resets it.
    Leveldb { limit: u64 },
    /// RocksDB 7.8's `CompactionOutputs::ShouldStopBefore` with `level_compaction_dynamic_file_size`.
    Rocksdb { target: u64, max_compaction_bytes: u64 },
}

/// The files two levels down that one merge's outputs are cut against, and where the merge is
/// among them.
#[derive(Clone, Debug)]
struct Grandparents {
    /// Smallest key, largest key and entry bytes of each table two levels down, in key order.
    tables: Vec<(Vec<u8>, Vec<u8>, u64)>,
    rule: CutRule,
    next: usize,
    /// RocksDB: between two grandparent files (or before the first) rather than inside one.
    in_gap: bool,
    overlapped: u64,
    /// RocksDB: grandparent boundaries crossed since the output was started.
    boundaries: u64,
    seen_key: bool,
}

impl Grandparents {
    fn new(tables: Vec<(Vec<u8>, Vec<u8>, u64)>, rule: CutRule) -> Self {
        Grandparents { tables, rule, next: 0, in_gap: true, overlapped: 0, boundaries: 0, seen_key: false }
    }

    /// Whether the output, `output_bytes` so far, should end before `key` (called once per
    /// key, in order).
    fn stop_before(&mut self, key: &[u8], output_bytes: u64) -> bool {
        match self.rule {
            CutRule::Leveldb { limit } => {
                while let Some((_, max_key, bytes)) = self.tables.get(self.next) {
                    if key <= max_key.as_slice() {
                        break;
                    }
                    if self.seen_key {
                        self.overlapped += bytes;
                    }
                    self.next += 1;
                }
                self.seen_key = true;
                if self.overlapped > limit {
                    self.overlapped = 0;
                    return true;
                }
                false
            }
            CutRule::Rocksdb { target, max_compaction_bytes } => {
                let before = self.overlapped;
                let crossed = self.cross_boundaries(key);
                if output_bytes == 0 || crossed == 0 {
                    return false;
                }
                let skippable = if self.in_gap { 2 } else { 3 };
                let cut = self.overlapped + output_bytes > max_compaction_bytes
                    || (crossed >= skippable && self.overlapped - before > target / 8)
                    || output_bytes >= target.div_ceil(100) * (50 + (self.boundaries * 5).min(40));
                if cut {
                    // The next output starts with this key: it overlaps the file it lies in.
                    self.boundaries = 0;
                    self.overlapped = if self.in_gap { 0 } else { self.tables[self.next].2 };
                }
                cut
            }
        }
    }

    /// RocksDB's `UpdateGrandparentBoundaryInfo`: walk to `key`, counting the file starts and
    /// ends passed (and the bytes of the files entered); returns the boundaries crossed.
    fn cross_boundaries(&mut self, key: &[u8]) -> u64 {
        let mut crossed = 0;
        while let Some((min_key, max_key, bytes)) = self.tables.get(self.next) {
            if self.in_gap {
                if key < min_key.as_slice() {
                    break;
                }
                if self.seen_key {
                    crossed += 1;
                    self.overlapped += bytes;
                    self.boundaries += 1;
                }
                self.in_gap = false;
            } else {
                if key <= max_key.as_slice() {
                    break;
                }
                if self.seen_key {
                    crossed += 1;
                    self.boundaries += 1;
                }
                self.in_gap = true;
                self.next += 1;
            }
        }
        if !self.seen_key && !self.in_gap {
            self.overlapped = self.tables[self.next].2;
        }
        self.seen_key = true;
        crossed
    }
}

/// What a merge decides besides its sources: whether tombstones go, where outputs are cut. Plain
/// data, so a merger on another thread can run the same merge over cursors of its own
/// (`Merge::rules`, `Merge::with_rules`).
#[derive(Clone, Debug)]
pub struct MergeRules {
    drop_tombstones: bool,
    target_bytes: u64,
    grandparents: Option<Grandparents>,
}

/// A k-way merge in progress: `step` moves entries from the sources into the current output table,
/// which the caller starts (`start_output`) and takes to seal (`take_output`), one at a time.
pub struct Merge {
    sources: Vec<Source>,
    drop_tombstones: bool,
    target_bytes: u64,
    grandparents: Option<Grandparents>,
    started: bool,
    output: Option<Output>,
    /// The sources holding the key being merged (reused from entry to entry).
    ties: Vec<usize>,
    /// Input pages read and entries seen.
    pub counters: WriteCounters,
}

impl Merge {
    /// `target_bytes`: split the output into tables of about this many entry bytes (u64::MAX: one).
    pub fn new(sources: Vec<Source>, drop_tombstones: bool, target_bytes: u64) -> Self {
        Merge {
            sources,
            drop_tombstones,
            target_bytes,
            grandparents: None,
            started: false,
            output: None,
            ties: Vec::new(),
            counters: WriteCounters::default(),
        }
    }

    /// Cut outputs that would overlap more than `limit` entry bytes of `tables` (the tables two
    /// levels down that the merge's key range meets, as (smallest key, largest key, entry
    /// bytes), in key order): LevelDB's rule.
    pub fn limit_grandparent_overlap(mut self, tables: Vec<(Vec<u8>, Vec<u8>, u64)>, limit: u64) -> Self {
        self.grandparents = Some(Grandparents::new(tables, CutRule::Leveldb { limit }));
        self
    }

    /// Cut outputs at the `tables` two levels down as RocksDB 7.8 does with
    /// `level_compaction_dynamic_file_size`, for files of `target` bytes and a
    /// `max_compaction_bytes` limit (see `OutputCuts::Rocksdb`).
    pub fn rocksdb_output_cuts(
        mut self,
        tables: Vec<(Vec<u8>, Vec<u8>, u64)>,
        target: u64,
        max_compaction_bytes: u64,
    ) -> Self {
        self.grandparents = Some(Grandparents::new(tables, CutRule::Rocksdb { target, max_compaction_bytes }));
        self
    }

    /// Its rules, as it was set up (before its first step).
    pub fn rules(&self) -> MergeRules {
        MergeRules {
            drop_tombstones: self.drop_tombstones,
            target_bytes: self.target_bytes,
            grandparents: self.grandparents.clone(),
        }
    }

    /// The same merge as the one `rules` came from, over `sources` (the same inputs, in the
    /// same order, read through other cursors).
    pub fn with_rules(sources: Vec<Source>, rules: MergeRules) -> Self {
        let mut merge = Merge::new(sources, rules.drop_tombstones, rules.target_bytes);
        merge.grandparents = rules.grandparents;
        merge
    }

    /// Its sources, newest first.
    pub fn sources(&self) -> &[Source] {
        &self.sources
    }

    /// Whether an output table is being written.
    pub fn has_output(&self) -> bool {
        self.output.is_some()
    }

    /// Write the next entries into a new table, built by `builder`.
    pub fn start_output(&mut self, builder: TableBuilder) {
        self.output = Some(Output { builder, contributions: Vec::new() });
    }

    /// Hand over the output being written, to be sealed (`None` if there is none).
    pub fn take_output(&mut self) -> Option<Output> {
        self.output.take()
    }

    /// Advance until about `max_pages` output pages have been produced, the output is full, or
    /// the sources run dry. An output must have been started.
    pub fn step(&mut self, ctx: &mut ReadCtx<'_>, max_pages: u64) -> Result<Progress> {
        let before = ctx.counters.data_pages_read;
        let result = self.step_inner(ctx, max_pages);
        self.counters.pages_read += ctx.counters.data_pages_read - before;
        result
    }

    fn step_inner(&mut self, ctx: &mut ReadCtx<'_>, max_pages: u64) -> Result<Progress> {
        if !self.started {
            for s in &mut self.sources {
                s.advance(ctx)?;
            }
            self.started = true;
        }
        let Some(out) = self.output.as_mut() else { return Ok(Progress::OutputFull) };
        let start_pages = out.builder.data_pages();
        loop {
            if out.builder.entry_bytes() >= self.target_bytes {
                return Ok(Progress::OutputFull);
            }
            // One pass finds the smallest key and every source holding it (older versions of the
            // same key, which the newest one, the first source, shadows).
            let mut best: Option<usize> = None;
            self.ties.clear();
            for (i, s) in self.sources.iter().enumerate() {
                if !s.valid() {
                    continue;
                }
                match best.map(|b| compare(s.key(), self.sources[b].key())) {
                    None | Some(Ordering::Less) => {
                        best = Some(i);
                        self.ties.clear();
                        self.ties.push(i);
                    }
                    Some(Ordering::Equal) => self.ties.push(i),
                    Some(Ordering::Greater) => {}
                }
            }
            let Some(b) = best else { return Ok(Progress::Done) };
            if let Some(g) = self.grandparents.as_mut()
                && g.stop_before(self.sources[b].key(), out.builder.entry_bytes())
                && out.builder.entries() > 0
            {
                return Ok(Progress::OutputFull);
            }
            let winner = &self.sources[b];
            let value = winner.value();
            if value.is_some() || !self.drop_tombstones {
                match winner.encoded() {
                    Some(raw) => out.builder.add_encoded(winner.key(), raw, ctx.storage)?,
                    None => out.builder.add(winner.key(), value, ctx.storage)?,
                }
                if let Some(id) = winner.table_id() {
                    match out.contributions.iter_mut().find(|(t, _)| *t == id) {
                        Some((_, n)) => *n += 1,
                        None => out.contributions.push((id, 1)),
                    }
                }
            }
            for &i in &self.ties {
                self.counters.entries_read += 1;
                self.sources[i].advance(ctx)?;
            }
            if out.builder.data_pages() - start_pages >= max_pages {
                return Ok(Progress::Working);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{CutRule, Grandparents};

    fn grandparents(maxima: &[u8]) -> Grandparents {
        let tables = maxima.iter().map(|&k| (vec![k - 9], vec![k], 100)).collect();
        Grandparents::new(tables, CutRule::Leveldb { limit: 250 })
    }

    #[test]
    fn an_output_stops_once_it_has_passed_more_than_the_limit_below() {
        // Tables two levels down end at keys 10, 20, …, 90, 100 bytes each; the limit is 250.
        let mut g = grandparents(&[10, 20, 30, 40, 50, 60, 70, 80, 90]);
        // The first key passes tables 10 and 20 before anything was output: they do not count.
        assert!(!g.stop_before(&[25], 0));
        // Passing 30, 40 and 50 makes 300 > 250: stop before 55, and the count starts again.
        assert!(!g.stop_before(&[35], 1));
        assert!(!g.stop_before(&[45], 1));
        assert!(g.stop_before(&[55], 1));
        assert!(!g.stop_before(&[56], 1));
        // LevelDB's rule: the count is not reset by outputs cut for size, only by this cut.
        assert!(!g.stop_before(&[75], 1));
        assert!(g.stop_before(&[95], 1));
    }

    /// Grandparents [k..k+5] at k = 10, 20, …, 90 (gaps between them), 100 bytes each; files of
    /// a 1,000-byte target, max_compaction_bytes 10,000.
    fn rocksdb() -> Grandparents {
        let tables = (1..10u8).map(|i| (vec![i * 10], vec![i * 10 + 5], 100)).collect();
        Grandparents::new(tables, CutRule::Rocksdb { target: 1_000, max_compaction_bytes: 10_000 })
    }

    #[test]
    fn rocksdb_cuts_at_a_grandparent_boundary_once_the_file_is_half_full() {
        let mut g = rocksdb();
        assert!(!g.stop_before(&[12], 0), "the first key only positions the walk");
        // Inside the same grandparent: no boundary, no cut however full.
        assert!(!g.stop_before(&[13], 900));
        // Leaving [10, 15] crosses one boundary: 50% + 5% of the target is 550; 400 stays.
        assert!(!g.stop_before(&[17], 400));
        // Entering [20, 25] is the second boundary: 50% + 10% = 600 ≤ 650: cut.
        assert!(g.stop_before(&[21], 650));
        // The new output starts inside [20, 25]: its 100 bytes count, the boundary count restarts.
        assert_eq!((g.overlapped, g.boundaries), (100, 0));
    }

    #[test]
    fn rocksdb_cuts_before_a_key_that_would_skip_a_grandparent_file() {
        let mut g = rocksdb();
        assert!(!g.stop_before(&[12], 0));
        // From inside [10, 15] to inside [30, 35]: 4 boundaries, 200 new overlapped bytes > 125.
        assert!(g.stop_before(&[31], 10));
        // From a gap: jumping from 17 over [20, 25] into the gap after it is 2 boundaries with
        // 100 > 125? No: 100 ≤ 125, no cut for a small skip.
        let mut g = rocksdb();
        assert!(!g.stop_before(&[17], 0));
        assert!(!g.stop_before(&[27], 10));
    }

    #[test]
    fn rocksdb_cuts_when_file_and_overlap_pass_max_compaction_bytes() {
        let tables = vec![(vec![10], vec![20], 9_500), (vec![30], vec![40], 100)];
        let mut g = Grandparents::new(tables, CutRule::Rocksdb { target: 100_000, max_compaction_bytes: 10_000 });
        assert!(!g.stop_before(&[15], 0));
        // Crossing out of [10, 20]: 9,500 + 600 > 10,000.
        assert!(g.stop_before(&[25], 600));
    }
}

//! The LSM-tree: write buffer, levels of sorted runs, lookups, scans, flushes and merges.
//! Single-threaded and step-driven: merges advance when the caller asks (or eagerly after each
//! flush when `auto_compact` is on), so the same code runs natively and in a Web Worker.

use std::rc::Rc;

use crate::allocation::{RunWeight, bits_per_key_for_fpr, optimal_fprs};
use crate::bloom::Probe;
use crate::compaction::{self, FlushPlan, MergePlan, Shape};
use crate::config::{Allocation, EngineConfig};
use crate::error::{Error, Result};
use crate::memtable::Memtable;
use crate::merge::{Merge, Source};
use crate::run::{FilterSpec, Found, Run, RunBuilder, max_entry_bytes};
use crate::stats::{OpClass, ReadCounters, Stats};
use crate::storage::Storage;
use crate::tree::{LevelInfo, RunInfo, TreeShape};

/// Output pages a `step()` may write before returning when the caller gives no budget.
pub const DEFAULT_STEP_PAGES: u64 = 256;

struct Job {
    plan: MergePlan,
    inputs: Vec<Rc<Run>>,
    merge: Merge,
    id: u64,
}

pub struct Engine {
    config: EngineConfig,
    storage: Box<dyn Storage>,
    memtable: Memtable,
    /// Index 0 is level 1; each level's runs newest first.
    levels: Vec<Vec<Rc<Run>>>,
    stats: Stats,
    next_id: u64,
    job: Option<Job>,
    page: Vec<u8>,
    scratch: Vec<ReadCounters>,
    /// Run merges to completion after every flush (the default). Off, merges wait for `step`.
    pub auto_compact: bool,
}

impl Engine {
    /// A new, empty database on `storage`.
    pub fn create(config: EngineConfig, storage: Box<dyn Storage>) -> Result<Engine> {
        config.validate()?;
        Ok(Engine {
            config,
            storage,
            memtable: Memtable::new(),
            levels: Vec::new(),
            stats: Stats::default(),
            next_id: 1,
            job: None,
            page: Vec::new(),
            scratch: Vec::new(),
            auto_compact: true,
        })
    }

    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    pub fn reset_stats(&mut self) {
        self.stats = Stats::default();
    }

    fn check_entry(&self, key: &[u8], value: Option<&[u8]>) -> Result<()> {
        let max = max_entry_bytes(self.config.page_bytes);
        if key.is_empty() || key.len() > u16::MAX as usize {
            return Err(Error::TooLarge {
                field: "key".into(),
                message: format!("length must be in [1, {}] bytes", u16::MAX),
            });
        }
        let total = key.len() + value.map_or(0, <[u8]>::len);
        if total > max {
            return Err(Error::TooLarge {
                field: "entry".into(),
                message: format!(
                    "key + value is {total} B; a page of {} B holds at most {max} B",
                    self.config.page_bytes
                ),
            });
        }
        Ok(())
    }

    pub fn put(&mut self, key: &[u8], value: &[u8]) -> Result<()> {
        self.write(key, Some(value), OpClass::Put)
    }

    pub fn delete(&mut self, key: &[u8]) -> Result<()> {
        self.write(key, None, OpClass::Delete)
    }

    fn write(&mut self, key: &[u8], value: Option<&[u8]>, class: OpClass) -> Result<()> {
        self.check_entry(key, value)?;
        if !self.memtable.is_empty() && self.memtable.bytes_after(key, value) > self.config.buffer_bytes {
            self.flush()?;
        }
        self.memtable.put(key, value);
        self.stats.ops[class.index()] += 1;
        Ok(())
    }

    /// Point lookup: buffer, then levels top-down, runs newest first; stops at the first version.
    pub fn get(&mut self, key: &[u8]) -> Result<Option<Vec<u8>>> {
        if let Some(slot) = self.memtable.get(key) {
            let (class, result) = match slot {
                Some(v) => (OpClass::GetNonZeroResult, Some(v.to_vec())),
                None => (OpClass::GetTombstone, None),
            };
            self.stats.ops[class.index()] += 1;
            return Ok(result);
        }
        let probe = Probe::new(key);
        self.scratch.clear();
        self.scratch.resize(self.levels.len(), ReadCounters::default());
        let mut outcome = (OpClass::GetZeroResult, None);
        'levels: for (li, level) in self.levels.iter().enumerate() {
            for run in level {
                match run.get(key, probe, self.storage.as_mut(), &mut self.page, &mut self.scratch[li])? {
                    Found::Absent => {}
                    Found::Tombstone => {
                        outcome = (OpClass::GetTombstone, None);
                        break 'levels;
                    }
                    Found::Value(v) => {
                        outcome = (OpClass::GetNonZeroResult, Some(v));
                        break 'levels;
                    }
                }
            }
        }
        let class = outcome.0;
        self.stats.ops[class.index()] += 1;
        for (li, c) in self.scratch.iter().enumerate() {
            self.stats.reads(li + 1, class).add(c);
        }
        Ok(outcome.1)
    }

    /// Every live key in `[start, end]` with its value, in key order.
    pub fn scan(&mut self, start: &[u8], end: &[u8]) -> Result<Vec<(Vec<u8>, Vec<u8>)>> {
        let mut out = Vec::new();
        self.scan_visit(start, end, |k, v| out.push((k.to_vec(), v.to_vec())))?;
        Ok(out)
    }

    /// Range scan calling `visit` for each live entry; returns how many were visited. Each run
    /// whose key range overlaps costs one seek plus the pages it reads.
    pub fn scan_visit(&mut self, start: &[u8], end: &[u8], mut visit: impl FnMut(&[u8], &[u8])) -> Result<u64> {
        self.stats.ops[OpClass::Scan.index()] += 1;
        if start > end {
            return Ok(0);
        }
        // Sources newest first: buffer, then runs top-down.
        let mut cursors = Vec::new();
        let mut pages = Vec::new();
        for (li, level) in self.levels.iter().enumerate() {
            for run in level {
                if run.max_key() < start || run.min_key() > end {
                    continue;
                }
                cursors.push((li, run.cursor(Some(start))));
                pages.push(0u64);
            }
        }
        let storage = self.storage.as_mut();
        for (i, (_, c)) in cursors.iter_mut().enumerate() {
            c.advance(storage, &mut pages[i])?;
        }
        let mut buffered = self.memtable.range(start, end).peekable();
        let mut visited = 0;
        let mut key = Vec::new();
        loop {
            // Smallest key among the buffer and the cursors; the buffer wins ties (newest).
            let mut best: Option<usize> = None;
            for (i, (_, c)) in cursors.iter().enumerate() {
                if c.valid() && c.key() <= end && best.is_none_or(|b| c.key() < cursors[b].1.key()) {
                    best = Some(i);
                }
            }
            let from_buffer = match (buffered.peek(), best) {
                (Some((bk, _)), Some(b)) => *bk <= cursors[b].1.key(),
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => break,
            };
            key.clear();
            if from_buffer {
                let (k, v) = buffered.next().unwrap_or((&[], None));
                key.extend_from_slice(k);
                if let Some(v) = v {
                    visit(k, v);
                    visited += 1;
                }
            } else if let Some(b) = best {
                key.extend_from_slice(cursors[b].1.key());
                if let Some(v) = cursors[b].1.value() {
                    visit(&key, v);
                    visited += 1;
                }
            }
            for (i, (_, c)) in cursors.iter_mut().enumerate() {
                while c.valid() && c.key() <= &key[..] {
                    c.advance(storage, &mut pages[i])?;
                }
            }
        }
        for (i, (li, _)) in cursors.iter().enumerate() {
            let c = self.stats.reads(li + 1, OpClass::Scan);
            c.seeks += 1;
            c.data_pages_read += pages[i];
        }
        Ok(visited)
    }

    fn shape(&self) -> Shape {
        Shape { levels: self.levels.iter().map(|l| l.iter().map(|r| r.entry_bytes).collect()).collect() }
    }

    /// Write the buffer out (merging it into level 1's newest run if that has room).
    pub fn flush(&mut self) -> Result<()> {
        if self.memtable.is_empty() {
            return Ok(());
        }
        self.finish_job()?;
        let plan = compaction::choose_flush(&self.shape(), &self.config, self.memtable.bytes());
        if self.levels.is_empty() {
            self.levels.push(Vec::new());
        }
        let absorbed: Vec<Rc<Run>> = match plan {
            FlushPlan::IntoNewestRun => self.levels[0].first().cloned().into_iter().collect(),
            FlushPlan::NewRun => Vec::new(),
        };
        let older_runs_exist = self.levels[0].len() > absorbed.len() || self.levels[1..].iter().any(|l| !l.is_empty());
        let mut sources = vec![Source::buffer(self.memtable.drain_sorted())];
        sources.extend(absorbed.iter().map(|r| Source::Run(r.cursor(None))));
        let id = self.allocate_id();
        let mut merge = Merge::new(sources, RunBuilder::new(id, self.config.page_bytes), !older_runs_exist);
        merge.step(self.storage.as_mut(), u64::MAX)?;
        let filter = self.filter_for(1, merge.output_entries(), &absorbed);
        let (run, counters) = merge.finish(id, filter, self.storage.as_mut())?;
        let w = &mut self.stats.level(1).writes;
        w.flushes += 1;
        w.add(&counters);
        self.install(0, &absorbed, run)?;
        if self.auto_compact {
            self.maintain()?;
        }
        Ok(())
    }

    fn allocate_id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// Replace `inputs` (wherever they are) by `output` at the top of level `dest_idx + 1`.
    fn install(&mut self, dest_idx: usize, inputs: &[Rc<Run>], output: Option<Run>) -> Result<()> {
        for level in &mut self.levels {
            level.retain(|r| !inputs.iter().any(|i| i.id == r.id));
        }
        if let Some(run) = output {
            while self.levels.len() <= dest_idx {
                self.levels.push(Vec::new());
            }
            self.levels[dest_idx].insert(0, Rc::new(run));
        }
        while self.levels.last().is_some_and(Vec::is_empty) {
            self.levels.pop();
        }
        for r in inputs {
            self.storage.delete(&r.file)?;
        }
        Ok(())
    }

    /// Bits per key for a new run of `entries` at `level` that replaces `inputs`.
    fn filter_for(&self, level: usize, entries: u64, inputs: &[Rc<Run>]) -> FilterSpec {
        let bits_per_key = match self.config.filter.allocation {
            Allocation::Explicit => self.config.level(level).bits_per_key.unwrap_or(0.0),
            Allocation::Uniform => self.config.filter.bits_per_key,
            Allocation::Monkey | Allocation::Mnemosyne => {
                // Optimal split of the whole budget over the runs the tree will have.
                let mut runs: Vec<RunWeight> = self
                    .levels
                    .iter()
                    .flatten()
                    .filter(|r| !inputs.iter().any(|i| i.id == r.id))
                    .map(|r| RunWeight { entries: r.entries as f64, weight: 1.0 })
                    .collect();
                runs.push(RunWeight { entries: entries as f64, weight: 1.0 });
                let total: f64 = runs.iter().map(|r| r.entries).sum();
                let fprs = optimal_fprs(&runs, self.config.filter.bits_per_key * total);
                fprs.last().map_or(0.0, |&p| bits_per_key_for_fpr(p))
            }
        };
        FilterSpec { bits_per_key: bits_per_key.min(crate::config::BITS_PER_KEY_RANGE.1) }
    }

    /// Start the merge the policy asks for, if any.
    fn start_job(&mut self) -> Result<bool> {
        let Some(plan) = compaction::choose(&self.shape(), &self.config) else { return Ok(false) };
        let src = plan.level - 1;
        let mut inputs: Vec<Rc<Run>> = self.levels[src].clone();
        let dest_runs = self.levels.get(src + 1).map_or(0, Vec::len);
        if let Some(r) = self.levels.get(src + 1).and_then(|l| l.first()).filter(|_| plan.into_newest_run) {
            inputs.push(r.clone());
        }
        let absorbed = usize::from(plan.into_newest_run && dest_runs > 0);
        let older_runs_exist = dest_runs > absorbed || self.levels.iter().skip(src + 2).any(|l| !l.is_empty());
        let sources = inputs.iter().map(|r| Source::Run(r.cursor(None))).collect();
        let id = self.allocate_id();
        let merge = Merge::new(sources, RunBuilder::new(id, self.config.page_bytes), !older_runs_exist);
        self.job = Some(Job { plan, inputs, merge, id });
        Ok(true)
    }

    /// Advance merges by about `max_pages` output pages. Returns true while work remains.
    pub fn step(&mut self, max_pages: u64) -> Result<bool> {
        if self.job.is_none() && !self.start_job()? {
            return Ok(false);
        }
        let done = match self.job.as_mut() {
            Some(job) => job.merge.step(self.storage.as_mut(), max_pages.max(1))?,
            None => true,
        };
        if done {
            self.complete_job()?;
            return Ok(compaction::choose(&self.shape(), &self.config).is_some());
        }
        Ok(true)
    }

    fn complete_job(&mut self) -> Result<()> {
        let Some(job) = self.job.take() else { return Ok(()) };
        let dest = job.plan.level + 1;
        let filter = self.filter_for(dest, job.merge.output_entries(), &job.inputs);
        let (run, counters) = job.merge.finish(job.id, filter, self.storage.as_mut())?;
        let w = &mut self.stats.level(dest).writes;
        w.compactions += 1;
        w.add(&counters);
        self.install(dest - 1, &job.inputs, run)
    }

    fn finish_job(&mut self) -> Result<()> {
        if let Some(job) = self.job.as_mut() {
            job.merge.step(self.storage.as_mut(), u64::MAX)?;
            self.complete_job()?;
        }
        Ok(())
    }

    /// Run merges until every level is within its limits.
    pub fn maintain(&mut self) -> Result<()> {
        while self.step(u64::MAX)? {}
        Ok(())
    }

    /// Flush the buffer and merge the whole tree into a single run on the deepest level.
    pub fn compact_all(&mut self) -> Result<()> {
        let auto = std::mem::replace(&mut self.auto_compact, false);
        let result = self.flush().and_then(|()| self.finish_job()).and_then(|()| self.merge_everything());
        self.auto_compact = auto;
        result
    }

    fn merge_everything(&mut self) -> Result<()> {
        let inputs: Vec<Rc<Run>> = self.levels.iter().flatten().cloned().collect();
        if inputs.len() <= 1 {
            return Ok(());
        }
        let dest = self.levels.len();
        let sources = inputs.iter().map(|r| Source::Run(r.cursor(None))).collect();
        let id = self.allocate_id();
        let mut merge = Merge::new(sources, RunBuilder::new(id, self.config.page_bytes), true);
        merge.step(self.storage.as_mut(), u64::MAX)?;
        let filter = self.filter_for(dest, merge.output_entries(), &inputs);
        let (run, counters) = merge.finish(id, filter, self.storage.as_mut())?;
        let w = &mut self.stats.level(dest).writes;
        w.compactions += 1;
        w.add(&counters);
        self.install(dest - 1, &inputs, run)
    }

    pub fn tree(&self) -> TreeShape {
        let levels = self
            .levels
            .iter()
            .enumerate()
            .map(|(i, runs)| {
                let g = compaction::geometry(&self.config, i + 1);
                LevelInfo {
                    level: i + 1,
                    capacity_bytes: g.capacity,
                    max_runs: g.max_runs,
                    runs: runs.iter().map(|r| RunInfo::of(r)).collect(),
                }
            })
            .collect();
        TreeShape {
            buffer_entries: self.memtable.len() as u64,
            buffer_bytes: self.memtable.bytes(),
            buffer_capacity_bytes: self.config.buffer_bytes,
            levels,
            merging_level: self.job.as_ref().map(|j| j.plan.level),
        }
    }
}

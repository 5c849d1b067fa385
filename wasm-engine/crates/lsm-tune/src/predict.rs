//! What the engine will measure for a design and a workload, predicted without running it.
//!
//! Monkey's closed form prices an idealised tree (every level full, lookups that always reach the
//! last level). The engine's tree at the end of a load is a sawtooth: level 1 holds 0 … K runs,
//! the deepest level is partly full, filters were sized when each run was born, and under a skewed
//! workload the hot keys sit in the buffer or near the top. Measured gains of one design over
//! another hinge on exactly those details, so this predictor replays the engine's own merge policy
//! (`compaction::choose`, `choose_flush`, the file-granular rules) and its filter sizing on sizes
//! alone, and prices lookups on the tree that results:
//!
//! * the tree is a list of runs, each holding the newest versions written during an interval of the
//!   write sequence (level granularity makes runs time-ordered; file granularity nearly so);
//! * a run's entries are the distinct keys written in its interval, from the key popularity: keys
//!   inserted in it, plus older keys updated at least once in it (1 − (1 − p)^U);
//! * a non-zero-result lookup of a key costs one page plus the false-positive rates of the runs
//!   probed before the run holding its newest version (the buffer costs nothing);
//! * a zero-result lookup costs the sum of every run's false-positive rate;
//! * a range lookup reads, per run, the page it seeks to plus the pages its matching entries span;
//! * a write costs the pages (data and metadata) the flushes and merges of the run phase write,
//!   divided by the run's writes;
//! * the buffer flushes when its distinct keys fill it, or, flushed by its log, every buffer's worth
//!   of writes;
//! * Mnemosyne's filters are sized from the lookups each run is predicted to see (zero-result ones,
//!   and non-zero-result ones whose key lies deeper), once the run phase has statistics.
//!
//! Lookup costs are averaged over `SAMPLES` moments spread evenly over the run phase (`predict`),
//! or fewer for a quick first ranking (`predict_with`).

use std::cell::{Cell, RefCell};

use rustc_hash::FxHashMap;

use lsm_core::arena;
use lsm_core::bloom::fpr_at_bits_per_key;
use lsm_core::compaction::{self, FlushPlan, Shape};
use lsm_core::config::{BufferTrigger, EngineConfig, Granularity};
use lsm_core::error::{Error, Result};
use lsm_core::layout::{ENTRY_HEADER, PAGE_HEADER};
use lsm_core::workload::Workload;

mod block_cache;
mod files;
mod filter_sizing;
mod lookups;
mod mnemosyne;
pub mod process;
mod rocksdb;
mod twin;

pub use process::{Between, Device, Process, ProcessPricing, Scenario};
pub use twin::TwinFigures;

use super::keymap::KeyMap;
use super::popularity::{BIN_GROWTH, DrawnKeys, EXACT_RANKS, Popularity, QUICK_BIN_GROWTH, QUICK_EXACT_RANKS};
use super::writes::WriteSequence;
use lsm_core::db_bench::DbBenchBenchmark;

/// Moments of the run phase at which lookups are priced.
pub const SAMPLES: usize = 16;
/// Moments of the run phase a quick first ranking prices lookups at.
pub(crate) const QUICK_SAMPLES: usize = 4;
/// The four operation classes, in Monkey's (and Endure's) order.
pub const CLASSES: [&str; 4] = ["zero-result lookup", "non-zero-result lookup", "range lookup", "write"];

/// The prediction for one design on one workload.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Prediction {
    /// I/O per operation of each class (`CLASSES`).
    pub class_costs: [f64; 4],
    /// The workload's share of each class.
    pub mix: [f64; 4],
    /// Σ mix · cost: I/O per operation, as the engine's Report measures it.
    pub expected: f64,
    /// Runs in the tree when the run phase ends (buffer apart).
    pub runs: usize,
    /// Levels holding data when the run phase ends.
    pub levels: usize,
    /// Entries of each run when the run phase ends, per level (level 1 first, newest run first).
    pub tree: Vec<Vec<f64>>,
    /// Flushes and merges during the run phase, and the pages they write.
    pub flushes: u64,
    /// Merges during the run phase (whole levels or files).
    pub merges: u64,
    /// Pages the run phase's flushes and merges write, data and metadata: the write cost times
    /// the run's writes.
    pub pages_written: f64,
    /// For a RocksDB-shaped design (`block_layout: rocksdb`, merges by file), the figures the
    /// RocksDB twin measures, predicted from the file tree with key ranges and the block cache.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub twin: Option<TwinFigures>,
    /// For a RocksDB-shaped design priced under a restart (`process`), the scenarios' costs and
    /// the range around `expected` that background timing leaves; absent for `continue` and for
    /// a quick ranking.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub process: Option<ProcessPricing>,
}

/// Whether `config` is priced as RocksDB reads it (RocksDB's data blocks and merges by file): on
/// a file tree with key ranges, with the block cache (`rocksdb`), rather than on runs.
pub fn rocksdb_shaped(config: &EngineConfig) -> bool {
    rocksdb::is_rocksdb_shaped(config)
}

/// The workload's shares of the four classes (inserts, updates and deletes are all writes).
pub fn class_mix(w: &Workload) -> [f64; 4] {
    let m = &w.mix;
    [m.get_missing, m.get_existing, m.range, m.insert + m.update + m.delete]
}

/// A run as the predictor sees it: the newest versions written in `[lo, hi)` of the write sequence.
#[derive(Clone, Copy, Debug)]
struct Run {
    lo: f64,
    hi: f64,
    entries: f64,
    bits_per_key: f64,
    /// Share of the key space its tables' key ranges span. Below 1 only with merges by file: a
    /// file pushed down leaves a hole in its level until the level above refills that range,
    /// and lookups and scans whose key falls in a hole skip the run (`runs_skipped_by_range`).
    coverage: f64,
}

impl Run {
    fn fpr(&self) -> f64 {
        fpr_at_bits_per_key(self.bits_per_key)
    }
}

struct Sim<'a> {
    config: &'a EngineConfig,
    entry_bytes: f64,
    key_bytes: f64,
    per_page: f64,
    writes: &'a WriteSequence,
    /// Runs per level (index 0 = level 1), newest first.
    levels: Vec<Vec<Run>>,
    /// Key maps of file-granular levels (index as `levels`; level 1's files all span the space).
    key_maps: Vec<KeyMap>,
    /// `levels` as the merge policy sees it (run sizes in bytes), kept in step with every change
    /// to `levels`: the policy is asked after every flush, and rebuilding it each time was a
    /// tenth of the tuner's time.
    shape: Shape,
    monkey_memo: RefCell<FxHashMap<u64, filter_sizing::MonkeyAnswer>>,
    buffer_lo: f64,
    /// The write at which the current flush happens (Mnemosyne's statistics are taken then).
    now: f64,
    /// The workload's shares of zero-result and non-zero-result lookups.
    lookup_mix: [f64; 2],
    /// Mnemosyne's latest C: None until a run is sized from lookup statistics.
    mnemosyne_log_c: Cell<Option<f64>>,
    counting: bool,
    flushes: u64,
    merges: u64,
    pages_written: f64,
}

impl Sim<'_> {
    fn bytes_of(&self, run: &Run) -> u64 {
        (run.entries * self.entry_bytes) as u64
    }

    /// The changes to the tree, each made to `levels` and to `shape` alike.
    fn remove_run(&mut self, l: usize, i: usize) {
        self.levels[l].remove(i);
        self.shape.levels[l].remove(i);
    }

    fn insert_newest(&mut self, l: usize, run: Run) {
        let bytes = self.bytes_of(&run);
        self.shape.levels[l].insert(0, bytes);
        self.levels[l].insert(0, run);
    }

    fn replace_run(&mut self, l: usize, i: usize, run: Run) {
        let bytes = self.bytes_of(&run);
        self.shape.levels[l][i] = bytes;
        self.levels[l][i] = run;
    }

    fn pages(&self, entries: f64, bits_per_key: f64, tables: f64) -> f64 {
        let page = f64::from(self.config.page_bytes);
        let data = (entries / self.per_page).ceil();
        // Filter, fences (u16 length + key per page), key range and footer (table/builder.rs).
        let meta_bytes =
            entries * bits_per_key / 8.0 + data * (self.key_bytes + 2.0) + tables * (4.0 * self.key_bytes + 160.0);
        data + (meta_bytes / page).ceil().max(tables)
    }

    fn ensure_level(&mut self, level: usize) {
        while self.levels.len() < level {
            self.levels.push(Vec::new());
            self.shape.levels.push(Vec::new());
            if self.config.compaction.granularity == Granularity::File {
                self.key_maps.push(KeyMap::empty());
            }
        }
    }

    /// Write `inputs` (level, index; in ascending order), and the buffer's interval `extra` if
    /// any, merged into one new run at the top of `dest_level`, counting its pages.
    fn merge(&mut self, inputs: &[(usize, usize)], dest_level: usize, extra: Option<(f64, f64)>) {
        let mut lo = f64::INFINITY;
        let mut hi = f64::NEG_INFINITY;
        for &(l, i) in inputs {
            let r = self.levels[l][i];
            lo = lo.min(r.lo);
            hi = hi.max(r.hi);
        }
        if let Some((a, b)) = extra {
            lo = lo.min(a);
            hi = hi.max(b);
        }
        let entries = self.writes.keys_in(lo, hi);
        let bits = self.bits_for(dest_level, entries, lo, inputs);
        let tables = match self.config.compaction.granularity {
            Granularity::Level => 1.0,
            Granularity::File => {
                (entries * self.entry_bytes / self.config.compaction.target_file_bytes.max(1) as f64).ceil().max(1.0)
            }
        };
        if self.counting {
            self.pages_written += self.pages(entries, bits, tables);
        }
        debug_assert!(inputs.windows(2).all(|w| w[0] < w[1]), "inputs in ascending order");
        for &(l, i) in inputs.iter().rev() {
            self.remove_run(l, i);
        }
        self.ensure_level(dest_level);
        self.insert_newest(dest_level - 1, Run { lo, hi, entries, bits_per_key: bits, coverage: 1.0 });
    }

    fn flush(&mut self, hi: f64) {
        let lo = self.buffer_lo;
        self.buffer_lo = hi;
        self.now = hi;
        if self.counting {
            self.flushes += 1;
        }
        self.ensure_level(1);
        let bytes = (self.writes.keys_in(lo, hi) * self.entry_bytes).round() as u64;
        let into_newest = compaction::choose_flush(&self.shape, self.config, bytes) == FlushPlan::IntoNewestRun;
        let inputs: &[(usize, usize)] = if into_newest && !self.levels[0].is_empty() { &[(0, 0)] } else { &[] };
        self.merge(inputs, 1, Some((lo, hi)));
        self.maintain();
    }

    fn maintain(&mut self) {
        match self.config.compaction.granularity {
            Granularity::Level => {
                while let Some(plan) = compaction::choose(&self.shape, self.config) {
                    let src = plan.level - 1;
                    let mut inputs: Vec<(usize, usize)> = (0..self.levels[src].len()).map(|i| (src, i)).collect();
                    self.ensure_level(plan.level + 1);
                    if plan.into_newest_run && !self.levels[plan.level].is_empty() {
                        inputs.push((plan.level, 0));
                    }
                    if self.counting {
                        self.merges += 1;
                    }
                    self.merge(&inputs, plan.level + 1, None);
                }
            }
            Granularity::File => self.maintain_by_file(),
        }
    }

    /// LevelDB's rules on sizes: level 1's files all merge into level 2 once there are more than
    /// K of them; a deeper level over its capacity moves one file's worth of its oldest data
    /// down, rewriting the part of the level below that the file's key range overlaps. With
    /// dynamic level bytes, RocksDB's: the level with the highest score (`compaction::dynamic_scores`)
    /// goes first, level 1 into the base level (`compaction::dynamic_levels`), over empty levels.
    fn maintain_by_file(&mut self) {
        loop {
            if self.config.compaction.dynamic_level_bytes {
                let bytes: Vec<u64> = self.shape.levels.iter().map(|l| l.iter().sum()).collect();
                let levels = compaction::dynamic_levels(&bytes, self.config);
                let scores = compaction::dynamic_scores(&bytes, self.levels[0].len(), &levels, self.config);
                match scores.first() {
                    Some(&(1, score)) if score >= 1.0 => self.merge_level_1(levels.base_level),
                    Some(&(level, score)) if score >= 1.0 => self.move_file_down(level - 1),
                    _ => return,
                }
                continue;
            }
            let k = self.config.level(1).max_runs as usize;
            if self.levels[0].len() > k {
                self.merge_level_1(2);
                continue;
            }
            let over = (1..self.levels.len()).find(|&l| {
                let bytes: f64 = self.levels[l].iter().map(|r| r.entries * self.entry_bytes).sum();
                !self.levels[l].is_empty() && bytes > compaction::geometry(self.config, l + 1).capacity
            });
            let Some(l) = over else { return };
            self.move_file_down(l);
        }
    }

    /// Every flushed file of level 1 merged with all of level `into` (their key ranges span the
    /// key space).
    fn merge_level_1(&mut self, into: usize) {
        self.ensure_level(into);
        let mut inputs: Vec<(usize, usize)> = (0..self.levels[0].len()).map(|i| (0, i)).collect();
        inputs.extend((0..self.levels[into - 1].len()).map(|i| (into - 1, i)));
        if self.counting {
            self.merges += 1;
        }
        let arriving: f64 = self.levels[0].iter().map(|r| r.entries).sum();
        self.key_maps[into - 1].spread(arriving);
        self.merge(&inputs, into, None);
    }

    /// One file's worth of the oldest data of the level at index `l` (level l+1) merged into the
    /// level below, with the part of it the file's key range overlaps.
    fn move_file_down(&mut self, l: usize) {
        self.ensure_level(l + 2);
        let src = self.levels[l][0];
        let file_entries = (self.config.compaction.target_file_bytes as f64 / self.entry_bytes).min(src.entries);
        // The file leaves the source's oldest end: the boundary moves by its share of the interval.
        let cut = src.lo + (src.hi - src.lo) * (file_entries / src.entries);
        let below = self.levels[l + 1].first().copied();
        let (upper, lower) = self.key_maps.split_at_mut(l + 1);
        let (from, into) = (&mut upper[l], &mut lower[0]);
        // Key maps count entries as written (before duplicates meet); scale to each run.
        let scale = from.mass() / src.entries.max(1.0);
        let below_scale = below.map_or(1.0, |b| into.mass() / b.entries.max(1.0));
        let below_cover_before = into.coverage();
        let overlap = from.move_file(file_entries * scale, into) / below_scale.max(1e-12);
        let (src_cover, below_cover) = (from.coverage(), into.coverage());
        // Whole tables overlap: the file's key range also catches, on average, one table of
        // the level below that straddles its edge.
        let overlap =
            below.map_or(0.0, |b| (overlap + below_cover_before * file_entries.min(b.entries)).min(b.entries));
        if self.counting {
            self.merges += 1;
            let bits = self.bits_for(l + 2, overlap + file_entries, below.map_or(src.lo, |b| b.lo.min(src.lo)), &[]);
            let tables = ((overlap + file_entries) * self.entry_bytes
                / self.config.compaction.target_file_bytes.max(1) as f64)
                .ceil()
                .max(1.0);
            self.pages_written += self.pages(overlap + file_entries, bits, tables);
        }
        let remaining = Run { lo: cut, entries: self.writes.keys_in(cut, src.hi), coverage: src_cover, ..src };
        if remaining.entries * self.entry_bytes < 1.0 {
            self.remove_run(l, 0);
        } else {
            self.replace_run(l, 0, remaining);
        }
        let lo = below.map_or(src.lo, |b| b.lo.min(src.lo));
        let entries = self.writes.keys_in(lo, cut);
        let merged =
            Run { lo, hi: cut, entries, bits_per_key: self.bits_for(l + 2, entries, lo, &[]), coverage: below_cover };
        if self.levels[l + 1].is_empty() {
            self.insert_newest(l + 1, merged);
        } else {
            self.replace_run(l + 1, 0, merged);
        }
    }

    /// Runs in probe order (level 1 newest first, then deeper levels).
    fn probe_order(&self) -> Vec<Run> {
        self.levels.iter().flatten().copied().collect()
    }
}

/// Predict what a run of `workload` on `config` will measure (`Report` → I/O per operation).
pub fn predict(config: &EngineConfig, workload: &Workload) -> Result<Prediction> {
    Predictor::new(workload)?.predict(config, SAMPLES)
}

/// Predictions for one workload and many designs: the key popularity is built once, at full
/// resolution and at the coarse one a quick first ranking uses.
pub struct Predictor {
    /// The workload as the engine sees it (`Workload::engine_view`): what is priced.
    workload: Workload,
    writes: WriteSequence,
    coarse: WriteSequence,
    process: Process,
    device: Device,
}

impl Predictor {
    /// Builds the workload's key popularity once, for every design to be priced; fails if the
    /// workload is invalid. The workload is priced as the engine sees it (`engine_view`: a
    /// read-modify-write is a lookup and a write; a db_bench line its plain counts and sizes),
    /// with the keys' popularity as its generator draws them (a db_bench line's by its own
    /// benchmark: mixgraph's by `DrawnKeys::of_mixgraph`, not the plain view's fitted distribution).
    pub fn new(workload: &Workload) -> Result<Predictor> {
        workload.validate()?;
        let mut plain = workload.engine_view();
        plain.validate()?;
        // mixgraph draws a key and its query together: its keys' popularity and the Gets that
        // find their key come from its draws, not from the plain view's fitted distribution.
        let drawn = workload
            .db_bench
            .as_ref()
            .filter(|play| play.benchmark == DbBenchBenchmark::Mixgraph)
            .map(|play| DrawnKeys::of_mixgraph(play, &plain));
        if let Some(drawn) = &drawn {
            let gets = plain.mix.get_existing + plain.mix.get_missing;
            plain.mix.get_existing = gets * drawn.found.clamp(0.0, 1.0);
            plain.mix.get_missing = gets - plain.mix.get_existing;
        }
        let m = &plain.mix;
        let writes = m.insert + m.update + m.delete;
        let inserts = if writes > 0.0 { plain.operations as f64 * m.insert } else { 0.0 };
        let keys_at_end = plain.preload.entries as f64 + inserts;
        let keys = keys_at_end.max(1.0);
        let popularity = |exact: f64, growth: f64| match &drawn {
            Some(drawn) => Popularity::of_drawn(drawn, exact, growth),
            None => Popularity::of(&plain, keys, exact, growth),
        };
        Ok(Predictor {
            writes: WriteSequence::new(&plain, popularity(EXACT_RANKS, BIN_GROWTH)),
            coarse: WriteSequence::new(&plain, popularity(QUICK_EXACT_RANKS, QUICK_BIN_GROWTH)),
            workload: plain,
            process: Process::CONTINUE,
            device: Device::default(),
        })
    }

    /// The workload as priced: the engine's view of the one given to `new`.
    pub fn workload(&self) -> &Workload {
        &self.workload
    }

    /// The same predictor for a store run as `process` says (`Predictor::new`: `continue`, the
    /// lab's), its operations timed on `device` (how many of them the open compaction lasts).
    /// Only RocksDB-shaped designs are priced differently (`process`).
    pub fn with_process(mut self, process: Process, device: Device) -> Predictor {
        self.process = process;
        self.device = device;
        self
    }

    /// `predict` with lookups priced at `samples` moments of the run phase (at least 1); under a
    /// restart, with the range of the process's scenarios (`Prediction::process`).
    pub fn predict(&self, config: &EngineConfig, samples: usize) -> Result<Prediction> {
        let scenarios = self.scenarios(config);
        predict_with(config, &self.workload, &self.writes, samples, &scenarios, self.device)
    }

    /// A quick estimate for ranking many designs: coarse key popularity, lookups priced at
    /// `samples` moments, the process's point scenario only.
    pub fn quick(&self, config: &EngineConfig, samples: usize) -> Result<Prediction> {
        let point = self.scenarios(config)[1];
        predict_with(config, &self.workload, &self.coarse, samples, &[point], self.device)
    }

    /// `config` priced under one explicit process `scenario` (the prediction's `process` is
    /// None): what each scenario of `predict`'s range costs, for tests and for a caller that knows
    /// its level 0 at open or its compaction's duration.
    pub fn predict_scenario(&self, config: &EngineConfig, samples: usize, scenario: Scenario) -> Result<Prediction> {
        predict_with(config, &self.workload, &self.writes, samples, &[scenario], self.device)
    }

    /// The process's scenarios for `config` (low, point, high): its level-0 trigger and slowdown.
    fn scenarios(&self, config: &EngineConfig) -> [Scenario; 3] {
        let trigger = config.level(1).max_runs as usize + 1;
        let slowdown = config.write_stalls.level0_slowdown_writes_trigger as usize;
        Scenario::of(self.process, trigger, slowdown)
    }
}

fn predict_with(
    config: &EngineConfig,
    workload: &Workload,
    writes: &WriteSequence,
    samples: usize,
    scenarios: &[Scenario],
    device: Device,
) -> Result<Prediction> {
    let samples_wanted = samples.max(1);
    config.validate()?;
    let key_bytes = f64::from(workload.preload.key_bytes);
    let entry_bytes = key_bytes + f64::from(workload.preload.value_bytes);
    let page = f64::from(config.page_bytes);
    let per_page = if entry_bytes + ENTRY_HEADER as f64 > page - PAGE_HEADER as f64 {
        0.0
    } else {
        lsm_core::layout::entries_per_block(
            entry_bytes as usize,
            config.page_bytes as usize,
            config.block_layout == lsm_core::config::BlockLayout::Rocksdb,
        ) as f64
    };
    if per_page < 1.0 {
        return Err(Error::invalid("preload.value_bytes", "an entry must fit in one page"));
    }
    let mix = class_mix(workload);
    let preload = writes.preload;
    let run_writes = writes.end - preload;
    // A flush happens when the buffer's distinct keys fill it (entries are whole), or, flushed by
    // its log, when its writes do.
    let buffer_entries = (config.buffer_bytes as f64 / entry_bytes).floor().max(1.0);
    let flushes = match config.buffer_trigger {
        BufferTrigger::Live => writes.flushes(buffer_entries),
        BufferTrigger::Logged => writes.logged_flushes(buffer_entries),
        BufferTrigger::Arena => {
            // RocksDB's memtable: writes of arena bytes each, until the threshold is reached.
            let write = arena::entry_arena_bytes(
                u64::from(workload.preload.key_bytes),
                u64::from(workload.preload.value_bytes),
            );
            let threshold = arena::flush_threshold(config.buffer_bytes, arena::arena_block_bytes(config.buffer_bytes));
            writes.logged_flushes((threshold.div_ceil(write.max(1)) as f64).max(1.0))
        }
    };
    let key_space = workload.key_space() as f64;
    let span = ((workload.range_selectivity * key_space).round()).clamp(1.0, key_space);
    if rocksdb::is_rocksdb_shaped(config) {
        let sizes = rocksdb::Sizes { entry_bytes, key_bytes, per_block: per_page };
        let updates = workload.mix.update + workload.mix.delete;
        let operations = workload.operations as f64;
        let reads = rocksdb::Reads { shares: [mix[0], mix[1], mix[2]], updates, span, key_space, operations };
        let mix_cost = |p: &rocksdb::Priced| mix.iter().zip(p.class_costs).map(|(w, c)| w * c).sum::<f64>();
        // One scenario (quick, or `continue`), or low, point, high: the point is the prediction.
        let priced: Vec<rocksdb::Priced> = scenarios
            .iter()
            .map(|s| rocksdb::price(config, writes, &sizes, &flushes, &reads, samples_wanted, (s, device)))
            .collect();
        let at = if priced.len() == 3 { 1 } else { 0 };
        let process = (priced.len() == 3 && scenarios[1].between == Between::Restart).then(|| {
            let of = |f: &dyn Fn(&rocksdb::Priced) -> f64| [f(&priced[0]), f(&priced[1]), f(&priced[2])];
            ProcessPricing::of(
                Between::Restart,
                of(&mix_cost),
                of(&|p| p.level0_at_open),
                of(&|p| p.open_compaction_ops),
            )
        });
        let Some(p) = priced.into_iter().nth(at) else {
            return Err(Error::invalid("process", "no scenario to price"));
        };
        let expected = mix_cost(&p);
        return Ok(Prediction {
            class_costs: p.class_costs,
            mix,
            expected,
            runs: p.tree.iter().map(Vec::len).sum(),
            levels: p.tree.iter().filter(|l| !l.is_empty()).count(),
            tree: p.tree,
            flushes: p.flushes,
            merges: p.merges,
            pages_written: p.pages_written,
            twin: Some(p.figures),
            process,
        });
    }
    let mut sim = Sim {
        config,
        entry_bytes,
        key_bytes,
        per_page,
        writes,
        levels: Vec::new(),
        key_maps: Vec::new(),
        shape: Shape::default(),
        monkey_memo: RefCell::default(),
        buffer_lo: 0.0,
        now: 0.0,
        lookup_mix: [mix[0], mix[1]],
        mnemosyne_log_c: Cell::new(None),
        counting: false,
        flushes: 0,
        merges: 0,
        pages_written: 0.0,
    };
    let load_flushes = flushes.iter().take_while(|&&at| at <= preload).count();
    for &at in &flushes[..load_flushes] {
        sim.flush(at);
    }
    // The run: its flushes, with lookups priced at evenly spaced moments between them.
    sim.counting = true;
    let mut sums = [0.0; 3];
    let samples = samples_wanted as f64;
    let mut moments = (0..samples_wanted).map(|i| preload + run_writes * (i as f64 + 0.5) / samples).peekable();
    for &at in flushes[load_flushes..].iter().chain(std::iter::once(&f64::INFINITY)) {
        while let Some(now) = moments.next_if(|&now| now < at) {
            // Entries of one run that fall in a range: its share of the key space's ids.
            let c = sim.lookup_costs(now, span / key_space.max(writes.inserted_before(now)));
            for (s, x) in sums.iter_mut().zip(c) {
                *s += x;
            }
        }
        if at.is_finite() {
            sim.flush(at);
        }
    }
    let [zero, existing, range] = sums.map(|s| s / samples);
    let write = if run_writes > 0.0 { sim.pages_written / run_writes } else { 0.0 };
    let class_costs = [zero, existing, range, write];
    let expected = mix.iter().zip(class_costs).map(|(w, c)| w * c).sum();
    Ok(Prediction {
        class_costs,
        mix,
        expected,
        runs: sim.levels.iter().map(Vec::len).sum(),
        levels: sim.levels.iter().filter(|l| !l.is_empty()).count(),
        tree: sim.levels.iter().map(|l| l.iter().map(|r| r.entries.round()).collect()).collect(),
        flushes: sim.flushes,
        merges: sim.merges,
        pages_written: sim.pages_written,
        twin: None,
        process: None,
    })
}

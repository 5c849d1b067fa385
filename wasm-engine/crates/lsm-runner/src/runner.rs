//! Runs a workload (or a trace) against an engine in bounded steps, so a worker can report
//! progress and honour a cancel between steps. The operation sequence does not depend on how
//! the run is chopped into steps, so every run of the same workload gives the same counters.

use serde::Serialize;

use crate::clock;
use crate::latency::LatencyRecorder;
use crate::report::{
    Intents, Predicted, REPORT_KIND, REPORT_VERSION, Report, Results, rocksdb_counters, summarize, write_summary,
};
use lsm_core::error::Result;
use lsm_core::workload::Workload;
use lsm_engine::engine::Engine;
use lsm_engine::stats::Stats;
use lsm_workload::generator::{Generator, Intent, Op, OpSource, OwnedOp, Phase};
use lsm_workload::kvbench::TraceReader;

/// Where a `Runner` stands, returned by every `step`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Progress {
    /// "preload", "run" or "done".
    #[cfg_attr(feature = "ts", ts(type = "\"preload\" | \"run\" | \"done\""))]
    pub phase: &'static str,
    /// Preload operations executed.
    pub preload_done: u64,
    /// Preload operations the source holds.
    pub preload_total: u64,
    /// Run-phase operations executed.
    pub run_done: u64,
    /// None when the source does not know its length.
    pub run_total: Option<u64>,
}

/// What the operations executed so far were meant to do and what they found.
#[derive(Default)]
struct Tally {
    preload_done: u64,
    run_done: u64,
    /// Puts and deletes executed, in either phase.
    writes: u64,
    intents: Intents,
    results: Results,
}

impl Tally {
    /// Execute one operation; counts only if the engine accepted it. Returns its class (an index
    /// into `latency::CLASSES`).
    fn execute(&mut self, engine: &mut Engine, phase: Phase, op: &Op<'_>) -> Result<usize> {
        let run = phase == Phase::Run;
        let class = match *op {
            Op::Put { intent, key, value, .. } => {
                engine.put(key, value)?;
                let update = intent == Intent::Update;
                if run {
                    if update { self.intents.update += 1 } else { self.intents.insert += 1 }
                }
                usize::from(update)
            }
            Op::Delete { key, .. } => {
                engine.delete(key)?;
                self.intents.delete += u64::from(run);
                2
            }
            Op::Get { intent, key, .. } => {
                let found = u64::from(engine.get(key)?.is_some());
                match intent {
                    Intent::GetExisting => {
                        self.intents.get_existing += 1;
                        self.results.get_existing_found += found;
                        3
                    }
                    Intent::GetMissing => {
                        self.intents.get_missing += 1;
                        self.results.get_missing_found += found;
                        4
                    }
                    _ => {
                        self.intents.get += 1;
                        self.results.get_found += found;
                        5
                    }
                }
            }
            Op::Range { start, end, .. } => {
                self.results.range_entries += engine.scan_visit(start, end, |_, _| {})?;
                self.intents.range += 1;
                6
            }
        };
        if run {
            self.run_done += 1;
        } else {
            self.preload_done += 1;
        }
        self.writes += u64::from(class <= 2);
        Ok(class)
    }

    /// `execute`, timed into `latency` when there is one.
    fn execute_timed(
        &mut self,
        engine: &mut Engine,
        phase: Phase,
        op: &Op<'_>,
        latency: Option<&mut LatencyRecorder>,
    ) -> Result<()> {
        match latency {
            None => self.execute(engine, phase, op).map(|_| ()),
            Some(recorder) => {
                let start = clock::now_ns();
                let class = self.execute(engine, phase, op)?;
                let end = clock::now_ns();
                recorder.record(phase, class, end - start, end);
                Ok(())
            }
        }
    }
}

/// Plays an operation source (a generated workload or a KVBench trace) on an engine in bounded steps,
/// and writes the `Report`; the engine is passed to each call, not owned. At the first run operation
/// the preload's counters are set aside and the engine's reset, so the run's are counted alone.
pub struct Runner {
    source: Box<dyn OpSource>,
    workload: Option<Workload>,
    source_name: String,
    preload_total: u64,
    run_total: Option<u64>,
    tally: Tally,
    /// An operation taken from the source but not executed yet: one a full storage refused
    /// (retried first next step, so the sequence stays the same), or the first of the next
    /// phase (a step never spans the preload and the run, so callers can time each phase).
    pending: Option<(Phase, OwnedOp)>,
    preload_stats: Option<Stats>,
    finished: bool,
    /// Per-operation latencies, when asked for (`time_operations`): a clock read per operation.
    latency: Option<LatencyRecorder>,
}

impl Runner {
    /// A runner for a generated workload; fails if the workload does not validate.
    pub fn for_workload(workload: &Workload) -> Result<Runner> {
        workload.validate()?;
        Ok(Self::new(Box::new(Generator::new(workload)), Some(workload.clone()), "workload".into()))
    }

    /// A KVBench trace; integer keys are encoded at `key_bytes` bytes.
    pub fn for_trace(name: &str, text: String, key_bytes: usize) -> Runner {
        Self::new(Box::new(TraceReader::named(name, text, key_bytes)), None, format!("trace:{name}"))
    }

    /// Any other source of operations (a RocksDB trace); `source_name` is the Report's `source`.
    pub fn for_source(source: Box<dyn OpSource>, source_name: String) -> Runner {
        Self::new(source, None, source_name)
    }

    /// What the source could not play as given (a trace's skipped records), in words.
    pub fn source_notes(&self) -> Vec<String> {
        self.source.notes()
    }

    fn new(source: Box<dyn OpSource>, workload: Option<Workload>, source_name: String) -> Runner {
        let (preload_total, run_total) = source.totals();
        Runner {
            source,
            workload,
            source_name,
            preload_total,
            run_total,
            tally: Tally::default(),
            pending: None,
            preload_stats: None,
            finished: false,
            latency: None,
        }
    }

    /// Time every operation from now on (latency percentiles per class and phase, throughput
    /// over time, in the report). Off by default: throughput benchmarks skip the clock.
    pub fn time_operations(&mut self) {
        self.latency.get_or_insert_with(LatencyRecorder::new);
    }

    /// Operations done and to do, and the phase.
    pub fn progress(&self) -> Progress {
        let phase = if self.finished {
            "done"
        } else if self.preload_stats.is_none() && self.tally.preload_done < self.preload_total {
            "preload"
        } else {
            "run"
        };
        Progress {
            phase,
            preload_done: self.tally.preload_done,
            preload_total: self.preload_total,
            run_done: self.tally.run_done,
            run_total: self.run_total,
        }
    }

    /// Operations executed so far (both phases) and, of them, the writes (puts and deletes).
    /// After a `step` returns, every one of these writes is durable.
    pub fn done(&self) -> (u64, u64) {
        (self.tally.preload_done + self.tally.run_done, self.tally.writes)
    }

    /// Operations the source plans (both phases), when it knows its length.
    pub fn planned(&self) -> Option<u64> {
        self.run_total.map(|r| r + self.preload_total)
    }

    /// Whether a step has found the source exhausted: the report is then final.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    fn enter_run(&mut self, engine: &mut Engine) -> Result<()> {
        set_preload_aside(&mut self.preload_stats, engine)
    }

    /// Execute up to `max_ops` operations, then sync: when a step returns, its writes are durable.
    pub fn step(&mut self, engine: &mut Engine, max_ops: u64) -> Result<Progress> {
        if self.latency.is_some() {
            engine.set_stall_clock(clock::now_ns);
        }
        self.run_ops(engine, max_ops)?;
        engine.sync()?;
        Ok(self.progress())
    }

    fn run_ops(&mut self, engine: &mut Engine, max_ops: u64) -> Result<()> {
        let mut step_phase = None;
        for _ in 0..max_ops {
            if let Some((phase, op)) = self.pending.take() {
                step_phase = Some(phase);
                if phase == Phase::Run
                    && let Err(e) = set_preload_aside(&mut self.preload_stats, engine)
                {
                    self.pending = Some((phase, op));
                    return Err(e);
                }
                if let Err(e) = self.tally.execute_timed(engine, phase, &op.as_op(), self.latency.as_mut()) {
                    self.pending = Some((phase, op));
                    return Err(e);
                }
                continue;
            }
            let Some((phase, op)) = self.source.next_op()? else {
                self.enter_run(engine)?;
                // The end of the run is a quiet tree too, so the report's tree and counters hold every merge.
                engine.settle()?;
                self.finished = true;
                break;
            };
            if *step_phase.get_or_insert(phase) != phase {
                self.pending = Some((phase, OwnedOp::of(&op)));
                // The load ends with a quiet tree, inside the load's last step (its time is the load's).
                engine.settle()?;
                break;
            }
            if phase == Phase::Run
                && let Err(e) = set_preload_aside(&mut self.preload_stats, engine)
            {
                self.pending = Some((phase, OwnedOp::of(&op)));
                return Err(e);
            }
            if let Err(e) = self.tally.execute_timed(engine, phase, &op, self.latency.as_mut()) {
                self.pending = Some((phase, OwnedOp::of(&op)));
                return Err(e);
            }
        }
        Ok(())
    }

    /// The report of everything run so far.
    pub fn report(&self, engine: &Engine) -> Report {
        let (preload, run) = match &self.preload_stats {
            Some(p) => (p.clone(), engine.stats().clone()),
            None => (engine.stats().clone(), Stats::default()),
        };
        let tree = engine.tree();
        Report {
            kind: REPORT_KIND.into(),
            version: REPORT_VERSION,
            engine: format!("lsm-engine {}", env!("CARGO_PKG_VERSION")),
            config: engine.config().clone(),
            merges: Some(engine.merging),
            workload: self.workload.clone(),
            source: self.source_name.clone(),
            preload_operations: self.tally.preload_done,
            operations: self.tally.intents.clone(),
            results: self.tally.results.clone(),
            summary: summarize(&run),
            writes: write_summary(&run, {
                let i = &self.tally.intents;
                i.insert + i.update + i.delete
            }),
            load_writes: write_summary(&preload, self.tally.preload_done),
            rocksdb_counters: rocksdb_counters(&run, engine.config().page_bytes),
            predicted: Predicted { zero_result_lookup_io: tree.zero_result_cost(), runs: tree.run_count() },
            preload,
            run,
            tree,
            timings: None,
            latency: self.latency.as_ref().map(LatencyRecorder::report),
        }
    }
}

/// At the first run operation (or the end of a workload without one), the merges the load made
/// due are finished (RocksDB's benchmarks wait for compactions after a load, and the engine's
/// paced merges would otherwise be charged to the run), then the preload's counters are set aside
/// and the engine's are reset, so the run's are counted alone.
fn set_preload_aside(preload_stats: &mut Option<Stats>, engine: &mut Engine) -> Result<()> {
    if preload_stats.is_none() {
        engine.settle()?;
        *preload_stats = Some(engine.stats().clone());
        engine.reset_stats();
    }
    Ok(())
}

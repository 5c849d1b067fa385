//! `lsm bench`: a workload timed natively, its load and run apart, with the CPU each used, printed
//! as one JSON line for the bench scripts (`scripts/bench.mjs`): rates, the load counted as ingest
//! and to quiescence, and with `--latency` the load's insert latency and stalls.

use lsm_core::config::EngineConfig;
use lsm_core::error::Result;
use lsm_core::workload::Workload;
use lsm_runner::clock::now_ns;
use lsm_runner::runner::Runner;

use super::cli::BenchArgs;
use super::{close_engine, load_config, load_workload, merging_name, ms_since, open_engine};

const BENCH_CONFIG: &str = include_str!("../../../../public/examples/bench-config.json");
const BENCH_WORKLOAD: &str = include_str!("../../../../public/examples/bench-workload.json");

pub(crate) fn bench(a: &BenchArgs) -> Result<()> {
    let config = match &a.config {
        Some(p) => load_config(p)?,
        None => EngineConfig::from_json(BENCH_CONFIG)?,
    };
    let workload = match &a.workload {
        Some(p) => load_workload(p, &a.counts)?,
        None => Workload::from_json(BENCH_WORKLOAD)?,
    };
    let mut engine = open_engine(config, &a.store)?;
    let merging = engine.merging;
    let mut runner = Runner::for_workload(&workload)?;
    if a.latency {
        runner.time_operations();
    }
    let start = now_ns();
    let cpu_start = clock_seconds(libc::CLOCK_PROCESS_CPUTIME_ID);
    runner.step(&mut engine, workload.preload.entries)?;
    let ingest_s = ms_since(start) / 1e3;
    // What the load left due, finished before the run (as db_bench's phases after a load find it).
    engine.settle()?;
    engine.sync()?;
    let load_s = ms_since(start) / 1e3;
    let load_cpu_s = clock_seconds(libc::CLOCK_PROCESS_CPUTIME_ID) - cpu_start;
    let start = now_ns();
    let cpu_start = clock_seconds(libc::CLOCK_PROCESS_CPUTIME_ID);
    runner.step(&mut engine, workload.operations + 1)?;
    let run_s = ms_since(start) / 1e3;
    let run_cpu_s = clock_seconds(libc::CLOCK_PROCESS_CPUTIME_ID) - cpu_start;
    let report = runner.report(&engine);
    close_engine(engine, &a.store)?;
    let mut line = serde_json::json!({
        "target": "native",
        "storage": if a.store.dir.is_some() { "files" } else { "memory" },
        "wal": !a.store.no_wal,
        "preload_ops": workload.preload.entries,
        "run_ops": workload.operations,
        "load_seconds": load_s,
        "run_seconds": run_s,
        "load_cpu_seconds": load_cpu_s,
        "run_cpu_seconds": run_cpu_s,
        "load_ops_per_sec": workload.preload.entries as f64 / load_s,
        "run_ops_per_sec": workload.operations as f64 / run_s,
        "found": report.results.get_existing_found,
        "run_page_ios": report.summary.iter().map(|c| c.page_ios).sum::<u64>(),
        // The mode that ran (`--merges`, or the storage's default), as the Report has it.
        "merges": merging_name(merging),
        "ingest_seconds": ingest_s,
        "ingest_ops_per_sec": workload.preload.entries as f64 / ingest_s,
    });
    if let (Some(l), Some(object)) = (&report.latency, line.as_object_mut()) {
        if let Some(insert) = l.load.iter().find(|c| c.class == "insert") {
            object.insert(
                "insert_latency_ns".into(),
                serde_json::json!({
                    "p50": insert.p50_ns, "p99": insert.p99_ns, "p999": insert.p999_ns, "max": insert.max_ns,
                    // On CLOCK_MONOTONIC (Node's `process.hrtime`), so a bench can ask the host's
                    // steal time for the slowest insert's span.
                    "max_end_monotonic_ns": insert.max_end_ns + clock_seconds(libc::CLOCK_MONOTONIC) * 1e9 - now_ns(),
                }),
            );
        }
        object.insert("load_stalls".into(), serde_json::to_value(&report.preload.stalls).unwrap_or_default());
    }
    outln!("{line}");
    Ok(())
}

/// A clock of `clock_gettime`, in seconds: `CLOCK_PROCESS_CPUTIME_ID`, the CPU the process has
/// used on all threads (a phase's own work on a shared machine, where the wall clock also counts
/// the time other processes held the cores), or `CLOCK_MONOTONIC`, what `now_ns` (std's `Instant`)
/// reads on Linux but from the kernel's origin, as Node's `process.hrtime` reads it.
fn clock_seconds(clock: libc::clockid_t) -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec for the call to fill; it reads nothing else.
    let ok = unsafe { libc::clock_gettime(clock, &mut t) } == 0;
    if ok { t.tv_sec as f64 + t.tv_nsec as f64 / 1e9 } else { f64::NAN }
}

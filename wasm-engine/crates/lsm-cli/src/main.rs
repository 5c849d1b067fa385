//! `lsm`: the engine as a native command-line tool. Same engine, same documents, same counters
//! as the browser: `lsm run` on an exported config reproduces a run from the explorer.
//!
//! The command line is declared in `cli` (clap, which also writes the help and the completions);
//! the commands are here and in `experiments`.

use std::path::Path;
use std::process::ExitCode;

use clap::{CommandFactory as _, FromArgMatches as _};

use lsm_core::calibration::{Calibration, time_cost};
use lsm_core::config::EngineConfig;
use lsm_core::error::{Error, Result};
use lsm_core::workload::{MAX_OPERATIONS, Workload};
use lsm_engine::engine::{Engine, Merger, Merging};
use lsm_engine::storage::{FileStorage, MemStorage, Storage};
use lsm_runner::clock::now_ns;
use lsm_runner::report::{Report, Timings};
use lsm_runner::runner::Runner;
use lsm_workload::fit::{fit_rocksdb_trace, fit_trace};
use lsm_workload::generator::Generator;
use lsm_workload::kvbench;
use lsm_workload::rocksdb_trace::RocksdbTrace;
use lsm_workload::ycsb;

/// Print to stdout; a reader that went away (`lsm trace … | head`) ends the output quietly
/// instead of panicking as `print!` does on a broken pipe.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let mut stdout = std::io::stdout().lock();
        if let Err(e) = write!(stdout, $($arg)*).and_then(|()| stdout.flush()) {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                std::process::exit(0);
            }
            eprintln!("lsm: cannot write the output: {e}");
            std::process::exit(1);
        }
    }};
}

macro_rules! outln {
    ($($arg:tt)*) => {{
        out!("{}\n", format_args!($($arg)*));
    }};
}

mod bench;
mod calibrate;
mod cli;
mod experiments;

use cli::{
    CalibrateArgs, Command, Counts, ExportArgs, FitArgs, ImportArgs, PredictArgs, RunArgs, Store, TraceArgs, TuneArgs,
    ValidateArgs, YcsbArgs,
};

fn main() -> ExitCode {
    // Parsed in two steps so an error names the command as typed (`lsm run: --config: …`).
    let matches = cli::Cli::command().get_matches();
    let name = matches.subcommand_name().unwrap_or("lsm").to_string();
    let command = match cli::Cli::from_arg_matches(&matches) {
        Ok(c) => c.command,
        Err(e) => e.exit(),
    };
    let result = match command {
        Command::Run(a) => run(&a),
        Command::Trace(a) => trace(&a),
        Command::Validate(a) => validate(&a),
        Command::Bench(a) => bench::bench(&a),
        Command::Export(a) => export(&a),
        Command::Import(a) => import(&a),
        Command::Ycsb(a) => ycsb_properties(&a),
        Command::Fit(a) => fit(&a),
        Command::Predict(a) => predict(&a),
        Command::Calibrate(a) => calibrate_cmd(&a),
        Command::Tune(a) => tune(&a),
        Command::Growth(a) => experiments::growth(&a),
        Command::Keys(a) => experiments::keys(&a),
        Command::Ops(a) => experiments::ops(&a),
        Command::Writes(a) => experiments::writes(&a),
        Command::Version => {
            outln!("lsm {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
        Command::Completions(a) => {
            // Into memory first: the generator panics on a write error, `out!` ends quietly.
            let mut script = Vec::new();
            clap_complete::generate(a.shell, &mut cli::Cli::command(), "lsm", &mut script);
            out!("{}", String::from_utf8_lossy(&script));
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lsm {name}: {e}");
            ExitCode::FAILURE
        }
    }
}

/// A new engine on `--dir` (files) or in memory, logging writes ahead unless `--no-wal`, merging
/// as `--merges` says or as suits the storage (`merging_for`).
fn open_engine(config: EngineConfig, store: &Store) -> Result<Engine> {
    let dir = store.dir.as_deref().map(Path::new);
    engine_on(config, dir, !store.no_wal, merging_for(store.merges.as_deref(), dir.is_some())?)
}

/// When an engine's merges run: `--merges` as given (`flag`), or else the default for its
/// storage. On files, background: natively there are threads and each can open the files, so
/// flushes and merges run beside the writes as RocksDB's do, and a write waits only when they
/// fall behind (paced merging on files holds a write for a whole table's sealing: RocksDB-sized
/// stalls). In memory, paced, as the browser runs it: memory storage lives in one thread, and an
/// in-memory run is how a run in the explorer is reproduced. The one place the default is
/// chosen: every command that runs the engine asks here.
fn merging_for(flag: Option<&str>, on_files: bool) -> Result<Merging> {
    match flag {
        None if on_files => Ok(Merging::Background),
        None | Some("paced") => Ok(Merging::Paced),
        Some("inline") => Ok(Merging::Inline),
        Some("background") if on_files => Ok(Merging::Background),
        Some("background") => Err(Error::invalid(
            "--merges",
            "background needs --dir (the merger threads open the files themselves; memory storage lives in one thread)",
        )),
        Some(other) => Err(Error::invalid("--merges", format!("must be background, paced or inline, got \"{other}\""))),
    }
}

/// A new engine on files in `dir` (which must be empty) or in memory, merging as `merging` says.
fn engine_on(config: EngineConfig, dir: Option<&Path>, wal: bool, merging: Merging) -> Result<Engine> {
    let mut engine = Engine::create(config, storage(dir)?)?;
    engine.set_write_ahead_log(wal);
    match (merging, dir) {
        (Merging::Background, Some(dir)) => {
            // The merger's threads open the same files on handles of their own.
            let open = || -> Result<Box<dyn Storage + Send>> { Ok(Box::new(FileStorage::open(dir)?)) };
            engine.merge_in_background(Merger::threads(open)?)?;
        }
        (Merging::Background, None) => return Err(Error::invalid("--merges", "background needs --dir")),
        (m, _) => engine.merging = m,
    }
    Ok(engine)
}

/// The end of a clean run, after its report: without the log, the buffer is flushed so the
/// database on files holds every write (RocksDB flushes on close for the same reason).
fn close_engine(mut engine: Engine, store: &Store) -> Result<()> {
    if store.no_wal && store.dir.is_some() {
        engine.flush()?;
    }
    Ok(())
}

fn read(path: &str) -> Result<String> {
    std::fs::read_to_string(path).map_err(|e| Error::storage(path, e.to_string()))
}

/// A RocksDB query trace, opened (read and checked whole).
fn open_rocksdb_trace(path: &str) -> Result<RocksdbTrace> {
    RocksdbTrace::open(path, std::fs::read(path).map_err(|e| Error::storage(path, e.to_string()))?)
}

/// A source's notes (what a trace held that is not played as given) on stderr.
fn print_notes(path: &str, notes: &[String]) {
    for note in notes {
        eprintln!("{path}: {note}");
    }
}

fn load_config(path: &str) -> Result<EngineConfig> {
    EngineConfig::from_json(&read(path)?).map_err(|e| in_file(path, e))
}

/// A Workload from its JSON, from a YCSB workload properties file, or `ycsb:a` … `ycsb:f` (YCSB's
/// core workloads). `--records` / `--operations` replace a YCSB workload's recordcount /
/// operationcount, as YCSB's `-p` does. What YCSB says that the engine cannot goes to stderr.
fn load_workload(path: &str, counts: &Counts) -> Result<Workload> {
    // A core workload is named as YCSB names its file (workloads/workloada).
    let mut file = path.to_string();
    let mut text = match path.strip_prefix("ycsb:") {
        Some(name) => {
            let (named, text) = ycsb::named_core_workload(name, 1_000, 1_000)?;
            file = named;
            text
        }
        None => {
            let text = read(path)?;
            if text.trim_start().starts_with('{') {
                return Workload::from_json(&text).map_err(|e| in_file(path, e));
            }
            if lsm_workload::db_bench::looks_like_db_bench(&text) {
                return load_db_bench(path, &text, counts);
            }
            text
        }
    };
    for (flag, property, value) in
        [("records", "recordcount", &counts.records), ("operations", "operationcount", &counts.operations)]
    {
        if let Some(v) = value {
            let n: u64 = v.parse().ok().filter(|&n| n <= MAX_OPERATIONS).ok_or_else(|| {
                Error::invalid(format!("--{flag}"), format!("must be an integer in [0, {MAX_OPERATIONS}], got {v}"))
            })?;
            text.push_str(&format!("\n{property}={n}\n"));
        }
    }
    let play: ycsb::Play = counts.ycsb_client.as_deref().unwrap_or("engine").parse().map_err(|_| {
        Error::invalid(
            "--ycsb-client",
            format!("must be engine, cpp or java, got \"{}\"", counts.ycsb_client.as_deref().unwrap_or_default()),
        )
    })?;
    let imported = ycsb::from_properties_played(&text, &file, play).map_err(|e| match e {
        Error::Invalid { field, message } => Error::Invalid { field: format!("{path}: {field}"), message },
        other => other,
    })?;
    for w in &imported.warnings {
        eprintln!("{path}: {} ({}): {}", w.field, w.kind, w.message);
    }
    for k in &imported.unknown_keys {
        eprintln!("{path}: {k}: not a YCSB CoreWorkload property; ignored");
    }
    Ok(imported.workload)
}

/// A db_bench command line as a workload; `--records`/`--operations` set `--num` (and the
/// fill) and `--reads` as db_bench would take them, appended so they win.
fn load_db_bench(path: &str, text: &str, counts: &Counts) -> Result<Workload> {
    let mut line = text.to_string();
    if let Some(n) = &counts.records {
        line.push_str(&format!(" --num={n}"));
    }
    if let Some(n) = &counts.operations {
        line.push_str(&format!(" --reads={n}"));
    }
    let imported = lsm_workload::db_bench::from_command_line(&line).map_err(|e| in_file(path, e))?;
    for w in &imported.warnings {
        eprintln!("{path}: {} ({}): {}", w.field, w.kind, w.message);
    }
    for k in &imported.unknown_flags {
        eprintln!("{path}: {k}: not a db_bench flag this reader knows; ignored");
    }
    Ok(imported.workload)
}

/// Prefix a document error with the file it came from.
fn in_file(path: &str, e: Error) -> Error {
    match e {
        Error::Invalid { field, message } => Error::Invalid { field: format!("{path}: {field}"), message },
        Error::Parse { document, message } => Error::Parse { document: format!("{path} ({document})"), message },
        other => other,
    }
}

/// Files in `--dir`, which must be empty, or memory without it.
fn storage(dir: Option<&Path>) -> Result<Box<dyn Storage>> {
    match dir {
        Some(dir) => {
            let mut s = FileStorage::open(dir)?;
            if !s.list()?.is_empty() {
                return Err(Error::invalid(
                    "--dir",
                    format!("{} must be empty (a new database is created there)", dir.display()),
                ));
            }
            Ok(Box::new(s))
        }
        None => Ok(Box::new(MemStorage::new())),
    }
}

/// `--key-bytes`: the length integer trace keys are encoded to (16 unless given).
fn key_bytes(k: &str) -> Result<usize> {
    k.parse::<usize>()
        .ok()
        .filter(|k| (8..=1024).contains(k))
        .ok_or_else(|| Error::invalid("--key-bytes", format!("must be an integer in [8, 1024], got {k}")))
}

/// Milliseconds since `start` (a reading of `now_ns`).
fn ms_since(start: f64) -> f64 {
    (now_ns() - start) / 1e6
}

/// Drive a runner to the end, timing the preload and the run separately.
fn drive(runner: &mut Runner, engine: &mut Engine) -> Result<Timings> {
    const STEP: u64 = 10_000;
    let mut t = Timings::default();
    let mut start = now_ns();
    let mut in_preload = runner.progress().phase == "preload";
    while !runner.is_finished() {
        let p = runner.step(engine, STEP)?;
        if in_preload && p.phase != "preload" {
            // The step that crossed into the run may hold a few run operations; steps are
            // small, so the error is below 1%. Exact splits use `bench` (one phase per step).
            t.preload_ms = ms_since(start);
            start = now_ns();
            in_preload = false;
        }
    }
    t.run_ms = ms_since(start);
    Ok(t)
}

fn run(a: &RunArgs) -> Result<()> {
    let config = load_config(&a.config)?;
    // clap has seen to it that exactly one of them is given.
    let mut runner = match (&a.workload, &a.trace, &a.rocksdb_trace) {
        (Some(w), _, _) => Runner::for_workload(&load_workload(w, &a.counts)?)?,
        (None, Some(t), _) => Runner::for_trace(t, read(t)?, key_bytes(&a.key_bytes.key_bytes)?),
        (None, None, Some(t)) => Runner::for_source(Box::new(open_rocksdb_trace(t)?), format!("rocksdb-trace:{t}")),
        (None, None, None) => {
            return Err(Error::invalid("--workload/--trace/--rocksdb-trace", "give exactly one of them"));
        }
    };
    if let Some(t) = &a.rocksdb_trace {
        print_notes(t, &runner.source_notes());
    }
    runner.time_operations();
    let mut engine = open_engine(config, &a.store)?;
    let timings = drive(&mut runner, &mut engine)?;
    let mut report = runner.report(&engine);
    close_engine(engine, &a.store)?;
    report.timings = Some(timings);
    eprintln!("{}", summary(&report));
    let json = report.to_json();
    match &a.report {
        Some(path) => std::fs::write(path, json + "\n").map_err(|e| Error::storage(path, e.to_string())),
        None => {
            outln!("{json}");
            Ok(())
        }
    }
}

fn summary(r: &Report) -> String {
    let (load_ms, run_ms) = r.timings.as_ref().map_or((0.0, 0.0), |t| (t.preload_ms, t.run_ms));
    let run_ops: u64 = r.run.ops.iter().sum();
    let mut lines = vec![
        format!("merges: {}", merges_said(r.merges)),
        format!("tree: {} levels, {} runs", r.tree.levels.len(), r.tree.run_count()),
        phase_line("load", r.preload_operations, load_ms, &r.load_writes),
        phase_line("run ", run_ops, run_ms, &r.writes),
    ];
    for c in r.summary.iter().filter(|c| c.count > 0) {
        lines.push(format!("  {:<20} {:>10} ops  {:.4} I/O per op", c.class, c.count, c.io_per_op));
    }
    lines.push(format!(
        "  predicted zero-result I/O {:.4}; run: pages written per update {:.4}",
        r.predicted.zero_result_lookup_io, r.writes.pages_written_per_update
    ));
    for (phase, s) in [("load", &r.preload.stalls), ("run ", &r.run.stalls)] {
        lines.push(format!(
            "  {phase} stalls: {} slowed down, {} stopped, {} flushes waited for merges; {} pages merged stalled, {} stalled",
            s.slowdowns,
            s.stops,
            s.flush_waits,
            s.pages_merged,
            duration(s.stalled_ns as f64)
        ));
    }
    if let Some(l) = &r.latency {
        lines.push(format!("latency (clock resolution {}):", duration(l.clock_resolution_ns)));
        for (phase, classes) in [("load", &l.load), ("run ", &l.run)] {
            for c in classes {
                lines.push(format!(
                    "  {phase} {:<13} {:>10} ops  p50 {}  p95 {}  p99 {}  p99.9 {}  max {}",
                    c.class,
                    c.count,
                    duration(c.p50_ns),
                    duration(c.p95_ns),
                    duration(c.p99_ns),
                    duration(c.p999_ns),
                    duration(c.max_ns)
                ));
            }
        }
    }
    lines.join("\n")
}

/// A merge mode by the name `--merges` and the Report give it.
fn merging_name(m: Merging) -> &'static str {
    match m {
        Merging::Background => "background",
        Merging::Paced => "paced",
        Merging::Inline => "inline",
    }
}

/// The merge mode a run had, as its summary says it (the latency tail and the stalls depend on it).
fn merges_said(m: Option<Merging>) -> &'static str {
    match m {
        Some(Merging::Background) => "background (a flush thread and a merge thread beside the writes)",
        Some(Merging::Paced) => "paced (each write merges a slice of the pending work)",
        Some(Merging::Inline) => "inline (each flush's merges to completion inside the write that made them due)",
        None => "not recorded",
    }
}

/// 850 ns, 12.3 µs, 4.56 ms.
fn duration(ns: f64) -> String {
    if ns < 1e3 {
        format!("{ns:.0} ns")
    } else if ns < 1e6 {
        format!("{:.3} µs", ns / 1e3)
    } else {
        format!("{:.3} ms", ns / 1e6)
    }
}

/// One phase in a line: operations, time and rate, then what its flushes and merges wrote.
fn phase_line(name: &str, ops: u64, ms: f64, w: &lsm_runner::report::WriteSummary) -> String {
    let rate = if ms > 0.0 { format!(" ({:.0} ops/s)", ops as f64 / (ms / 1000.0)) } else { String::new() };
    let t = &w.totals;
    format!(
        "{name}: {ops} operations in {:.3} s{rate}; {} flushes, {} merges, {} pages written ({:.1} MiB), write amplification {:.2}",
        ms / 1000.0,
        t.flushes,
        t.compactions,
        t.data_pages_written + t.meta_pages_written,
        t.bytes_written as f64 / 1_048_576.0,
        w.write_amplification
    )
}

fn trace(a: &TraceArgs) -> Result<()> {
    let w = load_workload(&a.workload, &a.counts)?;
    out!("{}", kvbench::write_trace(&mut Generator::new(&w))?);
    Ok(())
}

fn validate(a: &ValidateArgs) -> Result<()> {
    match (&a.config, &a.workload) {
        (Some(c), _) => load_config(c).map(|_| ()),
        (None, Some(w)) => load_workload(w, &a.counts).map(|_| ()),
        (None, None) => Err(Error::invalid("--config/--workload", "give exactly one of them")),
    }?;
    outln!("ok");
    Ok(())
}

/// RocksDB 7.8's defaults as `Options()` opens a database: what `lsm calibrate` measures by default.
const ROCKSDB_DEFAULTS: &str = include_str!("../../../../public/presets/rocksdb.json");
fn export(a: &ExportArgs) -> Result<()> {
    let config = load_config(&a.design)?;
    let format: lsm_export::Format = a.format.parse()?;
    let workload = a.workload.as_ref().map(|w| load_workload(w, &a.counts)).transpose()?;
    let out = lsm_export::export(&config, format, workload.as_ref())?;
    for w in &out.warnings {
        eprintln!("warning: {} {}: {}", w.kind, w.field, w.message);
    }
    out!("{}", out.text);
    Ok(())
}

fn import(a: &ImportArgs) -> Result<()> {
    use lsm_export::ImportKind;
    let (path, kind) = match (&a.rocksdb, &a.engine) {
        (Some(p), _) => (p, ImportKind::Rocksdb),
        (None, Some(p)) => (p, ImportKind::Engine),
        (None, None) => return Err(Error::invalid("--rocksdb/--engine", "give exactly one of them")),
    };
    let imported = lsm_export::import(&read(path)?, kind).map_err(|e| in_file(path, e))?;
    for key in &imported.unknown_keys {
        eprintln!("unknown key (ignored): {key}");
    }
    for w in &imported.warnings {
        eprintln!("warning: {} {}: {}", w.kind, w.field, w.message);
    }
    out!("{}", lsm_export::engine::canonical_json(&imported.config));
    Ok(())
}

fn ycsb_properties(a: &YcsbArgs) -> Result<()> {
    let workload = match (&a.core, &a.workload) {
        (Some(letter), _) => load_workload(&format!("ycsb:{letter}"), &a.counts)?,
        (None, Some(w)) => load_workload(w, &a.counts)?,
        (None, None) => return Err(Error::invalid("--core/--workload", "give exactly one of them")),
    };
    let (text, warnings) = ycsb::to_properties(&workload)?;
    for w in &warnings {
        eprintln!("{}: {} ({}): {}", a.workload.as_deref().unwrap_or("workload"), w.field, w.kind, w.message);
    }
    out!("{text}");
    Ok(())
}

fn fit(a: &FitArgs) -> Result<()> {
    if a.rocksdb_log.is_some() {
        return fit_rocksdb_log(a);
    }
    let (path, fitted) = match (&a.trace, &a.rocksdb_trace) {
        (Some(path), _) => (path, fit_trace(path, read(path)?, key_bytes(&a.key_bytes.key_bytes)?)?),
        (None, Some(path)) => {
            let data = std::fs::read(path).map_err(|e| Error::storage(path, e.to_string()))?;
            (path, fit_rocksdb_trace(path, data)?)
        }
        (None, None) => {
            return Err(Error::invalid("--trace/--rocksdb-trace/--rocksdb-log", "give exactly one of them"));
        }
    };
    print_notes(path, &fitted.notes);
    outln!("{}", serde_json::to_string_pretty(&fitted).map_err(|e| Error::invalid("fit", e.to_string()))?);
    Ok(())
}

/// `--process` and `--threads` as the process model (`lsm_tune::predict::Process`), checked.
fn process_of(between: &str, threads: &str) -> Result<lsm_tune::predict::Process> {
    let p = lsm_tune::predict::Process { between: between.parse()?, threads: number(threads, "threads")? };
    p.validate()?;
    Ok(p)
}

/// `lsm fit --rocksdb-log LOG [--options OPTIONS]`.
fn fit_rocksdb_log(a: &FitArgs) -> Result<()> {
    let log_path = a.rocksdb_log.as_deref().unwrap_or_default();
    let log = lsm_export::rocksdb_log::parse(&read(log_path)?).map_err(|e| in_file(log_path, e))?;
    let options_path = match &a.options {
        Some(p) => Some(p.clone()),
        None => newest_options_beside(log_path),
    };
    let options = options_path.as_deref().map(|p| Ok::<_, Error>((p, read(p)?))).transpose()?;
    let (text, assumed) = match &options {
        Some((_, t)) => (t.as_str(), None),
        None => {
            let (text, said) = lsm_tune::fit_log::options_without_a_file(&log);
            (text, Some(said.replace("no OPTIONS file given", "no OPTIONS file beside the LOG")))
        }
    };
    let imported = lsm_export::import(text, lsm_export::ImportKind::Rocksdb)
        .map_err(|e| in_file(options_path.as_deref().unwrap_or("the LOG's options"), e))?;
    let mut fitted = lsm_tune::fit_log::fit_log(log_path, &log, &imported.config)?;
    match (&options, assumed) {
        (Some((p, _)), _) => eprintln!("{log_path}: the design is {p}'s"),
        (None, Some(said)) => fitted.assumptions.insert(0, said),
        (None, None) => {}
    }
    for note in &fitted.assumptions {
        eprintln!("{log_path}: {note}");
    }
    outln!("{}", serde_json::to_string_pretty(&fitted).map_err(|e| Error::invalid("fit", e.to_string()))?);
    Ok(())
}

/// The OPTIONS-n file with the largest n in the LOG's directory (RocksDB writes a new one at each
/// open and option change, and keeps the last two).
fn newest_options_beside(log_path: &str) -> Option<String> {
    let dir = Path::new(log_path).parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let n: u64 = name.strip_prefix("OPTIONS-")?.parse().ok()?;
            Some((n, e.path()))
        })
        .max_by_key(|(n, _)| *n)
        .map(|(_, p)| p.to_string_lossy().into_owned())
}

fn predict(a: &PredictArgs) -> Result<()> {
    let config = load_config(&a.config)?;
    let workload = load_workload(&a.workload, &a.counts)?;
    let calibration = match &a.calibration {
        Some(path) => Some(Calibration::from_json(&read(path)?).map_err(|e| in_file(path, e))?),
        None => None,
    };
    let process = process_of(&a.process, &a.threads)?;
    let device = calibration.as_ref().map_or_else(lsm_tune::predict::Device::default, |c| lsm_tune::predict::Device {
        block_read_us: c.page_read_us,
        cpu_us: c.cpu_us[1],
    });
    let p = lsm_tune::predict::Predictor::new(&workload)?
        .with_process(process, device)
        .predict(&config, lsm_tune::predict::SAMPLES)?;
    let mut doc = serde_json::to_value(&p).map_err(|e| Error::invalid("prediction", e.to_string()))?;
    if let Some(calibration) = &calibration {
        let time = time_cost(&p.class_costs, &p.mix, calibration);
        eprintln!(
            "on {}: {:.1} µs per operation, {:.0} ops/s ({})",
            calibration.device, time.mean_us, time.ops_per_sec, calibration.store
        );
        doc["time"] = serde_json::to_value(&time).map_err(|e| Error::invalid("time", e.to_string()))?;
    }
    outln!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
    Ok(())
}

fn calibrate_cmd(a: &CalibrateArgs) -> Result<()> {
    let config = match &a.config {
        Some(path) => load_config(path)?,
        None => EngineConfig::from_json(ROCKSDB_DEFAULTS)?,
    };
    let dir = a.dir.as_ref().map_or_else(std::env::temp_dir, std::path::PathBuf::from);
    let c = calibrate::calibrate(&dir, &config, number(&a.probe_mib, "probe-mib")?, number(&a.reads, "reads")?)?;
    eprintln!(
        "{}: page read {:.1} µs, page write {:.2} µs; CPU per operation {:.2} / {:.2} / {:.2} / {:.2} µs \
         (zero-result, non-zero-result, range, write)",
        c.device, c.page_read_us, c.page_write_us, c.cpu_us[0], c.cpu_us[1], c.cpu_us[2], c.cpu_us[3]
    );
    for n in &c.notes {
        eprintln!("note: {n}");
    }
    outln!("{}", serde_json::to_string_pretty(&c).unwrap_or_default());
    Ok(())
}

/// A flag's value as a number; the engine checks its range where it is used.
fn number<T: std::str::FromStr>(v: &str, name: &str) -> Result<T> {
    v.parse().map_err(|_| Error::invalid(format!("--{name}"), format!("must be a number, got {v}")))
}

fn tune(a: &TuneArgs) -> Result<()> {
    // With --options, the user's file: the design, its memtable count, and the text the
    // recommendation is written into.
    let (config, original, file_write_buffers) = match (&a.options, &a.config) {
        (Some(path), _) => {
            let text = read(path)?;
            let imported = lsm_export::import(&text, lsm_export::ImportKind::Rocksdb).map_err(|e| in_file(path, e))?;
            (imported.config, Some(text), imported.write_buffers)
        }
        (None, Some(path)) => (load_config(path)?, None, None),
        (None, None) => return Err(Error::invalid("--options", "is required (or --config)")),
    };
    let workload = load_workload(&a.workload, &a.counts)?;
    let rho: f64 = number(&a.robust, "robust")?;
    let target: lsm_tune::Target = a.target.parse()?;
    let options = lsm_tune::TuneOptions {
        rho,
        target,
        memory: a.memory.as_deref().map(|m| number::<f64>(m, "memory")).transpose()?,
        write_buffers: match &a.max_write_buffer_number {
            Some(n) => number(n, "max-write-buffer-number")?,
            None => file_write_buffers.unwrap_or(lsm_tune::DEFAULT_WRITE_BUFFERS),
        },
        rank: a.rank.parse()?,
        calibration: match &a.calibration {
            Some(path) => Some(Calibration::from_json(&read(path)?).map_err(|e| in_file(path, e))?),
            None => None,
        },
        plugin: a.plugin.as_deref().map(str::parse).transpose()?,
        process: process_of(&a.process, &a.threads)?,
    };
    let started = now_ns();
    let result = lsm_tune::tune_with(&config, &workload, &options)?;
    eprintln!("tuned in {:.1} ms over {} designs", ms_since(started), result.candidates);
    if let (Some(c), Some(now), Some(rec)) = (&result.calibration, &result.current.time, &result.recommendation().time)
    {
        eprintln!(
            "ranked by time on {}: {:.1} → {:.1} µs per operation, {:.0} → {:.0} ops/s ({})",
            c.device, now.mean_us, rec.mean_us, now.ops_per_sec, rec.ops_per_sec, c.store
        );
    }
    let Some(dir) = &a.out else {
        outln!("{}", result.to_json());
        return Ok(());
    };
    std::fs::create_dir_all(dir).map_err(|e| Error::storage(dir, e.to_string()))?;
    // With --out: prove it on the engine (files under DIR/db), then write the bundle.
    let db = std::path::Path::new(dir).join("db");
    // On files, so merged as `lsm run --dir` merges by default.
    let merging = merging_for(None, true)?;
    let measure = |name: &str, config: &EngineConfig| -> Result<f64> {
        let path = db.join(name);
        let _ = std::fs::remove_dir_all(&path);
        let mut engine = engine_on(config.clone(), Some(&path), true, merging)?;
        let mut runner = Runner::for_workload(&workload)?;
        drive(&mut runner, &mut engine)?;
        Ok(runner.report(&engine).io_per_op())
    };
    let proof = lsm_tune::bundle::Proof {
        current: measure("current", &result.current.config)?,
        recommended: measure("recommended", &result.recommendation().config)?,
        on: format!("the engine, on files, with {} merges (lsm tune --out)", merging_name(merging)),
    };
    let _ = std::fs::remove_dir_all(&db);
    for f in lsm_tune::bundle::files(&result, Some(&proof), original.as_deref())? {
        let path = std::path::Path::new(dir).join(&f.name);
        std::fs::write(&path, &f.text).map_err(|e| Error::storage(path.to_string_lossy(), e.to_string()))?;
    }
    let h = &result.headline;
    outln!(
        "{dir}: predicted gain {:.1}% ({:.1}% to {:.1}%, {}{}); in the run, I/O per operation: predicted {:.1}%, measured \
         {:.1}% ({:.4} → {:.4})",
        h.gain * 100.0,
        h.low * 100.0,
        h.high * 100.0,
        h.measures,
        if h.keep { "; keep your design" } else { "" },
        result.predicted_gain * 100.0,
        (1.0 - proof.recommended / proof.current.max(1e-12)) * 100.0,
        proof.current,
        proof.recommended
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory as _, Parser as _};

    use super::cli::Cli;

    /// On files the merges run in the background unless told otherwise; in memory they are paced,
    /// as in the browser; a mode the storage cannot run, or no mode at all, is refused.
    #[test]
    fn the_default_merge_mode_follows_the_storage() {
        use lsm_engine::engine::Merging;

        use super::merging_for;
        assert_eq!(merging_for(None, true).ok(), Some(Merging::Background));
        assert_eq!(merging_for(None, false).ok(), Some(Merging::Paced));
        for on_files in [true, false] {
            assert_eq!(merging_for(Some("paced"), on_files).ok(), Some(Merging::Paced));
            assert_eq!(merging_for(Some("inline"), on_files).ok(), Some(Merging::Inline));
        }
        assert_eq!(merging_for(Some("background"), true).ok(), Some(Merging::Background));
        let refused = merging_for(Some("background"), false).map_err(|e| e.to_string());
        assert!(refused.is_err_and(|e| e.contains("--merges") && e.contains("needs --dir")));
        let refused = merging_for(Some("fast"), true).map_err(|e| e.to_string());
        assert!(refused.is_err_and(|e| e.contains("must be background, paced or inline")));
    }

    #[test]
    fn the_declarations_are_consistent() {
        Cli::command().debug_assert();
    }

    /// The `lsm` lines of a Markdown section (from its `## ` heading to the next), the shell's part cut
    /// off: each parses as written, full sizes and all. Returns how many there were.
    fn parse_section(doc: &str, heading: &str) -> usize {
        let section = doc.split(heading).nth(1).unwrap_or_default();
        let mut parsed = 0;
        for line in section.lines().take_while(|l| !l.starts_with("## ")) {
            let Some(line) = line.strip_prefix("./target/release/lsm ") else { continue };
            let line = line.split(" #").next().unwrap_or(line);
            let line = line.split(['>', '|']).next().unwrap_or(line);
            let args = std::iter::once("lsm").chain(line.split_whitespace());
            if let Err(e) = Cli::try_parse_from(args) {
                panic!("{line}: {e}");
            }
            parsed += 1;
        }
        parsed
    }

    /// docs/cli.md's command lines (the full reference; tests/cli_args.rs runs them on small
    /// inputs) and README.md's short list parse as written.
    #[test]
    fn every_documented_command_line_parses_as_written() {
        let reference = parse_section(include_str!("../../../../docs/cli.md"), "\n## Commands\n");
        assert!(reference >= 13, "docs/cli.md: {reference} lines");
        let readme = parse_section(include_str!("../../../../README.md"), "\n## The CLI\n");
        assert!(readme >= 5, "README.md: {readme} lines");
    }
}

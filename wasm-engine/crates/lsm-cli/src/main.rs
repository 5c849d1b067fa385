//! `lsm`: the engine as a native command-line tool. Same engine, same documents, same counters
//! as the browser: `lsm run` on an exported config reproduces a run from the explorer.

use std::collections::HashMap;
use std::process::ExitCode;
use std::time::Instant;

use lsm_core::config::EngineConfig;
use lsm_core::error::{Error, Result};
use lsm_core::workload::{MAX_OPERATIONS, Workload};
use lsm_engine::engine::Engine;
use lsm_engine::storage::{FileStorage, MemStorage, Storage};
use lsm_runner::report::{Report, Timings};
use lsm_runner::runner::Runner;
use lsm_workload::fit::fit_trace;
use lsm_workload::generator::Generator;
use lsm_workload::kvbench;
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

mod experiments;

const USAGE: &str = "\
usage: lsm <command> [options]

commands:
  run      --config C.json (--workload W.json | --trace T.txt [--key-bytes 16])
           [--report R.json] [--dir DIR] [--no-wal]
           Run a workload or a KVBench trace; write the Report (JSON) to R.json or stdout.
           Without --dir the database lives in memory; with --dir it is written to files there.
           --no-wal: writes are not logged ahead (as RocksDB's disableWAL): what the buffer
           holds is lost on a crash; flushed data is durable either way.
  trace    --workload W.json      Print the workload's operations as a KVBench trace.
  validate (--config C.json | --workload W.json)
  bench    [--config C.json] [--workload W.json] [--dir DIR] [--no-wal]
           Time the load (preload) and the lookups (run) phases; prints one JSON line.
           In memory unless --dir (files there, which must be empty); --no-wal as for run.
  export   --design C.json --format rocksdb|rocksdb-cpp|engine|db_bench [--workload W.json]
           Print the design in that format; what the format cannot express goes to stderr.
  import   (--rocksdb OPTIONS | --engine C.json)
           Print the design as EngineConfig JSON; unknown keys and warnings go to stderr.
  ycsb     (--core a|b|c|d|e|f | --workload W) [--records N] [--operations N]
           Print a YCSB CoreWorkload properties file: one of YCSB's core workloads, or the
           workload W; what YCSB cannot run of it goes to stderr.
  fit      --trace T.txt [--key-bytes 16]
           Fit a Workload to a KVBench trace: operation mix (zero-result lookups apart), key
           popularity (uniform, or Zipf θ by maximum likelihood, with goodness of fit and a
           rank-frequency series), sizes. Prints the fit (JSON) with the Workload inside.
  tune     (--options OPTIONS | --config C.json) --workload W [--robust ρ]
           [--target engine|rocksdb] [--out DIR]
           A design for the same buffer and filter memory that the engine will measure as
           cheaper for W: nominal, and robust over workloads within KL-divergence ρ (Endure);
           for RocksDB, within its own shape (write buffer, level multiplier, bits per key).
           Prints the result (JSON): each design's predicted I/O per class, the gain, the
           worst case within ρ and the costs over 1,000 nearby workloads.
  predict  --config C.json --workload W
           Predict what a run will measure, from the engine's own merge policy and filter sizing
           replayed on sizes: I/O per operation of each class and in total (JSON).
  growth   [--config C.json | --size-ratio T --max-runs K --bits B --buffer-bytes N]
           [--from 12] [--to 20] [--lookups 100000] [--value-bytes 100] [--json]
           Monkey's Figure 12A on the engine: zero-result I/O per lookup as the data doubles
           from 2^from to 2^to entries, for uniform filters, Monkey sized at birth and Monkey
           re-optimised, next to the optimum for each measured tree and the rebuilds' pages.
           Without --config: T = 2, K = 1, 5 bits/key, a 16 KiB buffer, 4 KiB pages.
  keys     --workload W           Print every key W writes, in order, as raw bytes (W must
           only insert and update): the stream the LevelDB driver in interop/leveldb reads.
  writes   --config C.json --workload W [--checkpoint 100000|flush] [--dir DIR]
           Write amplification by destination level: cumulative entries and bytes written by
           flushes and by merges into each level, at every --checkpoint writes or at every
           flush (JSON), indexed as LevelDB's levels (0 = flushed files). W must only insert
           and update.
  version

Wherever a workload W is read it may be Workload JSON, a YCSB workload properties file, or
ycsb:a … ycsb:f; --records / --operations set a YCSB workload's recordcount / operationcount.
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(command) = args.first() else {
        eprint!("{USAGE}");
        return ExitCode::from(2);
    };
    if args[1..].iter().any(|a| a == "--help" || a == "-h") {
        out!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let options = match parse_options(&args[1..]) {
        Ok(o) => o,
        Err(message) => {
            eprintln!("lsm {command}: {message}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let result = match command.as_str() {
        "run" => run(&options),
        "trace" => trace(&options),
        "validate" => validate(&options),
        "bench" => bench(&options),
        "export" => export(&options),
        "import" => import(&options),
        "ycsb" => ycsb_properties(&options),
        "fit" => fit(&options),
        "predict" => predict(&options),
        "tune" => tune(&options),
        "growth" => experiments::growth(&options),
        "keys" => experiments::keys(&options),
        "writes" => experiments::writes(&options),
        "version" | "--version" => {
            outln!("lsm {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
        "help" | "--help" | "-h" => {
            out!("{USAGE}");
            Ok(())
        }
        other => {
            eprintln!("lsm: unknown command '{other}'\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lsm {command}: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Options that are switches: present or not, no value.
const SWITCHES: [&str; 2] = ["no-wal", "json"];

fn parse_options(args: &[String]) -> std::result::Result<HashMap<String, String>, String> {
    let mut options = HashMap::new();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let name = flag.strip_prefix("--").ok_or_else(|| format!("unexpected argument '{flag}'"))?;
        if SWITCHES.contains(&name) {
            options.insert(name.to_string(), String::new());
            continue;
        }
        let value = it.next().ok_or_else(|| format!("--{name} needs a value"))?;
        options.insert(name.to_string(), value.clone());
    }
    Ok(options)
}

/// A new engine on `--dir` (files) or in memory, logging writes ahead unless `--no-wal`.
fn open_engine(config: EngineConfig, o: &HashMap<String, String>) -> Result<Engine> {
    let mut engine = Engine::create(config, storage(o)?)?;
    engine.set_write_ahead_log(!o.contains_key("no-wal"));
    Ok(engine)
}

/// The end of a clean run, after its report: without the log, the buffer is flushed so the
/// database on files holds every write (RocksDB flushes on close for the same reason).
fn close_engine(mut engine: Engine, o: &HashMap<String, String>) -> Result<()> {
    if o.contains_key("no-wal") && o.contains_key("dir") {
        engine.flush()?;
    }
    Ok(())
}

fn read(path: &str) -> Result<String> {
    std::fs::read_to_string(path).map_err(|e| Error::storage(path, e.to_string()))
}

fn required<'a>(o: &'a HashMap<String, String>, name: &str) -> Result<&'a str> {
    o.get(name).map(String::as_str).ok_or_else(|| Error::invalid(format!("--{name}"), "is required"))
}

fn load_config(path: &str) -> Result<EngineConfig> {
    EngineConfig::from_json(&read(path)?).map_err(|e| in_file(path, e))
}

/// A Workload from its JSON, from a YCSB workload properties file, or `ycsb:a` … `ycsb:f` (YCSB's
/// core workloads). `--records` / `--operations` replace a YCSB workload's recordcount /
/// operationcount, as YCSB's `-p` does. What YCSB says that the engine cannot goes to stderr.
fn load_workload(path: &str, o: &HashMap<String, String>) -> Result<Workload> {
    // A core workload is named as YCSB names its file (workloads/workloada).
    let mut file = path.to_string();
    let mut text = match path.strip_prefix("ycsb:") {
        Some(name) => {
            let mut letters = name.chars();
            match (letters.next(), letters.next()) {
                (Some(letter), None) => {
                    file = format!("workload{}", letter.to_ascii_lowercase());
                    ycsb::core_workload(letter, 1_000, 1_000)?
                }
                _ => {
                    return Err(Error::invalid(
                        "--workload",
                        format!("YCSB core workloads are ycsb:a … ycsb:f, got \"{path}\""),
                    ));
                }
            }
        }
        None => {
            let text = read(path)?;
            if text.trim_start().starts_with('{') {
                return Workload::from_json(&text).map_err(|e| in_file(path, e));
            }
            text
        }
    };
    for (flag, property) in [("records", "recordcount"), ("operations", "operationcount")] {
        if let Some(v) = o.get(flag) {
            let n: u64 = v.parse().ok().filter(|&n| n <= MAX_OPERATIONS).ok_or_else(|| {
                Error::invalid(format!("--{flag}"), format!("must be an integer in [0, {MAX_OPERATIONS}], got {v}"))
            })?;
            text.push_str(&format!("\n{property}={n}\n"));
        }
    }
    let imported = ycsb::from_properties(&text, &file).map_err(|e| match e {
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

/// Prefix a document error with the file it came from.
fn in_file(path: &str, e: Error) -> Error {
    match e {
        Error::Invalid { field, message } => Error::Invalid { field: format!("{path}: {field}"), message },
        Error::Parse { document, message } => Error::Parse { document: format!("{path} ({document})"), message },
        other => other,
    }
}

fn storage(o: &HashMap<String, String>) -> Result<Box<dyn Storage>> {
    match o.get("dir") {
        Some(dir) => {
            let mut s = FileStorage::open(dir)?;
            if !s.list()?.is_empty() {
                return Err(Error::invalid("--dir", format!("{dir} must be empty (a new database is created there)")));
            }
            Ok(Box::new(s))
        }
        None => Ok(Box::new(MemStorage::new())),
    }
}

/// `--key-bytes`: the length integer trace keys are encoded to (16 unless given).
fn key_bytes(o: &HashMap<String, String>) -> Result<usize> {
    match o.get("key-bytes") {
        Some(k) => k
            .parse::<usize>()
            .ok()
            .filter(|k| (8..=1024).contains(k))
            .ok_or_else(|| Error::invalid("--key-bytes", format!("must be an integer in [8, 1024], got {k}"))),
        None => Ok(16),
    }
}

/// Drive a runner to the end, timing the preload and the run separately.
fn drive(runner: &mut Runner, engine: &mut Engine) -> Result<Timings> {
    const STEP: u64 = 10_000;
    let mut t = Timings::default();
    let mut start = Instant::now();
    let mut in_preload = runner.progress().phase == "preload";
    while !runner.is_finished() {
        let p = runner.step(engine, STEP)?;
        if in_preload && p.phase != "preload" {
            // The step that crossed into the run may hold a few run operations; steps are
            // small, so the error is below 1%. Exact splits use `bench` (one phase per step).
            t.preload_ms = start.elapsed().as_secs_f64() * 1e3;
            start = Instant::now();
            in_preload = false;
        }
    }
    t.run_ms = start.elapsed().as_secs_f64() * 1e3;
    Ok(t)
}

fn run(o: &HashMap<String, String>) -> Result<()> {
    let config = load_config(required(o, "config")?)?;
    let mut runner = match (o.get("workload"), o.get("trace")) {
        (Some(w), None) => Runner::for_workload(&load_workload(w, o)?)?,
        (None, Some(t)) => Runner::for_trace(t, read(t)?, key_bytes(o)?),
        _ => return Err(Error::invalid("--workload/--trace", "give exactly one of them")),
    };
    runner.time_operations();
    let mut engine = open_engine(config, o)?;
    let timings = drive(&mut runner, &mut engine)?;
    let mut report = runner.report(&engine);
    close_engine(engine, o)?;
    report.timings = Some(timings);
    eprintln!("{}", summary(&report));
    let json = report.to_json();
    match o.get("report") {
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

fn trace(o: &HashMap<String, String>) -> Result<()> {
    let w = load_workload(required(o, "workload")?, o)?;
    out!("{}", kvbench::write_trace(&mut Generator::new(&w))?);
    Ok(())
}

fn validate(o: &HashMap<String, String>) -> Result<()> {
    match (o.get("config"), o.get("workload")) {
        (Some(c), None) => load_config(c).map(|_| ()),
        (None, Some(w)) => load_workload(w, o).map(|_| ()),
        _ => Err(Error::invalid("--config/--workload", "give exactly one of them")),
    }?;
    outln!("ok");
    Ok(())
}

const BENCH_CONFIG: &str = include_str!("../../../../public/examples/bench-config.json");
const BENCH_WORKLOAD: &str = include_str!("../../../../public/examples/bench-workload.json");

fn bench(o: &HashMap<String, String>) -> Result<()> {
    let config = match o.get("config") {
        Some(p) => load_config(p)?,
        None => EngineConfig::from_json(BENCH_CONFIG)?,
    };
    let workload = match o.get("workload") {
        Some(p) => load_workload(p, o)?,
        None => Workload::from_json(BENCH_WORKLOAD)?,
    };
    let mut engine = open_engine(config, o)?;
    let mut runner = Runner::for_workload(&workload)?;
    let start = Instant::now();
    runner.step(&mut engine, workload.preload.entries)?;
    let load_s = start.elapsed().as_secs_f64();
    let start = Instant::now();
    runner.step(&mut engine, workload.operations + 1)?;
    let run_s = start.elapsed().as_secs_f64();
    let report = runner.report(&engine);
    close_engine(engine, o)?;
    let line = serde_json::json!({
        "target": "native",
        "storage": if o.contains_key("dir") { "files" } else { "memory" },
        "wal": !o.contains_key("no-wal"),
        "preload_ops": workload.preload.entries,
        "run_ops": workload.operations,
        "load_seconds": load_s,
        "run_seconds": run_s,
        "load_ops_per_sec": workload.preload.entries as f64 / load_s,
        "run_ops_per_sec": workload.operations as f64 / run_s,
        "found": report.results.get_existing_found,
        "run_page_ios": report.summary.iter().map(|c| c.page_ios).sum::<u64>(),
    });
    outln!("{line}");
    Ok(())
}

fn export(o: &HashMap<String, String>) -> Result<()> {
    let design = required(o, "design")?;
    let config = load_config(design)?;
    let format: lsm_export::Format = required(o, "format")?.parse()?;
    let workload = o.get("workload").map(|w| load_workload(w, o)).transpose()?;
    let out = lsm_export::export(&config, format, workload.as_ref())?;
    for w in &out.warnings {
        eprintln!("warning: {} {}: {}", w.kind, w.field, w.message);
    }
    out!("{}", out.text);
    Ok(())
}

fn import(o: &HashMap<String, String>) -> Result<()> {
    use lsm_export::ImportKind;
    let (path, kind) = match (o.get("rocksdb"), o.get("engine")) {
        (Some(p), None) => (p, ImportKind::Rocksdb),
        (None, Some(p)) => (p, ImportKind::Engine),
        _ => return Err(Error::invalid("--rocksdb/--engine", "give exactly one of them")),
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

fn ycsb_properties(o: &HashMap<String, String>) -> Result<()> {
    let workload = match (o.get("core"), o.get("workload")) {
        (Some(letter), None) => load_workload(&format!("ycsb:{letter}"), o)?,
        (None, Some(w)) => load_workload(w, o)?,
        _ => return Err(Error::invalid("--core/--workload", "give exactly one of them")),
    };
    let (text, warnings) = ycsb::to_properties(&workload)?;
    for w in &warnings {
        eprintln!("{}: {} ({}): {}", o.get("workload").map_or("workload", String::as_str), w.field, w.kind, w.message);
    }
    out!("{text}");
    Ok(())
}

fn fit(o: &HashMap<String, String>) -> Result<()> {
    let path = required(o, "trace")?;
    let key_bytes = key_bytes(o)?;
    let fitted = fit_trace(path, read(path)?, key_bytes)?;
    for note in &fitted.notes {
        eprintln!("{path}: {note}");
    }
    outln!("{}", serde_json::to_string_pretty(&fitted).map_err(|e| Error::invalid("fit", e.to_string()))?);
    Ok(())
}

fn predict(o: &HashMap<String, String>) -> Result<()> {
    let config = load_config(required(o, "config")?)?;
    let workload = load_workload(required(o, "workload")?, o)?;
    let p = lsm_tune::predict::predict(&config, &workload)?;
    outln!("{}", serde_json::to_string_pretty(&p).unwrap_or_default());
    Ok(())
}

fn number<T: std::str::FromStr>(o: &HashMap<String, String>, name: &str, default: T) -> Result<T> {
    match o.get(name) {
        Some(v) => v.parse().map_err(|_| Error::invalid(format!("--{name}"), format!("must be a number, got {v}"))),
        None => Ok(default),
    }
}

fn tune(o: &HashMap<String, String>) -> Result<()> {
    let config = match (o.get("options"), o.get("config")) {
        (Some(path), _) => {
            let imported =
                lsm_export::import(&read(path)?, lsm_export::ImportKind::Rocksdb).map_err(|e| in_file(path, e))?;
            imported.config
        }
        (None, Some(path)) => load_config(path)?,
        (None, None) => return Err(Error::invalid("--options", "is required (or --config)")),
    };
    let workload = load_workload(required(o, "workload")?, o)?;
    let rho: f64 = match o.get("robust") {
        Some(v) => v.parse().map_err(|_| Error::invalid("--robust", format!("must be a number, got {v}")))?,
        None => 0.0,
    };
    let target = o.get("target").map_or(Ok(lsm_tune::Target::Engine), |t| t.parse())?;
    let started = Instant::now();
    let result = lsm_tune::tune(&config, &workload, rho, target)?;
    eprintln!("tuned in {:.1} ms over {} designs", started.elapsed().as_secs_f64() * 1e3, result.candidates);
    let Some(dir) = o.get("out") else {
        outln!("{}", result.to_json());
        return Ok(());
    };
    std::fs::create_dir_all(dir).map_err(|e| Error::storage(dir, e.to_string()))?;
    // With --out: prove it on the engine (files under DIR/db), then write the bundle.
    let db = std::path::Path::new(dir).join("db");
    let measure = |name: &str, config: &EngineConfig| -> Result<f64> {
        let path = db.join(name);
        let _ = std::fs::remove_dir_all(&path);
        let storage = FileStorage::open(&path)?;
        let mut engine = Engine::create(config.clone(), Box::new(storage))?;
        let mut runner = Runner::for_workload(&workload)?;
        drive(&mut runner, &mut engine)?;
        Ok(runner.report(&engine).io_per_op())
    };
    let proof = lsm_tune::bundle::Proof {
        current: measure("current", &result.current.config)?,
        recommended: measure("recommended", &result.recommendation().config)?,
        on: "the engine, on files (lsm tune --out)".into(),
    };
    let _ = std::fs::remove_dir_all(&db);
    for f in lsm_tune::bundle::files(&result, Some(&proof))? {
        let path = std::path::Path::new(dir).join(&f.name);
        std::fs::write(&path, &f.text).map_err(|e| Error::storage(path.to_string_lossy(), e.to_string()))?;
    }
    outln!(
        "{dir}: predicted gain {:.1}%, measured {:.1}% (I/O per operation {:.4} → {:.4})",
        result.predicted_gain * 100.0,
        (1.0 - proof.recommended / proof.current.max(1e-12)) * 100.0,
        proof.current,
        proof.recommended
    );
    Ok(())
}

//! A db_bench command line read as a Workload (`db_bench --benchmarks=fillrandom,mixgraph
//! --num=… -key_dist_a=… …`): flags as gflags takes them (`--f=v`, `-f=v`, `--f v`, `--bool`,
//! `--nobool`), defaults and counts as RocksDB 7.8.3's tools/db_bench_tool.cc has them. The
//! Workload carries a `db_bench` section (`lsm_core::db_bench`) so the generator plays it as
//! db_bench does (`mixgraph`).
//!
//! Flags that set the design (write_buffer_size, bloom_bits, …) belong in the OPTIONS file and
//! flags that change only timing (sine_*, rate limits, duration) are read and reported as
//! warnings naming the flag; flags this reader does not know are listed in `unknown_flags`; a bad
//! value is an error naming the flag and its range.

use lsm_core::db_bench::{DbBenchBenchmark, DbBenchLoad, DbBenchPlay};
use lsm_core::error::{Error, Result};
use lsm_core::warning::{Warning, WarningKind};
use lsm_core::workload::{
    Distribution, KEY_BYTES_RANGE, MAX_OPERATIONS, Preload, VALUE_BYTES_RANGE, WORKLOAD_KIND, Workload,
};

/// The seed of a command line without `--seed` (db_bench then seeds from the clock).
pub const SEED: u64 = 0x6462_5F62_656E_6368;

/// A workload read from a db_bench command line, and what did not carry over.
#[derive(Debug, serde::Serialize)]
pub struct DbBenchImport {
    /// The Workload the command line describes, validated.
    pub workload: Workload,
    /// What did not carry over exactly; each `field` is the flag (`--write_buffer_size`).
    pub warnings: Vec<Warning>,
    /// Flags (and stray arguments) this reader does not know.
    pub unknown_flags: Vec<String>,
}

/// Whether `text` reads as a db_bench command line: it starts with a program ending in
/// `db_bench`, or sets `--benchmarks`.
pub fn looks_like_db_bench(text: &str) -> bool {
    let first = text.split_whitespace().find(|t| !t.starts_with('#')).unwrap_or("");
    first.rsplit('/').next().is_some_and(|p| p == "db_bench") || text.contains("-benchmarks")
}

/// Flags whose value is a boolean (`--statistics`, `--nostatistics`, `--statistics=false`).
const BOOL_FLAGS: &[&str] = &[
    "statistics",
    "histogram",
    "use_existing_db",
    "sine_mix_rate",
    "sine_write_rate",
    "disable_wal",
    "sync",
    "verify_checksum",
    "use_direct_reads",
    "use_direct_io_for_flush_and_compaction",
    "cache_index_and_filter_blocks",
    "pin_l0_filter_and_index_blocks_in_cache",
    "optimize_filters_for_hits",
    "disable_auto_compactions",
    "use_existing_keys",
    "stats_per_interval",
    "partition_index_and_filters",
];

/// Flags that change when operations run, not which: read, said, not modelled.
const TIMING_FLAGS: &[&str] = &[
    "sine_a",
    "sine_b",
    "sine_c",
    "sine_d",
    "sine_mix_rate",
    "sine_mix_rate_interval_milliseconds",
    "sine_mix_rate_noise",
    "sine_write_rate",
    "sine_write_rate_interval_milliseconds",
    "benchmark_write_rate_limit",
    "benchmark_read_rate_limit",
    "duration",
    "ops_between_duration_checks",
    "stats_interval",
    "stats_interval_seconds",
    "stats_per_interval",
    "stats_dump_period_sec",
    "report_interval_seconds",
    "report_file",
    "statistics",
    "histogram",
];

/// Flags that set the design or the run's environment: they belong in the OPTIONS file (or the
/// harness), not the workload.
const DESIGN_FLAGS: &[&str] = &[
    "write_buffer_size",
    "max_write_buffer_number",
    "min_write_buffer_number_to_merge",
    "bloom_bits",
    "cache_size",
    "block_size",
    "compression_type",
    "compression_ratio",
    "level0_file_num_compaction_trigger",
    "level0_slowdown_writes_trigger",
    "level0_stop_writes_trigger",
    "max_bytes_for_level_base",
    "max_bytes_for_level_multiplier",
    "target_file_size_base",
    "target_file_size_multiplier",
    "num_levels",
    "compaction_style",
    "max_background_jobs",
    "max_background_compactions",
    "max_background_flushes",
    "use_direct_reads",
    "use_direct_io_for_flush_and_compaction",
    "cache_index_and_filter_blocks",
    "pin_l0_filter_and_index_blocks_in_cache",
    "optimize_filters_for_hits",
    "partition_index_and_filters",
    "disable_auto_compactions",
    "options_file",
    "db",
    "wal_dir",
    "use_existing_db",
    "disable_wal",
    "sync",
    "verify_checksum",
    "bytes_per_sync",
    "open_files",
    "mmap_read",
    "cache_numshardbits",
    "bloom_locality",
    "memtablerep",
    "use_existing_keys",
];

/// Flags this reader plays (besides the timing ones it reports).
const WORKLOAD_FLAGS: &[&str] = &[
    "benchmarks",
    "num",
    "reads",
    "writes",
    "threads",
    "seed",
    "key_size",
    "value_size",
    "value_size_distribution_type",
    "keys_per_prefix",
    "prefix_size",
    "readwritepercent",
    "seek_nexts",
    "key_dist_a",
    "key_dist_b",
    "keyrange_dist_a",
    "keyrange_dist_b",
    "keyrange_dist_c",
    "keyrange_dist_d",
    "keyrange_num",
    "value_theta",
    "value_k",
    "value_sigma",
    "iter_theta",
    "iter_k",
    "iter_sigma",
    "mix_get_ratio",
    "mix_put_ratio",
    "mix_seek_ratio",
    "mix_max_scan_len",
    "mix_max_value_size",
    "read_random_exp_range",
];

fn known(name: &str) -> bool {
    WORKLOAD_FLAGS.contains(&name) || TIMING_FLAGS.contains(&name) || DESIGN_FLAGS.contains(&name)
}

/// The command line's words: `\`-newline joins lines, `#` starts a comment line, quotes group.
fn words(text: &str) -> Vec<String> {
    let joined = text.replace("\\\r\n", " ").replace("\\\n", " ");
    let mut out = Vec::new();
    for line in joined.lines() {
        if line.trim_start().starts_with('#') {
            continue;
        }
        let mut word = String::new();
        let (mut quote, mut any) = (None, false);
        for c in line.chars() {
            match (quote, c) {
                (None, '\'' | '"') => {
                    quote = Some(c);
                    any = true;
                }
                (Some(q), _) if c == q => quote = None,
                (None, c) if c.is_whitespace() => {
                    if any {
                        out.push(std::mem::take(&mut word));
                        any = false;
                    }
                }
                _ => {
                    word.push(c);
                    any = true;
                }
            }
        }
        if any {
            out.push(word);
        }
    }
    out
}

/// Flag values by name (the last setting wins, as in gflags), with the stray words.
fn flags(text: &str) -> (Vec<(String, String)>, Vec<String>) {
    let words = words(text);
    let mut i = 0;
    // The program (`db_bench`, `./db_bench`) and environment assignments before it.
    while i < words.len() && !words[i].starts_with('-') {
        i += 1;
    }
    let (mut set, mut stray) = (Vec::new(), words[..i].iter().filter(|w| !is_program(w)).cloned().collect::<Vec<_>>());
    while i < words.len() {
        let w = &words[i];
        i += 1;
        let Some(body) = w.strip_prefix("--").or_else(|| w.strip_prefix('-')) else {
            stray.push(w.clone());
            continue;
        };
        let (name, value) = match body.split_once('=') {
            Some((n, v)) => (n.to_string(), v.to_string()),
            None if BOOL_FLAGS.contains(&body) => (body.to_string(), "true".into()),
            None if body.strip_prefix("no").is_some_and(|b| BOOL_FLAGS.contains(&b)) => {
                (body[2..].to_string(), "false".into())
            }
            None if known(body) && i < words.len() && !words[i].starts_with('-') => {
                i += 1;
                (body.to_string(), words[i - 1].clone())
            }
            None => (body.to_string(), String::new()),
        };
        set.push((name, value));
    }
    (set, stray)
}

fn is_program(word: &str) -> bool {
    word.rsplit('/').next() == Some("db_bench") || word.contains('=')
}

fn integer(flag: &str, v: &str, lo: i64, hi: i64) -> Result<i64> {
    v.trim()
        .parse::<i64>()
        .ok()
        .filter(|n| (lo..=hi).contains(n))
        .ok_or_else(|| Error::invalid(format!("--{flag}"), format!("must be an integer in [{lo}, {hi}], got \"{v}\"")))
}

fn number(flag: &str, v: &str) -> Result<f64> {
    v.trim()
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite())
        .ok_or_else(|| Error::invalid(format!("--{flag}"), format!("must be a finite number, got \"{v}\"")))
}

/// What `--benchmarks` lists: the fill first, then at most one benchmark; reports, flushes and
/// compactions between them are read and reported.
fn benchmarks(list: &str, warnings: &mut Vec<Warning>) -> Result<(DbBenchLoad, DbBenchBenchmark)> {
    let (mut load, mut run) = (DbBenchLoad::None, DbBenchBenchmark::None);
    let bad = |m: String| Error::invalid("--benchmarks", m);
    for raw in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let name = match raw.find('[') {
            Some(at) if raw.ends_with(']') => {
                warnings.push(Warning::new(
                    "--benchmarks",
                    WarningKind::Dropped,
                    format!("\"{raw}\": repeats and warm-ups ([X…-W…]) are not played; \"{}\" runs once", &raw[..at]),
                ));
                &raw[..at]
            }
            _ => raw,
        };
        let fill = match name {
            "fillrandom" => Some(DbBenchLoad::Fillrandom),
            "fillseq" => Some(DbBenchLoad::Fillseq),
            _ => None,
        };
        if let Some(f) = fill {
            if load != DbBenchLoad::None || run != DbBenchBenchmark::None {
                return Err(bad(format!(
                    "\"{name}\" must come first and once: a fill then one benchmark, got \"{list}\""
                )));
            }
            load = f;
            continue;
        }
        let b = match name {
            "mixgraph" => DbBenchBenchmark::Mixgraph,
            "readrandomwriterandom" => DbBenchBenchmark::Readrandomwriterandom,
            "updaterandom" => DbBenchBenchmark::Updaterandom,
            "seekrandom" => DbBenchBenchmark::Seekrandom,
            "readrandom" => DbBenchBenchmark::Readrandom,
            "stats" | "levelstats" | "sstables" | "memstats" | "flush" | "waitforcompaction" | "compact"
            | "resetstats" => {
                warnings.push(Warning::new(
                    "--benchmarks",
                    WarningKind::Dropped,
                    format!("\"{name}\" reads or reshapes the database without workload operations; not played"),
                ));
                continue;
            }
            other => {
                return Err(bad(format!(
                    "\"{other}\" is not one this reader plays (fillrandom, fillseq, mixgraph, readrandomwriterandom, updaterandom, seekrandom, readrandom)"
                )));
            }
        };
        if run != DbBenchBenchmark::None {
            return Err(bad(format!("lists two benchmarks; a workload is a fill then one benchmark, got \"{list}\"")));
        }
        run = b;
    }
    if load == DbBenchLoad::None && run == DbBenchBenchmark::None {
        return Err(bad(format!("must name a fill or a benchmark, got \"{list}\"")));
    }
    Ok((load, run))
}

/// Reads a db_bench command line into a validated Workload.
pub fn from_command_line(text: &str) -> Result<DbBenchImport> {
    let (set, stray) = flags(text);
    let mut warnings = Vec::new();
    let mut unknown_flags: Vec<String> = stray.into_iter().map(|w| format!("{w} (not a flag)")).collect();
    let get = |name: &str| set.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
    for (name, value) in &set {
        if TIMING_FLAGS.contains(&name.as_str()) && !matches!(name.as_str(), "statistics" | "histogram") {
            warnings.push(Warning::new(
                format!("--{name}"),
                WarningKind::Dropped,
                format!("={value} changes when operations run, not which (timing is not modelled)"),
            ));
        } else if DESIGN_FLAGS.contains(&name.as_str()) {
            warnings.push(Warning::new(
                format!("--{name}"),
                WarningKind::Dropped,
                format!("={value} sets the design or the run, not the workload: it belongs in the OPTIONS file"),
            ));
        } else if !known(name) {
            unknown_flags.push(format!("--{name}"));
        }
    }
    let list = get("benchmarks").unwrap_or("fillseq,fillsync,fillrandom,overwrite,readrandom");
    let (load, benchmark) = benchmarks(list, &mut warnings)?;
    let max = MAX_OPERATIONS as i64;
    let int = |name: &str, default: i64, lo: i64, hi: i64| get(name).map_or(Ok(default), |v| integer(name, v, lo, hi));
    let num = int("num", 1_000_000, 1, max)?;
    let reads = int("reads", -1, i64::MIN, max)?;
    let writes = int("writes", -1, i64::MIN, max)?;
    let threads = int("threads", 1, 1, 1024)?;
    let seed = int("seed", 0, i64::MIN, i64::MAX)?;
    let key_size = int("key_size", 16, i64::from(KEY_BYTES_RANGE.0), i64::from(KEY_BYTES_RANGE.1))?;
    let value_size = int("value_size", 100, i64::from(VALUE_BYTES_RANGE.0), i64::from(VALUE_BYTES_RANGE.1))?;
    if let Some(kind) = get("value_size_distribution_type").filter(|k| *k != "fixed") {
        return Err(Error::invalid(
            "--value_size_distribution_type",
            format!("must be fixed (the fill's and the plain benchmarks' values are value_size bytes), got \"{kind}\""),
        ));
    }
    if let Some(v) = get("read_random_exp_range").filter(|v| number("read_random_exp_range", v).ok() != Some(0.0)) {
        return Err(Error::invalid(
            "--read_random_exp_range",
            format!("must be 0 (uniform GetRandomKey), got \"{v}\""),
        ));
    }
    let mut play = DbBenchPlay::defaults(load, benchmark, num as u64);
    play.keys_per_prefix = int("keys_per_prefix", 0, 0, max)? as u64;
    play.prefix_size = int("prefix_size", 0, 0, 1024)? as u32;
    play.readwritepercent = int("readwritepercent", 90, 0, 100)? as u32;
    play.seek_nexts = int("seek_nexts", 0, 0, 1_000_000)? as u32;
    play.keyrange_num = int("keyrange_num", 1, i64::MIN, max)?.max(1) as u64;
    play.mix_max_scan_len = int("mix_max_scan_len", 10_000, 1, max)? as u64;
    play.mix_max_value_size = int("mix_max_value_size", 1024, 1, 60_000)? as u32;
    for (name, slot) in [
        ("key_dist_a", &mut play.key_dist_a),
        ("key_dist_b", &mut play.key_dist_b),
        ("keyrange_dist_a", &mut play.keyrange_dist_a),
        ("keyrange_dist_b", &mut play.keyrange_dist_b),
        ("keyrange_dist_c", &mut play.keyrange_dist_c),
        ("keyrange_dist_d", &mut play.keyrange_dist_d),
        ("value_theta", &mut play.value_theta),
        ("value_k", &mut play.value_k),
        ("value_sigma", &mut play.value_sigma),
        ("iter_theta", &mut play.iter_theta),
        ("iter_k", &mut play.iter_k),
        ("iter_sigma", &mut play.iter_sigma),
        ("mix_get_ratio", &mut play.mix_get_ratio),
        ("mix_put_ratio", &mut play.mix_put_ratio),
        ("mix_seek_ratio", &mut play.mix_seek_ratio),
    ] {
        if let Some(v) = get(name) {
            *slot = number(name, v)?;
        }
    }
    // db_bench's counts: a fill writes `writes` (or num); mixgraph, readrandom and seekrandom
    // do `reads` (or num); readrandomwriterandom and updaterandom the larger of the two (or
    // num when neither is set). Each thread does as many.
    let or_num = |n: i64| if n < 0 { num } else { n };
    let fill = match load {
        DbBenchLoad::None => 0,
        _ => match or_num(writes) {
            0 => num,
            n => n,
        },
    };
    let run = match benchmark {
        DbBenchBenchmark::None => 0,
        DbBenchBenchmark::Readrandomwriterandom | DbBenchBenchmark::Updaterandom => {
            if writes < 0 && reads < 0 {
                num
            } else {
                writes.max(reads)
            }
        }
        _ => or_num(reads),
    };
    if threads > 1 {
        warnings.push(Warning::new(
            "--threads",
            WarningKind::Approximated,
            format!("={threads}: each thread does the counts; played as one stream of {threads} × the count"),
        ));
    }
    let total = |n: i64, what: &str| -> Result<u64> {
        let t = n.max(0).saturating_mul(threads);
        if t > max {
            return Err(Error::invalid(
                what,
                format!("× --threads must be at most {MAX_OPERATIONS} operations, got {t}"),
            ));
        }
        Ok(t as u64)
    };
    let entries = total(fill, "--writes")?;
    let operations = total(run, "--reads")?;
    let mut w = Workload {
        kind: WORKLOAD_KIND.into(),
        version: 1,
        name: format!("db_bench {list}"),
        seed: if seed == 0 { SEED } else { seed as u64 },
        preload: Preload { entries, key_space: 0, key_bytes: key_size as u32, value_bytes: value_size as u32 },
        operations,
        mix: play.mix(),
        // Fitted once the section is valid: the fit builds every key range, and an unchecked
        // --keyrange_num of 30 million (a fuzzer's) took seconds before validation refused it.
        distribution: Distribution::Uniform,
        range_selectivity: 0.0,
        ycsb: None,
        db_bench: Some(play),
    };
    w.validate().map_err(to_flags)?;
    w.distribution = w.db_bench.as_ref().map_or(Distribution::Uniform, DbBenchPlay::fitted_distribution);
    w.range_selectivity = w.engine_view().range_selectivity;
    w.validate().map_err(to_flags)?;
    if w.db_bench
        .as_ref()
        .is_some_and(|p| p.benchmark == DbBenchBenchmark::Mixgraph && p.uses_key_ranges() && !p.all_random())
    {
        warnings.push(Warning::new(
            "--keyrange_num",
            WarningKind::Approximated,
            "a key range is a run of consecutive ids, so its hot keys share few blocks: the predictor prices which \
             keys are hot, not where they sit, so with a block cache its I/O (and a tune's gain) is too high for \
             lookups and scans — measured at 200,000 ids on RocksDB's defaults: cache hit rate 95.8%, predicted 73.5%",
        ));
    }
    Ok(DbBenchImport { workload: w, warnings, unknown_flags })
}

/// A validation error in db_bench's words: `db_bench.num` is `--num`.
fn to_flags(e: Error) -> Error {
    match e {
        Error::Invalid { field, message } => {
            let flag = match field.as_str() {
                "preload.key_bytes" => "--key_size".to_string(),
                "preload.value_bytes" => "--value_size".to_string(),
                f => f.strip_prefix("db_bench.").map_or(f.to_string(), |n| format!("--{n}")),
            };
            Error::Invalid { field: flag, message }
        }
        other => other,
    }
}

//! Workload → db_bench commands that replay it against the exported OPTIONS file.
//!
//! db_bench runs one benchmark at a time and its counts (`--num`, `--reads`, `--writes`,
//! `--deletes`) are per invocation, so the workload becomes a short shell script: the preload,
//! then one phase per operation type, each reopening the database (`--use_existing_db=1`).
//! With `--options_file` db_bench ignores its own RocksDB-option flags, so the design is entirely
//! in the OPTIONS file.

use lsm_core::config::EngineConfig;
use lsm_core::workload::{DbBenchPlay, Distribution, Workload};

use super::{Export, Warning, WarningKind, number, one_line};

struct Phase {
    benchmark: &'static str,
    /// Flags besides the common ones.
    flags: Vec<String>,
    what: String,
}

pub(crate) fn script(config: &EngineConfig, w: &Workload) -> Export {
    if let Some(play) = &w.db_bench {
        return db_bench_line(config, w, play);
    }
    let mut warnings = Vec::new();
    let count = |fraction: f64| (w.operations as f64 * fraction).round() as u64;
    let preload = w.preload.entries;
    let mix = &w.mix;
    let mut phases = Vec::new();

    if preload > 0 {
        phases.push(Phase {
            benchmark: "filluniquerandom",
            flags: vec![format!("--num={preload}")],
            what: format!("preload: {preload} distinct keys in random order"),
        });
    }
    let inserts = count(mix.insert);
    if inserts > 0 {
        let space = preload + inserts;
        // db_bench skips fill benchmarks on an existing database (and then fails to reopen it), so
        // after a preload the inserts are an `overwrite`: the same random writes below `--num`.
        let benchmark = if phases.is_empty() { "fillrandom" } else { "overwrite" };
        phases.push(Phase {
            benchmark,
            flags: vec![format!("--num={space}"), format!("--writes={inserts}")],
            what: format!("{inserts} inserts"),
        });
        if preload > 0 {
            warnings.push(Warning::new(
                "mix.insert",
                WarningKind::Approximated,
                format!(
                    "db_bench cannot insert only new keys: {benchmark} writes random keys below {space}, so about {}% \
                     of the inserts overwrite preloaded keys",
                    number(100.0 * preload as f64 / space as f64, 1)
                ),
            ));
        }
    }
    let updates = count(mix.update);
    if updates > 0 {
        phases.push(Phase {
            benchmark: "overwrite",
            flags: vec![format!("--num={preload}"), format!("--writes={updates}")],
            what: format!("{updates} updates of existing keys"),
        });
    }
    let rmws = count(mix.read_modify_write);
    if rmws > 0 {
        // updaterandom: a Get then a Put of the same random key, as the workload's read-modify-write.
        phases.push(Phase {
            benchmark: "updaterandom",
            flags: vec![format!("--num={preload}"), format!("--reads={rmws}")],
            what: format!("{rmws} read-modify-writes of existing keys"),
        });
    }
    if w.ycsb.is_some() {
        warnings.push(Warning::new(
            "ycsb",
            WarningKind::Approximated,
            "db_bench writes its own keys and values: YCSB's user<hash> names, rows and read-before-update client \
             are played as db_bench's fixed-size keys and blind writes",
        ));
    }
    let deletes = count(mix.delete);
    if deletes > 0 {
        phases.push(Phase {
            benchmark: "deleterandom",
            flags: vec![format!("--num={preload}"), format!("--deletes={deletes}")],
            what: format!("{deletes} deletes of existing keys"),
        });
    }
    let gets = count(mix.get_existing);
    if gets > 0 {
        phases.push(Phase {
            benchmark: "readrandom",
            flags: vec![format!("--num={preload}"), format!("--reads={gets}")],
            what: format!("{gets} lookups of existing keys"),
        });
    }
    let misses = count(mix.get_missing);
    if misses > 0 {
        phases.push(Phase {
            benchmark: "readmissing",
            flags: vec![format!("--num={preload}"), format!("--reads={misses}")],
            what: format!("{misses} zero-result lookups"),
        });
    }
    let ranges = count(mix.range);
    if ranges > 0 {
        // A range covering `range_selectivity` of the key space returns that share of the keys.
        let entries = (w.range_selectivity * preload as f64).round().max(1.0) as u64;
        phases.push(Phase {
            benchmark: "seekrandom",
            flags: vec![
                format!("--num={preload}"),
                format!("--reads={ranges}"),
                format!("--seek_nexts={}", entries - 1),
            ],
            what: format!("{ranges} range lookups of ~{entries} entries"),
        });
        warnings.push(Warning::new(
            "range_selectivity",
            WarningKind::Approximated,
            format!(
                "seekrandom reads a fixed {entries} entries per seek (range_selectivity {} of {preload} keys); \
                 the engine's ranges cover a share of the key space",
                w.range_selectivity
            ),
        ));
    }

    let op_types = mix.parts().iter().filter(|(_, f)| *f > 0.0).count();
    if op_types > 1 {
        warnings.push(Warning::new(
            "mix",
            WarningKind::Approximated,
            "db_bench runs one operation type at a time: the mix becomes sequential phases (writes, then reads), \
             not interleaved operations",
        ));
    }
    match w.distribution {
        Distribution::Uniform => {}
        Distribution::Zipf { theta } | Distribution::Latest { theta } => {
            let kind = if matches!(w.distribution, Distribution::Zipf { .. }) { "zipf" } else { "latest" };
            warnings.push(Warning::new(
                "distribution",
                WarningKind::Dropped,
                format!(
                    "db_bench's benchmarks draw keys uniformly; {kind} (θ = {}) is not expressible",
                    number(theta, 4)
                ),
            ));
        }
        Distribution::ScrambledZipf { theta } => {
            warnings.push(Warning::new(
                "distribution",
                WarningKind::Dropped,
                format!(
                    "db_bench's benchmarks draw keys uniformly; YCSB's scrambled Zipfian (θ = {}) is not expressible",
                    number(theta, 4)
                ),
            ));
        }
        Distribution::Exponential { percentile, fraction } => {
            warnings.push(Warning::new(
                "distribution",
                WarningKind::Dropped,
                format!(
                    "db_bench's benchmarks draw keys uniformly; YCSB's exponential ({}% of picks on the newest {}% of \
                     the records) is not expressible",
                    number(percentile, 2),
                    number(fraction * 100.0, 2)
                ),
            ));
        }
        Distribution::Hotspot { hot_fraction, hot_probability } => {
            warnings.push(Warning::new(
                "distribution",
                WarningKind::Dropped,
                format!(
                    "db_bench's benchmarks draw keys uniformly; the hotspot ({}% of accesses on {}% of the keys) is \
                     not expressible",
                    number(hot_probability * 100.0, 2),
                    number(hot_fraction * 100.0, 2)
                ),
            ));
        }
    }

    let mut t = String::from("#!/bin/sh\n");
    let wname = if w.name.is_empty() { "unnamed".to_string() } else { one_line(&w.name) };
    let dname = if config.name.is_empty() { "unnamed".to_string() } else { one_line(&config.name) };
    t.push_str(&format!(
        "# db_bench commands exported by LSM Navigator: workload \"{wname}\" on design \"{dname}\".\n"
    ));
    t.push_str(
        "# OPTIONS is the RocksDB OPTIONS file exported from the same design (lsm export --format rocksdb).\n\
         # The first command creates the database; the others reopen it. Each phase gets its own seed.\n",
    );
    for p in &phases {
        t.push_str(&format!("#   {:<17} {}\n", p.benchmark, p.what));
    }
    t.push_str("#\n");
    if warnings.is_empty() {
        t.push_str("# Lossless: db_bench runs exactly the workload's operations.\n");
    } else {
        t.push_str("# Not expressible in db_bench (dropped, rounded or approximated):\n");
        for warning in &warnings {
            t.push_str(&warning.comment_line("#"));
            t.push('\n');
        }
    }
    t.push_str("\nset -e\nDB=\"${DB:-/tmp/lsm-navigator-db}\"\nOPTIONS=\"${OPTIONS:-OPTIONS.ini}\"\n\n");

    // db_bench hands its own block cache (--cache_size) to LoadOptionsFromFile in some versions;
    // give it the design's size so both agree.
    let cache = match config.block_cache.bytes {
        0 => String::new(),
        bytes => format!(" --cache_size={bytes}"),
    };
    for (i, p) in phases.iter().enumerate() {
        let existing = if i == 0 { 0 } else { 1 };
        // db_bench reads seed 0 as "from the clock"; keep every phase deterministic and distinct.
        let seed = (w.seed.wrapping_add(i as u64 + 1) & (i64::MAX as u64)).max(1);
        t.push_str(&format!(
            "db_bench --options_file=\"$OPTIONS\" --db=\"$DB\" --use_existing_db={existing} --benchmarks={},stats \
             {} --key_size={} --value_size={} --seed={seed} --threads=1 --statistics=1 --histogram=1{cache}\n",
            p.benchmark,
            p.flags.join(" "),
            w.preload.key_bytes,
            w.preload.value_bytes,
        ));
    }
    if phases.is_empty() {
        t.push_str("# the workload has no operations\n");
    }
    Export { text: t, warnings }
}

/// A workload read from a db_bench command line goes back as that command line: one invocation,
/// the fill then the benchmark, with the flags that shaped it (`DbBenchPlay::flags`).
fn db_bench_line(config: &EngineConfig, w: &Workload, play: &DbBenchPlay) -> Export {
    let wname = if w.name.is_empty() { "unnamed".to_string() } else { one_line(&w.name) };
    let dname = if config.name.is_empty() { "unnamed".to_string() } else { one_line(&config.name) };
    let mut flags = play.flags(w);
    // The listed benchmarks, then the statistics dump.
    flags[0].push_str(",stats");
    let cache = match config.block_cache.bytes {
        0 => String::new(),
        bytes => format!(" --cache_size={bytes}"),
    };
    let text = format!(
        "# db_bench command exported by LSM Navigator: workload \"{wname}\" on design \"{dname}\".\n\
         # OPTIONS is the RocksDB OPTIONS file exported from the same design (lsm export --format rocksdb).\n\
         # Lossless: the workload is this db_bench command line.\n\n\
         set -e\nDB=\"${{DB:-/tmp/lsm-navigator-db}}\"\nOPTIONS=\"${{OPTIONS:-OPTIONS.ini}}\"\n\n\
         db_bench --options_file=\"$OPTIONS\" --db=\"$DB\" --use_existing_db=0 {} --threads=1 --statistics=1 --histogram=1{cache}\n",
        flags.join(" ")
    );
    Export { text, warnings: Vec::new() }
}

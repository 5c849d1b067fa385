//! db_bench exports: the scripts replay the workloads phase by phase with the right counts, and
//! say what db_bench cannot express.

use super::*;

#[test]
fn db_bench_replays_a_zero_result_workload_exactly() {
    let w = Workload::from_json(include_str!("../../../../../public/examples/zero-result-lookups.json")).unwrap();
    let c = design(&[(10.0, 1, None)], Allocation::Uniform, 10.0);
    let e = export(&c, Format::DbBench, Some(&w)).unwrap();
    assert!(e.warnings.is_empty(), "{:?}", e.warnings);
    assert!(e.text.starts_with("#!/bin/sh\n"));
    let lines: Vec<&str> = e.text.lines().filter(|l| l.starts_with("db_bench ")).collect();
    assert_eq!(lines.len(), 2);
    let flags = |l: &str| -> BTreeMap<String, String> {
        l.split_whitespace()
            .skip(1)
            .map(|f| {
                let (k, v) = f.trim_start_matches("--").split_once('=').unwrap();
                (k.to_string(), v.to_string())
            })
            .collect()
    };
    let load = flags(lines[0]);
    assert_eq!(load["benchmarks"], "filluniquerandom,stats");
    assert_eq!((load["num"].as_str(), load["use_existing_db"].as_str()), ("100000", "0"));
    assert_eq!((load["key_size"].as_str(), load["value_size"].as_str()), ("16", "100"));
    assert_eq!(load["options_file"], "\"$OPTIONS\"");
    let run = flags(lines[1]);
    assert_eq!(run["benchmarks"], "readmissing,stats");
    assert_eq!(
        (run["num"].as_str(), run["reads"].as_str(), run["use_existing_db"].as_str()),
        ("100000", "100000", "1")
    );
    assert_eq!(run["statistics"], "1");
    assert_ne!(load["seed"], run["seed"]);
    assert!(!e.text.contains("--cache_size"));
}

#[test]
fn db_bench_runs_a_mixed_workload_as_phases_and_says_so() {
    let w = Workload::from_json(include_str!("../../../../../public/examples/mixed.json")).unwrap();
    let mut c = design(&[(10.0, 1, None)], Allocation::Uniform, 10.0);
    c.block_cache.bytes = 1 << 20;
    let e = export(&c, Format::DbBench, Some(&w)).unwrap();
    assert_eq!(
        lossy(&e),
        expect(&[
            ("mix", Approximated),
            ("mix.insert", Approximated),
            ("range_selectivity", Approximated),
            ("distribution", Dropped)
        ])
    );
    let benches: Vec<&str> = e
        .text
        .lines()
        .filter(|l| l.starts_with("db_bench "))
        .map(|l| l.split("--benchmarks=").nth(1).unwrap().split(',').next().unwrap())
        .collect();
    assert_eq!(
        benches,
        ["filluniquerandom", "overwrite", "overwrite", "deleterandom", "readrandom", "readmissing", "seekrandom"]
    );
    // 100,000 operations: 20% inserts, 20% updates, 5% deletes, 25% + 25% lookups, 5% ranges of
    // 0.0005 × 50,000 = 25 entries.
    for needle in [
        "--num=70000 --writes=20000",
        "--num=50000 --writes=20000",
        "--deletes=5000",
        "--reads=25000",
        "--reads=5000 --seek_nexts=24",
        "--cache_size=1048576",
    ] {
        assert!(e.text.contains(needle), "{needle}");
    }
    let comments: Vec<&str> = e.text.lines().filter(|l| l.starts_with("# LOSSY")).collect();
    assert_eq!(comments, e.warnings.iter().map(|w| w.comment_line("#")).collect::<Vec<_>>());
    assert!(export(&c, Format::DbBench, None).unwrap_err().to_string().starts_with("workload:"));
}

#[test]
fn db_bench_creates_the_database_with_fillrandom_when_nothing_is_preloaded() {
    let mut w = Workload::from_json(include_str!("../../../../../public/examples/mixed.json")).unwrap();
    w.preload.entries = 0;
    w.mix = serde_json::from_str(r#"{ "insert": 1 }"#).unwrap();
    let e = export(&design(&[(10.0, 1, None)], Allocation::Uniform, 10.0), Format::DbBench, Some(&w)).unwrap();
    let lines: Vec<&str> = e.text.lines().filter(|l| l.starts_with("db_bench ")).collect();
    assert_eq!(lines.len(), 1);
    assert!(lines[0].contains("--use_existing_db=0 --benchmarks=fillrandom,stats"), "{}", lines[0]);
    // Every key is new: nothing to overwrite, so nothing approximated about the inserts.
    assert!(e.warnings.iter().all(|w| w.field != "mix.insert"));
}

//! The tuner's predictor against the engine it predicts, and the tuner's promises: the same
//! design, workload and seed, predicted without running and then run on the engine.
#![allow(clippy::unwrap_used)]

use lsm_core::config::{Allocation, BufferTrigger, CompactionConfig, EngineConfig, Granularity, LevelConfig};
use lsm_core::workload::{Distribution, Mix, Preload, Workload};
use lsm_engine::engine::{Engine, Merging};
use lsm_engine::storage::MemStorage;
use lsm_runner::runner::Runner;
use lsm_tune::predict::predict;
use lsm_tune::{Target, lazy_leveling, level_design, memory_of, tune};

mod common;
use common::measured;

fn workload(entries: u64, operations: u64, mix: Mix, distribution: Distribution, range_selectivity: f64) -> Workload {
    Workload {
        kind: "lsm-navigator/workload".into(),
        version: 1,
        name: String::new(),
        seed: 7,
        preload: Preload { entries, key_space: 0, key_bytes: 16, value_bytes: 240 },
        operations,
        mix,
        distribution,
        range_selectivity,
        ycsb: None,
        db_bench: None,
    }
}

/// LevelDB-like: level 1 holds flushed files (merged at 4), deeper levels merge file by file.
fn by_file(buffer: u64, bits: f64) -> EngineConfig {
    let mut c = level_design(4096, false, 10.0, buffer, bits, Allocation::Uniform);
    c.levels = vec![
        LevelConfig { size_ratio: 4.0, max_runs: 3, bits_per_key: None },
        LevelConfig { size_ratio: 10.0, max_runs: 1, bits_per_key: None },
    ];
    c.compaction =
        CompactionConfig { granularity: Granularity::File, target_file_bytes: buffer, ..CompactionConfig::default() };
    c
}

/// `by_file` with RocksDB's dynamic level bytes over L0..L4: level 1 merges into the base level,
/// which the data (about 10 MB against max_bytes_for_level_base 1 MB, multiplier 10) puts at
/// engine level 4 (L3), over two empty levels.
fn dynamic(mut c: EngineConfig) -> EngineConfig {
    c.compaction.dynamic_level_bytes = true;
    c.compaction.num_levels = 5;
    c.validate().unwrap();
    c
}

fn logged(mut c: EngineConfig) -> EngineConfig {
    c.buffer_trigger = BufferTrigger::Logged;
    c
}

fn mixes() -> Vec<(&'static str, Mix, Distribution, f64)> {
    let zipf = Distribution::Zipf { theta: 0.99 };
    vec![
        (
            "A: 50% reads, 50% updates, zipfian",
            Mix { get_existing: 0.5, update: 0.5, ..Mix::default() },
            zipf.clone(),
            0.0,
        ),
        ("C: reads, zipfian", Mix { get_existing: 1.0, ..Mix::default() }, zipf.clone(), 0.0),
        (
            "D: reads of the latest, 5% inserts",
            Mix { get_existing: 0.95, insert: 0.05, ..Mix::default() },
            Distribution::Latest { theta: 0.99 },
            0.0,
        ),
        ("E: short scans, 5% inserts", Mix { range: 0.95, insert: 0.05, ..Mix::default() }, zipf, 50.0 / 40_000.0),
        (
            "uniform: zero-result and existing lookups, inserts, updates",
            Mix { get_missing: 0.3, get_existing: 0.3, insert: 0.2, update: 0.2, ..Mix::default() },
            Distribution::Uniform,
            0.0,
        ),
        (
            "hotspot: 80% of reads and updates on 20% of the keys",
            Mix { get_existing: 0.7, update: 0.3, ..Mix::default() },
            Distribution::Hotspot { hot_fraction: 0.2, hot_probability: 0.8 },
            0.0,
        ),
    ]
}

#[test]
fn predictions_match_what_the_engine_measures() {
    let designs = [
        ("leveling T=10, Monkey 8 bits", level_design(4096, false, 10.0, 256 << 10, 8.0, Allocation::Monkey)),
        ("leveling T=4, uniform 5 bits", level_design(4096, false, 4.0, 128 << 10, 5.0, Allocation::Uniform)),
        ("tiering T=4, uniform 10 bits", level_design(4096, true, 4.0, 256 << 10, 10.0, Allocation::Uniform)),
        ("tiering T=3, Monkey 4 bits", level_design(4096, true, 3.0, 128 << 10, 4.0, Allocation::Monkey)),
        ("by file, uniform 10 bits", by_file(256 << 10, 10.0)),
        (
            "lazy leveling T=4, Monkey 6 bits",
            lazy_leveling(&level_design(4096, false, 4.0, 128 << 10, 6.0, Allocation::Monkey), 3).unwrap(),
        ),
        // Flushed by the log (overwrites count), as LevelDB's and RocksDB's buffers are.
        (
            "leveling T=4, uniform 5 bits, logged",
            logged(level_design(4096, false, 4.0, 128 << 10, 5.0, Allocation::Uniform)),
        ),
        ("by file, uniform 10 bits, logged", logged(by_file(256 << 10, 10.0))),
        ("by file, dynamic level bytes", dynamic(by_file(256 << 10, 10.0))),
        ("leveling T=4, Mnemosyne 6 bits", level_design(4096, false, 4.0, 128 << 10, 6.0, Allocation::Mnemosyne)),
        ("tiering T=3, Mnemosyne 4 bits", level_design(4096, true, 3.0, 128 << 10, 4.0, Allocation::Mnemosyne)),
    ];
    let mut worst: f64 = 0.0;
    for (name, mix, distribution, selectivity) in mixes() {
        let w = workload(40_000, 40_000, mix, distribution, selectivity);
        for (design, config) in &designs {
            let p = predict(config, &w).unwrap();
            let m = measured(config, &w);
            let err = p.expected / m - 1.0;
            eprintln!("{name:<62} {design:<30} measured {m:8.4} predicted {:8.4} ({:+.2}%)", p.expected, err * 100.0);
            assert!(p.expected.is_finite() && p.class_costs.iter().all(|c| c.is_finite() && *c >= 0.0));
            worst = worst.max(err.abs());
            // Stated tolerance: 8% per case (flushes and merges are whole events; a run phase of
            // 40,000 operations sees a handful of them).
            assert!(err.abs() < 0.08, "{name}, {design}: measured {m}, predicted {}", p.expected);
        }
    }
    eprintln!("largest relative error: {:.2}%", worst * 100.0);
}

#[test]
fn the_recommendation_holds_memory_and_is_never_predicted_worse() {
    let current = by_file(1 << 20, 10.0);
    for (name, mix, distribution, selectivity) in mixes() {
        let w = workload(40_000, 20_000, mix, distribution, selectivity);
        let nominal = tune(&current, &w, 0.0, Target::Engine).unwrap();
        let memory = memory_of(&current, w.preload.entries);
        for p in [&nominal.nominal, &nominal.robust] {
            assert!(memory_of(&p.config, w.preload.entries) <= memory + 1.0, "{name}: {}", p.summary);
            assert!(p.prediction.expected <= nominal.current.prediction.expected + 1e-12, "{name}");
            p.config.validate().unwrap();
        }
        // ρ = 0: robust is nominal.
        assert_eq!(nominal.robust.summary, nominal.nominal.summary);
        assert!(nominal.predicted_gain >= 0.0);
        // One headline: at ρ = 0 the run's gain (what the engine search ranks by), inside its range.
        let h = &nominal.headline;
        assert!((h.gain - nominal.predicted_gain).abs() < 1e-12, "{name}: {h:?} vs {}", nominal.predicted_gain);
        assert!(h.low <= h.gain && h.gain <= h.high && h.measures.contains("in the run as played"), "{name}: {h:?}");
        assert_eq!(h.keep, nominal.nominal.config == nominal.current.config, "{name}: {h:?}");
        let robust = tune(&current, &w, 1.0, Target::Engine).unwrap();
        // At ρ > 0, the worst case's gain, named so.
        let r = &robust.headline;
        let worst_gain =
            if robust.current.worst > 0.0 { 1.0 - robust.robust.worst / robust.current.worst } else { 0.0 };
        assert!(
            (r.gain - worst_gain).abs() < 1e-12 && r.measures.starts_with("the worst case within ρ = 1"),
            "{name}: {r:?}"
        );
        assert!(robust.robust.worst <= robust.nominal.worst + 1e-9, "{name}");
        assert!(robust.expected_loss >= -1e-12, "{name}");
        assert_eq!(robust.neighbourhood.current.len(), 1_000);
        assert!(robust.neighbourhood.robust.windows(2).all(|p| p[0] <= p[1]));
        assert!(*robust.neighbourhood.robust.last().unwrap() <= robust.robust.worst + 1e-9);
    }
}

#[test]
fn measured_gain_follows_the_predicted_gain() {
    // From a LevelDB-like design, the tuned one run on the engine. At this scale (40,000 entries,
    // a handful of flushes in the run) each prediction is within about 7% of the measurement
    // (the test above), so a gain is trusted to within 10% of itself or 5 points, whichever is
    // more, and the recommendation may measure at most 2% worse than where it started. At 10⁶
    // records the closing note of issue 13 gives the tighter figures.
    let current = by_file(1 << 20, 10.0);
    let mut failures = Vec::new();
    for (name, mix, distribution, selectivity) in mixes() {
        let w = workload(40_000, 40_000, mix, distribution, selectivity);
        let t = tune(&current, &w, 0.0, Target::Engine).unwrap();
        let rec = t.recommendation();
        let (mc, mr) = (measured(&current, &w), measured(&rec.config, &w));
        let gain = 1.0 - mr / mc;
        eprintln!(
            "{name:<62} {:<70} gain measured {:6.2}% predicted {:6.2}%",
            rec.summary,
            gain * 100.0,
            t.predicted_gain * 100.0
        );
        if mr > mc * 1.02 {
            failures.push(format!("{name}: recommended measured {mr} vs current {mc}"));
        }
        if (gain - t.predicted_gain).abs() > (0.1 * t.predicted_gain.abs()).max(0.05) {
            failures.push(format!("{name}: measured gain {gain}, predicted {}", t.predicted_gain));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn bad_input_is_refused_with_the_field() {
    let w = workload(1_000, 100, Mix { get_existing: 1.0, ..Mix::default() }, Distribution::Uniform, 0.0);
    let c = by_file(1 << 20, 10.0);
    assert!(tune(&c, &w, -1.0, Target::Engine).unwrap_err().to_string().contains("rho"));
    assert!(tune(&c, &w, f64::NAN, Target::Engine).unwrap_err().to_string().contains("rho"));
    let mut bad = w.clone();
    bad.preload.key_bytes = 2;
    assert!(predict(&c, &bad).unwrap_err().to_string().contains("key_bytes"));
}

#[test]
fn the_bundle_holds_every_file_and_a_report_that_says_what_changed() {
    use lsm_tune::bundle::{Proof, files};
    let current = by_file(1 << 20, 10.0);
    let w = workload(
        40_000,
        20_000,
        Mix { get_existing: 0.95, update: 0.05, ..Mix::default() },
        Distribution::Zipf { theta: 0.99 },
        0.0,
    );
    let t = tune(&current, &w, 0.5, Target::Rocksdb).unwrap();
    // For RocksDB the recommendation keeps RocksDB's shape: merges by file, uniform filters.
    let rec = t.recommendation();
    assert_eq!(rec.config.compaction.granularity, Granularity::File);
    assert_eq!(rec.config.filter.allocation, Allocation::Uniform);
    let proof = Proof { current: 0.5, recommended: 0.4, on: "the engine, in a test".into() };
    let bundle = files(&t, Some(&proof), None).unwrap();
    let names: Vec<&str> = bundle.iter().map(|f| f.name.as_str()).collect();
    for name in [
        "REPORT.md",
        "recommended.OPTIONS",
        "current.OPTIONS",
        "recommended.engine.json",
        "current.engine.json",
        "workload.json",
        "workload.properties",
        "workload.db_bench.sh",
        "compare.sh",
        "referee.cc",
        "tune-result.json",
    ] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
    // compare.sh plays the workload on RocksDB through the shipped referee, each design with its
    // own block cache; no column is the same for both designs by construction (keys read, user
    // bytes written).
    let text = |name: &str| bundle.iter().find(|f| f.name == name).map(|f| f.text.clone()).unwrap_or_default();
    let compare = text("compare.sh");
    assert!(compare.contains("g++ -std=c++17 -O2 \"$here/referee.cc\""), "{compare}");
    assert!(compare.contains("ops --workload \"$here/workload.json\" | \"$WORK/referee\""), "{compare}");
    assert!(compare.contains(&format!("cache={}", t.current.config.block_cache.bytes)), "{compare}");
    assert!(compare.contains(&format!("cache={}", rec.config.block_cache.bytes)), "{compare}");
    assert!(!compare.contains("keys_read ") && !compare.contains("rocksdb.bytes.written"), "{compare}");
    assert!(text("referee.cc").contains("LSMOPS1"));
    // Every part of the referee ships, so compare.sh's build finds what referee.cc includes.
    let referee_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../interop/rocksdb");
    for entry in std::fs::read_dir(&referee_dir).expect("interop/rocksdb") {
        let part = entry.expect("entry").file_name().to_string_lossy().into_owned();
        if part.starts_with("referee_") && (part.ends_with(".cc") || part.ends_with(".h")) {
            assert!(names.contains(&part.as_str()), "{part} is not in the bundle");
        }
    }
    let report = &bundle[0].text;
    assert!(
        report.contains("## What changed")
            && report.contains("## Why")
            && report.contains("Measured on the engine, in a test: 20.0% less."),
        "{report}"
    );
    assert!(report.contains("worst case within ρ"));
    assert!(report.contains("With twice the data (80000 records"), "{report}");
    assert!(t.grown.current > 0.0 && t.grown.recommended > 0.0);
    // The engine JSON loads back as the recommended design; the result document round-trips.
    let json = &bundle.iter().find(|f| f.name == "recommended.engine.json").unwrap().text;
    assert_eq!(EngineConfig::from_json(json).unwrap(), rec.config);
    let doc = &bundle.iter().find(|f| f.name == "tune-result.json").unwrap().text;
    let back: lsm_tune::TuneResult = serde_json::from_str(doc).unwrap();
    assert_eq!(back.recommendation().summary, rec.summary);
}

#[test]
fn robust_holds_up_better_than_nominal_when_the_workload_drifts() {
    use lsm_tune::drifted;
    use lsm_tune::robust::sample_neighbourhood;
    // Every class present: the nominal design (a small size ratio) is cheap for this mix, but
    // drift towards range lookups (within ρ = 0.5) makes its many runs expensive.
    let current = by_file(1 << 20, 10.0);
    let mix = Mix { get_missing: 0.3, get_existing: 0.3, range: 0.1, update: 0.3, ..Mix::default() };
    let w = workload(40_000, 20_000, mix, Distribution::Uniform, 0.001);
    let t = tune(&current, &w, 0.5, Target::Engine).unwrap();
    assert_ne!(t.robust.summary, t.nominal.summary, "robust and nominal should differ here");
    // 20 drifted workloads: the two designs' own worst cases within ρ and 18 drawn from the ball.
    let mut mixes = vec![t.nominal.worst_mix, t.robust.worst_mix];
    mixes.extend(sample_neighbourhood(&t.mix, 0.5, 18, 3).unwrap());
    let (mut worst_nominal, mut worst_robust): (f64, f64) = (0.0, 0.0);
    for mix in &mixes {
        let d = drifted(&w, mix);
        let (n, r) = (measured(&t.nominal.config, &d), measured(&t.robust.config, &d));
        worst_nominal = worst_nominal.max(n);
        worst_robust = worst_robust.max(r);
    }
    let (at_n, at_r) = (measured(&t.nominal.config, &w), measured(&t.robust.config, &w));
    eprintln!(
        "nominal {}: worst measured {worst_nominal:.4}; robust {}: worst measured {worst_robust:.4}; at the expected workload {at_n:.4} vs {at_r:.4} (loss {:+.1}%, predicted {:+.1}%)",
        t.nominal.summary,
        t.robust.summary,
        (at_r / at_n - 1.0) * 100.0,
        t.expected_loss * 100.0
    );
    assert!(worst_robust <= worst_nominal, "robust worst {worst_robust} vs nominal worst {worst_nominal}");
}

#[test]
fn the_predictor_lays_out_dynamic_level_bytes_as_the_engine_does() {
    let (_, mix, distribution, selectivity) = mixes().remove(0);
    let w = workload(40_000, 40_000, mix, distribution, selectivity);
    let config = dynamic(by_file(256 << 10, 10.0));
    let p = predict(&config, &w).unwrap();
    let mut engine = Engine::create(config.clone(), Box::new(MemStorage::new())).unwrap();
    // The predictor replays every merge as done by the next operation: merges inline.
    engine.merging = Merging::Inline;
    let mut runner = Runner::for_workload(&w).unwrap();
    while !runner.is_finished() {
        runner.step(&mut engine, u64::MAX).unwrap();
    }
    let measured: Vec<u64> = engine
        .tree()
        .levels
        .iter()
        .map(|l| l.runs.iter().flat_map(|r| r.tables.iter()).map(|t| t.entries).sum())
        .collect();
    let predicted: Vec<f64> = p.tree.iter().map(|l| l.iter().sum()).collect();
    // Both: L0's flushed files, L1 and L2 empty, the base level L3 (engine level 4) and the
    // last level L4 (engine level 5), which static targets would have put at levels 2 and 3.
    assert_eq!(predicted.len(), 5, "{predicted:?}");
    assert_eq!(measured.len(), 5, "{measured:?}");
    assert_eq!((predicted[1], predicted[2]), (0.0, 0.0), "{predicted:?}");
    assert_eq!((measured[1], measured[2]), (0, 0), "{measured:?}");
    for level in [3, 4] {
        let (p, m) = (predicted[level], measured[level] as f64);
        assert!((p / m - 1.0).abs() < 0.25, "level {}: predicted {p}, measured {m}", level + 1);
    }
}

/// RocksDB 7.8's defaults + Bloom 10 bits/key at the twin's CI scale (sizes × 1/64: a 1 MiB
/// memtable, 4 MiB level 1, 1 MiB files), imported as `lsm import --rocksdb` does, with a
/// 128 KiB block cache.
fn rocksdb_bloom10() -> EngineConfig {
    let options = "[Version]\n  rocksdb_version=7.8.3\n[DBOptions]\n  create_if_missing=true\n[CFOptions \"default\"]\n  write_buffer_size=1048576\n  \
                   max_bytes_for_level_base=4194304\n  target_file_size_base=1048576\n\
                   [TableOptions/BlockBasedTable \"default\"]\n  filter_policy=bloomfilter:10:false\n";
    let mut c = lsm_export::import(options, lsm_export::ImportKind::Rocksdb).unwrap().config;
    c.block_cache.bytes = 128 << 10;
    c
}

/// The twin's figures from the engine's run: data blocks per point lookup and per scan, filters
/// per point lookup, the data block cache's hit rate (interop/rocksdb/twin.mjs `engineFigures`).
fn engine_figures(report: &lsm_runner::report::Report) -> [f64; 4] {
    let sum = |classes: &[usize], f: &dyn Fn(&lsm_engine::stats::ReadCounters) -> u64| -> f64 {
        report.run.levels.iter().flat_map(|l| classes.iter().map(move |&c| f(&l.reads[c]))).sum::<u64>() as f64
    };
    let (gets, scan) = ([2, 3, 4], [5]);
    let lookups: f64 = gets.iter().map(|&c| report.run.ops[c] as f64).sum();
    let scans = report.run.ops[5] as f64;
    let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
    let all = [2, 3, 4, 5];
    let hits = sum(&all, &|r| r.data_cache_hits);
    let misses = sum(&all, &|r| r.data_pages_read);
    [
        ratio(sum(&gets, &|r| r.data_pages_read), lookups),
        ratio(sum(&scan, &|r| r.data_pages_read), scans),
        ratio(sum(&gets, &|r| r.filter_probes), lookups),
        ratio(hits, hits + misses),
    ]
}

#[test]
fn a_rocksdb_shape_is_priced_as_the_engine_measures_it() {
    let config = rocksdb_bloom10();
    for letter in ['c', 'e'] {
        let text = lsm_workload::ycsb::core_workload(letter, 20_000, 10_000).unwrap();
        let w = lsm_workload::ycsb::from_properties(&text, "workload").unwrap().workload;
        let p = predict(&config, &w).unwrap();
        let twin = p.twin.clone().expect("a RocksDB-shaped design gets the twin's figures");
        let mut engine = Engine::create(config.clone(), Box::new(MemStorage::new())).unwrap();
        // The predictor replays every merge as done by the next operation: merges inline.
        engine.merging = Merging::Inline;
        let mut runner = Runner::for_workload(&w).unwrap();
        while !runner.is_finished() {
            runner.step(&mut engine, u64::MAX).unwrap();
        }
        let measured = engine_figures(&runner.report(&engine));
        let predicted =
            [twin.data_blocks_per_lookup, twin.data_blocks_per_scan, twin.filters_per_lookup, twin.cache_hit_rate];
        eprintln!("YCSB {letter}: measured {measured:.4?}, predicted {predicted:.4?}");
        // The twin's bar: within 10%, or 0.02 absolute below 0.2.
        // Known to differ (asserted, so closing it fails here until removed): E's hit rate. Its
        // extra hits are the first block of level 1's first file, read by every scan starting
        // before it (RocksDB's iterator, and the engine's, position each level however far past
        // the scan's end its next file begins); the replay leaves level 1 a wider gap at this
        // scale than the engine's tree (measured 0.0132, predicted 0.0355; interop/rocksdb/
        // twin.test.mjs KNOWN_PREDICTED). At 1,000,000 records both agree with RocksDB.
        for (i, (m, p)) in measured.iter().zip(predicted).enumerate() {
            let agrees = if m.max(p) < 0.2 { (m - p).abs() <= 0.02 } else { (p / m - 1.0).abs() <= 0.10 };
            let known = letter == 'e' && i == 3;
            assert_eq!(agrees, !known, "YCSB {letter}, figure {i}: measured {m}, predicted {p}");
        }
        // After the load (YCSB C writes nothing after it), the tree the replay ends with is the
        // engine's: files and entries per level.
        if letter != 'c' {
            continue;
        }
        let tree = engine.tree();
        let files: Vec<usize> = tree.levels.iter().map(|l| l.runs.iter().map(|r| r.tables.len()).sum()).collect();
        let entries: Vec<f64> =
            tree.levels.iter().map(|l| l.runs.iter().flat_map(|r| &r.tables).map(|t| t.entries as f64).sum()).collect();
        let predicted_entries: Vec<f64> = p.tree.iter().map(|l| l.iter().sum()).collect();
        eprintln!(
            "files {files:?} predicted {:?}; entries {entries:?} predicted {predicted_entries:?}",
            twin.files_after_run
        );
        assert_eq!(files.len(), twin.files_after_run.len());
        for (level, (m, p)) in files.iter().zip(&twin.files_after_run).enumerate() {
            assert!(m.abs_diff(*p) <= 2, "level {}: {m} files, predicted {p}", level + 1);
        }
        // A level's entries move a file at a time: within 10%, or one target file's entries
        // (1 MiB of 1,023-byte entries) where the level is small.
        let file_entries = config.compaction.target_file_bytes as f64 / 1_023.0;
        for (level, (m, p)) in entries.iter().zip(&predicted_entries).enumerate() {
            assert!((m - p).abs() <= (0.1 * m).max(file_entries), "level {}: {m} entries, predicted {p}", level + 1);
        }
    }
}

#[test]
fn l0_trigger_2_multiplier_4_replays_the_tree_rocksdb_ends_with() {
    // The twin's "L0 trigger 2, multiplier 4, Bloom 10" at RocksDB's own sizes (64 MiB
    // memtable and files, 256 MiB level base), YCSB B at 1,000,000 records and 500,000
    // operations. Measured on RocksDB 7.8.3 (public/measured/rocksdb-twin.json, 2026-11-27):
    // after the run levels 0-2 hold 0, 3 and 13 files (the engine's too), and flushes and
    // compactions wrote 27.98 bytes per user byte in the run, 3.464 in the load. The replay
    // once left 4 files in level 1 and priced the run at 21.5: it cut outputs at each of two
    // adjacent grandparent boundaries and spread a merge's older flushes over the whole output.
    let options = "[Version]\n  rocksdb_version=7.8.3\n[DBOptions]\n  create_if_missing=true\n[CFOptions \"default\"]\n  \
                   level0_file_num_compaction_trigger=2\n  max_bytes_for_level_multiplier=4\n\
                   [TableOptions/BlockBasedTable \"default\"]\n  filter_policy=bloomfilter:10:false\n";
    let config = lsm_export::import(options, lsm_export::ImportKind::Rocksdb).unwrap().config;
    let text = lsm_workload::ycsb::core_workload('b', 1_000_000, 500_000).unwrap();
    let w = lsm_workload::ycsb::from_properties(&text, "workload").unwrap().workload;
    let twin = predict(&config, &w).unwrap().twin.expect("a RocksDB-shaped design gets the twin's figures");
    eprintln!(
        "files {:?}; run {:.3}, load {:.3} bytes per user byte",
        twin.files_after_run, twin.run_bytes_written_per_user_byte, twin.load_bytes_written_per_user_byte
    );
    assert_eq!(twin.files_after_run[..3], [0, 3, 13]);
    assert!(
        (twin.run_bytes_written_per_user_byte / 27.98 - 1.0).abs() < 0.02,
        "{}",
        twin.run_bytes_written_per_user_byte
    );
    assert!(
        (twin.load_bytes_written_per_user_byte / 3.464 - 1.0).abs() < 0.02,
        "{}",
        twin.load_bytes_written_per_user_byte
    );
}

/// `rocksdb_bloom10` with `compaction_style=kCompactionStyleUniversal` (RocksDB 7.8's universal
/// defaults: trigger 4, size ratio 1%, size amplification 200%, 7 levels), imported the same way.
fn rocksdb_universal() -> EngineConfig {
    let options = "[Version]\n  rocksdb_version=7.8.3\n[DBOptions]\n  create_if_missing=true\n[CFOptions \"default\"]\n  write_buffer_size=1048576\n  \
                   compaction_style=kCompactionStyleUniversal\n  target_file_size_base=1048576\n\
                   [TableOptions/BlockBasedTable \"default\"]\n  filter_policy=bloomfilter:10:false\n";
    let mut c = lsm_export::import(options, lsm_export::ImportKind::Rocksdb).unwrap().config;
    c.block_cache.bytes = 128 << 10;
    assert!(c.compaction.universal.is_some());
    c
}

/// Universal compaction on RocksDB 7.8's defaults at the twin's CI scale, on YCSB A (half the
/// run updates: merges shrink as they drop older versions), C (no run writes) and E (scans).
/// Measured (2026-11-26), engine against the replay: the same runs and files per level on all
/// three (A ends with L3..L6 holding 955 | 4,072 | 6,720 | 10,560 entries, predicted 960 |
/// 4,062 | 6,720 | 10,560), and data blocks per lookup within 4.4% (A: 0.5525 against 0.5283),
/// per scan within 4.6% (E: 16.26 against 17.01), bytes written per user byte within 2.5%.
#[test]
fn a_universal_design_is_replayed_and_priced_as_the_engine_runs_it() {
    let config = rocksdb_universal();
    for letter in ['a', 'c', 'e'] {
        let text = lsm_workload::ycsb::core_workload(letter, 20_000, 10_000).unwrap();
        let w = lsm_workload::ycsb::from_properties(&text, "workload").unwrap().workload;
        let p = predict(&config, &w).unwrap();
        let twin = p.twin.clone().expect("a universal design gets the twin's figures");
        let mut engine = Engine::create(config.clone(), Box::new(MemStorage::new())).unwrap();
        // The predictor replays every merge as done by the next operation: merges inline.
        engine.merging = Merging::Inline;
        let mut runner = Runner::for_workload(&w).unwrap();
        while !runner.is_finished() {
            runner.step(&mut engine, u64::MAX).unwrap();
        }
        let report = runner.report(&engine);
        let written = |s: &lsm_runner::report::WriteSummary| {
            if s.user_bytes > 0 { s.totals.bytes_written as f64 / s.user_bytes as f64 } else { 0.0 }
        };
        let mut measured = engine_figures(&report).to_vec();
        measured.extend([written(&report.load_writes), written(&report.writes)]);
        let predicted = [
            twin.data_blocks_per_lookup,
            twin.data_blocks_per_scan,
            twin.filters_per_lookup,
            twin.cache_hit_rate,
            twin.load_bytes_written_per_user_byte,
            twin.run_bytes_written_per_user_byte,
        ];
        eprintln!("YCSB {letter}: measured {measured:.4?}, predicted {predicted:.4?}");
        // The twin's bar: within 10%, or 0.02 absolute below 0.2.
        for (i, (m, p)) in measured.iter().zip(predicted).enumerate() {
            let agrees = if m.max(p) < 0.2 { (m - p).abs() <= 0.02 } else { (p / m - 1.0).abs() <= 0.10 };
            assert!(agrees, "YCSB {letter}, figure {i}: measured {m}, predicted {p}");
        }
        // The tree when the run ends: the same sorted runs per level (level 1's files, one per
        // deeper non-empty level), files within one per level, and entries within 10% or one
        // target file's entries (1 MiB of 1,023-byte entries).
        let tree = engine.tree();
        let runs: Vec<usize> = tree.levels.iter().map(|l| l.runs.len()).collect();
        let files: Vec<usize> = tree.levels.iter().map(|l| l.runs.iter().map(|r| r.tables.len()).sum()).collect();
        let entries: Vec<f64> =
            tree.levels.iter().map(|l| l.runs.iter().flat_map(|r| &r.tables).map(|t| t.entries as f64).sum()).collect();
        let predicted_entries: Vec<f64> = p.tree.iter().map(|l| l.iter().sum()).collect();
        let predicted_runs: Vec<usize> =
            p.tree.iter().enumerate().map(|(i, l)| if i == 0 { l.len() } else { usize::from(!l.is_empty()) }).collect();
        eprintln!("  runs {runs:?} predicted {predicted_runs:?}; files {files:?} predicted {:?}", twin.files_after_run);
        eprintln!("  entries {entries:?} predicted {predicted_entries:?}");
        assert_eq!(runs, predicted_runs, "YCSB {letter}: sorted runs per level");
        assert!(runs.iter().sum::<usize>() >= 3, "YCSB {letter}: a tree of several runs, {runs:?}");
        assert_eq!(files.len(), twin.files_after_run.len());
        for (level, (m, p)) in files.iter().zip(&twin.files_after_run).enumerate() {
            assert!(m.abs_diff(*p) <= 1, "YCSB {letter}, level {}: {m} files, predicted {p}", level + 1);
        }
        let file_entries = config.compaction.target_file_bytes as f64 / 1_023.0;
        for (level, (m, p)) in entries.iter().zip(&predicted_entries).enumerate() {
            assert!(
                (m - p).abs() <= (0.1 * m).max(file_entries),
                "YCSB {letter}, level {}: {m} entries, predicted {p}",
                level + 1
            );
        }
    }
}

/// The same shape with RocksDB's partitioned filters and two-level index, index and filter
/// partitions in the block cache (top levels pinned).
fn rocksdb_partitioned() -> EngineConfig {
    let mut c = rocksdb_bloom10();
    c.block_cache.cache_index_and_filter_blocks = true;
    c.block_cache.index_type = lsm_core::config::IndexType::TwoLevelIndexSearch;
    c.block_cache.partition_filters = true;
    c.validate().unwrap();
    c
}

#[test]
fn partition_reads_are_priced_as_the_engine_measures_them() {
    let text = lsm_workload::ycsb::core_workload('c', 20_000, 10_000).unwrap();
    let w = lsm_workload::ycsb::from_properties(&text, "workload").unwrap().workload;
    // Without a cache every probe reads its filter partition and every data block read its
    // index partition: exactly filters + data blocks per lookup, and a lookup's cost has them.
    let mut uncached = rocksdb_partitioned();
    uncached.block_cache.bytes = 0;
    let p = predict(&uncached, &w).unwrap();
    let t = p.twin.clone().unwrap();
    assert!(t.filters_per_lookup > 1.0, "{t:?}");
    assert!((t.metadata_blocks_per_lookup - (t.filters_per_lookup + t.data_blocks_per_lookup)).abs() < 1e-9, "{t:?}");
    let whole = predict(&rocksdb_bloom10(), &w).unwrap();
    assert!(
        p.class_costs[1] > whole.class_costs[1] + t.filters_per_lookup * 0.9,
        "{:?} vs {:?}",
        p.class_costs,
        whole.class_costs
    );
    // Pinned metadata (no cache_index_and_filter_blocks, no partitions) reads none.
    assert_eq!(whole.twin.unwrap().metadata_blocks_per_lookup, 0.0);

    // Through the twin's 128 KiB cache. The cache model splits a file's requests evenly over
    // its partitions; under YCSB C's Zipfian keys a few partitions take most of them and stay
    // cached, so it over-counts misses (as it does for whole index and filter blocks in the
    // cache: 0.60 predicted, 0.37 measured, measured 2026-11-27). Held: an upper bound, within 2×.
    let config = rocksdb_partitioned();
    let predicted = predict(&config, &w).unwrap().twin.unwrap().metadata_blocks_per_lookup;
    let mut engine = Engine::create(config, Box::new(MemStorage::new())).unwrap();
    let mut runner = Runner::for_workload(&w).unwrap();
    while !runner.is_finished() {
        runner.step(&mut engine, u64::MAX).unwrap();
    }
    let report = runner.report(&engine);
    let (gets, mut meta) = ([2usize, 3, 4], 0u64);
    for l in &report.run.levels {
        for &c in &gets {
            meta += l.reads[c].index_block_reads + l.reads[c].filter_block_reads;
        }
    }
    let lookups: u64 = gets.iter().map(|&c| report.run.ops[c]).sum();
    let measured = meta as f64 / lookups as f64;
    eprintln!("partitions per lookup: measured {measured:.4}, predicted {predicted:.4}");
    assert!(measured > 0.1, "the cache is small: partitions are read");
    assert!(predicted >= measured && predicted <= 2.0 * measured, "measured {measured}, predicted {predicted}");
}

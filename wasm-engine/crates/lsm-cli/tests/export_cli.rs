//! `lsm export` / `lsm import` end to end: the exported engine JSON runs unchanged with
//! `lsm run`, the CLI prints exactly what the library (and so the browser) produces, and bad
//! design files are rejected naming the file and the field.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use lsm_core::config::EngineConfig;
use lsm_core::workload::Workload;
use lsm_export::{self as export, Format};

const PRESETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../public/presets");
const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../public/examples");

fn lsm(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lsm")).args(args).output().unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lsm-export-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, file: &str, text: &str) -> String {
    let path = dir.join(file);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

const SMALL_WORKLOAD: &str = r#"{
  "kind": "lsm-navigator/workload", "version": 1, "name": "small", "seed": 3,
  "preload": { "entries": 3000, "key_space": 0, "key_bytes": 16, "value_bytes": 100 },
  "operations": 3000,
  "mix": { "update": 0.2, "get_existing": 0.4, "get_missing": 0.4 },
  "distribution": { "kind": "uniform" }
}"#;

#[test]
fn exported_engine_json_runs_unchanged_with_lsm_run() {
    let dir = scratch("run");
    let workload = write(&dir, "w.json", SMALL_WORKLOAD);
    for preset in ["leveldb", "moose", "tiering", "dostoevsky-lazy-leveling"] {
        let design = format!("{PRESETS}/{preset}.json");
        let out = lsm(&["export", "--design", &design, "--format", "engine"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).unwrap();
        let original = EngineConfig::from_json(&std::fs::read_to_string(&design).unwrap()).unwrap();
        assert_eq!(EngineConfig::from_json(&text).unwrap(), original);
        let exported = write(&dir, &format!("{preset}.json"), &text);
        let report = dir.join(format!("{preset}.report.json"));
        let run = lsm(&["run", "--config", &exported, "--workload", &workload, "--report", report.to_str().unwrap()]);
        assert!(run.status.success(), "{preset}: {}", String::from_utf8_lossy(&run.stderr));
        let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
        assert_eq!(report["preload_operations"], 3000, "{preset}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn export_cli_prints_what_the_library_produces() {
    let design = format!("{PRESETS}/moose.json");
    let workload = format!("{EXAMPLES}/mixed.json");
    let config = EngineConfig::from_json(&std::fs::read_to_string(&design).unwrap()).unwrap();
    let w = Workload::from_json(&std::fs::read_to_string(&workload).unwrap()).unwrap();
    for format in Format::ALL {
        let out = lsm(&["export", "--design", &design, "--format", format.name(), "--workload", &workload]);
        assert!(out.status.success(), "{format}: {}", String::from_utf8_lossy(&out.stderr));
        let want = export::export(&config, format, Some(&w)).unwrap();
        assert_eq!(String::from_utf8(out.stdout).unwrap(), want.text, "{format}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(stderr.lines().count(), want.warnings.len(), "{format}: one line per warning");
    }
}

#[test]
fn export_of_a_bad_design_file_names_the_file_and_the_field() {
    let dir = scratch("bad");
    let bad = write(
        &dir,
        "bad.json",
        r#"{"kind":"lsm-navigator/engine-config","version":1,"page_bytes":4096,"buffer_bytes":1048576,
            "levels":[{"size_ratio":0.5,"max_runs":1}],"filter":{"allocation":"uniform","bits_per_key":10}}"#,
    );
    let out = lsm(&["export", "--design", &bad, "--format", "rocksdb"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains(&format!("{bad}: levels[0].size_ratio: must be a number in [1, 1000], got 0.5")),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());

    let typo = write(
        &dir,
        "typo.json",
        r#"{"kind":"lsm-navigator/engine-config","version":1,"page_bytes":4096,"bufer_bytes":1048576,
            "levels":[{"size_ratio":10,"max_runs":1}],"filter":{"allocation":"uniform","bits_per_key":10}}"#,
    );
    let out = lsm(&["export", "--design", &typo, "--format", "engine"]);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains(&typo) && stderr.contains("bufer_bytes"), "{stderr}");

    let good = format!("{PRESETS}/rocksdb.json");
    let out = lsm(&["export", "--design", &good, "--format", "yaml"]);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("format: must be one of rocksdb, rocksdb-cpp, engine, db_bench"), "{stderr}");
    let out = lsm(&["export", "--design", &good, "--format", "db_bench"]);
    assert!(String::from_utf8(out.stderr).unwrap().contains("workload: the db_bench format needs a workload"));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn import_of_exported_options_prints_the_design_and_reports_unknown_keys() {
    let dir = scratch("import");
    let exported = export::export(
        &EngineConfig::from_json(&std::fs::read_to_string(format!("{PRESETS}/hbase.json")).unwrap()).unwrap(),
        Format::Rocksdb,
        None,
    )
    .unwrap()
    .text;
    let options =
        write(&dir, "OPTIONS.ini", &exported.replace("[DBOptions]\n", "[DBOptions]\n  max_background_jobs=8\n"));
    let out = lsm(&["import", "--rocksdb", &options]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let config = EngineConfig::from_json(&String::from_utf8(out.stdout).unwrap()).unwrap();
    assert_eq!((config.page_bytes, config.buffer_bytes, config.levels[0].size_ratio), (65536, 128 << 20, 2.0));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("unknown key (ignored): DBOptions.max_background_jobs"), "{stderr}");

    let broken = write(&dir, "broken.ini", "[DBOptions]\n[CFOptions \"default\"]\n  num_levels\n");
    let out = lsm(&["import", "--rocksdb", &broken]);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains(&broken) && stderr.contains("line 3"), "{stderr}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn importers_name_the_file_the_line_the_field_and_what_is_allowed() {
    let dir = scratch("hostile");
    // A RocksDB OPTIONS file with a negative size on line 5.
    let options = write(
        &dir,
        "OPTIONS-bad",
        "[Version]\n  rocksdb_version=7.8.3\n[DBOptions]\n[CFOptions \"default\"]\n  write_buffer_size=-5\n",
    );
    let out = lsm(&["import", "--rocksdb", &options]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains(&format!(
            "{options}: write_buffer_size (line 5): must be an integer in [0, 2^64 − 1] (k/m/g/t suffix allowed), got \"-5\""
        )),
        "{stderr}"
    );
    assert!(out.stdout.is_empty(), "nothing half-imported is printed");

    // A KVBench trace with an unknown operation on line 3.
    let trace = write(&dir, "ops.trace", "I 1 one\nQ 1\nX 2\n");
    let config = format!("{}/../../../public/presets/leveldb.json", env!("CARGO_MANIFEST_DIR"));
    let out = lsm(&["run", "--config", &config, "--trace", &trace]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains(&format!("{trace}: line 3: unknown operation 'X' (expected I, U, D, Q or S)")), "{stderr}");

    // A Workload whose size field is beyond the cap: refused, with the range, before anything is allocated.
    let workload = write(
        &dir,
        "huge.json",
        r#"{"kind":"lsm-navigator/workload","version":1,"seed":1,
            "preload":{"entries":1000,"key_space":0,"key_bytes":16,"value_bytes":4000000000},
            "operations":10,"mix":{"insert":1,"update":0,"delete":0,"get_existing":0,"get_missing":0,"range":0},
            "distribution":{"kind":"uniform"},"range_selectivity":0}"#,
    );
    let out = lsm(&["validate", "--workload", &workload]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains(workload.as_str())
            && stderr.contains("preload.value_bytes: must be an integer in [0, 60000], got 4000000000"),
        "{stderr}"
    );
}

#[test]
fn ycsb_workloads_run_by_name_or_file_and_write_back_as_ycsb() {
    let dir = scratch("ycsb");
    // A core workload by name, with YCSB's -p style counts.
    let out = lsm(&["ycsb", "--core", "b", "--records", "5000", "--operations", "3000"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    for line in [
        "recordcount=5000",
        "operationcount=3000",
        "readproportion=0.95",
        "updateproportion=0.05",
        "requestdistribution=zipfian",
    ] {
        assert!(text.lines().any(|l| l == line), "{line} in:\n{text}");
    }
    // That file runs as a workload, exactly like the name does.
    let file = write(&dir, "workloadb", &text);
    let config = format!("{}/../../../public/presets/leveldb.json", env!("CARGO_MANIFEST_DIR"));
    let by_file = lsm(&["run", "--config", &config, "--workload", &file]);
    let by_name =
        lsm(&["run", "--config", &config, "--workload", "ycsb:b", "--records", "5000", "--operations", "3000"]);
    assert!(by_file.status.success() && by_name.status.success(), "{}", String::from_utf8_lossy(&by_file.stderr));
    let counters = |o: &Output| {
        let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        (r["summary"].clone(), r["tree"].clone())
    };
    assert_eq!(counters(&by_file), counters(&by_name));
    // Bad counts are refused with the flag and the range.
    let out = lsm(&["run", "--config", &config, "--workload", "ycsb:a", "--records", "-1"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("--records: must be an integer in [0, 1000000000], got -1"));
    let out = lsm(&["ycsb", "--core", "z"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("YCSB core workloads are a, b, c, d, e and f, got \"z\""));
    // `ycsb:NAME` is read as the page reads a letter (lsm-workload's `named_core_workload`): one
    // letter, either case; anything longer is refused with the field and the letters allowed.
    let out = lsm(&["run", "--config", &config, "--workload", "ycsb:ab"]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("workload: YCSB core workloads are a, b, c, d, e and f, got \"ab\""),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let upper = lsm(&["run", "--config", &config, "--workload", "ycsb:B", "--records", "5000", "--operations", "3000"]);
    assert_eq!(counters(&upper), counters(&by_name));
}

#[test]
fn a_reader_that_goes_away_ends_the_output_without_a_panic() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let workload = format!("{}/../../../public/examples/mixed.json", env!("CARGO_MANIFEST_DIR"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_lsm"))
        .args(["trace", "--workload", &workload])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read one line's worth, then close the pipe, as `| head -1` does.
    let mut first = [0u8; 64];
    child.stdout.as_mut().unwrap().read_exact(&mut first).unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
}

#[test]
fn help_after_a_command_prints_the_usage() {
    for (args, usage) in [
        (&["run", "--help"][..], "Usage: lsm run "),
        (&["export", "-h"][..], "Usage: lsm export "),
        (&["--help"][..], "Usage: lsm <COMMAND>"),
    ] {
        let out = lsm(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(stdout.contains(usage), "{args:?}: {stdout}");
        assert!(out.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn tune_prints_a_recommendation_no_worse_than_the_current_design() {
    let config = format!("{PRESETS}/leveldb.json");
    let out = lsm(&[
        "tune",
        "--config",
        &config,
        "--workload",
        "ycsb:a",
        "--records",
        "20000",
        "--operations",
        "5000",
        "--robust",
        "0.5",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["kind"], "lsm-navigator/tune-result");
    assert_eq!(r["recommended"], "robust");
    let cost = |k: &str| r[k]["prediction"]["expected"].as_f64().unwrap();
    assert!(cost("nominal") <= cost("current"));
    assert!(r["robust"]["worst"].as_f64().unwrap() <= r["nominal"]["worst"].as_f64().unwrap() + 1e-9);
    assert_eq!(r["neighbourhood"]["current"].as_array().unwrap().len(), 1000);
    // Bad input names the flag and the range.
    let bad = lsm(&["tune", "--config", &config, "--workload", "ycsb:a", "--robust", "11"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("rho"), "{}", String::from_utf8_lossy(&bad.stderr));
}

#[test]
fn bench_and_run_say_where_they_store_and_can_skip_the_log() {
    let dir = scratch("no-wal");
    let workload = write(&dir, "w.json", SMALL_WORKLOAD);
    let config = format!("{PRESETS}/leveldb.json");
    // lsm bench: in memory unless --dir, and says which.
    let out = lsm(&["bench", "--config", &config, "--workload", &workload]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let line: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((line["storage"].as_str(), line["wal"].as_bool()), (Some("memory"), Some(true)));
    let db = dir.join("bench-db");
    let _ = std::fs::remove_dir_all(&db);
    let out = lsm(&["bench", "--config", &config, "--workload", &workload, "--dir", db.to_str().unwrap(), "--no-wal"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let line: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((line["storage"].as_str(), line["wal"].as_bool()), (Some("files"), Some(false)));
    let files: Vec<String> =
        std::fs::read_dir(&db).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert!(files.iter().any(|f| f.ends_with(".sst")), "{files:?}");
    assert!(!files.iter().any(|f| f.ends_with(".wal")), "no log with --no-wal: {files:?}");
    // lsm run: the log's bytes are counted with it, none without it; the I/O counters agree.
    let mut reports = Vec::new();
    for (name, extra) in [("with-wal", None), ("no-wal", Some("--no-wal"))] {
        let db = dir.join(name);
        let _ = std::fs::remove_dir_all(&db);
        let mut args = vec!["run", "--config", &config, "--workload", &workload, "--dir", db.to_str().unwrap()];
        args.extend(extra);
        let out = lsm(&args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        reports.push(serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap());
    }
    assert!(reports[0]["preload"]["wal_bytes_written"].as_u64().unwrap() > 3000 * 116);
    assert_eq!(reports[1]["preload"]["wal_bytes_written"].as_u64(), Some(0));
    assert_eq!(reports[1]["run"]["wal_bytes_written"].as_u64(), Some(0));
    assert_eq!(reports[0]["summary"], reports[1]["summary"]);
    assert_eq!(reports[0]["writes"], reports[1]["writes"]);
    // A switch takes no value; an option still needs one (clap says so, with its exit code).
    let out = lsm(&["bench", "--dir"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("a value is required for '--dir <DIR>'"));
}

/// On files the merges run in the background unless `--merges` says otherwise; in memory they are
/// paced, as in the browser. `lsm run`'s summary and Report and `lsm bench`'s line say which ran.
#[test]
fn the_merge_mode_follows_the_storage_and_every_output_says_which_ran() {
    let dir = scratch("merge-mode");
    let workload = write(&dir, "w.json", SMALL_WORKLOAD);
    // A 64 KiB buffer: the load flushes and merges, so the merger threads have work.
    let mut config: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{EXAMPLES}/bench-config.json")).unwrap()).unwrap();
    config["buffer_bytes"] = 65_536.into();
    let config = write(&dir, "c.json", &config.to_string());
    let db = dir.join("db");
    let db = db.to_str().unwrap();
    let cases: [(&[&str], &str); 5] = [
        (&["--dir", db], "background"),
        (&[], "paced"),
        (&["--dir", db, "--merges", "paced"], "paced"),
        (&["--dir", db, "--merges", "inline"], "inline"),
        (&["--merges", "inline"], "inline"),
    ];
    for (extra, mode) in cases {
        for command in ["run", "bench"] {
            let _ = std::fs::remove_dir_all(db);
            let mut args = vec![command, "--config", &config, "--workload", &workload, "--no-wal"];
            args.extend(extra);
            let out = lsm(&args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "{args:?}: {stderr}");
            let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(doc["merges"].as_str(), Some(mode), "{args:?}");
            if command == "run" {
                assert!(stderr.starts_with(&format!("merges: {mode} (")), "{args:?}: {stderr}");
                let flushes = doc["load_writes"]["totals"]["flushes"].as_u64().unwrap();
                assert!(flushes > 0, "{args:?}");
            }
        }
    }
    // Background merging needs files (the merger threads open them); a mode it does not know is
    // refused, not run as another.
    for (extra, message) in [
        (&["--merges", "background"][..], "--merges: background needs --dir"),
        (&["--dir", db, "--merges", "fast"][..], "--merges: must be background, paced or inline"),
    ] {
        let _ = std::fs::remove_dir_all(db);
        let mut args = vec!["run", "--config", &config, "--workload", &workload];
        args.extend(extra);
        let out = lsm(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains(message), "{}", String::from_utf8_lossy(&out.stderr));
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn run_reports_the_load_phase_next_to_the_run() {
    let dir = scratch("load-phase");
    let workload = write(&dir, "w.json", SMALL_WORKLOAD);
    // A 64 KiB buffer: the load flushes and merges.
    let mut config: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{EXAMPLES}/leveling-monkey.json")).unwrap()).unwrap();
    config["buffer_bytes"] = 65_536.into();
    let config = write(&dir, "c.json", &config.to_string());
    let out = lsm(&["run", "--config", &config, "--workload", &workload]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let load = &report["load_writes"];
    // 3,000 inserts of 16 B keys and 100 B values.
    assert_eq!(load["user_bytes"].as_u64(), Some(3000 * 116));
    let flushes: u64 =
        report["preload"]["levels"].as_array().unwrap().iter().map(|l| l["writes"]["flushes"].as_u64().unwrap()).sum();
    assert!(flushes > 0);
    assert_eq!(load["totals"]["flushes"].as_u64(), Some(flushes));
    let amp = load["totals"]["bytes_written"].as_f64().unwrap() / (3000.0 * 116.0);
    assert!((load["write_amplification"].as_f64().unwrap() - amp).abs() < 1e-12 && amp >= 1.0, "{amp}");
    // The run phase's updates (about 20% of 3,000) are its own.
    let updates = report["operations"]["update"].as_u64().unwrap();
    assert!((500..700).contains(&updates));
    assert_eq!(report["writes"]["user_bytes"].as_u64(), Some(updates * 116));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("load: 3000 operations in "), "{stderr}");
    assert!(stderr.contains(&format!("{flushes} flushes")), "{stderr}");
    assert!(stderr.contains("run : 3000 operations in "), "{stderr}");
}

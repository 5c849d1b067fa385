//! `lsm export` / `lsm import` end to end: the exported engine JSON runs unchanged with
//! `lsm run`, the CLI prints exactly what the library (and so the browser) produces, and bad
//! design files are rejected naming the file and the field.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use lsm_engine::config::EngineConfig;
use lsm_engine::export::{self, Format};
use lsm_engine::workload::Workload;

const PRESETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../public/presets");
const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../public/examples");

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

//! The command line itself: help for every command with each flag's units and range, clap's
//! errors (exit code 2) for a command line of the wrong shape, the engine's (exit code 1) for a
//! bad value, shell completions, and every `lsm` line of docs/cli.md's command reference run on
//! small inputs.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use lsm_core::config::{BITS_PER_KEY_RANGE, MAX_RUNS_RANGE, SIZE_RATIO_RANGE};
use lsm_core::workload::MAX_OPERATIONS;
use lsm_runner::growth::{LOG2_RANGE, LOOKUPS_RANGE};
use lsm_runner::write_amp::CHECKPOINT_RANGE;
use lsm_tune::RHO_RANGE;

/// The wasm-engine directory, where docs/cli.md's `lsm` lines run.
const ENGINE_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
const PRESETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../public/presets");
/// The CLI reference: its `## Commands` section holds every command line the tests run.
const CLI_DOC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../docs/cli.md");

/// Every command, in the order `lsm --help` lists them.
const COMMANDS: [&str; 17] = [
    "run",
    "trace",
    "validate",
    "bench",
    "export",
    "import",
    "ycsb",
    "fit",
    "tune",
    "predict",
    "calibrate",
    "growth",
    "keys",
    "ops",
    "writes",
    "version",
    "completions",
];

fn lsm(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lsm")).args(args).output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lsm-cli-args-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn preset(name: &str) -> String {
    format!("{PRESETS}/{name}.json")
}

/// Inserts and updates only, so every command that reads a workload takes it (`keys` and
/// `writes` too).
const SMALL_WORKLOAD: &str = r#"{
  "kind": "lsm-navigator/workload", "version": 1, "name": "small", "seed": 5,
  "preload": { "entries": 2000, "key_space": 0, "key_bytes": 16, "value_bytes": 100 },
  "operations": 2000,
  "mix": { "insert": 0.5, "update": 0.5 },
  "distribution": { "kind": "uniform" }
}"#;

#[test]
fn help_lists_every_subcommand() {
    let out = lsm(&["--help"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("Usage: lsm <COMMAND>"), "{text}");
    let listed: Vec<&str> = text
        .lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.is_empty())
        // A description that wraps goes on deeper indented.
        .filter(|l| !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let mut want = COMMANDS.to_vec();
    want.push("help");
    assert_eq!(listed, want, "{text}");
    // The workloads every command reads, and where the rest of the help is.
    assert!(text.contains("ycsb:a … ycsb:f") && text.contains("lsm completions <shell>"), "{text}");
    // Without a command: the help on stderr, and clap's exit code for a command line it refuses.
    let bare = lsm(&[]);
    assert_eq!(bare.status.code(), Some(2));
    assert!(bare.stdout.is_empty() && stderr(&bare).contains("Usage: lsm <COMMAND>"));
}

#[test]
fn every_subcommand_has_its_own_help() {
    for command in COMMANDS {
        for args in [vec![command, "--help"], vec![command, "-h"], vec!["help", command]] {
            let out = lsm(&args);
            assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
            let text = stdout(&out);
            assert!(text.contains(&format!("Usage: lsm {command}")), "{args:?}: {text}");
            assert!(out.stderr.is_empty(), "{args:?}");
        }
    }
}

#[test]
fn flag_help_states_units_and_ranges() {
    let help = |command: &str| {
        let out = lsm(&[command, "--help"]);
        assert!(out.status.success(), "{command}: {}", stderr(&out));
        // One line per flag description, however clap wraps it.
        stdout(&out).split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let records =
        format!("recordcount (the records loaded), a db_bench line's --num: an integer in [0, {MAX_OPERATIONS}]");
    let operations =
        format!("operationcount (the operations run), a db_bench line's --reads: an integer in [0, {MAX_OPERATIONS}]");
    for command in ["run", "trace", "validate", "bench", "export", "ycsb", "tune", "predict", "keys", "writes"] {
        let text = help(command);
        assert!(text.contains("--records <N>") && text.contains(&records), "{command}: {text}");
        assert!(text.contains("--operations <N>") && text.contains(&operations), "{command}: {text}");
    }
    for command in ["run", "fit"] {
        let text = help(command);
        assert!(text.contains("--key-bytes <BYTES>"), "{command}: {text}");
        assert!(
            text.contains("in bytes, that a trace's integer keys are encoded to: an integer in [8, 1024]"),
            "{text}"
        );
        assert!(text.contains("[default: 16]"), "{command}: {text}");
    }
    let growth = help("growth");
    let (t_lo, t_hi) = SIZE_RATIO_RANGE;
    let (k_lo, k_hi) = MAX_RUNS_RANGE;
    let (b_lo, b_hi) = BITS_PER_KEY_RANGE;
    let (l_lo, l_hi) = LOG2_RANGE;
    let (n_lo, n_hi) = LOOKUPS_RANGE;
    for range in [
        format!("Size ratio T between levels: a number in [{t_lo}, {t_hi}]"),
        format!("Runs per level K (1 = leveling): an integer in [{k_lo}, {k_hi}]"),
        format!("Filter memory, in bits per key: a number in [{b_lo}, {b_hi}]"),
        "Write buffer size, in bytes: an integer in [4096 (one 4 KiB page), 4294967296]".to_string(),
        format!("as a power of two of entries: an integer in [{l_lo}, {l_hi}] [default: 12]"),
        format!("as a power of two of entries: an integer in [{l_lo}, {l_hi}], ≥ --from [default: 20]"),
        format!("Zero-result lookups at each size: an integer in [{n_lo}, {n_hi}]"),
        "Value size of every entry, in bytes (keys are 16 B)".to_string(),
    ] {
        assert!(growth.contains(&range), "{range} in: {growth}");
    }
    let (r_lo, r_hi) = RHO_RANGE;
    let tune = help("tune");
    assert!(tune.contains(&format!("a number in [{r_lo}, {r_hi}]")), "{tune}");
    assert!(tune.contains("[possible values: engine, rocksdb]"), "{tune}");
    let writes = help("writes");
    assert!(writes.contains(&format!("an integer in [{}, {}]", CHECKPOINT_RANGE.0, CHECKPOINT_RANGE.1)), "{writes}");
    let export = help("export");
    assert!(export.contains("[possible values: rocksdb, rocksdb-cpp, engine, db_bench]"), "{export}");
    let run = help("run");
    assert!(run.contains("--no-wal Do not log writes ahead (as RocksDB's disableWAL)"), "{run}");
}

#[test]
fn version_flag_and_command_print_the_same_line() {
    let want = format!("lsm {}\n", env!("CARGO_PKG_VERSION"));
    for args in [&["--version"][..], &["-V"][..], &["version"][..]] {
        let out = lsm(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert_eq!(stdout(&out), want, "{args:?}");
    }
}

#[test]
fn an_unknown_flag_or_command_fails_with_exit_code_2_naming_it() {
    let config = preset("leveldb");
    let out = lsm(&["run", "--config", &config, "--workload", "ycsb:a", "--bogus-flag"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("unexpected argument '--bogus-flag'"), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    // A flag of another command is unknown here too (growth has no --workload).
    let out = lsm(&["growth", "--workload", "ycsb:a"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("'--workload'"), "{}", stderr(&out));
    let out = lsm(&["frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("unrecognized subcommand 'frobnicate'"), "{}", stderr(&out));
}

#[test]
fn a_flag_missing_its_value_or_a_required_flag_fails_with_exit_code_2() {
    let out = lsm(&["trace", "--workload"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("a value is required for '--workload <W>'"), "{}", stderr(&out));
    let out = lsm(&["predict", "--workload", "ycsb:a"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--config <C.json>"), "{}", stderr(&out));
}

#[test]
fn mutually_exclusive_flags_fail_naming_both() {
    let config = preset("leveldb");
    let cases: [(&[&str], &str, &str); 6] = [
        (&["run", "--config", &config, "--workload", "ycsb:a", "--trace", "t.txt"], "--workload", "--trace"),
        (&["validate", "--config", &config, "--workload", "ycsb:a"], "--config", "--workload"),
        (&["import", "--rocksdb", "OPTIONS", "--engine", &config], "--rocksdb", "--engine"),
        (&["ycsb", "--core", "a", "--workload", "ycsb:b"], "--core", "--workload"),
        (&["tune", "--options", "OPTIONS", "--config", &config, "--workload", "ycsb:a"], "--options", "--config"),
        (&["growth", "--config", &config, "--bits", "5"], "--config", "--bits"),
    ];
    for (args, a, b) in cases {
        let out = lsm(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert!(err.contains("cannot be used with") && err.contains(a) && err.contains(b), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // Neither of the two: clap names both as the choice.
    for (args, a, b) in [
        (&["run", "--config", &config][..], "--workload", "--trace"),
        (&["validate"][..], "--config", "--workload"),
        (&["import"][..], "--rocksdb", "--engine"),
        (&["ycsb"][..], "--core", "--workload"),
        (&["tune", "--workload", "ycsb:a"][..], "--options", "--config"),
    ] {
        let out = lsm(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert!(err.contains("required arguments were not provided") && err.contains(&format!("<{a} ")), "{err}");
        assert!(err.contains(&format!("|{b} ")), "{args:?}: {err}");
    }
    // Growth's shape flags go with its defaults, just not with --config.
    let out = lsm(&["growth", "--size-ratio", "2", "--bits", "5", "--from", "6", "--to", "6", "--lookups", "100"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn a_flag_given_twice_keeps_its_last_value() {
    let out = lsm(&["validate", "--config", "/nonexistent/c.json", "--config", &preset("leveldb")]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "ok\n");
}

#[test]
fn bad_values_are_the_engines_errors_with_exit_code_1() {
    let dir = scratch("values");
    let trace = dir.join("t.txt");
    std::fs::write(&trace, "I 1 one\nQ 1\n").unwrap();
    let trace = trace.to_str().unwrap();
    let config = preset("leveldb");
    // The commands that take a design and YCSB-A, with the one bad flag each case adds.
    let on_ycsb_a = |command: &'static str, flags: &[&'static str]| -> Vec<&str> {
        [command, "--config", config.as_str(), "--workload", "ycsb:a"]
            .into_iter()
            .chain(flags.iter().copied())
            .collect()
    };
    for (args, want) in [
        (
            vec!["fit", "--trace", trace, "--key-bytes", "7"],
            "lsm fit: --key-bytes: must be an integer in [8, 1024], got 7",
        ),
        (
            vec!["run", "--config", &config, "--trace", trace, "--key-bytes", "-3"],
            "lsm run: --key-bytes: must be an integer in [8, 1024], got -3",
        ),
        (
            on_ycsb_a("predict", &["--operations", "2000000000"]),
            "lsm predict: --operations: must be an integer in [0, 1000000000], got 2000000000",
        ),
        (vec!["growth", "--from", "abc"], "lsm growth: --from: must be a number, got abc"),
        (vec!["growth", "--from", "30"], "lsm growth: from_log2: must be an integer in [6, 26], got 30"),
        (on_ycsb_a("tune", &["--robust", "-1"]), "lsm tune: rho: must be a number in [0, 10], got -1"),
        (on_ycsb_a("tune", &["--target", "leveldb"]), "lsm tune: target: must be engine or rocksdb"),
        (on_ycsb_a("tune", &["--memory", "lots"]), "lsm tune: --memory: must be a number, got lots"),
        (on_ycsb_a("tune", &["--memory", "1000"]), "lsm tune: memory: must be bytes in [1048576, 2^50], got 1000"),
        (
            on_ycsb_a("tune", &["--rank", "time"]),
            "lsm tune: calibration: ranking by time needs a device calibration (a file from lsm calibrate, given as --calibration",
        ),
        (
            on_ycsb_a("tune", &["--max-write-buffer-number", "0"]),
            "lsm tune: max_write_buffer_number: must be a whole number in [1, 64], got 0",
        ),
        (
            vec!["export", "--design", &config, "--format", "yaml"],
            "lsm export: format: must be one of rocksdb, rocksdb-cpp, engine, db_bench",
        ),
        (on_ycsb_a("writes", &["--checkpoint", "often"]), "lsm writes: --checkpoint: must be a number, got often"),
    ] {
        let out = lsm(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(want), "{args:?}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn completions_name_every_subcommand() {
    let out = lsm(&["completions", "bash"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let script = stdout(&out);
    assert!(script.contains("_lsm()") && script.contains("complete -F _lsm"), "{script}");
    for command in COMMANDS {
        assert!(script.contains(&format!("lsm,{command})")), "{command} in the bash script");
    }
    // Flags and their named values complete too.
    for word in ["--no-wal", "--key-bytes", "rocksdb-cpp", "db_bench"] {
        assert!(script.contains(word), "{word} in the bash script");
    }
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let out = lsm(&["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}: {}", stderr(&out));
        let script = stdout(&out);
        assert!(COMMANDS.iter().all(|c| script.contains(c)), "{shell}: {script}");
    }
    let out = lsm(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("invalid value 'tcsh'"), "{}", stderr(&out));
}

/// The `lsm` lines of docs/cli.md's `## Commands` section, as written: arguments, and what the
/// shell does with the output (`> file` or `| program`), comments dropped.
fn documented_lines() -> Vec<(Vec<String>, Option<String>)> {
    let doc = std::fs::read_to_string(CLI_DOC).unwrap();
    let section = doc.split("\n## Commands\n").nth(1).expect("docs/cli.md has the Commands section");
    let block = section.split("```sh\n").nth(1).and_then(|b| b.split("```").next()).expect("its sh block");
    block
        .lines()
        .filter_map(|line| line.strip_prefix("./target/release/lsm "))
        .map(|line| {
            let line = line.split(" #").next().unwrap_or(line);
            let (command, redirect) = match line.find(['>', '|']) {
                Some(at) => (&line[..at], Some(line[at..].trim().to_string())),
                None => (line, None),
            };
            (command.split_whitespace().map(String::from).collect(), redirect)
        })
        .collect()
}

#[test]
fn every_documented_command_line_runs_on_small_inputs() {
    let dir = scratch("documented");
    let at = |name: &str| dir.join(name.trim_end_matches('/')).to_string_lossy().into_owned();
    let small = at("W.json");
    std::fs::write(&small, SMALL_WORKLOAD).unwrap();
    let options = at("OPTIONS");
    let exported = lsm(&["export", "--design", &preset("rocksdb"), "--format", "rocksdb"]);
    assert!(exported.status.success());
    std::fs::write(&options, &exported.stdout).unwrap();
    // `lsm bench` without a workload loads 1,000,000 entries: it is given a directory that is
    // not empty, which the engine refuses once clap has read the line.
    std::fs::create_dir_all(at("bench-db")).unwrap();
    std::fs::write(dir.join("bench-db/taken"), "").unwrap();

    let lines = documented_lines();
    assert!(lines.len() >= 13, "{lines:?}");
    let commands: Vec<&str> = lines.iter().map(|(args, _)| args[0].as_str()).collect();
    for command in ["run", "export", "trace", "bench", "ycsb", "predict", "tune", "growth", "writes", "keys"] {
        assert!(commands.contains(&command), "docs/cli.md shows lsm {command}: {commands:?}");
    }
    for (args, redirect) in &lines {
        // Same flags, small inputs: files of the scratch directory, small counts and sizes.
        let mut small_args = Vec::new();
        for (i, arg) in args.iter().enumerate() {
            let flag = if i > 0 { args[i - 1].as_str() } else { "" };
            small_args.push(match flag {
                "--workload" if arg.ends_with(".json") => small.clone(),
                "--config" if arg == "C.json" => preset("leveldb"),
                "--options" => options.clone(),
                "--records" => "2000".into(),
                "--operations" => "1000".into(),
                "--to" => "13".into(),
                "--report" | "--dir" | "--out" | "--trace" | "--calibration" => at(arg),
                _ => arg.clone(),
            });
        }
        let out = Command::new(env!("CARGO_BIN_EXE_lsm")).args(&small_args).current_dir(ENGINE_DIR).output().unwrap();
        if args[0] == "bench" {
            assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
            assert!(stderr(&out).contains("lsm bench: --dir:") && stderr(&out).contains("must be empty"));
            continue;
        }
        assert!(out.status.success(), "{args:?} as {small_args:?}: {}", stderr(&out));
        assert!(!out.stdout.is_empty() || args.contains(&"--report".to_string()), "{args:?} prints");
        if let Some(file) = redirect.as_deref().and_then(|r| r.strip_prefix('>')) {
            std::fs::write(at(file.trim()), &out.stdout).unwrap();
        }
    }
    // What the lines wrote: the run's report, the trace the next line ran, the tune bundle, files.
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(at("r.json")).unwrap()).unwrap();
    assert_eq!(report["preload_operations"], 2000);
    assert!(std::fs::read_to_string(at("trace.txt")).unwrap().lines().count() >= 4000);
    assert!(Path::new(&at("tuned")).join("compare.sh").exists());
    assert!(std::fs::read_dir(at("db")).unwrap().count() > 0);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn predict_with_a_calibration_prices_the_io_in_time() {
    let dir = std::env::temp_dir().join(format!("lsm-cli-cal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cal = dir.join("cal.json");
    let doc = |read: f64| {
        format!(
            r#"{{"kind":"lsm-navigator/calibration","version":1,"device":"test","direct_reads":true,"page_bytes":4096,
            "page_read_us":{read},"page_write_us":5,"store":"lsm-engine","cpu_us":[2,3,40,4],"notes":[]}}"#
        )
    };
    std::fs::write(&cal, doc(100.0)).unwrap();
    let config = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../public/presets/leveldb.json");
    let args = ["predict", "--config", config, "--workload", "ycsb:c", "--records", "20000", "--operations", "2000"];
    let out = lsm(&[&args[..], &["--calibration", cal.to_str().unwrap()]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    // YCSB C reads only existing keys: its time is their CPU plus their pages at 100 µs.
    let io = v["class_costs"][1].as_f64().unwrap();
    let us = v["time"]["mean_us"].as_f64().unwrap();
    assert!((us - (3.0 + io * 100.0)).abs() < 1e-6, "{us} vs io {io}");
    assert!((v["time"]["ops_per_sec"].as_f64().unwrap() - 1e6 / us).abs() < 1e-6);
    // Without --calibration there is no time.
    let plain: serde_json::Value = serde_json::from_str(&stdout(&lsm(&args))).unwrap();
    assert!(plain.get("time").is_none());
    // Tuned by time on the same device: each design's µs is its CPU plus its pages' price.
    let tune = ["tune", "--config", config, "--workload", "ycsb:c", "--records", "20000", "--operations", "2000"];
    let out = lsm(&[&tune[..], &["--rank", "time", "--calibration", cal.to_str().unwrap()]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let t: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(t["rank"], "time");
    assert_eq!(t["calibration"]["page_read_us"], 100.0);
    let io = t["nominal"]["prediction"]["class_costs"][1].as_f64().unwrap();
    let us = t["nominal"]["time"]["mean_us"].as_f64().unwrap();
    assert!((us - (3.0 + io * 100.0)).abs() < 1e-6, "{us} vs io {io}");
    assert!(stderr(&out).contains("ranked by time on test"), "{}", stderr(&out));
    // A bad figure is named with its range.
    std::fs::write(&cal, doc(-1.0)).unwrap();
    let bad = lsm(&[&args[..], &["--calibration", cal.to_str().unwrap()]].concat());
    assert_eq!(bad.status.code(), Some(1));
    assert!(stderr(&bad).contains("page_read_us") && stderr(&bad).contains("[0, 1000000]"), "{}", stderr(&bad));
    std::fs::remove_dir_all(&dir).unwrap();
}

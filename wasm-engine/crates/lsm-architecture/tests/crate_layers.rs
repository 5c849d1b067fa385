//! The workspace's crates depend one way, in the layers ARCHITECTURE.md draws: documents and pure
//! policies at the bottom, the engine and the workload tools on them, the runner and the tuner
//! above, the CLI and the wasm API as leaves. Cargo forbids cycles between crates; this test
//! keeps the direction, so a crate cannot quietly reach one above it (the tuner never runs the
//! engine; the engine never reads a workload format). It reads `cargo metadata`; the checker is
//! tested on made-up workspaces below.

// Test code: a failed expectation is the test failing, with its message.
#![allow(clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

/// Each crate and the workspace crates it may depend on (normal and build dependencies).
/// A new crate must be placed here before the test passes.
const LAYERS: &[(&str, &[&str])] = &[
    ("lsm-core", &[]),
    ("lsm-engine", &["lsm-core"]),
    ("lsm-workload", &["lsm-core"]),
    ("lsm-export", &["lsm-core"]),
    ("lsm-runner", &["lsm-core", "lsm-engine", "lsm-workload"]),
    ("lsm-tune", &["lsm-core", "lsm-workload", "lsm-export"]),
    ("lsm-cli", &["lsm-core", "lsm-engine", "lsm-workload", "lsm-export", "lsm-runner", "lsm-tune"]),
    // The hot paths' micro-benchmark kernels, timed with the runner's clock.
    ("lsm-bench", &["lsm-core", "lsm-engine", "lsm-runner"]),
    ("lsm-wasm", &["lsm-core", "lsm-engine", "lsm-workload", "lsm-export", "lsm-runner", "lsm-tune", "lsm-bench"]),
    ("lsm-architecture", &[]),
    // The documents' TypeScript, rendered in its tests from the crates it dev-depends on.
    ("lsm-ts", &[]),
];

/// Crates that hold only tests: nothing depends on them, and what they test is a dev-dependency.
const TESTS_ONLY: &[&str] = &["lsm-architecture", "lsm-ts"];

/// The one crate that turns on the crates' `ts` feature (ts-rs's derives): keeping it to a
/// tests-only crate's dev-dependencies keeps ts-rs out of the CLI's and the wasm build.
const TS_FEATURE_USER: &str = "lsm-ts";

/// The crates that hold no platform code: no `target_arch = "wasm32"` anywhere in them.
const PLATFORM_FREE: &[&str] = &["lsm-core", "lsm-engine", "lsm-workload", "lsm-export", "lsm-tune"];

/// One workspace crate as `cargo metadata` describes it.
#[derive(Debug, Clone)]
struct Crate {
    name: String,
    /// Workspace crates it depends on, with the dependency kind (`normal`, `build` or `dev`).
    deps: Vec<(String, String)>,
    /// Workspace crates it depends on with the `ts` feature turned on.
    ts_deps: Vec<String>,
    /// Crate types of its library target, if it has one.
    lib_types: Vec<String>,
    src: std::path::PathBuf,
}

fn workspace() -> Vec<Crate> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/../../Cargo.toml");
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--no-deps", "--offline", "--manifest-path", manifest])
        .output()
        .expect("run cargo metadata");
    assert!(out.status.success(), "cargo metadata failed: {}", String::from_utf8_lossy(&out.stderr));
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("cargo metadata is JSON");
    let packages = meta["packages"].as_array().expect("packages");
    let names: BTreeSet<String> = packages.iter().filter_map(|p| p["name"].as_str().map(String::from)).collect();
    packages
        .iter()
        .map(|p| {
            let deps = p["dependencies"]
                .as_array()
                .expect("dependencies")
                .iter()
                .filter_map(|d| {
                    let name = d["name"].as_str()?.to_string();
                    let kind = d["kind"].as_str().unwrap_or("normal").to_string();
                    names.contains(&name).then_some((name, kind))
                })
                .collect();
            let ts_deps = p["dependencies"]
                .as_array()
                .expect("dependencies")
                .iter()
                .filter(|d| d["features"].as_array().is_some_and(|f| f.iter().any(|f| f == "ts")))
                .filter_map(|d| d["name"].as_str().map(String::from))
                .filter(|name| names.contains(name))
                .collect();
            let lib_types = p["targets"]
                .as_array()
                .expect("targets")
                .iter()
                .filter(|t| t["kind"].as_array().is_some_and(|k| k.iter().any(|k| k == "lib" || k == "cdylib")))
                .flat_map(|t| t["crate_types"].as_array().cloned().unwrap_or_default())
                .filter_map(|t| t.as_str().map(String::from))
                .collect();
            let manifest = std::path::PathBuf::from(p["manifest_path"].as_str().expect("manifest_path"));
            Crate {
                name: p["name"].as_str().expect("name").to_string(),
                deps,
                ts_deps,
                lib_types,
                src: manifest.parent().expect("crate folder").join("src"),
            }
        })
        .collect()
}

/// Every dependency that goes against the layers, as a sentence.
fn violations(crates: &[Crate], layers: &[(&str, &[&str])]) -> Vec<String> {
    let allowed: BTreeMap<&str, &[&str]> = layers.iter().copied().collect();
    // Everything a crate reaches through its normal dependencies, for the dev-dependency rule.
    let reach = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_string()];
        while let Some(c) = todo.pop() {
            for dep in allowed.get(c.as_str()).copied().unwrap_or(&[]) {
                if seen.insert(dep.to_string()) {
                    todo.push(dep.to_string());
                }
            }
        }
        seen
    };
    let mut found = Vec::new();
    for c in crates {
        let Some(ok) = allowed.get(c.name.as_str()) else {
            found.push(format!("{} is not placed in a layer (add it to LAYERS)", c.name));
            continue;
        };
        for (dep, kind) in &c.deps {
            if kind == "dev" {
                // Tests may use a crate above, as long as that crate does not depend on this one.
                if reach(dep).contains(&c.name) {
                    found.push(format!("{} has a dev-dependency on {dep}, which depends on it", c.name));
                }
            } else if !ok.contains(&dep.as_str()) {
                found.push(format!(
                    "{} depends on {dep}, which it may not ({} may use: {})",
                    c.name,
                    c.name,
                    ok.join(", ")
                ));
            }
        }
    }
    found
}

#[test]
fn crates_depend_one_way() {
    let crates = workspace();
    assert!(crates.len() >= LAYERS.len(), "found only {} crates", crates.len());
    let found = violations(&crates, LAYERS);
    assert!(found.is_empty(), "dependencies against the layers:\n  {}", found.join("\n  "));
}

#[test]
fn only_the_wasm_api_is_a_cdylib() {
    let cdylibs: Vec<String> =
        workspace().into_iter().filter(|c| c.lib_types.iter().any(|t| t == "cdylib")).map(|c| c.name).collect();
    assert_eq!(cdylibs, ["lsm-wasm"]);
}

#[test]
fn nothing_depends_on_a_tests_only_crate() {
    let crates = workspace();
    for c in &crates {
        for (dep, kind) in &c.deps {
            assert!(!TESTS_ONLY.contains(&dep.as_str()), "{} depends on the tests-only crate {dep} ({kind})", c.name);
        }
        if TESTS_ONLY.contains(&c.name.as_str()) {
            let normal: Vec<&String> = c.deps.iter().filter(|(_, k)| k != "dev").map(|(d, _)| d).collect();
            assert!(normal.is_empty(), "the tests-only crate {} has non-dev dependencies {normal:?}", c.name);
        }
    }
}

#[test]
fn only_the_typescript_tests_turn_on_ts_rs() {
    for c in workspace() {
        if c.name != TS_FEATURE_USER {
            assert!(
                c.ts_deps.is_empty(),
                "{} turns on the `ts` feature of {:?}: only {TS_FEATURE_USER} may",
                c.name,
                c.ts_deps
            );
        }
    }
}

#[test]
fn the_lower_crates_hold_no_platform_code() {
    for c in workspace().into_iter().filter(|c| PLATFORM_FREE.contains(&c.name.as_str())) {
        let mut stack = vec![c.src.clone()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).expect("read src") {
                let path = entry.expect("dir entry").path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let text = std::fs::read_to_string(&path).expect("read source");
                    assert!(!text.contains("target_arch = \"wasm32\""), "{} names the wasm target", path.display());
                }
            }
        }
    }
}

fn made_up(name: &str, deps: &[(&str, &str)]) -> Crate {
    Crate {
        name: name.into(),
        deps: deps.iter().map(|(d, k)| (d.to_string(), k.to_string())).collect(),
        ts_deps: Vec::new(),
        lib_types: vec!["lib".into()],
        src: std::path::PathBuf::new(),
    }
}

#[test]
fn a_dependency_upward_is_found() {
    let layers: &[(&str, &[&str])] = &[("core", &[]), ("engine", &["core"]), ("tune", &["core"])];
    let crates = [made_up("core", &[]), made_up("engine", &[("core", "normal"), ("tune", "normal")])];
    assert_eq!(violations(&crates, layers), ["engine depends on tune, which it may not (engine may use: core)"]);
}

#[test]
fn an_unplaced_crate_and_a_dev_dependency_cycle_are_found() {
    let layers: &[(&str, &[&str])] = &[("core", &[]), ("engine", &["core"])];
    let crates = [made_up("core", &[("engine", "dev")]), made_up("bench", &[("core", "normal")])];
    assert_eq!(
        violations(&crates, layers),
        [
            "core has a dev-dependency on engine, which depends on it",
            "bench is not placed in a layer (add it to LAYERS)"
        ]
    );
}

#[test]
fn a_dev_dependency_on_a_crate_above_is_allowed() {
    let layers: &[(&str, &[&str])] = &[("core", &[]), ("engine", &["core"]), ("tune", &["core"])];
    let crates = [made_up("tune", &[("core", "normal"), ("engine", "dev")])];
    assert!(violations(&crates, layers).is_empty());
}

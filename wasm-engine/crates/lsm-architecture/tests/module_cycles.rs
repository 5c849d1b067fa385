//! Inside each crate of the workspace, modules depend on each other one way: no two modules (files)
//! of a crate's `src/` reach each other through their `use` lines and paths (between crates, Cargo
//! itself forbids cycles, and `crate_layers.rs` keeps the direction). A cycle means neither side can be read, tested or
//! changed alone. This reads every `src/**/*.rs` file (test code left out), collects the modules it
//! names (`crate::a::b`, `super::x`, `self::x`, a child module's name at the head of a `use`), and
//! fails with the cycle spelled out. The checker itself is tested on small made-up crates below.

// Test code: a failed expectation is the test failing, with its message.
#![allow(clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// A module's path inside the crate, e.g. `["table", "builder"]`; the crate root is `[]`.
type ModPath = Vec<String>;

/// The module a source file defines: `src/lib.rs` → `[]`, `src/table/mod.rs` → `["table"]`.
fn module_of(rel: &Path) -> ModPath {
    let mut parts: Vec<String> = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
    let file = parts.pop().unwrap_or_default();
    let stem = file.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_string());
    }
    parts
}

/// The source without comments and without `#[cfg(test)]` items (test modules may use anything).
fn production_code(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    for line in src.lines() {
        let code = line.split("//").next().unwrap_or("");
        out.push_str(code);
        out.push('\n');
    }
    while let Some(at) = out.find("#[cfg(test)]") {
        let rest = &out[at..];
        // The item ends at the `;` of `mod x;` or at the brace closing its body.
        let end = match (rest.find(';'), rest.find('{')) {
            (Some(semi), Some(brace)) if semi < brace => at + semi + 1,
            (_, Some(brace)) => {
                let mut depth = 0usize;
                let mut end = out.len();
                for (i, c) in rest[brace..].char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = at + brace + i + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                end
            }
            (Some(semi), None) => at + semi + 1,
            (None, None) => out.len(),
        };
        out.replace_range(at..end, "");
    }
    out
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Every path of module-like segments after `anchor` (`crate::`, `super::`, …), with `{a, b::c}`
/// groups expanded: `crate::{x, y::z}` gives `[x]` and `[y, z]`.
fn paths_after(code: &str, anchor: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(pos) = code[from..].find(anchor) {
        let at = from + pos;
        from = at + anchor.len();
        if at > 0 && code[..at].chars().next_back().is_some_and(is_ident_char) {
            continue; // `mycrate::` or `xsuper::`
        }
        if code[..at].ends_with("::") {
            continue; // the second `super::` of `super::super::`, read with the first
        }
        expand(&code[from..], Vec::new(), &mut found);
    }
    found
}

/// Reads one path (or brace group) at the start of `s`, prefixed by `prefix`.
fn expand(s: &str, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    let s = s.trim_start();
    if let Some(body) = s.strip_prefix('{') {
        let mut depth = 0usize;
        let mut start = 0;
        for (i, c) in body.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    expand(&body[start..i], prefix.clone(), out);
                    return;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(&body[start..i], prefix.clone(), out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        return;
    }
    let mut path = prefix;
    let mut rest = s;
    loop {
        let len = rest.find(|c: char| !is_ident_char(c)).unwrap_or(rest.len());
        if len == 0 {
            break;
        }
        path.push(rest[..len].to_string());
        rest = &rest[len..];
        match rest.strip_prefix("::") {
            Some(next) if next.trim_start().starts_with('{') => {
                expand(next, path, out);
                return;
            }
            Some(next) => rest = next,
            None => break,
        }
    }
    if !path.is_empty() {
        out.push(path);
    }
}

/// The heads of `use` statements that start with a plain name (`use builder::X;`), which in the
/// 2018+ editions name a child module or an external crate.
fn relative_use_heads(code: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for stmt in code.split(';') {
        let mut stmt = stmt.trim_start();
        // `#[cfg(...)] pub use file::FileStorage;`: the attribute is not part of the path.
        while let Some(attr) = stmt.strip_prefix("#[") {
            stmt = attr.split_once(']').map_or("", |(_, rest)| rest).trim_start();
        }
        let stmt = stmt.strip_prefix("pub(crate) ").or_else(|| stmt.strip_prefix("pub ")).unwrap_or(stmt);
        if let Some(path) = stmt.strip_prefix("use ") {
            let path = path.trim_start();
            if !["crate::", "super::", "self::", "std::", "core::", "alloc::", "::"].iter().any(|p| path.starts_with(p))
            {
                expand(path, Vec::new(), &mut found);
            }
        }
    }
    found
}

/// The known module named by the longest prefix of `path`, if any.
fn resolve(path: &[String], modules: &BTreeSet<ModPath>) -> Option<ModPath> {
    (1..=path.len()).rev().map(|n| path[..n].to_vec()).find(|p| modules.contains(p))
}

/// Module → the modules it names. `files` maps each module to its source text.
fn dependency_graph(files: &BTreeMap<ModPath, String>) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
    let modules: BTreeSet<ModPath> = files.keys().cloned().collect();
    let mut graph = BTreeMap::new();
    for (module, src) in files {
        let code = production_code(src);
        let parent: ModPath = module[..module.len().saturating_sub(1)].to_vec();
        let mut named: Vec<Vec<String>> = paths_after(&code, "crate::");
        for p in paths_after(&code, "super::") {
            // Each further `super` climbs one more level: `super::super::x` from `a::b` is `x`.
            let climbs = p.iter().take_while(|s| *s == "super").count();
            let base = &parent[..parent.len().saturating_sub(climbs)];
            named.push(base.iter().cloned().chain(p.into_iter().skip(climbs)).collect());
        }
        for p in paths_after(&code, "self::").into_iter().chain(relative_use_heads(&code)) {
            named.push(module.iter().cloned().chain(p).collect());
        }
        let deps: BTreeSet<ModPath> =
            named.iter().filter_map(|p| resolve(p, &modules)).filter(|m| m != module && !m.is_empty()).collect();
        graph.insert(module.clone(), deps);
    }
    graph
}

/// Strongly connected components with more than one module (Tarjan), each sorted.
fn cycles(graph: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Vec<Vec<ModPath>> {
    struct State<'a> {
        graph: &'a BTreeMap<ModPath, BTreeSet<ModPath>>,
        index: BTreeMap<&'a ModPath, usize>,
        low: BTreeMap<&'a ModPath, usize>,
        stack: Vec<&'a ModPath>,
        on_stack: BTreeSet<&'a ModPath>,
        out: Vec<Vec<ModPath>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a ModPath) {
        let i = s.index.len();
        s.index.insert(v, i);
        s.low.insert(v, i);
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in s.graph.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(lw);
            } else if s.on_stack.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.push(w.clone());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.out.push(component);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("read src/") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn describe(component: &[ModPath], graph: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> String {
    let name = |m: &ModPath| format!("crate::{}", m.join("::"));
    let members: BTreeSet<&ModPath> = component.iter().collect();
    let mut lines = Vec::new();
    for m in component {
        let inside: Vec<String> = graph[m].iter().filter(|d| members.contains(d)).map(name).collect();
        lines.push(format!("  {} uses {}", name(m), inside.join(", ")));
    }
    lines.join("\n")
}

/// Every crate of the workspace: its name and its `src/` folder.
fn workspace_crates() -> Vec<(String, PathBuf)> {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found: Vec<(String, PathBuf)> = fs::read_dir(&crates)
        .expect("read crates/")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.join("Cargo.toml").is_file())
        .map(|p| (p.file_name().expect("crate folder").to_string_lossy().into_owned(), p.join("src")))
        .collect();
    found.sort();
    found
}

#[test]
fn no_crate_has_an_import_cycle_between_its_modules() {
    let mut modules = 0;
    let mut edges = 0;
    let mut report = Vec::new();
    for (name, src) in workspace_crates() {
        let mut paths = Vec::new();
        rust_files(&src, &mut paths);
        let files: BTreeMap<ModPath, String> = paths
            .iter()
            .filter_map(|p| {
                let rel = p.strip_prefix(&src).expect("under src");
                // Files under a `tests` folder are test code.
                let skip = rel.iter().any(|s| s == "tests");
                (!skip).then(|| (module_of(rel), fs::read_to_string(p).expect("read source")))
            })
            .collect();
        modules += files.len();
        let graph = dependency_graph(&files);
        edges += graph.values().map(BTreeSet::len).sum::<usize>();
        for c in cycles(&graph) {
            report.push(format!("{name}:\n{}", describe(&c, &graph)));
        }
    }
    assert!(modules > 50, "found only {modules} modules in the workspace's crates");
    assert!(edges > 80, "found only {edges} dependencies: is the reader broken?");
    assert!(report.is_empty(), "import cycles between modules:\n{}", report.join("\n\n"));
}

fn made_up_crate(files: &[(&str, &str)]) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
    let files: BTreeMap<ModPath, String> =
        files.iter().map(|(path, src)| (module_of(Path::new(path)), src.to_string())).collect();
    dependency_graph(&files)
}

fn m(path: &str) -> ModPath {
    path.split("::").filter(|s| !s.is_empty()).map(String::from).collect()
}

#[test]
fn a_deliberate_cycle_is_found() {
    let graph = made_up_crate(&[
        ("lib.rs", "pub mod engine; pub mod maintenance; pub mod error;"),
        ("engine.rs", "use crate::maintenance::Job;\nuse crate::error::Result;"),
        ("maintenance.rs", "use crate::{error::Error, engine::{Engine, encode_hex}};"),
        ("error.rs", "pub enum Error {}"),
    ]);
    assert_eq!(cycles(&graph), vec![vec![m("engine"), m("maintenance")]]);
}

#[test]
fn a_cycle_through_three_modules_and_super_paths_is_found() {
    let graph = made_up_crate(&[
        ("lib.rs", "pub mod a; pub mod table;"),
        ("a.rs", "fn f() { crate::table::builder::build(); }"),
        (
            "table/mod.rs",
            "mod builder; #[cfg(not(target_arch = \"wasm32\"))]\npub use builder::TableBuilder; pub struct Fences;",
        ),
        ("table/builder.rs", "use super::Fences; fn g() -> crate::a::X { todo!() }"),
    ]);
    let found = cycles(&graph);
    assert_eq!(found, vec![vec![m("a"), m("table"), m("table::builder")]]);
}

#[test]
fn super_super_paths_climb_two_levels() {
    let graph = made_up_crate(&[
        ("lib.rs", "pub mod predict; pub mod writes;"),
        ("writes.rs", "pub struct WriteSequence;"),
        ("predict.rs", "mod files; use files::File;"),
        ("predict/files.rs", "use super::super::writes::WriteSequence; pub struct File;"),
    ]);
    assert_eq!(graph[&m("predict::files")], BTreeSet::from([m("writes")]));
    assert!(cycles(&graph).is_empty());
}

#[test]
fn one_way_modules_tests_and_comments_are_not_cycles() {
    let graph = made_up_crate(&[
        ("lib.rs", "pub mod cache; pub mod table;"),
        (
            "cache.rs",
            "// crate::table::Table is what caches blocks\npub struct BlockCache;\n#[cfg(test)]\nmod tests {\n    use crate::table::Table;\n    fn t() { {} }\n}\n",
        ),
        (
            "table/mod.rs",
            "use crate::cache::BlockCache;\n/// Unlike crate::cache, this knows files.\npub struct Table;",
        ),
    ]);
    assert_eq!(graph[&m("table")], BTreeSet::from([m("cache")]));
    assert!(graph[&m("cache")].is_empty(), "{:?}", graph[&m("cache")]);
    assert!(cycles(&graph).is_empty());
}

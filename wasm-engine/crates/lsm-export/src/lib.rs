//! Export a design (EngineConfig) for native use and import one back.
//!
//! Formats: the engine's own canonical JSON (`lsm run --config` reads it unchanged), a RocksDB
//! OPTIONS file, a C++ `FilterPolicy` for what the OPTIONS file cannot say (bits per key by
//! level), and db_bench commands that replay a Workload against the exported options. Everything
//! a target cannot express is listed, both as `# LOSSY` comments in the file and as structured
//! warnings the UI shows next to the export button.
//!
//! The browser (`lsm-wasm`) and the CLI call the same `export`/`import`, so both produce byte-identical
//! files from the same documents.

mod db_bench;
pub mod engine;
pub mod import;
mod ini;
mod mapping;
mod patch;
mod rocksdb;
mod rocksdb_cpp;
pub mod rocksdb_log;

#[cfg(test)]
mod tests;

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

/// What RocksDB cannot do of re-optimised Monkey, said by every RocksDB export.
pub const REOPTIMISED_NOT_EXPRESSIBLE: &str = "re-optimised Monkey rebuilds filters as runs come and go; RocksDB writes \
     each file's filter once, with the file, and never resizes it: the export gives the per-level bits Monkey's model \
     assigns, which is what sizing at birth approximates";

use lsm_core::config::EngineConfig;
use lsm_core::error::{Error, Result};
pub use lsm_core::warning::{Warning, WarningKind};
use lsm_core::workload::Workload;
pub use patch::{OptionEdit, with_options};
pub use rocksdb::{OptionsSection, RocksdbOptions};

/// A target `export` writes. Parsed from its `name` (`db-bench` is accepted for `db_bench`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// RocksDB OPTIONS file (INI), as `LoadOptionsFromFile` reads it (RocksDB 7.x or later).
    Rocksdb,
    /// C++ `FilterPolicy` giving each RocksDB level its own bits per key.
    RocksdbCpp,
    /// The engine's EngineConfig JSON in canonical form.
    Engine,
    /// A shell script of db_bench commands replaying a Workload (needs the workload).
    DbBench,
}

impl Format {
    /// Every format, for choosers and for tests that export each.
    pub const ALL: [Format; 4] = [Format::Rocksdb, Format::RocksdbCpp, Format::Engine, Format::DbBench];

    /// The name the CLI and the wasm API give it (`rocksdb`, `rocksdb-cpp`, `engine`,
    /// `db_bench`); `from_str` reads it back.
    pub fn name(self) -> &'static str {
        match self {
            Format::Rocksdb => "rocksdb",
            Format::RocksdbCpp => "rocksdb-cpp",
            Format::Engine => "engine",
            Format::DbBench => "db_bench",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = Error;

    fn from_str(s: &str) -> Result<Format> {
        match s {
            "rocksdb" => Ok(Format::Rocksdb),
            "rocksdb-cpp" => Ok(Format::RocksdbCpp),
            "engine" => Ok(Format::Engine),
            "db_bench" | "db-bench" => Ok(Format::DbBench),
            other => Err(Error::invalid(
                "format",
                format!("must be one of rocksdb, rocksdb-cpp, engine, db_bench; got \"{other}\""),
            )),
        }
    }
}

/// An exported file and what it could not say.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Export {
    /// The file, byte-identical from the CLI and the browser; each warning is also a `LOSSY`
    /// comment in it.
    pub text: String,
    /// Every setting the format could not express exactly, for the UI to list beside the
    /// export; always empty for `engine`.
    pub warnings: Vec<Warning>,
}

/// Export a design. The config (and the workload, when given) is validated first, so a bad
/// document gets an error naming the field. The workload is required by `db_bench`; the RocksDB
/// formats use it, when given, to convert entry bytes to RocksDB's byte counts and to size the
/// tree, and ignore it otherwise.
pub fn export(config: &EngineConfig, format: Format, workload: Option<&Workload>) -> Result<Export> {
    config.validate()?;
    if let Some(w) = workload {
        w.validate()?;
    }
    match format {
        Format::Engine => Ok(Export { text: engine::canonical_json(config), warnings: Vec::new() }),
        Format::Rocksdb => Ok(rocksdb::options_file(config, workload)),
        Format::RocksdbCpp => Ok(rocksdb_cpp::filter_policy(config, workload)),
        Format::DbBench => match workload {
            Some(w) => Ok(db_bench::script(config, w)),
            None => Err(Error::invalid("workload", "the db_bench format needs a workload")),
        },
    }
}

/// The RocksDB OPTIONS file `export` writes for `config`, as sections and warnings: what a caller
/// compares designs on (the tuner's option diff) without parsing text back. Validated as `export` is.
pub fn rocksdb_options(config: &EngineConfig, workload: Option<&Workload>) -> Result<RocksdbOptions> {
    config.validate()?;
    if let Some(w) = workload {
        w.validate()?;
    }
    Ok(rocksdb::options(config, workload))
}

/// What `import` reads; parsed from `rocksdb` or `engine`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImportKind {
    /// A RocksDB OPTIONS file.
    Rocksdb,
    /// EngineConfig JSON, possibly with fields this version does not know.
    Engine,
}

impl FromStr for ImportKind {
    type Err = Error;

    fn from_str(s: &str) -> Result<ImportKind> {
        match s {
            "rocksdb" => Ok(ImportKind::Rocksdb),
            "engine" => Ok(ImportKind::Engine),
            other => Err(Error::invalid("kind", format!("must be rocksdb or engine; got \"{other}\""))),
        }
    }
}

/// An imported design, the keys that were not used (by name, never dropped silently) and
/// what was approximated on the way in.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Import {
    /// The design, validated.
    pub config: EngineConfig,
    /// Settings that were not used, by name: `Section.option` for RocksDB (`CFOptions.ttl`), the
    /// field path for engine JSON (`filter.foo`).
    pub unknown_keys: Vec<String>,
    /// What was rounded or approximated on the way in, by EngineConfig field (empty for
    /// `engine`).
    pub warnings: Vec<Warning>,
    /// RocksDB's `max_write_buffer_number` as the OPTIONS file sets it: no part of the design,
    /// but the memtables RocksDB will keep, which the tuner charges to memory. None for engine
    /// JSON, or when the file leaves RocksDB's default (2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub write_buffers: Option<u32>,
}

/// Reads a design in `kind`'s format: `Error::Parse` when the text is not in that format,
/// `Error::Invalid` when the design it describes is out of range.
pub fn import(text: &str, kind: ImportKind) -> Result<Import> {
    match kind {
        ImportKind::Rocksdb => import::from_rocksdb(text),
        ImportKind::Engine => engine::import_json(text),
    }
}

/// Shortest decimal for a number in an exported file: integers without a fraction, others with
/// at most `decimals` digits after the point.
pub(crate) fn number(x: f64, decimals: usize) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        return format!("{}", x as i64);
    }
    let s = format!("{x:.decimals$}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".to_string() } else { s.to_string() }
}

/// A design name made safe for a one-line comment.
pub(crate) fn one_line(s: &str) -> String {
    s.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

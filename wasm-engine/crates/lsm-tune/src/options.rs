//! The tuner's inputs besides the design and the workload (`TuneOptions`), and what the
//! recommendation must run on (`Target`).

use std::str::FromStr;

use lsm_core::calibration::Calibration;
use lsm_core::error::{Error, Result};
use serde::{Deserialize, Deserializer, Serialize};

use crate::predict::{Device, Process};
use crate::rank::Rank;
use crate::rocksdb::memory::DEFAULT_WRITE_BUFFERS;
use crate::rocksdb::per_level::Plugin;

/// Allowed ρ (Endure's KL-divergence radius, nats), inclusive; `tune` rejects any other.
pub const RHO_RANGE: (f64, f64) = (0.0, 10.0);

/// What the recommendation must run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Target {
    /// The engine: any policy, size ratio and filter allocation, merges by level.
    Engine,
    /// RocksDB: its leveled shape with merges by file and uniform Bloom filters.
    Rocksdb,
}

impl FromStr for Target {
    type Err = Error;
    fn from_str(s: &str) -> Result<Target> {
        match s {
            "engine" => Ok(Target::Engine),
            "rocksdb" => Ok(Target::Rocksdb),
            other => Err(Error::invalid("target", format!("must be engine or rocksdb, got \"{other}\""))),
        }
    }
}

/// A field read by its type's `FromStr`, so a bad value's error names the field and what it may be
/// (as the CLI's flags say it), not serde's variant list.
fn parsed<'de, D: Deserializer<'de>, T: FromStr<Err = Error>>(d: D) -> std::result::Result<T, D::Error> {
    let s = String::deserialize(d)?;
    s.parse().map_err(serde::de::Error::custom)
}

/// `parsed` for an optional field (`null` is None).
fn parsed_option<'de, D: Deserializer<'de>, T: FromStr<Err = Error>>(d: D) -> std::result::Result<Option<T>, D::Error> {
    Option::<String>::deserialize(d)?.map(|s| s.parse().map_err(serde::de::Error::custom)).transpose()
}

fn default_write_buffers() -> u32 {
    DEFAULT_WRITE_BUFFERS
}

/// The tuner's inputs besides the design and the workload: a document (JSON) that the CLI's
/// flags, the wasm API and the Tune page all build, read by one validating `from_json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct TuneOptions {
    /// Endure's ρ, in [0, 10] (`RHO_RANGE`).
    pub rho: f64,
    /// What the recommendation must run on: "engine" or "rocksdb".
    #[serde(deserialize_with = "parsed")]
    pub target: Target,
    /// The memory every design must fit, in bytes (RocksDB: memtables + block cache + index and
    /// filter blocks held outside it; the engine: buffer + filters). None: what the current design
    /// uses. In [1 MiB, 2⁵⁰].
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub memory: Option<f64>,
    /// RocksDB's `max_write_buffer_number` (memtables charged per write buffer); in [1, 64],
    /// default 2.
    #[serde(default = "default_write_buffers")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub write_buffers: u32,
    /// What the designs are ranked by: "io" (the default: I/O per operation) or "time".
    #[serde(default, deserialize_with = "parsed")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub rank: Rank,
    /// The device to rank on when `rank` is time (`lsm calibrate`, the Tune page's Calibrate).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub calibration: Option<Calibration>,
    /// A plugin the user accepts building in (RocksDB target): per-level filter bits through the
    /// shipped C++ policy ("per-level-filters"). None (the default): only what an OPTIONS file
    /// can say.
    #[serde(default, deserialize_with = "parsed_option")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub plugin: Option<Plugin>,
    /// How RocksDB is run between the load and the run (`restart`, as the referee and YCSB's and
    /// db_bench's runs do; or `continue`, the default), and the run's client threads: what a
    /// RocksDB-shaped design's run is priced under (`predict::process`). The default stays the
    /// lab's pricing until the restart model's search is checked: under `restart` the search with
    /// the per-level filter plugin no longer finds the per-level design that `continue` finds
    /// (44.4% against 22.9% on tune-budget's case), which is not understood yet.
    #[serde(default = "continue_process")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub process: Process,
}

/// Allowed `TuneOptions::memory`, inclusive.
pub const MEMORY_RANGE: (f64, f64) = (1_048_576.0, 1_125_899_906_842_624.0);

impl TuneOptions {
    /// The device the process model times operations on: the calibration's, else the
    /// referee's machine's (`predict::Device::default`).
    pub fn device(&self) -> Device {
        self.calibration
            .as_ref()
            .map_or_else(Device::default, |c| Device { block_read_us: c.page_read_us, cpu_us: c.cpu_us[1] })
    }

    /// ρ and the target; the current design's memory and RocksDB's 2 write buffers.
    pub fn new(rho: f64, target: Target) -> TuneOptions {
        TuneOptions {
            rho,
            target,
            memory: None,
            write_buffers: DEFAULT_WRITE_BUFFERS,
            rank: Rank::Io,
            calibration: None,
            plugin: None,
            process: Process::CONTINUE,
        }
    }

    /// The options document (JSON), validated: an unknown field, a value of the wrong type or one
    /// out of its range is an error naming the field.
    pub fn from_json(text: &str) -> Result<TuneOptions> {
        let options: TuneOptions = serde_json::from_str(text)
            .map_err(|e| Error::Parse { document: "TuneOptions".into(), message: e.to_string() })?;
        options.validate()?;
        Ok(options)
    }

    /// Every field in its range; ranking by time has a calibration to rank on.
    pub fn validate(&self) -> Result<()> {
        if !(RHO_RANGE.0..=RHO_RANGE.1).contains(&self.rho) {
            return Err(Error::invalid(
                "rho",
                format!("must be a number in [{}, {}], got {}", RHO_RANGE.0, RHO_RANGE.1, self.rho),
            ));
        }
        if let Some(m) = self.memory
            && !(MEMORY_RANGE.0..=MEMORY_RANGE.1).contains(&m)
        {
            return Err(Error::invalid("memory", format!("must be bytes in [1048576, 2^50], got {m}")));
        }
        if !(1..=64).contains(&self.write_buffers) {
            return Err(Error::invalid(
                "max_write_buffer_number",
                format!("must be a whole number in [1, 64], got {}", self.write_buffers),
            ));
        }
        self.process.validate()?;
        match (&self.calibration, self.rank) {
            (None, Rank::Time) => Err(Error::invalid(
                "calibration",
                "ranking by time needs a device calibration (a file from lsm calibrate, given as --calibration; or the Tune page's Calibrate)",
            )),
            (Some(c), _) => c.validate(),
            (None, Rank::Io) => Ok(()),
        }
    }
}

/// `TuneOptions::process` when a document does not say: the lab's process (see the field).
fn continue_process() -> Process {
    Process::CONTINUE
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_options_document_reads_what_the_page_sends_and_names_a_bad_field() {
        let o = TuneOptions::from_json(
            r#"{"rho": 0.5, "target": "rocksdb", "memory": null, "rank": "io", "plugin": "per-level-filters"}"#,
        )
        .expect("reads");
        assert_eq!(o.rho, 0.5);
        assert_eq!(o.target, Target::Rocksdb);
        assert_eq!(o.write_buffers, DEFAULT_WRITE_BUFFERS);
        assert_eq!(o.plugin, Some(Plugin::PerLevelFilters));
        // The document round-trips.
        assert_eq!(TuneOptions::from_json(&serde_json::to_string(&o).expect("json")).expect("reads"), o);
        let err = |text: &str| TuneOptions::from_json(text).unwrap_err().to_string();
        assert!(
            err(r#"{"rho": 0, "target": "leveldb"}"#).contains("target: must be engine or rocksdb"),
            "{}",
            err(r#"{"rho": 0, "target": "leveldb"}"#)
        );
        assert!(err(r#"{"rho": 0, "target": "engine", "colour": 1}"#).contains("unknown field `colour`"));
        assert!(err(r#"{"rho": 11, "target": "engine"}"#).starts_with("rho: must be a number in [0, 10]"));
        assert!(err(r#"{"rho": 0, "target": "engine", "write_buffers": 0}"#).starts_with("max_write_buffer_number"));
        assert!(
            err(r#"{"rho": 0, "target": "engine", "rank": "time"}"#).starts_with("calibration: ranking by time needs")
        );
        assert!(err(r#"{"rho": 0, "target": "engine", "memory": 10}"#).starts_with("memory: must be bytes in"));
    }
}

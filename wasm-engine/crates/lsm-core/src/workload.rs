//! Workload: the document that says what to run — preload, operation count and mix, key
//! distribution, key/value sizes, seed. Generated inside the engine (`generator`), so a wasm run
//! and a native run of the same document execute exactly the same operations.

use serde::{Deserialize, Serialize};

pub use crate::db_bench::DbBenchPlay;
use crate::error::{Error, Result};
use crate::range::{check_integer, check_range};
pub use crate::ycsb::YcsbPlay;

/// The `kind` every Workload document carries, so an EngineConfig or report passed by mistake
/// is rejected by name.
pub const WORKLOAD_KIND: &str = "lsm-navigator/workload";
/// The Workload `version` this build reads and writes; validation rejects any other.
pub const WORKLOAD_VERSION: u32 = 1;

/// What to run: a preload of distinct keys, then `operations` drawn from `mix` on keys picked
/// by `distribution`. One document and seed give the same operations on every target.
/// `from_json` parses and validates.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct Workload {
    /// Document type; must be `WORKLOAD_KIND` ("lsm-navigator/workload").
    #[cfg_attr(feature = "ts", ts(type = "\"lsm-navigator/workload\""))]
    pub kind: String,
    /// Schema version; must be `WORKLOAD_VERSION` (1).
    #[cfg_attr(feature = "ts", ts(type = "1"))]
    pub version: u32,
    /// Label for people (presets, exports); optional, not validated.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub name: String,
    /// Seeds the generator's random choices and the order keys are inserted in; any value.
    pub seed: u64,
    /// The keys written before the run, and the key and value sizes of every write.
    pub preload: Preload,
    /// Operations of the measured run, after the preload; in [0, 1000000000].
    pub operations: u64,
    /// What each run operation is; must sum to 1 unless `operations` is 0.
    pub mix: Mix,
    /// Which keys the run's updates, deletes and lookups pick.
    pub distribution: Distribution,
    /// Fraction of the key space one range lookup covers; in [0, 1], and above 0 when `mix.range`
    /// is. Default 0.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub range_selectivity: f64,
    /// Play the workload as YCSB's CoreWorkload and one of its clients do (key names, rows,
    /// choosers, read-modify-write updates, scans of a drawn length); absent: the engine's own
    /// generator (binary keys, `range_selectivity` ranges).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub ycsb: Option<YcsbPlay>,
    /// Play the workload as db_bench does (`lsm_core::db_bench`): its key format, its fill with
    /// repeats, and one benchmark — mixgraph's key-range hotness, power-law keys and Pareto
    /// sizes, or readrandomwriterandom, updaterandom, seekrandom, readrandom. With it,
    /// `distribution` and `range_selectivity` are only the plain approximation the importer
    /// fitted (`DbBenchPlay::engine_view`); the generator draws as db_bench.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub db_bench: Option<DbBenchPlay>,
}

/// The keys inserted before the measured run (JSON `preload`); its sizes apply to the run's
/// writes too.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct Preload {
    /// Distinct keys inserted before the run; in [0, 1000000000].
    pub entries: u64,
    /// Number of possible keys (ids); 0 picks one: four times the keys the workload can insert,
    /// at least 1024. Otherwise it must exceed `entries`: lookups of missing keys draw from the
    /// ids never inserted.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub key_space: u64,
    /// Length of every key, bytes; in [8, 1024].
    pub key_bytes: u32,
    /// Length of every value written (preload and run), bytes; in [0, 60000].
    pub value_bytes: u32,
}

/// Operation mix of the run; fractions that sum to 1.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct Mix {
    /// Writes of keys not yet inserted; once every id of the key space is used they become
    /// updates. In [0, 1], like every fraction here.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub insert: f64,
    /// Overwrites of existing keys picked by `distribution` (an insert while no key exists yet).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub update: f64,
    /// Deletes (tombstones) of existing keys picked by `distribution` (an insert while no key
    /// exists yet).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub delete: f64,
    /// Point lookups of keys that exist (non-zero-result, unless the key was deleted).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub get_existing: f64,
    /// Point lookups of keys never inserted (zero-result).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub get_missing: f64,
    /// Range lookups over `range_selectivity` of the key space, placed uniformly (with `ycsb`:
    /// scans of a drawn number of records from a drawn key).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub range: f64,
    /// A lookup of an existing key then a write of that key: two engine operations on one key
    /// (YCSB's `readmodifywriteproportion`).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub read_modify_write: f64,
}

impl Mix {
    /// The seven fractions with their JSON names, in the order the generator draws them.
    pub fn parts(&self) -> [(&'static str, f64); 7] {
        [
            ("insert", self.insert),
            ("update", self.update),
            ("delete", self.delete),
            ("get_existing", self.get_existing),
            ("get_missing", self.get_missing),
            ("range", self.range),
            ("read_modify_write", self.read_modify_write),
        ]
    }
}

/// Which existing keys updates, deletes and lookups pick. JSON: an object tagged by `kind`,
/// e.g. `{"kind": "zipf", "theta": 0.99}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Distribution {
    /// Every candidate key equally likely.
    Uniform,
    /// Zipf(θ) over keys in insertion order (the first keys are the hottest).
    Zipf {
        /// Skew θ; in [0, 5] (0 is uniform, YCSB uses 0.99).
        theta: f64,
    },
    /// Zipf(θ) over keys in reverse insertion order: recently inserted keys are hottest (YCSB "latest").
    Latest {
        /// Skew θ; in [0, 5] (below 1 with `ycsb`, whose Gray sampler needs it).
        theta: f64,
    },
    /// YCSB's "zipfian": Zipf(θ) ranks over 10¹⁰ + 1 items by Gray's formula, each FNV-hashed
    /// onto the keys, so popularity does not follow insertion order (`lsm_core::ycsb`).
    ScrambledZipf {
        /// Skew θ; in (0, 1) (YCSB's ζ is precomputed for 0.99 only; others are summed).
        theta: f64,
    },
    /// YCSB's "exponential": the newest keys hottest, `percentile`% of the picks among the newest
    /// `fraction` of the loaded records.
    Exponential {
        /// `exponential.percentile`; in (0, 100), YCSB's default 95.
        percentile: f64,
        /// `exponential.frac`; in (0, 1], YCSB's default 0.8571428571.
        fraction: f64,
    },
    /// A contiguous range of `hot_fraction` of the key space receives `hot_probability` of the
    /// accesses, for existing and missing keys alike (YCSB's hotspot): skew by key range, which
    /// is what makes some files hotter than others.
    Hotspot {
        /// Share of the key space in the hot range; in (0, 1), bounds excluded.
        hot_fraction: f64,
        /// Share of accesses that go to the hot range; in [0, 1].
        hot_probability: f64,
    },
}

/// Allowed `preload.key_bytes`, inclusive.
pub const KEY_BYTES_RANGE: (u32, u32) = (8, 1024);
/// Allowed `preload.value_bytes`, inclusive.
pub const VALUE_BYTES_RANGE: (u32, u32) = (0, 60_000);
/// Most `operations`, and most `preload.entries`, a workload may ask for.
pub const MAX_OPERATIONS: u64 = 1_000_000_000;
/// Allowed θ of `zipf` and `latest`, inclusive.
pub const THETA_RANGE: (f64, f64) = (0.0, 5.0);

impl Workload {
    /// Parses and validates a document: `Error::Parse` for malformed JSON, wrong types or unknown
    /// fields, `Error::Invalid` for the first field out of range.
    pub fn from_json(text: &str) -> Result<Self> {
        crate::document::from_json("Workload", text, Self::validate)
    }

    /// Pretty-printed JSON that `from_json` reads back to an equal value.
    pub fn to_json(&self) -> String {
        crate::document::to_json(self)
    }

    /// Most keys the workload can insert (preload plus every run operation being an insert).
    pub fn max_inserts(&self) -> u64 {
        let run = if self.mix.insert > 0.0 { self.operations } else { 0 };
        self.preload.entries.saturating_add(run)
    }

    /// Number of possible key ids: `preload.key_space`, or when that is 0, four times
    /// `max_inserts` and at least 1024.
    pub fn key_space(&self) -> u64 {
        if self.preload.key_space > 0 { self.preload.key_space } else { self.max_inserts().saturating_mul(4).max(1024) }
    }

    /// Engine operations per client operation, and the mix of engine operations: a
    /// read-modify-write is a lookup and a write, and a `ycsb` client that reads before it
    /// updates adds a lookup to every update and read-modify-write.
    pub fn engine_mix(&self) -> (f64, Mix) {
        let m = &self.mix;
        let read_first = match &self.ycsb {
            Some(play) if play.updates == crate::ycsb::YcsbUpdates::ReadModifyWrite => 1.0,
            _ => 0.0,
        };
        let extra_reads = m.update * read_first + m.read_modify_write * (1.0 + read_first);
        let per_op = 1.0 + extra_reads;
        let engine = Mix {
            insert: m.insert / per_op,
            update: (m.update + m.read_modify_write) / per_op,
            delete: m.delete / per_op,
            get_existing: (m.get_existing + extra_reads) / per_op,
            get_missing: m.get_missing / per_op,
            range: m.range / per_op,
            read_modify_write: 0.0,
        };
        (per_op, engine)
    }

    /// The workload as the engine sees it: engine operations and their mix (`engine_mix`), for
    /// models that price engine operations (the predictor); keys, sizes and skew unchanged.
    pub fn engine_view(&self) -> Workload {
        if let Some(play) = &self.db_bench {
            return play.engine_view(self);
        }
        let (per_op, mix) = self.engine_mix();
        if per_op == 1.0 && self.mix.read_modify_write == 0.0 {
            return self.clone();
        }
        let mut w = self.clone();
        w.operations = (self.operations as f64 * per_op).round() as u64;
        w.mix = mix;
        w
    }

    /// Checks every field's range and that the mix sums to 1; the first failure is an
    /// `Error::Invalid` naming the field (`preload.key_bytes`) and the allowed range.
    pub fn validate(&self) -> Result<()> {
        if self.kind != WORKLOAD_KIND {
            return Err(Error::invalid("kind", format!("must be \"{WORKLOAD_KIND}\", got \"{}\"", self.kind)));
        }
        if self.version != WORKLOAD_VERSION {
            return Err(Error::invalid("version", format!("must be {WORKLOAD_VERSION}, got {}", self.version)));
        }
        if let Some(play) = &self.db_bench {
            // First, so a bad flag is named before the mix it would have given.
            if self.ycsb.is_some() {
                return Err(Error::invalid(
                    "db_bench",
                    "must be absent with ycsb: one client plays a workload".to_string(),
                ));
            }
            play.validate(self)?;
        }
        let p = &self.preload;
        check_integer("preload.key_bytes", p.key_bytes, KEY_BYTES_RANGE, "")?;
        check_integer("preload.value_bytes", p.value_bytes, VALUE_BYTES_RANGE, "")?;
        check_integer("preload.entries", p.entries, (0, MAX_OPERATIONS), "")?;
        if p.key_space != 0 && p.key_space <= p.entries {
            return Err(Error::invalid(
                "preload.key_space",
                format!(
                    "must be 0 (automatic) or larger than preload.entries ({}), got {}; missing keys come from the rest",
                    p.entries, p.key_space
                ),
            ));
        }
        check_integer("operations", self.operations, (0, MAX_OPERATIONS), "")?;
        let mut sum = 0.0;
        for (name, v) in self.mix.parts() {
            check_range(&format!("mix.{name}"), v, 0.0, 1.0)?;
            sum += v;
        }
        if self.operations > 0 && (sum - 1.0).abs() > 1e-9 {
            return Err(Error::invalid(
                "mix",
                format!(
                    "insert + update + delete + get_existing + get_missing + range + read_modify_write must sum to 1, got {sum}"
                ),
            ));
        }
        // A read-modify-write (and a client's update that reads first) is a Get and a Put to the
        // engine: the engine's operations, not the client's, are what MAX_OPERATIONS bounds.
        let (per_op, _) = self.engine_mix();
        if per_op > 1.0 && self.operations as f64 * per_op > MAX_OPERATIONS as f64 {
            let most = (MAX_OPERATIONS as f64 / per_op).floor() as u64;
            return Err(Error::invalid(
                "operations",
                format!(
                    "must be an integer in [0, {most}] for this mix: each operation is {per_op} engine operations \
                     (a read-modify-write is a Get and a Put), and the engine plays at most {MAX_OPERATIONS}; got {}",
                    self.operations
                ),
            ));
        }
        match self.distribution {
            Distribution::Uniform => {}
            Distribution::Zipf { theta } | Distribution::Latest { theta } => {
                let (lo, hi) = THETA_RANGE;
                check_range("distribution.theta", theta, lo, hi)?;
            }
            Distribution::ScrambledZipf { theta } => {
                if !(theta > 0.0 && theta < 1.0) {
                    return Err(Error::invalid(
                        "distribution.theta",
                        format!("must be a number in (0, 1) for scrambled_zipf (Gray's sampler), got {theta}"),
                    ));
                }
            }
            Distribution::Exponential { percentile, fraction } => {
                if !(percentile > 0.0 && percentile < 100.0) {
                    return Err(Error::invalid(
                        "distribution.percentile",
                        format!("must be a number in (0, 100), got {percentile}"),
                    ));
                }
                if !(fraction > 0.0 && fraction <= 1.0) {
                    return Err(Error::invalid(
                        "distribution.fraction",
                        format!("must be a number in (0, 1], got {fraction}"),
                    ));
                }
            }
            Distribution::Hotspot { hot_fraction, hot_probability } => {
                if !(hot_fraction > 0.0 && hot_fraction < 1.0) {
                    return Err(Error::invalid(
                        "distribution.hot_fraction",
                        format!("must be a number in (0, 1), got {hot_fraction}"),
                    ));
                }
                check_range("distribution.hot_probability", hot_probability, 0.0, 1.0)?;
            }
        }
        check_range("range_selectivity", self.range_selectivity, 0.0, 1.0)?;
        if let Some(play) = &self.ycsb {
            return self.validate_ycsb(play);
        }
        if self.db_bench.is_some() {
            return Ok(());
        }
        if self.mix.range > 0.0 && self.range_selectivity <= 0.0 {
            return Err(Error::invalid(
                "range_selectivity",
                "must be in (0, 1] when the mix has range lookups, got 0".to_string(),
            ));
        }
        Ok(())
    }

    /// What `ycsb` adds: its own fields, no operations CoreWorkload lacks, Gray-compatible skew,
    /// and the sizes the predictor prices matching the rows the client writes.
    fn validate_ycsb(&self, play: &YcsbPlay) -> Result<()> {
        play.validate(VALUE_BYTES_RANGE.1)?;
        for (field, share) in [("mix.delete", self.mix.delete), ("mix.get_missing", self.mix.get_missing)] {
            if share > 0.0 {
                return Err(Error::invalid(
                    field,
                    format!("must be 0 with ycsb: YCSB's CoreWorkload has no such operation, got {share}"),
                ));
            }
        }
        if let Distribution::Latest { theta } = self.distribution
            && !(theta > 0.0 && theta < 1.0)
        {
            return Err(Error::invalid(
                "distribution.theta",
                format!("must be a number in (0, 1) with ycsb (YCSB's latest uses Gray's sampler), got {theta}"),
            ));
        }
        if self.preload.entries == 0 && self.operations > 0 {
            return Err(Error::invalid(
                "preload.entries",
                "must be at least 1 with ycsb: YCSB's choosers draw from the loaded records".to_string(),
            ));
        }
        let row = play.mean_row_bytes().round() as u32;
        if self.preload.value_bytes != row {
            return Err(Error::invalid(
                "preload.value_bytes",
                format!(
                    "must be {row} with ycsb (the mean row of {} fields of {} bytes as YCSB's RocksDB bindings store it), got {}",
                    play.field_count, play.field_length, self.preload.value_bytes
                ),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn sample() -> Workload {
        Workload {
            kind: WORKLOAD_KIND.into(),
            version: 1,
            name: "t".into(),
            seed: 1,
            preload: Preload { entries: 1000, key_space: 0, key_bytes: 16, value_bytes: 100 },
            operations: 1000,
            mix: Mix { get_existing: 0.5, get_missing: 0.5, ..Mix::default() },
            distribution: Distribution::Zipf { theta: 0.99 },
            range_selectivity: 0.0,
            ycsb: None,
            db_bench: None,
        }
    }

    #[test]
    fn json_roundtrip() {
        let w = sample();
        assert_eq!(Workload::from_json(&w.to_json()), Ok(w));
    }

    #[test]
    fn errors_name_the_field() {
        let mut w = sample();
        w.mix.get_missing = 0.4;
        assert!(w.validate().unwrap_err().to_string().starts_with("mix: insert + update"));
        let mut w = sample();
        w.preload.key_bytes = 4;
        assert_eq!(w.validate().unwrap_err().to_string(), "preload.key_bytes: must be an integer in [8, 1024], got 4");
        let mut w = sample();
        w.distribution = Distribution::Zipf { theta: -1.0 };
        assert!(w.validate().unwrap_err().to_string().starts_with("distribution.theta: must be a number in [0, 5]"));
        let mut w = sample();
        w.mix = Mix { range: 1.0, ..Mix::default() };
        assert!(w.validate().unwrap_err().to_string().starts_with("range_selectivity"));
    }

    #[test]
    fn read_modify_writes_count_as_the_engine_operations_they_are() {
        let mut w = sample();
        w.mix = Mix { read_modify_write: 0.5, get_existing: 0.5, ..Mix::default() };
        // 1.5 engine operations each: 666,666,666 is the most.
        w.operations = 666_666_666;
        assert_eq!(w.validate(), Ok(()));
        w.operations = 666_666_667;
        let e = w.validate().unwrap_err().to_string();
        assert!(e.starts_with("operations: must be an integer in [0, 666666666] for this mix"), "{e}");
    }

    #[test]
    fn automatic_key_space_leaves_room_for_missing_keys() {
        let w = sample();
        assert_eq!(w.key_space(), 4000);
    }
}

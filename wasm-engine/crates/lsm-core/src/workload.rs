//! Workload: the document that says what to run — preload, operation count and mix, key
//! distribution, key/value sizes, seed. Generated inside the engine (`generator`), so a wasm run
//! and a native run of the same document execute exactly the same operations.

use serde::{Deserialize, Serialize};

use crate::config::check_range;
use crate::error::{Error, Result};

pub const WORKLOAD_KIND: &str = "lsm-navigator/workload";
pub const WORKLOAD_VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Workload {
    pub kind: String,
    pub version: u32,
    #[serde(default)]
    pub name: String,
    pub seed: u64,
    pub preload: Preload,
    /// Operations of the measured run, after the preload.
    pub operations: u64,
    pub mix: Mix,
    pub distribution: Distribution,
    /// Fraction of the key space one range lookup covers.
    #[serde(default)]
    pub range_selectivity: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Preload {
    /// Distinct keys inserted before the run.
    pub entries: u64,
    /// Number of possible keys (ids); 0 picks one: four times the keys the workload can insert.
    #[serde(default)]
    pub key_space: u64,
    pub key_bytes: u32,
    pub value_bytes: u32,
}

/// Operation mix of the run; fractions that sum to 1.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mix {
    #[serde(default)]
    pub insert: f64,
    #[serde(default)]
    pub update: f64,
    #[serde(default)]
    pub delete: f64,
    /// Point lookups of keys that exist (non-zero-result, unless the key was deleted).
    #[serde(default)]
    pub get_existing: f64,
    /// Point lookups of keys never inserted (zero-result).
    #[serde(default)]
    pub get_missing: f64,
    #[serde(default)]
    pub range: f64,
}

impl Mix {
    pub fn parts(&self) -> [(&'static str, f64); 6] {
        [
            ("insert", self.insert),
            ("update", self.update),
            ("delete", self.delete),
            ("get_existing", self.get_existing),
            ("get_missing", self.get_missing),
            ("range", self.range),
        ]
    }
}

/// Which existing keys updates, deletes and lookups pick.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum Distribution {
    Uniform,
    /// Zipf(θ) over keys in insertion order (the first keys are the hottest).
    Zipf {
        theta: f64,
    },
    /// Zipf(θ) over keys in reverse insertion order: recently inserted keys are hottest (YCSB "latest").
    Latest {
        theta: f64,
    },
    /// A contiguous range of `hot_fraction` of the key space receives `hot_probability` of the
    /// accesses, for existing and missing keys alike (YCSB's hotspot): skew by key range, which
    /// is what makes some files hotter than others.
    Hotspot {
        hot_fraction: f64,
        hot_probability: f64,
    },
}

pub const KEY_BYTES_RANGE: (u32, u32) = (8, 1024);
pub const VALUE_BYTES_RANGE: (u32, u32) = (0, 60_000);
pub const MAX_OPERATIONS: u64 = 1_000_000_000;
pub const THETA_RANGE: (f64, f64) = (0.0, 5.0);

impl Workload {
    pub fn from_json(text: &str) -> Result<Self> {
        let w: Workload = serde_json::from_str(text)
            .map_err(|e| Error::Parse { document: "Workload".into(), message: e.to_string() })?;
        w.validate()?;
        Ok(w)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Most keys the workload can insert (preload plus every run operation being an insert).
    pub fn max_inserts(&self) -> u64 {
        let run = if self.mix.insert > 0.0 { self.operations } else { 0 };
        self.preload.entries.saturating_add(run)
    }

    pub fn key_space(&self) -> u64 {
        if self.preload.key_space > 0 { self.preload.key_space } else { self.max_inserts().saturating_mul(4).max(1024) }
    }

    pub fn validate(&self) -> Result<()> {
        if self.kind != WORKLOAD_KIND {
            return Err(Error::invalid("kind", format!("must be \"{WORKLOAD_KIND}\", got \"{}\"", self.kind)));
        }
        if self.version != WORKLOAD_VERSION {
            return Err(Error::invalid("version", format!("must be {WORKLOAD_VERSION}, got {}", self.version)));
        }
        let p = &self.preload;
        let (klo, khi) = KEY_BYTES_RANGE;
        if !(klo..=khi).contains(&p.key_bytes) {
            return Err(Error::invalid(
                "preload.key_bytes",
                format!("must be an integer in [{klo}, {khi}], got {}", p.key_bytes),
            ));
        }
        let (vlo, vhi) = VALUE_BYTES_RANGE;
        if !(vlo..=vhi).contains(&p.value_bytes) {
            return Err(Error::invalid(
                "preload.value_bytes",
                format!("must be an integer in [{vlo}, {vhi}], got {}", p.value_bytes),
            ));
        }
        if p.entries > MAX_OPERATIONS {
            return Err(Error::invalid(
                "preload.entries",
                format!("must be an integer in [0, {MAX_OPERATIONS}], got {}", p.entries),
            ));
        }
        if p.key_space != 0 && p.key_space <= p.entries {
            return Err(Error::invalid(
                "preload.key_space",
                format!(
                    "must be 0 (automatic) or larger than preload.entries ({}), got {}; missing keys come from the rest",
                    p.entries, p.key_space
                ),
            ));
        }
        if self.operations > MAX_OPERATIONS {
            return Err(Error::invalid(
                "operations",
                format!("must be an integer in [0, {MAX_OPERATIONS}], got {}", self.operations),
            ));
        }
        let mut sum = 0.0;
        for (name, v) in self.mix.parts() {
            check_range(&format!("mix.{name}"), v, 0.0, 1.0)?;
            sum += v;
        }
        if self.operations > 0 && (sum - 1.0).abs() > 1e-9 {
            return Err(Error::invalid(
                "mix",
                format!("insert + update + delete + get_existing + get_missing + range must sum to 1, got {sum}"),
            ));
        }
        match self.distribution {
            Distribution::Uniform => {}
            Distribution::Zipf { theta } | Distribution::Latest { theta } => {
                let (lo, hi) = THETA_RANGE;
                check_range("distribution.theta", theta, lo, hi)?;
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
        if self.mix.range > 0.0 && self.range_selectivity <= 0.0 {
            return Err(Error::invalid(
                "range_selectivity",
                "must be in (0, 1] when the mix has range lookups, got 0".to_string(),
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
    fn automatic_key_space_leaves_room_for_missing_keys() {
        let w = sample();
        assert_eq!(w.key_space(), 4000);
    }
}

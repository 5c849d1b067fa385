//! EngineConfig: the design the engine obeys. One definition, versioned, shared with the UI and
//! the exporters (`public/presets/*.json` are instances of it).

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

pub const CONFIG_VERSION: u32 = 1;
pub const CONFIG_KIND: &str = "lsm-navigator/engine-config";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineConfig {
    pub kind: String,
    pub version: u32,
    #[serde(default)]
    pub name: String,
    /// Size of one data page (the unit of I/O), bytes.
    pub page_bytes: u32,
    /// Write buffer (memtable) capacity in entry bytes (key + value lengths).
    pub buffer_bytes: u64,
    /// Shape of levels 1, 2, ...; the last entry also describes every deeper level.
    pub levels: Vec<LevelConfig>,
    pub filter: FilterConfig,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelConfig {
    /// Capacity of this level divided by the capacity of the one above (level 1: by the buffer).
    pub size_ratio: f64,
    /// Runs the level may hold (1 = leveling, T−1 = tiering).
    pub max_runs: u32,
    /// Bits per key of this level's filters when `filter.allocation` is `explicit` (0 = no filter).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bits_per_key: Option<f64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Allocation {
    /// Each level's `bits_per_key`.
    Explicit,
    /// The same bits per key everywhere (the state of the art Monkey compares with).
    Uniform,
    /// Monkey: the total budget `bits_per_key × entries` split optimally over the actual runs.
    Monkey,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FilterConfig {
    pub allocation: Allocation,
    /// Average bits per entry for `uniform` and `monkey` (ignored by `explicit`).
    pub bits_per_key: f64,
}

pub const PAGE_BYTES_RANGE: (u32, u32) = (256, 65_536);
pub const SIZE_RATIO_RANGE: (f64, f64) = (2.0, 1_000.0);
pub const MAX_RUNS_RANGE: (u32, u32) = (1, 1_000);
pub const BITS_PER_KEY_RANGE: (f64, f64) = (0.0, 64.0);
pub const MAX_LEVELS: usize = 64;

impl EngineConfig {
    /// Leveling or tiering with one size ratio everywhere: the designs of Monkey's paper.
    pub fn uniform_shape(size_ratio: f64, max_runs: u32, allocation: Allocation, bits_per_key: f64) -> Self {
        EngineConfig {
            kind: CONFIG_KIND.into(),
            version: CONFIG_VERSION,
            name: String::new(),
            page_bytes: 4096,
            buffer_bytes: 1 << 20,
            levels: vec![LevelConfig { size_ratio, max_runs, bits_per_key: None }],
            filter: FilterConfig { allocation, bits_per_key },
        }
    }

    pub fn from_json(text: &str) -> Result<Self> {
        let config: EngineConfig = serde_json::from_str(text)
            .map_err(|e| Error::Parse { document: "EngineConfig".into(), message: e.to_string() })?;
        config.validate()?;
        Ok(config)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The configuration of level `i` (1-based); levels past the list repeat its last entry.
    pub fn level(&self, i: usize) -> &LevelConfig {
        let idx = i.saturating_sub(1).min(self.levels.len().saturating_sub(1));
        &self.levels[idx]
    }

    pub fn validate(&self) -> Result<()> {
        if self.kind != CONFIG_KIND {
            return Err(Error::invalid("kind", format!("must be \"{CONFIG_KIND}\", got \"{}\"", self.kind)));
        }
        if self.version != CONFIG_VERSION {
            return Err(Error::invalid(
                "version",
                format!("must be {CONFIG_VERSION} (the only version this engine reads), got {}", self.version),
            ));
        }
        let (lo, hi) = PAGE_BYTES_RANGE;
        if !(lo..=hi).contains(&self.page_bytes) || !self.page_bytes.is_power_of_two() {
            return Err(Error::invalid(
                "page_bytes",
                format!("must be a power of two in [{lo}, {hi}], got {}", self.page_bytes),
            ));
        }
        let min_buffer = u64::from(self.page_bytes);
        if self.buffer_bytes < min_buffer || self.buffer_bytes > 1 << 32 {
            return Err(Error::invalid(
                "buffer_bytes",
                format!("must be in [{min_buffer} (one page), {}], got {}", 1u64 << 32, self.buffer_bytes),
            ));
        }
        if self.levels.is_empty() || self.levels.len() > MAX_LEVELS {
            return Err(Error::invalid(
                "levels",
                format!("must list between 1 and {MAX_LEVELS} levels, got {}", self.levels.len()),
            ));
        }
        for (i, level) in self.levels.iter().enumerate() {
            let (lo, hi) = SIZE_RATIO_RANGE;
            check_range(&format!("levels[{i}].size_ratio"), level.size_ratio, lo, hi)?;
            let (rlo, rhi) = MAX_RUNS_RANGE;
            if !(rlo..=rhi).contains(&level.max_runs) {
                return Err(Error::invalid(
                    format!("levels[{i}].max_runs"),
                    format!("must be an integer in [{rlo}, {rhi}], got {}", level.max_runs),
                ));
            }
            let (blo, bhi) = BITS_PER_KEY_RANGE;
            match (self.filter.allocation, level.bits_per_key) {
                (Allocation::Explicit, None) => {
                    return Err(Error::invalid(
                        format!("levels[{i}].bits_per_key"),
                        format!("is required when filter.allocation is \"explicit\" (a number in [{blo}, {bhi}])"),
                    ));
                }
                (_, Some(b)) => check_range(&format!("levels[{i}].bits_per_key"), b, blo, bhi)?,
                _ => {}
            }
        }
        let (blo, bhi) = BITS_PER_KEY_RANGE;
        check_range("filter.bits_per_key", self.filter.bits_per_key, blo, bhi)?;
        Ok(())
    }
}

pub fn check_range(field: &str, value: f64, lo: f64, hi: f64) -> Result<()> {
    if !value.is_finite() || value < lo || value > hi {
        return Err(Error::invalid(field, format!("must be a number in [{lo}, {hi}], got {value}")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> EngineConfig {
        EngineConfig::uniform_shape(10.0, 1, Allocation::Monkey, 10.0)
    }

    #[test]
    fn roundtrips_through_json() {
        let c = sample();
        assert_eq!(EngineConfig::from_json(&c.to_json()), Ok(c));
    }

    #[test]
    fn errors_name_the_field_and_range() {
        let mut c = sample();
        c.levels[0].size_ratio = 1.5;
        let e = c.validate().unwrap_err().to_string();
        assert_eq!(e, "levels[0].size_ratio: must be a number in [2, 1000], got 1.5");

        let mut c = sample();
        c.page_bytes = 3000;
        assert!(
            c.validate().unwrap_err().to_string().starts_with("page_bytes: must be a power of two in [256, 65536]")
        );

        let mut c = sample();
        c.filter.bits_per_key = f64::NAN;
        assert!(c.validate().unwrap_err().to_string().starts_with("filter.bits_per_key"));
    }

    #[test]
    fn unknown_fields_are_rejected_by_name() {
        let mut v: serde_json::Value = serde_json::from_str(&sample().to_json()).unwrap();
        v["bufer_bytes"] = 5.into();
        let e = EngineConfig::from_json(&v.to_string()).unwrap_err().to_string();
        assert!(e.contains("bufer_bytes"), "{e}");
    }

    #[test]
    fn deeper_levels_repeat_the_last_entry() {
        let mut c = sample();
        c.levels.push(LevelConfig { size_ratio: 4.0, max_runs: 3, bits_per_key: None });
        assert_eq!(c.level(1).size_ratio, 10.0);
        assert_eq!(c.level(2).size_ratio, 4.0);
        assert_eq!(c.level(9).max_runs, 3);
    }
}

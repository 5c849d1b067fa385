//! The geometry every merge policy sizes levels by: a level's capacity, the unit data arrives in,
//! its run limit and a run's capacity, all derived from the buffer and the size ratios.

use crate::config::{EngineConfig, Granularity};

/// Geometry of one level derived from the config.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LevelGeometry {
    /// Bytes the level holds when full (infinite for level 1 with merges by file: it is bounded
    /// by its run count, like LevelDB's level 0).
    pub capacity: f64,
    /// Bytes of one arrival (the capacity of the level above, or the buffer).
    pub unit: f64,
    /// Runs the level may hold before it is merged down (its `LevelConfig::max_runs`).
    pub max_runs: u32,
    /// Bytes one run may hold: `capacity / max_runs` (with merges by file, `capacity`).
    pub run_capacity: f64,
}

/// The geometry of `level` (1-based). Multiplies the size ratios above it each call; use
/// `geometries` to walk every level.
pub fn geometry(config: &EngineConfig, level: usize) -> LevelGeometry {
    let mut scale = config.buffer_bytes as f64;
    for i in 1..level {
        scale *= config.level(i).size_ratio;
    }
    geometry_at(config, level, scale)
}

/// Every level's geometry, level 1 first: `geometry` without recomputing the product of the size
/// ratios above each level (the policy asks after every flush).
pub fn geometries(config: &EngineConfig) -> impl Iterator<Item = LevelGeometry> + '_ {
    let mut scale = config.buffer_bytes as f64;
    (1..).map(move |level| {
        let g = geometry_at(config, level, scale);
        scale *= config.level(level).size_ratio;
        g
    })
}

/// The geometry of `level`, given `scale`: the buffer times the size ratios of the levels above.
fn geometry_at(config: &EngineConfig, level: usize, scale: f64) -> LevelGeometry {
    let lc = config.level(level);
    if config.compaction.granularity == Granularity::File {
        // Level 1 holds flushed files; its size ratio sets level 2's capacity (LevelDB's L1).
        let capacity = if level == 1 { f64::INFINITY } else { scale };
        return LevelGeometry {
            capacity,
            unit: config.buffer_bytes as f64,
            max_runs: lc.max_runs,
            run_capacity: capacity,
        };
    }
    let unit = scale;
    let capacity = unit * lc.size_ratio;
    LevelGeometry { capacity, unit, max_runs: lc.max_runs, run_capacity: capacity / f64::from(lc.max_runs) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Allocation, LevelConfig};

    /// Buffer 100 B; levels (T, K) = (3, 2), (7, 1), (10, 4).
    fn three_levels() -> EngineConfig {
        let mut c = EngineConfig::uniform_shape(10.0, 1, Allocation::Uniform, 10.0);
        c.buffer_bytes = 100;
        c.levels = [(3.0, 2), (7.0, 1), (10.0, 4)]
            .iter()
            .map(|&(t, k)| LevelConfig { size_ratio: t, max_runs: k, bits_per_key: None })
            .collect();
        c
    }

    #[test]
    fn geometries_step_through_the_levels_as_geometry_computes_each() {
        for granularity in [Granularity::Level, Granularity::File] {
            let mut c = three_levels();
            c.compaction.granularity = granularity;
            let stepped: Vec<LevelGeometry> = geometries(&c).take(6).collect();
            let each: Vec<LevelGeometry> = (1..=6).map(|l| geometry(&c, l)).collect();
            assert_eq!(stepped, each, "{granularity:?}");
        }
        // Level 3 of a level-granular tree: arrivals of 100 × 3 × 7 bytes, 10 of them when full.
        let g = geometry(&three_levels(), 3);
        assert_eq!((g.unit, g.capacity, g.max_runs), (2100.0, 21000.0, 4));
    }
}

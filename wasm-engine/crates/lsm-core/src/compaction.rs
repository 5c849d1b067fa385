//! Merge policy: a pure function of the tree shape and the config that says what to merge next.
//! Three policies share the levels' geometry (`geometry`): merges by whole level (`whole_level`,
//! Moose's active runs), merges by file with trivial moves (`by_file`, LevelDB's and RocksDB's
//! leveled compaction), and RocksDB's dynamic level bytes (`dynamic`), the targets and scores
//! `by_file` orders its merges by when `compaction.dynamic_level_bytes` is on.

mod by_file;
mod dynamic;
mod geometry;
mod whole_level;

pub use by_file::{FilePlan, TableShape, choose_file};
pub use dynamic::{DynamicLevels, dynamic_levels, dynamic_scores, level_base_bytes};
pub use geometry::{LevelGeometry, geometries, geometry};
pub use whole_level::{FlushPlan, MergePlan, Shape, choose, choose_flush};

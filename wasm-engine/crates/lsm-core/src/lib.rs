//! LSM Navigator's documents and pure policies: what a design is (`config::EngineConfig`) and
//! what a workload is (`workload::Workload`), and the functions every other crate decides with —
//! the merge geometry and plans (`compaction`), the filter allocations of Monkey (`allocation`,
//! `monkey_birth`) and Mnemosyne (`mnemosyne`), Bloom filter math (`bloom`), the FPR and size of RocksDB's
//! filter kinds (`filter_kinds`), pages turned into time on a calibrated device (`calibration`), paced merging and write stalls
//! (`pacing`), and the seeded
//! RNG, hashing and libm-backed math that make a wasm run and a native run identical.
//! No I/O, no clock, no platform code.

pub mod allocation;
pub mod arena;
pub mod bloom;
pub mod calibration;
pub mod compaction;
pub mod config;
pub mod db_bench;
pub mod db_bench_workload;
pub mod document;
pub mod error;
pub mod filter_budget;
pub mod filter_kinds;
pub mod hash;
pub mod layout;
pub mod math;
pub mod mixgraph;
pub mod mnemosyne;
pub mod monkey_birth;
pub mod pacing;
pub mod partition;
pub mod range;
pub mod rng;
pub mod universal;
pub mod warning;
pub mod workload;
pub mod ycsb;

pub use config::EngineConfig;
pub use error::{Error, Result};
pub use workload::Workload;

//! LSM Navigator's engine: a real LSM-tree (write buffer, sorted runs of fixed-size pages with
//! fence pointers and Bloom filters, leveling/tiering/per-level merge policies) that counts every
//! page it reads and writes. The same code runs natively (the `lsm` CLI) and as WebAssembly in a
//! Web Worker (`wasm` module).

pub mod allocation;
pub mod batch;
pub mod bloom;
pub mod cache;
pub mod clock;
pub mod compaction;
pub mod config;
pub mod cursor;
pub mod engine;
pub mod error;
pub mod export;
pub mod filestats;
pub mod filter;
pub(crate) mod filter_sizing;
pub mod fit;
pub mod frame;
pub mod generator;
pub mod growth;
pub mod hash;
mod job;
pub mod keycmp;
pub mod keys;
pub mod kvbench;
pub mod latency;
pub mod lookup;
pub mod maintenance;
pub mod manifest;
pub mod math;
pub mod memtable;
pub mod merge;
pub mod mnemosyne;
pub mod page;
pub mod reoptimise;
pub mod report;
pub mod rng;
pub mod run;
pub mod runner;
pub mod stats;
pub mod storage;
pub mod table;
pub mod tree;
pub mod tune;
pub mod wal;
pub mod workload;
pub mod write_amp;
pub mod ycsb;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use config::EngineConfig;
pub use engine::Engine;
pub use error::{Error, Result};
pub use report::Report;
pub use runner::Runner;
pub use workload::Workload;

//! LSM Navigator's engine: a real LSM-tree (write buffer, sorted runs of fixed-size pages (or RocksDB's data blocks) with
//! fence pointers and Bloom or modular filters, leveling/tiering/per-level merge policies, WAL
//! and manifest) that counts every page it reads and writes. It obeys an `EngineConfig` from
//! `lsm_core`; which design is good is the models' business. Storage is a trait (`storage`), so
//! the same engine runs on memory, native files (feature `files`), OPFS and IndexedDB.

mod background;
pub mod batch;
mod cache;
mod commit;
pub mod cursor;
mod driver;
pub mod engine;
pub mod fast_local_bloom;
mod filestats;
pub mod filter;
mod filter_budget;
pub(crate) mod filter_sizing;
mod frame;
mod hex;
mod job;
mod keycmp;
mod lookup;
mod maintenance;
mod manifest;
pub mod memtable;
pub mod merge;
mod merger;
pub mod merging;
mod pacer;
pub mod page;
mod read;
pub mod recovery;
mod reoptimise;
pub mod ribbon;
mod run;
pub mod run_log;
mod run_recording;
pub mod stats;
pub mod storage;
pub mod table;
pub mod tree;
mod universal;
mod wal;

pub use engine::Engine;

//! Operation streams from a `Workload` (`lsm_core::workload`): the seeded generator that makes a
//! wasm run and a native run of one spec identical (`generator`, `keys`), and the formats people
//! bring or take away — YCSB CoreWorkload properties (`ycsb`), KVBench I/U/D/Q/S traces
//! (`kvbench`), RocksDB's binary query traces (`rocksdb_trace`), db_bench command lines (`db_bench`, played by
//! `mixgraph`) — and a trace's key distribution fitted by maximum likelihood (`fit`).

pub mod db_bench;
pub mod fit;
pub mod generator;
mod keys;
pub mod kvbench;
pub mod mixgraph;
pub mod ops;
pub mod rocksdb_trace;
pub mod ycsb;
pub mod ycsb_client;

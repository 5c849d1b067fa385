//! What the tuner's integration tests share: a small RocksDB design, YCSB's core workloads and a
//! device calibration.

// Each test binary uses its own part of this module.
#![allow(dead_code)]
// Test helpers: a failure here is a broken fixture, said by its message.
#![allow(clippy::expect_used)]

use lsm_core::calibration::{CALIBRATION_KIND, CALIBRATION_VERSION, Calibration};
use lsm_core::config::EngineConfig;
use lsm_core::workload::Workload;
use lsm_engine::engine::{Engine, Merging};
use lsm_engine::storage::MemStorage;
use lsm_runner::runner::Runner;

/// RocksDB 7.8's defaults at 1/64 of their sizes (1 MiB memtables, 4 MiB level base, 1 MiB files,
/// no filter), a 128 KiB block cache (as tests/rocksdb_tune.rs's `options`).
pub(crate) fn rocksdb_small() -> EngineConfig {
    let text = "[Version]\n  rocksdb_version=7.8.3\n[DBOptions]\n  create_if_missing=true\n[CFOptions \"default\"]\n  \
                write_buffer_size=1048576\n  max_bytes_for_level_base=4194304\n  target_file_size_base=1048576\n\
                [TableOptions/BlockBasedTable \"default\"]\n  block_cache={capacity=131072}\n";
    lsm_export::import(text, lsm_export::ImportKind::Rocksdb).expect("imports").config
}

/// YCSB's core workload `letter` with these counts, as the tuner reads it.
pub(crate) fn ycsb(letter: char, records: u64, operations: u64) -> Workload {
    let text = lsm_workload::ycsb::core_workload(letter, records, operations).expect("core workload");
    lsm_workload::ycsb::from_properties(&text, "workload").expect("properties").workload
}

/// A device that reads a page in `read` µs and writes one in `write` µs, with `cpu` µs per
/// operation of each class.
pub(crate) fn device(name: &str, read: f64, write: f64, cpu: [f64; 4]) -> Calibration {
    Calibration {
        kind: CALIBRATION_KIND.into(),
        version: CALIBRATION_VERSION,
        device: name.into(),
        direct_reads: true,
        page_bytes: 4096,
        page_read_us: read,
        page_write_us: write,
        store: "rocksdb 7.8.3".into(),
        cpu_us: cpu,
        notes: vec![],
    }
}

/// I/Os per operation the engine measures playing `w` on `config` in memory.
pub(crate) fn measured(config: &EngineConfig, w: &Workload) -> f64 {
    let mut engine = Engine::create(config.clone(), Box::new(MemStorage::new())).expect("engine");
    // The predictor replays every merge as done by the next operation: merges inline.
    engine.merging = Merging::Inline;
    let mut runner = Runner::for_workload(w).expect("runner");
    while !runner.is_finished() {
        runner.step(&mut engine, u64::MAX).expect("step");
    }
    runner.report(&engine).io_per_op()
}

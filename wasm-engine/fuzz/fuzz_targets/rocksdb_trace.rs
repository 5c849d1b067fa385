//! A RocksDB query trace from a stranger: the reader either opens it (the whole file checked and
//! counted) or refuses it with an error naming the record; an opened trace plays exactly the
//! operations it counted, on a small engine, without a panic; a workload fitted to it is valid.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lsm_core::config::{Allocation, EngineConfig};
use lsm_engine::engine::Engine;
use lsm_engine::storage::MemStorage;
use lsm_runner::runner::Runner;
use lsm_workload::generator::OpSource;
use lsm_workload::rocksdb_trace::RocksdbTrace;

fuzz_target!(|data: &[u8]| {
    let trace = match RocksdbTrace::open("fuzz", data.to_vec()) {
        Ok(t) => t,
        Err(e) => {
            let message = e.to_string();
            assert!(message.starts_with("fuzz: record "), "{message}");
            return;
        }
    };
    // Counting when opened and playing agree, operation for operation.
    let (_, Some(total)) = trace.totals() else { panic!("a trace knows its operations") };
    let mut counted = RocksdbTrace::open("fuzz", data.to_vec()).expect("opens twice");
    let mut played = 0u64;
    while let Some(_) = counted.next_op().expect("an opened trace plays") {
        played += 1;
    }
    assert_eq!(played, total);
    let c = trace.counts();
    assert_eq!(c.puts + c.deletes + c.single_deletes + c.lookups + c.scans, total);
    if let Ok(fit) = lsm_workload::fit::fit_rocksdb_trace("fuzz", data.to_vec()) {
        fit.workload.validate().expect("a fitted workload is valid");
    }
    let mut config = EngineConfig::uniform_shape(3.0, 1, Allocation::Monkey, 5.0);
    config.page_bytes = 512;
    config.buffer_bytes = 4096;
    let Ok(mut engine) = Engine::create(config, Box::new(MemStorage::new())) else { return };
    let mut runner = Runner::for_source(Box::new(trace), "fuzz".into());
    while !runner.is_finished() {
        if runner.step(&mut engine, 256).is_err() {
            break;
        }
    }
});

//! A KVBench trace from a stranger: every line either becomes an operation or stops the run with
//! an error naming the line; the operations run on a small engine without a panic, and a
//! workload fitted to the trace is valid.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lsm_core::config::{Allocation, EngineConfig};
use lsm_engine::engine::Engine;
use lsm_runner::runner::Runner;
use lsm_engine::storage::MemStorage;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    // A key length the CLI accepts (`--key-bytes`, 8 to 1024), chosen by the first byte.
    let key_bytes = 8 + usize::from(first) * 4;
    let mut config = EngineConfig::uniform_shape(3.0, 1, Allocation::Monkey, 5.0);
    config.page_bytes = 512;
    config.buffer_bytes = 4096;
    let Ok(mut engine) = Engine::create(config, Box::new(MemStorage::new())) else { return };
    if let Ok(fit) = lsm_workload::fit::fit_trace("fuzz", text.to_string(), key_bytes) {
        fit.workload.validate().expect("a fitted workload is valid");
    }
    let mut runner = Runner::for_trace("fuzz", text.to_string(), key_bytes);
    while !runner.is_finished() {
        if runner.step(&mut engine, 256).is_err() {
            break;
        }
    }
});

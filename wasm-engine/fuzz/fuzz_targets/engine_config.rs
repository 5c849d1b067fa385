//! EngineConfig JSON from a stranger: it is refused with an error, or it is valid, exports in
//! every format, and an engine created from it takes a few writes and reads them back — without
//! a panic and without allocating from an unchecked size field.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lsm_core::config::EngineConfig;
use lsm_engine::engine::Engine;
use lsm_export::{Format, export};
use lsm_engine::storage::MemStorage;
use lsm_core::workload::Workload;

/// The db_bench exporter needs a workload: the repository's example one.
const MIXED: &str = include_str!("../../../public/examples/mixed.json");

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(config) = EngineConfig::from_json(text) else { return };
    config.validate().expect("from_json only returns valid configs");
    let workload = Workload::from_json(MIXED).expect("the example workload is valid");
    for format in [Format::Rocksdb, Format::RocksdbCpp, Format::Engine, Format::DbBench] {
        export(&config, format, Some(&workload)).expect("a valid config exports");
    }
    let mut engine = Engine::create(config, Box::new(MemStorage::new())).expect("a valid config creates an engine");
    for i in 0u32..64 {
        engine.put(&i.to_be_bytes(), b"value").expect("put");
    }
    assert_eq!(engine.get(&7u32.to_be_bytes()).expect("get").as_deref(), Some(&b"value"[..]));
});

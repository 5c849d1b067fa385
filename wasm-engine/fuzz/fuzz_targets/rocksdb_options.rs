//! A RocksDB OPTIONS file from a stranger: importing it either fails with an error or gives a
//! valid EngineConfig, which every exporter can write and whose own OPTIONS export imports again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lsm_export::{Format, ImportKind, export, import};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(imported) = import(text, ImportKind::Rocksdb) else { return };
    imported.config.validate().expect("an imported config is valid");
    for format in [Format::Rocksdb, Format::RocksdbCpp, Format::Engine] {
        let out = export(&imported.config, format, None).expect("a valid config exports");
        if format == Format::Rocksdb {
            import(&out.text, ImportKind::Rocksdb).expect("our own OPTIONS export imports again");
        }
    }
});

//! A RocksDB LOG from a stranger: it reads, or is an error naming a line; never a panic, and a
//! LOG that reads has a stats dump at a line it holds, with the figures it claims.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match lsm_export::rocksdb_log::parse(text) {
        Ok(log) => {
            assert!(log.dump_line >= 1 && log.dump_line <= text.lines().count(), "the dump is at a line of the LOG");
            assert!(log.dumps >= 1);
            assert!(log.writes.is_some(), "a dump that reads has its cumulative writes");
            let family = log.default_family().expect("a dump that reads has compaction stats");
            assert!(family.sum.size_bytes >= 0.0 && family.sum.size_bytes.is_finite());
            if let Some(stats) = &log.statistics {
                assert!(!stats.tickers.is_empty());
            }
        }
        Err(e) => {
            let message = e.to_string();
            assert!(message.starts_with("RocksDB LOG: line "), "{message}");
        }
    }
});

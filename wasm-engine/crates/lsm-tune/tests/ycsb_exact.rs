//! Workloads played as YCSB's own clients play them (`lsm_core::ycsb`: user+FNV key names, the
//! scrambled Zipfian, skewed latest, rows, read-modify-write updates, scans of a drawn length),
//! priced by the predictor and measured by the engine on the same operations.
#![allow(clippy::unwrap_used)]

use lsm_core::config::{Allocation, EngineConfig};
use lsm_core::workload::Workload;
use lsm_core::ycsb::YcsbClient;
use lsm_tune::level_design;
use lsm_tune::predict::predict;
use lsm_workload::ycsb::{Play, core_workload, from_properties_played};

mod common;
use common::measured;

fn played(letter: char, client: YcsbClient, records: u64, operations: u64) -> Workload {
    // Rows of two 100-byte fields keep the tree a few levels deep at test scale.
    let text = core_workload(letter, records, operations).unwrap() + "fieldcount=2\nfieldlength=100\n";
    from_properties_played(&text, "workload", Play::Ycsb(client)).unwrap().workload
}

/// RocksDB's shape (the predictor's block-cache model prices it) with a 2 MiB block cache: about
/// a fifth of the data, where key skew decides the hit rate.
fn rocksdb_cached() -> EngineConfig {
    let options = "[Version]\n  rocksdb_version=7.8.3\n[DBOptions]\n  create_if_missing=true\n[CFOptions \"default\"]\n  \
                   write_buffer_size=1048576\n  max_bytes_for_level_base=4194304\n  target_file_size_base=1048576\n\
                   [TableOptions/BlockBasedTable \"default\"]\n  filter_policy=bloomfilter:10:false\n";
    let mut c = lsm_export::import(options, lsm_export::ImportKind::Rocksdb).unwrap().config;
    c.block_cache.bytes = 2 << 20;
    c
}

#[test]
fn ycsb_as_its_clients_play_it_is_priced_as_the_engine_measures_it() {
    let designs = [
        ("leveling T=10, Monkey 8 bits", level_design(4096, false, 10.0, 256 << 10, 8.0, Allocation::Monkey)),
        ("RocksDB, Bloom 10, 2 MiB cache", rocksdb_cached()),
        ("leveling T=4, uniform 5 bits", level_design(4096, false, 4.0, 128 << 10, 5.0, Allocation::Uniform)),
        ("tiering T=4, uniform 10 bits", level_design(4096, true, 4.0, 256 << 10, 10.0, Allocation::Uniform)),
    ];
    let mut worst: f64 = 0.0;
    for (letter, client) in [
        ('a', YcsbClient::Cpp),
        ('b', YcsbClient::Java),
        ('c', YcsbClient::Cpp),
        ('d', YcsbClient::Java),
        ('f', YcsbClient::Cpp),
    ] {
        let w = played(letter, client, 40_000, 20_000);
        let expected_distribution = if letter == 'd' { "latest" } else { "scrambled_zipf" };
        assert!(
            serde_json::to_string(&w.distribution).unwrap().contains(expected_distribution),
            "{:?}",
            w.distribution
        );
        for (design, config) in &designs {
            let p = predict(config, &w).unwrap();
            let m = measured(config, &w);
            let err = p.expected / m - 1.0;
            eprintln!(
                "YCSB {letter} ({client:?}) {design:<30} measured {m:8.4} predicted {:8.4} ({:+.2}%)",
                p.expected,
                err * 100.0
            );
            // Stated tolerance: 10% per case (flushes and merges are whole events, and the
            // scrambled Zipfian's keys are priced from its masses, not from the hashes themselves).
            // Known to differ (asserted, so closing it fails here until removed): F through a
            // read-modify-write client with a block cache. Its read-modify-write reads the row
            // twice in a row; the second read finds the block the first one cached, but the
            // predictor prices every lookup as an independent draw (measured 0.367, predicted 0.503).
            let known = letter == 'f' && config.block_cache.bytes > 0;
            assert_eq!(err.abs() < 0.10, !known, "YCSB {letter}, {design}: measured {m}, predicted {}", p.expected);
            if known {
                continue;
            }
            worst = worst.max(err.abs());
        }
    }
    eprintln!("largest relative error: {:.2}%", worst * 100.0);
}

#[test]
fn a_scrambled_zipfian_is_flatter_than_the_plain_one() {
    // The same YCSB C, its zipfian played by the engine's generator (hottest = first loaded) and
    // as YCSB plays it: the scrambled one's hot set is smaller, so fewer lookups hit a cached block.
    let config = rocksdb_cached();
    let text = core_workload('c', 40_000, 20_000).unwrap() + "fieldcount=2\nfieldlength=100\n";
    let engine = from_properties_played(&text, "w", Play::Engine).unwrap().workload;
    let ycsb = played('c', YcsbClient::Cpp, 40_000, 20_000);
    let (pe, py) = (predict(&config, &engine).unwrap().expected, predict(&config, &ycsb).unwrap().expected);
    let (me, my) = (measured(&config, &engine), measured(&config, &ycsb));
    eprintln!("YCSB C: engine's zipf measured {me:.4} predicted {pe:.4}; YCSB's measured {my:.4} predicted {py:.4}");
    assert!(my > me && py > pe, "the scrambled Zipfian reads more: {my} vs {me}, predicted {py} vs {pe}");
}

#[test]
fn tuning_a_clients_workload_keeps_it_and_the_recommendation_holds() {
    // The tuner prices engine operations (the client's extra reads) but hands back the workload as
    // given, so the bundle and the proof replay YCSB's own operations.
    let w = played('b', YcsbClient::Cpp, 40_000, 20_000);
    let current = rocksdb_cached();
    let r = lsm_tune::tune(&current, &w, 0.0, lsm_tune::Target::Rocksdb).unwrap();
    assert_eq!(r.workload, w);
    let (now, then) = (measured(&current, &w), measured(&r.nominal.config, &w));
    let predicted = r.nominal.prediction.expected / r.current.prediction.expected - 1.0;
    eprintln!(
        "YCSB B (YCSB-cpp): current {now:.4}, recommended {then:.4} ({:+.1}%, predicted {:+.1}%)",
        (then / now - 1.0) * 100.0,
        predicted * 100.0
    );
    assert!(then <= now * 1.02, "the recommendation reads more: {then} against {now}");
}

//! The LOG fit on LOGs real RocksDB 7.8.3 wrote (lsm-export's fixtures: db_bench fillrandom then
//! readrandomwriterandom at readwritepercent=80 over 200,000 uniform keys, 8 MiB block cache; and
//! `mixgraph.LOG`: the same fill, then mixgraph at 80% gets and 20% puts with
//! `--read_random_exp_range=3 --seed=7`, as interop/rocksdb/log-fit.test.mjs runs it).

#![allow(clippy::unwrap_used)]

use lsm_core::workload::Distribution;
use lsm_tune::fit_log::fit_log_text;

const STATS: &str = include_str!("../../lsm-export/tests/fixtures/rocksdb-log/statistics.LOG");
const NO_STATS: &str = include_str!("../../lsm-export/tests/fixtures/rocksdb-log/no-statistics.LOG");
const MIXGRAPH: &str = include_str!("../../lsm-export/tests/fixtures/rocksdb-log/mixgraph.LOG");
const OPTIONS: &str = include_str!("../../lsm-export/tests/fixtures/rocksdb-log/OPTIONS");

#[test]
fn a_log_with_statistics_fits_its_counts_sizes_and_cache() {
    let fit = fit_log_text("statistics.LOG", STATS, Some(OPTIONS)).unwrap();
    let c = &fit.counts;
    // The LOG's own tickers: keys.read, the memtable/L0/L1/L2+ hits, keys.written.
    assert_eq!((c.gets, c.found, c.writes, c.seeks), (153_415, 2_740 + 8_448 + 24_191 + 66_646, 38_340, 0));
    let w = &fit.workload;
    let m = &w.mix;
    let total = 153_415.0 + 38_340.0;
    assert!((m.insert + m.update - 38_340.0 / total).abs() < 1e-9);
    // The memtable served 2,740 lookups: the writes touch the keys read, so found share of them update.
    assert!((m.update - 38_340.0 / total * 102_025.0 / 153_415.0).abs() < 1e-9, "{m:?}");
    assert!((m.get_existing - 102_025.0 / total).abs() < 1e-9);
    assert!((m.get_missing - (153_415.0 - 102_025.0) / total).abs() < 1e-9);
    // db_bench ran 80% reads: the LOG says so within a point.
    assert!((m.get_existing + m.get_missing - 0.8).abs() < 0.01, "{m:?}");
    assert_eq!((w.preload.key_bytes, w.preload.value_bytes), (16, 100));
    assert_eq!(w.operations, 153_415 + 38_340);
    let figure = |name: &str| fit.figures.iter().find(|f| f.name == name).unwrap();
    // Hits over hits and lookup misses (data misses less the 4,630 compaction block reads).
    let hit = figure("cache_hit_rate");
    assert!((hit.log - 45_957.0 / (45_957.0 + 63_975.0 - 4_630.0)).abs() < 1e-12);
    assert!((figure("data_blocks_per_lookup").log - (63_975.0 - 4_630.0) / 153_415.0).abs() < 1e-12);
    assert!((figure("filters_per_lookup").log - (363_140.0 + 102_749.0) / 153_415.0).abs() < 1e-12);
    // Uniform keys: the predictor's uniform hit rate is already above the LOG's, so no skew is fitted;
    // it is within 15% of the LOG's, and the tree holds the LOG's entries within 2%.
    assert_eq!(w.distribution, Distribution::Uniform);
    let error = |name: &str| figure(name).relative_error.unwrap();
    assert!(error("cache_hit_rate") > 0.0 && error("cache_hit_rate") < 0.15, "{hit:?}");
    assert!(error("stored_entries").abs() < 0.02, "{:?}", figure("stored_entries"));
    assert!(error("data_blocks_per_lookup").abs() < 0.15);
}

#[test]
fn a_log_without_statistics_says_what_it_could_not_fit() {
    let fit = fit_log_text("no-statistics.LOG", NO_STATS, Some(OPTIONS)).unwrap();
    assert_eq!(fit.counts.writes, 27_000);
    assert_eq!(fit.counts.gets, 0);
    assert_eq!(fit.workload.mix.update + fit.workload.mix.insert, 1.0);
    assert_eq!(fit.workload.distribution, Distribution::Uniform);
    // Sizes from the table-creation events all the same.
    assert_eq!((fit.workload.preload.key_bytes, fit.workload.preload.value_bytes), (16, 100));
    assert!(fit.assumptions.iter().any(|a| a.contains("no statistics")), "{:?}", fit.assumptions);
    assert!(fit.assumptions.iter().any(|a| a.contains("skew") && a.contains("assumed uniform")));
    let names: Vec<_> = fit.figures.iter().map(|f| f.name).collect();
    assert_eq!(names, ["stored_entries", "files"]);
}

#[test]
fn without_options_the_defaults_are_assumed_and_said() {
    // This fixture holds the dumps but not the options RocksDB printed at open.
    let fit = fit_log_text("statistics.LOG", STATS, None).unwrap();
    assert!(
        fit.assumptions[0].contains("the LOG printed no options")
            && fit.assumptions[0].contains("RocksDB 7.8's defaults")
    );
}

#[test]
fn without_options_the_options_the_log_printed_are_the_design() {
    // The LOG alone fits as the LOG with its OPTIONS file does: the same workload, the same figures.
    let alone = fit_log_text("mixgraph.LOG", MIXGRAPH, None).unwrap();
    let with_file = fit_log_text("mixgraph.LOG", MIXGRAPH, Some(OPTIONS)).unwrap();
    assert!(
        alone.assumptions[0].contains("the options the LOG printed when the database opened (line 106)")
            && alone.assumptions[0].contains("10 bits per key from its tables' filter sizes"),
        "{:?}",
        alone.assumptions
    );
    assert_eq!(alone.workload, with_file.workload);
    for (a, b) in alone.figures.iter().zip(&with_file.figures) {
        assert_eq!(a.name, b.name);
        assert!((a.predicted - b.predicted).abs() <= 1e-9 * b.predicted.abs().max(1.0), "{a:?} vs {b:?}");
    }
}

#[test]
fn a_truncated_log_is_an_error_not_a_fit() {
    let cut = &STATS[..STATS.len() - 2000];
    let e = fit_log_text("statistics.LOG", cut, Some(OPTIONS)).unwrap_err().to_string();
    assert!(e.contains("RocksDB LOG: line") && e.contains("mid-line"), "{e}");
}

#[test]
fn writes_that_no_lookup_finds_in_the_memtable_are_inserts_of_keys_no_lookup_reads() {
    // db_bench's mixgraph gives each key one operation (the query type is the key's draw mod 1000),
    // so its gets never read a key its puts wrote: the LOG counts memtable.hit 0.
    let fit = fit_log_text("mixgraph.LOG", MIXGRAPH, Some(OPTIONS)).unwrap();
    let c = &fit.counts;
    assert!(c.found > 50_000 && c.writes > 30_000, "{c:?}");
    let m = &fit.workload.mix;
    assert_eq!(m.update, 0.0);
    let total = (c.gets + c.writes + c.seeks) as f64;
    assert!((m.insert - c.writes as f64 / total).abs() < 1e-9, "{m:?}");
    assert!(fit.assumptions.iter().any(|a| a.contains("none of their keys in the memtable")), "{:?}", fit.assumptions);
    let figure = |name: &str| fit.figures.iter().find(|f| f.name == name).unwrap();
    let error = |name: &str| figure(name).relative_error.unwrap();
    // θ is fitted to the hit rate; blocks per lookup checks the fit. Taken as updates of the keys
    // read (the rule before), the hot keys' newest versions sat in the predicted memtable and the
    // prediction read 14–16% fewer blocks than this LOG; as inserts, 8.4% fewer.
    assert!(matches!(fit.workload.distribution, Distribution::Zipf { .. }), "{:?}", fit.workload.distribution);
    assert!(error("cache_hit_rate").abs() < 0.02, "{:?}", figure("cache_hit_rate"));
    assert!(error("data_blocks_per_lookup").abs() < 0.10, "{:?}", figure("data_blocks_per_lookup"));
}

#[test]
fn the_cache_is_the_one_the_logs_dump_shows() {
    // The fixture ran with an 8 MiB cache, RocksDB 7.8's internal default, which is also what the
    // OPTIONS file's import assumes (the file records no capacity): nothing to say.
    let as_run = fit_log_text("statistics.LOG", STATS, Some(OPTIONS)).unwrap();
    assert!(!as_run.assumptions.iter().any(|a| a.starts_with("block cache")), "{:?}", as_run.assumptions);
    // The same LOG saying its cache held 64 MiB: the fit prices that cache, and says so.
    let bigger = STATS.replace("capacity: 8.00 MB", "capacity: 64.00 MB");
    let fit = fit_log_text("statistics.LOG", &bigger, Some(OPTIONS)).unwrap();
    let note = fit.assumptions.iter().find(|a| a.starts_with("block cache")).unwrap();
    assert!(note.contains("67108864 bytes") && note.contains("8388608"), "{note}");
    let hit = |f: &lsm_tune::fit_log::LogFit| f.figures.iter().find(|x| x.name == "cache_hit_rate").unwrap().predicted;
    // Uniform keys over ~28 MB of tables: eight times the cache, a far higher predicted hit rate.
    assert!(hit(&fit) > hit(&as_run) + 0.2, "{} vs {}", hit(&fit), hit(&as_run));
}

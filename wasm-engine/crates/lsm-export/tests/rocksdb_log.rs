//! The LOG reader on LOGs real RocksDB 7.8.3 wrote: db_bench's fillrandom then
//! readrandomwriterandom (200,000 keys, 1 MiB write buffers, 10 bits per key, an 8 MiB block
//! cache), with `--statistics` (statistics.LOG) and without (no-statistics.LOG), cut to their
//! header, three table-creation events and their last two stats dumps.

#![allow(clippy::unwrap_used)]

use lsm_export::rocksdb_log::parse;

const STATS: &str = include_str!("fixtures/rocksdb-log/statistics.LOG");
const NO_STATS: &str = include_str!("fixtures/rocksdb-log/no-statistics.LOG");

#[test]
fn reads_the_last_dump_with_its_statistics() {
    let log = parse(STATS).unwrap();
    assert_eq!(log.version.as_deref(), Some("7.8.3"));
    assert_eq!(log.dumps, 2);
    assert_eq!(log.dump_line, 392);
    assert_eq!(log.uptime_secs, Some(9.3));
    let w = log.writes.as_ref().unwrap();
    assert_eq!((w.writes, w.keys, w.commit_groups), (38_000, 38_000, 38_000));
    assert_eq!(log.wal.as_ref().unwrap().syncs, 0);
    assert_eq!(log.stall.as_ref().unwrap().seconds, 0.0);
    let cf = log.default_family().unwrap();
    assert_eq!(cf.name, "default");
    let files: Vec<_> = cf.levels.iter().map(|l| (l.level.as_str(), l.files)).collect();
    assert_eq!(files, [("L0", 1), ("L1", 4), ("L2", 19)]);
    assert!((cf.levels[0].size_bytes - 832.17 * 1024.0).abs() < 1e-6);
    assert!((cf.levels[2].size_bytes - 14.28 * 1024.0 * 1024.0).abs() < 1e-3);
    assert_eq!((cf.levels[1].key_in, cf.levels[1].key_drop), (124_000, 12_000));
    assert_eq!((cf.sum.files, cf.sum.key_in, cf.sum.key_drop, cf.sum.compactions), (24, 235_000, 34_000, 14));
    assert_eq!(cf.sum.write_amp, 6.3);
    assert_eq!(cf.stalls.get("level0_slowdown"), Some(&0));
    assert_eq!(cf.stalls.get("interval total count"), Some(&0));
    assert_eq!(cf.stalls.len(), 9);
    let cache = cf.block_cache.as_ref().unwrap();
    assert_eq!(cache.capacity_bytes, 8.0 * 1024.0 * 1024.0);
    assert_eq!(cache.entries.get("Misc"), Some(&(1, 0.0)));
    assert_eq!(log.ticker("rocksdb.block.cache.data.miss"), Some(63_975));
    assert_eq!(log.ticker("rocksdb.block.cache.data.hit"), Some(45_957));
    assert_eq!(log.ticker("rocksdb.number.keys.read"), Some(153_415));
    assert_eq!(log.ticker("rocksdb.number.keys.written"), Some(38_340));
    assert_eq!(log.ticker("rocksdb.bloom.filter.useful"), Some(363_140));
    let stats = log.statistics.as_ref().unwrap();
    assert_eq!((stats.tickers.len(), stats.histograms.len()), (193, 58));
    let get = &stats.histograms["rocksdb.db.get.micros"];
    assert_eq!((get.count, get.sum), (153_415, 7_187_089));
    assert_eq!(get.p50, 6.096338);
    let per_write = &stats.histograms["rocksdb.bytes.per.write"];
    assert_eq!((per_write.p100, per_write.count, per_write.sum), (131.0, 38_340, 5_022_540));
    // Four table-creation events (three kept from the start, one in the last dump's span): 16-byte
    // keys (24 with RocksDB's sequence and type), 100-byte values.
    assert_eq!(log.tables.files, 4);
    assert_eq!(log.tables.raw_key_bytes, 24 * log.tables.entries);
    assert_eq!(log.tables.raw_value_bytes, 100 * log.tables.entries);
}

#[test]
fn a_log_without_statistics_reads_what_it_has() {
    let log = parse(NO_STATS).unwrap();
    assert!(log.statistics.is_none());
    assert_eq!(log.ticker("rocksdb.number.keys.read"), None);
    assert_eq!(log.dumps, 2);
    assert_eq!(log.writes.as_ref().unwrap().keys, 27_000);
    let cf = log.default_family().unwrap();
    let files: Vec<_> = cf.levels.iter().map(|l| l.files).collect();
    assert_eq!(files, [3, 4, 19]);
    assert_eq!((cf.sum.key_in, cf.sum.key_drop), (92_000, 12_000));
    assert!((cf.sum.size_bytes - 21.58 * 1024.0 * 1024.0).abs() < 1e-3);
}

/// The error's message, which must name a line.
fn error(text: &str) -> String {
    parse(text).unwrap_err().to_string()
}

#[test]
fn a_truncated_log_is_an_error_naming_the_line() {
    let lines: Vec<&str> = STATS.lines().collect();
    let upto = |n: usize| lines[..n].join("\n") + "\n";
    // Cut mid-line inside the statistics: the last line is named.
    let cut = &STATS[..STATS.find("rocksdb.bloom.filter.useful COUNT : 363140").unwrap() + 20];
    let n = cut.lines().count();
    assert!(error(cut).contains(&format!("line {n}: the LOG ends mid-line")), "{}", error(cut));
    // Cut at a line boundary among the last dump's tickers: fewer than the dump before printed.
    let e = error(&upto(600));
    assert!(e.contains("line 600: the statistics of line 504 end with the LOG before any histogram"), "{e}");
    // Among the histograms.
    let e = error(&upto(740));
    assert!(e.contains("line 740: the statistics of line 504 end with the LOG after 193 tickers and 43 histograms; the dump before printed 193 and 58"), "{e}");
    // Inside the compaction table and before the stall counts.
    let table = lines[392..].iter().position(|l| l.starts_with("  L1 ")).unwrap() + 392 + 1;
    let e = error(&upto(table));
    assert!(e.contains(&format!("line {table}: the compaction stats of line")), "{e}");
    let stalls = lines[392..].iter().position(|l| l.starts_with("Stalls(count)")).unwrap() + 392;
    let e = error(&upto(stalls));
    assert!(e.contains(&format!("line {stalls}: the stats dump of line 392 ends before the `Stalls(count)`")), "{e}");
    // Before the DB stats were written.
    let e = error(&upto(393));
    assert!(e.contains("line 393: the stats dump of line 392 has no `Cumulative writes`"), "{e}");
    // The whole LOG reads.
    assert!(parse(&upto(lines.len())).is_ok());
}

#[test]
fn malformed_lines_are_errors_naming_the_line() {
    let lines: Vec<&str> = STATS.lines().collect();
    let with = |n: usize, replacement: &str| {
        let mut copy = lines.clone();
        copy[n - 1] = replacement;
        copy.join("\n") + "\n"
    };
    let ticker = lines.iter().rposition(|l| l.starts_with("rocksdb.number.keys.read COUNT")).unwrap() + 1;
    let e = error(&with(ticker, "rocksdb.number.keys.read COUNT : many"));
    assert!(e.contains(&format!("line {ticker}: `rocksdb.number.keys.read COUNT : many` is neither a ticker")), "{e}");
    let row = lines.iter().rposition(|l| l.starts_with("  L2 ")).unwrap() + 1;
    let e = error(&with(row, "  L2     19/0   14.28 MB   0.4"));
    assert!(e.contains(&format!("line {row}: a compaction stats row has 4 cells; the header has 21")), "{e}");
    let e = error(&with(row, &lines[row - 1].replace("14.28 MB", "14.28 XB")));
    assert!(e.contains(&format!("line {row}: size `14.28 XB` is not a size")), "{e}");
    let writes = lines.iter().rposition(|l| l.starts_with("Cumulative writes")).unwrap() + 1;
    let e = error(&with(writes, "Cumulative writes: 38K writes, lots of keys"));
    assert!(e.contains(&format!("line {writes}: cannot read `Cumulative writes: 38K writes, lots of keys`")), "{e}");
    let event = lines.iter().position(|l| l.contains("table_file_creation")).unwrap() + 1;
    let e = error(&with(
        event,
        "2026/12/02-03:17:32.100840 9608 EVENT_LOG_v1 {\"event\": \"table_file_creation\", \"file_size\": ",
    ));
    assert!(e.contains(&format!("line {event}: table_file_creation event is not JSON")), "{e}");
    assert!(error("").contains("line 1: the LOG has no stats dump"));
}

#[test]
fn the_options_printed_at_open_read_as_an_options_file() {
    let log = parse(include_str!("fixtures/rocksdb-log/mixgraph.LOG")).unwrap();
    let o = log.logged_options.as_ref().unwrap();
    assert_eq!(o.line, 106);
    assert_eq!(o.filter_policy.as_deref(), Some("bloomfilter"));
    // The run's tables: filter bytes less 5 per filter, × 8, over the keys filtered.
    let t = &log.tables;
    let bits = (t.filter_bytes as f64 - 5.0 * t.filter_files as f64) * 8.0 / t.filter_entries as f64;
    assert!(t.filter_files > 0 && (bits - 10.0).abs() < 0.1, "{t:?}");
    assert_eq!((o.filter_bits_per_key, o.filter_bits_measured), (Some(10.0), true));
    for line in [
        "  write_buffer_size=1048576\n",
        "  max_bytes_for_level_base=4194304\n",
        "  target_file_size_base=1048576\n",
        "  level0_file_num_compaction_trigger=4\n",
        "  level_compaction_dynamic_level_bytes=0\n",
        "  compaction_style=kCompactionStyleLevel\n",
        "  compression=kNoCompression\n",
        "  max_bytes_for_level_multiplier=10.000000\n",
        "  block_size=4096\n",
        "  cache_index_and_filter_blocks=0\n",
        "  index_type=kBinarySearch\n",
        "  format_version=5\n",
        "  filter_policy=bloomfilter:10:false\n",
    ] {
        assert!(o.text.contains(line), "{line:?} not in\n{}", o.text);
    }
    // The multiplier's per-level list (`max_bytes_for_level_multiplier_addtl[0]`) is not carried.
    assert!(!o.text.contains("addtl"));
    // A LOG cut to its dumps (as statistics.LOG) has none.
    assert_eq!(parse(STATS).unwrap().logged_options, None);
}

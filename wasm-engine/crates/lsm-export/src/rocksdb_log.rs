//! A RocksDB LOG (the info log RocksDB writes next to the database) read for its evidence: the
//! last stats dump ("------- DUMPING STATS -------", written every `stats_dump_period_sec`) and,
//! when `statistics` is on, the "STATISTICS:" block RocksDB logs right after it; plus the
//! `table_file_creation` events' table properties, which give exact key and value sizes.
//!
//! The text is RocksDB 7.8's (`db/internal_stats.cc`, `monitoring/statistics.cc`,
//! `util/string_util.cc`):
//! - every log line starts with a timestamp `2026/12/02-03:17:41.364243 <thread> `; a stats dump
//!   is one log line whose message runs over many untimestamped lines;
//! - the DB stats: `Cumulative writes: 38K writes, 38K keys, 38K commit groups, 1.0 writes per
//!   commit group, ingest: 0.00 GB, 0.52 MB/s` (counts by `NumberToHumanString`: exact below
//!   10,000, then thousands `K`, millions `M`, billions `G`, truncated), `Cumulative WAL: …`,
//!   `Cumulative stall: 00:00:0.000 H:M:S, 0.0 percent`;
//! - per column family `** Compaction Stats [cf] **`, a header (`Level Files Size Score …`), a
//!   dashed line, one row per level then `Sum` and `Int` (sizes by `BytesToHumanString`, "832.17
//!   KB"; `Files` as "files/being compacted"; `KeyIn`/`KeyDrop` human counts), a blank line; then a
//!   second table by `Priority`, skipped; `Stalls(count): 0 level0_slowdown, …`; `Block cache
//!   <name> capacity: 8.00 MB usage: …` and `Block cache entry stats(count,size,portion):
//!   DataBlock(2005,7.96 MB,99.5%) …` (when the cache has collected them);
//! - statistics: every ticker `rocksdb.x COUNT : n`, then every histogram `rocksdb.x P50 : f P95 :
//!   f P99 : f P100 : f COUNT : n SUM : n`.
//!
//! Nothing is read half: a dump cut off (the LOG copied while RocksDB wrote it, or truncated) is an
//! error naming the line, never a partial figure.

use serde::Serialize;

use lsm_core::error::Result;

mod lines;
mod logged_options;
mod statistics;
mod stats_text;

use lines::at;

pub use lines::Counts;
pub use logged_options::LoggedOptions;
pub use statistics::{Histogram, Statistics};
pub use stats_text::{BlockCache, ColumnFamilyStats, CumulativeStall, CumulativeWal, CumulativeWrites, LevelStats};

/// The line RocksDB writes to open a stats dump.
const DUMP_MARK: &str = "------- DUMPING STATS -------";

/// What a LOG says, from its last complete stats dump and its table-creation events.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RocksdbLog {
    /// `RocksDB version: 7.8.3`, as the LOG's header says (absent when the header is not there).
    pub version: Option<String>,
    /// The 1-based line of the last dump's `DUMPING STATS` mark.
    pub dump_line: usize,
    /// Stats dumps in the LOG.
    pub dumps: usize,
    /// Seconds since the database opened, at the dump.
    pub uptime_secs: Option<f64>,
    /// `Cumulative writes`.
    pub writes: Option<CumulativeWrites>,
    /// `Cumulative WAL`.
    pub wal: Option<CumulativeWal>,
    /// `Cumulative stall`.
    pub stall: Option<CumulativeStall>,
    /// Each column family's compaction stats, stall counts and block cache, in the dump's order.
    pub column_families: Vec<ColumnFamilyStats>,
    /// The `STATISTICS:` block, when the database ran with `statistics`.
    pub statistics: Option<Statistics>,
    /// The table properties of every `table_file_creation` event in the LOG.
    pub tables: TableFiles,
    /// The default column family's options as the LOG printed them at the last open.
    pub logged_options: Option<LoggedOptions>,
}

/// The table properties of the LOG's `table_file_creation` events, summed.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct TableFiles {
    /// Events read.
    pub files: u64,
    /// `num_entries` summed.
    pub entries: u64,
    /// `raw_key_size` summed: internal keys (user key and RocksDB's 8-byte sequence and type).
    pub raw_key_bytes: u64,
    /// `raw_value_size` summed.
    pub raw_value_bytes: u64,
    /// `file_size` summed.
    pub file_bytes: u64,
    /// `num_data_blocks` summed.
    pub data_blocks: u64,
    /// `num_deletions` summed.
    pub deletions: u64,
    /// `filter_size` summed, over the tables with a filter.
    pub filter_bytes: u64,
    /// `num_filter_entries` summed.
    pub filter_entries: u64,
    /// Tables with a filter.
    pub filter_files: u64,
}

impl RocksdbLog {
    /// The `default` column family's stats, or the first one's.
    pub fn default_family(&self) -> Option<&ColumnFamilyStats> {
        self.column_families.iter().find(|c| c.name == "default").or(self.column_families.first())
    }

    /// A ticker's count, when statistics are on and the ticker is printed.
    pub fn ticker(&self, name: &str) -> Option<u64> {
        self.statistics.as_ref().and_then(|s| s.tickers.get(name).copied())
    }
}

/// Reads a LOG's text: its last stats dump (which must be complete), the statistics after it,
/// and every table-creation event. A LOG with no stats dump is an error (RocksDB writes one every
/// `stats_dump_period_sec`, 600 s by default).
pub fn parse(text: &str) -> Result<RocksdbLog> {
    let lines: Vec<&str> = text.lines().collect();
    let mut log = RocksdbLog::default();
    let mut marks = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.contains(DUMP_MARK) {
            marks.push(i);
        } else if log.version.is_none()
            && let Some(v) = line.split("RocksDB version: ").nth(1)
        {
            log.version = Some(v.trim().to_string());
        }
        if line.contains("EVENT_LOG_v1") && line.contains("\"table_file_creation\"") {
            read_table_event(line, i + 1, &mut log.tables)?;
        }
    }
    let Some(&last) = marks.last() else {
        return Err(at(
            lines.len().max(1),
            "the LOG has no stats dump (\"------- DUMPING STATS -------\"); RocksDB writes one every \
             stats_dump_period_sec (600 s by default): give a LOG that ran at least that long",
        ));
    };
    log.dumps = marks.len();
    log.dump_line = last + 1;
    // A final line without its newline was cut while being written.
    let cut_mid_line = !text.is_empty() && !text.ends_with('\n');
    if cut_mid_line && lines.len() > last {
        return Err(at(lines.len(), "the LOG ends mid-line (truncated while RocksDB wrote it?)"));
    }
    // What a complete statistics block holds, from the dump before, to tell a block cut at a line
    // boundary from a whole one.
    let expected = match marks.len() {
        n if n >= 2 => statistics::shape(&lines, marks[n - 2], last),
        _ => None,
    };
    let (dump, end) = stats_text::read(&lines, last)?;
    log.uptime_secs = dump.uptime_secs;
    log.writes = dump.writes;
    log.wal = dump.wal;
    log.stall = dump.stall;
    log.column_families = dump.column_families;
    if let Some(start) = end {
        log.statistics = Some(statistics::read(&lines, start, expected)?);
    }
    let t = &log.tables;
    let filters =
        logged_options::FilterSizes { bytes: t.filter_bytes, entries: t.filter_entries, files: t.filter_files };
    log.logged_options = logged_options::read(&lines, filters);
    Ok(log)
}

/// Adds one `table_file_creation` event's table properties.
fn read_table_event(line: &str, number: usize, tables: &mut TableFiles) -> Result<()> {
    let json = line.find('{').map(|i| &line[i..]).unwrap_or("");
    let event: serde_json::Value =
        serde_json::from_str(json).map_err(|e| at(number, format!("table_file_creation event is not JSON: {e}")))?;
    let props = &event["table_properties"];
    let field = |v: &serde_json::Value, name: &str| -> Result<u64> {
        v[name].as_u64().ok_or_else(|| at(number, format!("table_file_creation event has no integer `{name}`")))
    };
    tables.files += 1;
    tables.file_bytes += field(&event, "file_size")?;
    tables.entries += field(props, "num_entries")?;
    tables.raw_key_bytes += field(props, "raw_key_size")?;
    tables.raw_value_bytes += field(props, "raw_value_size")?;
    tables.data_blocks += field(props, "num_data_blocks")?;
    tables.deletions += field(props, "num_deletions")?;
    // Absent or 0 without a filter.
    let filter_bytes = props["filter_size"].as_u64().unwrap_or(0);
    if filter_bytes > 0 {
        tables.filter_files += 1;
        tables.filter_bytes += filter_bytes;
        tables.filter_entries += props["num_filter_entries"].as_u64().unwrap_or(0);
    }
    Ok(())
}

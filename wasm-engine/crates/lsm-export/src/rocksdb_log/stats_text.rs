//! The stats dump's own text (`InternalStats::DumpDBStats` and `DumpCFStats`): DB stats, each
//! column family's compaction table, stall counts and block cache line.

use serde::Serialize;

use super::lines::{Counts, at, human_bytes, human_count, timestamped};
use lsm_core::error::Result;

/// `Cumulative writes: 38K writes, 38K keys, 38K commit groups, 1.0 writes per commit group,
/// ingest: 0.00 GB, 0.52 MB/s`. Counts as RocksDB rounds them (exact below 10,000).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CumulativeWrites {
    /// Write batches.
    pub writes: u64,
    /// Keys written (puts, deletes, merges).
    pub keys: u64,
    /// Commit groups.
    pub commit_groups: u64,
    /// Bytes the writes carried, GB (1024³), two decimals.
    pub ingest_gb: f64,
}

/// `Cumulative WAL: 38K writes, 0 syncs, 38340.00 writes per sync, written: 0.00 GB, 0.52 MB/s`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CumulativeWal {
    /// Writes to the WAL.
    pub writes: u64,
    /// Syncs of the WAL.
    pub syncs: u64,
    /// Bytes written to the WAL, GB.
    pub written_gb: f64,
}

/// `Cumulative stall: 00:00:0.000 H:M:S, 0.0 percent`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CumulativeStall {
    /// Time writes were stalled, seconds.
    pub seconds: f64,
    /// Share of the uptime, percent.
    pub percent: f64,
}

/// One row of a compaction table (a level, `Sum` or `Int`).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct LevelStats {
    /// `L0`, `L1`, …, `Sum`, `Int`.
    pub level: String,
    /// Files in the level.
    pub files: u64,
    /// Of those, being compacted.
    pub compacting: u64,
    /// Bytes of the level's files.
    pub size_bytes: f64,
    /// The level's compaction score.
    pub score: f64,
    /// Compaction bytes read, GB (`Read(GB)`).
    pub read_gb: f64,
    /// Compaction bytes written, GB (`Write(GB)`).
    pub write_gb: f64,
    /// Bytes moved without rewriting, GB (`Moved(GB)`).
    pub moved_gb: f64,
    /// `W-Amp`.
    pub write_amp: f64,
    /// Compactions (`Comp(cnt)`).
    pub compactions: u64,
    /// Entries compactions read (`KeyIn`, human count).
    pub key_in: u64,
    /// Entries compactions dropped (`KeyDrop`, human count).
    pub key_drop: u64,
}

/// The dump's `Block cache …` lines.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct BlockCache {
    /// `capacity`, bytes.
    pub capacity_bytes: f64,
    /// `usage`, bytes.
    pub usage_bytes: f64,
    /// `Block cache entry stats`: role → (entries, bytes), when the cache collected them.
    pub entries: std::collections::BTreeMap<String, (u64, f64)>,
}

/// What a dump says of one column family.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ColumnFamilyStats {
    /// The column family (`default`).
    pub name: String,
    /// Its levels, `L0` first, as the table lists them (levels without files are not printed).
    pub levels: Vec<LevelStats>,
    /// The `Sum` row.
    pub sum: LevelStats,
    /// `Stalls(count)`: name → count (`level0_slowdown`, …, `interval total count`).
    pub stalls: Counts,
    /// The block cache line, when the table's cache printed one.
    pub block_cache: Option<BlockCache>,
}

/// A stats dump's DB stats and column families, as the dump's text says them (`writes` is always
/// there once `read` returns it).
#[derive(Debug, Default)]
pub(super) struct StatsDump {
    pub uptime_secs: Option<f64>,
    pub writes: Option<CumulativeWrites>,
    pub wal: Option<CumulativeWal>,
    pub stall: Option<CumulativeStall>,
    pub column_families: Vec<ColumnFamilyStats>,
}

/// Reads the dump whose mark is at index `mark`; gives it and the index of the `STATISTICS:`
/// line after it, if any. The dump must hold its DB stats, and every column family's table must
/// end and be followed by its stall counts: a LOG ending before that is cut off.
pub(super) fn read(lines: &[&str], mark: usize) -> Result<(StatsDump, Option<usize>)> {
    let mut log = StatsDump::default();
    let mut i = mark + 1;
    let mut statistics = None;
    // A family's table read, waiting for its `Stalls(count)` line.
    let mut open_family: Option<usize> = None;
    while i < lines.len() {
        let line = lines[i];
        let n = i + 1;
        if timestamped(line) {
            if line.trim_end().ends_with("STATISTICS:") {
                statistics = Some(i);
                break;
            }
            i += 1;
            continue;
        }
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("Uptime(secs): ") {
            if log.uptime_secs.is_none() {
                log.uptime_secs = Some(first_number(rest).ok_or_else(|| at(n, "Uptime(secs) has no number"))?);
            }
        } else if let Some(rest) = t.strip_prefix("Cumulative writes: ") {
            log.writes = Some(writes(rest).ok_or_else(|| at(n, format!("cannot read `Cumulative writes: {rest}`")))?);
        } else if let Some(rest) = t.strip_prefix("Cumulative WAL: ") {
            log.wal = Some(wal(rest).ok_or_else(|| at(n, format!("cannot read `Cumulative WAL: {rest}`")))?);
        } else if let Some(rest) = t.strip_prefix("Cumulative stall: ") {
            log.stall = Some(stall(rest).ok_or_else(|| at(n, format!("cannot read `Cumulative stall: {rest}`")))?);
        } else if let Some(rest) = t.strip_prefix("** Compaction Stats [") {
            let name = rest.strip_suffix("] **").ok_or_else(|| at(n, "a compaction stats title must end in `] **`"))?;
            let header = lines.get(i + 1).map(|h| h.trim()).unwrap_or("");
            if header.starts_with("Level") {
                if let Some(open) = open_family {
                    return Err(at(n, format!("the compaction stats of line {open} have no `Stalls(count)` line")));
                }
                let (family, next) = table(lines, i, name)?;
                log.column_families.push(family);
                open_family = Some(n);
                i = next;
                continue;
            }
            // The second table, by thread priority, repeats the sums: skipped to its blank line.
            i += 1;
            while i < lines.len() && !lines[i].trim().is_empty() && !timestamped(lines[i]) {
                i += 1;
            }
            continue;
        } else if let Some(rest) = t.strip_prefix("Stalls(count): ") {
            let family =
                log.column_families.last_mut().ok_or_else(|| at(n, "stall counts before any compaction stats"))?;
            family.stalls = stall_counts(rest).ok_or_else(|| at(n, format!("cannot read `Stalls(count): {rest}`")))?;
            open_family = None;
        } else if let Some(rest) = t.strip_prefix("Block cache entry stats(count,size,portion): ") {
            let cache = log.column_families.last_mut().and_then(|f| f.block_cache.as_mut());
            let cache = cache.ok_or_else(|| at(n, "block cache entry stats without a block cache line"))?;
            cache.entries = entry_stats(rest).ok_or_else(|| at(n, format!("cannot read the entry stats `{rest}`")))?;
        } else if let Some(rest) = t.strip_prefix("Block cache ") {
            let family = log
                .column_families
                .last_mut()
                .ok_or_else(|| at(n, "a block cache line before any compaction stats"))?;
            family.block_cache =
                Some(block_cache(rest).ok_or_else(|| at(n, format!("cannot read `Block cache {rest}`")))?);
        }
        i += 1;
    }
    let end = lines.len();
    if log.writes.is_none() {
        return Err(at(end, format!("the stats dump of line {} has no `Cumulative writes` (cut off?)", mark + 1)));
    }
    if log.column_families.is_empty() {
        return Err(at(end, format!("the stats dump of line {} has no compaction stats (cut off?)", mark + 1)));
    }
    if let Some(open) = open_family {
        return Err(at(
            end,
            format!(
                "the stats dump of line {} ends before the `Stalls(count)` of the compaction stats at line {open} (cut off?)",
                mark + 1
            ),
        ));
    }
    Ok((log, statistics))
}

/// The level table titled at index `title`: its rows up to the blank line; gives the family and
/// the index after the table.
fn table(lines: &[&str], title: usize, name: &str) -> Result<(ColumnFamilyStats, usize)> {
    let header: Vec<&str> = lines[title + 1].split_whitespace().collect();
    let col = |c: &str| header.iter().position(|h| *h == c);
    let dashes = title + 2;
    if !lines.get(dashes).is_some_and(|l| l.trim_start().starts_with("---")) {
        return Err(at(dashes + 1, "the compaction stats header must be followed by a dashed line"));
    }
    let mut family = ColumnFamilyStats { name: name.to_string(), ..ColumnFamilyStats::default() };
    let mut i = dashes + 1;
    let mut sum = None;
    loop {
        let Some(line) = lines.get(i) else {
            return Err(at(
                lines.len(),
                format!("the compaction stats of line {} end before their blank line (cut off?)", title + 1),
            ));
        };
        if line.trim().is_empty() {
            break;
        }
        if timestamped(line) {
            return Err(at(i + 1, "a log line inside the compaction stats table"));
        }
        let mut cells: Vec<&str> = line.split_whitespace().collect();
        // Size is printed as two words ("832.17 KB"): one cell of the header.
        let mut size = 0.0;
        if cells.len() > 3 {
            let unit = cells.remove(3);
            size = human_bytes(cells[2], unit)
                .ok_or_else(|| at(i + 1, format!("size `{} {unit}` is not a size", cells[2])))?;
        }
        if cells.len() != header.len() {
            return Err(at(
                i + 1,
                format!("a compaction stats row has {} cells; the header has {}", cells.len(), header.len()),
            ));
        }
        let mut row = level_row(&cells, &col)
            .ok_or_else(|| at(i + 1, format!("cannot read the compaction stats row `{}`", line.trim())))?;
        row.size_bytes = size;
        match row.level.as_str() {
            "Sum" => sum = Some(row),
            "Int" => {}
            _ => family.levels.push(row),
        }
        i += 1;
    }
    family.sum =
        sum.ok_or_else(|| at(i + 1, format!("the compaction stats of line {} have no `Sum` row", title + 1)))?;
    Ok((family, i + 1))
}

/// One row by the header's column names.
fn level_row(cells: &[&str], col: &dyn Fn(&str) -> Option<usize>) -> Option<LevelStats> {
    let num = |c: &str| -> Option<f64> {
        col(c).map_or(Some(0.0), |i| cells[i].parse::<f64>().ok().filter(|v| v.is_finite()))
    };
    let count = |c: &str| -> Option<u64> { col(c).map_or(Some(0), |i| human_count(cells[i])) };
    let (files, compacting) = cells.get(col("Files")?)?.split_once('/')?;
    Some(LevelStats {
        level: cells.first()?.to_string(),
        files: files.parse().ok()?,
        compacting: compacting.parse().ok()?,
        size_bytes: 0.0,
        score: num("Score")?,
        read_gb: num("Read(GB)")?,
        write_gb: num("Write(GB)")?,
        moved_gb: num("Moved(GB)")?,
        write_amp: num("W-Amp")?,
        compactions: count("Comp(cnt)")?,
        key_in: count("KeyIn")?,
        key_drop: count("KeyDrop")?,
    })
}

fn first_number(text: &str) -> Option<f64> {
    text.split_whitespace().next()?.parse().ok()
}

/// "38K writes, 38K keys, 38K commit groups, 1.0 writes per commit group, ingest: 0.00 GB, …".
fn writes(text: &str) -> Option<CumulativeWrites> {
    let parts: Vec<&str> = text.split(", ").collect();
    let lead = |i: usize, what: &str| -> Option<u64> { human_count(parts.get(i)?.strip_suffix(what)?.trim()) };
    Some(CumulativeWrites {
        writes: lead(0, "writes")?,
        keys: lead(1, "keys")?,
        commit_groups: lead(2, "commit groups")?,
        ingest_gb: parts.get(4)?.strip_prefix("ingest: ")?.strip_suffix(" GB")?.parse().ok()?,
    })
}

/// "38K writes, 0 syncs, 38340.00 writes per sync, written: 0.00 GB, 0.52 MB/s".
fn wal(text: &str) -> Option<CumulativeWal> {
    let parts: Vec<&str> = text.split(", ").collect();
    Some(CumulativeWal {
        writes: human_count(parts.first()?.strip_suffix(" writes")?)?,
        syncs: human_count(parts.get(1)?.strip_suffix(" syncs")?)?,
        written_gb: parts.get(3)?.strip_prefix("written: ")?.strip_suffix(" GB")?.parse().ok()?,
    })
}

/// "00:00:0.000 H:M:S, 0.0 percent".
fn stall(text: &str) -> Option<CumulativeStall> {
    let (time, percent) = text.split_once(" H:M:S, ")?;
    let mut hms = time.split(':');
    let h: f64 = hms.next()?.parse().ok()?;
    let m: f64 = hms.next()?.parse().ok()?;
    let s: f64 = hms.next()?.parse().ok()?;
    let seconds = h * 3600.0 + m * 60.0 + s;
    let percent: f64 = percent.strip_suffix(" percent")?.parse().ok()?;
    (seconds.is_finite() && percent.is_finite()).then_some(CumulativeStall { seconds, percent })
}

/// "0 level0_slowdown, …, 0 memtable_slowdown, interval 0 total count".
fn stall_counts(text: &str) -> Option<Counts> {
    let mut counts = Counts::new();
    for part in text.split(", ") {
        let words: Vec<&str> = part.split_whitespace().collect();
        let at_number = words.iter().position(|w| w.parse::<u64>().is_ok())?;
        let name: Vec<&str> = words.iter().enumerate().filter(|(i, _)| *i != at_number).map(|(_, w)| *w).collect();
        counts.insert(name.join(" "), words[at_number].parse().ok()?);
    }
    Some(counts)
}

/// "LRUCache@0x56…#9608 capacity: 8.00 MB usage: 0.09 KB table_size: 256 …".
fn block_cache(text: &str) -> Option<BlockCache> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let size_after = |label: &str| -> Option<f64> {
        let i = words.iter().position(|w| *w == label)?;
        human_bytes(words.get(i + 1)?, words.get(i + 2)?)
    };
    Some(BlockCache {
        capacity_bytes: size_after("capacity:")?,
        usage_bytes: size_after("usage:")?,
        ..BlockCache::default()
    })
}

/// "DataBlock(2005,7.96 MB,99.5%) Misc(1,0.00 KB,0%)".
fn entry_stats(text: &str) -> Option<std::collections::BTreeMap<String, (u64, f64)>> {
    let mut entries = std::collections::BTreeMap::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let open = rest.find('(')?;
        let close = rest.find(')')?;
        if close < open {
            return None;
        }
        let name = rest[..open].trim();
        let mut fields = rest[open + 1..close].split(',');
        let count: u64 = fields.next()?.parse().ok()?;
        let (number, unit) = fields.next()?.split_once(' ')?;
        entries.insert(name.to_string(), (count, human_bytes(number, unit)?));
        rest = rest[close + 1..].trim_start();
    }
    Some(entries)
}

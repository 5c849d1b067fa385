//! The options a LOG printed when the database opened, as an OPTIONS file's text: the design for
//! a LOG given without its OPTIONS file (the page's "Import your LOG" with the LOG alone, or a LOG
//! copied away from its directory). RocksDB 7.8 prints, at every open, each column family's
//! options (`--------------- Options for column family [default]:`, then one timestamped
//! `Options.<name>: <value>` line each) and its table factory's (`table_factory options:` and
//! untimestamped `  <name>: <value>` lines).
//!
//! Only the options the import reads for the design are carried, translated where the LOG prints
//! them otherwise than an OPTIONS file (`NoCompression` for `kNoCompression`, `index_type` by
//! number; booleans stay 0/1, which the import reads as false/true). The LOG names the filter
//! policy without its bits per key; those come from the tables' `filter_size` over
//! `num_filter_entries` (less each filter's 5-byte trailer).

use serde::Serialize;

/// The opening line of a column family's options.
const CF_MARK: &str = "Options for column family [default]:";
/// Column family options whose LOG value is the OPTIONS file's (numbers, enum names) or a 0/1 boolean.
const CF_OPTIONS: &[&str] = &[
    "write_buffer_size",
    "max_write_buffer_number",
    "min_write_buffer_number_to_merge",
    "num_levels",
    "level0_file_num_compaction_trigger",
    "level0_slowdown_writes_trigger",
    "level0_stop_writes_trigger",
    "target_file_size_base",
    "target_file_size_multiplier",
    "max_bytes_for_level_base",
    "max_bytes_for_level_multiplier",
    "level_compaction_dynamic_level_bytes",
    "compaction_style",
    "compaction_pri",
    "optimize_filters_for_hits",
];
/// Table options carried as the LOG prints them (numbers; booleans as 0/1, which the import reads).
const TABLE_OPTIONS: &[&str] = &[
    "block_size",
    "block_restart_interval",
    "metadata_block_size",
    "format_version",
    "cache_index_and_filter_blocks",
    "pin_l0_filter_and_index_blocks_in_cache",
    "pin_top_level_index_and_filter",
    "partition_filters",
    "whole_key_filtering",
    "no_block_cache",
];
/// Bits per key assumed for a named filter when no table shows its size.
const ASSUMED_FILTER_BITS: f64 = 10.0;
/// Bytes each full filter carries besides its bits (RocksDB's 5-byte metadata trailer).
const FILTER_TRAILER_BYTES: f64 = 5.0;

/// The options the LOG printed last for the default column family, as an OPTIONS file.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct LoggedOptions {
    /// The LOG's line that opens the printout (1-based).
    pub line: usize,
    /// An OPTIONS file (`[DBOptions]`, `[CFOptions "default"]`, `[TableOptions/BlockBasedTable
    /// "default"]`) holding the options carried.
    pub text: String,
    /// Filter bits per key, when the LOG names a Bloom or Ribbon filter policy.
    pub filter_bits_per_key: Option<f64>,
    /// Whether those bits come from the tables' filter sizes (otherwise 10 is assumed: no table
    /// the LOG saw created had a filter).
    pub filter_bits_measured: bool,
    /// The filter policy as the LOG names it (`bloomfilter`, `nullptr`), when it does.
    pub filter_policy: Option<String>,
}

/// The `(name, value)` of an `Options.<name>: <value>` line, or of a table option's `  <name>: <value>`.
fn option_of(line: &str) -> Option<(&str, &str)> {
    let rest = match line.find("Options.") {
        Some(i) => &line[i + "Options.".len()..],
        None => line.strip_prefix("  ")?.trim_start(),
    };
    let (name, value) = rest.split_once(':')?;
    Some((name.trim(), value.trim()))
}

/// The OPTIONS file's compression name for the LOG's (`CompressionTypeToString`).
fn compression_name(logged: &str) -> Option<&'static str> {
    Some(match logged {
        "NoCompression" => "kNoCompression",
        "Snappy" => "kSnappyCompression",
        "Zlib" => "kZlibCompression",
        "BZip2" => "kBZip2Compression",
        "LZ4" => "kLZ4Compression",
        "LZ4HC" => "kLZ4HCCompression",
        "Xpress" => "kXpressCompression",
        "ZSTD" => "kZSTD",
        _ => return None,
    })
}

/// `BlockBasedTableOptions::IndexType` by the number the LOG prints.
fn index_type_name(logged: &str) -> Option<&'static str> {
    Some(match logged {
        "0" => "kBinarySearch",
        "1" => "kHashSearch",
        "2" => "kTwoLevelIndexSearch",
        "3" => "kBinarySearchWithFirstKey",
        _ => return None,
    })
}

/// The filters of the LOG's table-creation events, summed (`filter_size`, `num_filter_entries`,
/// tables with a filter).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct FilterSizes {
    pub(super) bytes: u64,
    pub(super) entries: u64,
    pub(super) files: u64,
}

/// Filter bits per key of the LOG's tables: their filters' bits over the keys they hold.
fn filter_bits(f: FilterSizes) -> Option<f64> {
    (f.entries > 0 && f.files > 0)
        .then(|| {
            let bits = (f.bytes as f64 - FILTER_TRAILER_BYTES * f.files as f64) * 8.0 / f.entries as f64;
            // Bits per key are set as a number with a decimal at most; cache-line rounding adds a little.
            (bits * 10.0).round() / 10.0
        })
        .filter(|b| *b > 0.0)
}

/// The options of the last printout of the default column family's options, or `None` when the
/// LOG holds none (a LOG rolled over since the open).
pub(super) fn read(lines: &[&str], filters: FilterSizes) -> Option<LoggedOptions> {
    let start = lines.iter().rposition(|l| l.contains(CF_MARK))?;
    let mut cf = Vec::new();
    let mut table = Vec::new();
    let mut policy = None;
    for line in &lines[start + 1..] {
        let timestamped = line.as_bytes().first().is_some_and(u8::is_ascii_digit);
        if timestamped && !line.contains("Options.") && !line.contains("table_factory options:") {
            break;
        }
        let line = match line.split_once("table_factory options:") {
            Some((_, first)) => first,
            None => line,
        };
        let Some((name, value)) = option_of(line) else { continue };
        if name == "compression" {
            if let Some(c) = compression_name(value) {
                cf.push(format!("compression={c}"));
            }
        } else if CF_OPTIONS.contains(&name) {
            cf.push(format!("{name}={value}"));
        } else if name == "index_type" {
            if let Some(t) = index_type_name(value) {
                table.push(format!("index_type={t}"));
            }
        } else if name == "filter_policy" {
            policy = Some(value.to_string());
        } else if TABLE_OPTIONS.contains(&name) {
            table.push(format!("{name}={value}"));
        }
    }
    // A filter named, its bits from the tables' filters, or RocksDB's customary 10 when no table
    // the LOG saw had one.
    let filtered = policy.as_deref().is_some_and(|p| p.starts_with("bloomfilter") || p.starts_with("ribbonfilter"));
    let measured = filter_bits(filters);
    let bits = filtered.then(|| measured.unwrap_or(ASSUMED_FILTER_BITS));
    if let (Some(p), Some(b)) = (&policy, bits) {
        if p.starts_with("bloomfilter") {
            table.push(format!("filter_policy=bloomfilter:{b}:false"));
        } else {
            table.push(format!("filter_policy=ribbonfilter:{b}"));
        }
    }
    let indent = |xs: &[String]| xs.iter().map(|x| format!("  {x}\n")).collect::<String>();
    let text = format!(
        "[DBOptions]\n[CFOptions \"default\"]\n{}[TableOptions/BlockBasedTable \"default\"]\n{}",
        indent(&cf),
        indent(&table)
    );
    Some(LoggedOptions {
        line: start + 1,
        text,
        filter_bits_per_key: bits,
        filter_bits_measured: bits.is_some() && measured.is_some(),
        filter_policy: policy,
    })
}

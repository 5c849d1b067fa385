//! The `STATISTICS:` block (`StatisticsImpl::ToString`): every ticker as `name COUNT : n`, then
//! every histogram as `name P50 : f P95 : f P99 : f P100 : f COUNT : n SUM : n`.

use std::collections::BTreeMap;

use serde::Serialize;

use super::lines::{at, timestamped};
use lsm_core::error::Result;

/// One histogram's summary as RocksDB prints it.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Histogram {
    /// Median.
    pub p50: f64,
    /// 95th percentile.
    pub p95: f64,
    /// 99th percentile.
    pub p99: f64,
    /// Largest value.
    pub p100: f64,
    /// Values recorded.
    pub count: u64,
    /// Their sum.
    pub sum: u64,
}

/// The tickers and histograms of the block.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Statistics {
    /// Ticker name (`rocksdb.block.cache.data.miss`) → count.
    pub tickers: BTreeMap<String, u64>,
    /// Histogram name (`rocksdb.db.get.micros`) → summary.
    pub histograms: BTreeMap<String, Histogram>,
}

enum Entry {
    Ticker(String, u64),
    Histogram(String, Histogram),
}

/// One line of the block, or `None` when it is neither form.
fn entry(line: &str) -> Option<Entry> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        [name, "COUNT", ":", n] => Some(Entry::Ticker(name.to_string(), n.parse().ok()?)),
        [
            name,
            "P50",
            ":",
            p50,
            "P95",
            ":",
            p95,
            "P99",
            ":",
            p99,
            "P100",
            ":",
            p100,
            "COUNT",
            ":",
            count,
            "SUM",
            ":",
            sum,
        ] => {
            let f = |s: &str| s.parse::<f64>().ok().filter(|v| v.is_finite());
            Some(Entry::Histogram(
                name.to_string(),
                Histogram {
                    p50: f(p50)?,
                    p95: f(p95)?,
                    p99: f(p99)?,
                    p100: f(p100)?,
                    count: count.parse().ok()?,
                    sum: sum.parse().ok()?,
                },
            ))
        }
        _ => None,
    }
}

/// The lines of the statistics block whose `STATISTICS:` line is at index `start`: up to the next
/// log line or the end.
fn block<'a>(lines: &[&'a str], start: usize) -> Vec<(usize, &'a str)> {
    lines[start + 1..]
        .iter()
        .enumerate()
        .take_while(|(_, l)| !timestamped(l))
        .map(|(k, l)| (start + 2 + k, *l))
        .collect()
}

/// How many tickers and histograms the statistics block between two dump marks holds, if it has
/// one: what a complete block of this LOG holds.
pub(super) fn shape(lines: &[&str], from: usize, to: usize) -> Option<(usize, usize)> {
    let start = (from..to).find(|&i| timestamped(lines[i]) && lines[i].trim_end().ends_with("STATISTICS:"))?;
    let (mut tickers, mut histograms) = (0, 0);
    for (_, line) in block(&lines[..to], start) {
        match entry(line) {
            Some(Entry::Ticker(..)) => tickers += 1,
            Some(Entry::Histogram(..)) => histograms += 1,
            None => {}
        }
    }
    Some((tickers, histograms))
}

/// Reads the block whose `STATISTICS:` line is at index `start`. Every line must be a ticker or a
/// histogram, tickers first. A block that runs to the end of the LOG must end with a histogram
/// and, when an earlier dump printed statistics, hold as many of each: otherwise it was cut off.
pub(super) fn read(lines: &[&str], start: usize, expected: Option<(usize, usize)>) -> Result<Statistics> {
    let mut stats = Statistics::default();
    let mut last = start + 1;
    let mut ended_by_log_line = false;
    for (n, line) in block(lines, start) {
        last = n;
        if line.trim().is_empty() {
            continue;
        }
        match entry(line) {
            Some(Entry::Ticker(name, count)) => {
                if !stats.histograms.is_empty() {
                    return Err(at(n, format!("ticker `{name}` after the histograms")));
                }
                stats.tickers.insert(name, count);
            }
            Some(Entry::Histogram(name, h)) => {
                stats.histograms.insert(name, h);
            }
            None => {
                return Err(at(
                    n,
                    format!(
                        "`{}` is neither a ticker (`name COUNT : n`) nor a histogram (`name P50 : … SUM : n`)",
                        line.trim()
                    ),
                ));
            }
        }
    }
    if lines.get(last).is_some_and(|l| timestamped(l)) {
        ended_by_log_line = true;
    }
    if !ended_by_log_line {
        let cut = |what: String| {
            Err(at(last, format!("the statistics of line {} end with the LOG {what} (cut off?)", start + 1)))
        };
        if stats.histograms.is_empty() {
            return cut("before any histogram".into());
        }
        if let Some((tickers, histograms)) = expected
            && (stats.tickers.len(), stats.histograms.len()) != (tickers, histograms)
        {
            return cut(format!(
                "after {} tickers and {} histograms; the dump before printed {tickers} and {histograms}",
                stats.tickers.len(),
                stats.histograms.len()
            ));
        }
    }
    if stats.tickers.is_empty() {
        return Err(at(start + 1, "a STATISTICS block without tickers"));
    }
    Ok(stats)
}

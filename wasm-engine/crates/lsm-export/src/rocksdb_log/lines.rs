//! The line-level reading every part of a LOG shares: where an error points, what starts a log
//! line, and RocksDB's human-readable numbers.

use std::collections::BTreeMap;

use lsm_core::error::Error;

/// The document name errors carry.
const DOCUMENT: &str = "RocksDB LOG";

/// A parse error at a 1-based line.
pub(super) fn at(line: usize, message: impl std::fmt::Display) -> Error {
    Error::Parse { document: DOCUMENT.into(), message: format!("line {line}: {message}") }
}

/// Whether a line starts with RocksDB's log timestamp, `YYYY/MM/DD-HH:MM:SS.ffffff `.
pub(super) fn timestamped(line: &str) -> bool {
    let b = line.as_bytes();
    if b.len() < 20 {
        return false;
    }
    let digit = |i: usize| b[i].is_ascii_digit();
    (0..4).all(digit)
        && b[4] == b'/'
        && (5..7).all(digit)
        && b[7] == b'/'
        && (8..10).all(digit)
        && b[10] == b'-'
        && (11..13).all(digit)
        && b[13] == b':'
        && (14..16).all(digit)
        && b[16] == b':'
        && (17..19).all(digit)
        && b[19] == b'.'
}

/// `BytesToHumanString`'s "832.17 KB" as bytes (KB, MB, GB, TB are powers of 1024).
pub(super) fn human_bytes(number: &str, unit: &str) -> Option<f64> {
    let n: f64 = number.parse().ok().filter(|n: &f64| n.is_finite() && *n >= 0.0)?;
    let scale = match unit {
        "B" => 1.0,
        "KB" => 1024.0,
        "MB" => 1024.0 * 1024.0,
        "GB" => 1024.0 * 1024.0 * 1024.0,
        "TB" => 1024.0 * 1024.0 * 1024.0 * 1024.0,
        _ => return None,
    };
    Some(n * scale)
}

/// `NumberToHumanString`'s "38K" as a number (K, M, G are powers of 1000, the printed value
/// truncated: "38K" is 38,000 to 38,999).
pub(super) fn human_count(text: &str) -> Option<u64> {
    let (digits, scale) = match text.as_bytes().last()? {
        b'K' => (&text[..text.len() - 1], 1_000),
        b'M' => (&text[..text.len() - 1], 1_000_000),
        b'G' => (&text[..text.len() - 1], 1_000_000_000),
        _ => (text, 1),
    };
    digits.parse::<u64>().ok()?.checked_mul(scale)
}

/// A map from names to counts, for the stall counters.
pub type Counts = BTreeMap<String, u64>;

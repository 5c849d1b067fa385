//! The range checks every document's validation makes, so their messages read alike: "must be
//! an integer in [lo, hi], got v" and "must be a number in [lo, hi], got v", the field named.

use std::fmt::Display;

use crate::error::{Error, Result};

/// `Error::Invalid` for `field` unless the whole number `value` is in `range` (inclusive); `unit`
/// (empty, or " (bytes)", " (RocksDB's num_levels, L0 included)") says what the range counts.
/// The integer range check of every document, so their messages read alike.
pub fn check_integer<T: PartialOrd + Display>(field: &str, value: T, range: (T, T), unit: &str) -> Result<()> {
    let (lo, hi) = range;
    if value < lo || value > hi {
        return Err(Error::invalid(field, format!("must be an integer in [{lo}, {hi}]{unit}, got {value}")));
    }
    Ok(())
}

/// `Error::Invalid` for `field` unless `value` is finite and in [lo, hi] (inclusive): the
/// range check of both documents, so their messages read alike.
pub fn check_range(field: &str, value: f64, lo: f64, hi: f64) -> Result<()> {
    if !value.is_finite() || value < lo || value > hi {
        return Err(Error::invalid(field, format!("must be a number in [{lo}, {hi}], got {value}")));
    }
    Ok(())
}

//! Reading one OPTIONS section: each option's value parsed as RocksDB writes it (sizes with
//! k/m/g/t suffixes, booleans), a bad value named with its line, and the options no one read.

use lsm_core::error::{Error, Result};
use rustc_hash::FxHashSet;

use crate::ini::Section;

/// Options read from one section, remembering which were used.
pub(super) struct Reader<'a> {
    section: Option<&'a Section>,
    used: FxHashSet<&'static str>,
}

impl<'a> Reader<'a> {
    pub(super) fn new(section: Option<&'a Section>) -> Reader<'a> {
        Reader { section, used: FxHashSet::default() }
    }

    pub(super) fn raw(&mut self, name: &'static str) -> Option<&'a str> {
        self.used.insert(name);
        self.section.and_then(|s| s.get(name))
    }

    /// Parse `name`'s value; a bad value's error names the option and its line in the file.
    pub(super) fn parsed<T>(
        &mut self,
        name: &'static str,
        parse: impl Fn(&str, &str) -> Result<T>,
    ) -> Result<Option<T>> {
        self.used.insert(name);
        let Some(entry) = self.section.and_then(|s| s.entry(name)) else { return Ok(None) };
        parse(name, &entry.value).map(Some).map_err(|e| match e {
            Error::Invalid { field, message } => {
                Error::Invalid { field: format!("{field} (line {})", entry.line), message }
            }
            other => other,
        })
    }

    pub(super) fn size(&mut self, name: &'static str) -> Result<Option<u64>> {
        self.parsed(name, parse_size)
    }

    pub(super) fn float(&mut self, name: &'static str) -> Result<Option<f64>> {
        self.parsed(name, |name, v| {
            v.parse::<f64>().map_err(|_| Error::invalid(name, format!("must be a number, got \"{v}\"")))
        })
    }

    pub(super) fn boolean(&mut self, name: &'static str) -> Result<Option<bool>> {
        self.parsed(name, parse_bool)
    }

    /// Names in the section this import did not use, as `Section.name`.
    pub(super) fn unused(&self, prefix: &str, out: &mut Vec<String>) {
        if let Some(s) = self.section {
            let mut seen = FxHashSet::default();
            for e in &s.entries {
                if !self.used.contains(e.name.as_str()) && seen.insert(e.name.as_str()) {
                    out.push(format!("{prefix}.{}", e.name));
                }
            }
        }
    }
}

/// An unsigned size with RocksDB's optional k/m/g/t suffix (powers of 1024).
pub(super) fn parse_size(name: &str, v: &str) -> Result<u64> {
    let bad =
        || Error::invalid(name, format!("must be an integer in [0, 2^64 − 1] (k/m/g/t suffix allowed), got \"{v}\""));
    let (digits, shift) = match v.chars().last() {
        Some('k' | 'K') => (&v[..v.len() - 1], 10),
        Some('m' | 'M') => (&v[..v.len() - 1], 20),
        Some('g' | 'G') => (&v[..v.len() - 1], 30),
        Some('t' | 'T') => (&v[..v.len() - 1], 40),
        _ => (v, 0),
    };
    let n: u64 = digits.trim().parse().map_err(|_| bad())?;
    n.checked_mul(1u64 << shift).ok_or_else(bad)
}

pub(super) fn parse_bool(name: &str, v: &str) -> Result<bool> {
    match v {
        "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        _ => Err(Error::invalid(name, format!("must be true or false, got \"{v}\""))),
    }
}

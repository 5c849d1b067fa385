//! What a format could not express of a document: the exporters (RocksDB OPTIONS, db_bench) and
//! the importers and writers of workloads (YCSB properties) all report it in this one shape, so
//! the UI lists them the same way next to every export.

use std::fmt;

use serde::Serialize;

/// How much of a setting survived the export.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum WarningKind {
    /// The target has no equivalent; the setting is gone.
    Dropped,
    /// Expressed, but with a rounded value.
    Rounded,
    /// Expressed by a setting whose behaviour is close but not the same.
    Approximated,
}

impl fmt::Display for WarningKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            WarningKind::Dropped => "dropped",
            WarningKind::Rounded => "rounded",
            WarningKind::Approximated => "approximated",
        })
    }
}

/// One thing the target could not express exactly. `field` names the design (or workload)
/// field, in the same notation as validation errors (`levels[2].size_ratio`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Warning {
    /// The field that lost something, in validation-error notation (`levels[2].size_ratio`).
    pub field: String,
    /// How much of the setting survived.
    pub kind: WarningKind,
    /// What the target does instead, for people (e.g. the value it rounded to).
    pub message: String,
}

impl Warning {
    /// A warning about `field`.
    pub fn new(field: impl Into<String>, kind: WarningKind, message: impl Into<String>) -> Warning {
        Warning { field: field.into(), kind, message: message.into() }
    }

    /// The comment line the exported file carries for this warning.
    pub fn comment_line(&self, prefix: &str) -> String {
        format!("{prefix} LOSSY {} {}: {}", self.kind, self.field, self.message)
    }
}

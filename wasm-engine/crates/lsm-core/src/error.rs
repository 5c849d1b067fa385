//! Every failure the engine can report. Messages are meant for people: they name the field, file
//! or offset involved and, for bad input, the allowed range.

use thiserror::Error;

#[derive(Debug, Error, Clone, PartialEq)]
pub enum Error {
    /// A configuration, workload or report document is malformed or out of range.
    #[error("{field}: {message}")]
    Invalid { field: String, message: String },

    /// A document could not be parsed at all (not JSON, wrong types, ...).
    #[error("{document}: {message}")]
    Parse { document: String, message: String },

    /// Stored bytes do not match their checksum or structure.
    #[error("corruption in {file} at offset {offset}: {message}")]
    Corruption { file: String, offset: u64, message: String },

    /// The storage backend failed (I/O error, missing file, ...).
    #[error("storage error on {file}: {message}")]
    Storage { file: String, message: String },

    /// The storage backend has no room left (quota exceeded, disk full, no free file slot).
    #[error("storage full while writing {file}: {message}")]
    StorageFull { file: String, message: String },

    /// A key or value is larger than the engine can store.
    #[error("{field}: {message}")]
    TooLarge { field: String, message: String },

    /// The engine was used in a way its state does not allow (e.g. after a fatal error).
    #[error("{0}")]
    State(String),
}

impl Error {
    pub fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        Error::Invalid { field: field.into(), message: message.into() }
    }

    pub fn corruption(file: impl Into<String>, offset: u64, message: impl Into<String>) -> Self {
        Error::Corruption { file: file.into(), offset, message: message.into() }
    }

    pub fn storage(file: impl Into<String>, message: impl Into<String>) -> Self {
        Error::Storage { file: file.into(), message: message.into() }
    }
}

pub type Result<T> = std::result::Result<T, Error>;

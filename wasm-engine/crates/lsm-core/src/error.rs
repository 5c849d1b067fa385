//! Every failure the engine can report. Messages are meant for people: they name the field, file
//! or offset involved and, for bad input, the allowed range.

use thiserror::Error;

/// Every failure the crates report; its `Display` is the message people see.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum Error {
    /// A configuration, workload or report document is malformed or out of range.
    #[error("{field}: {message}")]
    Invalid {
        /// The field, in its document's notation (`levels[0].size_ratio`, `mix`).
        field: String,
        /// What is wrong, and what is allowed.
        message: String,
    },

    /// A document could not be parsed at all (not JSON, wrong types, ...).
    #[error("{document}: {message}")]
    Parse {
        /// Which document or format (`EngineConfig`, `Workload`, `RocksDB OPTIONS`, a trace's name).
        document: String,
        /// The parser's message, with a line number where the format has lines.
        message: String,
    },

    /// Stored bytes do not match their checksum or structure.
    #[error("corruption in {file} at offset {offset}: {message}")]
    Corruption {
        /// The stored file's name.
        file: String,
        /// Byte offset in the file of the record, block or page found bad.
        offset: u64,
        /// What does not match (checksum, structure).
        message: String,
    },

    /// The storage backend failed (I/O error, missing file, ...).
    #[error("storage error on {file}: {message}")]
    Storage {
        /// The file the backend was working on.
        file: String,
        /// The backend's own description of the failure.
        message: String,
    },

    /// The storage backend has no room left (quota exceeded, disk full, no free file slot).
    #[error("storage full while writing {file}: {message}")]
    StorageFull {
        /// The file being written.
        file: String,
        /// The backend's own description (which quota or limit).
        message: String,
    },

    /// A key or value is larger than the engine can store.
    #[error("{field}: {message}")]
    TooLarge {
        /// `key`, or `entry` for key and value together.
        field: String,
        /// The size and the limit, in bytes.
        message: String,
    },

    /// The engine was used in a way its state does not allow (e.g. after a fatal error).
    #[error("{0}")]
    State(String),
}

impl Error {
    /// An `Error::Invalid`: `field` in its document's notation, `message` saying what is allowed.
    pub fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        Error::Invalid { field: field.into(), message: message.into() }
    }

    /// An `Error::Corruption` at byte `offset` of `file`.
    pub fn corruption(file: impl Into<String>, offset: u64, message: impl Into<String>) -> Self {
        Error::Corruption { file: file.into(), offset, message: message.into() }
    }

    /// An `Error::Storage` from the backend, while working on `file`.
    pub fn storage(file: impl Into<String>, message: impl Into<String>) -> Self {
        Error::Storage { file: file.into(), message: message.into() }
    }
}

/// Result of every fallible function of the workspace.
pub type Result<T> = std::result::Result<T, Error>;

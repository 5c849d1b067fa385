//! Tests only: see `tests/documents.rs`.

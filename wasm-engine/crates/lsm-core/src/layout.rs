//! The byte layout of a data page that sizes depend on: the engine writes pages in it
//! (`lsm_engine::page`) and the tuner's predictor counts entries per page with it.

/// `[u32 checksum of the rest][u16 count]` at the start of every page.
pub const PAGE_HEADER: usize = 6;
/// `[u16 key length][u32 value length, or u32::MAX for a tombstone]` before every entry.
pub const ENTRY_HEADER: usize = 6;

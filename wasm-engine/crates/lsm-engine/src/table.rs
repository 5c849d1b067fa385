//! A table (SST file): immutable, written once in key order. A sorted run is one table (merges by
//! whole level) or several with disjoint key ranges (merges by file).
//!
//! Layout (integers little-endian):
//! ```text
//! data pages × P   see `page`
//! filter block     directory + one block per module (see `filter`)
//! index block      [u32 P]{[u16 len][first key of page p]}*      (fence pointers)
//! range block      [u16 len][smallest key][u16 len][largest key]
//! footer (112 B)   magic, version, page size, counts, block offsets, lengths and checksums
//! ```
//! The footer and the range block are read when a table is opened; the fence pointers and the
//! filter are either pinned in memory then, or fetched through the block cache on demand.
//!
//! With RocksDB's partitioned metadata (`index_type=kTwoLevelIndexSearch`, `partition_filters`;
//! `lsm_core::partition` says where the cuts fall), filter partitions follow the data and the
//! filter block is their top level; index partitions follow the filter block and the index
//! block is their top level (`partitions`). Footer flags say which. Partitions always go through
//! the block cache (unless pinned with level 0's); the top levels are pinned or cached.

mod blocks;
mod builder;
mod format;
mod handover;
mod partitions;
mod reader;

pub(crate) use blocks::read_page_into_cache;
pub use builder::TableBuilder;
pub use format::{Fences, table_file_name};
pub(crate) use handover::Handover;
pub use partitions::{FilterTop, IndexTop};
pub use reader::{Block, ReadCtx, Table, TableCache};

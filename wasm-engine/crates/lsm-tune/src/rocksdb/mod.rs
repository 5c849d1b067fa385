//! The RocksDB wing: a design RocksDB runs (imported from its OPTIONS file) tuned for RocksDB is
//! searched over RocksDB's own knobs (`knobs`: memtable size, level-0 trigger, level base,
//! multiplier, dynamic level bytes, target file size, Bloom or Ribbon bits,
//! `optimize_filters_for_hits`, `cache_index_and_filter_blocks`, leveled or universal compaction
//! and its size amplification) within one memory budget as RocksDB charges it (`memory`:
//! memtables × `max_write_buffer_number`, plus the block cache, plus index and filter blocks held
//! outside it), the block cache taking what each move leaves. Designs are ranked by their
//! steady-state cost (`steady`: each write at its share of the flushes and merges it causes); the
//! gain carries the model's stated error (`crate::verdict`), and inside it the verdict is "keep your
//! design". Every candidate exports to RocksDB OPTIONS with no warning the current design has not
//! (`diff`). RocksDB's OPTIONS hold one `filter_policy`, so per-level bits (Monkey's) are searched
//! only when the user accepts a plugin (`per_level`): the shipped C++ policy gives each level its
//! bits, and the result says the plugin is required.

mod data;
mod diff;
pub mod knobs;
pub mod memory;
pub mod option_change;
pub mod per_level;
mod search;
mod steady;

pub use option_change::OptionChange;
pub(crate) use search::search;

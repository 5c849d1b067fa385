//! One RocksDB option a recommendation changes, as the result states it (a leaf, so the result
//! document can hold it without depending on the search that builds it).

use serde::{Deserialize, Serialize};

/// One RocksDB option the recommendation changes.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct OptionChange {
    /// Its OPTIONS section (`CFOptions "default"`, `TableOptions/BlockBasedTable "default"`).
    pub section: String,
    /// RocksDB's name for it.
    pub option: String,
    /// The value exported for the current design.
    pub from: String,
    /// The value exported for the recommended one.
    pub to: String,
    /// Why, with the figures it moved.
    pub reason: String,
    /// Its share of the predicted gain: the cost its move took off, added one at a time in the
    /// order the search took them, over the whole gain. The block cache, which takes what the
    /// budget leaves, has none of its own: its effect is in the moves that freed or took memory.
    pub share: f64,
}

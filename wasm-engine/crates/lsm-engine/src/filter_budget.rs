//! The filter a new table gets: the bits from the shared sizing policy
//! (`lsm_core::filter_budget`, which the tuner's predictor replays), the modules and the
//! structure (Bloom, Ribbon, modular) from the design's filter kind.

use crate::filter::FilterSpec;
use lsm_core::config::{BITS_PER_KEY_RANGE, EngineConfig, FilterKind};
use lsm_core::filter_budget::{Held, TreeView, table_bits};
use lsm_core::filter_kinds::structure_for;

/// The filter a new table of `entries` (`entry_bytes`, `empty_probes` estimated) gets, given the
/// job's `outputs` so far; and, under Mnemosyne, the new `log C` the engine keeps for lookups.
pub(crate) fn filter_spec(
    config: &EngineConfig,
    view: &TreeView,
    outputs: &[Held],
    entries: u64,
    entry_bytes: u64,
    empty_probes: f64,
) -> (FilterSpec, Option<Option<f64>>) {
    let f = &config.filter;
    let modules = if f.kind == FilterKind::Modular { f.modules } else { 1 };
    let (bits_per_key, log_c) = table_bits(config, view, outputs, entries, entry_bytes, empty_probes);
    let structure = structure_for(f, view.flush, view.dest_level);
    (FilterSpec { bits_per_key: bits_per_key.clamp(0.0, BITS_PER_KEY_RANGE.1), modules, structure }, log_c)
}

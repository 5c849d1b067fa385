//! The filter a new table gets: the bits from the shared sizing policy
//! (`lsm_core::filter_budget`, which the tuner's predictor replays), the modules and the
//! structure (Bloom, Ribbon, modular) from the design's filter kind.

use crate::filter::FilterSpec;
use lsm_core::config::{EngineConfig, FilterKind};
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
    // `table_bits` already holds the bits within `BITS_PER_KEY_RANGE` (`allocated_bits` clamps).
    let (bits_per_key, log_c) = table_bits(config, view, outputs, entries, entry_bytes, empty_probes);
    let structure = structure_for(f, view.flush, view.dest_level);
    (FilterSpec { bits_per_key, modules, structure }, log_c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsm_core::config::{Allocation, BITS_PER_KEY_RANGE};

    #[test]
    fn a_table_gets_the_shared_policys_bits_held_within_the_range() {
        // Monkey at the largest budget, a level-1 run of 10 entries beside 1,000,000 staying
        // entries that hold no filter: the budget left (64 × 1,000,010 / 10) and Monkey's share
        // for a small upper level are both far above 64 bits/key, so the range's top holds it.
        let c = EngineConfig::uniform_shape(10.0, 1, Allocation::Monkey, BITS_PER_KEY_RANGE.1);
        let staying = vec![Held { filter_bits: 0.0, entries: 1e6, entry_bytes: 100_000_000, empty_probes: 0.0 }];
        let view = TreeView { dest_level: 1, deepest: 4, staying, ..TreeView::default() };
        let (spec, _) = filter_spec(&c, &view, &[], 10, 1_000, 0.0);
        assert_eq!(spec.bits_per_key, BITS_PER_KEY_RANGE.1);
        assert_eq!(spec.bits_per_key, table_bits(&c, &view, &[], 10, 1_000, 0.0).0);
        // Uniform: the configured bits, as the policy gives them.
        let u = EngineConfig::uniform_shape(10.0, 1, Allocation::Uniform, 7.5);
        assert_eq!(filter_spec(&u, &view, &[], 10, 1_000, 0.0).0.bits_per_key, 7.5);
    }
}

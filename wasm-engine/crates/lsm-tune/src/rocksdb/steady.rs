//! The steady-state cost of writing to a RocksDB-shaped design: every write pays its share of the
//! flushes and merges it will cause, whether or not the run phase lasts long enough to trigger
//! them, as Monkey (Eq 10) and Dostoevsky price leveling and tiering; and the space the tree takes
//! over the live data.
//!
//! * Leveled (RocksDB's `kCompactionStyleLevel`): a byte is written once by the flush, then once
//!   on arriving in each level and, while the level fills, takes part in (t − 1)/2 more merges, t
//!   being the level's size over the batch that arrives in it (Monkey's (T − 1)/2 per level with
//!   leveling, T the size ratio): (t + 1)/2 bytes written per byte per level. Level 0's files
//!   arrive in the first level `level0_file_num_compaction_trigger` at a time; every deeper level
//!   receives the whole level above. Level sizes are the tree's at its data size: static targets
//!   filled from the top, the last level holding the rest, or, with dynamic level bytes, the last
//!   level holding (T − 1)/T of the data and each level above a T-th of the one below.
//! * Universal (`kCompactionStyleUniversal`): tiering. A byte is written by the flush, once per
//!   tier of merges (tiers grow by the trigger's width, Dostoevsky's (T − 1)/T ≈ 1 per level) up to
//!   the newer data the size-amplification limit lets pile up, and once per full merge, which
//!   comes every `max_size_amplification_percent`% of the data written.
//!
//! Write amplification here counts bytes written (RocksDB's flush and compaction output bytes);
//! the pages it reads to merge are not counted, as the proof's I/O per operation counts none.

use lsm_core::config::EngineConfig;

/// The data a design holds, as the steady-state formulas need it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Data {
    /// Live entries (keys) when the workload ends.
    pub(crate) keys: f64,
    /// Key + value bytes of one entry.
    pub(crate) entry_bytes: f64,
}

/// The steady-state figures of one design.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SteadyShape {
    /// Bytes written by flushes and merges per byte the user writes.
    pub(crate) write_amp: f64,
    /// Bytes the tree holds per byte of live data.
    pub(crate) space_amp: f64,
    /// Share of the data in the last level (what `optimize_filters_for_hits` leaves unfiltered).
    pub(crate) last_level_share: f64,
}

/// Bytes one flush writes: the memtable's entries (RocksDB's arena charges each write its
/// arena bytes, `buffer_trigger: arena`) times their key + value bytes.
pub(crate) fn flushed_bytes(config: &EngineConfig, key_bytes: u64, value_bytes: u64) -> f64 {
    let entry = (key_bytes + value_bytes) as f64;
    match config.buffer_trigger {
        lsm_core::config::BufferTrigger::Arena => {
            let threshold = lsm_core::arena::flush_threshold(
                config.buffer_bytes,
                lsm_core::arena::arena_block_bytes(config.buffer_bytes),
            );
            let per_write = lsm_core::arena::entry_arena_bytes(key_bytes, value_bytes).max(1);
            (threshold / per_write).max(1) as f64 * entry
        }
        _ => config.buffer_bytes as f64,
    }
}

/// Bytes per level below level 0 at the data size: static targets from the first level down
/// (`base`, then × `multiplier`) filled in turn, or dynamic ones from the last level up.
pub(crate) fn leveled_sizes(data: f64, base: f64, multiplier: f64, dynamic: bool) -> Vec<f64> {
    let mut sizes = Vec::new();
    if data <= 0.0 {
        return sizes;
    }
    if dynamic {
        let t = multiplier.max(1.0 + 1e-9);
        let mut rest = data;
        let mut level = data * (t - 1.0) / t;
        while rest > 0.0 {
            // The base level: the first target at or under max_bytes_for_level_base takes the rest.
            if level <= base || sizes.len() >= 64 {
                sizes.push(rest);
                break;
            }
            sizes.push(level.min(rest));
            rest -= level.min(rest);
            level /= t;
        }
        sizes.reverse();
        return sizes;
    }
    let mut target = base.max(1.0);
    let mut rest = data;
    while rest > 0.0 {
        let here = if sizes.len() >= 63 { rest } else { rest.min(target) };
        sizes.push(here);
        rest -= here;
        target *= multiplier.max(1.0);
    }
    sizes
}

/// Write amplification of a leveled tree with `sizes` below level 0, whose first level receives
/// `l0_batch` bytes at a time: 1 for the flush, (t + 1)/2 per level.
pub(crate) fn leveled_write_amp(sizes: &[f64], l0_batch: f64) -> f64 {
    let mut wa = 1.0;
    let mut arriving = l0_batch.max(1.0);
    for &s in sizes {
        let t = (s / arriving).max(1.0);
        wa += (t + 1.0) / 2.0;
        arriving = s.max(1.0);
    }
    wa
}

/// Write amplification of universal compaction: the flush, one write per tier of `width`-fold
/// merges up to the newer data `size_amp_percent` allows, and the full merges.
pub(crate) fn universal_write_amp(data: f64, flushed: f64, width: f64, size_amp_percent: f64) -> f64 {
    let newer = data * size_amp_percent.max(1.0) / 100.0;
    let tiers = if newer > flushed { (newer / flushed.max(1.0)).ln() / width.max(2.0).ln() } else { 0.0 };
    1.0 + tiers.max(0.0) + 100.0 / size_amp_percent.max(1.0)
}

/// The steady-state shape of a RocksDB-shaped `config` holding `data`.
pub(crate) fn steady_shape(config: &EngineConfig, data: &Data, key_bytes: u64, value_bytes: u64) -> SteadyShape {
    let n = data.keys * data.entry_bytes;
    let flushed = flushed_bytes(config, key_bytes, value_bytes);
    if let Some(u) = &config.compaction.universal {
        let amp = f64::from(u.max_size_amplification_percent);
        let width = f64::from(u.level0_file_num_compaction_trigger.min(u.max_merge_width).max(2));
        return SteadyShape {
            write_amp: universal_write_amp(n, flushed, width, amp),
            // Between two full merges the newer runs grow from nothing to amp% of the oldest.
            space_amp: 1.0 + amp / 200.0,
            last_level_share: 1.0 / (1.0 + amp / 200.0),
        };
    }
    let trigger = f64::from(config.levels.first().map_or(1, |l| l.max_runs) + 1);
    let base = config.buffer_bytes as f64 * config.levels.first().map_or(4.0, |l| l.size_ratio);
    let multiplier = config.levels.get(1).map_or(10.0, |l| l.size_ratio);
    let sizes = leveled_sizes(n, base, multiplier, config.compaction.dynamic_level_bytes);
    let last = sizes.last().copied().unwrap_or(0.0);
    SteadyShape {
        write_amp: leveled_write_amp(&sizes, trigger * flushed),
        // Upper levels full at their targets over the last level's live data (at most the data).
        space_amp: if last > 0.0 { (n + (n - last).min(n)) / n } else { 1.0 },
        last_level_share: if n > 0.0 { last / n } else { 0.0 },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_leveled_tree_pays_the_flush_and_t_plus_1_over_2_per_level() {
        // 1,000 MB with a 256 MB base and multiplier 10 (static): 256 MB in L1, the other 744 MB in L2.
        let mb = 1e6;
        let sizes = leveled_sizes(1000.0 * mb, 256.0 * mb, 10.0, false);
        assert_eq!(sizes.len(), 2);
        assert!((sizes[0] - 256.0 * mb).abs() < 1.0 && (sizes[1] - 744.0 * mb).abs() < 1.0, "{sizes:?}");
        // Level 0 compacts 4 files of 64 MB into L1: t = 256/256 = 1 → 1; L2: t = 744/256 → (2.906 + 1)/2.
        let wa = leveled_write_amp(&sizes, 4.0 * 64.0 * mb);
        let formula = 1.0 + (1.0 + 1.0) / 2.0 + (744.0 / 256.0 + 1.0) / 2.0;
        assert!((wa - formula).abs() < 1e-9, "{wa} vs {formula}");
        assert!((wa - 3.953_125).abs() < 1e-6);
        // A full leveled tree of ratio T: Monkey's (T − 1)/2 merges per level plus the arrival.
        let full = leveled_write_amp(&[100.0, 1_000.0, 10_000.0], 100.0);
        assert!((full - (1.0 + 1.0 + 2.0 * 11.0 / 2.0)).abs() < 1e-9, "{full}");
    }

    #[test]
    fn dynamic_levels_fill_from_the_last_level_up() {
        let sizes = leveled_sizes(1_000.0, 50.0, 10.0, true);
        // 900 in the last level, 90 above it, the base level (at most 50) takes the last 10.
        assert_eq!(sizes.len(), 3, "{sizes:?}");
        assert!((sizes[2] - 900.0).abs() < 1e-9 && (sizes[1] - 90.0).abs() < 1e-9 && (sizes[0] - 10.0).abs() < 1e-9);
        assert!((sizes.iter().sum::<f64>() - 1_000.0).abs() < 1e-9);
    }

    #[test]
    fn universal_writes_less_than_leveling_for_the_same_data() {
        let mb = 1e6;
        let uni = universal_write_amp(1000.0 * mb, 64.0 * mb, 4.0, 200.0);
        // 2,000 MB of newer data over 64 MB flushes: log4(31.25) tiers, plus a full merge per 2× the data.
        let formula = 1.0 + (2000.0f64 / 64.0).ln() / 4.0f64.ln() + 0.5;
        assert!((uni - formula).abs() < 1e-9, "{uni}");
        let leveled = leveled_write_amp(&leveled_sizes(1000.0 * mb, 256.0 * mb, 10.0, true), 256.0 * mb);
        assert!(uni < leveled + 1.0, "universal {uni} vs leveled {leveled}");
    }
}

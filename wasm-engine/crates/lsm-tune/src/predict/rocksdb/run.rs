//! The run priced on the replayed file tree: the load's flushes replayed, the process between
//! load and run applied (`process`: Close's flush, the open compaction), and the run's moments
//! priced as its own flushes change the tree.

use lsm_core::config::EngineConfig;

use super::super::super::writes::WriteSequence;
use super::super::files::{File, FileTree};
use super::super::process::{Between, Device, Scenario};
use super::super::twin::TwinFigures;
use super::{Moment, Pricer, RunClock, Sizes};

/// The replayed tree's result: the twin's figures and the four class costs.
pub(in crate::predict) struct Priced {
    pub(in crate::predict) figures: TwinFigures,
    /// Blocks read per zero-result lookup and per non-zero-result lookup (the pages of index and
    /// filter blocks read with them), per scan; pages written
    /// per run write.
    pub(in crate::predict) class_costs: [f64; 4],
    pub(in crate::predict) tree: Vec<Vec<f64>>,
    pub(in crate::predict) flushes: u64,
    pub(in crate::predict) merges: u64,
    pub(in crate::predict) pages_written: f64,
    /// Level-0 files as the run began (after Close's flush, with a restart).
    pub(in crate::predict) level0_at_open: f64,
    /// The run's operations that met the tree as opened, before its compaction installed.
    pub(in crate::predict) open_compaction_ops: f64,
}

/// The workload as the pricing needs it.
#[derive(Clone, Copy)]
pub(in crate::predict) struct Reads {
    /// Shares of the operations: zero-result lookups, non-zero-result lookups, scans.
    pub(in crate::predict) shares: [f64; 3],
    /// Share of the operations that update (or delete) an existing key.
    pub(in crate::predict) updates: f64,
    /// Keys a scan spans (of the key space's ids).
    pub(in crate::predict) span: f64,
    /// Ids of the key space.
    pub(in crate::predict) key_space: f64,
    /// Operations of the run (its cache starts cold).
    pub(in crate::predict) operations: f64,
}

/// Replay `flush_at` (the writes at which the memtable is flushed) on the file tree and price the
/// run at `samples` moments, under the process `scenario` (`process`): with a restart, Close's
/// flush and the load's flushes background work had not compacted (`Scenario::lag`) sit in level
/// 0 at open, and the run's first operations (as long as the open compaction lasts on `device`)
/// read that tree; the rest read the tree once its compactions are done.
pub(in crate::predict) fn price(
    config: &EngineConfig,
    writes: &WriteSequence,
    sizes: &Sizes,
    flush_at: &[f64],
    reads: &Reads,
    samples: usize,
    (scenario, device): (&Scenario, Device),
) -> Priced {
    let Reads { shares, updates, span, key_space, operations } = *reads;
    let mut tree = FileTree::new(config, writes, sizes.entry_bytes);
    let preload = writes.preload;
    let mut buffer_lo = 0.0;
    let load_flushes = flush_at.iter().take_while(|&&at| at <= preload).count();
    let restart = scenario.between == Between::Restart;
    let held = if restart { scenario.lag.min(load_flushes) } else { 0 };
    for (i, &at) in flush_at[..load_flushes].iter().enumerate() {
        if i + held < load_flushes {
            tree.flush(buffer_lo, at);
        } else {
            tree.flush_held(buffer_lo, at);
        }
        buffer_lo = at;
    }
    let user = |n: f64| n * sizes.entry_bytes;
    let load_bytes = sizes.table_bytes(config, tree.entries_written, tree.files_written);
    let files = |t: &FileTree<'_>| t.levels.iter().map(Vec::len).collect::<Vec<_>>();
    let mut figures = TwinFigures {
        load_bytes_written_per_user_byte: if preload > 0.0 { load_bytes / user(preload) } else { 0.0 },
        files_after_load: files(&tree),
        ..TwinFigures::default()
    };
    // Close flushes the memtable; what is due then runs at open, in the background. Until it
    // installs, reads meet `opened` (None: nothing was due, or no restart).
    let mut opened: Option<FileTree<'_>> = None;
    if restart {
        if preload > buffer_lo {
            tree.flush_held(buffer_lo, preload);
            buffer_lo = preload;
        }
        // Close's flush was the load's; what runs at open runs in the run's process, and the run's
        // counters see its writes (the referee's run phase measures them).
        tree.reset_counters();
        let before = tree.clone();
        tree.maintain();
        if tree.levels[0].len() != before.levels[0].len() {
            opened = Some(before);
        }
    } else {
        tree.reset_counters();
    }
    let level0_at_open = opened.as_ref().unwrap_or(&tree).levels[0].len() as f64;
    let run_writes = writes.end - preload;
    let clock = RunClock { preload, writes: run_writes, operations };
    let pricer = Pricer { config, writes, sizes, shares, updates, span, key_space, clock };
    let n = samples.max(1);
    // The open compaction: level 0 and the level it merges into, read and written once.
    let open_ops = opened.as_ref().map_or(0.0, |old| {
        let bytes = |l: &[File]| l.iter().map(|f| f.entries * sizes.entry_bytes).sum::<f64>();
        let below = old.levels.iter().skip(1).find(|l| !l.is_empty()).map_or(0.0, |l| bytes(l));
        let compacted = 2.0 * (bytes(&old.levels[0]) + below);
        let m = pricer.moment(old, buffer_lo, preload, (0.0, operations / n as f64));
        // Blocks an operation reads from storage on the opened tree (writes read none).
        let blocks = shares[0] * (m.missing[1] + m.metadata_pages[0])
            + shares[1] * (m.existing[1] + m.metadata_pages[1])
            + shares[2] * m.scan[1];
        scenario.open_compaction_ops(compacted, blocks, device, operations)
    });
    // Moment i stands for the run's operations [i, i + 1) · N / n.
    let mut moments = (0..n)
        .map(|i| {
            let (from, to) = (i as f64 / n as f64, (i as f64 + 1.0) / n as f64);
            (preload + run_writes * (i as f64 + 0.5) / n as f64, (from * operations, to * operations))
        })
        .peekable();
    let mut sum = Moment::default();
    for &at in flush_at[load_flushes..].iter().chain(std::iter::once(&f64::INFINITY)) {
        while let Some((now, ops)) = moments.next_if(|&(now, _)| now < at) {
            // The share of this moment's operations that still meet the tree as opened.
            let old_share =
                if ops.1 > ops.0 { ((open_ops.min(ops.1) - ops.0) / (ops.1 - ops.0)).clamp(0.0, 1.0) } else { 0.0 };
            let m = pricer.moment(&tree, buffer_lo, now, ops);
            let m = match &opened {
                Some(old) if old_share > 0.0 => m.blend(&pricer.moment(old, buffer_lo, now, ops), old_share),
                _ => m,
            };
            sum.add(&m, 1.0 / n as f64);
        }
        if at.is_finite() {
            tree.flush(buffer_lo, at);
            buffer_lo = at;
        }
    }
    let [zero, existing, range] = shares;
    let lookups = zero + existing;
    let per_lookup = |i: usize| {
        if lookups > 0.0 { (zero * sum.missing[i] + existing * sum.existing[i]) / lookups } else { 0.0 }
    };
    let accessed = lookups * per_lookup(0) + range * sum.scan[0];
    let read = lookups * per_lookup(1) + range * sum.scan[1];
    let run_bytes = sizes.table_bytes(config, tree.entries_written, tree.files_written);
    figures.data_blocks_per_lookup = per_lookup(1);
    figures.filters_per_lookup = per_lookup(2);
    figures.metadata_blocks_per_lookup =
        if lookups > 0.0 { (zero * sum.metadata[0] + existing * sum.metadata[1]) / lookups } else { 0.0 };
    figures.data_blocks_per_scan = if range > 0.0 { sum.scan[1] } else { 0.0 };
    figures.cache_hit_rate = if accessed > 0.0 { 1.0 - read / accessed } else { 0.0 };
    figures.run_bytes_written_per_user_byte = if run_writes > 0.0 { run_bytes / user(run_writes) } else { 0.0 };
    figures.files_after_run = files(&tree);
    let pages_written = run_bytes / f64::from(config.page_bytes);
    let tree_entries = tree
        .levels
        .iter()
        .enumerate()
        .map(|(l, files)| {
            if l == 0 || files.is_empty() {
                files.iter().map(|f| f.entries.round()).collect()
            } else {
                vec![files.iter().map(|f| f.entries).sum::<f64>().round()]
            }
        })
        .collect();
    Priced {
        figures,
        // A lookup's pages: its data blocks, and the pages of the index and filter blocks
        // (partitions) it reads when they are not cached.
        class_costs: [
            sum.missing[1] + sum.metadata_pages[0],
            sum.existing[1] + sum.metadata_pages[1],
            sum.scan[1],
            if run_writes > 0.0 { pages_written / run_writes } else { 0.0 },
        ],
        tree: tree_entries,
        flushes: tree.flushes,
        merges: tree.merges,
        pages_written,
        level0_at_open,
        open_compaction_ops: open_ops,
    }
}

//! The process model's pricing (`predict::process`): a restart prices the tree the open
//! compaction leaves after the tree Close left, weighted by the operations each lasts; the
//! range holds the point; `continue` is the lab's pricing, with no range.

// Test code: a failed expectation is the test failing, with its message.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use lsm_core::config::EngineConfig;
use lsm_core::workload::Workload;
use lsm_tune::predict::{Between, Device, Prediction, Predictor, Process, SAMPLES, Scenario, predict};

/// RocksDB 7.8's defaults at 1/64 of their sizes (1 MiB memtables, level-0 trigger 4, 4 MiB
/// level base, 1 MiB files, no filter) and no block cache: every probed block is read.
fn design() -> EngineConfig {
    let text = "[Version]\n  rocksdb_version=7.8.3\n[DBOptions]\n  create_if_missing=true\n[CFOptions \"default\"]\n  \
                write_buffer_size=1048576\n  max_bytes_for_level_base=4194304\n  target_file_size_base=1048576\n\
                [TableOptions/BlockBasedTable \"default\"]\n  block_cache={capacity=131072}\n";
    let mut c = lsm_export::import(text, lsm_export::ImportKind::Rocksdb).expect("imports").config;
    c.block_cache.bytes = 0;
    c
}

/// YCSB C (reads only: the run flushes nothing) on 23,000 records of 1,000 B: the lab's load
/// leaves 3 files in level 0, so Close's flush makes the trigger's 4.
fn reads_only() -> Workload {
    let text = lsm_workload::ycsb::core_workload('c', 23_000, 20_000).expect("core workload");
    lsm_workload::ycsb::from_properties(&text, "workload").expect("properties").workload.engine_view()
}

fn restart(lag: usize, duration_scale: f64) -> Scenario {
    Scenario { between: Between::Restart, lag, duration_scale, threads: 1 }
}

fn data_blocks(p: &Prediction) -> f64 {
    p.twin.as_ref().expect("rocksdb-shaped").data_blocks_per_lookup
}

#[test]
fn a_restart_prices_the_opened_tree_for_the_open_compaction_and_the_compacted_tree_after() {
    let (config, w) = (design(), reads_only());
    let device = Device { block_read_us: 100.0, cpu_us: 10.0 };
    let p = Predictor::new(&w).unwrap().with_process(Process::default(), device);
    let operations = w.operations as f64;
    // The point's level 0 at open (the load's last 3 flushes held, Close's flush on them), the
    // compaction instant (all operations on the compacted tree) and endless (all on the opened).
    let point = p.predict_scenario(&config, SAMPLES, restart(3, 1.0)).unwrap();
    let instant = p.predict_scenario(&config, SAMPLES, restart(3, 0.0)).unwrap();
    let endless = p.predict_scenario(&config, SAMPLES, restart(3, 1e9)).unwrap();
    let open = data_blocks(&endless) - data_blocks(&instant);
    // No filter, no cache: every level-0 file of the opened tree is one more block read per
    // lookup of a key below it; after the compaction level 0 is empty. The opened tree holds
    // at least the trigger (4) files, so the compacted tree saves more than 3 reads a lookup.
    assert!(open > 3.0, "opened {} vs compacted {} blocks per lookup", data_blocks(&endless), data_blocks(&instant));
    // Reads only and no cache: each tree costs the same at every moment, so the point is the two
    // weighted by the operations the compaction lasts, exactly.
    let twin = point.twin.as_ref().unwrap();
    let _ = twin;
    let f = {
        // The point's compaction operations, from its formula: 2 × (level-0 bytes + level-1
        // bytes) at OPEN_COMPACTION_BYTES_PER_SEC over operations of the opened tree's blocks.
        let range = p.predict(&config, SAMPLES).unwrap().process.expect("a restart's range");
        range.open_compaction_ops[1] / operations
    };
    assert!(f > 0.0 && f < 1.0, "the open compaction lasts {f} of the run");
    let blended = f * endless.expected + (1.0 - f) * instant.expected;
    assert!((point.expected - blended).abs() < 1e-9 * blended.max(1.0), "point {} vs blend {blended}", point.expected);
}

#[test]
fn the_range_holds_the_point_and_continue_keeps_the_labs_pricing() {
    let (config, w) = (design(), reads_only());
    let p = Predictor::new(&w).unwrap().with_process(Process::default(), Device::default());
    let restarted = p.predict(&config, SAMPLES).unwrap();
    let range = restarted.process.clone().expect("a restart's range");
    assert_eq!(range.between, Between::Restart);
    assert_eq!(range.expected[1], restarted.expected);
    assert!(range.range[0] <= restarted.expected && restarted.expected <= range.range[1], "{range:?}");
    // Level 0 at open: the lab's level 0 after the load plus Close's flush (low); at least the
    // trigger (point: the last 3 flushes held); the slowdown trigger's 20 or more (high: 19 held).
    let lab = predict(&config, &w).unwrap();
    let lab_l0 = lab.twin.as_ref().unwrap().files_after_load[0] as f64;
    assert_eq!(lab_l0, 3.0, "the case this test is built on");
    eprintln!("{range:?}: restart {} continue {}", restarted.expected, lab.expected);
    assert_eq!(range.level0_at_open[0], lab_l0 + 1.0, "{range:?}");
    assert!(range.level0_at_open[1] >= 4.0 && range.level0_at_open[1] <= 3.0 + 3.0 + 1.0, "{range:?}");
    assert!(range.level0_at_open[2] >= 20.0 && range.level0_at_open[2] <= 3.0 + 19.0 + 1.0, "{range:?}");
    // The low scenario's compaction (if one is due) is instant; the high's lasts longest.
    assert_eq!(range.open_compaction_ops[0], 0.0);
    assert!(range.open_compaction_ops[2] > range.open_compaction_ops[1], "{range:?}");
    // A read-heavy run after a restart reads fewer level-0 blocks than the lab's tree prices:
    // the compaction at open empties level 0 and the run hardly refills it.
    assert!(
        restarted.expected < lab.expected,
        "restart {} vs continue {}: {range:?} lab L0 {lab_l0}",
        restarted.expected,
        lab.expected
    );
    // Continue: the lab's prediction exactly, and no range.
    let continued = Predictor::new(&w).unwrap().with_process(Process::CONTINUE, Device::default());
    let c = continued.predict(&config, SAMPLES).unwrap();
    assert!(c.process.is_none());
    assert_eq!(c.expected, lab.expected);
    assert_eq!(Predictor::new(&w).unwrap().predict_scenario(&config, SAMPLES, Scenario::continued()).unwrap(), lab);
}

/// The compaction due at open runs in the run's process: its writes are the run's (the referee's
/// run phase counts them), not the load's. Reads only, the run flushes nothing, so the run's
/// pages are the open compaction's alone; the lab's continued run writes none.
#[test]
fn the_open_compactions_writes_are_the_runs() {
    let (config, w) = (design(), reads_only());
    let p = Predictor::new(&w).unwrap().with_process(Process::default(), Device::default());
    let restarted = p.predict(&config, SAMPLES).unwrap();
    let continued = Predictor::new(&w).unwrap().predict(&config, SAMPLES).unwrap();
    assert_eq!(continued.pages_written, 0.0);
    // It rewrites level 0 and the level it merges into: at least level 0's files (the trigger's
    // 4 × 1 MiB memtables), at most every entry once (23,000 × ~1 KB).
    let page = f64::from(config.page_bytes);
    let (least, most) = (4.0 * 1_048_576.0 / page * 0.8, 23_000.0 * 1_100.0 / page);
    assert!(
        restarted.pages_written >= least && restarted.pages_written <= most,
        "{} pages written at open, expected [{least}, {most}]",
        restarted.pages_written
    );
}

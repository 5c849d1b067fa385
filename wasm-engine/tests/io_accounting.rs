//! Measured I/O against the models' basic predictions: filter FPR against the integer-k formula,
//! and zero-result lookup cost against the sum of the FPRs of the runs the tree really has.
#![allow(clippy::unwrap_used)]

mod common;

use lsm_engine::config::{Allocation, EngineConfig};
use lsm_engine::engine::Engine;
use lsm_engine::runner::Runner;
use lsm_engine::stats::OpClass;
use lsm_engine::storage::MemStorage;
use lsm_engine::workload::{Distribution, Mix, Preload, WORKLOAD_KIND, Workload};

/// Preload `entries` keys, then `lookups` zero-result lookups drawn from a key space 100× larger,
/// so nearly every lookup asks for a different missing key.
fn zero_result_workload(entries: u64, lookups: u64, seed: u64) -> Workload {
    Workload {
        kind: WORKLOAD_KIND.into(),
        version: 1,
        name: "zero-result lookups".into(),
        seed,
        preload: Preload { entries, key_space: entries * 100, key_bytes: 16, value_bytes: 48 },
        operations: lookups,
        mix: Mix { get_missing: 1.0, ..Mix::default() },
        distribution: Distribution::Uniform,
        range_selectivity: 0.0,
    }
}

fn run(config: EngineConfig, workload: &Workload, compact_first: bool) -> Engine {
    let mut engine = Engine::create(config, Box::new(MemStorage::new())).unwrap();
    let mut runner = Runner::for_workload(workload).unwrap();
    runner.step(&mut engine, workload.preload.entries).unwrap();
    if compact_first {
        engine.compact_all().unwrap();
    }
    runner.step(&mut engine, u64::MAX).unwrap();
    assert!(runner.is_finished());
    assert_eq!(runner.report(&engine).results.get_missing_found, 0);
    engine
}

#[test]
fn filter_fpr_matches_integer_k_formula_at_2_5_10_bits_per_key() {
    for bpk in [2.0, 5.0, 10.0] {
        let config = common::config("one run", 4096, 1 << 20, &[(10.0, 1, None)], Allocation::Uniform, bpk);
        let engine = run(config, &zero_result_workload(100_000, 200_000, 11), true);
        let tree = engine.tree();
        assert_eq!(tree.run_count(), 1);
        let predicted = tree.levels.iter().flat_map(|l| &l.runs).next().unwrap().filter_fpr;
        let reads = engine.stats().total_reads(OpClass::GetZeroResult);
        let measured = reads.filter_positives as f64 / reads.filter_probes as f64;
        let rel = (measured - predicted).abs() / predicted;
        println!(
            "{bpk} bits/key: measured FPR {measured:.5} over {} probes, formula {predicted:.5}, rel {rel:.4}",
            reads.filter_probes
        );
        assert!(reads.filter_probes >= 100_000);
        assert!(rel < 0.10, "{bpk} bits/key: measured {measured} vs {predicted}");
    }
}

#[test]
fn zero_result_io_matches_the_sum_of_run_fprs_within_3_percent() {
    let cases = [
        common::config("leveling T4 uniform 5", 4096, 64 << 10, &[(4.0, 1, None)], Allocation::Uniform, 5.0),
        common::config("leveling T4 monkey 5", 4096, 64 << 10, &[(4.0, 1, None)], Allocation::Monkey, 5.0),
        common::config("tiering T3 uniform 4", 4096, 64 << 10, &[(3.0, 2, None)], Allocation::Uniform, 4.0),
    ];
    for config in cases {
        let name = config.name.clone();
        let engine = run(config, &zero_result_workload(150_000, 300_000, 5), false);
        let tree = engine.tree();
        let predicted = tree.zero_result_cost();
        let lookups = engine.stats().ops[OpClass::GetZeroResult.index()];
        let reads = engine.stats().total_reads(OpClass::GetZeroResult);
        let measured = reads.page_ios() as f64 / lookups as f64;
        let rel = (measured - predicted).abs() / predicted;
        println!(
            "{name}: {} runs, measured {measured:.5} I/O per zero-result lookup, Σ FPR {predicted:.5}, rel {rel:.4}",
            tree.run_count()
        );
        assert!(tree.run_count() >= 3, "{name}: want a multi-run tree");
        assert!(rel < 0.03, "{name}: measured {measured} vs predicted {predicted}");
        // Every I/O of a zero-result lookup is a filter false positive.
        assert_eq!(reads.page_ios(), reads.filter_false_positives() + reads.runs_without_filter);
    }
}

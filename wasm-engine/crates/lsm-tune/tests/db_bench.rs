//! A db_bench command line is a workload the predictor prices and the tuner tunes: through its
//! engine view (`DbBenchPlay::engine_view`), a plain workload of db_bench's counts and mean sizes.

// Test code: a failed expectation is the test failing, with its message.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use lsm_core::config::EngineConfig;
use lsm_core::math::exp;
use lsm_tune::predict::predict;
use lsm_tune::{Target, tune};
use lsm_workload::db_bench::from_command_line;

const ZIPPYDB: &str = "db_bench --benchmarks=fillrandom,mixgraph --num=200000 --reads=20000 --key_size=48 \
    -key_dist_a=0.002312 -key_dist_b=0.3467 -keyrange_dist_a=14.18 -keyrange_dist_b=-2.917 \
    -keyrange_dist_c=0.0164 -keyrange_dist_d=-0.08082 -keyrange_num=30 -value_k=0.2615 -value_sigma=25.45 \
    -iter_k=2.517 -iter_sigma=14.236 -mix_get_ratio=0.83 -mix_put_ratio=0.14 -mix_seek_ratio=0.03";

/// RocksDB 7.8's defaults as the page's preset has them.
fn design() -> EngineConfig {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../public/presets/rocksdb.json");
    let mut c = EngineConfig::from_json(&std::fs::read_to_string(path).unwrap()).unwrap();
    // A 1 MiB write buffer, so 200,000 keys make a tree.
    c.buffer_bytes = 1 << 20;
    c
}

#[test]
fn predict_and_tune_run_on_a_mixgraph_workload() {
    let w = from_command_line(ZIPPYDB).unwrap().workload;
    let view = w.engine_view();
    // The fill's 200,000 draws with repeats leave 1 − e^−1 of the ids; Gets find them that often.
    let filled = (200_000.0 * (1.0 - exp(-1.0))).round();
    assert_eq!(view.preload.entries as f64, filled);
    assert!((view.mix.get_existing / 0.83 - filled / 200_000.0).abs() < 1e-9);
    let p = predict(&design(), &w).unwrap();
    assert!(p.expected > 0.0 && p.expected.is_finite(), "{}", p.expected);
    let t = tune(&design(), &w, 0.0, Target::Engine).unwrap();
    // The result keeps the db_bench workload as given (its bundle replays db_bench's stream).
    assert_eq!(t.workload.db_bench, w.db_bench);
    assert!(t.nominal.prediction.expected <= p.expected * (1.0 + 1e-9));
}

/// mixgraph draws the key and the query from one number, so the keys Puts hit are not the keys
/// Gets hit in the same proportions, and hot ids unfilled by the load exist once a Put drew them.
/// The predictor prices those draws (`DrawnKeys`); the engine playing the same stream is the
/// referee: the share of Gets that find their key, and the found lookups' I/O.
#[test]
fn mixgraph_draws_price_found_lookups_as_the_engine_measures_them() {
    use lsm_engine::engine::{Engine, Merging};
    use lsm_engine::storage::MemStorage;
    use lsm_runner::runner::Runner;
    let line = ZIPPYDB.replace("--reads=20000", "--reads=200000");
    let w = from_command_line(&line).unwrap().workload;
    // LevelDB's defaults: no block cache (where mixgraph's key ranges, hot keys in few blocks,
    // would be priced as scattered ones: docs/cli.md).
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../public/presets/leveldb.json");
    let mut config = EngineConfig::from_json(&std::fs::read_to_string(path).unwrap()).unwrap();
    config.buffer_bytes = 1 << 20;
    let p = predict(&config, &w).unwrap();
    let mut engine = Engine::create(config, Box::new(MemStorage::new())).unwrap();
    // The predictor replays every merge as done by the next operation: merges inline.
    engine.merging = Merging::Inline;
    let mut runner = Runner::for_workload(&w).unwrap();
    while !runner.is_finished() {
        runner.step(&mut engine, u64::MAX).unwrap();
    }
    let report = runner.report(&engine);
    let class = |name: &str| report.summary.iter().find(|c| c.class == name).unwrap();
    let ops: u64 = report.summary.iter().map(|c| c.count).sum();
    let found_share = class("get_non_zero_result").count as f64 / ops as f64;
    let found_io = class("get_non_zero_result").io_per_op;
    eprintln!(
        "found share: predicted {:.4}, measured {found_share:.4}; found I/O: predicted {:.4}, measured {found_io:.4}",
        p.mix[1], p.class_costs[1]
    );
    // The plain view's fitted hotspot gave 0.83 · (1 − e^−1) = 0.525 and 0.9 I/O per found lookup.
    assert!((p.mix[1] - found_share).abs() < 0.01, "{} vs {found_share}", p.mix[1]);
    assert!((p.class_costs[1] / found_io - 1.0).abs() < 0.15, "{} vs {found_io}", p.class_costs[1]);
}

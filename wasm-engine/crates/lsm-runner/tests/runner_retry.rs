//! An operation the engine refuses because storage failed (a full quota, no free file slot) is
//! retried by the next step: the run executes the same operations and ends with the same data.
#![allow(clippy::unwrap_used)]

use lsm_core::config::EngineConfig;
use lsm_core::workload::Workload;
use lsm_engine::engine::Engine;
use lsm_engine::storage::MemStorage;
use lsm_runner::runner::Runner;

fn documents() -> (EngineConfig, Workload) {
    let mut config = EngineConfig::from_json(include_str!("../../../../public/examples/leveling-monkey.json")).unwrap();
    config.buffer_bytes = 16 << 10;
    let mut workload = Workload::from_json(include_str!("../../../../public/examples/mixed.json")).unwrap();
    workload.preload.entries = 3_000;
    workload.operations = 6_000;
    (config, workload)
}

fn finish(engine: &mut Engine, runner: &mut Runner) {
    while !runner.is_finished() {
        runner.step(engine, 500).unwrap();
    }
}

#[test]
fn refused_operations_are_retried_and_the_run_is_unchanged() {
    let (config, workload) = documents();
    let mut engine = Engine::create(config.clone(), Box::new(MemStorage::new())).unwrap();
    let mut runner = Runner::for_workload(&workload).unwrap();
    finish(&mut engine, &mut runner);
    let want = runner.report(&engine);
    let want_data = engine.scan(b"", b"\xff").unwrap();

    for fail_at in [3u64, 17, 45, 90, 150] {
        let storage = MemStorage::new();
        let mut engine = Engine::create(config.clone(), Box::new(storage.clone())).unwrap();
        let mut runner = Runner::for_workload(&workload).unwrap();
        storage.fail_after_writes(Some(fail_at));
        let mut failures = 0;
        while !runner.is_finished() {
            if runner.step(&mut engine, 500).is_err() {
                failures += 1;
                storage.fail_after_writes(None);
            }
        }
        assert_eq!(failures, 1, "fail_at {fail_at}");
        let got = runner.report(&engine);
        assert_eq!((&got.operations, &got.results), (&want.operations, &want.results), "fail_at {fail_at}");
        assert_eq!(got.preload_operations, want.preload_operations);
        assert_eq!(engine.scan(b"", b"\xff").unwrap(), want_data, "fail_at {fail_at}");
    }
}

/// A step never spans the preload and the run, so whoever calls `step` can time each phase:
/// a step of 1,100 operations from 1,000 preloaded stops at the 1,000th, and the next step
/// starts the run with the same operation an unbroken run would have.
#[test]
fn a_step_stops_where_the_preload_ends() {
    let (config, mut workload) = documents();
    workload.preload.entries = 1_000;
    let mut engine = Engine::create(config.clone(), Box::new(MemStorage::new())).unwrap();
    let mut runner = Runner::for_workload(&workload).unwrap();
    let p = runner.step(&mut engine, 1_100).unwrap();
    assert_eq!((p.preload_done, p.run_done), (1_000, 0));
    let p = runner.step(&mut engine, 1_100).unwrap();
    assert_eq!((p.preload_done, p.run_done), (1_000, 1_100));
    finish(&mut engine, &mut runner);

    let mut whole = Engine::create(config, Box::new(MemStorage::new())).unwrap();
    let mut unbroken = Runner::for_workload(&workload).unwrap();
    unbroken.step(&mut whole, 1_000).unwrap();
    unbroken.step(&mut whole, u64::MAX).unwrap();
    // Sync counts follow how a run is chopped into steps; every other counter must match.
    assert_eq!(unbroken.report(&whole).counters_only(), runner.report(&engine).counters_only());
}

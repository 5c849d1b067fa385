//! A report says how its merges ran (paced or inline), since that decides its latency tail and
//! its stalls; a report written before merges were paced reads back without it.
#![allow(clippy::unwrap_used)]

use lsm_core::config::EngineConfig;
use lsm_core::workload::Workload;
use lsm_engine::engine::{Engine, Merging};
use lsm_engine::storage::MemStorage;
use lsm_runner::report::Report;
use lsm_runner::runner::Runner;

fn run(merging: Merging) -> Report {
    let mut config = EngineConfig::from_json(include_str!("../../../../public/examples/leveling-monkey.json")).unwrap();
    config.buffer_bytes = 4 << 10;
    // Level 1 stops writes at its first file: paced merges stall, inline ones never do.
    config.write_stalls.level0_slowdown_writes_trigger = 1;
    config.write_stalls.level0_stop_writes_trigger = 1;
    let mut workload = Workload::from_json(include_str!("../../../../public/examples/mixed.json")).unwrap();
    workload.preload.entries = 3_000;
    workload.operations = 3_000;
    let mut engine = Engine::create(config, Box::new(MemStorage::new())).unwrap();
    engine.merging = merging;
    let mut runner = Runner::for_workload(&workload).unwrap();
    while !runner.is_finished() {
        runner.step(&mut engine, 500).unwrap();
    }
    runner.report(&engine)
}

#[test]
fn a_report_records_how_its_merges_ran() {
    let inline = run(Merging::Inline);
    let paced = run(Merging::Paced);
    assert_eq!(inline.merges, Some(Merging::Inline));
    assert_eq!(paced.merges, Some(Merging::Paced));
    let doc: serde_json::Value = serde_json::from_str(&inline.to_json()).unwrap();
    assert_eq!(doc["merges"], "inline");
    let back = Report::from_json(&paced.to_json()).unwrap();
    assert_eq!(back.merges, Some(Merging::Paced));
    // The same merges either way, but only paced writes stall.
    assert_eq!(inline.preload.stalls.writes() + inline.run.stalls.writes(), 0);
    assert!(paced.preload.stalls.stops + paced.run.stalls.stops > 0, "{:?}", paced.preload.stalls);

    // Older reports have no `merges`: they read back with none.
    let mut old = doc;
    old.as_object_mut().unwrap().remove("merges");
    assert_eq!(Report::from_json(&old.to_string()).unwrap().merges, None);
}

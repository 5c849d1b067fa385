//! A run interrupted by a crash: the database's own record of the run (`run_log`) says it began
//! and never ended, with the writes acknowledged as last recorded, and `Engine::recovery` reports
//! what the reopen found. Both are held against an oracle: the writes issued, the ones
//! acknowledged, and the keys the reopened database holds.
#![allow(clippy::unwrap_used)]

mod common;

use lsm_core::config::Allocation;
use lsm_core::rng::Rng;
use lsm_engine::engine::{Engine, Merging};
use lsm_engine::run_log::{Acknowledged, Outcome, RunEnd, RunStart};
use lsm_engine::storage::MemStorage;

const PLANNED: u64 = 6_000;
/// Writes between two acknowledgements (the worker's step).
const BATCH: u64 = 97;

fn key(i: u64) -> Vec<u8> {
    format!("key{i:07}").into_bytes()
}

fn start() -> RunStart {
    RunStart { label: "fill 6,000".into(), planned_operations: Some(PLANNED), planned_writes: Some(PLANNED) }
}

/// What the run did before the crash, as its caller saw it.
struct Issued {
    /// Writes the engine accepted (some may be lost: not acknowledged).
    written: u64,
    /// The last acknowledgement that returned Ok.
    acked: u64,
    /// An acknowledgement that was being recorded when the failure hit (it may or may not survive).
    attempted: Option<u64>,
}

/// Unique keys in order, acknowledged every BATCH writes, until the injected failure.
fn run_until_crash(storage: &MemStorage, merging: Merging, fail_after: u64) -> Option<Issued> {
    let config = common::config("leveling", 512, 2048, &[(3.0, 1, None)], Allocation::Uniform, 8.0);
    storage.fail_after_writes(Some(fail_after));
    let mut engine = Engine::create(config, Box::new(storage.clone())).ok()?;
    engine.merging = merging;
    engine.begin_run(start()).ok()?;
    let mut issued = Issued { written: 0, acked: 0, attempted: None };
    for i in 0..PLANNED {
        if engine.put(&key(i), format!("value-{i}-{}", "x".repeat((i % 50) as usize)).as_bytes()).is_err() {
            break;
        }
        issued.written = i + 1;
        if issued.written.is_multiple_of(BATCH) {
            let ack = Acknowledged { operations: issued.written, writes: issued.written };
            if engine.acknowledge_run(ack).is_err() {
                issued.attempted = Some(issued.written);
                break;
            }
            issued.acked = issued.written;
        }
    }
    // The crash: no end recorded, no close; the engine's memory is gone.
    drop(engine);
    Some(issued)
}

#[test]
fn an_interrupted_run_says_so_with_what_was_acknowledged_and_recovered() {
    let mut trials = 0;
    let mut merge_due = 0;
    let mut replayed = 0;
    let mut orphans = 0;
    let mut cut = 0;
    for trial in 0..160u64 {
        let mut rng = Rng::new(0x1A7E_0000 + trial);
        let storage = MemStorage::new();
        let merging = if trial % 2 == 0 { Merging::Paced } else { Merging::Inline };
        let Some(issued) = run_until_crash(&storage, merging, 40 + rng.below(1_500)) else { continue };
        if issued.acked == 0 && issued.attempted.is_none() {
            continue; // cut off before the first acknowledgement: nothing recorded beyond the begin
        }
        storage.fail_after_writes(None);
        storage.crash(|_, unsynced| match rng.below(3) {
            0 => 0,
            1 => unsynced,
            _ => rng.below(unsynced as u64 + 1) as usize,
        });
        let mut engine = Engine::open(Box::new(storage.clone()), None).unwrap();
        let r = engine.recovery().clone();
        let run = r.run.as_ref().unwrap_or_else(|| panic!("trial {trial}: the run's record is gone"));
        assert!(r.existed && run.interrupted(), "trial {trial}: the run must read as interrupted");
        assert_eq!(run.start, start());
        // As last recorded: the last acknowledgement, or the one being recorded when it died.
        let recorded = run.acknowledged.writes;
        assert!(
            recorded == issued.acked || Some(recorded) == issued.attempted,
            "trial {trial}: recorded {recorded}, acknowledged {} (attempted {:?})",
            issued.acked,
            issued.attempted
        );
        assert_eq!(run.acknowledged.operations, recorded);

        // The oracle: the keys held are key(0)..key(m) for an m between what the record says was
        // acknowledged and what was written — every recorded write is there, then a prefix.
        let held = engine.scan(b"", b"\xff").unwrap();
        let m = held.len() as u64;
        assert!(
            m >= recorded && m <= issued.written,
            "trial {trial}: {m} keys, recorded {recorded}, written {}",
            issued.written
        );
        for (i, (k, _)) in held.iter().enumerate() {
            assert_eq!(k, &key(i as u64), "trial {trial}: not a prefix of the writes");
        }
        // Recovery's figures against the oracle: unique keys, so entries are the keys held and
        // the replayed records are exactly the buffer.
        assert_eq!(r.entries, m, "trial {trial}: entries recovered");
        assert_eq!(r.log_records_replayed, engine.tree().buffer_entries, "trial {trial}: log records replayed");
        assert!(r.log_records_replayed <= m);
        assert_eq!(
            r.tables,
            engine.tree().levels.iter().flat_map(|l| &l.runs).map(|x| x.tables.len() as u64).sum::<u64>()
        );
        replayed += u64::from(r.log_records_replayed > 0);
        orphans += u64::from(r.orphan_tables > 0);
        cut += u64::from(r.log_bytes_cut > 0);

        // A merge the crash left due resumes with the next writes (paced), with no flush needed.
        if r.merge_due {
            merge_due += 1;
            assert!(engine.write_stall().merges_pending, "trial {trial}: a due merge is pending");
            assert!(engine.write_stall().merge_due_level.is_some(), "trial {trial}: the due merge names its level");
            let mut i = 0;
            while engine.write_stall().merges_pending && i < 2_000 {
                engine.put(&key(PLANNED + i), b"after").unwrap();
                i += 1;
            }
            assert!(!engine.write_stall().merges_pending, "trial {trial}: the merge never ran");
            assert_eq!(engine.write_stall().merge_due_level, None, "trial {trial}");
            assert!(!engine.recovery().merge_due || i > 0);
        }
        trials += 1;
    }
    println!(
        "{trials} interrupted runs: {replayed} replayed log records, {cut} cut a torn log tail, {orphans} deleted a cut-off merge's tables, {merge_due} found a merge due"
    );
    assert!(trials >= 120, "only {trials} trials ran");
    assert!(replayed > trials / 2 && cut > 0 && orphans > 0 && merge_due > 0, "the trials must cover each case");
}

#[test]
fn a_finished_run_is_recorded_as_finished_and_a_new_run_replaces_it() {
    let config = common::config("leveling", 512, 2048, &[(3.0, 1, None)], Allocation::Uniform, 8.0);
    let storage = MemStorage::new();
    let mut engine = Engine::create(config, Box::new(storage.clone())).unwrap();
    engine.begin_run(start()).unwrap();
    for i in 0..500 {
        engine.put(&key(i), b"v").unwrap();
        if i % 100 == 99 {
            engine.acknowledge_run(Acknowledged { operations: i + 1, writes: i + 1 }).unwrap();
        }
    }
    let done = Acknowledged { operations: 500, writes: 500 };
    engine
        .end_run(RunEnd { outcome: Outcome::Cancelled, acknowledged: done, result: "cancelled at 500".into() })
        .unwrap();
    assert!(engine.acknowledge_run(done).is_err(), "an ended run takes no more acknowledgements");
    drop(engine);
    storage.crash(|_, _| 0);
    let mut engine = Engine::open(Box::new(storage.clone()), None).unwrap();
    let run = engine.recovery().run.clone().unwrap();
    assert!(!run.interrupted());
    assert_eq!((run.acknowledged, run.end.map(|e| e.outcome)), (done, Some(Outcome::Cancelled)));
    assert_eq!(engine.recovery().entries, 500);

    let next = RunStart { label: "second".into(), planned_operations: None, planned_writes: None };
    engine.begin_run(next.clone()).unwrap();
    drop(engine);
    storage.crash(|_, _| 0);
    let engine = Engine::open(Box::new(storage.clone()), None).unwrap();
    let run = engine.last_run().unwrap();
    assert_eq!((&run.start, run.interrupted(), run.acknowledged.writes), (&next, true, 0));
}

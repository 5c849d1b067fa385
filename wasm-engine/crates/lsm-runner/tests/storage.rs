//! Storage backends: the logical I/O counters do not depend on where the bytes live, and a full
//! quota gives a clear error and leaves the database consistent.
#![allow(clippy::unwrap_used)]

use lsm_core::config::EngineConfig;
use lsm_core::error::Error;
use lsm_core::workload::Workload;
use lsm_engine::engine::Engine;
use lsm_engine::storage::{FileStorage, JournalStorage, MemStorage, Storage};
use lsm_runner::runner::Runner;

fn documents() -> (EngineConfig, Workload) {
    let mut config = EngineConfig::from_json(include_str!("../../../../public/examples/leveling-monkey.json")).unwrap();
    config.buffer_bytes = 32 << 10;
    let mut workload = Workload::from_json(include_str!("../../../../public/examples/mixed.json")).unwrap();
    workload.preload.entries = 20_000;
    workload.operations = 30_000;
    (config, workload)
}

#[test]
fn every_backend_counts_the_same_logical_io() {
    let (config, workload) = documents();
    let dir = std::env::temp_dir().join(format!("lsm-backends-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let backends: Vec<(&str, Box<dyn Storage>)> = vec![
        ("memory", Box::new(MemStorage::new())),
        ("files", Box::new(FileStorage::open(&dir).unwrap())),
        ("journaled (IndexedDB mirror)", Box::new(JournalStorage::new(Vec::new()))),
    ];
    let mut reports = Vec::new();
    for (name, storage) in backends {
        let mut engine = Engine::create(config.clone(), storage).unwrap();
        let mut runner = Runner::for_workload(&workload).unwrap();
        while !runner.is_finished() {
            runner.step(&mut engine, 7_000).unwrap();
        }
        reports.push((name, runner.report(&engine).counters_only()));
    }
    let _ = std::fs::remove_dir_all(&dir);
    for (name, r) in &reports[1..] {
        assert_eq!(r, &reports[0].1, "{name} counted differently from memory");
    }
}

#[test]
fn a_full_quota_is_a_clear_error_and_the_database_stays_consistent() {
    let (config, _) = documents();
    let storage = MemStorage::new();
    let mut engine = Engine::create(config, Box::new(storage.clone())).unwrap();
    storage.set_quota(Some(600 << 10));
    let mut acknowledged = 0u32;
    let error = loop {
        let key = format!("key{acknowledged:08}");
        if let Err(e) = engine.put(key.as_bytes(), &[7u8; 100]) {
            break e;
        }
        if acknowledged % 100 == 99
            && let Err(e) = engine.sync()
        {
            break e;
        }
        acknowledged += 1;
    };
    let Error::StorageFull { file, message } = &error else { panic!("expected storage full, got {error}") };
    assert!(error.to_string().starts_with("storage full while writing "), "{error}");
    assert!(message.contains("quota"), "{message} ({file})");
    // The engine still answers reads, and the stored database reopens with every synced write.
    let synced = acknowledged - acknowledged % 100;
    assert_eq!(engine.get(b"key00000000").unwrap(), Some(vec![7u8; 100]));
    drop(engine);
    storage.set_quota(None);
    let mut reopened = Engine::open(Box::new(storage.clone()), None).unwrap();
    for i in (0..synced).step_by(37) {
        assert_eq!(reopened.get(format!("key{i:08}").as_bytes()).unwrap(), Some(vec![7u8; 100]), "key {i}");
    }
    assert!(reopened.scan(b"", b"\xff").unwrap().len() >= synced as usize);
}

#[test]
fn a_deleted_file_is_gone_for_every_call_that_follows_and_its_name_can_be_reused() {
    // Files unlink on a thread of their own; no call may see a file it deleted, or lose a new
    // file of the same name to the unlink still on its way.
    let dir = std::env::temp_dir().join(format!("lsm-unlink-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut s = FileStorage::open(&dir).unwrap();
    for round in 0..200u32 {
        let name = format!("{:08}.sst", round % 3);
        let bytes = vec![round as u8; 3 << 20];
        s.append(&name, &bytes).unwrap();
        s.sync(&name).unwrap();
        s.delete(&name).unwrap();
        assert!(!s.exists(&name).unwrap(), "round {round}: deleted file still exists");
        assert!(!s.list().unwrap().contains(&name), "round {round}: deleted file listed");
        s.append(&name, b"again").unwrap();
        s.sync(&name).unwrap();
        assert_eq!(s.len(&name).unwrap(), 5, "round {round}: the new file lost to the old unlink");
        assert_eq!(s.read(&name, 0, 5).unwrap(), b"again");
        s.delete(&name).unwrap();
    }
    drop(s);
    // Dropping the storage waits for the queued unlinks: nothing is left behind.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn background_syncs_and_commits_keep_their_order_and_are_readable_at_once() {
    // Tables synced later, then commit records written by the disk thread after them, then
    // deletes: every call sees the files as if each had been done at once.
    let dir = std::env::temp_dir().join(format!("lsm-commit-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut s = FileStorage::open(&dir).unwrap();
    let mut manifest = Vec::new();
    for round in 0..100u32 {
        let table = format!("{round:08}.sst");
        let bytes = vec![round as u8; (1 << 20) + 7 * round as usize];
        s.append(&table, &bytes).unwrap();
        s.sync_later(&table).unwrap();
        assert_eq!(s.read(&table, bytes.len() as u64 - 3, 3).unwrap(), vec![round as u8; 3], "round {round}");
        let record = format!("add {table};");
        s.commit_later("MANIFEST", record.as_bytes()).unwrap();
        manifest.extend_from_slice(record.as_bytes());
        if round > 0 {
            s.delete(&format!("{:08}.sst", round - 1)).unwrap();
        }
        // A commit is readable at once, in order after the ones before it.
        assert_eq!(s.len("MANIFEST").unwrap(), manifest.len() as u64, "round {round}");
        if round % 10 == 0 {
            s.await_syncs().unwrap();
            assert_eq!(std::fs::read(dir.join("MANIFEST")).unwrap(), manifest, "round {round}: on disk");
        }
        // Appends in between still land after the queued records.
        if round % 25 == 24 {
            s.append("MANIFEST", b"plain;").unwrap();
            s.sync("MANIFEST").unwrap();
            manifest.extend_from_slice(b"plain;");
        }
    }
    s.await_syncs().unwrap();
    assert_eq!(s.list().unwrap(), vec!["00000099.sst".to_string(), "MANIFEST".to_string()]);
    drop(s);
    assert_eq!(std::fs::read(dir.join("MANIFEST")).unwrap(), manifest);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_crash_undoes_background_work_not_yet_done_in_order() {
    // The in-memory model of a disk that runs behind: a commit never survives without the
    // table synced before it, and a file deleted after a lost commit comes back.
    let mut s = MemStorage::new();
    let handle = s.clone();
    s.append("old.sst", b"old").unwrap();
    s.sync("old.sst").unwrap();
    s.append("new.sst", b"new table").unwrap();
    s.sync_later("new.sst").unwrap();
    s.commit_later("MANIFEST", b"add new;").unwrap();
    s.delete("old.sst").unwrap();
    assert_eq!(s.contents("MANIFEST").unwrap(), b"add new;", "readable at once");
    assert!(!s.exists("old.sst").unwrap());
    drop(s);
    handle.crash(|_, unsynced| unsynced);
    assert_eq!(handle.contents("MANIFEST").unwrap(), b"", "a commit not yet written is not kept, even torn");
    assert_eq!(handle.contents("old.sst").unwrap(), b"old", "the delete after it is undone");
    assert_eq!(handle.contents("new.sst").unwrap(), b"new table", "unsynced bytes may survive");

    let mut s = MemStorage::new();
    let handle = s.clone();
    s.append("t.sst", b"table").unwrap();
    s.sync_later("t.sst").unwrap();
    s.commit_later("MANIFEST", b"add t;").unwrap();
    s.delete("t.sst").unwrap();
    s.await_syncs().unwrap();
    drop(s);
    handle.crash(|_, _| 0);
    assert_eq!(handle.contents("MANIFEST").unwrap(), b"add t;", "durable after await_syncs");
    assert!(handle.contents("t.sst").is_none(), "the delete is done too");
}

//! `lsm ops`: the binary operation stream the RocksDB referee plays holds exactly the workload's
//! operations, in order, with phase markers, the keys and values the engine itself writes.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Command;

use lsm_workload::generator::{Generator, Intent, Op, OpSource};
use lsm_workload::ycsb;

fn take<'a>(bytes: &'a [u8], at: &mut usize) -> &'a [u8] {
    let len = u32::from_le_bytes(bytes[*at..*at + 4].try_into().unwrap()) as usize;
    let start = *at + 4;
    *at = start + len;
    &bytes[start..start + len]
}

#[test]
fn the_stream_is_the_generators_operations_byte_for_byte() {
    let out = Command::new(env!("CARGO_BIN_EXE_lsm"))
        .args(["ops", "--workload", "ycsb:e", "--records", "300", "--operations", "400"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let bytes = out.stdout;
    assert_eq!(&bytes[..8], b"LSMOPS1\n");

    let text = ycsb::core_workload('e', 300, 400).unwrap();
    let workload = ycsb::from_properties(&text, "ycsb:e").unwrap().workload;
    let mut generator = Generator::new(&workload);
    let mut at = 8;
    let mut markers = Vec::new();
    let mut ops = 0;
    while let Some((_, op)) = generator.next_op().unwrap() {
        if bytes[at] == b'L' || bytes[at] == b'R' {
            markers.push(bytes[at]);
            at += 1;
        }
        let tag = bytes[at];
        at += 1;
        match op {
            Op::Put { intent, key, value, .. } => {
                assert_eq!(tag, if intent == Intent::Insert { b'I' } else { b'U' });
                assert_eq!(take(&bytes, &mut at), key);
                assert_eq!(take(&bytes, &mut at), value);
            }
            Op::Delete { key, .. } => {
                assert_eq!(tag, b'D');
                assert_eq!(take(&bytes, &mut at), key);
            }
            Op::Get { intent, key, .. } => {
                assert_eq!(tag, if intent == Intent::GetExisting { b'G' } else { b'M' });
                assert_eq!(take(&bytes, &mut at), key);
            }
            Op::Range { start, end, .. } => {
                assert_eq!(tag, b'S');
                assert_eq!(take(&bytes, &mut at), start);
                assert_eq!(take(&bytes, &mut at), end);
            }
        }
        ops += 1;
    }
    assert_eq!(at, bytes.len(), "nothing follows the last operation");
    assert_eq!(markers, b"LR", "one load marker, then one run marker");
    assert_eq!(ops, 700);
}

/// A fixture db_bench recorded (crates/lsm-workload/tests/rocksdb-traces).
fn rocksdb_fixture(name: &str) -> String {
    format!("{}/../lsm-workload/tests/rocksdb-traces/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn a_rocksdb_trace_streams_record_by_record() {
    let trace = rocksdb_fixture("fillrandom_2cf.trace");
    let out = Command::new(env!("CARGO_BIN_EXE_lsm")).args(["ops", "--rocksdb-trace", &trace]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // The puts to column family 1 are not played, and stderr says so.
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!("{trace}: skipped 18 operations on column family 1 (only the default, 0, is replayed)\n")
    );
    let bytes = out.stdout;
    assert_eq!(&bytes[..9], b"LSMOPS1\nR", "a trace is all run");
    let mut reader = lsm_workload::rocksdb_trace::RocksdbTrace::open("t", std::fs::read(&trace).unwrap()).unwrap();
    let mut at = 9;
    let mut ops = 0;
    while let Some((_, op)) = reader.next_op().unwrap() {
        let Op::Put { intent, key, value, .. } = op else { panic!("{op:?}") };
        assert_eq!(bytes[at], if intent == Intent::Insert { b'I' } else { b'U' });
        at += 1;
        assert_eq!(take(&bytes, &mut at), key);
        assert_eq!(take(&bytes, &mut at), value);
        ops += 1;
    }
    assert_eq!((ops, at), (22, bytes.len()));

    // A truncated copy: exit code 1, the record and its offset, and nothing on stdout.
    let cut = std::env::temp_dir().join(format!("lsm-ops-cut-{}.trace", std::process::id()));
    let data = std::fs::read(&trace).unwrap();
    std::fs::write(&cut, &data[..data.len() - 30]).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_lsm"))
        .args(["ops", "--rocksdb-trace", cut.to_str().unwrap()])
        .output()
        .unwrap();
    std::fs::remove_file(&cut).unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("lsm ops: ") && err.contains(": record 40 at byte ") && err.contains("truncated"), "{err}");
}

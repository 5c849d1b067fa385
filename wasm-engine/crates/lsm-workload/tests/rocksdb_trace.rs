//! The RocksDB trace reader on traces RocksDB 7.8.3 wrote (`db_bench --trace_file`, fixtures in
//! tests/rocksdb-traces, made by tests/rocksdb-traces/record.sh): record counts by type, first
//! keys, what is skipped, and errors on damaged copies.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use lsm_workload::generator::{Intent, Op, OpSource};
use lsm_workload::rocksdb_trace::{RocksdbTrace, TraceCounts};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/tests/rocksdb-traces/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// db_bench's key for number n at --key_size=16: 8 bytes big-endian, then '0' padding.
fn db_bench_key(n: u64) -> Vec<u8> {
    let mut k = n.to_be_bytes().to_vec();
    k.extend_from_slice(b"00000000");
    k
}

/// Every operation of a trace, as (tag, key): P put, I insert, D delete, G get, S seek.
fn play(name: &str) -> (RocksdbTrace, Vec<(char, Vec<u8>)>) {
    let mut t = RocksdbTrace::open(name, fixture(name)).unwrap();
    let mut ops = Vec::new();
    while let Some((_, op)) = t.next_op().unwrap() {
        ops.push(match op {
            Op::Put { intent: Intent::Insert, key, .. } => ('I', key.to_vec()),
            Op::Put { key, value, .. } => {
                assert_eq!(value.len(), 32);
                ('P', key.to_vec())
            }
            Op::Delete { key, .. } => ('D', key.to_vec()),
            Op::Get { key, .. } => ('G', key.to_vec()),
            Op::Range { start, end, lo, hi } => {
                assert_eq!((start, lo), (end, hi), "a seek is replayed over [key, key]");
                ('S', start.to_vec())
            }
        });
    }
    (t, ops)
}

fn count(ops: &[(char, Vec<u8>)], tags: &str) -> usize {
    ops.iter().filter(|(t, _)| tags.contains(*t)).count()
}

#[test]
fn readrandomwriterandom_holds_180_gets_and_20_single_put_batches() {
    let (t, ops) = play("readrandomwriterandom.trace");
    let c = t.counts();
    assert_eq!(t.versions(), (2, "7.8"));
    assert_eq!((c.records, c.writes, c.gets, c.puts, c.lookups, c.has_end), (201, 20, 180, 20, 180, true));
    assert_eq!(t.totals(), (0, Some(200)));
    assert_eq!((ops.len(), count(&ops, "G"), count(&ops, "IP")), (200, 180, 20));
    assert_eq!(ops[0], ('G', db_bench_key(145)));
    assert_eq!(ops[1], ('G', db_bench_key(43)));
    assert!(c.last_micros >= c.first_micros && c.last_micros - c.first_micros < 10_000_000);
    assert!(t.notes().is_empty(), "{:?}", t.notes());
}

#[test]
fn a_batch_of_ten_puts_is_ten_operations() {
    let (t, ops) = play("fillrandom_batch10.trace");
    let c = t.counts();
    assert_eq!((c.writes, c.puts), (10, 100));
    assert_eq!(ops.len(), 100);
    assert_eq!(ops[0], ('I', db_bench_key(67)));
    assert_eq!(ops[1], ('I', db_bench_key(75)));
    // fillrandom draws keys with replacement: a key written again is an update.
    let distinct: std::collections::BTreeSet<_> = ops.iter().map(|(_, k)| k.clone()).collect();
    assert_eq!(count(&ops, "I"), distinct.len());
    assert_eq!(count(&ops, "P"), 100 - distinct.len());
}

#[test]
fn seeks_with_and_without_bounds() {
    let (t, ops) = play("seekrandom_bounded.trace");
    let c = t.counts();
    assert_eq!((c.seeks, c.bounded_seeks, c.scans, c.seeks_for_prev), (30, 30, 30, 0));
    assert_eq!((ops.len(), count(&ops, "S")), (30, 30));
    assert_eq!(ops[0], ('S', db_bench_key(199)));
    assert_eq!(
        t.notes(),
        ["30 seeks replayed as seeks to their key: the trace does not record the Next calls after them"]
    );
    let (t, ops) = play("seekrandom_reverse.trace");
    assert_eq!((t.counts().seeks, t.counts().bounded_seeks, ops.len()), (20, 0, 20));
    assert_eq!(ops[0], ('S', db_bench_key(142)));
}

#[test]
fn each_key_of_a_multiget_is_a_lookup() {
    let (t, ops) = play("multireadrandom.trace");
    let c = t.counts();
    assert_eq!((c.multigets, c.multiget_keys, c.lookups, c.gets), (10, 40, 40, 0));
    assert_eq!((ops.len(), count(&ops, "G")), (40, 40));
    assert_eq!(ops[0], ('G', db_bench_key(155)));
}

#[test]
fn deletes_merges_and_other_column_families() {
    let (t, ops) = play("deleterandom.trace");
    assert_eq!((t.counts().writes, t.counts().deletes, count(&ops, "D"), ops.len()), (30, 30, 30, 30));
    assert_eq!(ops[0], ('D', db_bench_key(0)));
    // Merges are counted and reported, not played.
    let (t, ops) = play("mergerandom.trace");
    assert_eq!((t.counts().writes, t.counts().merges, ops.len()), (20, 20, 0));
    assert_eq!(t.notes(), ["skipped 20 Merge operations (the engine has no merge operator)"]);
    // db_bench --num_column_families=2 spreads fillrandom's puts over column families 0 and 1.
    let (t, ops) = play("fillrandom_2cf.trace");
    let c = t.counts();
    assert_eq!((c.writes, c.puts, c.other_column_families.get(&1).copied()), (40, 22, Some(18)));
    assert_eq!(ops.len(), 22);
    assert_eq!(t.notes(), ["skipped 18 operations on column family 1 (only the default, 0, is replayed)"]);
}

#[test]
fn a_truncated_trace_names_the_record_and_its_offset() {
    let data = fixture("readrandomwriterandom.trace");
    // The header record is 13 + 90 bytes; every Get after it 13 + 29.
    let header = 13 + u32::from_le_bytes(data[9..13].try_into().unwrap()) as usize;
    assert_eq!(header, 103);
    let cut = header + 42 * 3 + 20;
    let e = RocksdbTrace::open("t.trace", data[..cut].to_vec()).err().unwrap().to_string();
    assert_eq!(
        e,
        format!(
            "t.trace: record 4 at byte {}: truncated: the payload of 29 bytes runs past the end (7 bytes left)",
            header + 42 * 3
        )
    );
    let e = RocksdbTrace::open("t.trace", data[..header + 5].to_vec()).err().unwrap().to_string();
    assert_eq!(e, format!("t.trace: record 1 at byte {header}: truncated: 5 bytes left, a record header takes 13"));
    // A Get whose key length runs past its payload.
    let mut bad = data.clone();
    bad[header + 13 + 12] = 0x20;
    let e = RocksdbTrace::open("t.trace", bad).err().unwrap().to_string();
    assert_eq!(
        e,
        format!(
            "t.trace: record 1 at byte {header}: Get field 3: truncated string at byte {}: needs 32 bytes, 16 left",
            header + 13 + 13
        )
    );
    // Not a trace at all.
    let e = RocksdbTrace::open("x", b"I 1 v\nQ 1\n".to_vec()).err().unwrap().to_string();
    assert_eq!(e, "x: record 0 at byte 0: not a RocksDB trace: truncated: 10 bytes left, a record header takes 13");
    let mut text = data.clone();
    text[8] = 4;
    let e = RocksdbTrace::open("x", text).err().unwrap().to_string();
    assert_eq!(
        e,
        "x: record 0 at byte 0: not a RocksDB trace: its first record is not a header (type 1, starting \"feedcafedeadbeef\")"
    );
    let e = RocksdbTrace::open("x", Vec::new()).err().unwrap().to_string();
    assert_eq!(e, "x: record 0 at byte 0: not a RocksDB trace: the file is empty");
    // A trace cut exactly after a record reads to its end and says it has no end record.
    let t = RocksdbTrace::open("t.trace", data[..header + 42].to_vec()).unwrap();
    assert_eq!(
        t.counts(),
        &TraceCounts {
            records: 1,
            gets: 1,
            lookups: 1,
            first_micros: t.counts().first_micros,
            last_micros: t.counts().first_micros,
            ..TraceCounts::default()
        }
    );
    assert_eq!(t.notes(), ["the trace has no end record (its tracer was not closed): read to the end of the file"]);
}

#[test]
fn a_trace_is_fitted_like_a_kvbench_one() {
    use lsm_workload::fit::fit_rocksdb_trace;
    let f = fit_rocksdb_trace("rrwr.trace", fixture("readrandomwriterandom.trace")).unwrap();
    // The trace starts with a Get: no leading inserts, all 200 operations are the run.
    assert_eq!((f.preload_operations, f.run_operations), (0, 200));
    let c = &f.counts;
    assert_eq!((c.get_existing + c.get_missing, c.insert + c.update, c.range, c.delete), (180.0, 20.0, 0.0, 0.0));
    assert!((f.workload.mix.get_existing + f.workload.mix.get_missing - 0.9).abs() < 1e-12);
    assert_eq!((f.mean_key_bytes, f.mean_value_bytes), (16.0, 32.0));
    assert_eq!((f.workload.preload.key_bytes, f.workload.preload.value_bytes), (16, 32));
    let f = fit_rocksdb_trace("fill.trace", fixture("fillrandom_batch10.trace")).unwrap();
    assert_eq!(f.preload_operations + f.run_operations, 100);
    assert_eq!(f.counts.insert + f.counts.update + f.preload_operations as f64, 100.0);
    let f = fit_rocksdb_trace("seek.trace", fixture("seekrandom_bounded.trace")).unwrap();
    assert_eq!((f.run_operations, f.counts.range), (30, 30.0));
    assert_eq!(
        f.notes,
        ["30 seeks replayed as seeks to their key: the trace does not record the Next calls after them"]
    );
    let e = fit_rocksdb_trace("merge.trace", fixture("mergerandom.trace")).unwrap_err().to_string();
    assert_eq!(e, "merge.trace: the trace has no operations");
}

//! The reader on traces built byte by byte: version 0.1 payloads, every WriteBatch tag, and
//! malformed records.

use super::*;

/// A record as TracerHelper::EncodeTrace writes it.
fn record(out: &mut Vec<u8>, ty: u8, payload: &[u8]) {
    out.extend_from_slice(&7u64.to_le_bytes());
    out.push(ty);
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(payload);
}

fn prefixed(out: &mut Vec<u8>, s: &[u8]) {
    assert!(s.len() < 128);
    out.push(s.len() as u8);
    out.extend_from_slice(s);
}

fn trace(version: &str, records: &[(u8, Vec<u8>)]) -> Vec<u8> {
    let mut out = Vec::new();
    let header = format!(
        "feedcafedeadbeef\tTrace Version: {version}\tRocksDB Version: 6.14\tFormat: Timestamp OpType Payload\n"
    );
    record(&mut out, TRACE_BEGIN, header.as_bytes());
    for (ty, p) in records {
        record(&mut out, *ty, p);
    }
    out
}

fn batch(count: u32, entries: &[u8]) -> Vec<u8> {
    let mut rep = 9u64.to_le_bytes().to_vec();
    rep.extend_from_slice(&count.to_le_bytes());
    rep.extend_from_slice(entries);
    rep
}

fn ops(t: &mut RocksdbTrace) -> Vec<String> {
    let mut v = Vec::new();
    while let Some((_, op)) = t.next_op().unwrap() {
        v.push(match op {
            Op::Put { intent, key, value, .. } => format!("{intent:?} {}={}", text(key), text(value)),
            Op::Delete { key, .. } => format!("Delete {}", text(key)),
            Op::Get { key, .. } => format!("Get {}", text(key)),
            Op::Range { start, .. } => format!("Seek {}", text(start)),
        });
    }
    v
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn version_1_payloads_have_no_map_and_every_batch_tag_is_read() {
    let mut entries = Vec::new();
    entries.push(0x1); // Put
    prefixed(&mut entries, b"a");
    prefixed(&mut entries, b"1");
    entries.extend_from_slice(&[0x5, 0x0]); // Put on column family 0 (its explicit form)
    prefixed(&mut entries, b"a");
    prefixed(&mut entries, b"2");
    entries.extend_from_slice(&[0x8, 0x3]); // SingleDelete on column family 3
    prefixed(&mut entries, b"z");
    entries.push(0x3); // LogData: not an operation, not counted
    prefixed(&mut entries, b"blob");
    entries.push(0x7); // SingleDelete
    prefixed(&mut entries, b"a");
    entries.push(0xF); // DeleteRange
    prefixed(&mut entries, b"a");
    prefixed(&mut entries, b"c");
    let mut get = 0u32.to_le_bytes().to_vec();
    prefixed(&mut get, b"a");
    let mut prev = 0u32.to_le_bytes().to_vec();
    prefixed(&mut prev, b"b");
    let data = trace(
        "0.1",
        &[
            (TRACE_WRITE, batch(5, &entries)),
            (TRACE_GET, get),
            (TRACE_SEEK_FOR_PREV, prev),
            (9, vec![1, 2]),
            (TRACE_END, vec![]),
        ],
    );
    let mut t = RocksdbTrace::open("v1", data).unwrap();
    assert_eq!(t.versions(), (1, "6.14"));
    assert_eq!(ops(&mut t), ["Insert a=1", "Update a=2", "Delete a", "Get a", "Seek b"]);
    let c = t.counts();
    assert_eq!((c.puts, c.single_deletes, c.range_deletes, c.seeks_for_prev, c.scans), (2, 1, 1, 1, 1));
    assert_eq!(c.other_column_families.get(&3), Some(&1));
    assert_eq!(c.other_records.get(&9), Some(&1));
    assert_eq!(t.totals(), (0, Some(5)));
    assert_eq!(t.notes().len(), 4, "{:?}", t.notes());
}

#[test]
fn bad_batches_and_maps_name_the_record() {
    let mut put = vec![0x1];
    prefixed(&mut put, b"k");
    prefixed(&mut put, b"v");
    let v2 = |rep: Vec<u8>| {
        let mut p = 2u64.to_le_bytes().to_vec();
        prefixed(&mut p, &rep);
        p
    };
    let err = |records: &[(u8, Vec<u8>)]| RocksdbTrace::open("t", trace("0.2", records)).err().unwrap().to_string();
    // The header is record 0 at byte 0, 13 + 91 bytes long.
    assert_eq!(
        err(&[(TRACE_WRITE, v2(batch(2, &put)))]),
        "t: record 1 at byte 104: the WriteBatch's count says 1 more entries"
    );
    assert_eq!(
        err(&[(TRACE_WRITE, v2(batch(0, &put)))]),
        "t: record 1 at byte 104: WriteBatch entry at byte 138: more entries than the WriteBatch's count"
    );
    assert_eq!(
        err(&[(TRACE_WRITE, v2(batch(1, &[0x42])))]),
        "t: record 1 at byte 104: WriteBatch entry at byte 138: unknown WriteBatch tag 0x42"
    );
    assert_eq!(
        err(&[(TRACE_WRITE, v2(vec![1, 2]))]),
        "t: record 1 at byte 104: WriteBatch of 2 bytes is shorter than its 12-byte header"
    );
    let mut map = (1u64 << 5).to_le_bytes().to_vec();
    map.push(0);
    assert_eq!(
        err(&[(TRACE_GET, map)]),
        "t: record 1 at byte 104: Get: payload map bit 5 is not one of its fields [2, 3]"
    );
    let t = RocksdbTrace::open("t", trace("0.2", &[(TRACE_END, vec![]), (TRACE_GET, vec![9; 20])])).unwrap();
    assert_eq!((t.totals(), t.counts().records, t.counts().bytes_after_end), ((0, Some(0)), 1, 33));
    assert!(t.notes()[0].starts_with("33 bytes after the end record are not read"), "{:?}", t.notes());
    let mut mg = ((1u64 << 8) | (1 << 9) | (1 << 10)).to_le_bytes().to_vec();
    mg.extend_from_slice(&2u32.to_le_bytes());
    prefixed(&mut mg, &[0; 8]);
    let mut keys = Vec::new();
    prefixed(&mut keys, b"x");
    prefixed(&mut mg, &keys);
    assert_eq!(err(&[(TRACE_MULTIGET, mg)]), "t: record 1 at byte 104: MultiGet keys: truncated varint at byte 141");
}

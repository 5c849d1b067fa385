//! RocksDB's binary query-trace files (`DB::StartTrace`, `db_bench --trace_file=F`), as RocksDB
//! 7.8 writes them (trace_replay/trace_replay.cc, include/rocksdb/trace_record.h), read as an
//! `OpSource` so the engine, `lsm ops` (and so the RocksDB referee) and the fit replay a trace
//! record by record.
//!
//! The file is a sequence of records, each `timestamp` (u64 LE, µs), `type` (u8), payload length
//! (u32 LE) and payload. The first is the header (type 1, kTraceBegin), whose payload is the text
//! `feedcafedeadbeef\tTrace Version: 0.2\tRocksDB Version: 7.8\tFormat: Timestamp OpType Payload\n`;
//! the last is the footer (type 2, kTraceEnd, empty). From trace version 0.2 on (RocksDB ≥ 6.19) a
//! query payload starts with a u64 LE bitmap of the fields present, which follow in bit order:
//! - Write (3): bit 1, the WriteBatch's rep, length-prefixed (varint32). The rep is a 12-byte
//!   header (sequence u64, count u32) and entries, each a tag byte: Put 0x1 (key, value), Delete
//!   0x0, SingleDelete 0x7, Merge 0x2, DeleteRange 0xF (begin, end), and their column-family
//!   variants 0x5, 0x4, 0x8, 0x6, 0xE with a varint32 column family first; strings are
//!   varint32-length-prefixed (db/write_batch.cc ReadRecordFromWriteBatch).
//! - Get (4): bit 2 column family (u32), bit 3 key.
//! - IteratorSeek (5), IteratorSeekForPrev (6): bit 4 column family, bit 5 key, bits 6 and 7 the
//!   lower and upper bounds (present only when set).
//! - MultiGet (13): bit 8 key count (u32), bit 9 the column families (count × u32, length-prefixed
//!   as a whole), bit 10 the keys (count length-prefixed keys, length-prefixed as a whole).
//!
//! Before 0.2 there is no bitmap: a Write payload is the rep itself, a Get or Seek a u32 column
//! family and a key; such files hold no MultiGet.
//!
//! What is replayed: each Put / Delete / SingleDelete of a batch on the default column family is
//! one operation (a batch of n puts is n operations; a SingleDelete is a Delete), a Get one
//! lookup, each key of a MultiGet one lookup, a Seek or SeekForPrev one range operation over
//! [key, key]: the trace records where an iterator was positioned, not how many `Next` calls
//! followed, so a seek is replayed as a seek that reads at most the key itself. A Put is an
//! insert the first time the trace writes its key and an update after (the trace does not say
//! whether the key existed before tracing began). What the engine cannot play — Merge,
//! DeleteRange, blob indexes, wide-column entities, operations on other column families, record
//! types other than the query records (block-cache or IO trace records) — is skipped, counted by
//! kind (`TraceCounts`) and reported in `notes`, never dropped silently. Reading stops at the
//! end record, as RocksDB's replayer does; bytes after it are counted and noted. A malformed or truncated
//! file is an error naming the record and its byte offset, raised when the file is opened: the
//! whole file is checked (and counted) before the first operation is played.

use std::collections::BTreeMap;
use std::ops::Range;

use rustc_hash::FxHashSet;
use serde::Serialize;

use crate::generator::{Intent, Op, OpSource, Phase};
use cursor::{Cursor, le32, le64};
use lsm_core::error::{Error, Result};

/// The header record's payload starts with this (`kTraceMagic`).
pub const TRACE_MAGIC: &[u8] = b"feedcafedeadbeef";
/// Timestamp, type and payload length: the bytes before every record's payload.
const RECORD_HEADER: usize = 13;
/// A WriteBatch rep's header: sequence (u64) and count (u32).
const BATCH_HEADER: usize = 12;
const TRACE_BEGIN: u8 = 1;
const TRACE_END: u8 = 2;
const TRACE_WRITE: u8 = 3;
const TRACE_GET: u8 = 4;
const TRACE_SEEK: u8 = 5;
const TRACE_SEEK_FOR_PREV: u8 = 6;
const TRACE_MULTIGET: u8 = 13;

/// What a trace holds, by record type and by what became of each operation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TraceCounts {
    /// Records after the header, the footer included.
    pub records: u64,
    /// Write records (WriteBatches).
    pub writes: u64,
    /// Get records.
    pub gets: u64,
    /// IteratorSeek records.
    pub seeks: u64,
    /// IteratorSeekForPrev records.
    pub seeks_for_prev: u64,
    /// Seek and SeekForPrev records with a lower or an upper bound.
    pub bounded_seeks: u64,
    /// MultiGet records, and the keys they looked up.
    pub multigets: u64,
    /// Keys of all MultiGet records.
    pub multiget_keys: u64,
    /// Puts replayed (entries of Write batches on the default column family).
    pub puts: u64,
    /// Deletes replayed.
    pub deletes: u64,
    /// SingleDeletes replayed (as deletes).
    pub single_deletes: u64,
    /// Point lookups replayed: Gets and MultiGet keys on the default column family.
    pub lookups: u64,
    /// Seeks and SeekForPrevs replayed (as range operations over [key, key]).
    pub scans: u64,
    /// Merges skipped (the engine has no merge operator).
    pub merges: u64,
    /// DeleteRanges skipped.
    pub range_deletes: u64,
    /// Blob indexes and wide-column entities skipped.
    pub other_writes: u64,
    /// Operations on a column family other than the default, skipped: by column family id.
    pub other_column_families: BTreeMap<u32, u64>,
    /// Records of other types (block-cache, IO or unknown trace records), skipped: by type.
    pub other_records: BTreeMap<u8, u64>,
    /// Whether the trace ends with the footer (a tracer that was not closed leaves none).
    pub has_end: bool,
    /// Bytes after the footer, not read (what an older trace in the same file left).
    pub bytes_after_end: u64,
    /// Timestamps (µs) of the first and the last record after the header.
    pub first_micros: u64,
    /// See `first_micros`.
    pub last_micros: u64,
}

/// A RocksDB query trace as an `OpSource`: every operation is a `Phase::Run` one; lookups carry
/// `Intent::Get`.
pub struct RocksdbTrace {
    name: String,
    data: Vec<u8>,
    /// Trace file version as RocksDB parses it ("0.2" → 2).
    version: u32,
    /// "RocksDB Version: …" of the header.
    rocksdb_version: String,
    /// Offset of the next record, its index (the header is record 0).
    pos: usize,
    record: u64,
    pending: Pending,
    /// Keys written so far (a first write is an insert); not kept while counting.
    written: Option<FxHashSet<Vec<u8>>>,
    /// What has been read so far (the checking pass, then again while replaying).
    seen: TraceCounts,
    /// The whole file's counts, from the checking pass.
    total: TraceCounts,
    operations: u64,
}

/// The rest of a record that holds several operations.
#[derive(Clone)]
enum Pending {
    None,
    /// A WriteBatch's entries in `data[pos..end]`; `left` of its count still to be found.
    Batch {
        pos: usize,
        end: usize,
        left: u32,
        at: usize,
    },
    /// A MultiGet's column families and keys still to be read.
    MultiGet {
        cfs: usize,
        keys: usize,
        end: usize,
        left: u32,
        at: usize,
    },
}

/// One operation, as ranges of the file.
enum Item {
    Put(Range<usize>, Range<usize>),
    Delete(Range<usize>),
    Get(Range<usize>),
    Seek(Range<usize>),
}

impl RocksdbTrace {
    /// Read and check a whole trace file; errors name `name`, the record and its byte offset.
    pub fn open(name: &str, data: Vec<u8>) -> Result<RocksdbTrace> {
        let mut t = RocksdbTrace {
            name: name.to_string(),
            data,
            version: 0,
            rocksdb_version: String::new(),
            pos: 0,
            record: 0,
            pending: Pending::None,
            written: None,
            seen: TraceCounts::default(),
            total: TraceCounts::default(),
            operations: 0,
        };
        t.read_header()?;
        let start = t.pos;
        // Count (and check) everything first, so nothing is half-played.
        let mut n = 0u64;
        while t.next_item()?.is_some() {
            n += 1;
        }
        t.operations = n;
        t.pos = start;
        t.record = 1;
        t.pending = Pending::None;
        t.written = Some(FxHashSet::default());
        t.total = std::mem::take(&mut t.seen);
        Ok(t)
    }

    /// What the trace holds (all of it: the file is counted when opened).
    pub fn counts(&self) -> &TraceCounts {
        &self.total
    }

    /// The trace file version ("0.2" → 2) and the RocksDB version its header names.
    pub fn versions(&self) -> (u32, &str) {
        (self.version, &self.rocksdb_version)
    }

    fn bad(&self, at: usize, message: impl std::fmt::Display) -> Error {
        parse_error(&self.name, self.record, at, message)
    }

    fn read_header(&mut self) -> Result<()> {
        let not_a_trace = |m: String| parse_error(&self.name, 0, 0, format!("not a RocksDB trace: {m}"));
        let (ty, payload) = match self.record_at(0) {
            Ok(Some(r)) => r,
            Ok(None) => return Err(not_a_trace("the file is empty".into())),
            Err(Error::Parse { message, .. }) => {
                return Err(not_a_trace(message.split_once(": ").map_or(message.clone(), |(_, m)| m.to_string())));
            }
            Err(e) => return Err(e),
        };
        let text = &self.data[payload.clone()];
        if ty != TRACE_BEGIN || !text.starts_with(TRACE_MAGIC) {
            return Err(not_a_trace("its first record is not a header (type 1, starting \"feedcafedeadbeef\")".into()));
        }
        let text = String::from_utf8_lossy(text).into_owned();
        let field = |label: &str| text.split('\t').find_map(|f| f.strip_prefix(label)).map(|v| v.trim().to_string());
        let version = field("Trace Version: ").ok_or_else(|| self.bad(0, "the header names no \"Trace Version\""))?;
        // As TracerHelper::ParseVersionStr: exactly one '.', digits around it, read as one number.
        let digits: String = version.chars().filter(|&c| c != '.').collect();
        self.version = match (version.matches('.').count(), digits.parse::<u32>()) {
            (1, Ok(v)) if digits.chars().all(|c| c.is_ascii_digit()) => v,
            _ => return Err(self.bad(0, format!("trace version \"{version}\" is not MAJOR.MINOR"))),
        };
        self.rocksdb_version = field("RocksDB Version: ").unwrap_or_default();
        self.pos = payload.end;
        self.record = 1;
        Ok(())
    }

    /// The record at `at`: its type and payload range, or `None` at the end of the file.
    fn record_at(&self, at: usize) -> Result<Option<(u8, Range<usize>)>> {
        let left = self.data.len() - at;
        if left == 0 {
            return Ok(None);
        }
        if left < RECORD_HEADER {
            return Err(self.bad(at, format!("truncated: {left} bytes left, a record header takes {RECORD_HEADER}")));
        }
        let ty = self.data[at + 8];
        let len = le32(&self.data, at + 9) as usize;
        if len > left - RECORD_HEADER {
            return Err(self.bad(
                at,
                format!(
                    "truncated: the payload of {len} bytes runs past the end ({} bytes left)",
                    left - RECORD_HEADER
                ),
            ));
        }
        Ok(Some((ty, at + RECORD_HEADER..at + RECORD_HEADER + len)))
    }

    /// The next operation of the trace (skipping and counting what is not replayed).
    fn next_item(&mut self) -> Result<Option<Item>> {
        loop {
            match self.pending.clone() {
                Pending::Batch { pos, end, left, at } => {
                    if pos < end {
                        if let Some(item) = self.batch_entry(pos, end, left, at)? {
                            return Ok(Some(item));
                        }
                        continue;
                    }
                    if left != 0 {
                        return Err(self.bad(at, format!("the WriteBatch's count says {left} more entries")));
                    }
                    self.pending = Pending::None;
                    self.record += 1;
                }
                Pending::MultiGet { cfs, keys, end, left, at } => {
                    if left == 0 {
                        if keys != end {
                            return Err(self.bad(at, "MultiGet: more keys than its key count"));
                        }
                        self.pending = Pending::None;
                        self.record += 1;
                        continue;
                    }
                    let mut c = Cursor { data: &self.data, pos: cfs, end: keys };
                    let cf = c.fixed32().map_err(|m| self.bad(at, format!("MultiGet column families: {m}")))?;
                    let cfs = c.pos;
                    let mut k = Cursor { data: &self.data, pos: keys, end };
                    let key = k.prefixed().map_err(|m| self.bad(at, format!("MultiGet keys: {m}")))?;
                    self.pending = Pending::MultiGet { cfs, keys: k.pos, end, left: left - 1, at };
                    if self.default_cf(cf) {
                        self.seen.lookups += 1;
                        return Ok(Some(Item::Get(key)));
                    }
                }
                Pending::None => {
                    if self.seen.has_end {
                        // RocksDB's replayer stops at the end record too. db_bench reopens a
                        // trace file without truncating it, so an older, longer trace's tail
                        // can follow: counted and noted, not read.
                        self.seen.bytes_after_end = (self.data.len() - self.pos) as u64;
                        return Ok(None);
                    }
                    let at = self.pos;
                    let Some((ty, payload)) = self.record_at(at)? else { return Ok(None) };
                    self.pos = payload.end;
                    let ts = le64(&self.data, at);
                    if self.seen.records == 0 {
                        self.seen.first_micros = ts;
                    }
                    self.seen.last_micros = ts;
                    self.seen.records += 1;
                    if let Some(item) = self.query_record(ty, payload, at)? {
                        self.record += 1;
                        return Ok(Some(item));
                    }
                    if matches!(self.pending, Pending::None) {
                        self.record += 1;
                    }
                }
            }
        }
    }

    /// Counts an operation's column family; true when it is the default one (id 0).
    fn default_cf(&mut self, cf: u32) -> bool {
        if cf != 0 {
            *self.seen.other_column_families.entry(cf).or_default() += 1;
        }
        cf == 0
    }

    /// Decode one record after the header: an operation, or `None` (a batch or MultiGet to be
    /// read entry by entry, a skipped record, the end).
    fn query_record(&mut self, ty: u8, payload: Range<usize>, at: usize) -> Result<Option<Item>> {
        let v2 = self.version >= 2;
        let mut c = Cursor { data: &self.data, pos: payload.start, end: payload.end };
        let bad = |m: String| parse_error(&self.name, self.record, at, m);
        // Fields by bitmap bit: (bit, reader); fields absent from the bitmap stay empty / 0.
        let mut fields: [Option<Range<usize>>; 11] = Default::default();
        let mut numbers = [0u32; 11];
        let allowed: &[u8] = match ty {
            TRACE_WRITE => &[1],
            TRACE_GET => &[2, 3],
            TRACE_SEEK | TRACE_SEEK_FOR_PREV => &[4, 5, 6, 7],
            TRACE_MULTIGET => &[8, 9, 10],
            _ => &[],
        };
        let kind = match ty {
            TRACE_WRITE => "Write",
            TRACE_GET => "Get",
            TRACE_SEEK => "IteratorSeek",
            TRACE_SEEK_FOR_PREV => "IteratorSeekForPrev",
            TRACE_MULTIGET => "MultiGet",
            _ => "",
        };
        match ty {
            TRACE_END => {
                self.seen.has_end = true;
                return Ok(None);
            }
            TRACE_BEGIN => return Err(bad("a second header record".into())),
            _ if allowed.is_empty() => {
                *self.seen.other_records.entry(ty).or_default() += 1;
                return Ok(None);
            }
            TRACE_MULTIGET if !v2 => return Err(bad("MultiGet in a trace older than version 0.2".into())),
            _ => {}
        }
        if v2 {
            let map = c.fixed64().map_err(|m| bad(format!("{kind} payload map: {m}")))?;
            for bit in 0..64u8 {
                if map & (1 << bit) == 0 {
                    continue;
                }
                if !allowed.contains(&bit) {
                    return Err(bad(format!("{kind}: payload map bit {bit} is not one of its fields {allowed:?}")));
                }
                // Bits 2, 4 and 8 are u32s (column family, key count); the rest length-prefixed.
                let b = usize::from(bit);
                if matches!(bit, 2 | 4 | 8) {
                    numbers[b] = c.fixed32().map_err(|m| bad(format!("{kind} field {bit}: {m}")))?;
                } else {
                    fields[b] = Some(c.prefixed().map_err(|m| bad(format!("{kind} field {bit}: {m}")))?);
                }
            }
        } else if ty == TRACE_WRITE {
            fields[1] = Some(c.pos..c.end);
            c.pos = c.end;
        } else {
            let (cf_bit, key_bit) = if ty == TRACE_GET { (2, 3) } else { (4, 5) };
            numbers[cf_bit] = c.fixed32().map_err(|m| bad(format!("{kind} column family: {m}")))?;
            fields[key_bit] = Some(c.prefixed().map_err(|m| bad(format!("{kind} key: {m}")))?);
        }
        if c.pos != c.end {
            return Err(bad(format!("{kind}: {} bytes after its fields", c.end - c.pos)));
        }
        let empty = payload.end..payload.end;
        match ty {
            TRACE_WRITE => {
                self.seen.writes += 1;
                let rep = fields[1].clone().unwrap_or(empty);
                if rep.len() < BATCH_HEADER {
                    return Err(bad(format!("WriteBatch of {} bytes is shorter than its 12-byte header", rep.len())));
                }
                let count = le32(&self.data, rep.start + 8);
                self.pending = Pending::Batch { pos: rep.start + BATCH_HEADER, end: rep.end, left: count, at };
                Ok(None)
            }
            TRACE_GET => {
                self.seen.gets += 1;
                let key = fields[3].clone().unwrap_or(empty);
                let replayed = self.default_cf(numbers[2]);
                self.seen.lookups += u64::from(replayed);
                Ok(replayed.then_some(Item::Get(key)))
            }
            TRACE_SEEK | TRACE_SEEK_FOR_PREV => {
                if ty == TRACE_SEEK {
                    self.seen.seeks += 1
                } else {
                    self.seen.seeks_for_prev += 1
                }
                self.seen.bounded_seeks += u64::from(fields[6].is_some() || fields[7].is_some());
                let key = fields[5].clone().unwrap_or(empty);
                let replayed = self.default_cf(numbers[4]);
                self.seen.scans += u64::from(replayed);
                Ok(replayed.then_some(Item::Seek(key)))
            }
            _ => {
                self.seen.multigets += 1;
                let size = numbers[8];
                let (cfs, keys) =
                    (fields[9].clone().unwrap_or_else(|| empty.clone()), fields[10].clone().unwrap_or(empty));
                if size == 0 {
                    return Err(bad("MultiGet of 0 keys".into()));
                }
                if cfs.len() as u64 != 4 * u64::from(size) {
                    return Err(bad(format!("MultiGet of {size} keys has {} bytes of column families", cfs.len())));
                }
                self.seen.multiget_keys += u64::from(size);
                // The keys follow the column families' field (bit 9 before bit 10).
                self.pending = Pending::MultiGet { cfs: cfs.start, keys: keys.start, end: keys.end, left: size, at };
                Ok(None)
            }
        }
    }

    /// One entry of the batch at `pos`; `None` for an entry that is skipped (counted).
    fn batch_entry(&mut self, pos: usize, end: usize, left: u32, at: usize) -> Result<Option<Item>> {
        let mut c = Cursor { data: &self.data, pos, end };
        let tag = self.data[pos];
        c.pos += 1;
        let entry_at = pos;
        let bad =
            |m: &str| parse_error(&self.name, self.record, at, format!("WriteBatch entry at byte {entry_at}: {m}"));
        // Tags with a column family first (db/dbformat.h ValueType).
        let cf = if matches!(tag, 0x4 | 0x5 | 0x6 | 0x8 | 0xE | 0x10 | 0x17) {
            c.varint32().map_err(|m| bad(&format!("column family: {m}")))?
        } else {
            0
        };
        // (strings that follow, counts toward the batch's count)
        let (strings, counted) = match tag {
            0x0 | 0x4 | 0x7 | 0x8 => (1, true),
            0x1 | 0x5 | 0x2 | 0x6 | 0xE | 0xF | 0x10 | 0x11 | 0x16 | 0x17 => (2, true),
            0x3 | 0xA | 0xB | 0xC => (1, false),
            0x9 | 0xD | 0x12 | 0x13 => (0, false),
            0x15 => (2, false),
            _ => return Err(bad(&format!("unknown WriteBatch tag 0x{tag:02x}"))),
        };
        let mut s = [pos..pos, pos..pos];
        for slot in s.iter_mut().take(strings) {
            *slot = c.prefixed().map_err(|m| bad(m.as_str()))?;
        }
        let left = if counted {
            left.checked_sub(1).ok_or_else(|| bad("more entries than the WriteBatch's count"))?
        } else {
            left
        };
        self.pending = Pending::Batch { pos: c.pos, end, left, at };
        if !counted || !self.default_cf(cf) {
            return Ok(None);
        }
        let [a, b] = s;
        Ok(match tag {
            0x1 | 0x5 => {
                self.seen.puts += 1;
                Some(Item::Put(a, b))
            }
            0x0 | 0x4 => {
                self.seen.deletes += 1;
                Some(Item::Delete(a))
            }
            0x7 | 0x8 => {
                self.seen.single_deletes += 1;
                Some(Item::Delete(a))
            }
            0x2 | 0x6 => {
                self.seen.merges += 1;
                None
            }
            0xE | 0xF => {
                self.seen.range_deletes += 1;
                None
            }
            _ => {
                self.seen.other_writes += 1;
                None
            }
        })
    }
}

/// A malformed record: the trace, the record's index (the header is 0) and its byte offset.
fn parse_error(name: &str, record: u64, at: usize, message: impl std::fmt::Display) -> Error {
    Error::Parse { document: name.to_string(), message: format!("record {record} at byte {at}: {message}") }
}

/// The key's integer id: its first 8 bytes big-endian, as the engine's and db_bench's keys begin
/// with the key number; 0 for a shorter key.
fn key_id(key: &[u8]) -> u64 {
    if key.len() < 8 { 0 } else { u64::from_be_bytes(std::array::from_fn(|i| key[i])) }
}

impl OpSource for RocksdbTrace {
    fn next_op(&mut self) -> Result<Option<(Phase, Op<'_>)>> {
        let Some(item) = self.next_item()? else { return Ok(None) };
        let op = match item {
            Item::Put(k, v) => {
                let key = &self.data[k];
                let first = self.written.as_mut().is_none_or(|w| w.insert(key.to_vec()));
                let intent = if first { Intent::Insert } else { Intent::Update };
                Op::Put { intent, id: key_id(key), key, value: &self.data[v] }
            }
            Item::Delete(k) => Op::Delete { id: key_id(&self.data[k.clone()]), key: &self.data[k] },
            Item::Get(k) => Op::Get { intent: Intent::Get, id: key_id(&self.data[k.clone()]), key: &self.data[k] },
            Item::Seek(k) => {
                let key = &self.data[k];
                let id = key_id(key);
                Op::Range { lo: id, hi: id, start: key, end: key }
            }
        };
        Ok(Some((Phase::Run, op)))
    }

    fn totals(&self) -> (u64, Option<u64>) {
        (0, Some(self.operations))
    }

    fn notes(&self) -> Vec<String> {
        notes(&self.total)
    }
}

/// What a trace held that is not replayed as it was, in words.
pub fn notes(c: &TraceCounts) -> Vec<String> {
    let mut notes = Vec::new();
    let mut skipped = |n: u64, what: &str| {
        if n > 0 {
            notes.push(format!("skipped {n} {what}"));
        }
    };
    skipped(c.merges, "Merge operations (the engine has no merge operator)");
    skipped(c.range_deletes, "DeleteRange operations (the engine has no range deletes)");
    skipped(c.other_writes, "blob-index or wide-column writes");
    for (cf, n) in &c.other_column_families {
        notes.push(format!("skipped {n} operations on column family {cf} (only the default, 0, is replayed)"));
    }
    for (ty, n) in &c.other_records {
        notes.push(format!(
            "skipped {n} records of type {ty} (not query records: Write 3, Get 4, Seek 5, SeekForPrev 6, MultiGet 13)"
        ));
    }
    if c.seeks + c.seeks_for_prev > 0 {
        notes.push(format!(
            "{} seeks replayed as seeks to their key: the trace does not record the Next calls after them",
            c.seeks + c.seeks_for_prev
        ));
    }
    if c.bytes_after_end > 0 {
        notes.push(format!(
            "{} bytes after the end record are not read, as RocksDB's replayer does not read them \
             (an older trace's tail: db_bench does not truncate a trace file it reuses)",
            c.bytes_after_end
        ));
    }
    if !c.has_end {
        notes.push("the trace has no end record (its tracer was not closed): read to the end of the file".into());
    }
    notes
}

mod cursor;
#[cfg(test)]
mod tests;

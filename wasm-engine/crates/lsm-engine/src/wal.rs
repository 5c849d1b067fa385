//! Write-ahead log: every write is appended here before it is applied to the buffer, and a sync
//! makes the appended writes durable — that is when they count as acknowledged. One log file per
//! buffer; a flush starts a new log and the old one is deleted once the flushed table is in the
//! manifest.

use crate::frame;
use crate::memtable::Memtable;
use crate::storage::Storage;
use lsm_core::error::{Error, Result};

const OP_PUT: u8 = 1;
const OP_DELETE: u8 = 2;

pub(crate) fn wal_file_name(number: u64) -> String {
    format!("{number:08}.wal")
}

pub(crate) struct Wal {
    pub number: u64,
    file: String,
    /// Appended records not yet handed to storage.
    pending: Vec<u8>,
    scratch: Vec<u8>,
    /// Off: writes are not logged (RocksDB's `WriteOptions::disableWAL`): faster, and what the
    /// buffer holds is lost on a crash. Flushed data is durable either way.
    logging: bool,
    /// Writes appended since the last sync.
    dirty: bool,
}

impl Wal {
    pub(crate) fn new(number: u64) -> Self {
        Wal {
            number,
            file: wal_file_name(number),
            pending: Vec::new(),
            scratch: Vec::new(),
            logging: true,
            dirty: false,
        }
    }

    /// Stop (or resume) logging writes; see `logging`.
    pub(crate) fn set_logging(&mut self, on: bool) {
        self.logging = on;
        if !on {
            self.pending.clear();
        }
    }

    pub(crate) fn is_logging(&self) -> bool {
        self.logging
    }

    /// Writes were logged since the last sync (they are not durable yet).
    pub(crate) fn is_dirty(&self) -> bool {
        self.dirty
    }

    /// A log for the next buffer, sized like this one so its pending records do not regrow
    /// write by write. (This log keeps its records: until the flush commits, they still count.)
    pub(crate) fn successor(&self, number: u64) -> Wal {
        Wal {
            number,
            file: wal_file_name(number),
            pending: Vec::with_capacity(self.pending.capacity()),
            scratch: Vec::new(),
            logging: self.logging,
            dirty: false,
        }
    }

    pub(crate) fn file(&self) -> &str {
        &self.file
    }

    /// Log one write; returns the bytes it adds to the log.
    pub(crate) fn append(&mut self, key: &[u8], value: Option<&[u8]>) -> u64 {
        if !self.logging {
            return 0;
        }
        self.scratch.clear();
        match value {
            Some(v) => {
                self.scratch.push(OP_PUT);
                self.scratch.extend_from_slice(&(key.len() as u16).to_le_bytes());
                self.scratch.extend_from_slice(key);
                self.scratch.extend_from_slice(&(v.len() as u32).to_le_bytes());
                self.scratch.extend_from_slice(v);
            }
            None => {
                self.scratch.push(OP_DELETE);
                self.scratch.extend_from_slice(&(key.len() as u16).to_le_bytes());
                self.scratch.extend_from_slice(key);
            }
        }
        self.dirty = true;
        let before = self.pending.len();
        frame::encode(&self.scratch, &mut self.pending);
        (self.pending.len() - before) as u64
    }

    /// Hand pending records to storage and make them durable. Returns bytes written.
    pub(crate) fn sync(&mut self, storage: &mut dyn Storage) -> Result<u64> {
        if !self.logging {
            return Ok(0);
        }
        let n = self.pending.len() as u64;
        if n > 0 {
            storage.append(&self.file, &self.pending)?;
            self.pending.clear();
        }
        storage.sync(&self.file)?;
        self.dirty = false;
        Ok(n)
    }

    /// Create the (empty) log file so its existence is recorded even before the first write.
    pub(crate) fn create(&mut self, storage: &mut dyn Storage) -> Result<()> {
        if !self.logging {
            return Ok(());
        }
        storage.append(&self.file, &[])?;
        // Made durable on the disk's own thread, not the writer's: a new file's first sync
        // commits the file system's journal, which waits behind every merge's writeback (a
        // buffer switch took 40-220 ms at 100M entries). No write is promised durable before
        // `Engine::sync`, which waits for this first.
        storage.sync_later(&self.file)
    }
}

/// Replay a log into `memtable`. A torn tail (an unfinished last record) is cut off; corruption
/// anywhere is an error.
pub(crate) fn replay(number: u64, storage: &mut dyn Storage, memtable: &mut Memtable) -> Result<Replayed> {
    let file = wal_file_name(number);
    let len = storage.len(&file)?;
    let bytes = storage.read(&file, 0, len as usize)?;
    let (records, valid) = frame::decode_all(&file, &bytes)?;
    for r in &records {
        let rec = &bytes[r.clone()];
        let bad = || Error::corruption(&file, r.start as u64, "log record is malformed");
        let op = *rec.first().ok_or_else(bad)?;
        let klen = u16::from_le_bytes(rec.get(1..3).ok_or_else(bad)?.try_into().map_err(|_| bad())?) as usize;
        let key = rec.get(3..3 + klen).ok_or_else(bad)?;
        match op {
            OP_PUT => {
                let v = rec.get(3 + klen..).ok_or_else(bad)?;
                let vlen = u32::from_le_bytes(v.get(0..4).ok_or_else(bad)?.try_into().map_err(|_| bad())?) as usize;
                let value = v.get(4..4 + vlen).filter(|_| v.len() == 4 + vlen).ok_or_else(bad)?;
                memtable.put(key, Some(value));
            }
            OP_DELETE if rec.len() == 3 + klen => memtable.put(key, None),
            _ => return Err(bad()),
        }
    }
    if (valid as u64) < len {
        storage.truncate(&file, valid as u64)?;
    }
    Ok(Replayed { records: records.len() as u64, bytes_cut: len - valid as u64 })
}

/// What replaying one log did.
pub(crate) struct Replayed {
    /// Records replayed into the buffer.
    pub records: u64,
    /// Bytes of a torn last record cut off.
    pub bytes_cut: u64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::MemStorage;

    #[test]
    fn synced_writes_replay_and_unsynced_may_vanish() {
        let mut s = MemStorage::new();
        let mut w = Wal::new(3);
        w.create(&mut s).unwrap();
        w.append(b"a", Some(b"1"));
        w.append(b"b", None);
        w.sync(&mut s).unwrap();
        w.append(b"c", Some(b"3"));
        // Not synced: a crash may keep any prefix of it; here it keeps 5 bytes (torn).
        s.append(w.file(), &w.pending[..5]).unwrap();
        s.crash(|_, _| usize::MAX);
        let mut m = Memtable::new();
        let r = replay(3, &mut s, &mut m).unwrap();
        assert_eq!((r.records, r.bytes_cut), (2, 5));
        assert_eq!(m.get(b"a"), Some(Some(&b"1"[..])));
        assert_eq!(m.get(b"b"), Some(None));
        assert_eq!(m.get(b"c"), None);
        assert_eq!(s.len(&wal_file_name(3)).unwrap(), s.contents(&wal_file_name(3)).unwrap().len() as u64);
    }
}

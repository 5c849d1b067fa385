//! The manifest: which tables make up the tree (level, run) and which log is live, as a log of
//! checksummed records — a full snapshot first, then one edit per flush or merge. Applying an edit
//! is the commit point of a flush or merge, so a crash leaves either the old tree or the new one.
//! When the log grows, a new manifest file is written from a snapshot and the old one deleted; on
//! open, the newest manifest whose snapshot is complete wins.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::frame;
use crate::storage::Storage;
use lsm_core::config::EngineConfig;
use lsm_core::error::{Error, Result};

/// Rewrite the manifest once its log holds this many bytes.
const REWRITE_BYTES: u64 = 1 << 20;

pub(crate) fn manifest_file_name(number: u64) -> String {
    format!("MANIFEST-{number:08}")
}

pub(crate) fn manifest_number(file: &str) -> Option<u64> {
    file.strip_prefix("MANIFEST-")?.parse().ok()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct TableEntry {
    pub table: u64,
    pub level: usize,
    pub run: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct Edit {
    pub next_id: u64,
    /// The log that holds every write not yet in a table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wal: Option<u64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub add: Vec<TableEntry>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remove: Vec<u64>,
    /// Round-robin compaction cursors, level number → hex key, for merges by file. (String keys:
    /// JSON object keys are strings.)
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub cursors: BTreeMap<String, String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct State {
    pub config: EngineConfig,
    pub next_id: u64,
    pub wal: u64,
    pub tables: BTreeMap<u64, TableEntry>,
    pub cursors: BTreeMap<String, String>,
}

/// Externally tagged (`{"snapshot": …}`): an internally tagged enum would buffer the record and
/// lose serde_json's integer map keys.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Record {
    Snapshot(State),
    Edit(Edit),
}

impl State {
    pub(crate) fn new(config: EngineConfig, next_id: u64, wal: u64) -> Self {
        State { config, next_id, wal, tables: BTreeMap::new(), cursors: BTreeMap::new() }
    }

    pub(crate) fn apply(&mut self, e: &Edit) {
        self.next_id = self.next_id.max(e.next_id);
        if let Some(w) = e.wal {
            self.wal = w;
        }
        for t in &e.remove {
            self.tables.remove(t);
        }
        for t in &e.add {
            self.tables.insert(t.table, *t);
        }
        for (l, c) in &e.cursors {
            self.cursors.insert(l.clone(), c.clone());
        }
    }
}

pub(crate) struct Manifest {
    pub number: u64,
    file: String,
    bytes: u64,
    /// Bytes of a torn last record cut off when it was loaded.
    pub cut: u64,
}

fn encode(record: &Record) -> Result<Vec<u8>> {
    let payload = serde_json::to_vec(record).map_err(|e| Error::State(format!("manifest record: {e}")))?;
    let mut out = Vec::with_capacity(payload.len() + 12);
    frame::encode(&payload, &mut out);
    Ok(out)
}

impl Manifest {
    /// Start manifest `number` with a snapshot of `state`, durable after every table it names
    /// (`Storage::commit_later`; `await_syncs` waits for it).
    pub(crate) fn create(storage: &mut dyn Storage, number: u64, state: &State) -> Result<Manifest> {
        let file = manifest_file_name(number);
        if storage.exists(&file)? {
            storage.delete(&file)?;
        }
        let bytes = encode(&Record::Snapshot(state.clone()))?;
        storage.commit_later(&file, &bytes)?;
        Ok(Manifest { number, file, bytes: bytes.len() as u64, cut: 0 })
    }

    #[cfg(test)]
    pub(crate) fn file(&self) -> &str {
        &self.file
    }

    /// Append one edit, durable after every table it adds (`Storage::commit_later`: the merge
    /// that follows does not wait for the disk); `state` must already include it. Rewrites the
    /// manifest from a snapshot when the log has grown large.
    pub(crate) fn commit(&mut self, storage: &mut dyn Storage, edit: &Edit, state: &State) -> Result<()> {
        if self.bytes > REWRITE_BYTES {
            let next = Manifest::create(storage, self.number + 1, state)?;
            storage.delete(&self.file)?;
            *self = next;
            return Ok(());
        }
        let bytes = encode(&Record::Edit(edit.clone()))?;
        storage.commit_later(&self.file, &bytes)?;
        self.bytes += bytes.len() as u64;
        Ok(())
    }

    /// The newest complete manifest and the state it describes, or None for an empty store.
    /// Older manifests and incomplete newer ones are deleted.
    pub(crate) fn load(storage: &mut dyn Storage) -> Result<Option<(Manifest, State)>> {
        let mut numbers: Vec<u64> = storage.list()?.iter().filter_map(|f| manifest_number(f)).collect();
        numbers.sort_unstable_by(|a, b| b.cmp(a));
        let mut found = None;
        for &n in &numbers {
            let file = manifest_file_name(n);
            let len = storage.len(&file)?;
            let bytes = storage.read(&file, 0, len as usize)?;
            let (records, valid) = frame::decode_all(&file, &bytes)?;
            let mut state: Option<State> = None;
            for r in &records {
                let record: Record = serde_json::from_slice(&bytes[r.clone()]).map_err(|e| {
                    Error::corruption(&file, r.start as u64, format!("manifest record is malformed: {e}"))
                })?;
                match (record, &mut state) {
                    (Record::Snapshot(s), None) => state = Some(s),
                    (Record::Edit(e), Some(s)) => s.apply(&e),
                    _ => return Err(Error::corruption(&file, r.start as u64, "manifest records out of order")),
                }
            }
            if let Some(state) = state {
                if (valid as u64) < len {
                    storage.truncate(&file, valid as u64)?;
                }
                found = Some((Manifest { number: n, file, bytes: valid as u64, cut: len - valid as u64 }, state));
                break;
            }
            // No complete snapshot: a crash while this manifest was being started.
        }
        if let Some((m, _)) = &found {
            for &n in numbers.iter().filter(|&&n| n != m.number) {
                storage.delete(&manifest_file_name(n))?;
            }
        }
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::MemStorage;
    use lsm_core::config::{Allocation, EngineConfig};

    fn state() -> State {
        State::new(EngineConfig::uniform_shape(10.0, 1, Allocation::Monkey, 10.0), 5, 1)
    }

    #[test]
    fn edits_replay_and_torn_tail_is_cut() {
        let mut s = MemStorage::new();
        let mut st = state();
        let mut m = Manifest::create(&mut s, 1, &st).unwrap();
        let e =
            Edit { next_id: 9, wal: Some(4), add: vec![TableEntry { table: 7, level: 1, run: 7 }], ..Edit::default() };
        st.apply(&e);
        m.commit(&mut s, &e, &st).unwrap();
        let e2 = Edit { next_id: 11, remove: vec![7], ..Edit::default() };
        let mut bytes = Vec::new();
        frame::encode(&serde_json::to_vec(&Record::Edit(e2)).unwrap(), &mut bytes);
        s.append(m.file(), &bytes[..bytes.len() - 3]).unwrap(); // torn, never synced
        let (_, loaded) = Manifest::load(&mut s).unwrap().unwrap();
        assert_eq!(loaded, st);
    }

    #[test]
    fn incomplete_newer_manifest_falls_back_to_the_older_one() {
        let mut s = MemStorage::new();
        let st = state();
        Manifest::create(&mut s, 1, &st).unwrap();
        s.append(&manifest_file_name(2), b"\x10\x00").unwrap(); // crash while starting #2
        let (m, loaded) = Manifest::load(&mut s).unwrap().unwrap();
        assert_eq!((m.number, loaded), (1, st));
        assert!(!s.exists(&manifest_file_name(2)).unwrap());
    }
}

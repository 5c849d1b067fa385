//! The database's own record of the workload run on it: that a run began (what it was and how
//! many operations it planned), how far its writes had been acknowledged, and how it ended. It is
//! kept in the database's storage, next to its log and manifest, so a database reopened after the
//! page or the browser died can say it was interrupted mid-run and what had been acknowledged —
//! not only the caller's memory of it, which died with the page.
//!
//! The file is a log of checksummed records (`frame`): a `begin`, then one `ack` per batch of
//! acknowledged writes (the caller's step, not each write: a sync costs the browser 0.3–0.9 ms),
//! then an `end`. An `ack` is written after the writes it counts are synced, so it never claims
//! more than a crash keeps. A new run starts a new file (written and synced before the old one is
//! deleted); a long run's file is rewritten as its `begin` and latest `ack` when it grows.

use serde::{Deserialize, Serialize};

use crate::frame;
use crate::storage::Storage;
use lsm_core::error::{Error, Result};

/// Rewrite the record once its file holds this many bytes (an `ack` is about 60 bytes).
pub(crate) const REWRITE_BYTES: u64 = 64 * 1024;

fn file_name(number: u64) -> String {
    format!("RUNLOG-{number:08}")
}

fn file_number(file: &str) -> Option<u64> {
    file.strip_prefix("RUNLOG-")?.parse().ok()
}

/// What a run is, recorded when it begins.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RunStart {
    /// The run as the caller names it (a workload's name and counts).
    pub label: String,
    /// Operations it plans (preload and run), when the source knows its length.
    pub planned_operations: Option<u64>,
    /// Of those, the writes (puts and deletes) it plans, when known.
    pub planned_writes: Option<u64>,
}

/// How far a run's operations had been acknowledged: executed, and their writes synced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Acknowledged {
    /// Operations done (reads included).
    pub operations: u64,
    /// Of those, writes (puts and deletes), every one durable.
    pub writes: u64,
}

/// How a run that ended ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Every planned operation ran.
    Finished,
    /// Stopped on request before its end.
    Cancelled,
}

/// How a run ended, recorded at its end.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RunEnd {
    /// Finished or cancelled.
    pub outcome: Outcome,
    /// What it had done by then.
    pub acknowledged: Acknowledged,
    /// The result in a line (the caller's words: throughput, I/O per operation).
    pub result: String,
}

/// The last run the database recorded: its start, its last acknowledgement and, unless it was
/// interrupted, its end.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RunRecord {
    /// What it was.
    pub start: RunStart,
    /// As last recorded: at its end, or at the last batch acknowledged before an interruption.
    pub acknowledged: Acknowledged,
    /// None: the run began and never ended — the database was interrupted during it.
    pub end: Option<RunEnd>,
}

impl RunRecord {
    /// The run began and no end was recorded: the page, the browser or the process died during it.
    pub fn interrupted(&self) -> bool {
        self.end.is_none()
    }
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Record {
    Begin(RunStart),
    Ack(Acknowledged),
    End(RunEnd),
}

fn encode(record: &Record, out: &mut Vec<u8>) -> Result<()> {
    let payload = serde_json::to_vec(record).map_err(|e| Error::State(format!("run record: {e}")))?;
    frame::encode(&payload, out);
    Ok(())
}

/// The record file as the engine holds it.
#[derive(Debug, Default)]
pub(crate) struct RunLog {
    /// The file's number (0: none yet).
    number: u64,
    /// Bytes the file holds.
    pub(crate) bytes: u64,
    /// The run it records, as the engine holds it.
    pub(crate) record: Option<RunRecord>,
}

impl RunLog {
    /// The newest record file whose `begin` is complete, and the run it records; older files and
    /// a newer one cut off before its `begin` are deleted. A torn last record is cut off.
    pub(crate) fn load(storage: &mut dyn Storage) -> Result<RunLog> {
        let mut numbers: Vec<u64> = storage.list()?.iter().filter_map(|f| file_number(f)).collect();
        numbers.sort_unstable_by(|a, b| b.cmp(a));
        let mut found = RunLog::default();
        for &n in &numbers {
            let file = file_name(n);
            let len = storage.len(&file)?;
            let bytes = storage.read(&file, 0, len as usize)?;
            let (records, valid) = frame::decode_all(&file, &bytes)?;
            let mut record: Option<RunRecord> = None;
            for r in &records {
                let parsed: Record = serde_json::from_slice(&bytes[r.clone()])
                    .map_err(|e| Error::corruption(&file, r.start as u64, format!("run record is malformed: {e}")))?;
                match (parsed, &mut record) {
                    (Record::Begin(start), None) => {
                        record = Some(RunRecord { start, acknowledged: Acknowledged::default(), end: None })
                    }
                    (Record::Ack(a), Some(rec)) if rec.end.is_none() => rec.acknowledged = a,
                    (Record::End(end), Some(rec)) if rec.end.is_none() => {
                        rec.acknowledged = end.acknowledged;
                        rec.end = Some(end);
                    }
                    _ => return Err(Error::corruption(&file, r.start as u64, "run records out of order")),
                }
            }
            if record.is_some() {
                if (valid as u64) < len {
                    storage.truncate(&file, valid as u64)?;
                }
                found = RunLog { number: n, bytes: valid as u64, record };
                break;
            }
        }
        for &n in numbers.iter().filter(|&&n| n != found.number) {
            storage.delete(&file_name(n))?;
        }
        Ok(found)
    }

    /// Append one record and sync it.
    pub(crate) fn append(&mut self, storage: &mut dyn Storage, record: &Record) -> Result<()> {
        let mut bytes = Vec::new();
        encode(record, &mut bytes)?;
        let file = file_name(self.number);
        storage.append(&file, &bytes)?;
        storage.sync(&file)?;
        self.bytes += bytes.len() as u64;
        Ok(())
    }

    /// Start file `number + 1` with these records, durable before the old file goes.
    pub(crate) fn rewrite(&mut self, storage: &mut dyn Storage, records: &[Record]) -> Result<()> {
        let old = self.number;
        let mut bytes = Vec::new();
        for r in records {
            encode(r, &mut bytes)?;
        }
        self.number = old + 1;
        let file = file_name(self.number);
        if storage.exists(&file)? {
            storage.delete(&file)?;
        }
        storage.append(&file, &bytes)?;
        storage.sync(&file)?;
        self.bytes = bytes.len() as u64;
        if old > 0 && storage.exists(&file_name(old))? {
            storage.delete(&file_name(old))?;
        }
        Ok(())
    }

    pub(crate) fn record(&self) -> Option<&RunRecord> {
        self.record.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::MemStorage;

    fn start() -> RunStart {
        RunStart { label: "fill".into(), planned_operations: Some(100), planned_writes: Some(100) }
    }

    #[test]
    fn a_torn_ack_keeps_the_one_before_and_an_end_closes_the_run() {
        let mut s = MemStorage::new();
        let mut log = RunLog::default();
        log.rewrite(&mut s, &[Record::Begin(start())]).unwrap();
        log.append(&mut s, &Record::Ack(Acknowledged { operations: 10, writes: 7 })).unwrap();
        let mut torn = Vec::new();
        encode(&Record::Ack(Acknowledged { operations: 20, writes: 14 }), &mut torn).unwrap();
        s.append(&file_name(1), &torn[..torn.len() - 4]).unwrap();
        s.crash(|_, unsynced| unsynced);
        let loaded = RunLog::load(&mut s).unwrap();
        let rec = loaded.record().unwrap();
        assert!(rec.interrupted());
        assert_eq!(rec.acknowledged, Acknowledged { operations: 10, writes: 7 });
        assert_eq!(s.len(&file_name(1)).unwrap(), loaded.bytes, "the torn tail is cut");

        let mut log = loaded;
        let end = RunEnd {
            outcome: Outcome::Finished,
            acknowledged: Acknowledged { operations: 100, writes: 100 },
            result: "ok".into(),
        };
        log.append(&mut s, &Record::End(end.clone())).unwrap();
        let rec = RunLog::load(&mut s).unwrap().record.unwrap();
        assert_eq!((rec.interrupted(), rec.acknowledged.operations, rec.end), (false, 100, Some(end)));
    }

    #[test]
    fn a_new_file_cut_before_its_begin_falls_back_to_the_older_run() {
        let mut s = MemStorage::new();
        let mut log = RunLog::default();
        log.rewrite(&mut s, &[Record::Begin(start())]).unwrap();
        s.append(&file_name(2), b"\x20\x00").unwrap(); // the next run's file, cut off
        let loaded = RunLog::load(&mut s).unwrap();
        assert_eq!((loaded.number, loaded.record().map(|r| r.start.label.as_str())), (1, Some("fill")));
        assert!(!s.exists(&file_name(2)).unwrap());
    }

    #[test]
    fn a_long_run_rewrites_its_record_and_keeps_the_latest_ack() {
        let mut s = MemStorage::new();
        let mut log = RunLog::default();
        log.rewrite(&mut s, &[Record::Begin(start())]).unwrap();
        for i in 0..3000u64 {
            let ack = Acknowledged { operations: i, writes: i };
            if log.bytes > REWRITE_BYTES {
                log.rewrite(&mut s, &[Record::Begin(start()), Record::Ack(ack)]).unwrap();
            } else {
                log.append(&mut s, &Record::Ack(ack)).unwrap();
            }
        }
        let files: Vec<String> = s.list().unwrap().into_iter().filter(|f| file_number(f).is_some()).collect();
        assert_eq!(files.len(), 1, "one record file at a time: {files:?}");
        assert!(s.len(&files[0]).unwrap() <= REWRITE_BYTES + 100);
        let rec = RunLog::load(&mut s).unwrap().record.unwrap();
        assert_eq!(rec.acknowledged.operations, 2999);
    }
}

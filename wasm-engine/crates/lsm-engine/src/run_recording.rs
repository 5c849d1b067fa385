//! Recording a run in the database (`run_log`): the engine's `begin_run`, `acknowledge_run` and
//! `end_run`. Its own module so the engine can hold the record (`RunLog`) without importing the
//! calls that work on the engine.

use crate::engine::Engine;
use crate::run_log::{Acknowledged, REWRITE_BYTES, Record, RunEnd, RunRecord, RunStart};
use lsm_core::error::{Error, Result};

impl Engine {
    /// Record that a run begins: until `end_run`, a reopened database reports it as interrupted.
    pub fn begin_run(&mut self, start: RunStart) -> Result<()> {
        self.run_log.rewrite(self.storage.as_mut(), &[Record::Begin(start.clone())])?;
        self.run_log.record = Some(RunRecord { start, acknowledged: Acknowledged::default(), end: None });
        Ok(())
    }

    /// Record how far the run's operations are acknowledged. Syncs the writes first when any is
    /// not yet durable, so the record never counts a write a crash could lose; call it once per
    /// batch of operations (each call is an append and a sync of the record).
    pub fn acknowledge_run(&mut self, acknowledged: Acknowledged) -> Result<()> {
        let Some(record) = &self.run_log.record else {
            return Err(Error::State("no run has begun: call begin_run first".into()));
        };
        if record.end.is_some() {
            return Err(Error::State("the run has ended".into()));
        }
        let start = record.start.clone();
        self.sync_if_written()?;
        if self.run_log.bytes > REWRITE_BYTES {
            self.run_log.rewrite(self.storage.as_mut(), &[Record::Begin(start), Record::Ack(acknowledged)])?;
        } else {
            self.run_log.append(self.storage.as_mut(), &Record::Ack(acknowledged))?;
        }
        if let Some(r) = &mut self.run_log.record {
            r.acknowledged = acknowledged;
        }
        Ok(())
    }

    /// Record the run's end (after syncing its writes): a reopened database reports it as finished
    /// or cancelled, with `end.result`.
    pub fn end_run(&mut self, end: RunEnd) -> Result<()> {
        if self.run_log.record.as_ref().is_none_or(|r| r.end.is_some()) {
            return Err(Error::State("no run is in progress: call begin_run first".into()));
        }
        self.sync_if_written()?;
        self.run_log.append(self.storage.as_mut(), &Record::End(end.clone()))?;
        if let Some(r) = &mut self.run_log.record {
            r.acknowledged = end.acknowledged;
            r.end = Some(end);
        }
        Ok(())
    }

    /// The last run recorded in the database (this session's, or the one found when it was opened).
    pub fn last_run(&self) -> Option<&RunRecord> {
        self.run_log.record()
    }
}

//! Predictions for one workload and many designs (`Predictor`): the key popularity built once,
//! and the process the store is run under (`process`).

use lsm_core::config::EngineConfig;
use lsm_core::error::Result;
use lsm_core::workload::Workload;

use super::super::popularity::{BIN_GROWTH, EXACT_RANKS, Popularity, QUICK_BIN_GROWTH, QUICK_EXACT_RANKS};
use super::super::writes::WriteSequence;
use super::process::{Device, Process, Scenario};
use super::{Prediction, predict_with};

/// Predictions for one workload and many designs: the key popularity is built once, at full
/// resolution and at the coarse one a quick first ranking uses.
pub struct Predictor<'w> {
    workload: &'w Workload,
    writes: WriteSequence,
    coarse: WriteSequence,
    process: Process,
    device: Device,
}

impl<'w> Predictor<'w> {
    /// Builds the workload's key popularity once, for every design to be priced; fails if the
    /// workload is invalid.
    pub fn new(workload: &'w Workload) -> Result<Predictor<'w>> {
        workload.validate()?;
        let m = &workload.mix;
        let writes = m.insert + m.update + m.delete;
        let inserts = if writes > 0.0 { workload.operations as f64 * m.insert } else { 0.0 };
        let keys_at_end = workload.preload.entries as f64 + inserts;
        let keys = keys_at_end.max(1.0);
        Ok(Predictor {
            workload,
            writes: WriteSequence::new(workload, Popularity::of(workload, keys, EXACT_RANKS, BIN_GROWTH)),
            coarse: WriteSequence::new(workload, Popularity::of(workload, keys, QUICK_EXACT_RANKS, QUICK_BIN_GROWTH)),
            process: Process::CONTINUE,
            device: Device::default(),
        })
    }

    /// The same predictor for a store run as `process` says (`Predictor::new`: `continue`, the
    /// lab's), its operations timed on `device` (how many of them the open compaction lasts).
    /// Only RocksDB-shaped designs are priced differently (`process`).
    pub fn with_process(mut self, process: Process, device: Device) -> Predictor<'w> {
        self.process = process;
        self.device = device;
        self
    }

    /// `predict` with lookups priced at `samples` moments of the run phase (at least 1); under a
    /// restart, with the range of the process's scenarios (`Prediction::process`).
    pub fn predict(&self, config: &EngineConfig, samples: usize) -> Result<Prediction> {
        let scenarios = self.scenarios(config);
        predict_with(config, self.workload, &self.writes, samples, &scenarios, self.device)
    }

    /// A quick estimate for ranking many designs: coarse key popularity, lookups priced at
    /// `samples` moments, the process's point scenario only.
    pub fn quick(&self, config: &EngineConfig, samples: usize) -> Result<Prediction> {
        let point = self.scenarios(config)[1];
        predict_with(config, self.workload, &self.coarse, samples, &[point], self.device)
    }

    /// `config` priced under one explicit process `scenario` (the prediction's `process` is
    /// None): what each scenario of `predict`'s range costs, for tests and for a caller that knows
    /// its level 0 at open or its compaction's duration.
    pub fn predict_scenario(&self, config: &EngineConfig, samples: usize, scenario: Scenario) -> Result<Prediction> {
        predict_with(config, self.workload, &self.writes, samples, &[scenario], self.device)
    }

    /// The process's scenarios for `config` (low, point, high): its level-0 trigger and slowdown.
    fn scenarios(&self, config: &EngineConfig) -> [Scenario; 3] {
        let trigger = config.level(1).max_runs as usize + 1;
        let slowdown = config.write_stalls.level0_slowdown_writes_trigger as usize;
        Scenario::of(self.process, trigger, slowdown)
    }
}

//! The process model: how the store is run between the load and the run, and what that does to
//! the tree the run's reads meet. The rest of the predictor replays the load as the lab runs it
//! (every flush's compactions finished before the next write, the run in the load's process);
//! users run RocksDB otherwise, and the referee plays it as they do (`interop/rocksdb/referee.cc`):
//!
//! * `continue`: the run in the load's process, on the load's memtable and tree. Priced as the
//!   lab leaves the tree (the pricing before this model existed).
//! * `restart` (RocksDB's default here; YCSB's `-load` then `-run`, db_bench's two invocations):
//!   the load's process closes the database without waiting for its background work, and Close
//!   flushes the memtable (the WAL is off; with it on, the reopen replays it into level 0 alike).
//!   Level 0 at open is then the load's level-0 files, plus the flushes background compaction had
//!   not reached yet (`lag`), plus that last memtable. If that reaches the trigger, RocksDB starts
//!   one L0 → L1 compaction right after open, taking every level-0 file (they all span the key
//!   space) with the level below; reads meet the old tree until it installs, then a level 0 the
//!   run's own flushes refill (between 0 and trigger − 1 files, as the lab replays it).
//!
//! How long the open compaction lasts, in the run's operations, is priced from its bytes and the
//! device: `OPEN_COMPACTION_BYTES_PER_SEC` of compaction against the run's operations per second
//! on the old tree (`Device`). Background timing makes two things uncertain — level 0's file count
//! at open (how far the load's background compactions fell behind) and that duration — so the
//! prediction is made for three scenarios (`Scenario::low`, `point`, `high`) and the run's cost is
//! stated as the point and the range of the other two.

use serde::{Deserialize, Serialize};

use lsm_core::error::{Error, Result};

/// Between the load and the run: the process restarts, or goes on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Between {
    /// Close (flushing the memtable, abandoning compactions in flight), reopen: a cold cache, and
    /// level 0 as the load's background work left it.
    #[default]
    Restart,
    /// The run in the load's process: its memtable and tree as the lab leaves them.
    Continue,
}

impl std::str::FromStr for Between {
    type Err = Error;
    fn from_str(s: &str) -> Result<Between> {
        match s {
            "restart" => Ok(Between::Restart),
            "continue" => Ok(Between::Continue),
            other => Err(Error::invalid("process.between", format!("must be restart or continue, got \"{other}\""))),
        }
    }
}

/// How the store is run for the workload: the boundary between load and run, and the client
/// threads of the run (YCSB's `threadcount`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct Process {
    /// `restart` (the default, as the referee and YCSB's and db_bench's runs do) or `continue`.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub between: Between,
    /// Client threads of the run, in [1, 64]: they play more operations while the open
    /// compaction runs (it takes as long; the operations go faster).
    #[serde(default = "one")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub threads: u32,
}

fn one() -> u32 {
    1
}

impl Default for Process {
    fn default() -> Process {
        Process { between: Between::Restart, threads: 1 }
    }
}

impl Process {
    /// The lab's process: the run in the load's process, one client.
    pub const CONTINUE: Process = Process { between: Between::Continue, threads: 1 };

    /// Fails naming the field when the threads are out of range.
    pub fn validate(&self) -> Result<()> {
        if !(1..=64).contains(&self.threads) {
            return Err(Error::invalid(
                "process.threads",
                format!("must be a whole number in [1, 64], got {}", self.threads),
            ));
        }
        Ok(())
    }
}

/// Compaction throughput (bytes read plus bytes written per second) of the compaction RocksDB
/// runs at open, beside the run's client. Measured with the referee (RocksDB 7.8, direct reads,
/// 2 shared cores; `run_samples`: the seconds until level 0 dropped, against the bytes the
/// listener saw that compaction read and write); see docs/tuning.md.
pub const OPEN_COMPACTION_BYTES_PER_SEC: f64 = 60.0e6;

/// What an operation costs in time on the device, to turn the open compaction's seconds into
/// the run's operations: each block read from storage, and the CPU of a call. Without a device
/// calibration, the referee's machine's (`lsm calibrate` / tune-proof's calibration: RocksDB's
/// own 118 µs per block read with direct reads, 4–8 µs per cached call).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Device {
    /// Microseconds per block read from storage.
    pub block_read_us: f64,
    /// Microseconds of CPU per operation.
    pub cpu_us: f64,
}

impl Default for Device {
    fn default() -> Device {
        Device { block_read_us: 118.0, cpu_us: 6.0 }
    }
}

/// One scenario of the process: which load flushes background compaction had not reached at
/// Close, and how the open compaction's duration is scaled.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scenario {
    /// The process model.
    pub between: Between,
    /// The load's last flushes still in level 0 at Close beyond what the lab leaves (their
    /// compactions had not run).
    pub lag: usize,
    /// The open compaction's duration × this (1 at the point; 0 for instant, 2 for a compaction
    /// that shares the cores with the client and the other helpers).
    pub duration_scale: f64,
    /// Client threads.
    pub threads: u32,
}

impl Scenario {
    /// The lab's: nothing held, no restart.
    pub fn continued() -> Scenario {
        Scenario { between: Between::Continue, lag: 0, duration_scale: 0.0, threads: 1 }
    }

    /// The three scenarios of `process` for a design whose level-0 trigger is `trigger` files and
    /// slowdown trigger `slowdown`: low, point, high.
    ///
    /// * low: the lab's level 0 plus Close's flush; the open compaction (if due) instant.
    /// * point: level 0 at open at least the trigger — the load's last `trigger − 1` flushes
    ///   held (background compaction keeps one L0 → L1 compaction running at a time, so while it
    ///   runs the next trigger's worth of flushes waits); the compaction as priced.
    /// * high: level 0 at the slowdown trigger (RocksDB slows the load's writes beyond it), the
    ///   compaction twice as long.
    pub fn of(process: Process, trigger: usize, slowdown: usize) -> [Scenario; 3] {
        if process.between == Between::Continue {
            let c = Scenario { threads: process.threads, ..Scenario::continued() };
            return [c, c, c];
        }
        let s = |lag: usize, duration_scale: f64| Scenario {
            between: Between::Restart,
            lag,
            duration_scale,
            threads: process.threads,
        };
        [s(0, 0.0), s(trigger.saturating_sub(1), 1.0), s(slowdown.saturating_sub(1).max(trigger), 2.0)]
    }

    /// The run's operations the open compaction lasts: `bytes` read and written at
    /// `OPEN_COMPACTION_BYTES_PER_SEC` (× the scenario's scale), against operations of
    /// `blocks_per_op` reads each on `device`, `threads` at a time; at most the run's `operations`.
    pub fn open_compaction_ops(&self, bytes: f64, blocks_per_op: f64, device: Device, operations: f64) -> f64 {
        if self.between == Between::Continue || bytes <= 0.0 {
            return 0.0;
        }
        let seconds = bytes / OPEN_COMPACTION_BYTES_PER_SEC * self.duration_scale;
        let op_us = blocks_per_op.max(0.0) * device.block_read_us + device.cpu_us;
        (seconds * 1e6 / op_us.max(1e-9) * f64::from(self.threads.max(1))).min(operations)
    }
}

/// What the process model gave: its scenarios' costs and what the run's start looked like.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ProcessPricing {
    /// The process priced.
    pub between: Between,
    /// I/O per operation: the low scenario's, the point's, the high's (`expected` is the point).
    pub expected: [f64; 3],
    /// Level-0 files as the run begins (after Close's flush), per scenario.
    pub level0_at_open: [f64; 3],
    /// The run's operations the open compaction lasts, per scenario (0: none was due).
    pub open_compaction_ops: [f64; 3],
    /// The range stated: [min, max] over the scenarios.
    pub range: [f64; 2],
}

impl ProcessPricing {
    /// From the three scenarios' costs, level 0 at open and compaction operations.
    pub fn of(between: Between, expected: [f64; 3], level0_at_open: [f64; 3], open_compaction_ops: [f64; 3]) -> Self {
        let lo = expected.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = expected.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        ProcessPricing { between, expected, level0_at_open, open_compaction_ops, range: [lo, hi] }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenarios_hold_the_stated_level_0_and_durations() {
        let [low, point, high] = Scenario::of(Process::default(), 4, 20);
        assert_eq!((low.lag, low.duration_scale), (0, 0.0));
        assert_eq!((point.lag, point.duration_scale), (3, 1.0));
        assert_eq!((high.lag, high.duration_scale), (19, 2.0));
        let c = Scenario::of(Process::CONTINUE, 4, 20);
        assert!(c.iter().all(|s| *s == Scenario::continued()));
    }

    #[test]
    fn the_open_compaction_lasts_its_bytes_over_the_rate_in_operations() {
        let point = Scenario { between: Between::Restart, lag: 3, duration_scale: 1.0, threads: 1 };
        let device = Device { block_read_us: 100.0, cpu_us: 10.0 };
        // 120 MB at 60 MB/s = 2 s; an operation of 4.9 blocks = 500 µs: 4,000 operations.
        let ops = point.open_compaction_ops(120.0e6, 4.9, device, 1e6);
        assert!((ops - 4000.0).abs() < 1e-6, "{ops}");
        // Two threads play twice the operations in the same seconds; the run caps it.
        let two = Scenario { threads: 2, ..point };
        assert!((two.open_compaction_ops(120.0e6, 4.9, device, 1e6) - 8000.0).abs() < 1e-6);
        assert_eq!(two.open_compaction_ops(120.0e6, 4.9, device, 5000.0), 5000.0);
        assert_eq!(Scenario::continued().open_compaction_ops(120.0e6, 4.9, device, 1e6), 0.0);
    }

    #[test]
    fn the_process_reads_and_names_a_bad_field() {
        assert_eq!("restart".parse::<Between>().expect("reads"), Between::Restart);
        let e = "later".parse::<Between>().unwrap_err().to_string();
        assert!(e.starts_with("process.between: must be restart or continue"), "{e}");
        let p: Process = serde_json::from_str(r#"{"between": "continue"}"#).expect("reads");
        assert_eq!(p, Process::CONTINUE);
        let e = Process { threads: 0, ..Process::default() }.validate().unwrap_err().to_string();
        assert!(e.starts_with("process.threads: must be a whole number in [1, 64]"), "{e}");
    }
}

//! Write amplification measured on the engine, by where the writes go, over a stream of inserts
//! and updates: cumulative counters at every checkpoint. These are the quantities the LevelDB
//! driver (`interop/leveldb/write_amp.cc`) reads from a real LevelDB, indexed the same way
//! (index l = LevelDB's level l = the engine's level l + 1), so a window between two checkpoints
//! gives both systems' write amplification per level, next to the MSLS model's Write(l)/Interval.
//! Steppable, so the browser's worker can report progress and stop on a cancel.

use serde::{Deserialize, Serialize};

use lsm_core::config::EngineConfig;
use lsm_core::error::{Error, Result};
use lsm_core::workload::Workload;
use lsm_engine::engine::{Engine, Merging};
use lsm_engine::storage::{MemStorage, Storage};
use lsm_workload::generator::{Generator, Op, OpSource};

/// The `kind` field of every `WriteAmpResult`.
pub const WRITE_AMP_KIND: &str = "lsm-navigator/write-amplification";
/// Allowed `checkpoint` values, inclusive.
pub const CHECKPOINT_RANGE: (u64, u64) = (0, 1 << 40);

/// What to measure: a design, a workload of inserts and updates (its preload included), and how
/// often to record the counters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WriteAmpSpec {
    /// The design written into.
    pub config: EngineConfig,
    /// The writes: its preload, then its operations, which must all be inserts or updates.
    pub workload: Workload,
    /// Writes between two checkpoints; 0: none but the first and the last (and the flushes').
    #[serde(default)]
    pub checkpoint: u64,
    /// Also record the counters at every flush (before the write that made it), once its
    /// merges are done: windows between two of them hold whole flush cycles.
    #[serde(default)]
    pub checkpoint_at_flush: bool,
}

impl WriteAmpSpec {
    /// Check the design, the workload (inserts and updates only) and `checkpoint`; the error names the field.
    pub fn validate(&self) -> Result<()> {
        self.config.validate()?;
        self.workload.validate()?;
        for (name, share) in self.workload.mix.parts() {
            if share > 0.0 && name != "insert" && name != "update" {
                return Err(Error::invalid(
                    format!("workload.mix.{name}"),
                    format!("must be 0: write amplification is measured on inserts and updates only, got {share}"),
                ));
            }
        }
        let (lo, hi) = CHECKPOINT_RANGE;
        if !(lo..=hi).contains(&self.checkpoint) {
            return Err(Error::invalid("checkpoint", format!("must be in [{lo}, {hi}], got {}", self.checkpoint)));
        }
        Ok(())
    }

    /// Writes the measurement performs: the preload's entries plus the workload's operations.
    pub fn total_writes(&self) -> u64 {
        self.workload.preload.entries + self.workload.operations
    }
}

/// Cumulative counters after `inserts` writes. Index l of the per-level arrays is LevelDB's
/// level l: 0 is where flushes land (the engine's level 1), which merges never write into.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct WriteCheckpoint {
    /// Writes done when the counters were read (preload included).
    pub inserts: u64,
    /// Flushes done so far.
    pub flushes: u64,
    /// Entries the flushes wrote: the distinct keys each buffer held.
    pub flush_entries: u64,
    /// Table bytes the flushes wrote (data pages, filter, index, range block and footer).
    pub flush_bytes: u64,
    /// Entries merges wrote into each level.
    pub entries_into: Vec<u64>,
    /// Table bytes merges wrote into each level.
    pub bytes_into: Vec<u64>,
    /// Merges into each level.
    pub compactions: Vec<u64>,
    /// Bytes of records written to the write-ahead log.
    pub log_bytes: u64,
    /// Data pages flushes and merges wrote, in all (the unit of Monkey's update cost).
    #[serde(default)]
    pub data_pages: u64,
}

/// What a write-amplification measurement found: the cumulative counters at every checkpoint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WriteAmpResult {
    /// Always `WRITE_AMP_KIND`.
    pub kind: String,
    /// The format version (1).
    pub version: u32,
    /// Key bytes of every write (the workload's `preload.key_bytes`).
    pub key_bytes: u32,
    /// Value bytes of every write (the workload's `preload.value_bytes`).
    pub value_bytes: u32,
    /// The counters in write order: at the start, every `checkpoint` writes, at every flush when asked,
    /// and at the end.
    pub checkpoints: Vec<WriteCheckpoint>,
    /// Writes performed, preload included.
    pub inserts: u64,
    /// Writes per flush, on average.
    pub inserts_per_flush: f64,
}

/// How far a write-amplification measurement has come, returned by every `WriteAmpRun::step`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct WriteAmpProgress {
    /// Writes done.
    pub done: u64,
    /// Writes the measurement performs (`WriteAmpSpec::total_writes`).
    pub total: u64,
    /// All writes are done.
    pub finished: bool,
}

/// A write-amplification measurement in progress: one engine taking the workload's writes, advanced by
/// `step` so a worker can report progress and stop on a cancel.
pub struct WriteAmpRun {
    spec: WriteAmpSpec,
    engine: Engine,
    generator: Generator,
    done: u64,
    checkpoints: Vec<WriteCheckpoint>,
    /// Writes before the last flush, and the writes all flushes so far took in.
    writes_at_flush: u64,
    flushed_writes: u64,
}

impl WriteAmpRun {
    /// In memory.
    pub fn new(spec: WriteAmpSpec) -> Result<WriteAmpRun> {
        Self::on(spec, Box::new(MemStorage::new()))
    }

    /// On the given storage (files natively).
    pub fn on(spec: WriteAmpSpec, storage: Box<dyn Storage>) -> Result<WriteAmpRun> {
        spec.validate()?;
        let mut engine = Engine::create(spec.config.clone(), storage)?;
        // Checkpoints fall right after flushes: each must count the merges its flush made due, as
        // LevelDB's and RocksDB's referees do once they have waited for compactions.
        engine.merging = Merging::Inline;
        // LevelDB's driver writes without syncing; the log's bytes are counted either way.
        engine.set_write_ahead_log(true);
        let generator = Generator::new(&spec.workload);
        let mut run = WriteAmpRun {
            spec,
            engine,
            generator,
            done: 0,
            checkpoints: Vec::new(),
            writes_at_flush: 0,
            flushed_writes: 0,
        };
        run.checkpoints.push(run.checkpoint());
        Ok(run)
    }

    /// Whether every write has been done.
    pub fn finished(&self) -> bool {
        self.done >= self.spec.total_writes()
    }

    /// Writes done and to do.
    pub fn progress(&self) -> WriteAmpProgress {
        WriteAmpProgress { done: self.done, total: self.spec.total_writes(), finished: self.finished() }
    }

    /// Up to `max_ops` more writes; records a checkpoint at every multiple of `checkpoint` and at the end.
    pub fn step(&mut self, max_ops: u64) -> Result<WriteAmpProgress> {
        let every = self.spec.checkpoint;
        let mut budget = max_ops.max(1);
        while budget > 0 && !self.finished() {
            let flushes = self.flushes();
            let Some((_, op)) = self.generator.next_op()? else {
                self.done = self.spec.total_writes();
                break;
            };
            match op {
                Op::Put { key, value, .. } => self.engine.put(key, value)?,
                Op::Delete { key, .. } => self.engine.delete(key)?,
                Op::Get { .. } | Op::Range { .. } => {
                    return Err(Error::invalid("workload.mix", "only inserts and updates"));
                }
            }
            if self.flushes() != flushes {
                // The buffer flushed before taking this write: it held the writes since the last flush.
                self.flushed_writes += self.done - self.writes_at_flush;
                self.writes_at_flush = self.done;
                if self.spec.checkpoint_at_flush {
                    let c = self.checkpoint();
                    self.checkpoints.push(c);
                }
            }
            self.done += 1;
            budget -= 1;
            if (every > 0 && self.done.is_multiple_of(every)) || self.finished() {
                let c = self.checkpoint();
                self.checkpoints.push(c);
            }
        }
        Ok(self.progress())
    }

    /// Write to the end and return the result.
    pub fn run(mut self) -> Result<WriteAmpResult> {
        while !self.finished() {
            self.step(1 << 20)?;
        }
        Ok(self.result())
    }

    /// The checkpoints recorded so far, with the average writes per flush.
    pub fn result(&self) -> WriteAmpResult {
        let last = self.checkpoints.last().cloned().unwrap_or_default();
        let p = &self.spec.workload.preload;
        WriteAmpResult {
            kind: WRITE_AMP_KIND.into(),
            version: 1,
            key_bytes: p.key_bytes,
            value_bytes: p.value_bytes,
            checkpoints: self.checkpoints.clone(),
            inserts: self.done,
            inserts_per_flush: if last.flushes == 0 { 0.0 } else { self.flushed_writes as f64 / last.flushes as f64 },
        }
    }

    fn flushes(&self) -> u64 {
        flushes(&self.engine)
    }

    fn checkpoint(&self) -> WriteCheckpoint {
        checkpoint(&self.engine, self.done)
    }
}

fn flushes(engine: &Engine) -> u64 {
    engine.stats().levels.first().map_or(0, |l| l.writes.flushes)
}

fn checkpoint(engine: &Engine, inserts: u64) -> WriteCheckpoint {
    let stats = engine.stats();
    let levels = &stats.levels;
    let first = levels.first().map(|l| l.writes).unwrap_or_default();
    let into = |f: fn(&lsm_engine::stats::WriteCounters) -> u64| -> Vec<u64> {
        let mut v: Vec<u64> = levels.iter().map(|l| f(&l.writes)).collect();
        if let Some(v0) = v.first_mut() {
            *v0 = 0; // level 1 takes flushes only
        }
        v
    };
    WriteCheckpoint {
        inserts,
        flushes: first.flushes,
        flush_entries: first.entries_written,
        flush_bytes: first.bytes_written,
        entries_into: into(|w| w.entries_written),
        bytes_into: into(|w| w.bytes_written),
        compactions: into(|w| w.compactions),
        log_bytes: stats.wal_bytes_written,
        data_pages: levels.iter().map(|l| l.writes.data_pages_written).sum(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsm_core::config::{Allocation, BufferTrigger, CompactionConfig, Granularity, LevelConfig};
    use lsm_core::workload::{Distribution, Mix, Preload, WORKLOAD_KIND, WORKLOAD_VERSION};

    fn leveldb_like(trigger: BufferTrigger) -> EngineConfig {
        let mut c = EngineConfig::uniform_shape(10.0, 1, Allocation::Uniform, 10.0);
        c.buffer_bytes = 116 * 500;
        c.buffer_trigger = trigger;
        c.levels = vec![
            LevelConfig { size_ratio: 3.0, max_runs: 3, bits_per_key: None },
            LevelConfig { size_ratio: 10.0, max_runs: 1, bits_per_key: None },
        ];
        c.compaction = CompactionConfig {
            granularity: Granularity::File,
            target_file_bytes: 116 * 300,
            ..CompactionConfig::default()
        };
        c
    }

    fn updates(keys: u64, updates: u64, distribution: Distribution) -> Workload {
        Workload {
            kind: WORKLOAD_KIND.into(),
            version: WORKLOAD_VERSION,
            name: String::new(),
            seed: 3,
            preload: Preload { entries: keys, key_space: 0, key_bytes: 16, value_bytes: 100 },
            operations: updates,
            mix: Mix { update: 1.0, ..Mix::default() },
            distribution,
            range_selectivity: 0.0,
            ycsb: None,
            db_bench: None,
        }
    }

    #[test]
    fn a_logged_buffer_flushes_every_wal_writes_and_holds_each_key_once() {
        let spec = WriteAmpSpec {
            config: leveldb_like(BufferTrigger::Logged),
            workload: updates(20_000, 40_000, Distribution::Zipf { theta: 0.99 }),
            checkpoint: 10_000,
            checkpoint_at_flush: true,
        };
        let r = WriteAmpRun::new(spec).unwrap().run().unwrap();
        assert_eq!(r.inserts, 60_000);
        // 500 entries of 116 B fill the buffer: a flush every 500 writes, overwrites included.
        assert_eq!(r.inserts_per_flush, 500.0);
        let last = r.checkpoints.last().unwrap();
        assert_eq!(last.inserts, 60_000);
        assert_eq!(last.flushes, 119);
        // Under Zipf the buffer keeps one version per key: fewer entries flushed than written.
        let flushed_updates = last.flush_entries - 20_000;
        assert!(flushed_updates < 39_500 * 9 / 10, "{flushed_updates}");
        // Counters only grow, and merges wrote into levels 1 and 2 (LevelDB's numbering).
        for w in r.checkpoints.windows(2) {
            assert!(w[1].inserts >= w[0].inserts && w[1].flush_entries >= w[0].flush_entries);
            for (i, v) in w[0].entries_into.iter().enumerate() {
                assert!(w[1].entries_into[i] >= *v);
            }
        }
        assert_eq!(last.entries_into[0], 0);
        assert!(last.entries_into[1] > 0 && last.entries_into[2] > 0, "{:?}", last.entries_into);
    }

    #[test]
    fn a_live_buffer_takes_more_writes_per_flush_under_skew() {
        let run = |trigger| {
            let spec = WriteAmpSpec {
                config: leveldb_like(trigger),
                workload: updates(5_000, 20_000, Distribution::Zipf { theta: 0.99 }),
                checkpoint: 100_000,
                checkpoint_at_flush: false,
            };
            WriteAmpRun::new(spec).unwrap().run().unwrap().inserts_per_flush
        };
        let (live, logged) = (run(BufferTrigger::Live), run(BufferTrigger::Logged));
        assert_eq!(logged, 500.0);
        assert!(live > 1.5 * logged, "live {live}, logged {logged}");
    }

    #[test]
    fn lookups_are_refused_by_name() {
        let mut w = updates(1_000, 1_000, Distribution::Uniform);
        w.mix = Mix { update: 0.5, get_existing: 0.5, ..Mix::default() };
        let spec = WriteAmpSpec {
            config: leveldb_like(BufferTrigger::Logged),
            workload: w,
            checkpoint: 10,
            checkpoint_at_flush: false,
        };
        let e = WriteAmpRun::new(spec).err().unwrap().to_string();
        assert!(e.contains("workload.mix.get_existing"), "{e}");
    }
}

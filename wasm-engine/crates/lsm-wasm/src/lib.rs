//! The engine's WebAssembly API (wasm-bindgen), used from a dedicated Web Worker. Documents
//! cross the boundary as JSON strings and operations as encoded batches (`batch` module), so a
//! single call carries thousands of operations.
//!
//! Storage: memory; OPFS through a pool of sync access handles owned by the worker; or a
//! journaled in-memory copy whose changes the worker persists to IndexedDB after every call.

mod bench;
mod export;
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
mod heap;
mod opfs;

pub use bench::micro_bench;
pub use export::{export_design, import_config};
pub use opfs::{OpfsPool, OpfsStorage};

use wasm_bindgen::prelude::*;

use lsm_core::calibration::Calibration;
use lsm_core::config::EngineConfig;
use lsm_core::error::Error;
use lsm_engine::batch;
use lsm_engine::engine::{Engine, Merging};
use lsm_engine::run_log::{Acknowledged, Outcome, RunEnd, RunStart};
use lsm_engine::storage::{Change, Journal, JournalStorage, MemStorage, Storage};
use lsm_runner::report::Timings;
use lsm_runner::runner::Runner;

use lsm_core::workload::Workload;
use lsm_workload::ycsb;

fn js(e: Error) -> JsError {
    JsError::new(&e.to_string())
}

fn json<T: serde::Serialize>(v: &T) -> Result<String, JsError> {
    serde_json::to_string(v).map_err(|e| JsError::new(&e.to_string()))
}

fn parse_config(config_json: Option<String>) -> Result<Option<EngineConfig>, JsError> {
    config_json.filter(|c| !c.is_empty()).map(|c| EngineConfig::from_json(&c).map_err(js)).transpose()
}

/// Check an EngineConfig; throws an error naming the field and the allowed range.
#[wasm_bindgen]
pub fn validate_config(config_json: &str) -> Result<(), JsError> {
    EngineConfig::from_json(config_json).map(|_| ()).map_err(js)
}

/// Check a Workload; throws an error naming the field and the allowed range.
#[wasm_bindgen]
pub fn validate_workload(workload_json: &str) -> Result<(), JsError> {
    Workload::from_json(workload_json).map(|_| ()).map_err(js)
}

/// A YCSB workload properties file as `{workload, warnings, unknown_keys}` (JSON); errors name
/// the file, the property, its line and the allowed range.
#[wasm_bindgen]
pub fn import_ycsb(text: &str, file: &str) -> Result<String, JsError> {
    json(&ycsb::from_properties(text, file).map_err(js)?)
}

/// A db_bench command line (`db_bench --benchmarks=fillrandom,mixgraph …`) as `{workload,
/// warnings, unknown_flags}` (JSON); errors name the flag and the allowed range.
#[wasm_bindgen]
pub fn import_db_bench(text: &str) -> Result<String, JsError> {
    json(&lsm_workload::db_bench::from_command_line(text).map_err(js)?)
}

/// Whether `text` reads as a db_bench command line (a program named db_bench, or `--benchmarks`).
#[wasm_bindgen]
pub fn looks_like_db_bench(text: &str) -> bool {
    lsm_workload::db_bench::looks_like_db_bench(text)
}

/// YCSB's core workload `letter` (a–f) as a properties file with these record and operation counts.
#[wasm_bindgen]
pub fn ycsb_core_workload(letter: &str, records: f64, operations: f64) -> Result<String, JsError> {
    Ok(ycsb::named_core_workload(letter, records as u64, operations as u64).map_err(js)?.1)
}

/// A Workload as a YCSB CoreWorkload properties file: `{text, warnings}` (JSON).
#[wasm_bindgen]
pub fn export_ycsb(workload_json: &str) -> Result<String, JsError> {
    let w = Workload::from_json(workload_json).map_err(js)?;
    let (text, warnings) = ycsb::to_properties(&w).map_err(js)?;
    json(&lsm_export::Export { text, warnings })
}

/// Tune `current` for `workload` on `target` ("engine" or "rocksdb") with robustness `rho`: the
/// result document (JSON), the same as `lsm tune` prints.
#[wasm_bindgen]
pub fn tune(current_json: &str, workload_json: &str, rho: f64, target: &str) -> Result<String, JsError> {
    let current = EngineConfig::from_json(current_json).map_err(js)?;
    let workload = Workload::from_json(workload_json).map_err(js)?;
    let target = target.parse().map_err(js)?;
    json(&lsm_tune::tune(&current, &workload, rho, target).map_err(js)?)
}

/// Tune as `tune` does, with the rest of the tuner's inputs: `options_json` is a
/// `lsm_tune::TuneOptions` document (`{rho, target, memory, rank, calibration, write_buffers,
/// plugin}`), read and validated by `TuneOptions::from_json`.
#[wasm_bindgen]
pub fn tune_with(current_json: &str, workload_json: &str, options_json: &str) -> Result<String, JsError> {
    let current = EngineConfig::from_json(current_json).map_err(js)?;
    let workload = Workload::from_json(workload_json).map_err(js)?;
    let options = lsm_tune::TuneOptions::from_json(options_json).map_err(js)?;
    json(&lsm_tune::tune_with(&current, &workload, &options).map_err(js)?)
}

/// A device calibration (JSON, `lsm_core::calibration::Calibration`) from the page prices the worker
/// timed on OPFS (`device_json`: a `lsm_runner::calibrate::DevicePrices`) and this
/// engine's CPU per operation class, measured here on `config` in memory (a few seconds).
#[wasm_bindgen]
pub fn calibrate(config_json: &str, device_json: &str) -> Result<String, JsError> {
    let config = EngineConfig::from_json(config_json).map_err(js)?;
    let device: lsm_runner::calibrate::DevicePrices =
        serde_json::from_str(device_json).map_err(|e| JsError::new(&format!("device: {e}")))?;
    let store = format!("lsm-engine {} (wasm)", env!("CARGO_PKG_VERSION"));
    json(&lsm_runner::calibrate::engine_calibration(&config, device, store, Vec::new()).map_err(js)?)
}

/// Pages per operation of each class (`io_json`, `[R, V, Q, W]`) for class shares `mix_json`,
/// priced on a calibrated device: µs per operation and ops/s (`lsm_core::calibration::time_cost`).
#[wasm_bindgen]
pub fn time_cost(io_json: &str, mix_json: &str, calibration_json: &str) -> Result<String, JsError> {
    let io: [f64; 4] = serde_json::from_str(io_json).map_err(|e| JsError::new(&format!("io: {e}")))?;
    let mix: [f64; 4] = serde_json::from_str(mix_json).map_err(|e| JsError::new(&format!("mix: {e}")))?;
    let c = Calibration::from_json(calibration_json).map_err(js)?;
    json(&lsm_core::calibration::time_cost(&io, &mix, &c))
}

/// `workload` with its class shares replaced by `mix` (`[R, V, Q, W]`, JSON): a drifted workload.
#[wasm_bindgen]
pub fn drifted_workload(workload_json: &str, mix_json: &str) -> Result<String, JsError> {
    let workload = Workload::from_json(workload_json).map_err(js)?;
    let mix: [f64; 4] = serde_json::from_str(mix_json).map_err(|e| JsError::new(&format!("mix: {e}")))?;
    let w = lsm_tune::drifted(&workload, &mix);
    w.validate().map_err(js)?;
    Ok(w.to_json())
}

/// The bundle's files (`[{name, text}]`, JSON) for a tune result and, when run, its proof;
/// `options_text`: the OPTIONS file the current design was imported from ("" for none), which the
/// recommendation is written into (`lsm_tune::bundle::recommended_options`).
#[wasm_bindgen]
pub fn tune_bundle(result_json: &str, proof_json: &str, options_text: &str) -> Result<String, JsError> {
    let result: lsm_tune::TuneResult =
        serde_json::from_str(result_json).map_err(|e| JsError::new(&format!("tune result: {e}")))?;
    let proof: Option<lsm_tune::bundle::Proof> = if proof_json.is_empty() {
        None
    } else {
        Some(serde_json::from_str(proof_json).map_err(|e| JsError::new(&format!("proof: {e}")))?)
    };
    let original = (!options_text.is_empty()).then_some(options_text);
    json(&lsm_tune::bundle::files(&result, proof.as_ref(), original).map_err(js)?)
}

/// Fit a Workload to a KVBench trace: the fit document (JSON) with the Workload inside.
#[wasm_bindgen]
pub fn fit_trace(name: &str, text: String, key_bytes: u32) -> Result<String, JsError> {
    json(&lsm_workload::fit::fit_trace(name, text, key_bytes as usize).map_err(js)?)
}

/// Fit a Workload to a RocksDB query trace file (its bytes): the same fit document (JSON).
#[wasm_bindgen]
pub fn fit_rocksdb_trace(name: &str, data: Vec<u8>) -> Result<String, JsError> {
    json(&lsm_workload::fit::fit_rocksdb_trace(name, data).map_err(js)?)
}

/// Fit a Workload to a RocksDB LOG (its last stats dump and statistics), for the OPTIONS text
/// RocksDB ran with (empty: the options the LOG printed at its last open, or RocksDB 7.8's
/// defaults if it printed none, said in the fit's assumptions): the fit
/// document (JSON) with the Workload, the figures matched and what was assumed.
#[wasm_bindgen]
pub fn fit_rocksdb_log(name: &str, log_text: &str, options_text: &str) -> Result<String, JsError> {
    let options = (!options_text.trim().is_empty()).then_some(options_text);
    json(&lsm_tune::fit_log::fit_log_text(name, log_text, options).map_err(js)?)
}

/// The engine's crate version (`lsm --version` prints the same), for the About line and bug reports.
#[wasm_bindgen]
pub fn engine_version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// One open database for the worker: the engine on memory, OPFS or the IndexedDB journal, and the
/// workload or trace it is running, if any.
#[wasm_bindgen]
pub struct WasmEngine {
    engine: Engine,
    runner: Option<Runner>,
    journal: Option<Journal>,
    /// The running workload is recorded in the database (`begin_run`): each step acknowledges it.
    recording: bool,
}

fn set(obj: &js_sys::Object, key: &str, value: &JsValue) {
    // Setting a property on a plain object cannot fail.
    let _ = js_sys::Reflect::set(obj, &JsValue::from_str(key), value);
}

#[wasm_bindgen]
impl WasmEngine {
    /// A new in-memory database with the given EngineConfig (JSON).
    #[wasm_bindgen(constructor)]
    pub fn new(config_json: &str) -> Result<WasmEngine, JsError> {
        let config = EngineConfig::from_json(config_json).map_err(js)?;
        Self::opened(Box::new(MemStorage::new()), Some(config), None)
    }

    /// Open (or create, with `config_json`) the database held by an OPFS pool.
    pub fn open_opfs(pool: OpfsPool, config_json: Option<String>) -> Result<WasmEngine, JsError> {
        Self::opened(Box::new(OpfsStorage::new(pool)), parse_config(config_json)?, None)
    }

    /// Open (or create) a database from persisted files; changes are journaled for the caller
    /// to persist (`take_journal`).
    pub fn open_journaled(
        names: Vec<String>,
        contents: Vec<js_sys::Uint8Array>,
        config_json: Option<String>,
    ) -> Result<WasmEngine, JsError> {
        let files = names.into_iter().zip(contents.iter().map(js_sys::Uint8Array::to_vec)).collect();
        let storage = JournalStorage::new(files);
        let journal = storage.journal();
        Self::opened(Box::new(storage), parse_config(config_json)?, Some(journal))
    }

    fn opened(
        storage: Box<dyn Storage>,
        config: Option<EngineConfig>,
        journal: Option<Journal>,
    ) -> Result<WasmEngine, JsError> {
        let engine = Engine::open(storage, config).map_err(js)?;
        Ok(WasmEngine { engine, runner: None, journal, recording: false })
    }

    /// Changes since the last call, for a journaled database:
    /// `[{op: "append", file, bytes} | {op: "truncate", file, len} | {op: "delete", file}]`.
    pub fn take_journal(&mut self) -> js_sys::Array {
        let out = js_sys::Array::new();
        for change in self.journal.as_ref().map(Journal::take).unwrap_or_default() {
            let obj = js_sys::Object::new();
            match change {
                Change::Append { file, bytes } => {
                    set(&obj, "op", &"append".into());
                    set(&obj, "file", &file.into());
                    set(&obj, "bytes", &js_sys::Uint8Array::from(&bytes[..]).into());
                }
                Change::Truncate { file, len } => {
                    set(&obj, "op", &"truncate".into());
                    set(&obj, "file", &file.into());
                    set(&obj, "len", &(len as f64).into());
                }
                Change::Delete { file } => {
                    set(&obj, "op", &"delete".into());
                    set(&obj, "file", &file.into());
                }
            }
            out.push(&obj);
        }
        out
    }

    /// The design this database was created with (JSON).
    pub fn config_json(&self) -> String {
        self.engine.config().to_json()
    }

    /// Apply an encoded batch of operations, then sync; returns a BatchResult as JSON.
    pub fn apply(&mut self, batch: &[u8]) -> Result<String, JsError> {
        let r = batch::apply(&mut self.engine, batch).map_err(js)?;
        json(&r)
    }

    /// Insert or overwrite `key`; durable after the next `sync` (the WAL is written first).
    pub fn put(&mut self, key: &[u8], value: &[u8]) -> Result<(), JsError> {
        self.engine.put(key, value).map_err(js)
    }

    /// Write a tombstone for `key`; durable after the next `sync`.
    pub fn delete(&mut self, key: &[u8]) -> Result<(), JsError> {
        self.engine.delete(key).map_err(js)
    }

    /// The newest value of `key`, or `undefined` if absent or deleted; its page reads are counted.
    pub fn get(&mut self, key: &[u8]) -> Result<Option<Vec<u8>>, JsError> {
        self.engine.get(key).map_err(js)
    }

    /// Make every write so far durable (WAL, tables and manifest), waiting for the storage.
    pub fn sync(&mut self) -> Result<(), JsError> {
        self.engine.sync().map_err(js)
    }

    /// Write the buffer out now, full or not (merged into level 1's newest run if that has room).
    pub fn flush(&mut self) -> Result<(), JsError> {
        self.engine.flush().map_err(js)
    }

    /// Advance merges by about `max_pages` output pages; true while work remains.
    pub fn step(&mut self, max_pages: u32) -> Result<bool, JsError> {
        self.engine.step(u64::from(max_pages)).map_err(js)
    }

    /// Flush the buffer and merge the whole tree into a single run on the deepest level.
    pub fn compact_all(&mut self) -> Result<(), JsError> {
        self.engine.compact_all().map_err(js)
    }

    /// Whether a flush runs the merges it makes due right away (true) or leaves them to `step`.
    #[wasm_bindgen(getter)]
    pub fn auto_compact(&self) -> bool {
        self.engine.auto_compact
    }

    /// Set whether a flush runs its merges right away (true) or leaves them to `step`.
    #[wasm_bindgen(setter)]
    pub fn set_auto_compact(&mut self, on: bool) {
        self.engine.auto_compact = on;
    }

    /// Log writes ahead (the default) or not, as the CLI's `--no-wal` and RocksDB's
    /// `disableWAL`: a benchmark compared with one that runs without a log must run without one too.
    pub fn set_write_ahead_log(&mut self, on: bool) {
        self.engine.set_write_ahead_log(on);
    }

    /// When automatic merges run: `paced` (the default: each write merges a slice of the pending
    /// work and writes stall at the design's `write_stalls`) or `inline` (every merge to completion
    /// inside the write whose flush made it due), as the CLI's `--merges`.
    pub fn set_merges(&mut self, mode: &str) -> Result<(), JsError> {
        self.engine.merging = match mode {
            "paced" => Merging::Paced,
            "inline" => Merging::Inline,
            // No "background": wasm32-unknown-unknown has one thread per worker, and a second
            // worker cannot share the engine's OPFS handles (see `Merging::Background`).
            _ => return Err(JsError::new(&format!("merges: must be \"paced\" or \"inline\", got \"{mode}\""))),
        };
        Ok(())
    }

    /// Where writes stand against the design's write-stall thresholds now (`WriteStallState`,
    /// JSON): level 1's files, the pending merge bytes and the verdict the next write gets.
    pub fn write_stall_json(&mut self) -> Result<String, JsError> {
        json(&self.engine.write_stall())
    }

    /// Start running a Workload (JSON); advance it with `run_steps`.
    pub fn start_workload(&mut self, workload_json: &str) -> Result<(), JsError> {
        let w = Workload::from_json(workload_json).map_err(js)?;
        self.runner = Some(Runner::for_workload(&w).map_err(js)?);
        self.recording = false;
        Ok(())
    }

    /// Record in the database that the started workload or trace begins, named `label`, with the
    /// operations it plans; from here every `run_steps` records what it acknowledged (one append
    /// and sync of the record per step), until `end_run`. A database reopened before `end_run`
    /// says the run was interrupted (`recovery_json`).
    pub fn begin_run(&mut self, label: &str) -> Result<(), JsError> {
        let runner = self.runner.as_ref().ok_or_else(|| JsError::new("no workload has been started"))?;
        let start = RunStart { label: label.to_string(), planned_operations: runner.planned(), planned_writes: None };
        self.engine.begin_run(start).map_err(js)?;
        self.recording = true;
        Ok(())
    }

    /// Record the run's end: `cancelled` or finished, with its result in a line.
    pub fn end_run(&mut self, cancelled: bool, result: &str) -> Result<(), JsError> {
        if !self.recording {
            return Err(JsError::new("no run is being recorded: call begin_run first"));
        }
        let outcome = if cancelled { Outcome::Cancelled } else { Outcome::Finished };
        let acknowledged = self.acknowledged();
        self.engine.end_run(RunEnd { outcome, acknowledged, result: result.to_string() }).map_err(js)?;
        self.recording = false;
        Ok(())
    }

    fn acknowledged(&self) -> Acknowledged {
        let (operations, writes) = self.runner.as_ref().map_or((0, 0), Runner::done);
        Acknowledged { operations, writes }
    }

    /// The run the database recorded last (`lsm_engine::run_log::RunRecord`, JSON; null for none):
    /// the one in progress, or the last one found when it was opened.
    pub fn last_run_json(&self) -> Result<String, JsError> {
        json(&self.engine.last_run())
    }

    /// What opening this database recovered (`lsm_engine::recovery::Recovery`, JSON): the run it
    /// recorded (interrupted when its `end` is null), logs replayed, torn tails cut, a cut-off
    /// merge's tables deleted, the entries recovered and whether a merge is due.
    pub fn recovery_json(&self) -> Result<String, JsError> {
        json(self.engine.recovery())
    }

    /// Time every operation of the started workload or trace (latency percentiles per class and
    /// phase, throughput over time, in the report): one clock read per operation.
    pub fn time_operations(&mut self) -> Result<(), JsError> {
        self.runner.as_mut().ok_or_else(|| JsError::new("no workload has been started"))?.time_operations();
        Ok(())
    }

    /// Start running a KVBench trace; integer keys are encoded at `key_bytes` bytes.
    pub fn start_trace(&mut self, name: &str, text: String, key_bytes: u32) -> Result<(), JsError> {
        if !(8..=1024).contains(&key_bytes) {
            return Err(JsError::new(&format!("key_bytes: must be an integer in [8, 1024], got {key_bytes}")));
        }
        self.runner = Some(Runner::for_trace(name, text, key_bytes as usize));
        self.recording = false;
        Ok(())
    }

    /// Execute up to `max_ops` operations of the running workload, then sync; returns Progress
    /// as JSON. An operation refused by storage is retried by the next call.
    pub fn run_steps(&mut self, max_ops: u32) -> Result<String, JsError> {
        let runner = self.runner.as_mut().ok_or_else(|| JsError::new("no workload is running: start one first"))?;
        let p = runner.step(&mut self.engine, u64::from(max_ops)).map_err(js)?;
        if self.recording {
            // The step synced its writes; the record follows them.
            let acknowledged = self.acknowledged();
            self.engine.acknowledge_run(acknowledged).map_err(js)?;
        }
        json(&p)
    }

    /// The Report of the workload run so far (JSON), with the caller's wall-clock timings.
    pub fn report_json(&self, preload_ms: f64, run_ms: f64) -> Result<String, JsError> {
        let runner = self.runner.as_ref().ok_or_else(|| JsError::new("no workload has been started"))?;
        let mut report = runner.report(&self.engine);
        report.timings = Some(Timings { preload_ms, run_ms });
        Ok(report.to_json())
    }

    /// I/O counters (Stats) as JSON.
    pub fn stats_json(&self) -> Result<String, JsError> {
        json(self.engine.stats())
    }

    /// Zero every I/O counter (the tree is untouched), to measure a phase on its own.
    pub fn reset_stats(&mut self) {
        self.engine.reset_stats();
    }

    /// The tree shape (TreeShape) as JSON.
    pub fn tree_json(&self) -> Result<String, JsError> {
        json(&self.engine.tree())
    }
}

/// Monkey's Figure 12A measured on in-memory engines (`growth`), stepped by the worker so it can
/// report progress and stop on a cancel.
#[wasm_bindgen]
pub struct WasmGrowth {
    growth: lsm_runner::growth::Growth,
}

#[wasm_bindgen]
impl WasmGrowth {
    /// From a GrowthSpec (JSON); throws an error naming the field and the allowed range.
    #[wasm_bindgen(constructor)]
    pub fn new(spec_json: &str) -> Result<WasmGrowth, JsError> {
        let spec: lsm_runner::growth::GrowthSpec =
            serde_json::from_str(spec_json).map_err(|e| JsError::new(&format!("growth spec: {e}")))?;
        Ok(WasmGrowth { growth: lsm_runner::growth::Growth::new(spec).map_err(js)? })
    }

    /// Do about `max_ops` inserts and lookups; returns GrowthProgress (JSON).
    pub fn step(&mut self, max_ops: u32) -> Result<String, JsError> {
        json(&self.growth.step(u64::from(max_ops)).map_err(js)?)
    }

    /// The points measured so far (GrowthResult, JSON).
    pub fn result_json(&self) -> Result<String, JsError> {
        json(&self.growth.result())
    }
}

/// Write amplification by destination level measured on an in-memory engine (`lsm writes`),
/// stepped by the worker so it can report progress and stop on a cancel.
#[wasm_bindgen]
pub struct WasmWriteAmp {
    run: lsm_runner::write_amp::WriteAmpRun,
}

#[wasm_bindgen]
impl WasmWriteAmp {
    /// From a WriteAmpSpec (JSON); throws an error naming the field and the allowed range.
    #[wasm_bindgen(constructor)]
    pub fn new(spec_json: &str) -> Result<WasmWriteAmp, JsError> {
        let spec: lsm_runner::write_amp::WriteAmpSpec =
            serde_json::from_str(spec_json).map_err(|e| JsError::new(&format!("write amplification spec: {e}")))?;
        Ok(WasmWriteAmp { run: lsm_runner::write_amp::WriteAmpRun::new(spec).map_err(js)? })
    }

    /// Do about `max_ops` writes; returns WriteAmpProgress (JSON).
    pub fn step(&mut self, max_ops: u32) -> Result<String, JsError> {
        json(&self.run.step(u64::from(max_ops)).map_err(js)?)
    }

    /// The checkpoints so far (WriteAmpResult, JSON).
    pub fn result_json(&self) -> Result<String, JsError> {
        json(&self.run.result())
    }
}

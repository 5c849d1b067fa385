//! Tune: from a design and a workload to a design for the same memory that the engine (or
//! RocksDB) will measure as cheaper, and the files to take home.
//!
//! The face (this file) validates the inputs once and sends them to one of two wings:
//! * `engine_search`: every whole-level shape (policy, size ratio, filter bits, allocation), then
//!   per-level shapes around the best (Moose's per-level run counts in the form Dostoevsky's lazy
//!   leveling gives them) and Mnemosyne's filters; also RocksDB's shape for a design RocksDB does
//!   not run yet.
//! * `rocksdb`: a design imported from RocksDB's OPTIONS, tuned for RocksDB, searched over
//!   RocksDB's own knobs within one memory budget as RocksDB charges it, with a verdict, an option
//!   diff and the plugin a recommendation may need.
//!
//! Both price designs with `predict` (the engine's merge policy and filter sizing replayed on
//! sizes, so a predicted gain is a gain the engine shows), rank them with `rank` (I/O, or time on
//! a calibrated device) and `robust` (Endure's worst case within KL-divergence ρ), and return the
//! one document `result::TuneResult`; `options::TuneOptions` is the one document of their inputs;
//! `bundle` writes the files (OPTIONS, engine JSON, YCSB properties, db_bench comparison, report).
//! The current design is always a candidate, so the recommendation is never predicted worse than
//! where you are. The nominal design minimises the predicted cost at the expected workload; the
//! robust one the worst case within ρ (ρ = 0: the nominal design).

pub mod bundle;
mod designs;
mod engine_search;
pub mod fit_log;
mod keymap;
pub mod options;
mod popularity;
pub mod predict;
mod rank;
pub mod result;
pub mod robust;
pub mod rocksdb;
pub mod verdict;
mod writes;

use lsm_core::config::EngineConfig;
use lsm_core::error::Result;
use lsm_core::workload::Workload;

pub use designs::{
    allocation_name, human_bytes, lazy_leveling, level_design, memory_of, mnemosyne, rocksdb_design, rocksdb_summary,
    shape_summary, summary,
};
pub use options::{MEMORY_RANGE, RHO_RANGE, Target, TuneOptions};
pub use rank::Rank;
pub use result::{
    Grown, Headline, HeadlineDesigns, InHeadline, NEIGHBOUR_SAMPLES, Neighbourhood, Priced, RequiredPlugin,
    RocksdbAdvice, Steady, TUNE_KIND, TUNE_VERSION, TuneResult,
};
pub use rocksdb::OptionChange;
pub use rocksdb::memory::{DEFAULT_WRITE_BUFFERS, Memory};
pub use rocksdb::per_level::Plugin;
pub use rocksdb::{knobs, memory, per_level};
pub use verdict::Verdict;

/// Tune `current` for `workload` on `target` with robustness `rho` (0 = nominal), in the memory
/// the current design uses.
pub fn tune(current: &EngineConfig, workload: &Workload, rho: f64, target: Target) -> Result<TuneResult> {
    tune_with(current, workload, &TuneOptions::new(rho, target))
}

/// Tune `current` for `workload` as `options` say. A design RocksDB runs (imported from its
/// OPTIONS, `predict::rocksdb_shaped`) tuned for RocksDB is searched over RocksDB's own knobs
/// (`rocksdb`); anything else over the shapes the target can run (`engine_search`).
pub fn tune_with(current: &EngineConfig, workload: &Workload, options: &TuneOptions) -> Result<TuneResult> {
    current.validate()?;
    workload.validate()?;
    options.validate()?;
    // The searches price the workload as the engine sees it (`Predictor::new`). The result
    // carries the workload as given, so its bundle replays the client's operations.
    let mut result = if options.target == Target::Rocksdb && predict::rocksdb_shaped(current) {
        rocksdb::search(current, workload, options)
    } else {
        engine_search::search(current, workload, options)
    }?;
    result.workload = workload.clone();
    Ok(result)
}

/// `workload` with its class shares replaced by `mix` (zero-result lookups, non-zero-result
/// lookups, range lookups, writes): a drifted workload, same data, keys and seed. Writes keep
/// the workload's own split between inserts, updates and deletes (updates if it had none).
pub fn drifted(workload: &Workload, mix: &[f64; 4]) -> Workload {
    let m = &workload.mix;
    let writes = m.insert + m.update + m.delete;
    let (i, u, d) =
        if writes > 0.0 { (m.insert / writes, m.update / writes, m.delete / writes) } else { (0.0, 1.0, 0.0) };
    let mut w = workload.clone();
    w.mix = lsm_core::workload::Mix {
        get_missing: mix[0],
        get_existing: mix[1],
        range: mix[2],
        insert: mix[3] * i,
        update: mix[3] * u,
        delete: mix[3] * d,
        read_modify_write: 0.0,
    };
    if mix[2] > 0.0 && w.range_selectivity <= 0.0 {
        // A workload that gains range lookups needs a length: YCSB's default, 50 of its records.
        w.range_selectivity = (50.0 / workload.preload.entries.max(1) as f64).min(1.0);
    }
    w.name = format!("{} (drifted)", workload.name);
    w
}

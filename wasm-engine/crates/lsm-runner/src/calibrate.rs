//! The CPU side of a calibration (`lsm_core::calibration`): what one operation of each class costs
//! this engine with every page already in memory, measured on the design being priced.
//!
//! Each class runs alone on its own in-memory database of the same design, scaled so the tree
//! has levels to search (the write buffer set to a twentieth of the data): a lookup's CPU is its
//! filter probes, index searches and block decoding, not a memtable hit. Writes are timed twice:
//! with a buffer that holds them all (the insert itself) and with the scaled buffer (the insert
//! plus the flushes and merges it causes); the difference per page written is the merge CPU per
//! page, which the caller adds to the device's page write price. Timed by the wall clock around
//! the run phase as a whole, so a coarse clock (the browser's 5 µs) does not bias a mean of
//! sub-microsecond operations.

use lsm_core::calibration::{CALIBRATION_KIND, CALIBRATION_VERSION, Calibration};
use lsm_core::config::EngineConfig;
use lsm_core::error::Result;
use lsm_core::workload::{Distribution, Mix, Preload, WORKLOAD_KIND, WORKLOAD_VERSION, Workload};
use lsm_engine::Engine;
use lsm_engine::storage::MemStorage;

use crate::clock::now_ns;
use crate::runner::Runner;

/// Key length of the calibration workloads, bytes (YCSB's `user` + 12 digits is 16).
const KEY_BYTES: u32 = 16;
/// Entries a range lookup returns: YCSB's mean scan length (uniform in 1–100).
const SCAN_ENTRIES: f64 = 50.0;
/// The scaled write buffer holds this fraction of the data.
const BUFFER_SHARE: u64 = 20;

/// The size of a calibration: records preloaded and operations timed per class.
#[derive(Clone, Copy, Debug)]
pub struct CalibrationSize {
    /// Records preloaded before each class's run.
    pub records: u64,
    /// Operations timed per class.
    pub operations: u64,
    /// Value length, bytes (YCSB's default record is 1,000 B).
    pub value_bytes: u32,
}

impl Default for CalibrationSize {
    fn default() -> Self {
        CalibrationSize { records: 50_000, operations: 20_000, value_bytes: 1_000 }
    }
}

/// What the CPU calibration measured.
#[derive(Clone, Debug, PartialEq)]
pub struct CpuCalibration {
    /// Microseconds per operation of each class (zero-result lookup, non-zero-result lookup, range
    /// lookup, write), pages in memory; a write's is the insert alone.
    pub cpu_us: [f64; 4],
    /// Merge CPU per page a flush or merge writes, microseconds.
    pub merge_us_per_page: f64,
}

fn workload(size: &CalibrationSize, mix: Mix, seed: u64) -> Workload {
    Workload {
        kind: WORKLOAD_KIND.into(),
        version: WORKLOAD_VERSION,
        name: "calibration".into(),
        seed,
        preload: Preload { entries: size.records, key_space: 0, key_bytes: KEY_BYTES, value_bytes: size.value_bytes },
        operations: size.operations,
        mix,
        distribution: Distribution::Uniform,
        range_selectivity: (SCAN_ENTRIES / size.records.max(1) as f64).min(1.0),
        ycsb: None,
        db_bench: None,
    }
}

fn only(class: usize) -> Mix {
    let mut m = Mix {
        insert: 0.0,
        update: 0.0,
        delete: 0.0,
        get_existing: 0.0,
        get_missing: 0.0,
        range: 0.0,
        read_modify_write: 0.0,
    };
    match class {
        0 => m.get_missing = 1.0,
        1 => m.get_existing = 1.0,
        2 => m.range = 1.0,
        _ => m.update = 1.0,
    }
    m
}

/// Runs `w` on a fresh in-memory engine of `config`; returns the run phase's wall microseconds per
/// operation and the pages its flushes and merges wrote.
fn timed_run(config: &EngineConfig, w: &Workload) -> Result<(f64, u64)> {
    let mut runner = Runner::for_workload(w)?;
    let mut engine = Engine::create(config.clone(), Box::new(MemStorage::new()))?;
    while runner.progress().phase == "preload" {
        runner.step(&mut engine, 10_000)?;
    }
    let start = now_ns();
    while !runner.is_finished() {
        runner.step(&mut engine, 10_000)?;
    }
    let elapsed_ns = now_ns() - start;
    let report = runner.report(&engine);
    let pages = report.writes.totals.data_pages_written + report.writes.totals.meta_pages_written;
    Ok((elapsed_ns / 1e3 / w.operations.max(1) as f64, pages))
}

/// The CPU per operation class of `config` on this machine (see the module docs).
pub fn cpu_per_class(config: &EngineConfig, size: &CalibrationSize) -> Result<CpuCalibration> {
    let data_bytes = size.records * u64::from(KEY_BYTES + size.value_bytes);
    let mut scaled = config.clone();
    scaled.buffer_bytes = (data_bytes / BUFFER_SHARE).max(u64::from(config.page_bytes) * 4);
    let mut roomy = config.clone();
    roomy.buffer_bytes = data_bytes.saturating_mul(4).max(config.buffer_bytes);
    let mut cpu_us = [0.0; 4];
    for (class, us) in cpu_us.iter_mut().enumerate().take(3) {
        *us = timed_run(&scaled, &workload(size, only(class), 1 + class as u64))?.0;
    }
    // The insert alone: a buffer that holds the preload and every update.
    cpu_us[3] = timed_run(&roomy, &workload(size, only(3), 4))?.0;
    let (with_merges, pages) = timed_run(&scaled, &workload(size, only(3), 4))?;
    let merge_us_per_page =
        if pages > 0 { ((with_merges - cpu_us[3]).max(0.0) * size.operations as f64) / pages as f64 } else { 0.0 };
    Ok(CpuCalibration { cpu_us, merge_us_per_page })
}

/// What a device's pages cost, timed by the caller (files natively, OPFS in the browser; the
/// page sends it to the wasm API's `calibrate` as JSON).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct DevicePrices {
    /// Where the pages were timed, for people.
    pub device: String,
    /// Whether the reads bypassed the OS cache.
    pub direct_reads: bool,
    /// Mean µs per random page read.
    pub page_read_us: f64,
    /// µs per page written in large batches, made durable.
    pub page_write_us: f64,
}

/// The calibration of this engine on `device`: its CPU per class measured here on `config`, and
/// a page written priced at the device's write plus the merge CPU that made it. `store` names the
/// build ("lsm-engine 0.1.0", "… (wasm)"); `notes` add what the device measurement could not do.
pub fn engine_calibration(
    config: &EngineConfig,
    device: DevicePrices,
    store: String,
    mut notes: Vec<String>,
) -> Result<Calibration> {
    let cpu = cpu_per_class(config, &CalibrationSize::default())?;
    notes.insert(
        0,
        format!(
            "page_write_us is the device's {:.2} µs per page written in 1 MiB batches and synced, plus this engine's \
             merge CPU of {:.2} µs per page",
            device.page_write_us, cpu.merge_us_per_page
        ),
    );
    let c = Calibration {
        kind: CALIBRATION_KIND.into(),
        version: CALIBRATION_VERSION,
        device: device.device,
        direct_reads: device.direct_reads,
        page_bytes: config.page_bytes,
        page_read_us: device.page_read_us,
        page_write_us: device.page_write_us + cpu.merge_us_per_page,
        store,
        cpu_us: cpu.cpu_us,
        notes,
    };
    c.validate()?;
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_class_costs_some_cpu_and_a_scan_costs_more_than_a_lookup() {
        let config: EngineConfig =
            serde_json::from_str(include_str!("../../../../public/presets/rocksdb.json")).unwrap();
        let size = CalibrationSize { records: 4_000, operations: 2_000, value_bytes: 200 };
        let c = cpu_per_class(&config, &size).unwrap();
        assert!(c.cpu_us.iter().all(|&u| u.is_finite() && u > 0.0), "{c:?}");
        // A scan returns 50 entries; a point lookup one. Far apart on any machine.
        assert!(c.cpu_us[2] > 2.0 * c.cpu_us[1], "{c:?}");
        assert!(c.merge_us_per_page.is_finite() && c.merge_us_per_page >= 0.0, "{c:?}");
    }
}

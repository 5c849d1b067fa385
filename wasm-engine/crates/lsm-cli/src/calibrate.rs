//! `lsm calibrate`: this device's page prices, timed on a probe file, and the engine's CPU per
//! operation class (`lsm_runner::calibrate`), in one `Calibration` document.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use lsm_core::calibration::Calibration;
use lsm_core::config::EngineConfig;
use lsm_core::error::{Error, Result};
use lsm_core::rng::Rng;
use lsm_runner::calibrate::{DevicePrices, engine_calibration};
use lsm_runner::clock::now_ns;

/// Bytes written per call when filling the probe file: large sequential batches, as the engine
/// writes a run.
const CHUNK: usize = 1 << 20;

/// Removes the probe file however the measurement ends.
struct Probe(PathBuf);

impl Drop for Probe {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The directory a probe file lives in, for people.
fn dir_of(path: &Path) -> String {
    path.parent().map_or_else(|| ".".to_string(), |d| d.display().to_string())
}

fn io(path: &Path, e: std::io::Error) -> Error {
    Error::storage(path.display().to_string(), e.to_string())
}

/// Opens `path` for reads that bypass the OS cache, where the platform and filesystem allow.
fn open_direct(path: &Path) -> Option<File> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        OpenOptions::new().read(true).custom_flags(libc::O_DIRECT).open(path).ok()
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = path;
        None
    }
}

/// Writes `bytes` of random data to `path` in `CHUNK`s and syncs it, then reads `reads` pages at
/// random page-aligned offsets one at a time.
fn device_prices(path: &Path, bytes: u64, page: usize, reads: u64) -> Result<DevicePrices> {
    let _probe = Probe(path.to_path_buf());
    let mut rng = Rng::new(0x00ca_1b2a);
    let chunk: Vec<u8> = (0..CHUNK).map(|_| rng.next_u64() as u8).collect();
    let start = now_ns();
    let mut file = OpenOptions::new().create_new(true).write(true).open(path).map_err(|e| io(path, e))?;
    let chunks = bytes.div_ceil(CHUNK as u64);
    for _ in 0..chunks {
        file.write_all(&chunk).map_err(|e| io(path, e))?;
    }
    file.sync_data().map_err(|e| io(path, e))?;
    let written_pages = (chunks * CHUNK as u64) / page as u64;
    let page_write_us = (now_ns() - start) / 1e3 / written_pages as f64;
    drop(file);

    let (reader, direct_reads) = match open_direct(path) {
        Some(f) => (f, true),
        None => (File::open(path).map_err(|e| io(path, e))?, false),
    };
    // O_DIRECT needs a buffer aligned to the device's block: carve an aligned page out of a larger one.
    let mut raw = vec![0u8; 2 * page.max(4096)];
    let skew = raw.as_ptr() as usize % 4096;
    let offset = if skew == 0 { 0 } else { 4096 - skew };
    let buf = &mut raw[offset..offset + page];
    let mut total_ns = 0.0;
    for _ in 0..reads {
        let at = rng.below(written_pages) * page as u64;
        let t = now_ns();
        reader.read_exact_at(buf, at).map_err(|e| io(path, e))?;
        total_ns += now_ns() - t;
    }
    Ok(DevicePrices {
        device: format!("files in {}{}", dir_of(path), if direct_reads { " (direct reads)" } else { "" }),
        direct_reads,
        page_read_us: total_ns / 1e3 / reads as f64,
        page_write_us,
    })
}

/// Measures the device under `dir` and `config`'s CPU; `probe_mib` and `reads` size the probe.
pub(crate) fn calibrate(dir: &Path, config: &EngineConfig, probe_mib: u64, reads: u64) -> Result<Calibration> {
    if !(16..=65_536).contains(&probe_mib) {
        return Err(Error::invalid("--probe-mib", format!("must be an integer in [16, 65536], got {probe_mib}")));
    }
    if !(100..=1_000_000).contains(&reads) {
        return Err(Error::invalid("--reads", format!("must be an integer in [100, 1000000], got {reads}")));
    }
    let path = dir.join(format!("lsm-calibrate-{}.probe", std::process::id()));
    let page = config.page_bytes as usize;
    let device = device_prices(&path, probe_mib << 20, page, reads)?;
    let mut notes = Vec::new();
    if !device.direct_reads {
        notes.push(format!(
            "{} does not allow O_DIRECT: reads of the {probe_mib} MiB probe may have come from the OS cache",
            dir.display()
        ));
    }
    engine_calibration(config, device, format!("lsm-engine {}", env!("CARGO_PKG_VERSION")), notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_probe_prices_pages_and_removes_its_file() {
        let dir = std::env::temp_dir().join(format!("lsm-cal-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let config: EngineConfig =
            serde_json::from_str(include_str!("../../../../public/presets/rocksdb.json")).unwrap();
        let c = calibrate(&dir, &config, 16, 200).unwrap();
        assert!(c.page_read_us > 0.0 && c.page_write_us > 0.0, "{c:?}");
        assert!(c.cpu_us.iter().all(|&u| u > 0.0), "{c:?}");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "the probe file is removed");
        std::fs::remove_dir(&dir).unwrap();
        let e = calibrate(Path::new("/"), &config, 8, 200).unwrap_err().to_string();
        assert!(e.contains("--probe-mib") && e.contains("[16, 65536]"), "{e}");
    }
}

//! Time as well as pages: what one page read, one page written and each operation's own CPU cost
//! on a device (`Calibration`, measured by `lsm calibrate` or the page's "Calibrate"), and the pure
//! conversion of a predicted I/O per operation into microseconds and operations per second.
//!
//! The model is the one the papers' cost models imply once a device is named: an operation of
//! class c costs its CPU plus its pages at the device's price,
//!   t_c = cpu_c + io_c · (page_read_us for lookups | page_write_us for writes),
//! and a mix runs at 1 / Σ_c mix_c · t_c operations per second (one operation at a time, as the
//! referee and the engine's runner issue them). A write's pages are its amortised share of the
//! flushes and merges it causes: merges run beside the writes, but on a shared device and CPU their
//! time is paid by the same stream of operations.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::range::check_integer;

/// The `kind` of a calibration document.
pub const CALIBRATION_KIND: &str = "lsm-navigator/calibration";
/// The `version` of a calibration document.
pub const CALIBRATION_VERSION: u32 = 1;
/// Allowed microseconds for any one figure: 0 up to one second.
pub const MICROS_RANGE: (f64, f64) = (0.0, 1_000_000.0);
/// Operation classes in the order of `cpu_us` (the predictor's classes).
pub const CALIBRATION_CLASSES: [&str; 4] = ["zero-result lookup", "non-zero-result lookup", "range lookup", "write"];

/// What a device and a store's CPU cost, measured once and reused for every prediction.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Calibration {
    /// Always `CALIBRATION_KIND`.
    #[cfg_attr(feature = "ts", ts(type = "\"lsm-navigator/calibration\""))]
    pub kind: String,
    /// Always `CALIBRATION_VERSION`.
    #[cfg_attr(feature = "ts", ts(type = "1"))]
    pub version: u32,
    /// Where the pages were timed: "files in /tmp (direct reads)", "OPFS", ….
    pub device: String,
    /// Whether page reads bypassed the operating system's cache (O_DIRECT). Without it a read the
    /// OS has cached costs a copy, and the figure says what this engine pays, not the disk.
    pub direct_reads: bool,
    /// Page size the figures are per, in bytes.
    pub page_bytes: u32,
    /// Mean microseconds to read one page at a random offset, one read at a time.
    pub page_read_us: f64,
    /// Microseconds per page written in large sequential batches, made durable (fdatasync).
    pub page_write_us: f64,
    /// Whose CPU `cpu_us` is: "lsm-engine" or "rocksdb 7.8.3".
    pub store: String,
    /// CPU microseconds per operation of each class (`CALIBRATION_CLASSES`), with every page it
    /// touches already in memory.
    pub cpu_us: [f64; 4],
    /// What the measurement could not do as asked (no O_DIRECT on this filesystem, …).
    #[serde(default)]
    pub notes: Vec<String>,
}

/// A design's predicted time on a calibrated device.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TimeCost {
    /// Microseconds per operation of each class (`CALIBRATION_CLASSES`).
    pub us_per_op: [f64; 4],
    /// Σ mix · us_per_op: the mean operation's microseconds.
    pub mean_us: f64,
    /// 10⁶ / mean_us: operations per second, one at a time (0 when mean_us is 0).
    pub ops_per_sec: f64,
}

impl Calibration {
    /// Checks every figure: kind and version, a page size in [512, 1 MiB], microseconds finite and in
    /// `MICROS_RANGE`.
    pub fn validate(&self) -> Result<()> {
        if self.kind != CALIBRATION_KIND {
            return Err(Error::invalid("kind", format!("must be \"{CALIBRATION_KIND}\", got \"{}\"", self.kind)));
        }
        if self.version != CALIBRATION_VERSION {
            return Err(Error::invalid("version", format!("must be {CALIBRATION_VERSION}, got {}", self.version)));
        }
        check_integer("page_bytes", self.page_bytes, (512, 1 << 20), "")?;
        let micros = |field: String, v: f64| -> Result<()> {
            if v.is_finite() && (MICROS_RANGE.0..=MICROS_RANGE.1).contains(&v) {
                Ok(())
            } else {
                Err(Error::invalid(field, format!("must be a number of microseconds in [0, 1000000], got {v}")))
            }
        };
        micros("page_read_us".into(), self.page_read_us)?;
        micros("page_write_us".into(), self.page_write_us)?;
        for (i, &v) in self.cpu_us.iter().enumerate() {
            micros(format!("cpu_us[{i}] ({})", CALIBRATION_CLASSES[i]), v)?;
        }
        Ok(())
    }

    /// Reads and checks a calibration document.
    pub fn from_json(text: &str) -> Result<Calibration> {
        let c: Calibration = serde_json::from_str(text)
            .map_err(|e| Error::invalid("calibration", format!("not a calibration document: {e}")))?;
        c.validate()?;
        Ok(c)
    }
}

/// The time of a design that reads and writes `io_per_op` pages per operation of each class
/// (lookups' pages read, writes' pages written), for a workload with class shares `mix`.
pub fn time_cost(io_per_op: &[f64; 4], mix: &[f64; 4], calibration: &Calibration) -> TimeCost {
    let mut us_per_op = [0.0; 4];
    for (i, us) in us_per_op.iter_mut().enumerate() {
        let page_us = if i == 3 { calibration.page_write_us } else { calibration.page_read_us };
        *us = calibration.cpu_us[i] + io_per_op[i].max(0.0) * page_us;
    }
    let mean_us: f64 = (0..4).map(|i| mix[i] * us_per_op[i]).sum();
    let ops_per_sec = if mean_us > 0.0 { 1e6 / mean_us } else { 0.0 };
    TimeCost { us_per_op, mean_us, ops_per_sec }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn device() -> Calibration {
        Calibration {
            kind: CALIBRATION_KIND.into(),
            version: CALIBRATION_VERSION,
            device: "test".into(),
            direct_reads: true,
            page_bytes: 4096,
            page_read_us: 72.0,
            page_write_us: 4.6,
            store: "lsm-engine".into(),
            cpu_us: [2.0, 3.0, 40.0, 5.0],
            notes: vec![],
        }
    }

    #[test]
    fn an_operation_costs_its_cpu_plus_its_pages_at_the_device_price() {
        // YCSB B-like: 95% lookups of existing keys at 1.72 pages, 5% writes at 20 pages.
        let t = time_cost(&[0.0, 1.72, 0.0, 20.0], &[0.0, 0.95, 0.0, 0.05], &device());
        assert!((t.us_per_op[1] - (3.0 + 1.72 * 72.0)).abs() < 1e-9);
        assert!((t.us_per_op[3] - (5.0 + 20.0 * 4.6)).abs() < 1e-9);
        let mean = 0.95 * (3.0 + 1.72 * 72.0) + 0.05 * (5.0 + 92.0);
        assert!((t.mean_us - mean).abs() < 1e-9);
        assert!((t.ops_per_sec - 1e6 / mean).abs() < 1e-6);
        // Fewer pages, more operations per second, by the ratio of the mean times.
        let fewer = time_cost(&[0.0, 0.44, 0.0, 20.0], &[0.0, 0.95, 0.0, 0.05], &device());
        assert!(fewer.ops_per_sec > 2.0 * t.ops_per_sec, "{} vs {}", fewer.ops_per_sec, t.ops_per_sec);
    }

    #[test]
    fn no_operations_no_rate_and_no_nan() {
        let t = time_cost(&[0.0; 4], &[0.0; 4], &device());
        assert_eq!(t.mean_us, 0.0);
        assert_eq!(t.ops_per_sec, 0.0);
    }

    #[test]
    fn a_bad_figure_is_named_with_its_range() {
        let mut c = device();
        c.cpu_us[2] = f64::NAN;
        let e = c.validate().unwrap_err().to_string();
        assert!(e.contains("cpu_us[2] (range lookup)") && e.contains("[0, 1000000]"), "{e}");
        let mut c = device();
        c.page_read_us = -1.0;
        assert!(c.validate().unwrap_err().to_string().contains("page_read_us"));
        let mut c = device();
        c.page_bytes = 100;
        assert!(c.validate().unwrap_err().to_string().contains("page_bytes"));
        let text = serde_json::to_string(&device()).unwrap();
        assert_eq!(Calibration::from_json(&text).unwrap(), device());
        assert!(Calibration::from_json("{}").unwrap_err().to_string().contains("calibration"));
    }
}

//! What the search ranks designs by: I/O per operation (pages read and written), or the predicted
//! time per operation on a calibrated device (`lsm_core::calibration::time_cost`: each class's CPU
//! plus its pages at the device's read or write price). Either is a cost per operation class
//! weighted by the class shares, so the worst case within ρ, the neighbourhood and the verdict are
//! taken the same way on either unit's per-class costs. A device where a page written costs many
//! page reads makes write amplification dearer, and the time ranking can choose a design the I/O
//! ranking would not.

use std::str::FromStr;

use lsm_core::calibration::{Calibration, TimeCost, time_cost};
use lsm_core::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// The unit the tuner ranks designs by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Rank {
    /// I/O per operation: pages read by lookups and scans, pages written (amortised) by writes.
    #[default]
    Io,
    /// Predicted microseconds per operation on a calibrated device.
    Time,
}

impl FromStr for Rank {
    type Err = Error;
    fn from_str(s: &str) -> Result<Rank> {
        match s {
            "io" => Ok(Rank::Io),
            "time" => Ok(Rank::Time),
            other => Err(Error::invalid("rank", format!("must be io or time, got \"{other}\""))),
        }
    }
}

/// Turns a design's I/O per operation class into the unit ranked by.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ranker<'a> {
    /// The device when ranking by time; None: by I/O.
    calibration: Option<&'a Calibration>,
    mix: [f64; 4],
}

impl<'a> Ranker<'a> {
    /// Ranking by `rank` at class shares `mix`; `calibration` is used only for `Rank::Time` (the
    /// caller has checked it is there).
    pub(crate) fn new(rank: Rank, calibration: Option<&'a Calibration>, mix: [f64; 4]) -> Ranker<'a> {
        Ranker { calibration: if rank == Rank::Time { calibration } else { None }, mix }
    }

    /// The time of I/O per operation class `io` on the device, when ranking by time.
    pub(crate) fn time(&self, io: &[f64; 4]) -> Option<TimeCost> {
        self.calibration.map(|c| time_cost(io, &self.mix, c))
    }

    /// `io` per class in the unit ranked by (pages, or µs).
    pub(crate) fn costs(&self, io: &[f64; 4]) -> [f64; 4] {
        self.time(io).map_or(*io, |t| t.us_per_op)
    }

    /// The expected cost of a design whose expected I/O is `expected` (per class `io`), in the unit
    /// ranked by: `expected` itself when ranking by I/O.
    pub(crate) fn expected(&self, expected: f64, io: &[f64; 4]) -> f64 {
        self.time(io).map_or(expected, |t| t.mean_us)
    }

    /// The device ranked on (None: ranking by I/O).
    pub(crate) fn calibration(&self) -> Option<&'a Calibration> {
        self.calibration
    }

    /// "I/O per operation", or "time per operation on <device>".
    pub(crate) fn unit(&self) -> String {
        match self.calibration {
            None => "I/O per operation".into(),
            Some(c) => format!("time per operation on {}", c.device),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsm_core::calibration::{CALIBRATION_KIND, CALIBRATION_VERSION};

    fn device(read: f64, write: f64) -> Calibration {
        Calibration {
            kind: CALIBRATION_KIND.into(),
            version: CALIBRATION_VERSION,
            device: "a test device".into(),
            direct_reads: true,
            page_bytes: 4096,
            page_read_us: read,
            page_write_us: write,
            store: "rocksdb 7.8.3".into(),
            cpu_us: [1.0, 2.0, 10.0, 3.0],
            notes: vec![],
        }
    }

    #[test]
    fn time_is_cpu_plus_pages_at_the_device_price_and_io_is_left_alone() {
        let d = device(100.0, 1_000.0);
        let mix = [0.0, 0.5, 0.0, 0.5];
        let io = [0.0, 1.5, 0.0, 0.25];
        let t = Ranker::new(Rank::Time, Some(&d), mix);
        assert_eq!(t.costs(&io), [1.0, 2.0 + 150.0, 10.0, 3.0 + 250.0]);
        assert_eq!(t.expected(0.875, &io), 0.5 * 152.0 + 0.5 * 253.0);
        assert_eq!(t.unit(), "time per operation on a test device");
        // By I/O the calibration is not used, even when given.
        let i = Ranker::new(Rank::Io, Some(&d), mix);
        assert_eq!(i.costs(&io), io);
        assert_eq!(i.expected(0.875, &io), 0.875);
        assert!(i.time(&io).is_none());
        assert_eq!(i.unit(), "I/O per operation");
    }

    #[test]
    fn rank_names_parse_and_a_bad_one_is_named() {
        assert_eq!("io".parse::<Rank>().unwrap(), Rank::Io);
        assert_eq!("time".parse::<Rank>().unwrap(), Rank::Time);
        let e = "pages".parse::<Rank>().unwrap_err().to_string();
        assert!(e.contains("rank") && e.contains("io or time"), "{e}");
    }
}

//! Honest verdicts: a predicted gain with the model's stated error around it ("keep your design"
//! when the range holds 0). Both wings judge their recommendation with it: the error is the
//! model's (measured against RocksDB, the referee), not a property of the RocksDB search.

use serde::{Deserialize, Serialize};

/// Relative error of a predicted read cost (blocks read per lookup or scan): the 90th percentile
/// of |predicted / measured − 1| of `lsm predict` against RocksDB 7.8 over the twin's 25 lookup
/// figures at 1,000,000 records (public/measured/rocksdb-twin.json: 4.4%), rounded up.
pub const READ_MODEL_ERROR: f64 = 0.05;
/// Relative error of a predicted write cost: the same percentile of bytes written per user byte
/// (23.1% over 25 figures), rounded up.
pub const WRITE_MODEL_ERROR: f64 = 0.25;

/// A gain and how far the model's error lets it move.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Verdict {
    /// Predicted gain (1 − recommended / current) of the steady-state cost the search ranks by.
    pub gain: f64,
    /// The least gain the model's error allows: both designs' costs moved apart by their errors.
    pub low: f64,
    /// The largest.
    pub high: f64,
    /// Relative error of the current design's cost (its classes' errors weighted by their cost).
    pub current_error: f64,
    /// The same for the recommended design.
    pub recommended_error: f64,
    /// True when `low` ≤ 0: the gain is inside the model's error, so keep the current design.
    pub keep: bool,
    /// The verdict in words.
    pub words: String,
}

/// Relative error of a cost whose classes cost `costs` at shares `mix`: reads at
/// `READ_MODEL_ERROR`, writes at `WRITE_MODEL_ERROR`, weighted by what each adds.
pub fn cost_error(costs: &[f64; 4], mix: &[f64; 4]) -> f64 {
    let reads: f64 = (0..3).map(|i| mix[i] * costs[i]).sum();
    let writes = mix[3] * costs[3];
    let total = reads + writes;
    if total > 0.0 { (READ_MODEL_ERROR * reads + WRITE_MODEL_ERROR * writes) / total } else { READ_MODEL_ERROR }
}

/// The verdict on moving from a design costing `current` (per class `current_costs`) to one
/// costing `recommended`, at class shares `mix`, the costs in `unit` ("I/O per operation", or
/// "time per operation on …": a class's µs carry its class's error, CPU included).
pub fn verdict(
    current: f64,
    recommended: f64,
    current_costs: &[f64; 4],
    recommended_costs: &[f64; 4],
    mix: &[f64; 4],
    unit: &str,
) -> Verdict {
    let ec = cost_error(current_costs, mix);
    let er = cost_error(recommended_costs, mix);
    if current <= 0.0 {
        return Verdict {
            current_error: ec,
            recommended_error: er,
            keep: true,
            words: "keep your design: it is predicted to cost nothing".into(),
            ..Verdict::default()
        };
    }
    let gain = 1.0 - recommended / current;
    let low = 1.0 - recommended * (1.0 + er) / (current * (1.0 - ec));
    let high = 1.0 - recommended * (1.0 - er) / (current * (1.0 + ec));
    let keep = low <= 0.0;
    let pct = |x: f64| format!("{:.1}%", 100.0 * x);
    let words = if gain <= 0.0 {
        format!("keep your design: no design in the same memory is predicted to cost less ({unit})")
    } else if keep {
        format!(
            "keep your design: the predicted gain in {unit}, {}, is inside the model's error ({} to {})",
            pct(gain),
            pct(low),
            pct(high)
        )
    } else {
        format!("change: {} less {unit} predicted ({} to {} within the model's error)", pct(gain), pct(low), pct(high))
    };
    Verdict { gain, low, high, current_error: ec, recommended_error: er, keep, words }
}

#[cfg(test)]
mod tests {
    use super::*;

    const IO: &str = "I/O per operation";

    #[test]
    fn a_gain_inside_the_model_error_says_keep() {
        let mix = [0.0, 1.0, 0.0, 0.0];
        let costs = [0.0, 1.0, 0.0, 0.0];
        // Reads only: each cost ±5%, so a gain must beat 1 − 1.05/0.95 ≈ −… i.e. be above ~9.5%.
        let small = verdict(1.0, 0.93, &costs, &costs, &mix, IO);
        assert!(small.keep, "{small:?}");
        assert!((small.gain - 0.07).abs() < 1e-12);
        assert!((small.low - (1.0 - 0.93 * 1.05 / 0.95)).abs() < 1e-12, "{}", small.low);
        assert!(small.words.starts_with("keep your design"), "{}", small.words);
        let big = verdict(1.0, 0.5, &costs, &costs, &mix, IO);
        assert!(!big.keep && big.low > 0.4 && big.high < 0.55, "{big:?}");
        assert!(big.words.starts_with("change"), "{}", big.words);
        // The break-even gain: 1 − 0.95/1.05.
        let edge = 1.0 - 0.95 / 1.05;
        assert!(verdict(1.0, 1.0 - edge + 1e-9, &costs, &costs, &mix, IO).keep);
        assert!(!verdict(1.0, 1.0 - edge - 1e-6, &costs, &costs, &mix, IO).keep);
    }

    #[test]
    fn writes_carry_the_larger_error() {
        // Half the cost in writes: (0.05 · 0.5 + 0.25 · 0.5) / 1.
        let e = cost_error(&[0.0, 1.0, 0.0, 1.0], &[0.0, 0.5, 0.0, 0.5]);
        assert!((e - 0.15).abs() < 1e-12, "{e}");
    }
}

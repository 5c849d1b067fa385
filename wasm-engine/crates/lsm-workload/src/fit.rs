//! Fitting a Workload to a trace: from the operations of a KVBench or a RocksDB trace, estimate what the
//! Workload document describes — the preload, the operation mix (zero-result lookups apart), the
//! key popularity, entry sizes and data size — so a user's own trace can be replayed, tuned for
//! and exported like any workload.
//!
//! - The preload is the trace's leading run of inserts; everything after it is the run.
//! - A lookup is zero-result when its key does not exist at that point of the trace (the trace is
//!   replayed against a set of live keys).
//! - Popularity: accesses to existing keys (updates, deletes, lookups that find their key) ranked
//!   by count. Uniform unless the counts are over-dispersed for uniform (a chi-square test on the
//!   counts, p < 0.001); then Zipf with θ by maximum likelihood over the ranks,
//!   ℓ(θ) = −θ Σ c_r ln r − M ln H_N(θ), with the Kolmogorov–Smirnov distance between the observed
//!   and the fitted rank CDFs as goodness of fit, and a rank–frequency series to plot.
//!   Ranking by observed counts biases θ upward when keys get few accesses (≈ +0.01 at θ = 0.5
//!   with 20 accesses per key); the fit says so below 10 accesses per key.

use rustc_hash::FxHashMap;

use serde::Serialize;

use crate::generator::{Intent, Op, OpSource};
use crate::kvbench::TraceReader;
use crate::rocksdb_trace::RocksdbTrace;
use lsm_core::error::{Error, Result};
use lsm_core::workload::{
    Distribution, KEY_BYTES_RANGE, MAX_OPERATIONS, Mix, Preload, THETA_RANGE, VALUE_BYTES_RANGE, WORKLOAD_KIND,
    WORKLOAD_VERSION, Workload,
};

/// The `kind` of a `TraceFit` document.
pub const FIT_KIND: &str = "lsm-navigator/trace-fit";
/// The `version` of a `TraceFit` document.
pub const FIT_VERSION: u32 = 1;
/// Uniform is kept unless the counts' dispersion has a p-value below this.
pub const UNIFORM_P: f64 = 0.001;
/// Points of the rank–frequency series (log-spaced ranks).
const SERIES_POINTS: usize = 64;

/// How accesses to existing keys spread over the keys, and how well Zipf explains them.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Popularity {
    /// "uniform" or "zipf".
    pub distribution: &'static str,
    /// θ by maximum likelihood (reported even when the choice is uniform).
    pub theta: f64,
    /// Accesses to existing keys that the fit used, and the keys they could go to.
    pub accesses: u64,
    /// Distinct keys the trace writes, accessed or not: the population that is ranked.
    pub keys: u64,
    /// p-value of the counts under uniform popularity (chi-square on the dispersion).
    pub uniform_p: f64,
    /// Log-likelihood of the ranked counts under Zipf(θ) and under uniform (θ = 0).
    pub log_likelihood_zipf: f64,
    /// Log-likelihood of the same counts under uniform; compare with `log_likelihood_zipf`.
    pub log_likelihood_uniform: f64,
    /// Largest gap between the observed and the fitted rank CDFs.
    pub ks_distance: f64,
    /// (rank, observed accesses, fitted accesses), log-spaced ranks from 1 to the key count.
    pub rank_frequency: Vec<(u64, u64, f64)>,
}

/// What `fit_trace` learnt from a trace, as JSON for the UI, with the fitted `workload`.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TraceFit {
    /// Document type; always `FIT_KIND` ("lsm-navigator/trace-fit").
    #[cfg_attr(feature = "ts", ts(type = "\"lsm-navigator/trace-fit\""))]
    pub kind: &'static str,
    /// Always `FIT_VERSION` (1).
    #[cfg_attr(feature = "ts", ts(type = "1"))]
    pub version: u32,
    /// The trace's name (its file), as given to `fit_trace`.
    pub trace: String,
    /// Operations of the trace's leading run of inserts, which became the preload.
    pub preload_operations: u64,
    /// Operations after the preload, which became the run.
    pub run_operations: u64,
    /// Run operations by class, as counted.
    pub counts: Mix,
    /// Zero-result share of point lookups.
    pub zero_result_share: f64,
    /// How skewed accesses to existing keys are, and the distribution chosen.
    pub popularity: Popularity,
    /// Mean length of the keys written, bytes, as encoded (integer ids take the reader's key
    /// length); rounded into [8, 1024] for the workload.
    pub mean_key_bytes: f64,
    /// Mean length of the values written, bytes; rounded into [0, 60000] for the workload.
    pub mean_value_bytes: f64,
    /// Entries × (key + value) after the preload.
    pub data_bytes: u64,
    /// What the fit could not pin down well.
    pub notes: Vec<String>,
    /// The fitted document, ready to run.
    pub workload: Workload,
}

struct KeyState {
    live: bool,
    accesses: u64,
}

/// Fit a Workload to a KVBench trace (`name` is used in errors and in the workload's name).
pub fn fit_trace(name: &str, text: String, key_bytes: usize) -> Result<TraceFit> {
    fit_source(name, &mut TraceReader::named(name, text, key_bytes), Some(key_bytes))
}

/// Fit a Workload to a RocksDB query trace file (`rocksdb_trace`); what the trace held that is
/// not replayed (merges, other column families, …) is in the fit's notes.
pub fn fit_rocksdb_trace(name: &str, data: Vec<u8>) -> Result<TraceFit> {
    fit_source(name, &mut RocksdbTrace::open(name, data)?, None)
}

/// Fit a Workload to any trace's operations. `key_bytes` is the key length a trace without
/// writes is taken to have (a KVBench reader's integer-key length); `None` for traces of raw
/// keys, whose lookups' mean key length is used then.
pub fn fit_source(name: &str, reader: &mut dyn OpSource, key_bytes: Option<usize>) -> Result<TraceFit> {
    let (mut lookup_len_sum, mut lookup_len_n) = (0u64, 0u64);
    let mut keys: FxHashMap<Vec<u8>, KeyState> = FxHashMap::default();
    let mut in_preload = true;
    let (mut preload, mut run) = (0u64, 0u64);
    let mut counts = [0u64; 6]; // insert, update, delete, get_existing, get_missing, range
    let (mut key_len_sum, mut key_len_n) = (0u64, 0u64);
    let (mut value_sum, mut value_n) = (0u64, 0u64);
    let (mut span_sum, mut spans, mut max_id) = (0f64, 0u64, 0u64);
    while let Some((_, op)) = reader.next_op()? {
        let is_insert = matches!(op, Op::Put { intent: Intent::Insert, .. });
        if in_preload && !is_insert {
            in_preload = false;
        }
        if in_preload {
            preload += 1;
        } else {
            run += 1;
        }
        match op {
            Op::Put { intent, id, key, value } => {
                max_id = max_id.max(id);
                key_len_sum += key.len() as u64;
                key_len_n += 1;
                value_sum += value.len() as u64;
                value_n += 1;
                let entry = keys.entry(key.to_vec()).or_insert(KeyState { live: false, accesses: 0 });
                if !in_preload {
                    if intent == Intent::Insert {
                        counts[0] += 1;
                    } else {
                        counts[1] += 1;
                        if entry.live {
                            entry.accesses += 1;
                        }
                    }
                }
                entry.live = true;
            }
            Op::Delete { key, .. } => {
                counts[2] += 1;
                if let Some(k) = keys.get_mut(key)
                    && k.live
                {
                    k.accesses += 1;
                    k.live = false;
                }
            }
            Op::Get { key, .. } => {
                lookup_len_sum += key.len() as u64;
                lookup_len_n += 1;
                match keys.get_mut(key) {
                    Some(k) if k.live => {
                        counts[3] += 1;
                        k.accesses += 1;
                    }
                    _ => counts[4] += 1,
                }
            }
            Op::Range { lo, hi, .. } => {
                counts[5] += 1;
                span_sum += hi.saturating_sub(lo) as f64 + 1.0;
                spans += 1;
                max_id = max_id.max(hi);
            }
        }
    }
    if preload + run == 0 {
        return Err(Error::Parse { document: name.into(), message: "the trace has no operations".into() });
    }
    if run > MAX_OPERATIONS || preload > MAX_OPERATIONS {
        return Err(Error::invalid("trace", format!("holds more than {MAX_OPERATIONS} operations in a phase")));
    }

    let mut notes = reader.notes();
    let key_bytes = key_bytes.unwrap_or_else(|| lookup_len_sum.checked_div(lookup_len_n).map_or(16, |m| m as usize));
    let mut ranked: Vec<u64> = keys.values().map(|k| k.accesses).collect();
    ranked.sort_unstable_by(|a, b| b.cmp(a));
    let popularity = popularity(&ranked);
    let per_key = popularity.accesses as f64 / popularity.keys.max(1) as f64;
    if popularity.distribution == "zipf" && per_key < 10.0 {
        notes.push(format!(
            "{per_key:.1} accesses per key: ranking keys by few accesses makes θ read high (by about 0.01–0.05)"
        ));
    }

    let total_run = run.max(1) as f64;
    let share = |c: u64| if run == 0 { 0.0 } else { c as f64 / total_run };
    let mix = Mix {
        read_modify_write: 0.0,
        insert: share(counts[0]),
        update: share(counts[1]),
        delete: share(counts[2]),
        get_existing: share(counts[3]),
        get_missing: share(counts[4]),
        range: share(counts[5]),
    };
    let lookups = counts[3] + counts[4];
    let zero_result_share = if lookups == 0 { 0.0 } else { counts[4] as f64 / lookups as f64 };
    let mean_key_bytes = if key_len_n == 0 { key_bytes as f64 } else { key_len_sum as f64 / key_len_n as f64 };
    let mean_value_bytes = if value_n == 0 { 0.0 } else { value_sum as f64 / value_n as f64 };
    let key_bytes_fit = (mean_key_bytes.round() as u32).clamp(KEY_BYTES_RANGE.0, KEY_BYTES_RANGE.1);
    let value_bytes_fit = (mean_value_bytes.round() as u32).clamp(VALUE_BYTES_RANGE.0, VALUE_BYTES_RANGE.1);
    if (mean_value_bytes - f64::from(value_bytes_fit)).abs() > 0.5 {
        notes.push(format!(
            "values average {mean_value_bytes:.1} bytes; the engine's values are {value_bytes_fit} bytes"
        ));
    }
    // A range covers (hi − lo + 1) ids of a key space of about max_id + 1 ids; as a fraction of the preload's keys.
    let range_selectivity = if spans == 0 {
        0.0
    } else if max_id == 0 {
        notes.push("keys are not integer ids: range selectivity set to 0.001".into());
        0.001
    } else {
        let key_space = max_id as f64 + 1.0; // max_id may be u64::MAX (a fuzzer's)
        (span_sum / spans as f64 / key_space).clamp(1e-9, 1.0)
    };
    let distribution = match popularity.distribution {
        "zipf" => Distribution::Zipf { theta: popularity.theta.clamp(THETA_RANGE.0, THETA_RANGE.1) },
        _ => Distribution::Uniform,
    };
    let workload = Workload {
        kind: WORKLOAD_KIND.into(),
        version: WORKLOAD_VERSION,
        name: format!("fitted to {name}"),
        seed: 1,
        preload: Preload { entries: preload, key_space: 0, key_bytes: key_bytes_fit, value_bytes: value_bytes_fit },
        operations: run,
        mix,
        distribution,
        range_selectivity,
        ycsb: None,
        db_bench: None,
    };
    workload.validate()?;
    Ok(TraceFit {
        kind: FIT_KIND,
        version: FIT_VERSION,
        trace: name.to_string(),
        preload_operations: preload,
        run_operations: run,
        counts: Mix {
            read_modify_write: 0.0,
            insert: counts[0] as f64,
            update: counts[1] as f64,
            delete: counts[2] as f64,
            get_existing: counts[3] as f64,
            get_missing: counts[4] as f64,
            range: counts[5] as f64,
        },
        zero_result_share,
        popularity,
        mean_key_bytes,
        mean_value_bytes,
        data_bytes: preload * u64::from(key_bytes_fit + value_bytes_fit),
        notes,
        workload,
    })
}

/// Σ r^−θ and Σ r^−θ ln r over ranks 1..=n.
fn harmonic(n: usize, theta: f64) -> (f64, f64) {
    let (mut h, mut d) = (0.0, 0.0);
    for r in 1..=n {
        let lr = (r as f64).ln();
        let w = (-theta * lr).exp();
        h += w;
        d += w * lr;
    }
    (h, d)
}

/// The popularity fit of access counts sorted in decreasing order (one per key, zeros included).
pub fn popularity(ranked: &[u64]) -> Popularity {
    let n = ranked.len();
    let m: u64 = ranked.iter().sum();
    let empty = Popularity {
        distribution: "uniform",
        theta: 0.0,
        accesses: m,
        keys: n as u64,
        uniform_p: 1.0,
        log_likelihood_zipf: 0.0,
        log_likelihood_uniform: 0.0,
        ks_distance: 0.0,
        rank_frequency: Vec::new(),
    };
    if n < 2 || m == 0 {
        return empty;
    }
    let mf = m as f64;
    let s: f64 = ranked.iter().enumerate().map(|(i, &c)| c as f64 * ((i + 1) as f64).ln()).sum();
    let loglik = |theta: f64| -theta * s - mf * harmonic(n, theta).0.ln();
    // ℓ is concave in θ: its derivative −S + M·H'(θ)/H(θ) is decreasing; bisect it on [0, 5].
    let slope = |theta: f64| {
        let (h, d) = harmonic(n, theta);
        -s + mf * d / h
    };
    let (mut lo, mut hi) = THETA_RANGE;
    if slope(lo) <= 0.0 {
        hi = lo;
    } else if slope(hi) >= 0.0 {
        lo = hi;
    } else {
        for _ in 0..60 {
            let mid = (lo + hi) / 2.0;
            if slope(mid) > 0.0 { lo = mid } else { hi = mid }
        }
    }
    let theta = (lo + hi) / 2.0;

    // Dispersion of the counts against uniform: X² = Σ (c − μ)² / μ with n − 1 degrees of freedom,
    // its p-value by the Wilson–Hilferty cube-root normal approximation.
    let mu = mf / n as f64;
    let x2: f64 = ranked.iter().map(|&c| (c as f64 - mu).powi(2) / mu).sum();
    let df = (n - 1) as f64;
    let z = ((x2 / df).cbrt() - (1.0 - 2.0 / (9.0 * df))) / (2.0 / (9.0 * df)).sqrt();
    let uniform_p = 0.5 * erfc(z / std::f64::consts::SQRT_2);

    let h = harmonic(n, theta).0;
    let (mut seen, mut fitted, mut ks) = (0.0, 0.0, 0.0f64);
    for (i, &c) in ranked.iter().enumerate() {
        seen += c as f64 / mf;
        fitted += ((i + 1) as f64).powf(-theta) / h;
        ks = ks.max((seen - fitted).abs());
    }
    let mut rank_frequency = Vec::new();
    let mut last = 0;
    for k in 0..SERIES_POINTS {
        let r = ((n as f64).powf(k as f64 / (SERIES_POINTS - 1) as f64).round() as usize).clamp(1, n);
        if r != last {
            rank_frequency.push((r as u64, ranked[r - 1], mf * (r as f64).powf(-theta) / h));
            last = r;
        }
    }
    Popularity {
        distribution: if uniform_p < UNIFORM_P && theta > 0.0 { "zipf" } else { "uniform" },
        theta,
        accesses: m,
        keys: n as u64,
        uniform_p,
        log_likelihood_zipf: loglik(theta),
        log_likelihood_uniform: loglik(0.0),
        ks_distance: ks,
        rank_frequency,
    }
}

/// The complementary error function (Numerical Recipes' erfcc, relative error < 1.2e-7).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::Generator;
    use crate::kvbench::write_trace;

    fn workload(mix: Mix, distribution: Distribution, entries: u64, operations: u64, seed: u64) -> Workload {
        Workload {
            kind: WORKLOAD_KIND.into(),
            version: 1,
            name: "known".into(),
            seed,
            preload: Preload { entries, key_space: 0, key_bytes: 16, value_bytes: 40 },
            operations,
            mix,
            distribution,
            range_selectivity: 0.001,
            ycsb: None,
            db_bench: None,
        }
    }

    fn fit(w: &Workload) -> TraceFit {
        let trace = write_trace(&mut Generator::new(w)).unwrap();
        fit_trace("known.trace", trace, 16).unwrap()
    }

    const READ_MOSTLY: Mix = Mix {
        insert: 0.0,
        update: 0.2,
        delete: 0.0,
        get_existing: 0.6,
        get_missing: 0.2,
        range: 0.0,
        read_modify_write: 0.0,
    };

    #[test]
    fn zipf_theta_is_recovered_within_003() {
        for (i, theta) in [0.5, 0.8, 0.99, 1.2].into_iter().enumerate() {
            let w = workload(READ_MOSTLY, Distribution::Zipf { theta }, 10_000, 250_000, 10 + i as u64);
            let f = fit(&w);
            assert_eq!(f.popularity.distribution, "zipf", "θ = {theta}: {:?}", f.popularity.uniform_p);
            assert!((f.popularity.theta - theta).abs() <= 0.03, "θ = {theta}: fitted {}", f.popularity.theta);
            assert!(f.popularity.ks_distance < 0.05, "θ = {theta}: KS {}", f.popularity.ks_distance);
            assert!(f.popularity.log_likelihood_zipf > f.popularity.log_likelihood_uniform);
            assert_eq!(f.workload.distribution, Distribution::Zipf { theta: f.popularity.theta });
        }
    }

    #[test]
    fn a_uniform_trace_fits_uniform() {
        for seed in 1..=3 {
            let f = fit(&workload(READ_MOSTLY, Distribution::Uniform, 10_000, 250_000, seed));
            assert_eq!(f.popularity.distribution, "uniform", "p = {}", f.popularity.uniform_p);
            assert_eq!(f.workload.distribution, Distribution::Uniform);
        }
    }

    #[test]
    fn fractions_sizes_and_the_preload_are_recovered() {
        let mixes = [
            READ_MOSTLY,
            Mix {
                insert: 0.1,
                update: 0.3,
                delete: 0.05,
                get_existing: 0.25,
                get_missing: 0.2,
                range: 0.1,
                read_modify_write: 0.0,
            },
            Mix {
                insert: 0.5,
                update: 0.0,
                delete: 0.0,
                get_existing: 0.0,
                get_missing: 0.5,
                range: 0.0,
                read_modify_write: 0.0,
            },
        ];
        for (i, mix) in mixes.into_iter().enumerate() {
            let f = fit(&workload(mix.clone(), Distribution::Zipf { theta: 0.9 }, 5_000, 60_000, 40 + i as u64));
            // A trace does not mark where the preload ends: the run's first inserts join it.
            assert_eq!(f.preload_operations + f.run_operations, 65_000);
            assert!((5_000..5_050).contains(&f.preload_operations), "{}", f.preload_operations);
            assert_eq!(f.workload.preload.entries, f.preload_operations);
            let got = f.workload.mix.parts();
            for (k, (name, want)) in mix.parts().into_iter().enumerate() {
                // Deletes make some later lookups of existing keys miss: the fit counts what happened.
                let tolerance = if name.starts_with("get_") && mix.delete > 0.0 { 0.02 } else { 0.01 };
                assert!((got[k].1 - want).abs() <= tolerance, "mix {i} {name}: fitted {} for {want}", got[k].1);
            }
            assert_eq!(f.workload.preload.key_bytes, 16);
            assert_eq!(f.workload.preload.value_bytes, 40);
            assert_eq!(f.data_bytes, f.preload_operations * 56);
        }
    }

    #[test]
    fn the_rank_frequency_series_and_bad_traces() {
        let f = fit(&workload(READ_MOSTLY, Distribution::Zipf { theta: 0.99 }, 2_000, 40_000, 5));
        let series = &f.popularity.rank_frequency;
        assert_eq!(series.first().map(|p| p.0), Some(1));
        assert_eq!(series.last().map(|p| p.0), Some(f.popularity.keys));
        assert!(series.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 >= w[1].1 && w[0].2 >= w[1].2));
        let e = fit_trace("t.trace", "I 1 a\nQ 1\nZ 3\n".into(), 16).unwrap_err().to_string();
        assert_eq!(e, "t.trace: line 3: unknown operation 'Z' (expected I, U, D, Q or S)");
        assert!(fit_trace("e.trace", "# nothing\n".into(), 16).unwrap_err().to_string().contains("no operations"));
        // A scan to the last id (a fuzzer's find: the key space max_id + 1 overflowed).
        let wide = fit_trace("w.trace", "I 1 a\nS 0 18446744073709551615\n".into(), 16).unwrap();
        assert!(wide.workload.range_selectivity > 0.0 && wide.workload.range_selectivity <= 1.0);
    }

    #[test]
    fn erfc_matches_known_values() {
        for (x, want) in [(0.0, 1.0), (1.0, 0.157_299_207), (2.0, 0.004_677_735), (-1.0, 1.842_700_793)] {
            assert!((erfc(x) - want).abs() < 2e-7, "erfc({x})");
        }
    }
}

//! Every design the Tune page's table shows carries its cost and gain in the headline's measure
//! (`Headline::designs`): the worst case within ρ when ρ > 0, else µs per operation when ranked
//! by time, else the steady-state I/O where the search priced one (RocksDB), else the run's. The
//! page reads them; these tests derive them again from the priced fields.

// Test code: a failed expectation is the test failing, with its message.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use lsm_core::calibration::Calibration;
use lsm_core::config::EngineConfig;
use lsm_core::workload::Workload;
use lsm_tune::{InHeadline, Priced, Rank, Target, TuneOptions, TuneResult, tune_with};

mod common;
use common::{device, rocksdb_small, ycsb};

fn tuned(current: &EngineConfig, w: &Workload, rho: f64, target: Target, on: Option<Calibration>) -> TuneResult {
    let mut o = TuneOptions::new(rho, target);
    if let Some(c) = on {
        o.rank = Rank::Time;
        o.calibration = Some(c);
    }
    tune_with(current, w, &o).expect("tunes")
}

/// The headline's measure, derived from the priced fields without `Priced`'s helpers.
fn headline_measure(p: &Priced, rho: f64) -> f64 {
    if rho > 0.0 {
        p.worst
    } else if let Some(t) = &p.time {
        t.mean_us
    } else {
        p.steady.as_ref().map_or(p.prediction.expected, |s| s.expected)
    }
}

/// Each row's cost is the headline's measure, its gain 1 − cost / current, and the recommended
/// row's gain the headline's own, to the last bit (the page shows them side by side).
fn check(name: &str, t: &TuneResult) -> [InHeadline; 3] {
    let d = &t.headline.designs;
    let rows = [(d.current, &t.current), (d.nominal, &t.nominal), (d.robust, &t.robust)];
    let base = headline_measure(&t.current, t.rho);
    assert!(base > 0.0, "{name}: the current design costs {base}");
    for (row, p) in rows {
        assert_eq!(row.cost, headline_measure(p, t.rho), "{name}: {}", p.summary);
        let gain = 1.0 - headline_measure(p, t.rho) / base;
        assert!((row.gain - gain).abs() < 1e-12, "{name}, {}: {} vs {gain}", p.summary, row.gain);
    }
    assert_eq!(d.current.gain, 0.0, "{name}");
    let chosen = if t.recommended == "robust" { d.robust } else { d.nominal };
    assert_eq!(chosen.gain, t.headline.gain, "{name}: the recommended row is the headline");
    [d.current, d.nominal, d.robust]
}

#[test]
fn the_engine_rows_gain_in_the_run_as_played_or_its_worst_case() {
    let current = rocksdb_small();
    let w = ycsb('a', 20_000, 10_000);
    let nominal = tuned(&current, &w, 0.0, Target::Engine, None);
    let [_, n, r] = check("engine, ρ = 0", &nominal);
    assert!(n.gain > 0.0 && n == r, "ρ = 0: robust is nominal ({n:?}, {r:?})");
    // In the run as played: the run's expected I/O.
    assert_eq!(n.cost, nominal.nominal.prediction.expected);
    let robust = tuned(&current, &w, 0.5, Target::Engine, None);
    let [_, n, r] = check("engine, ρ = 0.5", &robust);
    // The worst case within ρ: the robust design's is the least, so its gain is the larger.
    assert_eq!(r.cost, robust.robust.worst);
    assert!(r.gain >= n.gain - 1e-12, "{n:?} {r:?}");
}

#[test]
fn the_rocksdb_rows_gain_in_the_steady_state_or_in_time() {
    let current = rocksdb_small();
    let w = ycsb('b', 20_000, 10_000);
    let steady = tuned(&current, &w, 0.0, Target::Rocksdb, None);
    let [_, n, _] = check("rocksdb, ρ = 0", &steady);
    let s = steady.nominal.steady.as_ref().expect("a RocksDB design has a steady state");
    assert_eq!(n.cost, s.expected);
    // The steady-state gain is not the run's (which `predicted_gain` states): the measure matters.
    assert!((n.gain - steady.predicted_gain).abs() > 1e-6, "{n:?} vs {}", steady.predicted_gain);
    let timed =
        tuned(&current, &w, 0.0, Target::Rocksdb, Some(device("dear writes", 100.0, 1_000.0, [1.0, 2.0, 5.0, 3.0])));
    let [_, n, _] = check("rocksdb by time, ρ = 0", &timed);
    assert_eq!(n.cost, timed.nominal.time.as_ref().expect("ranked by time").mean_us);
    let worst =
        tuned(&current, &w, 0.5, Target::Rocksdb, Some(device("dear writes", 100.0, 1_000.0, [1.0, 2.0, 5.0, 3.0])));
    let [_, _, r] = check("rocksdb by time, ρ = 0.5", &worst);
    assert_eq!(r.cost, worst.robust.worst);
}

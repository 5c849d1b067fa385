//! Ranking by time as well as pages (`TuneOptions::rank`): on a calibrated device each design's
//! cost is its CPU plus its pages at the device's read or write price, and a device where one
//! side is dear can choose a design the I/O ranking would not.

// Test code: a failed expectation is the test failing, with its message.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use lsm_core::calibration::{Calibration, time_cost};
use lsm_core::config::EngineConfig;
use lsm_core::workload::Workload;
use lsm_tune::{Priced, Rank, Target, TuneOptions, TuneResult, tune_with};

mod common;
use common::{device, rocksdb_small, ycsb};

fn tuned(current: &EngineConfig, w: &Workload, target: Target, on: Option<&Calibration>) -> TuneResult {
    let mut o = TuneOptions::new(0.0, target);
    // The lab's process: with a restart the open compaction's duration is timed on the device
    // too (`predict::process`), which would move the I/O-ranked and time-ranked runs apart for a
    // reason these tests are not about.
    o.process = lsm_tune::predict::Process::CONTINUE;
    if let Some(c) = on {
        o.rank = Rank::Time;
        o.calibration = Some(c.clone());
    }
    tune_with(current, w, &o).expect("tunes")
}

/// A design's mean µs per operation on `d` from the I/O the search priced it at.
fn time_on(p: &Priced, mix: &[f64; 4], d: &Calibration) -> f64 {
    time_cost(&p.io_costs(), mix, d).mean_us
}

#[test]
fn dear_writes_choose_a_design_that_writes_less_and_runs_faster_there() {
    // YCSB B (95% reads) on a device where a page written costs 10 page reads (100 µs and
    // 1,000 µs): by I/O the search takes the level-0 trigger to 4 files and the level base to
    // 8 MiB (write amplification 3.79); by time, 6 files and 32 MiB (3.24), fewer bytes written
    // for the same blocks read.
    let w = ycsb('b', 20_000, 10_000);
    let d = device("dear writes", 100.0, 1_000.0, [1.0, 2.0, 10.0, 3.0]);
    let io = tuned(&rocksdb_small(), &w, Target::Rocksdb, None);
    let time = tuned(&rocksdb_small(), &w, Target::Rocksdb, Some(&d));
    assert_eq!(io.rank, Rank::Io);
    assert_eq!(time.rank, Rank::Time);
    assert_eq!(time.calibration.as_ref(), Some(&d));
    assert!(io.nominal.time.is_none() && io.calibration.is_none());
    let (a, b) = (&io.nominal, &time.nominal);
    assert_ne!(a.config, b.config, "the same design: {}", a.summary);
    let wa = |p: &Priced| p.steady.as_ref().expect("steady").write_amp;
    assert!(wa(b) < wa(a) - 0.3, "write amplification by time {} vs by I/O {}", wa(b), wa(a));
    // On the device, the time-ranked choice is the faster one, by more than rounding.
    let (ta, tb) = (time_on(a, &io.mix, &d), time_on(b, &time.mix, &d));
    assert!(tb < ta * 0.99, "by time {tb} µs, by I/O {ta} µs");
    // Every figure is the I/O priced at the device's prices: CPU + pages × µs per page.
    let t = b.time.as_ref().expect("priced in time");
    let io_costs = b.io_costs();
    for (c, us) in t.us_per_op.iter().enumerate() {
        let page = if c == 3 { d.page_write_us } else { d.page_read_us };
        assert!((us - (d.cpu_us[c] + io_costs[c] * page)).abs() < 1e-9, "class {c}: {us}");
    }
    assert_eq!(b.ranked(), t.mean_us);
    assert!((t.ops_per_sec - 1e6 / t.mean_us).abs() < 1e-6);
    // The gain, the verdict and the options' shares are stated in time.
    let now = time.current.time.as_ref().expect("current priced in time").mean_us;
    let gain = advice(&time).steady_gain;
    assert!((gain - (1.0 - t.mean_us / now)).abs() < 1e-12, "{gain} vs {now} → {}", t.mean_us);
    let v = advice(&time).verdict.clone();
    assert!(v.words.contains("less time per operation on dear writes"), "{}", v.words);
    assert!((v.gain - gain).abs() < 1e-12);
    let shares: f64 = advice(&time).changes.iter().map(|c| c.share).sum();
    assert!((shares - 1.0).abs() < 1e-6, "shares add up to {shares}");
    assert!(
        advice(&time).changes.iter().any(|c| c.reason.contains("predicted µs per operation")),
        "{:?}",
        advice(&time).changes
    );
    // ρ = 0: every sampled workload is the expected one, priced in µs.
    assert!(time.neighbourhood.current.iter().all(|x| (x - now).abs() < 1e-9 * now));
}

#[test]
fn equal_page_prices_without_cpu_rank_as_io_does() {
    // Time = 100 µs × pages for every class: the order of the designs is the order of their I/O.
    let w = ycsb('b', 20_000, 10_000);
    let d = device("flat", 100.0, 100.0, [0.0; 4]);
    let io = tuned(&rocksdb_small(), &w, Target::Rocksdb, None);
    let time = tuned(&rocksdb_small(), &w, Target::Rocksdb, Some(&d));
    assert_eq!(io.nominal.config, time.nominal.config, "{} vs {}", io.nominal.summary, time.nominal.summary);
    let t = time.nominal.time.as_ref().expect("time").mean_us;
    assert!((t / (100.0 * io.nominal.io()) - 1.0).abs() < 1e-12, "{t} vs {}", io.nominal.io());
}

#[test]
fn the_engine_target_ranks_by_time_too() {
    // The tiering preset, YCSB E (95% short scans, 5% inserts): by I/O, leveling at T = 32 with
    // 1 bit/key; on a device where a page written costs 100 page reads (10 µs and 1,000 µs), the
    // search takes a design that writes less: 2.5× faster there, for 5% more I/O.
    let tiering: EngineConfig = EngineConfig::from_json(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../public/presets/tiering.json"))
            .expect("preset"),
    )
    .expect("config");
    let w = ycsb('e', 20_000, 20_000);
    let d = device("dear writes", 10.0, 1_000.0, [1.0, 2.0, 10.0, 3.0]);
    let io = tuned(&tiering, &w, Target::Engine, None);
    let time = tuned(&tiering, &w, Target::Engine, Some(&d));
    let (a, b) = (&io.nominal, &time.nominal);
    assert_ne!(a.config, b.config, "the same design: {}", a.summary);
    let (ta, tb) = (time_on(a, &io.mix, &d), time_on(b, &time.mix, &d));
    assert!(tb < ta * 0.5, "by time {tb} µs, by I/O {ta} µs");
    // And by I/O the I/O-ranked one is the cheaper: the two rankings disagree.
    assert!(a.io() < b.io(), "I/O by I/O {} vs by time {}", a.io(), b.io());
    assert_eq!(b.ranked(), b.time.as_ref().expect("time").mean_us);
    assert!(io.predicted_gain >= 0.0 && time.predicted_gain.is_finite());
}

#[test]
fn ranking_by_time_needs_a_calibration_and_a_valid_one() {
    let w = ycsb('b', 2_000, 1_000);
    let mut o = TuneOptions::new(0.0, Target::Rocksdb);
    o.rank = Rank::Time;
    let e = tune_with(&rocksdb_small(), &w, &o).unwrap_err().to_string();
    assert!(e.contains("calibration") && e.contains("ranking by time"), "{e}");
    let mut bad = device("bad", 100.0, 1_000.0, [1.0; 4]);
    bad.page_write_us = f64::INFINITY;
    o.calibration = Some(bad);
    let e = tune_with(&rocksdb_small(), &w, &o).unwrap_err().to_string();
    assert!(e.contains("page_write_us") && e.contains("[0, 1000000]"), "{e}");
}

/// What only the RocksDB search gives; every result here comes from it.
fn advice(t: &TuneResult) -> &lsm_tune::RocksdbAdvice {
    t.rocksdb.as_ref().expect("a RocksDB search gives its advice")
}

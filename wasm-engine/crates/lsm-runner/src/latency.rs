//! How long each operation took: an HdrHistogram (3 significant digits, nanoseconds) per operation
//! class and phase, the engine's throughput over time, and the clock's resolution. Wall-clock
//! figures, kept apart from the I/O counters: they differ run to run and machine to machine.

use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};

use crate::clock;
use lsm_workload::generator::Phase;

/// Operation classes as the workload names them (the fields of `report::Intents`).
pub const CLASSES: [&str; 7] = ["insert", "update", "delete", "get_existing", "get_missing", "get", "range"];
/// Throughput samples kept per phase; past it, neighbours are merged (resolution halves).
const MAX_SAMPLES: usize = 400;
/// Operations per throughput sample at first.
const FIRST_SAMPLE_OPS: u64 = 1_000;

/// One class in one phase.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ClassLatency {
    /// The operation class, one of `CLASSES`.
    pub class: String,
    /// Operations of this class timed in this phase.
    pub count: u64,
    /// Mean latency in nanoseconds (over the histogram's buckets: 3 significant digits).
    pub mean_ns: f64,
    /// Median latency in nanoseconds.
    pub p50_ns: f64,
    /// 90th percentile latency in nanoseconds.
    pub p90_ns: f64,
    /// 95th percentile latency in nanoseconds.
    pub p95_ns: f64,
    /// 99th percentile latency in nanoseconds.
    pub p99_ns: f64,
    /// 99.9th percentile latency in nanoseconds.
    pub p999_ns: f64,
    /// Slowest operation in nanoseconds (to the histogram's 3 significant digits).
    pub max_ns: f64,
    /// When the slowest operation ended, on `clock::now_ns`'s scale: a bench lines it up with what
    /// else the machine did then (natively, the host's steal time in `/proc/stat`).
    #[serde(default)]
    pub max_end_ns: f64,
    /// (upper bound in ns, operations) on a log scale, doubling from 64 ns.
    pub buckets: Vec<(f64, u64)>,
}

/// The engine's rate over a stretch of a phase: `ops` operations done in it, after `seconds` of
/// engine time since the phase began (time spent outside the engine, between steps, excluded).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ThroughputSample {
    /// Engine time since the phase began, at the end of this stretch, in seconds.
    pub seconds: f64,
    /// Operations done in this stretch.
    pub ops: u64,
    /// `ops` over the engine time the stretch took (0 when the clock did not move).
    pub ops_per_sec: f64,
}

/// Latencies and throughput of a timed run (`Report::latency`), per phase; wall-clock figures that
/// differ run to run, so never part of a comparison.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LatencyReport {
    /// The clock's smallest step: latencies below it read as 0 or one step.
    pub clock_resolution_ns: f64,
    /// Per-class latencies of the load (preload) phase; classes with no operation are left out.
    pub load: Vec<ClassLatency>,
    /// Per-class latencies of the measured run; classes with no operation are left out.
    pub run: Vec<ClassLatency>,
    /// The load phase's throughput over time: at most about 400 samples, neighbours merged as the phase
    /// goes on (the last sample may cover fewer operations).
    pub load_throughput: Vec<ThroughputSample>,
    /// The measured run's throughput over time, sampled as `load_throughput` is.
    pub run_throughput: Vec<ThroughputSample>,
}

struct PhaseRecorder {
    histograms: Vec<Histogram<u64>>,
    /// Per class: the slowest operation's exact time and its end (`ClassLatency::max_end_ns`).
    slowest: Vec<(f64, f64)>,
    /// Engine time and operations so far, and at the last sample.
    busy_ns: f64,
    ops: u64,
    sample_ops: u64,
    samples: Vec<ThroughputSample>,
    last: (f64, u64),
}

impl PhaseRecorder {
    fn new() -> PhaseRecorder {
        PhaseRecorder {
            // hdrhistogram accepts 0 to 5 significant digits, so 3 cannot fail.
            #[allow(clippy::expect_used)]
            histograms: CLASSES.iter().map(|_| Histogram::new(3).expect("3 significant digits is valid")).collect(),
            slowest: vec![(f64::NEG_INFINITY, 0.0); CLASSES.len()],
            busy_ns: 0.0,
            ops: 0,
            sample_ops: FIRST_SAMPLE_OPS,
            samples: Vec::new(),
            last: (0.0, 0),
        }
    }

    fn record(&mut self, class: usize, ns: f64, end_ns: f64) {
        if ns > self.slowest[class].0 {
            self.slowest[class] = (ns, end_ns);
        }
        // Auto-resizing histograms only refuse values beyond u64; a latency is far below that.
        let _ = self.histograms[class].record(ns.max(0.0).round() as u64);
        self.busy_ns += ns.max(0.0);
        self.ops += 1;
        if self.ops - self.last.1 >= self.sample_ops {
            self.sample();
        }
    }

    fn sample(&mut self) {
        let (ns, ops) = (self.busy_ns - self.last.0, self.ops - self.last.1);
        if ops == 0 {
            return;
        }
        self.samples.push(ThroughputSample {
            seconds: self.busy_ns / 1e9,
            ops,
            ops_per_sec: if ns > 0.0 { ops as f64 / (ns / 1e9) } else { 0.0 },
        });
        self.last = (self.busy_ns, self.ops);
        if self.samples.len() > MAX_SAMPLES {
            // Merge neighbours: every sample now covers twice the operations.
            let merged: Vec<ThroughputSample> = self
                .samples
                .chunks(2)
                .map(|pair| {
                    let ops: u64 = pair.iter().map(|s| s.ops).sum();
                    let secs: f64 =
                        pair.iter().map(|s| if s.ops_per_sec > 0.0 { s.ops as f64 / s.ops_per_sec } else { 0.0 }).sum();
                    let end = pair.last().map_or(0.0, |s| s.seconds);
                    ThroughputSample {
                        seconds: end,
                        ops,
                        ops_per_sec: if secs > 0.0 { ops as f64 / secs } else { 0.0 },
                    }
                })
                .collect();
            self.samples = merged;
            self.sample_ops *= 2;
        }
    }

    fn summary(&self) -> (Vec<ClassLatency>, Vec<ThroughputSample>) {
        let classes = CLASSES
            .iter()
            .zip(self.histograms.iter().zip(&self.slowest))
            .filter(|(_, (h, _))| !h.is_empty())
            .map(|(name, (h, &(_, max_end_ns)))| {
                let q = |p: f64| h.value_at_quantile(p) as f64;
                let mut buckets = Vec::new();
                for v in h.iter_log(64, 2.0) {
                    buckets.push((v.value_iterated_to() as f64, v.count_since_last_iteration()));
                }
                ClassLatency {
                    class: (*name).to_string(),
                    count: h.len(),
                    mean_ns: h.mean(),
                    p50_ns: q(0.5),
                    p90_ns: q(0.9),
                    p95_ns: q(0.95),
                    p99_ns: q(0.99),
                    p999_ns: q(0.999),
                    max_ns: h.max() as f64,
                    max_end_ns,
                    buckets,
                }
            })
            .collect();
        let mut samples = self.samples.clone();
        let tail = self.ops - self.last.1;
        if tail > 0 {
            let ns = self.busy_ns - self.last.0;
            samples.push(ThroughputSample {
                seconds: self.busy_ns / 1e9,
                ops: tail,
                ops_per_sec: if ns > 0.0 { tail as f64 / (ns / 1e9) } else { 0.0 },
            });
        }
        (classes, samples)
    }
}

/// Records operation latencies as a runner executes them.
pub struct LatencyRecorder {
    resolution_ns: f64,
    load: PhaseRecorder,
    run: PhaseRecorder,
}

impl Default for LatencyRecorder {
    fn default() -> Self {
        Self::new()
    }
}

impl LatencyRecorder {
    /// Empty histograms for both phases; measures the clock's resolution (`clock::resolution_ns`) once, here.
    pub fn new() -> LatencyRecorder {
        LatencyRecorder { resolution_ns: clock::resolution_ns(), load: PhaseRecorder::new(), run: PhaseRecorder::new() }
    }

    /// One operation of `class` (an index into `CLASSES`) that took `ns` and ended at `end_ns`
    /// (`clock::now_ns`).
    pub fn record(&mut self, phase: Phase, class: usize, ns: f64, end_ns: f64) {
        match phase {
            Phase::Preload => self.load.record(class, ns, end_ns),
            Phase::Run => self.run.record(class, ns, end_ns),
        }
    }

    /// Percentiles, buckets and throughput samples of everything recorded so far.
    pub fn report(&self) -> LatencyReport {
        let (load, load_throughput) = self.load.summary();
        let (run, run_throughput) = self.run.summary();
        LatencyReport { clock_resolution_ns: self.resolution_ns, load, run, load_throughput, run_throughput }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_and_throughput_follow_the_recorded_times() {
        let mut r = LatencyRecorder::new();
        // 990 reads of 1 µs and 10 of 1 ms; 5,000 inserts of 2 µs.
        let mut clock = 0.0;
        for i in 0..1000 {
            // The 10 reads of 1 ms: the 5th (i = 499) is made the slowest, by 1 ns.
            let ns = match i {
                499 => 1_000_001.0,
                _ if i % 100 == 99 => 1_000_000.0,
                _ => 1_000.0,
            };
            clock += ns;
            r.record(Phase::Run, 3, ns, clock);
        }
        for i in 0..5000 {
            r.record(Phase::Preload, 0, 2_000.0, f64::from(i));
        }
        let rep = r.report();
        let read = &rep.run[0];
        assert_eq!((read.class.as_str(), read.count), ("get_existing", 1000));
        assert!((read.p50_ns - 1_000.0).abs() <= 1.0, "{}", read.p50_ns);
        assert!((read.p99_ns - 1_000.0).abs() <= 1.0, "p99 is the 990th of 1,000: {}", read.p99_ns);
        assert!((read.p999_ns - 1_000_000.0).abs() <= 1_000.0, "{}", read.p999_ns);
        // The mean is over the histogram's buckets: 3 significant digits.
        let mean = (990.0 * 1_000.0 + 10.0 * 1e6) / 1000.0;
        assert!((read.mean_ns / mean - 1.0).abs() < 1e-3, "{}", read.mean_ns);
        assert_eq!(read.buckets.iter().map(|b| b.1).sum::<u64>(), 1000);
        // The slowest read ended after 495 reads of 1 µs and 5 of 1 ms (the 5th 1 ns longer).
        assert_eq!(read.max_end_ns, 495.0 * 1_000.0 + 5.0 * 1_000_000.0 + 1.0);
        let insert = &rep.load[0];
        assert_eq!((insert.class.as_str(), insert.count), ("insert", 5000));
        // All equal: the first of the slowest is kept.
        assert_eq!(insert.max_end_ns, 0.0);
        // Engine time: 5,000 × 2 µs = 10 ms, so 500,000 inserts/s in every sample.
        assert_eq!(rep.load_throughput.iter().map(|s| s.ops).sum::<u64>(), 5000);
        assert!(rep.load_throughput.iter().all(|s| (s.ops_per_sec - 500_000.0).abs() < 1e-6));
        assert!((rep.load_throughput.last().unwrap().seconds - 0.01).abs() < 1e-12);
        assert!(rep.clock_resolution_ns > 0.0 && rep.clock_resolution_ns < 1e6);
    }

    #[test]
    fn throughput_samples_stay_bounded() {
        let mut r = LatencyRecorder::new();
        for _ in 0..2_000_000 {
            r.record(Phase::Run, 4, 500.0, 0.0);
        }
        let rep = r.report();
        assert!(rep.run_throughput.len() <= MAX_SAMPLES + 1, "{}", rep.run_throughput.len());
        assert_eq!(rep.run_throughput.iter().map(|s| s.ops).sum::<u64>(), 2_000_000);
        assert!(rep.run_throughput.iter().all(|s| (s.ops_per_sec - 2_000_000.0).abs() < 1e-3));
    }
}

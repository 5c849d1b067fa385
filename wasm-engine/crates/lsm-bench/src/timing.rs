//! One timing loop for the native `micro-bench` and the wasm `micro_bench`, so their figures
//! differ only by the target. The clock is the runner's (`lsm_runner::clock::now_ns`:
//! `Instant` natively, `performance.now()` in wasm, which Node does not coarsen).
//!
//! A kernel is set up, warmed up, then timed in samples: each sample runs whole iterations until
//! at least `Plan::sample_ns` has passed, and gives nanoseconds per element. The figure is the
//! samples' median; the best sample is kept too.

use std::hint::black_box;

use lsm_core::error::{Error, Result};
use lsm_runner::clock::now_ns as clock;
use serde::Serialize;

use crate::kernel::Spec;
use crate::kernels::{ALL, find};

/// How long to time each kernel.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// Iterations run before timing starts, for at least this long (ns).
    pub warmup_ns: f64,
    /// Samples per kernel (at least 1).
    pub samples: u32,
    /// Least duration of one sample (ns).
    pub sample_ns: f64,
}

impl Default for Plan {
    /// 0.1 s of warm-up and 15 samples of 20 ms: about 0.4 s per kernel.
    fn default() -> Self {
        Plan { warmup_ns: 100e6, samples: 15, sample_ns: 20e6 }
    }
}

/// One kernel's figures.
#[derive(Clone, Debug, Serialize)]
pub struct Measurement {
    /// The kernel's name.
    pub name: &'static str,
    /// What one iteration does.
    pub what: &'static str,
    /// Elements per iteration.
    pub elements: u64,
    /// Iterations timed, over all samples.
    pub iterations: u64,
    /// Median over the samples of nanoseconds per element.
    pub ns_per_element: f64,
    /// The fastest sample's nanoseconds per element.
    pub best_ns_per_element: f64,
    /// Milliseconds the kernel's setup took.
    pub setup_ms: f64,
    /// The figure an iteration returned (the same natively and in wasm).
    pub check: u64,
}

/// Time one kernel.
pub fn measure(spec: &Spec, seed: u64, plan: &Plan) -> Result<Measurement> {
    let t0 = clock();
    let mut kernel = (spec.setup)(seed)?;
    let setup_ms = (clock() - t0) / 1e6;
    let start = clock();
    let mut check = black_box(kernel.run()?);
    while clock() - start < plan.warmup_ns {
        check = black_box(kernel.run()?);
    }
    let mut per_element = Vec::with_capacity(plan.samples.max(1) as usize);
    let mut iterations = 0;
    for _ in 0..plan.samples.max(1) {
        let mut n = 0u64;
        let start = clock();
        let elapsed = loop {
            black_box(kernel.run()?);
            n += 1;
            let t = clock() - start;
            if t >= plan.sample_ns {
                break t;
            }
        };
        iterations += n;
        per_element.push(elapsed / (n * spec.elements) as f64);
    }
    per_element.sort_by(f64::total_cmp);
    Ok(Measurement {
        name: spec.name,
        what: spec.what,
        elements: spec.elements,
        iterations,
        ns_per_element: per_element[per_element.len() / 2],
        best_ns_per_element: per_element[0],
        setup_ms,
        check,
    })
}

/// Time the kernels named in `only` (comma-separated; empty: all of them), in `ALL` order.
pub fn measure_selected(only: &str, plan: &Plan) -> Result<Vec<Measurement>> {
    let names: Vec<&str> = only.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
    if let Some(unknown) = names.iter().find(|n| find(n).is_none()) {
        let known: Vec<&str> = ALL.iter().map(|s| s.name).collect();
        return Err(Error::Invalid {
            field: "kernel".into(),
            message: format!("no kernel \"{unknown}\"; the kernels are {}", known.join(", ")),
        });
    }
    ALL.iter()
        .filter(|s| names.is_empty() || names.contains(&s.name))
        .map(|s| measure(s, crate::kernel::SEED, plan))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_plan_times_the_chosen_kernels() {
        let plan = Plan { warmup_ns: 0.0, samples: 3, sample_ns: 1e6 };
        let m = measure_selected("page_search, bloom_probe", &plan).unwrap();
        let names: Vec<&str> = m.iter().map(|m| m.name).collect();
        assert_eq!(names, ["bloom_probe", "page_search"]);
        assert!(m.iter().all(|m| m.iterations >= 3 && m.ns_per_element > 0.0));
        assert!(m.iter().all(|m| m.best_ns_per_element <= m.ns_per_element));
        let err = measure_selected("nope", &plan).unwrap_err().to_string();
        assert!(err.starts_with("kernel: no kernel \"nope\""), "{err}");
    }
}

//! The hot paths' micro-benchmarks in wasm: `lsm_bench`'s kernels timed by the same loop and
//! the same clock (`lsm_runner::clock::now_ns`, here `performance.now()`) as the native
//! `micro-bench`, so `npm run bench` can set the two side by side.

use wasm_bindgen::prelude::*;

use lsm_bench::{Plan, measure_selected};

/// Time the kernels named in `only` (comma-separated; empty: all of them) with `samples` samples
/// of at least `sample_ms` ms each (0: the defaults, 15 of 20 ms) after 0.1 s of warm-up: a JSON
/// array of `{name, what, elements, iterations, ns_per_element (median), best_ns_per_element,
/// setup_ms, check}`, the same document `micro-bench` prints natively.
#[wasm_bindgen]
pub fn micro_bench(only: &str, samples: u32, sample_ms: f64) -> Result<String, JsError> {
    let mut plan = Plan::default();
    if samples > 0 {
        plan.samples = samples;
    }
    if sample_ms > 0.0 {
        plan.sample_ns = sample_ms * 1e6;
    }
    let measured = measure_selected(only, &plan).map_err(|e| JsError::new(&e.to_string()))?;
    serde_json::to_string(&measured).map_err(|e| JsError::new(&e.to_string()))
}

//! A monotonic clock in nanoseconds, natively and in the browser: what per-operation latencies are
//! measured with. The browser's `performance.now()` is coarsened (5 µs when the page is
//! cross-origin isolated, 100 µs otherwise, both with jitter), so `resolution_ns` is measured and
//! reported next to every latency.

/// Nanoseconds since a fixed origin (natively, the first call), never going back: only differences
/// between two readings mean anything.
#[cfg(not(target_arch = "wasm32"))]
#[allow(clippy::disallowed_methods)] // This is the one clock the workspace allows (clippy.toml).
pub fn now_ns() -> f64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_nanos() as f64
}

#[cfg(target_arch = "wasm32")]
mod js {
    use wasm_bindgen::prelude::wasm_bindgen;

    #[wasm_bindgen]
    extern "C" {
        /// `globalThis.performance.now()`: a worker's, a window's or Node's.
        #[wasm_bindgen(js_namespace = performance, js_name = now)]
        pub fn performance_now() -> f64;
    }
}

/// Nanoseconds since the page's or worker's time origin (`performance.now()` × 10⁶), never going back;
/// coarsened by the browser (see the module docs), so only differences mean anything.
#[cfg(target_arch = "wasm32")]
pub fn now_ns() -> f64 {
    js::performance_now() * 1e6
}

/// The smallest step the clock takes: the least nonzero difference of successive readings over a
/// few tries (a few microseconds of spinning at most on a coarse clock).
pub fn resolution_ns() -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let start = now_ns();
        let mut t = start;
        for _ in 0..1_000_000 {
            t = now_ns();
            if t > start {
                break;
            }
        }
        if t > start {
            best = best.min(t - start);
        }
    }
    if best.is_finite() { best } else { 0.0 }
}

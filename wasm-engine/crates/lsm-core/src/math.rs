//! Transcendental functions with identical results on every target. The platform's libm (glibc
//! natively, a different implementation in wasm) may differ in the last bit, which could change a
//! Zipf sample or a filter's size and make a wasm run diverge from the same run natively; the
//! pure-Rust `libm` crate computes the same bits everywhere.

/// e^x, the same bits natively and in wasm.
#[inline]
pub fn exp(x: f64) -> f64 {
    libm::exp(x)
}

/// Natural logarithm, the same bits natively and in wasm.
#[inline]
pub fn ln(x: f64) -> f64 {
    libm::log(x)
}

/// x^y, the same bits natively and in wasm.
#[inline]
pub fn pow(x: f64, y: f64) -> f64 {
    libm::pow(x, y)
}

/// ln(1 + x), accurate for x near 0; the same bits natively and in wasm.
#[inline]
pub fn ln_1p(x: f64) -> f64 {
    libm::log1p(x)
}

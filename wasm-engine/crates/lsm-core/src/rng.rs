//! Deterministic randomness for workloads: the same seed gives the same operations natively and
//! in wasm: integer arithmetic, plus exp/ln from the pure-Rust `libm`, which gives the same bits on
//! every target (the platform libm need not).

use crate::math::{exp, ln};

/// xoshiro256** seeded through splitmix64.
#[derive(Clone, Debug)]
pub struct Rng {
    s: [u64; 4],
}

/// One splitmix64 step: advances `state` and returns a well-mixed 64-bit value. Seeds `Rng`,
/// and serves alone where a short stream from a known state is enough (generated values).
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    /// A generator seeded from `seed` through splitmix64 (any seed, 0 included).
    pub fn new(seed: u64) -> Self {
        let mut st = seed;
        Rng { s: [splitmix64(&mut st), splitmix64(&mut st), splitmix64(&mut st), splitmix64(&mut st)] }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// Uniform in [0, 1) with 53 random bits.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in [0, n) without modulo bias worth caring about (multiply-shift on 64 bits).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }
}

/// Zipf(θ) ranks in [0, n): rank 0 is the most popular. Rejection-inversion sampling
/// (Hörmann & Derflinger, 1996): O(1) per sample for any n, no table, so the population may
/// grow between samples (inserts) at the cost of recomputing two constants.
#[derive(Clone, Debug)]
pub struct Zipf {
    theta: f64,
    n: u64,
    h_integral_x1: f64,
    h_integral_n: f64,
    s: f64,
}

/// (e^x − 1)/x, accurate near 0.
fn expm1_over_x(x: f64) -> f64 {
    if x.abs() > 1e-8 { libm::expm1(x) / x } else { 1.0 + x * 0.5 * (1.0 + x / 3.0 * (1.0 + 0.25 * x)) }
}

/// ln(1 + x)/x, accurate near 0.
fn ln1p_over_x(x: f64) -> f64 {
    if x.abs() > 1e-8 { libm::log1p(x) / x } else { 1.0 - x * (0.5 - x * (1.0 / 3.0 - 0.25 * x)) }
}

impl Zipf {
    /// Ranks in [0, n) with P(rank k) ∝ 1/(k+1)^θ, for any θ ≥ 0 (0 is uniform).
    pub fn new(theta: f64, n: u64) -> Self {
        let mut z = Zipf { theta, n: 0, h_integral_x1: 0.0, h_integral_n: 0.0, s: 0.0 };
        z.h_integral_x1 = z.h_integral(1.5) - 1.0;
        z.s = 2.0 - z.h_integral_inv(z.h_integral(2.5) - z.h(2.0));
        z.resize(n);
        z
    }

    /// Sets the population to `n` ranks, as inserts grow the key set; O(1).
    pub fn resize(&mut self, n: u64) {
        if n != self.n {
            self.n = n;
            self.h_integral_n = self.h_integral(n as f64 + 0.5);
        }
    }

    fn h(&self, x: f64) -> f64 {
        exp(-self.theta * ln(x))
    }

    /// ∫ h, shifted so that it is well defined at θ = 1.
    fn h_integral(&self, x: f64) -> f64 {
        let lx = ln(x);
        expm1_over_x((1.0 - self.theta) * lx) * lx
    }

    fn h_integral_inv(&self, x: f64) -> f64 {
        let t = (x * (1.0 - self.theta)).max(-1.0);
        exp(ln1p_over_x(t) * x)
    }

    /// A rank in [0, n); n must be ≥ 1.
    pub fn sample(&self, rng: &mut Rng) -> u64 {
        if self.n <= 1 {
            return 0;
        }
        loop {
            let u = self.h_integral_n + rng.next_f64() * (self.h_integral_x1 - self.h_integral_n);
            let x = self.h_integral_inv(u);
            let k = (x + 0.5).floor().clamp(1.0, self.n as f64);
            if k - x <= self.s || u >= self.h_integral(k + 0.5) - self.h(k) {
                return k as u64 - 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        assert!((0..1000).all(|_| a.next_u64() == b.next_u64()));
        assert_ne!(Rng::new(7).next_u64(), Rng::new(8).next_u64());
    }

    #[test]
    fn below_is_uniform() {
        let mut r = Rng::new(1);
        let mut counts = [0u32; 10];
        for _ in 0..100_000 {
            counts[r.below(10) as usize] += 1;
        }
        assert!(counts.iter().all(|&c| (9_500..10_500).contains(&c)), "{counts:?}");
    }

    #[test]
    fn zipf_frequencies_follow_the_power_law() {
        // P(rank k) ∝ 1/(k+1)^θ over n = 100 ranks.
        for theta in [0.5, 0.99, 1.0, 1.5] {
            let n = 100u64;
            let z = Zipf::new(theta, n);
            let mut r = Rng::new(3);
            let mut counts = vec![0u64; n as usize];
            let samples = 400_000;
            for _ in 0..samples {
                counts[z.sample(&mut r) as usize] += 1;
            }
            let norm: f64 = (1..=n).map(|k| (k as f64).powf(-theta)).sum();
            for k in [0usize, 1, 4, 19, 99] {
                let expected = samples as f64 * ((k + 1) as f64).powf(-theta) / norm;
                let rel = (counts[k] as f64 - expected).abs() / expected;
                assert!(rel < 0.08, "θ={theta} rank {k}: {} vs {expected:.0}", counts[k]);
            }
        }
    }

    #[test]
    fn zipf_stays_in_range_while_growing() {
        let mut z = Zipf::new(0.9, 1);
        let mut r = Rng::new(5);
        for n in 1..2_000u64 {
            z.resize(n);
            assert!(z.sample(&mut r) < n);
        }
    }
}

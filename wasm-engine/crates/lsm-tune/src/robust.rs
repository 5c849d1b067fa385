//! Robust tuning after Endure (Huynh et al., VLDB 2022): the worst expected cost of a design over
//! every workload within KL-divergence ρ of the expected one, through the convex dual
//!
//! ```text
//! J(c) = min over λ > 0 of  λρ + λ · log Σᵢ wᵢ · exp(cᵢ / λ)
//! ```
//!
//! (ρ = 0 gives Σ wᵢcᵢ; ρ → ∞ the largest cᵢ with wᵢ > 0); the worst workload is
//! wᵢ' ∝ wᵢ · exp(cᵢ / λ*). This is the one home of Endure's dual: the tuner runs it over the
//! engine-faithful costs of `predict` (the paper's vectors and tolerances are its tests).

use lsm_core::error::{Error, Result};
use lsm_core::math::{exp, ln};
use lsm_core::rng::Rng;

/// Endure's worst case for one design, in the units of its class costs (I/O per operation
/// from `predict`).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct WorstCase {
    /// J: the largest expected cost over the ρ-neighbourhood.
    pub cost: f64,
    /// Σ wᵢcᵢ: the cost at the expected workload.
    pub nominal: f64,
    /// The workload that attains it.
    pub workload: [f64; 4],
}

/// KL(p ‖ q) in nats; infinite if p puts weight where q has none.
pub fn kl_divergence(p: &[f64; 4], q: &[f64; 4]) -> f64 {
    let mut d = 0.0;
    for i in 0..4 {
        if p[i] <= 0.0 {
            continue;
        }
        if q[i] <= 0.0 {
            return f64::INFINITY;
        }
        d += p[i] * ln(p[i] / q[i]);
    }
    d
}

fn check_mix(w: &[f64; 4]) -> Result<()> {
    let sum: f64 = w.iter().sum();
    if w.iter().any(|x| !(0.0..=1.0).contains(x)) || (sum - 1.0).abs() > 1e-9 {
        return Err(Error::invalid("mix", format!("class shares must lie in [0, 1] and sum to 1, got {w:?}")));
    }
    Ok(())
}

/// λρ + λ log Σ wᵢ exp(cᵢ/λ), without overflow.
fn dual(c: &[f64; 4], w: &[f64; 4], rho: f64, lambda: f64) -> f64 {
    let top = (0..4).filter(|&i| w[i] > 0.0).map(|i| c[i]).fold(f64::NEG_INFINITY, f64::max);
    let s: f64 = (0..4).filter(|&i| w[i] > 0.0).map(|i| w[i] * exp((c[i] - top) / lambda)).sum();
    lambda * rho + top + lambda * ln(s)
}

/// The worst expected cost of class costs `c` over workloads within KL-divergence `rho` of `w`
/// (golden-section search over log λ).
pub fn worst_case(c: &[f64; 4], w: &[f64; 4], rho: f64) -> Result<WorstCase> {
    check_mix(w)?;
    if !(rho >= 0.0 && rho.is_finite()) {
        return Err(Error::invalid("rho", format!("must be a finite number ≥ 0, got {rho}")));
    }
    if c.iter().any(|x| !(x.is_finite() && *x >= 0.0)) {
        return Err(Error::invalid("class costs", format!("must be finite and ≥ 0, got {c:?}")));
    }
    let nominal: f64 = (0..4).map(|i| w[i] * c[i]).sum();
    let support = || (0..4).filter(|&i| w[i] > 0.0);
    let top = support().map(|i| c[i]).fold(f64::NEG_INFINITY, f64::max);
    let bottom = support().map(|i| c[i]).fold(f64::INFINITY, f64::min);
    let spread = top - bottom;
    if rho == 0.0 || spread == 0.0 {
        return Ok(WorstCase { cost: nominal, nominal, workload: *w });
    }
    let f = |x: f64| dual(c, w, rho, exp(x));
    let (mut lo, mut hi) = (ln(spread * 1e-9), ln(spread * 1e9));
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (hi - g * (hi - lo), lo + g * (hi - lo));
    let (mut fa, mut fb) = (f(a), f(b));
    // To 1e-7 in log λ: the dual is flat at its minimum, so J is then exact to ~1e-14.
    for _ in 0..200 {
        if hi - lo <= 1e-7 {
            break;
        }
        if fa < fb {
            hi = b;
            b = a;
            fb = fa;
            a = hi - g * (hi - lo);
            fa = f(a);
        } else {
            lo = a;
            a = b;
            fa = fb;
            b = lo + g * (hi - lo);
            fb = f(b);
        }
    }
    let x = (lo + hi) / 2.0;
    let lambda = exp(x);
    let cost = f(x).min(top);
    let weights: Vec<f64> = (0..4).map(|i| if w[i] > 0.0 { w[i] * exp((c[i] - top) / lambda) } else { 0.0 }).collect();
    let total: f64 = weights.iter().sum();
    Ok(WorstCase { cost, nominal, workload: [0, 1, 2, 3].map(|i| weights[i] / total) })
}

/// `count` workloads from the ρ-neighbourhood of `w`: random directions from w (uniform over the
/// simplex of w's classes: a workload that gains a class w lacks is infinitely far in KL), each
/// taken a random fraction of the way to the ball's edge. Deterministic per seed.
pub fn sample_neighbourhood(w: &[f64; 4], rho: f64, count: usize, seed: u64) -> Result<Vec<[f64; 4]>> {
    check_mix(w)?;
    if rho == 0.0 {
        return Ok(vec![*w; count]);
    }
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let e = [0, 1, 2, 3].map(|i| if w[i] > 0.0 { -ln(1.0 - rng.next_f64()) } else { 0.0 });
        let s: f64 = e.iter().sum();
        let target = e.map(|x| x / s);
        let at = |t: f64| [0, 1, 2, 3].map(|i| (1.0 - t) * w[i] + t * target[i]);
        let reach = if kl_divergence(&at(1.0), w) > rho {
            let (mut lo, mut hi) = (0.0, 1.0);
            for _ in 0..40 {
                let mid = (lo + hi) / 2.0;
                if kl_divergence(&at(mid), w) <= rho { lo = mid } else { hi = mid }
            }
            lo
        } else {
            1.0
        };
        out.push(at(reach * rng.next_f64()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rho_zero_is_the_nominal_cost_and_large_rho_the_dearest_class() {
        let c = [0.1, 1.2, 5.0, 2.0];
        let w = [0.25, 0.25, 0.25, 0.25];
        let n = worst_case(&c, &w, 0.0).unwrap();
        assert!((n.cost - 2.075).abs() < 1e-12);
        let far = worst_case(&c, &w, 50.0).unwrap();
        assert!((far.cost - 5.0).abs() < 1e-6, "{}", far.cost);
        // Between, the worst case grows with ρ and its workload stays within ρ.
        let mid = worst_case(&c, &w, 0.2).unwrap();
        assert!(mid.cost > n.cost && mid.cost < 5.0);
        assert!(kl_divergence(&mid.workload, &w) <= 0.2 + 1e-6);
        let attained: f64 = (0..4).map(|i| mid.workload[i] * c[i]).sum();
        assert!((attained - mid.cost).abs() < 1e-6, "{attained} vs {}", mid.cost);
    }

    #[test]
    fn samples_stay_in_the_ball() {
        let w = [0.0, 0.95, 0.0, 0.05];
        let samples = sample_neighbourhood(&w, 0.5, 500, 7).unwrap();
        for s in &samples {
            assert!(kl_divergence(s, &w) <= 0.5 + 1e-9);
            assert!((s.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        }
        // They move: some put far more on writes than the expected 5%.
        assert!(samples.iter().any(|s| s[3] > 0.3), "{:?}", samples.iter().map(|s| s[3]).fold(0.0, f64::max));
    }

    #[test]
    fn bad_input_names_the_field() {
        assert!(worst_case(&[1.0; 4], &[0.5, 0.5, 0.5, 0.0], 0.1).unwrap_err().to_string().contains("mix"));
        assert!(worst_case(&[1.0; 4], &[0.25; 4], -1.0).unwrap_err().to_string().contains("rho"));
    }

    // The vectors and tolerances of the models library's Endure tests (models/test/endure.test.ts,
    // whose TypeScript copy of this dual had no caller but its test): one home for the dual, here.
    const C: [f64; 4] = [0.2, 1.3, 6.0, 0.4];
    const W: [f64; 4] = [0.3, 0.3, 0.1, 0.3];

    #[test]
    fn the_worst_case_grows_with_rho_towards_the_costliest_class() {
        let nominal = worst_case(&C, &W, 0.0).unwrap().cost;
        assert_eq!(nominal, 0.3 * 0.2 + 0.3 * 1.3 + 0.1 * 6.0 + 0.3 * 0.4);
        let mut last = nominal;
        for rho in [0.01, 0.1, 0.5, 1.0, 2.0, 5.0] {
            let j = worst_case(&C, &W, rho).unwrap().cost;
            assert!(j > last && j <= 6.0, "ρ = {rho}: {j} after {last}");
            last = j;
        }
        let far = worst_case(&C, &W, 50.0).unwrap().cost;
        assert!((far - 6.0).abs() < 5e-7, "{far}");
    }

    #[test]
    fn the_worst_workload_lies_on_the_balls_edge_and_costs_exactly_j() {
        // Strong duality: the primal's maximiser attains the dual's minimum.
        for rho in [0.05, 0.25, 1.0] {
            let r = worst_case(&C, &W, rho).unwrap();
            assert!((r.workload.iter().sum::<f64>() - 1.0).abs() < 5e-13, "{:?}", r.workload);
            let kl = kl_divergence(&r.workload, &W);
            assert!((kl - rho).abs() < 5e-7, "ρ = {rho}: KL {kl}");
            let primal: f64 = (0..4).map(|i| r.workload[i] * C[i]).sum();
            assert!((primal - r.cost).abs() < 5e-7, "ρ = {rho}: primal {primal}, J {}", r.cost);
        }
    }

    #[test]
    fn no_sampled_workload_inside_the_ball_costs_more_than_j() {
        let rho = 0.3;
        let j = worst_case(&C, &W, rho).unwrap().cost;
        let nominal = worst_case(&C, &W, 0.0).unwrap().cost;
        let mut max_seen = 0.0f64;
        for s in sample_neighbourhood(&W, rho, 5_000, 7).unwrap() {
            assert!(kl_divergence(&s, &W) <= rho + 1e-9);
            max_seen = max_seen.max((0..4).map(|i| s[i] * C[i]).sum());
        }
        assert!(max_seen <= j + 1e-12, "{max_seen} > {j}");
        // The samples reach close to the edge: a worst case drawn from them means something.
        assert!(max_seen > nominal + 0.5 * (j - nominal), "{max_seen}, nominal {nominal}, J {j}");
    }
}

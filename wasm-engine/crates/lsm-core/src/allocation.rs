//! Filter memory allocation across runs: the one small, pure allocator the engine calls when it
//! builds a filter. Same math as `models/src/monkey.ts` (`exactAllocation`), checked on the same
//! vectors.

use crate::math::{exp, ln};

/// ln(2)², the constant in FPR = exp(−bits/entry · ln²2).
pub const LN2_SQ: f64 = std::f64::consts::LN_2 * std::f64::consts::LN_2;

/// A run as the allocator sees it: its entries and how often a lookup probes it (1 for every
/// run under zero-result lookups).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunWeight {
    /// Entries in the run (n_j); only ratios between runs matter, so entry bytes may stand in.
    pub entries: f64,
    /// How often a lookup probes the run, relative to the others (w_j); 0 leaves it unfiltered.
    pub weight: f64,
}

/// Minimise Σ w_j·p_j subject to Σ n_j·ln(1/p_j)/ln²2 = `filter_bits`, 0 < p_j ≤ 1 (Monkey §3.4
/// of the reference: KKT water-filling, p_j = min(1, λ·n_j/w_j)). Returns the FPR of each run in
/// input order; runs with no entries get FPR 0 (they are never probed).
pub fn optimal_fprs(runs: &[RunWeight], filter_bits: f64) -> Vec<f64> {
    let mut fprs: Vec<f64> = runs.iter().map(|r| if r.entries <= 0.0 { 0.0 } else { 1.0 }).collect();
    if let Some((ln_lambda, filtered)) = water_level(runs, filter_bits) {
        for j in filtered {
            fprs[j] = exp(ln_lambda + ln(runs[j].entries / runs[j].weight)).min(1.0);
        }
    }
    fprs
}

/// `optimal_fprs(runs, filter_bits)[j]`, computing only run j's rate (the engine sizes one new
/// filter at a time, and the tuner replays that thousands of times).
pub fn optimal_fpr_at(runs: &[RunWeight], filter_bits: f64, j: usize) -> f64 {
    let Some(r) = runs.get(j) else { return 1.0 };
    if r.entries <= 0.0 {
        return 0.0;
    }
    match water_level(runs, filter_bits) {
        Some((ln_lambda, filtered)) if filtered.contains(&j) => exp(ln_lambda + ln(r.entries / r.weight)).min(1.0),
        _ => 1.0,
    }
}

/// The KKT water level: ln λ and the runs that get a filter (the rest keep FPR 1), or `None`
/// when no run gets one.
fn water_level(runs: &[RunWeight], filter_bits: f64) -> Option<(f64, Vec<usize>)> {
    let mut order: Vec<usize> = (0..runs.len()).filter(|&j| runs[j].entries > 0.0 && runs[j].weight > 0.0).collect();
    if filter_bits <= 0.0 || order.is_empty() {
        return None;
    }
    let ratio = |j: usize| runs[j].entries / runs[j].weight;
    order.sort_by(|&a, &b| ratio(a).total_cmp(&ratio(b)));
    // Prefix sums let every candidate k be evaluated in O(1).
    let mut sum_n = 0.0;
    let mut sum_nlog = 0.0;
    let prefix: Vec<(f64, f64)> = order
        .iter()
        .map(|&j| {
            sum_n += runs[j].entries;
            sum_nlog += runs[j].entries * ln(ratio(j));
            (sum_n, sum_nlog)
        })
        .collect();
    for k in (1..=order.len()).rev() {
        let (n, nlog) = prefix[k - 1];
        let ln_lambda = -(filter_bits * LN2_SQ + nlog) / n;
        if ln_lambda + ln(ratio(order[k - 1])) <= 1e-12 {
            order.truncate(k);
            return Some((ln_lambda, order));
        }
    }
    None
}

/// Bits per entry that give false-positive rate `fpr` (ideal hash count).
pub fn bits_per_key_for_fpr(fpr: f64) -> f64 {
    if fpr >= 1.0 { 0.0 } else { -ln(fpr.max(f64::MIN_POSITIVE)) / LN2_SQ }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zero_result(entries: &[f64]) -> Vec<RunWeight> {
        entries.iter().map(|&e| RunWeight { entries: e, weight: 1.0 }).collect()
    }

    #[test]
    fn spends_exactly_the_budget_and_is_proportional_to_run_size() {
        let runs = zero_result(&[1e3, 1e4, 1e5, 1e6]);
        let budget = 10.0 * 1_111_000.0;
        let p = optimal_fprs(&runs, budget);
        let spent: f64 = runs.iter().zip(&p).map(|(r, &p)| r.entries * bits_per_key_for_fpr(p)).sum();
        assert!((spent - budget).abs() / budget < 1e-9, "spent {spent}");
        for w in p.windows(2) {
            assert!((w[1] / w[0] - 10.0).abs() < 1e-9);
        }
    }

    /// The same vectors the TypeScript model (`exactAllocation`) is tested on.
    #[test]
    fn matches_the_models_vectors() {
        #[derive(serde::Deserialize)]
        struct Case {
            name: String,
            runs: Vec<Run>,
            #[serde(rename = "filterBits")]
            filter_bits: f64,
            fprs: Vec<f64>,
        }
        #[derive(serde::Deserialize)]
        struct Run {
            entries: f64,
            weight: f64,
        }
        let cases: Vec<Case> =
            serde_json::from_str(include_str!("../../../../models/test/vectors/monkey-allocation.json")).unwrap();
        assert!(cases.len() >= 10);
        for c in cases {
            let runs: Vec<RunWeight> =
                c.runs.iter().map(|r| RunWeight { entries: r.entries, weight: r.weight }).collect();
            let got = optimal_fprs(&runs, c.filter_bits);
            for (g, want) in got.iter().zip(&c.fprs) {
                assert!((g - want).abs() <= 1e-12 + 1e-9 * want.abs(), "{}: {got:?} vs {:?}", c.name, c.fprs);
            }
        }
    }

    #[test]
    fn small_budget_leaves_largest_runs_unfiltered() {
        let runs = zero_result(&[1e3, 1e4, 1e5, 1e6]);
        let p = optimal_fprs(&runs, 20_000.0);
        assert_eq!(p[3], 1.0);
        assert!(p[0] < p[1] && p[1] <= 1.0);
        assert_eq!(optimal_fprs(&runs, 0.0), vec![1.0; 4]);
    }

    #[test]
    fn lookup_cost_equals_lambda_times_entries() {
        // With every run filtered, R = Σ p_j = λ·N (Moose §2.6, Monkey §3.4).
        let runs = zero_result(&[1e3, 1e4, 1e5, 1e6]);
        let n: f64 = 1_111_000.0;
        let m = 5.0 * n;
        let r: f64 = optimal_fprs(&runs, m).iter().sum();
        let ln_lambda = -(m * LN2_SQ + runs.iter().map(|r| r.entries * r.entries.ln()).sum::<f64>()) / n;
        assert!((r - ln_lambda.exp() * n).abs() < 1e-12);
    }

    #[test]
    fn one_run_at_a_time_is_the_same_as_all_at_once() {
        let cases: [(&[(f64, f64)], f64); 4] = [
            (&[(100.0, 1.0), (1000.0, 1.0), (10_000.0, 1.0)], 20_000.0),
            (&[(100.0, 0.5), (0.0, 1.0), (10_000.0, 1.0), (500.0, 0.0)], 5_000.0),
            (&[(1.0, 1.0), (1e6, 1.0)], 10.0),
            (&[(64.0, 1.0), (64.0, 1.0)], 0.0),
        ];
        for (runs, bits) in cases {
            let runs: Vec<RunWeight> = runs.iter().map(|&(entries, weight)| RunWeight { entries, weight }).collect();
            let all = optimal_fprs(&runs, bits);
            for (j, p) in all.iter().enumerate() {
                assert_eq!(optimal_fpr_at(&runs, bits, j).to_bits(), p.to_bits(), "run {j} of {runs:?}");
            }
        }
    }
}

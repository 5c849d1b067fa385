//! Mnemosyne's per-file filter allocation (reference §A.4.1, Algorithm 1 corrected): given each
//! file's entries n_i and empty probes z_i, minimise Σ z_i·ε_i under a total bit budget. Files are
//! sorted by z/n (the ordered theorem: the filtered files are a prefix) and cold files dropped
//! while their would-be bits are below the minimum. Same math as `mnemosyneSortAndSearch` in
//! `models/src/mnemosyne/`, tested on the same vectors.

use crate::allocation::LN2_SQ;
use crate::math::ln;

/// A file as Mnemosyne's allocator sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FileWeight {
    /// Entries in the file (n_i).
    pub entries: f64,
    /// Zero-result lookups expected to probe the file (z_i); a count or a rate, as only the
    /// ratios between files matter. 0 leaves the file unfiltered.
    pub empty_probes: f64,
}

/// What `allocate` returns.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// Bits per key for each file, input order (0 = no filter).
    pub bits_per_key: Vec<f64>,
    /// C of Eq 7 (log of the Lagrange constant); None when no file can be filtered.
    pub log_c: Option<f64>,
}

/// Sort-and-search. `min_bits_per_key` = 1 gives the RocksDB variant (no filter below 1 bit/key).
pub fn allocate(files: &[FileWeight], filter_bits: f64, min_bits_per_key: f64) -> Solution {
    let mut bits_per_key = vec![0.0; files.len()];
    let mut active: Vec<(usize, f64, f64)> = files
        .iter()
        .enumerate()
        .filter(|(_, f)| f.entries > 0.0 && f.empty_probes > 0.0)
        .map(|(i, f)| (i, f.entries, ln(f.entries / f.empty_probes)))
        .collect();
    if active.is_empty() || filter_bits <= 0.0 {
        return Solution { bits_per_key, log_c: None };
    }
    // Hottest first: z/n descending (= ln(n/z) ascending); stable, so ties keep input order.
    active.sort_by(|a, b| {
        let (ra, rb) = (files[a.0].empty_probes / a.1, files[b.0].empty_probes / b.1);
        rb.total_cmp(&ra)
    });
    let threshold = -min_bits_per_key * LN2_SQ;
    let (mut s1, mut s2) = active.iter().fold((0.0, 0.0), |(s1, s2), &(_, n, a)| (s1 + n, s2 + n * a));
    let mut log_c = (-filter_bits * LN2_SQ - s2) / s1;
    let mut k = active.len();
    while k > 0 {
        let (_, n, a) = active[k - 1];
        if a + log_c <= threshold {
            break;
        }
        s1 -= n;
        s2 -= n * a;
        k -= 1;
        if k == 0 || s1 <= 0.0 {
            return Solution { bits_per_key, log_c: None };
        }
        log_c = (-filter_bits * LN2_SQ - s2) / s1;
    }
    for &(i, _, a) in &active[..k] {
        bits_per_key[i] = -(a + log_c) / LN2_SQ;
    }
    Solution { bits_per_key, log_c: Some(log_c) }
}

/// Bits per key a new filter is built with (§A.4.8): below 0.5 → 0, [0.5, 1) → 1, capped.
pub fn build_bits_per_key(bits_per_key: f64, max: f64) -> f64 {
    if bits_per_key.is_nan() || bits_per_key < 0.5 { 0.0 } else { bits_per_key.max(1.0).min(max) }
}

/// Query-time skip (§A.3.5): with the latest C, a file whose n > z·e^(−C) would get no filter.
pub fn skip_filter(entries: f64, empty_probes: f64, log_c: Option<f64>) -> bool {
    match log_c {
        None => false,
        Some(_) if empty_probes <= 0.0 => entries > 0.0,
        Some(c) => entries > empty_probes * crate::math::exp(-c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize)]
    struct Vectors {
        cases: Vec<Case>,
    }

    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Case {
        name: String,
        files: Vec<File>,
        filter_bits: f64,
        bits_per_key: Vec<f64>,
        log_c: Option<f64>,
        bits_per_key_min_one: Vec<f64>,
        log_c_min_one: Option<f64>,
    }

    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct File {
        entries: f64,
        empty_probes: f64,
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * (1.0 + b.abs())
    }

    /// The same vectors `models/test/mnemosyne.test.ts` checks (from the reference's python).
    #[test]
    fn matches_the_models_vectors() {
        let v: Vectors =
            serde_json::from_str(include_str!("../../../../models/test/vectors/mnemosyne-allocation.json")).unwrap();
        assert!(v.cases.len() >= 10);
        for c in v.cases {
            let files: Vec<FileWeight> =
                c.files.iter().map(|f| FileWeight { entries: f.entries, empty_probes: f.empty_probes }).collect();
            for (min, want, want_c) in
                [(0.0, &c.bits_per_key, c.log_c), (1.0, &c.bits_per_key_min_one, c.log_c_min_one)]
            {
                let s = allocate(&files, c.filter_bits, min);
                assert!(
                    s.bits_per_key.iter().zip(want).all(|(a, b)| close(*a, *b)),
                    "{} (min {min}): {:?} vs {want:?}",
                    c.name,
                    s.bits_per_key
                );
                match (s.log_c, want_c) {
                    (Some(a), Some(b)) => assert!(close(a, b), "{}: C {a} vs {b}", c.name),
                    (None, None) => {}
                    other => panic!("{}: C {other:?}", c.name),
                }
            }
        }
    }

    #[test]
    fn build_rounding_and_skip_rule() {
        assert_eq!(build_bits_per_key(0.49, 64.0), 0.0);
        assert_eq!(build_bits_per_key(0.7, 64.0), 1.0);
        assert_eq!(build_bits_per_key(80.0, 64.0), 64.0);
        // ε ≥ 1 ⇔ n > z·e^(−C).
        assert!(skip_filter(1000.0, 1.0, Some(-2.0)));
        assert!(!skip_filter(10.0, 100.0, Some(-2.0)));
        assert!(!skip_filter(10.0, 0.0, None));
    }
}

//! Per-file access statistics: Merlin's sliding window (Mnemosyne's estimator, reference §A.4.7)
//! and the plain access/found counters SHaMBa's utilities use (§B.3.7). Same math as
//! `models/src/mnemosyne/merlin.ts` (`merlinRecordProbe`, `merlinEstimate` paper variant, `merlinInherit`).

/// Weight on the recent window against older history (the papers' experiments use 0.8).
pub(crate) const MERLIN_BETA: f64 = 0.8;
pub(crate) const MAX_WINDOW: usize = 64;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct FileStats {
    /// Global point-lookup count when the file was created.
    pub created_at: u64,
    /// Ω: sequence numbers of the last ≤ w probes, as a ring; `head` is the newest slot.
    window: Vec<u64>,
    head: usize,
    /// Bit s: the probe in ring slot s found its key here.
    found_bits: u64,
    /// q': probes pushed out of the window, plus the inherited estimate.
    pub older_probes: f64,
    /// x': the found ones among them.
    pub older_found: f64,
    /// Ground truth since creation (and SHaMBa's counters).
    pub accesses: u64,
    pub found: u64,
}

/// Merlin's estimate for one file: probes q̂, found x̂, empty ẑ = max(0, q̂ − x̂).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub probes: f64,
    pub found: f64,
    pub empty: f64,
}

impl FileStats {
    /// A new file created at lookup count `now`, seeded with inherited (q, x).
    pub fn new(now: u64, inherited_probes: f64, inherited_found: f64) -> Self {
        FileStats {
            created_at: now,
            older_probes: inherited_probes.max(0.0),
            older_found: inherited_found.clamp(0.0, inherited_probes.max(0.0)),
            ..FileStats::default()
        }
    }

    pub fn window_len(&self) -> usize {
        self.window.len()
    }

    /// Record a probe by lookup `seq` (strictly increasing) with window capacity `w` (1..=64).
    pub fn record(&mut self, seq: u64, found: bool, w: usize) {
        self.accesses += 1;
        self.found += u64::from(found);
        let w = w.clamp(1, MAX_WINDOW);
        let slot = if self.window.len() < w {
            self.window.push(seq);
            self.window.len() - 1
        } else {
            // The oldest entry sits just after the newest in the ring.
            let oldest = (self.head + 1) % self.window.len();
            self.older_probes += 1.0;
            if self.found_bits & (1 << oldest) != 0 {
                self.older_found += 1.0;
            }
            self.window[oldest] = seq;
            oldest
        };
        self.head = slot;
        if found {
            self.found_bits |= 1 << slot;
        } else {
            self.found_bits &= !(1 << slot);
        }
    }

    fn newest_and_oldest(&self) -> Option<(u64, u64)> {
        let n = self.window.len();
        (n > 0).then(|| (self.window[self.head], self.window[(self.head + 1) % n]))
    }

    fn found_ratio(&self) -> f64 {
        let k = self.window.len();
        let recent = if k > 0 { f64::from(self.found_bits.count_ones()) / k as f64 } else { 0.0 };
        let older = if self.older_probes > 0.0 { self.older_found / self.older_probes } else { 0.0 };
        match (k > 0, self.older_probes > 0.0) {
            (true, true) => MERLIN_BETA * recent + (1.0 - MERLIN_BETA) * older,
            (true, false) => recent,
            _ => older,
        }
    }

    /// Merlin's estimate at lookup count `now` (paper variant).
    pub fn estimate(&self, now: u64) -> Estimate {
        let k = self.window.len();
        let (probes, found) = match self.newest_and_oldest() {
            None => (self.older_probes, self.older_found),
            Some((newest, oldest)) => {
                let old_gap = oldest as f64 / (self.older_probes + 1.0);
                let gap = if k >= 2 {
                    MERLIN_BETA * (newest - oldest) as f64 / (k - 1) as f64 + (1.0 - MERLIN_BETA) * old_gap
                } else {
                    old_gap
                };
                let q = if gap > 0.0 { now as f64 / gap } else { self.older_probes + k as f64 };
                (q, self.found_ratio() * q)
            }
        };
        Estimate { probes, found, empty: (probes - found).max(0.0) }
    }

    /// SHaMBa's α (share of probes that found their key) and β (probes per lookup since creation).
    pub fn alpha_beta(&self, now: u64) -> (f64, f64) {
        let alpha = if self.accesses > 0 { self.found as f64 / self.accesses as f64 } else { 0.0 };
        let beta = self.accesses as f64 / (now.saturating_sub(self.created_at) + 1) as f64;
        (alpha, beta)
    }
}

/// One merge input as the inheritance sees it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct InheritInput {
    pub estimate: Estimate,
    /// True for inputs from the merge's destination level (deeper), false for the level above.
    pub deep: bool,
    pub entries: u64,
}

/// Merlin inheritance (Eq 13 with the corner-case adjustment): an output gets, from each input,
/// the share α_s of the input's entries it received of x̃_s (shallow) or q_t (deep) probes.
/// `contributed[s]` = entries of input s written into this output.
pub(crate) fn inherit(inputs: &[InheritInput], contributed: &[u64]) -> (f64, f64) {
    let deep_probes: f64 = inputs.iter().filter(|i| i.deep).map(|i| i.estimate.probes).sum();
    let mut probes = 0.0;
    let mut found = 0.0;
    for (s, input) in inputs.iter().enumerate() {
        let alpha = if input.entries == 0 { 0.0 } else { contributed[s] as f64 / input.entries as f64 };
        let e = input.estimate;
        let q = if input.deep { e.probes } else { (e.probes - deep_probes).max(e.found) };
        probes += alpha * q;
        found += alpha * e.found;
    }
    (probes, found.min(probes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_keeps_the_last_w_probes_and_counts_the_rest() {
        let mut s = FileStats::new(0, 0.0, 0.0);
        for seq in 1..=10 {
            s.record(seq, seq % 2 == 0, 4);
        }
        assert_eq!(s.window_len(), 4);
        assert_eq!(s.older_probes, 6.0);
        assert_eq!(s.older_found, 3.0); // 2, 4, 6
        assert_eq!(s.newest_and_oldest(), Some((10, 7)));
        assert_eq!(s.found_bits.count_ones(), 2); // 8, 10
        assert_eq!((s.accesses, s.found), (10, 5));
    }

    #[test]
    fn steady_probe_rate_is_estimated_exactly() {
        // A file probed by every 10th lookup since time 0, window 64: q̂ = now/10.
        let mut s = FileStats::new(0, 0.0, 0.0);
        for i in 1..=500u64 {
            s.record(i * 10, i % 4 == 0, 64);
        }
        let e = s.estimate(5000);
        assert!((e.probes - 500.0).abs() < 1.0, "{e:?}");
        assert!((e.found / e.probes - 0.25).abs() < 0.02, "{e:?}");
    }

    #[test]
    fn unprobed_file_reports_its_inheritance() {
        let s = FileStats::new(100, 40.0, 10.0);
        assert_eq!(s.estimate(200), Estimate { probes: 40.0, found: 10.0, empty: 30.0 });
    }

    #[test]
    fn inheritance_counts_shallow_empty_probes_once() {
        // One shallow file (q 100, x 10) over one deep file (q 95, x 30): only the shallow file's
        // found probes are new, the corner case gives max(100 − 95, 10) = 10.
        let est = |q: f64, x: f64| Estimate { probes: q, found: x, empty: q - x };
        let inputs = [
            InheritInput { estimate: est(100.0, 10.0), deep: false, entries: 10 },
            InheritInput { estimate: est(95.0, 30.0), deep: true, entries: 100 },
        ];
        let (q, x) = inherit(&inputs, &[10, 100]);
        assert_eq!((q, x), (105.0, 40.0));
        let (q, _) = inherit(&inputs, &[5, 50]);
        assert_eq!(q, 52.5);
    }
}

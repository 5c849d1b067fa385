//! What lookups cost on the level-granular replay's runs at one moment (`Sim::lookup_costs`).

use lsm_core::mnemosyne::skip_filter;

use super::{Run, Sim};

impl Sim<'_> {
    /// Expected I/O of a non-zero-result lookup, a zero-result lookup and a range lookup now, with
    /// `now` writes done (the buffer holds `[buffer_lo, now)`).
    pub(super) fn lookup_costs(&self, now: f64, range_entries_per_key: f64) -> [f64; 3] {
        let runs = self.probe_order();
        let inserted = self.writes.inserted_before(now);
        let bins = self.writes.popularity.bins(inserted);
        // Updates since each run's start (and the buffer's): every run born before the run phase
        // has seen all of them, so one exp per bin serves all those runs.
        let u_all = self.writes.updates_in(0.0, now);
        let u_of = |seq: f64| self.writes.updates_in(seq, now);
        let u_buffer = u_of(self.buffer_lo);
        let u_runs: Vec<f64> = runs.iter().map(|r| u_of(r.lo)).collect();
        // Probe cost before each run: the false positives of the runs probed ahead of it.
        // With Mnemosyne's C known, a lookup skips the filter of a run Mnemosyne would give none
        // (mnemosyne::skip_filter) and reads its page.
        let log_c = self.mnemosyne_log_c.get();
        let skipped = |r: &Run| log_c.is_some() && skip_filter(r.entries, self.empty_probe_rate(r, now), log_c);
        let fprs: Vec<f64> = runs.iter().map(|r| if skipped(r) { 1.0 } else { r.fpr() } * r.coverage).collect();
        let ahead: Vec<f64> = fprs.iter().scan(0.0, |acc, f| Some(std::mem::replace(acc, *acc + f))).collect();
        // Runs that start no later than the runs probed before them (always, with merges by level):
        // a key's chance to be found by a run then only grows down the probe order.
        let time_ordered =
            runs.windows(2).all(|w| w[1].lo <= w[0].lo) && runs.first().is_none_or(|r| r.lo <= self.buffer_lo);
        let mut existing = 0.0;
        let mut mass = 0.0;
        let hits_all = self.writes.hits(u_all);
        for (b, &hit_all) in bins.iter().zip(hits_all.iter()) {
            let m = b.lookup_p * b.count;
            mass += m;
            // P(a key's newest version was written at or after `seq`), with u updates since.
            let newer_than = |seq: f64, u: f64| -> f64 {
                let hit = if u == u_all { hit_all } else { b.hit(u) };
                self.writes.newest_since(b, seq, inserted, hit)
            };
            let mut upper = newer_than(self.buffer_lo, u_buffer);
            let mut cost = 0.0;
            for ((r, above), &u) in runs.iter().zip(&ahead).zip(&u_runs) {
                if upper >= 1.0 && time_ordered {
                    // Every key of the bin was found above; older runs add exactly nothing.
                    break;
                }
                let at_or_after_lo = newer_than(r.lo, u);
                // Not `.max(0.0)`: in wasm that is a call to `fmax` (NaN rules), in the hottest loop.
                let found_here = at_or_after_lo - upper;
                if found_here > 0.0 {
                    cost += found_here * (1.0 + above);
                }
                upper = at_or_after_lo;
            }
            existing += m * cost;
        }
        let existing = if mass > 0.0 { existing / mass } else { 0.0 };
        let zero: f64 = fprs.iter().sum();
        // The seek reads the page whose fence precedes the start; the first key at or after the
        // start is on the next page when the start falls after that page's last key (1 in b);
        // the scan then crosses a page boundary once per b keys it steps over.
        // A run whose tables leave a hole at the range's start is not read at all.
        let range: f64 = runs
            .iter()
            .map(|r| r.coverage * (1.0 + 1.0 / self.per_page) + r.entries * range_entries_per_key / self.per_page)
            .sum();
        [zero, existing, range]
    }
}

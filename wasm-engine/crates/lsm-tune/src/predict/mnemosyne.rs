//! Mnemosyne's filters, predicted: the statistics the engine will have gathered for each run
//! (its empty probes per lookup) and the sizing the engine gives a new run from them.

use lsm_core::allocation::LN2_SQ;
use lsm_core::math::ln;
use lsm_core::mnemosyne::{self, FileWeight};

use super::{Run, Sim};

impl Sim<'_> {
    /// Mnemosyne's statistics, predicted: the lookups per lookup made that probe `run` and find
    /// nothing there, with `now` writes done: every zero-result lookup whose key its tables span,
    /// and every non-zero-result lookup whose key's newest version is older than the run.
    pub(super) fn empty_probe_rate(&self, run: &Run, now: f64) -> f64 {
        let inserted = self.writes.inserted_before(now);
        let u = self.writes.updates_in(run.lo, now);
        // A run born in the load has seen every update of the run: the remembered hit chances serve.
        let all_updates = u == self.writes.updates_in(0.0, now);
        let remembered = if all_updates { Some(self.writes.hits(u)) } else { None };
        let (mut older, mut mass) = (0.0, 0.0);
        for (i, b) in self.writes.popularity.bins(inserted).iter().enumerate() {
            let m = b.lookup_p * b.count;
            let hit = remembered.as_ref().map_or_else(|| b.hit(u), |h| h[i]);
            older += m * (1.0 - self.writes.newest_since(b, run.lo, inserted, hit));
            mass += m;
        }
        let older = if mass > 0.0 { older / mass } else { 0.0 };
        self.lookup_mix[0] * run.coverage + self.lookup_mix[1] * older
    }

    /// Mnemosyne's sort-and-search over every staying run and the new one (`entries`, from write
    /// `lo`), as `filter_sizing::mnemosyne_bits` does over files; None when it cannot size the
    /// new run (no lookups reach it, or no run can be filtered). Remembers the solution's C for
    /// the lookups' skip rule.
    pub(super) fn mnemosyne_bits(&self, entries: f64, lo: f64, consumed: &[(usize, usize)]) -> Option<f64> {
        let now = self.now;
        let mut files: Vec<FileWeight> = self
            .levels
            .iter()
            .enumerate()
            .flat_map(|(l, runs)| runs.iter().enumerate().map(move |(i, r)| (l, i, r)))
            .filter(|&(l, i, _)| !consumed.contains(&(l, i)))
            .map(|(_, _, r)| FileWeight { entries: r.entries, empty_probes: self.empty_probe_rate(r, now) })
            .collect();
        let new_run = Run { lo, hi: now, entries, bits_per_key: 0.0, coverage: 1.0 };
        let z = self.empty_probe_rate(&new_run, now);
        files.push(FileWeight { entries, empty_probes: z });
        let budget = self.config.filter.bits_per_key * files.iter().map(|f| f.entries).sum::<f64>();
        let solution = mnemosyne::allocate(&files, budget, 1.0);
        self.mnemosyne_log_c.set(solution.log_c);
        match solution.log_c {
            Some(c) if z > 0.0 => Some(mnemosyne::build_bits_per_key(
                -(ln(entries / z) + c) / LN2_SQ,
                lsm_core::config::BITS_PER_KEY_RANGE.1,
            )),
            _ => None,
        }
    }
}

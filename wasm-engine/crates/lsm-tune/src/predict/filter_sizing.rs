//! The filters the predictor gives each new run: the engine's own sizing policy
//! (`lsm_core::filter_budget`) asked with the replayed tree, Monkey's answers remembered.

use std::hash::{Hash, Hasher};

use rustc_hash::FxHasher;

use lsm_core::filter_budget;
use lsm_core::monkey_birth::monkey_bits_at_birth;

use super::Sim;

/// The deepest level, the new run's level, the new run and the deepest level's runs (bytes, as
/// bits), remembered under their hash with the answer.
pub(super) struct MonkeyAnswer {
    deepest: usize,
    dest_level: usize,
    bytes: u64,
    deepest_runs: Vec<u64>,
    bits: f64,
}

impl Sim<'_> {
    /// Filter bits per key for a run of `entries` born at `dest_level`, as the engine sizes it
    /// (`lsm_core::filter_budget`, the same policy). `lo`: where the new run's interval of the write
    /// sequence starts (for Mnemosyne's statistics).
    pub(super) fn bits_for(&self, dest_level: usize, entries: f64, lo: f64, consumed: &[(usize, usize)]) -> f64 {
        let is_consumed = |l: usize, i: usize| consumed.contains(&(l, i));
        let live = |l: usize| self.levels[l].iter().enumerate().filter(move |&(i, _)| !is_consumed(l, i));
        let unspent = || {
            let (spent, held) = (0..self.levels.len())
                .flat_map(|l| live(l).map(|(_, r)| r))
                .fold((0.0, 0.0), |(s, h), r| (s + r.bits_per_key * r.entries, h + r.entries));
            filter_budget::unspent_bits_per_key(self.config.filter.bits_per_key, spent, held, entries)
        };
        let monkey = || {
            let deepest = (0..self.levels.len()).rev().find(|&l| live(l).next().is_some()).map_or(0, |l| l + 1);
            let deepest = deepest.max(dest_level);
            let others = self
                .levels
                .get(deepest - 1)
                .into_iter()
                .flat_map(move |_| live(deepest - 1))
                .map(|(_, r)| r.entries * self.entry_bytes);
            self.monkey_bits(deepest, dest_level, others, entries * self.entry_bytes)
        };
        // Mnemosyne sizes from lookup statistics, which only the run phase has.
        let statistics = || if self.counting { self.mnemosyne_bits(entries, lo, consumed) } else { None };
        filter_budget::allocated_bits(self.config, dest_level, unspent, monkey, statistics)
    }

    /// `monkey_bits_at_birth`, remembered: between two merges into the deepest level, every
    /// flush (and every merge into the same level) asks the same question. A question is
    /// looked up by its hash and compared in full, without building it (most are answered).
    fn monkey_bits(
        &self,
        deepest: usize,
        dest_level: usize,
        deepest_runs: impl Iterator<Item = f64> + Clone,
        bytes: f64,
    ) -> f64 {
        // Above the deepest level the new run's size does not enter the answer (its level counts
        // at design size), and a growing level-1 run would otherwise make every flush a new question.
        let bytes = if dest_level < deepest { 0.0 } else { bytes };
        let mut h = FxHasher::default();
        (deepest, dest_level, bytes.to_bits()).hash(&mut h);
        deepest_runs.clone().for_each(|b| b.to_bits().hash(&mut h));
        let key = h.finish();
        if let Some(a) = self.monkey_memo.borrow().get(&key)
            && a.deepest == deepest
            && a.dest_level == dest_level
            && a.bytes == bytes.to_bits()
            && a.deepest_runs.iter().copied().eq(deepest_runs.clone().map(f64::to_bits))
        {
            return a.bits;
        }
        let runs: Vec<f64> = deepest_runs.collect();
        let bits = monkey_bits_at_birth(self.config, deepest, dest_level, &runs, bytes);
        let answer = MonkeyAnswer {
            deepest,
            dest_level,
            bytes: bytes.to_bits(),
            deepest_runs: runs.iter().map(|b| b.to_bits()).collect(),
            bits,
        };
        self.monkey_memo.borrow_mut().insert(key, answer);
        bits
    }
}

//! The workload's write sequence as the predictor needs it: which keys the writes of an interval
//! touch, and when a buffer of a given size fills. Both depend on the workload alone, never on
//! the design, so one `WriteSequence` serves every design a `Predictor` prices and remembers what
//! it computed (designs with the same buffer flush at the same writes and merge the same
//! intervals; recomputing them was most of the tuner's time).

use std::cell::RefCell;

use rustc_hash::FxHashMap;
use std::rc::Rc;

use super::popularity::{Bin, Popularity};
use lsm_core::workload::Workload;

pub(super) struct WriteSequence {
    /// Writes of the load phase (all inserts).
    pub(super) preload: f64,
    /// The write that ends the run phase.
    pub(super) end: f64,
    /// Shares of the run's writes that insert, and that update (or delete) an existing key.
    insert_share: f64,
    update_share: f64,
    pub(super) popularity: Popularity,
    distinct: RefCell<FxHashMap<(u64, u64), f64>>,
    flushes: RefCell<FxHashMap<u64, Rc<[f64]>>>,
    hits: RefCell<FxHashMap<u64, Rc<[f64]>>>,
}

impl WriteSequence {
    pub(super) fn new(workload: &Workload, popularity: Popularity) -> WriteSequence {
        let m = &workload.mix;
        let writes = m.insert + m.update + m.delete;
        let preload = workload.preload.entries as f64;
        let (insert_share, update_share) =
            if writes > 0.0 { (m.insert / writes, (m.update + m.delete) / writes) } else { (0.0, 0.0) };
        WriteSequence {
            preload,
            end: preload + workload.operations as f64 * writes,
            insert_share,
            update_share,
            popularity,
            distinct: RefCell::default(),
            flushes: RefCell::default(),
            hits: RefCell::default(),
        }
    }

    /// Each bin's `hit(u)`, in bin order, remembered: every design's lookups are priced at the
    /// same moments of the run, so each asks for the same u (the run's updates so far).
    pub(super) fn hits(&self, u: f64) -> Rc<[f64]> {
        let key = u.to_bits();
        if let Some(h) = self.hits.borrow().get(&key) {
            return Rc::clone(h);
        }
        let h: Rc<[f64]> = self.popularity.bins(0.0).iter().map(|b| b.hit(u)).collect();
        self.hits.borrow_mut().insert(key, Rc::clone(&h));
        h
    }

    /// Keys inserted before write `seq`.
    pub(super) fn inserted_before(&self, seq: f64) -> f64 {
        if seq <= self.preload { seq } else { self.preload + (seq - self.preload) * self.insert_share }
    }

    /// Updates among writes `[lo, hi)`.
    pub(super) fn updates_in(&self, lo: f64, hi: f64) -> f64 {
        (hi.min(f64::MAX) - lo.max(self.preload)).max(0.0) * self.update_share
    }

    /// Share of a bin's keys inserted at or after write `seq`, when `inserted` keys exist.
    pub(super) fn share_inserted_since(&self, bin: &Bin, seq: f64, inserted: f64) -> f64 {
        let idx = self.inserted_before(seq);
        if bin.scattered {
            return if inserted > 0.0 { ((inserted - idx) / inserted).clamp(0.0, 1.0) } else { 0.0 };
        }
        ((bin.first + bin.count - idx) / bin.count).clamp(0.0, 1.0)
    }

    /// P(the newest version of a key of `bin` was written at or after write `seq`): it was
    /// inserted since, or one of the updates since hit it (chance `hit`, from `Bin::hit`).
    pub(super) fn newest_since(&self, bin: &Bin, seq: f64, inserted: f64, hit: f64) -> f64 {
        let since = self.share_inserted_since(bin, seq, inserted);
        since + (1.0 - since) * hit
    }

    /// Distinct keys written in `[lo, hi)`: the inserts, and older keys updated at least once.
    pub(super) fn keys_in(&self, lo: f64, hi: f64) -> f64 {
        let inserts = self.inserted_before(hi) - self.inserted_before(lo);
        if self.updates_in(lo, hi) <= 0.0 {
            return inserts;
        }
        let key = (lo.to_bits(), hi.to_bits());
        if let Some(&k) = self.distinct.borrow().get(&key) {
            return k;
        }
        let k = self.count_keys(lo, hi);
        self.distinct.borrow_mut().insert(key, k);
        k
    }

    /// `keys_in`, computed (the flush search probes writes no run ends at: not worth remembering).
    fn count_keys(&self, lo: f64, hi: f64) -> f64 {
        let inserts = self.inserted_before(hi) - self.inserted_before(lo);
        let u = self.updates_in(lo, hi);
        if u <= 0.0 {
            return inserts;
        }
        let inserted = self.inserted_before(hi);
        let updated: f64 = self
            .popularity
            .bins(inserted)
            .iter()
            .map(|b| b.count * (1.0 - self.share_inserted_since(b, lo, inserted)) * b.hit(u))
            .sum();
        inserts + updated
    }

    /// The writes at which a buffer of `buffer_entries` distinct keys fills: every
    /// `buffer_entries` writes of the load (inserts only), then wherever the run phase's distinct
    /// keys fill it.
    pub(super) fn flushes(&self, buffer_entries: f64) -> Rc<[f64]> {
        let key = buffer_entries.to_bits();
        if let Some(f) = self.flushes.borrow().get(&key) {
            return Rc::clone(f);
        }
        let mut at = Vec::new();
        let mut seq = buffer_entries;
        while seq <= self.preload {
            at.push(seq);
            seq += buffer_entries;
        }
        let mut lo = at.last().copied().unwrap_or(0.0);
        while let Some(next) = self.next_flush(lo, buffer_entries) {
            at.push(next);
            lo = next;
        }
        let at: Rc<[f64]> = at.into();
        self.flushes.borrow_mut().insert(key, Rc::clone(&at));
        at
    }

    /// The writes at which a buffer flushed by its log (`buffer_trigger: logged`) fills: every
    /// `buffer_entries` writes, overwrites included, from the first write to the last.
    pub(super) fn logged_flushes(&self, buffer_entries: f64) -> Rc<[f64]> {
        let count = (self.end / buffer_entries).floor() as usize;
        (1..=count).map(|k| k as f64 * buffer_entries).collect()
    }

    /// The write at which a buffer that opened at write `lo` next fills, if before the end.
    fn next_flush(&self, lo: f64, buffer_entries: f64) -> Option<f64> {
        let end = self.end;
        if self.count_keys(lo, end) < buffer_entries {
            return None;
        }
        // Distinct keys grow with writes, smoothly and concavely: false position (Illinois) finds
        // the write that fills the buffer in a few evaluations; a flush placed within 1/10,000 of
        // the buffer's writes (or one write) is as good as exact for the costs.
        let f = |w: f64| self.count_keys(lo, w) - buffer_entries;
        let (mut a, mut b) = (lo + buffer_entries - 1.0, end);
        let (mut fa, mut fb) = (f(a), f(b));
        if fa >= 0.0 {
            return Some(a);
        }
        let mut side = 0;
        for _ in 0..100 {
            let tolerance = ((b - lo) * 1e-4).max(1.0);
            if b - a <= tolerance {
                break;
            }
            let w = (a - fa * (b - a) / (fb - fa)).clamp(a + tolerance / 2.0, b - tolerance / 2.0);
            let fw = f(w);
            if fw >= 0.0 {
                b = w;
                fb = fw;
                if side == 1 {
                    fa /= 2.0;
                }
                side = 1;
            } else {
                a = w;
                fa = fw;
                if side == -1 {
                    fb /= 2.0;
                }
                side = -1;
            }
        }
        Some(b.ceil())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsm_workload::ycsb::{core_workload, from_properties};

    fn sequence(letter: char) -> WriteSequence {
        let text = core_workload(letter, 100_000, 200_000).expect("core workload");
        let w = from_properties(&text, "workloada").expect("properties").workload;
        let keys = w.preload.entries as f64 + w.operations as f64 * w.mix.insert;
        WriteSequence::new(&w, Popularity::of(&w, keys, 64.0, 1.06))
    }

    #[test]
    fn a_remembered_interval_counts_what_a_computed_one_does() {
        let s = sequence('a');
        for (lo, hi) in [(0.0, 50_000.0), (90_000.0, 150_000.0), (100_000.0, 200_000.0)] {
            let computed = s.count_keys(lo, hi);
            assert_eq!(s.keys_in(lo, hi), computed);
            assert_eq!(s.keys_in(lo, hi), computed, "second call, from memory");
        }
        // Updates of a Zipf workload hit hot keys again and again: far fewer keys than writes.
        let k = s.keys_in(100_000.0, 200_000.0);
        assert!(k > 1_000.0 && k < 100_000.0, "distinct keys {k}");
    }

    #[test]
    fn flushes_fall_where_the_buffer_fills() {
        let s = sequence('a');
        let buffer = 4_000.0;
        let at = s.flushes(buffer);
        // The load: every 4,000 inserts; then each run-phase flush where its distinct keys reach 4,000.
        let (load, run) = at.split_at(at.iter().filter(|&&f| f <= s.preload).count());
        assert_eq!(load.len(), 25);
        let mut lo = 100_000.0;
        for &f in run {
            let keys = s.count_keys(lo, f);
            assert!((keys - buffer).abs() <= 1.0 + 1e-4 * (f - lo), "flush at {f}: {keys} keys");
            lo = f;
        }
        assert!(s.count_keys(lo, s.end) < buffer, "no flush missed before the end");
        assert!(Rc::ptr_eq(&at, &s.flushes(buffer)), "the schedule is remembered");
        // Flushed by its log, the buffer fills every 4,000 writes whatever they overwrite: the
        // same 25 flushes in the load, more in the run (its updates hit hot keys again and again).
        let logged = s.logged_flushes(buffer);
        assert_eq!(logged.len(), (s.end / buffer) as usize);
        assert_eq!(logged.iter().filter(|&&f| f <= s.preload).count(), 25);
        assert!(logged.len() > at.len(), "{} logged flushes vs {} live", logged.len(), at.len());
    }
}

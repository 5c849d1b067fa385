//! How many filter bits a new table gets, under each allocation: explicit per level, uniform,
//! Monkey (optimal for the tree the design says the data fills) or Mnemosyne (optimal for the
//! lookups each file has seen). The tree never spends more than `bits_per_key × entries`.

use rustc_hash::FxHashSet;

use crate::engine::Engine;
use crate::filter::FilterSpec;
use crate::job::Job;
use crate::run::Run;
use lsm_core::allocation::LN2_SQ;
use lsm_core::config::{Allocation, BITS_PER_KEY_RANGE, FilterKind};
use lsm_core::filter_kinds::structure_for;
use lsm_core::math::ln;
use lsm_core::mnemosyne::{self, FileWeight};
use lsm_core::monkey_birth::monkey_bits_at_birth;

impl Engine {
    /// The filter a new table of `entries` gets (z: its estimated empty probes, for Mnemosyne).
    pub(crate) fn filter_spec(&mut self, job: &Job, entries: u64, entry_bytes: u64, empty_probes: f64) -> FilterSpec {
        let f = &self.config.filter.clone();
        let modules = if f.kind == FilterKind::Modular { f.modules } else { 1 };
        let bits_per_key = match f.allocation {
            Allocation::Explicit => self.config.level(job.dest_level).bits_per_key.unwrap_or(0.0),
            Allocation::Uniform => f.bits_per_key,
            // Re-optimised Monkey sizes new runs the same way: sized for the runs that exist, a
            // last-level run born while the levels above are empty takes nearly the whole budget,
            // and the runs born after it are starved unless a rebuild shrinks it, which a
            // write-heavy phase never pays for (mixed.json: 0.33 I/O per zero-result lookup against
            // 0.24 sized for the design's tree). Re-optimisation then moves them when lookups pay.
            Allocation::Monkey => self.monkey_bits(job, entry_bytes).min(self.unspent_bits_per_key(job, entries)),
            Allocation::Mnemosyne => self
                .mnemosyne_bits(job, entries, entry_bytes, empty_probes)
                .min(self.unspent_bits_per_key(job, entries)),
        };
        let structure = structure_for(f, job.flush, job.dest_level);
        FilterSpec { bits_per_key: bits_per_key.clamp(0.0, BITS_PER_KEY_RANGE.1), modules, structure }
    }

    /// Bits per key left for a new table of `entries` once the filters that stay are paid for:
    /// older filters keep the bits they were built with, so the optimal share of the budget is
    /// capped by what they leave, and the tree never spends more than `bits_per_key × entries`.
    fn unspent_bits_per_key(&self, job: &Job, entries: u64) -> f64 {
        let consumed: FxHashSet<u64> = job.inputs.iter().map(|t| t.id).collect();
        let staying = self
            .levels
            .iter()
            .flatten()
            .flat_map(|r| r.tables.iter())
            .chain(job.outputs.iter())
            .filter(|t| !consumed.contains(&t.id));
        let (spent, held) = staying.fold((0.0, 0.0), |(b, n), t| (b + t.filter_bits() as f64, n + t.entries as f64));
        let budget = self.config.filter.bits_per_key * (held + entries as f64);
        ((budget - spent) / entries.max(1) as f64).max(0.0)
    }

    /// Monkey: the optimal bits for the destination level in the tree the design says this data
    /// fills — every level above the deepest holding its runs at their design size, the deepest
    /// holding the data it really has. Sizing by the design rather than by the shape of the
    /// moment keeps the tree within its budget: a last-level run rebuilt while the levels above
    /// happen to be empty would otherwise take the whole budget for itself. The upper levels
    /// count as present `UPPER_LEVEL_OCCUPANCY` of the time (see `lsm_core::monkey_birth`).
    fn monkey_bits(&self, job: &Job, entry_bytes: u64) -> f64 {
        let consumed: FxHashSet<u64> = job.inputs.iter().map(|t| t.id).collect();
        let live =
            |run: &Run| -> u64 { run.tables.iter().filter(|t| !consumed.contains(&t.id)).map(|t| t.entry_bytes).sum() };
        let deepest = self.levels.iter().rposition(|l| l.iter().any(|r| live(r) > 0)).map_or(0, |i| i + 1);
        let deepest = deepest.max(job.dest_level);
        let outputs: u64 = job.outputs.iter().map(|t| t.entry_bytes).sum::<u64>() + entry_bytes;
        let mut dest_bytes = outputs as f64;
        let mut others = Vec::new();
        for run in self.levels.get(deepest - 1).into_iter().flatten() {
            if deepest == job.dest_level && run.id == job.dest_run {
                dest_bytes += live(run) as f64;
            } else if live(run) > 0 {
                others.push(live(run) as f64);
            }
        }
        monkey_bits_at_birth(&self.config, deepest, job.dest_level, &others, dest_bytes)
    }

    /// Mnemosyne: sort-and-search over every live file's estimated empty probes (§A.4.8).
    fn mnemosyne_bits(&mut self, job: &Job, entries: u64, entry_bytes: u64, empty_probes: f64) -> f64 {
        let consumed: FxHashSet<u64> = job.inputs.iter().map(|t| t.id).collect();
        let mut files: Vec<FileWeight> = self
            .levels
            .iter()
            .flatten()
            .flat_map(|r| r.tables.iter())
            .chain(job.outputs.iter())
            .filter(|t| !consumed.contains(&t.id))
            .map(|t| FileWeight {
                entries: t.entries as f64,
                empty_probes: t.stats.borrow().estimate(self.lookups).empty,
            })
            .collect();
        files.push(FileWeight { entries: entries as f64, empty_probes });
        let budget = self.config.filter.bits_per_key * files.iter().map(|f| f.entries).sum::<f64>();
        let solution = mnemosyne::allocate(&files, budget, 1.0);
        self.mnemosyne_log_c = solution.log_c;
        match solution.log_c {
            Some(c) if empty_probes > 0.0 => {
                mnemosyne::build_bits_per_key(-(ln(entries as f64 / empty_probes) + c) / LN2_SQ, BITS_PER_KEY_RANGE.1)
            }
            // No statistics yet: fall back to Monkey's workload-agnostic split, capped at the average.
            _ => self.monkey_bits(job, entry_bytes).min(self.config.filter.bits_per_key),
        }
    }
}

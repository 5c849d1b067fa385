//! The tree as the UI and reports see it: levels, runs, entries and filters.

use serde::{Deserialize, Serialize};

use crate::run::Run;

/// One run as the UI and reports see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunInfo {
    pub id: u64,
    pub entries: u64,
    pub entry_bytes: u64,
    pub file_bytes: u64,
    pub data_pages: u64,
    pub filter_bits: u64,
    pub filter_hashes: u32,
    pub bits_per_key: f64,
    /// Theoretical FPR of the filter actually built (integer-k formula); 1 without a filter.
    pub filter_fpr: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevelInfo {
    pub level: usize,
    pub capacity_bytes: f64,
    pub max_runs: u32,
    pub runs: Vec<RunInfo>,
}

/// The tree as it stands: buffer fill, levels, runs and their filters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TreeShape {
    pub buffer_entries: u64,
    pub buffer_bytes: u64,
    pub buffer_capacity_bytes: u64,
    pub levels: Vec<LevelInfo>,
    /// A merge is under way (only when merges are stepped by the caller).
    pub merging_level: Option<usize>,
}

impl TreeShape {
    /// Expected I/O of a zero-result point lookup with this tree: the sum of its runs' FPRs.
    pub fn zero_result_cost(&self) -> f64 {
        self.levels.iter().flat_map(|l| &l.runs).map(|r| r.filter_fpr).sum()
    }

    pub fn run_count(&self) -> usize {
        self.levels.iter().map(|l| l.runs.len()).sum()
    }

    pub fn entries(&self) -> u64 {
        self.levels.iter().flat_map(|l| &l.runs).map(|r| r.entries).sum::<u64>() + self.buffer_entries
    }
}

impl RunInfo {
    pub fn of(r: &Run) -> RunInfo {
        RunInfo {
            id: r.id,
            entries: r.entries,
            entry_bytes: r.entry_bytes,
            file_bytes: r.file_bytes,
            data_pages: r.data_pages(),
            filter_bits: r.bloom.bits(),
            filter_hashes: r.bloom.hashes(),
            bits_per_key: if r.entries == 0 { 0.0 } else { r.bloom.bits() as f64 / r.entries as f64 },
            filter_fpr: r.filter_fpr(),
        }
    }
}

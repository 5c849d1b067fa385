//! Paced merging: each write does the share of the pending merge work that `lsm_core::pacing`
//! gives it, and stalls (slows down or stops) at RocksDB's thresholds. The merges themselves are
//! `maintenance`'s bounded steps; this module only decides when they run.
//!
//! A full buffer freezes (lookups and scans still read it) and its flush is paced like a merge.
//! A flush always starts from a quiet tree: whatever the last flush and the merges it started
//! still owe is paid first (counted as a `flush_wait`). So the merges are the ones that would run if each
//! ran to completion right after its flush — the same trees, the same bytes written per level as
//! `Merging::Inline` — only later, spread over the writes that fill the next buffer.

use crate::engine::Engine;
use crate::merging::{Merging, WriteStallState};
use crate::run::Run;
use lsm_core::compaction;
use lsm_core::config::Granularity;
use lsm_core::error::Result;
use lsm_core::pacing::{self, Debt, Gear, LevelLoad, SLICE_PAGES, SLOWDOWN_SLICE_PAGES, Stall};

impl Engine {
    /// Where writes stand against the `write_stalls` thresholds now: level 1's files, the pending
    /// merge bytes and the verdict the next write gets (the same figures `pace_write` uses).
    pub fn write_stall(&mut self) -> WriteStallState {
        // Merges stepped by hand (`step`) do not mark the pacer's figures stale: refresh them.
        self.pace.stale = true;
        let debt = self.debt();
        WriteStallState {
            stall: pacing::stall(&debt, &self.config.write_stalls),
            paced: self.auto_compact && self.merging != Merging::Inline,
            merges_pending: match self.merging {
                Merging::Background => self.background_jobs() > 0,
                _ => self.pace.pending && self.auto_compact && self.paced_mode(),
            },
            level0_files: debt.level0_files,
            pending_bytes: debt.pending_bytes,
            slice_pages: SLICE_PAGES,
            slowdown_slice_pages: SLOWDOWN_SLICE_PAGES,
            merge_due_level: if self.job.is_some() || self.background_jobs() > 0 {
                None
            } else {
                self.merge_due_level().map(|l| l as u32)
            },
        }
    }

    /// Writes pace the merges: `Merging::Paced`, or `Background` without a merger.
    pub(crate) fn paced_mode(&self) -> bool {
        self.merging == Merging::Paced || (self.merging == Merging::Background && self.background.is_none())
    }

    /// Pace one write of `write_bytes` (before it enters the buffer): merge its share, or stall.
    pub(crate) fn pace_write(&mut self, write_bytes: u64) -> Result<()> {
        if !self.pace.pending || !self.auto_compact || !self.paced_mode() {
            return Ok(());
        }
        let debt = self.debt();
        let stall = pacing::stall(&debt, &self.config.write_stalls);
        let gear = Gear {
            pending_bytes: debt.pending_bytes,
            room_bytes: self.buffer_room(),
            write_bytes,
            page_bytes: u64::from(self.config.page_bytes),
        };
        let pages = pacing::share(&gear, stall);
        if stall == Stall::None {
            return self.pace_step(pages).map(|_| ());
        }
        let started = self.stall_clock.map(|now| now());
        let mut merged = 0;
        match stall {
            Stall::Stop => {
                self.stats.stalls.stops += 1;
                // Until the debt is back under the stop thresholds, or nothing is left to merge.
                while self.pace_step(SLICE_PAGES)? {
                    merged += SLICE_PAGES;
                    if pacing::stall(&self.debt(), &self.config.write_stalls) != Stall::Stop {
                        break;
                    }
                }
            }
            _ => {
                self.stats.stalls.slowdowns += 1;
                self.pace_step(pages)?;
                merged += pages;
            }
        }
        self.stats.stalls.pages_merged += merged;
        self.add_stalled_since(started);
        Ok(())
    }

    /// Before a flush in paced mode: pay what the last flush's merges still owe, so the flush
    /// finds a quiet tree. Counted as a stall when anything was owed.
    pub(crate) fn settle_before_flush(&mut self) -> Result<()> {
        let owed = self.job.is_some() || (self.pace.pending && self.auto_compact);
        if !owed || !self.paced_mode() || !self.auto_compact {
            return self.finish_job();
        }
        let started = self.stall_clock.map(|now| now());
        let before = self.merge_pages_so_far();
        self.finish_job()?;
        self.maintain()?;
        self.stats.stalls.flush_waits += 1;
        self.stats.stalls.pages_merged += self.merge_pages_so_far().saturating_sub(before);
        self.add_stalled_since(started);
        Ok(())
    }

    pub(crate) fn add_stalled_since(&mut self, started: Option<f64>) {
        if let (Some(start), Some(now)) = (started, self.stall_clock) {
            self.stats.stalls.stalled_ns += (now() - start).max(0.0) as u64;
        }
    }

    /// Output pages every flush and merge so far has written (for counting what a stall merged).
    fn merge_pages_so_far(&self) -> u64 {
        self.stats.levels.iter().map(|l| l.writes.data_pages_written).sum()
    }

    /// One step of at least a page; returns whether merges remain.
    fn pace_step(&mut self, pages: u64) -> Result<bool> {
        if pages == 0 {
            return Ok(true);
        }
        let had_job = self.job.is_some();
        let more = self.step(pages)?;
        if !had_job || self.job.is_none() {
            self.pace.stale = true;
        }
        Ok(more)
    }

    /// Bytes the buffer takes before the write that flushes it (by the configured trigger, in the
    /// live entry bytes the gear divides: an estimate for the other triggers).
    fn buffer_room(&self) -> u64 {
        self.config.buffer_bytes.saturating_sub(self.memtable.bytes())
    }

    /// What the tree owes now: the cached level figures, with the current job's progress.
    fn debt(&mut self) -> Debt {
        if self.pace.stale {
            self.pace.debt = self.level_debt();
            let frozen = self.immutable.as_ref().filter(|_| self.job.as_ref().is_some_and(|j| j.flush));
            self.pace.job_bytes = self.job.as_ref().map_or(0, |j| j.inputs.iter().map(|t| t.entry_bytes).sum::<u64>())
                + frozen.map_or(0, crate::memtable::Frozen::bytes);
            self.pace.stale = false;
        }
        let mut debt = self.pace.debt;
        if let Some(job) = &self.job {
            let read = job.merge.counters.pages_read.saturating_mul(u64::from(self.config.page_bytes));
            let remaining = self.pace.job_bytes.saturating_sub(read);
            // The job's inputs are still in the levels: count them once, as the job has them left.
            debt.pending_bytes = remaining + debt.pending_bytes.saturating_sub(self.pace.job_bytes);
        }
        if self.pace.pending {
            // Due merges the estimate does not see (a policy's own rule) still get a page a write.
            debt.pending_bytes = debt.pending_bytes.max(u64::from(self.config.page_bytes));
        }
        debt
    }

    /// Level-1 files and the pending merge bytes of the tree as it stands.
    pub(crate) fn level_debt(&self) -> Debt {
        let c = &self.config;
        let universal = c.compaction.universal.as_ref();
        let level1_files = self.levels.first().map_or(0, |l| l.iter().map(|r| r.tables.len() as u64).sum());
        let level0_files = match universal {
            // RocksDB counts sorted runs: level 0's files and each non-empty level below.
            Some(_) => level1_files + self.levels.iter().skip(1).filter(|l| !l.is_empty()).count() as u64,
            None => level1_files,
        };
        let level_bytes: Vec<u64> = self.levels.iter().map(|l| l.iter().map(Run::entry_bytes).sum()).collect();
        let dynamic = (c.compaction.dynamic_level_bytes && c.compaction.granularity == Granularity::File)
            .then(|| compaction::dynamic_levels(&level_bytes, c));
        let mut geometries = compaction::geometries(c);
        let loads: Vec<LevelLoad> = self
            .levels
            .iter()
            .zip(&level_bytes)
            .enumerate()
            .map(|(i, (runs, &bytes))| {
                let g = geometries.next();
                let max_runs = g.map_or(u32::MAX, |g| g.max_runs) as usize;
                let (capacity, over_run_limit) = match (universal, &dynamic) {
                    (Some(u), _) => {
                        (u64::MAX, i == 0 && level0_files >= u64::from(u.level0_file_num_compaction_trigger))
                    }
                    (None, Some(d)) => (d.target(i + 1), runs.len() > max_runs),
                    (None, None) => {
                        let cap = g.map_or(f64::INFINITY, |g| g.capacity);
                        (if cap.is_finite() { cap as u64 } else { u64::MAX }, runs.len() > max_runs)
                    }
                };
                LevelLoad { bytes, capacity, over_run_limit }
            })
            .collect();
        Debt { level0_files, pending_bytes: pacing::pending_compaction_bytes(&loads) }
    }
}

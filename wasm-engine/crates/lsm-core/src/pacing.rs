//! Paced merging and write stalls: how much merge work each write does, and when writes slow
//! down or stop, as pure functions of the tree's merge debt.
//!
//! The pacing is bLSM's "spring and gear" (Sears & Ramakrishnan, SIGMOD 2012) on the engine's
//! step-driven merges: the *gear* ties merge progress to the fill of the write buffer, so the merges
//! one flush started are done by the time the next flush needs a quiet tree: each write does
//! `HEADROOM ×` its share of the debt, in proportion to the bytes it adds to the buffer's
//! remaining room. The *spring* is the cap on one write's share (`SLICE_PAGES`): no write does more
//! than a small slice, and when the cap leaves debt unpaid it is RocksDB's write-stall thresholds
//! that decide whether writes slow down (a larger slice each) or stop (until the debt is back under
//! the stop threshold). The thresholds and their defaults are RocksDB 7.8's
//! (`include/rocksdb/advanced_options.h`).

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::range::check_integer;

/// Output pages one write may merge while writes are neither slowed down nor stopped.
pub const SLICE_PAGES: u64 = 16;
/// Output pages one write merges while writes are slowed down: the analogue of RocksDB's
/// `delayed_write_rate` (the writer pays for the merges it waits on).
pub const SLOWDOWN_SLICE_PAGES: u64 = 4 * SLICE_PAGES;
/// The gear pays the debt off in 1/`HEADROOM` of the buffer's remaining room, so a merge that
/// finishes and finds another one due (a cascade) still has room left before the next flush.
pub const HEADROOM: u64 = 2;

/// RocksDB's default `level0_slowdown_writes_trigger`.
pub const DEFAULT_LEVEL0_SLOWDOWN: u32 = 20;
/// RocksDB's default `level0_stop_writes_trigger`.
pub const DEFAULT_LEVEL0_STOP: u32 = 36;
/// RocksDB's default `soft_pending_compaction_bytes_limit`: 64 GiB.
pub const DEFAULT_SOFT_PENDING_BYTES: u64 = 64 << 30;
/// RocksDB's default `hard_pending_compaction_bytes_limit`: 256 GiB.
pub const DEFAULT_HARD_PENDING_BYTES: u64 = 256 << 30;
/// Allowed level-0 triggers, inclusive.
pub const LEVEL0_TRIGGER_RANGE: (u32, u32) = (1, 1 << 20);

/// When writes slow down and stop (JSON `write_stalls`; omitted: RocksDB's defaults). Level 0 is
/// the engine's level 1 (the flushed files); its file count is the tables it holds (with
/// universal compaction, RocksDB's sorted runs: level 1's tables and every non-empty level below).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields, default)]
pub struct WriteStallConfig {
    /// RocksDB's `level0_slowdown_writes_trigger`: with this many files in level 1, writes slow
    /// down. In [1, 2²⁰] and at most `level0_stop_writes_trigger`; default 20.
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub level0_slowdown_writes_trigger: u32,
    /// RocksDB's `level0_stop_writes_trigger`: with this many files in level 1, writes stop until
    /// merges bring it below. In [1, 2²⁰]; default 36.
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub level0_stop_writes_trigger: u32,
    /// RocksDB's `soft_pending_compaction_bytes_limit`: with an estimated merge debt of this many
    /// bytes, writes slow down; 0 is no limit; default 64 GiB.
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub soft_pending_compaction_bytes_limit: u64,
    /// RocksDB's `hard_pending_compaction_bytes_limit`: with this much debt, writes stop; 0 is no
    /// limit, else at least the soft limit (when that is set); default 256 GiB.
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub hard_pending_compaction_bytes_limit: u64,
}

impl Default for WriteStallConfig {
    fn default() -> Self {
        WriteStallConfig {
            level0_slowdown_writes_trigger: DEFAULT_LEVEL0_SLOWDOWN,
            level0_stop_writes_trigger: DEFAULT_LEVEL0_STOP,
            soft_pending_compaction_bytes_limit: DEFAULT_SOFT_PENDING_BYTES,
            hard_pending_compaction_bytes_limit: DEFAULT_HARD_PENDING_BYTES,
        }
    }
}

impl WriteStallConfig {
    /// Each field in its range; the error names it as `write_stalls.<name>`.
    pub fn validate(&self) -> Result<()> {
        let field = |name: &str| format!("write_stalls.{name}");
        let (lo, hi) = LEVEL0_TRIGGER_RANGE;
        for (name, v) in [
            ("level0_slowdown_writes_trigger", self.level0_slowdown_writes_trigger),
            ("level0_stop_writes_trigger", self.level0_stop_writes_trigger),
        ] {
            check_integer(&field(name), v, (lo, hi), "")?;
        }
        if self.level0_slowdown_writes_trigger > self.level0_stop_writes_trigger {
            return Err(Error::invalid(
                field("level0_slowdown_writes_trigger"),
                format!(
                    "must be in [{lo}, level0_stop_writes_trigger = {}], got {}",
                    self.level0_stop_writes_trigger, self.level0_slowdown_writes_trigger
                ),
            ));
        }
        let (soft, hard) = (self.soft_pending_compaction_bytes_limit, self.hard_pending_compaction_bytes_limit);
        if hard != 0 && soft > hard {
            return Err(Error::invalid(
                field("soft_pending_compaction_bytes_limit"),
                format!("must be in [0, hard_pending_compaction_bytes_limit = {hard}] (0: no limit), got {soft}"),
            ));
        }
        Ok(())
    }
}

/// What the tree owes: the figures the stall thresholds are compared with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Debt {
    /// Files in level 1 (RocksDB's level 0).
    pub level0_files: u64,
    /// Bytes the pending merges are estimated to write (`pending_compaction_bytes`).
    pub pending_bytes: u64,
}

/// Whether a write proceeds, slows down or stops.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Stall {
    /// The write does its geared share and goes on.
    #[default]
    None,
    /// The write does a larger slice (`SLOWDOWN_SLICE_PAGES`).
    Slowdown,
    /// The write waits until merges bring the debt back under the stop thresholds.
    Stop,
}

/// Where `debt` stands against the thresholds (RocksDB's `RecalculateWriteStallConditions`, without
/// its memtable-count cause: the engine's buffer waits for merges only at a flush).
pub fn stall(debt: &Debt, limits: &WriteStallConfig) -> Stall {
    let over = |limit: u64| limit != 0 && debt.pending_bytes >= limit;
    if debt.level0_files >= u64::from(limits.level0_stop_writes_trigger)
        || over(limits.hard_pending_compaction_bytes_limit)
    {
        Stall::Stop
    } else if debt.level0_files >= u64::from(limits.level0_slowdown_writes_trigger)
        || over(limits.soft_pending_compaction_bytes_limit)
    {
        Stall::Slowdown
    } else {
        Stall::None
    }
}

/// One write's view of the gear.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gear {
    /// Bytes the pending merges still have to write.
    pub pending_bytes: u64,
    /// Bytes the buffer takes before it must flush.
    pub room_bytes: u64,
    /// Bytes this write adds to the buffer.
    pub write_bytes: u64,
    /// Bytes of one output page.
    pub page_bytes: u64,
}

/// Output pages of merging this write does: `HEADROOM ×` the debt's share of this write's bytes in
/// the buffer's room (at least one page while there is debt), at most `SLICE_PAGES`, or
/// `SLOWDOWN_SLICE_PAGES` while slowed down. A stopped write does `SLICE_PAGES` at a time until the
/// stall clears (the caller re-checks `stall` between slices).
pub fn share(gear: &Gear, stall: Stall) -> u64 {
    if gear.pending_bytes == 0 {
        return 0;
    }
    let owed =
        (u128::from(gear.pending_bytes) * u128::from(gear.write_bytes.max(1))).saturating_mul(u128::from(HEADROOM));
    let per_page = u128::from(gear.room_bytes.max(1)) * u128::from(gear.page_bytes.max(1));
    let geared = u64::try_from(owed.div_ceil(per_page)).unwrap_or(u64::MAX).max(1);
    match stall {
        Stall::None => geared.min(SLICE_PAGES),
        Stall::Slowdown => geared.clamp(SLICE_PAGES, SLOWDOWN_SLICE_PAGES),
        Stall::Stop => SLICE_PAGES,
    }
}

/// One level's load, for `pending_compaction_bytes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelLoad {
    /// Entry bytes the level holds.
    pub bytes: u64,
    /// Bytes it may hold before it is merged down (`u64::MAX`: bounded by its run count only).
    pub capacity: u64,
    /// It holds more runs than it may: all of it goes down.
    pub over_run_limit: bool,
}

/// The bytes merges must still write to bring every level within its limits, estimated as
/// RocksDB 7.8's `EstimateCompactionBytesNeeded` does: what a level holds over its limit (all of it
/// when it has too many runs, plus what the level above sends down) goes to the next level and
/// rewrites that level's bytes in proportion: `moved × (1 + below / size)`.
pub fn pending_compaction_bytes(levels: &[LevelLoad]) -> u64 {
    let mut pending = 0u128;
    let mut carried = 0u64;
    for (i, level) in levels.iter().enumerate() {
        let size = level.bytes.saturating_add(carried);
        let moved = if level.over_run_limit { size } else { size.saturating_sub(level.capacity) };
        carried = moved;
        if moved == 0 {
            continue;
        }
        let below = levels.get(i + 1).map_or(0, |l| l.bytes);
        // moved × (1 + below / size), in integers: moved + moved × below / size.
        pending += u128::from(moved) + u128::from(moved) * u128::from(below) / u128::from(size.max(1));
    }
    u64::try_from(pending).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(slow: u32, stop: u32, soft: u64, hard: u64) -> WriteStallConfig {
        WriteStallConfig {
            level0_slowdown_writes_trigger: slow,
            level0_stop_writes_trigger: stop,
            soft_pending_compaction_bytes_limit: soft,
            hard_pending_compaction_bytes_limit: hard,
        }
    }

    #[test]
    fn defaults_are_rocksdb_7_8s() {
        let d = WriteStallConfig::default();
        assert_eq!(d.level0_slowdown_writes_trigger, 20);
        assert_eq!(d.level0_stop_writes_trigger, 36);
        assert_eq!(d.soft_pending_compaction_bytes_limit, 68_719_476_736);
        assert_eq!(d.hard_pending_compaction_bytes_limit, 274_877_906_944);
        assert!(d.validate().is_ok());
    }

    #[test]
    fn validation_names_the_field_and_range() {
        let e = limits(0, 36, 0, 0).validate().unwrap_err().to_string();
        assert!(e.contains("write_stalls.level0_slowdown_writes_trigger") && e.contains("[1, 1048576]"), "{e}");
        let e = limits(20, 10, 0, 0).validate().unwrap_err().to_string();
        assert!(e.contains("level0_slowdown_writes_trigger") && e.contains("level0_stop_writes_trigger = 10"), "{e}");
        let e = limits(20, 36, 10, 5).validate().unwrap_err().to_string();
        assert!(e.contains("write_stalls.soft_pending_compaction_bytes_limit") && e.contains("[0, "), "{e}");
        // A hard limit of 0 is no limit: any soft limit goes.
        assert!(limits(20, 36, 10, 0).validate().is_ok());
        assert!(limits(36, 36, 0, 0).validate().is_ok());
    }

    #[test]
    fn stall_follows_the_thresholds() {
        let l = limits(4, 8, 1000, 2000);
        let at = |files, bytes| stall(&Debt { level0_files: files, pending_bytes: bytes }, &l);
        assert_eq!(at(3, 999), Stall::None);
        assert_eq!(at(4, 0), Stall::Slowdown);
        assert_eq!(at(7, 1999), Stall::Slowdown);
        assert_eq!(at(0, 1000), Stall::Slowdown);
        assert_eq!(at(8, 0), Stall::Stop);
        assert_eq!(at(0, 2000), Stall::Stop);
        // 0: no byte limit.
        let l = limits(4, 8, 0, 0);
        assert_eq!(stall(&Debt { level0_files: 0, pending_bytes: u64::MAX }, &l), Stall::None);
    }

    #[test]
    fn gear_pays_the_debt_by_half_the_room() {
        // 1 MiB of debt, 4 MiB of room, 4 KiB pages, 128-byte writes: the room takes 32,768 writes;
        // paying 256 pages in half of them is 1/64 page a write, rounded up to one page.
        let g = Gear { pending_bytes: 1 << 20, room_bytes: 4 << 20, write_bytes: 128, page_bytes: 4096 };
        assert_eq!(share(&g, Stall::None), 1);
        // 64 MiB of debt in 1 MiB of room: 2 × 64 × 4 KiB / 4 KiB = 128 pages for a 4 KiB write,
        // more than a slice.
        let g = Gear { pending_bytes: 64 << 20, room_bytes: 1 << 20, write_bytes: 4096, page_bytes: 4096 };
        assert_eq!(share(&g, Stall::None), SLICE_PAGES);
        assert_eq!(share(&g, Stall::Slowdown), SLOWDOWN_SLICE_PAGES);
        assert_eq!(share(&g, Stall::Stop), SLICE_PAGES);
        // 3 MiB in 1 MiB of room, 4 KiB writes: 2 × 3 = 6 pages; slowed down, at least a slice.
        let g = Gear { pending_bytes: 3 << 20, room_bytes: 1 << 20, write_bytes: 4096, page_bytes: 4096 };
        assert_eq!(share(&g, Stall::None), 6);
        assert_eq!(share(&g, Stall::Slowdown), SLICE_PAGES);
        // No debt, no work, whatever the stall.
        let g = Gear { pending_bytes: 0, room_bytes: 0, write_bytes: 1, page_bytes: 4096 };
        assert_eq!(share(&g, Stall::Stop), 0);
    }

    #[test]
    fn a_full_buffer_pays_at_most_a_slice_per_write() {
        // No room left: the gear would want everything at once; the spring caps it.
        let g = Gear { pending_bytes: u64::MAX, room_bytes: 0, write_bytes: u64::MAX, page_bytes: 1 };
        assert_eq!(share(&g, Stall::None), SLICE_PAGES);
    }

    #[test]
    fn gear_over_a_buffer_finishes_the_debt_before_it_fills() {
        // Simulate: 10 MiB of debt, a 4 MiB buffer filled by 100-byte writes, 4 KiB pages.
        let (page, buffer, write) = (4096u64, 4u64 << 20, 100u64);
        let mut debt = 10u64 << 20;
        let mut used = 0;
        let mut most = 0;
        while used + write <= buffer && debt > 0 {
            let pages = share(
                &Gear { pending_bytes: debt, room_bytes: buffer - used, write_bytes: write, page_bytes: page },
                Stall::None,
            );
            most = most.max(pages);
            debt = debt.saturating_sub(pages * page);
            used += write;
        }
        assert_eq!(debt, 0, "the debt is paid before the buffer fills");
        assert!(used <= buffer / 2 + write * 64, "paid by about half the room: {used} of {buffer}");
        assert!(most <= SLICE_PAGES);
    }

    #[test]
    fn pending_bytes_as_rocksdb_estimates_them() {
        let unlimited = u64::MAX;
        // Level 1 over its run limit sends 40 down to level 2 (100 bytes, capacity 100): level 2
        // becomes 140, sends 40 to level 3 (1000 bytes).
        let levels = [
            LevelLoad { bytes: 40, capacity: unlimited, over_run_limit: true },
            LevelLoad { bytes: 100, capacity: 100, over_run_limit: false },
            LevelLoad { bytes: 1000, capacity: 1000, over_run_limit: false },
        ];
        // 40 × (1 + 100/40) = 140; then 40 × (1 + 1000/140) = 40 + 285 = 325; level 3, now 1040,
        // sends its 40 over to a new level: 40.
        assert_eq!(pending_compaction_bytes(&levels), 140 + 325 + 40);
        // Within limits: nothing pending.
        let calm = [
            LevelLoad { bytes: 40, capacity: unlimited, over_run_limit: false },
            LevelLoad { bytes: 90, capacity: 100, over_run_limit: false },
        ];
        assert_eq!(pending_compaction_bytes(&calm), 0);
        // The deepest level over its capacity moves its excess to a new level below.
        let deep = [LevelLoad { bytes: 150, capacity: 100, over_run_limit: false }];
        assert_eq!(pending_compaction_bytes(&deep), 50);
    }
}

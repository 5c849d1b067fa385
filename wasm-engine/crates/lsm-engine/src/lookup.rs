//! A point lookup's visit to one table: the filter (modules probed in order, SHaMBa's utility
//! skipping, Mnemosyne's query-time skip), then the fence pointers and one data page. Every
//! block it touches is counted as a cache hit or an I/O.

use crate::page::{self, Found};
use crate::table::{ReadCtx, Table};
use lsm_core::config::FilterSkip;
use lsm_core::mnemosyne;

/// SHaMBa's skip thresholds (§B.3.4): module 1 under full skipping, later modules.
pub(crate) const THETA_FIRST: f64 = 0.2;
pub(crate) const THETA_LATER: f64 = 0.1;
/// Probes a file must have seen before its utilities are trusted (SHaMBa's warm-up).
pub(crate) const SKIP_WARMUP: u64 = 64;

/// How lookups treat filters, fixed for the duration of one lookup.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FilterPolicy {
    pub skip: FilterSkip,
    /// Mnemosyne's latest C (skip a filter the model would not build); None: never skip.
    pub mnemosyne_log_c: Option<f64>,
    /// Global point-lookup sequence number of this lookup (Merlin's D).
    pub now: u64,
    pub window: usize,
}

/// Should module `d` be skipped, given the product of the FPRs of the modules used so far?
fn skip_module(table: &Table, d: usize, prefix_fpr: f64, policy: &FilterPolicy) -> bool {
    let may_skip = match policy.skip {
        FilterSkip::None => false,
        FilterSkip::Partial => d >= 1,
        FilterSkip::Full => true,
    };
    if !may_skip {
        return false;
    }
    let stats = table.stats.borrow();
    if stats.accesses < SKIP_WARMUP {
        return false;
    }
    let (alpha, beta) = stats.alpha_beta(policy.now);
    let f_d = table.module_fprs()[d];
    // Utility: the expected data I/O per lookup module d saves (Eq 8, sign fixed).
    let utility = beta * (1.0 - alpha) * prefix_fpr * (1.0 - f_d);
    utility <= if d == 0 { THETA_FIRST } else { THETA_LATER }
}

/// Look `key` up in `table` (whose key range is known to contain it).
pub(crate) fn probe_table(
    table: &Table,
    key: &[u8],
    key_hash: u64,
    ctx: &mut ReadCtx<'_>,
    policy: &FilterPolicy,
) -> lsm_core::error::Result<Found> {
    let modules = table.modules().len();
    let mut consulted = false;
    if modules == 0 {
        ctx.counters.runs_without_filter += 1;
    } else if policy.mnemosyne_log_c.is_some() && {
        let e = table.stats.borrow().estimate(policy.now);
        mnemosyne::skip_filter(table.entries as f64, e.empty, policy.mnemosyne_log_c)
    } {
        ctx.counters.filters_skipped += 1;
    } else {
        let mut prefix = 1.0;
        for d in 0..modules {
            if skip_module(table, d, prefix, policy) {
                ctx.counters.filter_modules_skipped += (modules - d) as u64;
                if d == 0 {
                    ctx.counters.filters_skipped += 1;
                }
                break;
            }
            let module = table.module(d, ctx)?;
            ctx.counters.filter_modules_probed += 1;
            consulted = true;
            if !module.may_contain(key_hash, d) {
                ctx.counters.filter_probes += 1;
                ctx.counters.filter_negatives += 1;
                table.stats.borrow_mut().record(policy.now, false, policy.window);
                return Ok(Found::Absent);
            }
            prefix *= table.module_fprs()[d];
        }
        if consulted {
            ctx.counters.filter_probes += 1;
            ctx.counters.filter_positives += 1;
        }
    }
    let fences = table.fences(ctx)?;
    let p = fences.page_for(key);
    let offset = table.block_span(p).0;
    let file = &table.file;
    let found = table.with_page(p, ctx, |bytes| page::search(file, offset, bytes, key))?;
    if consulted && found != Found::Absent {
        ctx.counters.filter_true_positives += 1;
    }
    table.stats.borrow_mut().record(policy.now, found != Found::Absent, policy.window);
    Ok(found)
}

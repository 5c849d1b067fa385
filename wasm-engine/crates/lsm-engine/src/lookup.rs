//! A point lookup's visit to one table: the filter (modules probed in order, SHaMBa's utility
//! skipping, Mnemosyne's query-time skip) or the one filter partition that answers for the key,
//! then the fence pointers (or the top-level index and one index partition) and one data page.
//! Every block it touches is counted as a cache hit or an I/O; pinned blocks are memory, not I/O.

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
            // A partitioned filter is one module: the partition whose keys may hold `key`.
            let module = if table.partitioned_filter() {
                table.filter_partition_for(key, ctx)?
            } else {
                table.module(d, ctx)?
            };
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
    let p = table.page_for(key, ctx)?;
    let offset = table.block_span(p).0;
    let file = &table.file;
    let found = table.with_page(p, ctx, |bytes| page::search(file, offset, bytes, key))?;
    if consulted && found != Found::Absent {
        ctx.counters.filter_true_positives += 1;
    }
    table.stats.borrow_mut().record(policy.now, found != Found::Absent, policy.window);
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::filter::FilterSpec;
    use crate::stats::{ReadCounters, WriteCounters};
    use crate::storage::{MemStorage, Storage};
    use crate::table::{Table, TableBuilder, TableCache};
    use lsm_core::bloom::FILTER_SEED;
    use lsm_core::config::{BlockLayout, EngineConfig, IndexType, MetadataPins};
    use lsm_core::filter_kinds::{Structure, structure_fpr};
    use lsm_core::hash::hash64;

    const KEYS: u64 = 20_000;

    fn key(i: u64) -> Vec<u8> {
        format!("key{:09}", i * 2).into_bytes()
    }

    fn design(two_level: bool, partition_filters: bool) -> EngineConfig {
        let mut c = EngineConfig::uniform_shape(10.0, 1, lsm_core::config::Allocation::Uniform, 10.0);
        c.block_layout = BlockLayout::Rocksdb;
        c.filter.kind = lsm_core::config::FilterKind::FastLocalBloom;
        if two_level {
            c.block_cache.index_type = IndexType::TwoLevelIndexSearch;
        }
        c.block_cache.partition_filters = partition_filters;
        c.validate().unwrap();
        c
    }

    /// 20,000 keys of 12 B with 100 B values (34 to a 4 KiB block).
    fn build(config: &EngineConfig, storage: &mut dyn Storage) -> Table {
        let mut b = TableBuilder::for_config(1, config);
        for i in 0..KEYS {
            b.add(&key(i), Some(&[7u8; 100]), storage).unwrap();
        }
        let spec = FilterSpec::of(Structure::FastLocalBloom, 10.0);
        b.finish(1, spec, storage, &mut WriteCounters::default()).unwrap().unwrap()
    }

    fn policy() -> FilterPolicy {
        FilterPolicy { skip: lsm_core::config::FilterSkip::None, mnemosyne_log_c: None, now: 0, window: 64 }
    }

    fn lookup(t: &Table, k: &[u8], s: &mut dyn Storage, cache: &mut TableCache, c: &mut ReadCounters) -> Found {
        let mut ctx = ReadCtx { storage: s, cache, counters: c };
        probe_table(t, k, hash64(k, FILTER_SEED), &mut ctx, &policy()).unwrap()
    }

    #[test]
    fn a_partitioned_table_reads_one_filter_partition_one_index_partition_and_one_block() {
        let mut storage = MemStorage::new();
        let mut table = build(&design(true, true), &mut storage);
        assert!(table.two_level_index() && table.partitioned_filter());
        // 2,918 keys ask for a cut (4 KiB partitions at 10 bits/key), granted at the next block
        // end: partitions of 2,918–2,952 keys, so 7 for 20,000 keys; the index is cut with them.
        let (index_parts, filter_parts) = table.partition_counts();
        assert_eq!((index_parts, filter_parts), (7, 7));
        // Nothing pinned but the top levels (cache_index_and_filter_blocks, the default pin).
        table.apply_pins(MetadataPins { unpartitioned: false, top_level: true, partitions: false });
        assert!(table.pinned_metadata_bytes() > 0 && table.pinned_metadata_bytes() < 1024);
        let mut cache = TableCache::new(1 << 20, 0.5);

        // A key it holds: its filter partition, its index partition, its block; the top levels
        // are memory, not reads.
        let mut c = ReadCounters::default();
        assert_eq!(lookup(&table, &key(12_345), &mut storage, &mut cache, &mut c), Found::Value(vec![7; 100]));
        assert_eq!((c.filter_block_reads, c.index_block_reads, c.data_pages_read), (1, 1, 1));
        // Again: three cache hits, no read.
        let mut c = ReadCounters::default();
        lookup(&table, &key(12_345), &mut storage, &mut cache, &mut c);
        assert_eq!((c.filter_cache_hits, c.index_cache_hits, c.data_cache_hits), (1, 1, 1));
        assert_eq!(c.filter_block_reads + c.index_block_reads + c.data_pages_read, 0);

        // Keys it lacks, between its keys, through a cold cache: one filter partition each
        // (7 distinct partitions read, the rest hits), the index and a block only on a false
        // positive, at the FPR of a whole filter of the same kind and bits per key.
        let mut cache = TableCache::new(1 << 20, 0.5);
        let mut c = ReadCounters::default();
        for i in 0..KEYS {
            let k = format!("key{:09}", i * 2 + 1).into_bytes();
            assert_eq!(lookup(&table, &k, &mut storage, &mut cache, &mut c), Found::Absent);
        }
        assert_eq!(c.filter_block_reads, 7);
        assert_eq!(c.filter_block_reads + c.filter_cache_hits, KEYS);
        let fpr = c.filter_positives as f64 / KEYS as f64;
        let expected = structure_fpr(Structure::FastLocalBloom, 10.0, 2918);
        assert!((fpr - expected).abs() < 0.4 * expected, "measured {fpr}, expected {expected}");
        assert_eq!(c.data_pages_read + c.data_cache_hits, c.filter_positives);

        // With the top levels not pinned they are read through the cache too: one more of each.
        table.unpin();
        assert_eq!(table.pinned_metadata_bytes(), 0);
        let mut cache = TableCache::new(1 << 20, 0.5);
        let mut c = ReadCounters::default();
        lookup(&table, &key(3), &mut storage, &mut cache, &mut c);
        assert_eq!((c.filter_block_reads, c.index_block_reads, c.data_pages_read), (2, 2, 1));
    }

    #[test]
    fn a_partitioned_table_reopens_with_the_same_answers_and_pins() {
        let mut storage = MemStorage::new();
        let built = build(&design(true, true), &mut storage);
        let mut opened = ReadCounters::default();
        let all = MetadataPins { unpartitioned: true, top_level: true, partitions: true };
        let table = Table::open(1, &mut storage, all, &mut opened).unwrap();
        assert_eq!(table.partition_counts(), built.partition_counts());
        assert_eq!(table.filter_bits(), built.filter_bits());
        assert_eq!(table.pinned_metadata_bytes(), built.pinned_metadata_bytes());
        // Everything pinned: a lookup reads only its data block.
        let mut cache = TableCache::new(0, 0.0);
        let mut c = ReadCounters::default();
        assert_eq!(lookup(&table, &key(19_999), &mut storage, &mut cache, &mut c), Found::Value(vec![7; 100]));
        assert_eq!((c.filter_block_reads, c.index_block_reads, c.data_pages_read), (0, 0, 1));
        for i in (0..KEYS).step_by(97) {
            assert_eq!(lookup(&table, &key(i), &mut storage, &mut cache, &mut c), Found::Value(vec![7; 100]));
        }
        // Not even the top level pinned, without a cache: every probe reads it.
        let none = MetadataPins { unpartitioned: false, top_level: false, partitions: false };
        let table = Table::open(1, &mut storage, none, &mut opened).unwrap();
        let mut c = ReadCounters::default();
        assert_eq!(lookup(&table, &key(5), &mut storage, &mut cache, &mut c), Found::Value(vec![7; 100]));
        assert_eq!((c.filter_block_reads, c.index_block_reads, c.data_pages_read), (2, 2, 1));
    }

    #[test]
    fn a_two_level_index_with_a_whole_filter_and_a_whole_table_agree() {
        let (mut s1, mut s2) = (MemStorage::new(), MemStorage::new());
        let mut two_level = build(&design(true, false), &mut s1);
        let mut whole = build(&design(false, false), &mut s2);
        assert_eq!(two_level.partition_counts().1, 0);
        assert!(two_level.partition_counts().0 >= 2);
        // The same filter, byte for byte, and the same blocks.
        assert_eq!(two_level.filter_bits(), whole.filter_bits());
        assert_eq!(two_level.data_pages, whole.data_pages);
        two_level.unpin();
        whole.unpin();
        let mut cache = TableCache::new(0, 0.0);
        for i in (0..2 * KEYS).step_by(37) {
            let k = format!("key{i:09}").into_bytes();
            let (mut a, mut b) = (ReadCounters::default(), ReadCounters::default());
            assert_eq!(
                lookup(&two_level, &k, &mut s1, &mut cache, &mut a),
                lookup(&whole, &k, &mut s2, &mut cache, &mut b)
            );
            assert_eq!((a.filter_block_reads, a.data_pages_read), (b.filter_block_reads, b.data_pages_read));
            // The two-level index reads its top level and one partition where the whole one reads one block.
            assert_eq!(a.index_block_reads, 2 * b.index_block_reads);
        }
    }
}

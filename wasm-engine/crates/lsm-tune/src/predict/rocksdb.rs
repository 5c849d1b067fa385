//! Pricing a RocksDB-shaped design (`block_layout: rocksdb`, merges by file) the way RocksDB
//! reads it: on the file tree `files::FileTree` replays, a point lookup probes, in order, the
//! level-0 files and the one file per deeper level whose key range covers its key; each probed
//! file costs a filter probe (if it has a filter) and a data block when the filter passes (a
//! false positive, or the key's newest version is there) — every probed file's block without a
//! filter. Data blocks go through the block cache (`block_cache`), requested at the rate the
//! key popularity and the tree give each file's blocks. A scan reads, per file covering its
//! start, the block it seeks to and the blocks its entries there span; and, as RocksDB's
//! iterator has no upper bound, the first block of each file it reaches past a gap in a level
//! (`first_block_reads`).

use lsm_core::config::{Allocation, BlockLayout, EngineConfig};
use lsm_core::layout::{ENTRY_HEADER, PAGE_HEADER};
use lsm_core::partition;

use super::super::writes::WriteSequence;
use super::block_cache::{
    Age, Blocks, CacheShape, Meta, Requests, Times, characteristic_times, classes_of, hit_at, hit_typical, meta_block,
};
use super::files::{File, FileTree, first_block_reads, probe_list};

/// The false-positive rate of the filter a file of `entries` keys at engine `level` (1 = level 0,
/// built by a flush) has (1: no filter): the structure the filter kind builds there
/// (`filter_kinds::structure_for`: textbook Bloom, FastLocalBloom or Ribbon) at the design's bits
/// per key. The one place the RocksDB-shaped predictor turns bits per key into an FPR.
/// With `explicit` allocation each level's own bits (how an imported `optimize_filters_for_hits`
/// leaves the last level without a filter).
fn filter_fpr(config: &EngineConfig, level: usize, entries: u64) -> f64 {
    let structure = lsm_core::filter_kinds::structure_for(&config.filter, level == 1, level);
    let bits = match config.filter.allocation {
        Allocation::Explicit => config.level(level).bits_per_key.unwrap_or(0.0),
        _ => config.filter.bits_per_key,
    };
    lsm_core::filter_kinds::structure_fpr(structure, bits, entries.max(1))
}

/// Whether a design is priced as RocksDB reads it (file tree with key ranges, block cache):
/// RocksDB's blocks and merges by file, leveled or universal (`files` replays either).
pub(super) fn is_rocksdb_shaped(config: &EngineConfig) -> bool {
    config.rocksdb_shaped()
}

/// Sizes of the design's tables for the workload's entries.
pub(super) struct Sizes {
    pub(super) entry_bytes: f64,
    pub(super) key_bytes: f64,
    pub(super) per_block: f64,
}

impl Sizes {
    /// Bytes a data block takes, on disk and in the cache (RocksDB's blocks are stored at their
    /// own length; fixed pages at the page size).
    fn block_bytes(&self, config: &EngineConfig) -> f64 {
        match config.block_layout {
            BlockLayout::Rocksdb => PAGE_HEADER as f64 + self.per_block * (self.entry_bytes + ENTRY_HEADER as f64),
            BlockLayout::FixedPages => f64::from(config.page_bytes),
        }
    }

    /// Index entries (a key and a 2-byte length per block) and filter bits of `entries`.
    fn meta_bytes(&self, config: &EngineConfig, entries: f64) -> f64 {
        entries / self.per_block * (self.key_bytes + 2.0) + entries * config.filter.bits_per_key / 8.0
    }

    /// Bytes of `files` tables holding `entries`: data blocks, index, filter, key range and footer
    /// (the engine's table layout, `pages` in the level-granular predictor).
    fn table_bytes(&self, config: &EngineConfig, entries: f64, files: f64) -> f64 {
        entries * (self.entry_bytes + ENTRY_HEADER as f64)
            + (entries / self.per_block).ceil() * PAGE_HEADER as f64
            + self.meta_bytes(config, entries)
            + files * (4.0 * self.key_bytes + 160.0)
    }
}

/// What lookups and scans cost at one moment of the run.
#[derive(Default)]
struct Moment {
    /// Per non-zero-result lookup: blocks accessed, blocks read, filters probed.
    existing: [f64; 3],
    /// Per zero-result lookup.
    missing: [f64; 3],
    /// Per scan: blocks accessed, blocks read.
    scan: [f64; 2],
    /// Index and filter blocks (partitions) read, per zero-result and per non-zero-result lookup.
    metadata: [f64; 2],
    /// The pages of those reads (a whole filter block of a big file spans many).
    metadata_pages: [f64; 2],
}

impl Moment {
    /// `self` with `share` of its operations costing what `other` does instead.
    fn blend(&self, other: &Moment, share: f64) -> Moment {
        let mix = |a: f64, b: f64| a * (1.0 - share) + b * share;
        let arr3 = |a: [f64; 3], b: [f64; 3]| [mix(a[0], b[0]), mix(a[1], b[1]), mix(a[2], b[2])];
        let arr2 = |a: [f64; 2], b: [f64; 2]| [mix(a[0], b[0]), mix(a[1], b[1])];
        Moment {
            existing: arr3(self.existing, other.existing),
            missing: arr3(self.missing, other.missing),
            scan: arr2(self.scan, other.scan),
            metadata: arr2(self.metadata, other.metadata),
            metadata_pages: arr2(self.metadata_pages, other.metadata_pages),
        }
    }

    /// Adds `m` × `weight`.
    fn add(&mut self, m: &Moment, weight: f64) {
        let add = |s: &mut [f64], x: &[f64]| s.iter_mut().zip(x).for_each(|(s, x)| *s += x * weight);
        add(&mut self.existing, &m.existing);
        add(&mut self.missing, &m.missing);
        add(&mut self.scan, &m.scan);
        add(&mut self.metadata, &m.metadata);
        add(&mut self.metadata_pages, &m.metadata_pages);
    }
}

/// How often a file's metadata is needed, per operation: its filter probed and its index read,
/// by zero-result lookups, by non-zero-result lookups, and its index by scans.
#[derive(Clone, Copy, Default)]
struct FileRates {
    zero_probes: f64,
    zero_reads: f64,
    existing_probes: f64,
    existing_reads: f64,
    scan_reads: f64,
}

/// Which of a file's metadata blocks a lookup class needs, as the cache model sees them.
#[derive(Clone, Copy)]
enum MetaUse {
    Filter,
    Index,
}

struct Pricer<'a> {
    config: &'a EngineConfig,
    writes: &'a WriteSequence,
    sizes: &'a Sizes,
    /// Shares of the operations: zero-result lookups, non-zero-result lookups, scans.
    shares: [f64; 3],
    /// Share of the operations that update (or delete) an existing key.
    updates: f64,
    /// Keys a scan spans (of the key space's ids).
    span: f64,
    key_space: f64,
    /// The run's writes and operations, to age files from a cold cache.
    clock: RunClock,
}

/// Where the run is: it starts after `preload` writes from a cold cache and does
/// `operations`, of which `writes` write.
#[derive(Clone, Copy)]
struct RunClock {
    preload: f64,
    writes: f64,
    operations: f64,
}

impl RunClock {
    /// How long `file`'s blocks have been cacheable over the run's operations `[from, to]`:
    /// since the run began, or since the write that made the file.
    fn age(&self, file: &File, from: f64, to: f64) -> Age {
        let born = if file.born <= self.preload || self.writes <= 0.0 {
            0.0
        } else {
            (file.born - self.preload) / self.writes * self.operations
        };
        Age { from: (from - born).max(0.0), to: (to - born).max(0.0) }
    }
}

impl Pricer<'_> {
    /// The costs at write `now`, a moment standing for the run's operations `ops` (from, to).
    fn moment(&self, tree: &FileTree<'_>, buffer_lo: f64, now: f64, ops: (f64, f64)) -> Moment {
        let inserted = self.writes.inserted_before(now).max(1.0);
        let bins = self.writes.popularity.bins(inserted);
        let counted: f64 = bins.iter().map(|b| b.count).sum::<f64>().max(1.0);
        let share: Vec<f64> = bins.iter().map(|b| b.count / counted).collect();
        let has_filter = (1..=self.config.levels.len().max(2)).any(|l| filter_fpr(self.config, l, 1_000_000) < 1.0);
        let newer_than = |b: &super::super::popularity::Bin, seq: f64| {
            self.writes.newest_since(b, seq, inserted, b.hit(self.writes.updates_in(seq, now)))
        };
        let in_buffer: Vec<f64> = bins.iter().map(|b| newer_than(b, buffer_lo)).collect();
        // P(a key's newest version came with flush t), per bin: flush t's interval of writes.
        let by_flush: Vec<Vec<f64>> = bins
            .iter()
            .map(|b| tree.flushed.iter().map(|&(lo, hi)| (newer_than(b, lo) - newer_than(b, hi)).max(0.0)).collect())
            .collect();
        // Stretches of key space over which the same files cover a key.
        let mut edges: Vec<f64> = vec![0.0, 1.0];
        edges.extend(tree.levels.iter().flatten().flat_map(|f| [f.lo, f.hi]));
        edges.sort_by(f64::total_cmp);
        edges.dedup();
        let entries_per_key = self.span / self.key_space.max(inserted);
        let mut groups: Vec<Blocks> = Vec::new();
        // Per group: (stretch width, per-bin access probability, zero-result access, scan blocks).
        let mut accesses: Vec<(f64, Vec<f64>, f64, f64)> = Vec::new();
        let mut m = Moment::default();
        let mut held = vec![0.0; tree.flushed.len()];
        // Per file (by id): filter probes and data block reads (index lookups) per operation.
        let mut per_file: rustc_hash::FxHashMap<u64, FileRates> = rustc_hash::FxHashMap::default();
        for w in edges.windows(2) {
            let width = w[1] - w[0];
            if width <= 0.0 {
                continue;
            }
            let files = probe_list(&tree.levels, (w[0] + w[1]) / 2.0);
            // Each flush's entries here, over the files covering the stretch: a key written by
            // flush t is in file f with f's share of them.
            held.iter_mut().for_each(|h| *h = 0.0);
            for (_, f) in &files {
                for &(t, e) in &f.content {
                    held[t] += e / (f.hi - f.lo);
                }
            }
            let mut reach: Vec<f64> = in_buffer.iter().map(|b| 1.0 - b).collect();
            for &(level, f) in &files {
                let fpr = filter_fpr(self.config, level, f.entries as u64);
                let file_blocks = (f.entries / self.sizes.per_block).max(1.0);
                let blocks = file_blocks * width / (f.hi - f.lo).max(1e-300);
                let keys = inserted * (f.hi - f.lo) / file_blocks;
                let (probes_before, reads_before) = (m.existing[2], m.existing[0]);
                let mut access = Vec::with_capacity(bins.len());
                let mut rate = Vec::with_capacity(bins.len());
                let mut presence = Vec::with_capacity(bins.len());
                let leave: Vec<f64> = bins.iter().map(|b| self.updates * b.p).collect();
                for ((b, r), flushes) in bins.iter().zip(reach.iter_mut()).zip(&by_flush) {
                    let found: f64 = f
                        .content
                        .iter()
                        .map(|&(t, e)| if held[t] > 0.0 { flushes[t] * e / (f.hi - f.lo) / held[t] } else { 0.0 })
                        .sum::<f64>()
                        .min(*r);
                    let a = if has_filter { found + (*r - found) * fpr } else { *r };
                    let mass = b.lookup_p * b.count;
                    m.existing[0] += width * mass * a;
                    if has_filter {
                        m.existing[2] += width * mass * *r;
                    }
                    // The key is here (or, without a filter, here or deeper: every probe reads a
                    // block) with probability `there`, and then every lookup of it reads its
                    // block; false positives for keys deeper add their share wherever they are.
                    let there = if has_filter { found } else { *r };
                    let false_hits = if has_filter { (*r - found) * fpr } else { 0.0 };
                    *r -= found;
                    access.push(a);
                    presence.push(there);
                    rate.push(self.shares[1] * b.lookup_p * (1.0 + if there > 0.0 { false_hits / there } else { 0.0 }));
                }
                let missing = if has_filter { fpr } else { 1.0 };
                m.missing[0] += width * missing;
                if has_filter {
                    m.missing[2] += width;
                }
                let scan = 1.0
                    + 1.0 / self.sizes.per_block
                    + entries_per_key * inserted * f.density_per_key(inserted) / self.sizes.per_block;
                // A scan reads the files covering its start: level 1's and one per deeper level.
                m.scan[0] += width * scan;
                let file = per_file.entry(f.id).or_default();
                file.existing_probes += self.shares[1] * (m.existing[2] - probes_before);
                file.zero_probes += self.shares[0] * width;
                file.existing_reads += self.shares[1] * (m.existing[0] - reads_before);
                file.zero_reads += self.shares[0] * width * missing;
                file.scan_reads += self.shares[2] * width;
                let base = (self.shares[0] * missing * width + self.shares[2] * scan * width) / blocks.max(1e-300);
                let charge = self.sizes.block_bytes(self.config);
                let age = self.clock.age(f, ops.0, ops.1);
                groups.push(Blocks { blocks, charge, keys, base, rate, presence, leave, age });
                accesses.push((width, access, missing, scan));
            }
        }
        // Scans that read a file's first block only (`first_block_reads`): one block, requested by
        // every scan starting in the gap before the file, so a wide gap keeps it cached. Its other
        // requests are a typical block's of the file.
        let zeros = vec![0.0; bins.len()];
        for (level, f, p) in first_block_reads(&tree.levels, self.span / self.key_space.max(1.0)) {
            let file_blocks = (f.entries / self.sizes.per_block).max(1.0);
            let missing = if has_filter { filter_fpr(self.config, level, f.entries as u64) } else { 1.0 };
            let scan = 1.0
                + 1.0 / self.sizes.per_block
                + entries_per_key * inserted * f.density_per_key(inserted) / self.sizes.per_block;
            let typical = (self.shares[0] * missing + self.shares[2] * scan) * (f.hi - f.lo) / file_blocks;
            m.scan[0] += p;
            // The seek reads the file's index (a cache request when metadata is cached).
            per_file.entry(f.id).or_default().scan_reads += self.shares[2] * p;
            groups.push(Blocks {
                blocks: 1.0,
                charge: self.sizes.block_bytes(self.config),
                keys: 0.0,
                base: self.shares[2] * p + typical,
                rate: zeros.clone(),
                presence: zeros.clone(),
                leave: zeros.clone(),
                age: self.clock.age(f, ops.0, ops.1),
            });
            accesses.push((p, zeros.clone(), 0.0, 1.0));
        }
        // The cache model sees popularity classes (bins merged); a request keeps its own rate.
        let (class_of, classes) = classes_of(&bins.iter().map(|b| b.count).collect::<Vec<_>>());
        let mut class_share = vec![0.0; classes];
        for (c, s) in class_of.iter().zip(&share) {
            class_share[*c] += s;
        }
        let coarse: Vec<Blocks> = groups
            .iter()
            .map(|g| {
                let (mut rate, mut presence, mut leave) = (vec![0.0; classes], vec![0.0; classes], vec![0.0; classes]);
                for ((((c, s), r), p), l) in class_of.iter().zip(&share).zip(&g.rate).zip(&g.presence).zip(&g.leave) {
                    rate[*c] += s * p * r;
                    leave[*c] += s * p * l;
                    presence[*c] += s * p;
                }
                for (c, p) in presence.iter_mut().enumerate() {
                    rate[c] /= p.max(1e-300);
                    leave[c] /= p.max(1e-300);
                    *p /= class_share[c].max(1e-300);
                }
                Blocks {
                    blocks: g.blocks,
                    charge: g.charge,
                    keys: g.keys,
                    base: g.base,
                    rate,
                    presence,
                    leave,
                    age: g.age,
                }
            })
            .collect();
        let cache = self.cache_shape(tree);
        let (meta, uses) = self.meta_blocks(tree, &per_file);
        let t = characteristic_times(&coarse, &meta, &class_share, cache);
        (m.metadata, m.metadata_pages) = self.metadata_reads(&meta, &uses, &t);
        for ((g, fine), (width, access, missing, scan)) in coarse.iter().zip(&groups).zip(&accesses) {
            // The neighbour mixtures once per group, not once per request class.
            let requests = Requests::of(g, &class_share);
            for ((b, a), r) in bins.iter().zip(access).zip(&fine.rate) {
                m.existing[1] += width * b.lookup_p * b.count * a * (1.0 - hit_at(&requests, *r, &t));
            }
            let typical = 1.0 - hit_typical(&requests, &t);
            m.missing[1] += width * missing * typical;
            m.scan[1] += width * scan * typical;
        }
        m
    }

    /// The cache's capacity in bytes, less the index and filter blocks pinned in it (level 0's,
    /// with `pin_l0_filter_and_index_blocks_in_cache`), and its high pool's share.
    fn cache_shape(&self, tree: &FileTree<'_>) -> CacheShape {
        let c = &self.config.block_cache;
        let mut bytes = c.bytes as f64;
        if c.cache_index_and_filter_blocks && c.pin_l0_filter_and_index_blocks_in_cache {
            let entries: f64 = tree.levels.first().into_iter().flatten().map(|f| f.entries).sum();
            bytes -= self.sizes.meta_bytes(self.config, entries);
        }
        if c.cache_index_and_filter_blocks && c.pin_top_level_index_and_filter && c.two_level_index() {
            // Pinned top levels take their room: an entry (key, handle) per partition.
            let files: Vec<&File> = tree.levels.iter().flatten().collect();
            for f in files {
                let (index, filter) = self.partitions(f);
                bytes -= (index + filter) * (self.sizes.key_bytes + 22.0);
            }
        }
        let high_share = if c.midpoint_insertion { c.high_priority_ratio } else { 0.0 };
        CacheShape { capacity: bytes.max(0.0), high_share }
    }

    /// Index and filter partitions of file `f` (`lsm_core::partition`'s cut rule on blocks of
    /// the workload's entries); (1, 1) for a whole index and filter.
    fn partitions(&self, f: &File) -> (f64, f64) {
        let c = &self.config.block_cache;
        if !c.two_level_index() {
            return (1.0, 1.0);
        }
        let per_block = self.sizes.per_block.max(1.0);
        let blocks = (f.entries / per_block).ceil().max(1.0) as u64;
        let structure = lsm_core::filter_kinds::structure_for(&self.config.filter, false, 2);
        let per_partition = if c.partition_filters {
            partition::keys_per_filter_partition(structure, self.config.filter.bits_per_key, c.metadata_block_size)
        } else {
            u64::MAX
        };
        // The engine's index entry: a separator (at most the key) with its length and block end.
        let entry = (self.sizes.key_bytes + 10.0) as u64;
        let (index, filter) =
            partition::partition_counts(blocks, per_block.round() as u64, entry, c.metadata_block_size, per_partition);
        (index as f64, if c.partition_filters { filter as f64 } else { 1.0 })
    }

    /// Index and filter blocks read per zero-result and per non-zero-result lookup: each
    /// metadata block's requests by that class that miss.
    fn metadata_reads(&self, meta: &[Meta], uses: &[(MetaUse, FileRates, f64)], t: &Times) -> ([f64; 2], [f64; 2]) {
        let (mut reads, mut pages) = ([0.0; 2], [0.0; 2]);
        for (m, (u, r, block_pages)) in meta.iter().zip(uses) {
            let miss = 1.0 - meta_block(m.rate, t).0;
            let (zero, existing) = match u {
                MetaUse::Filter => (r.zero_probes, r.existing_probes),
                MetaUse::Index => (r.zero_reads, r.existing_reads),
            };
            reads[0] += zero * miss;
            reads[1] += existing * miss;
            pages[0] += zero * miss * block_pages;
            pages[1] += existing * miss * block_pages;
        }
        let [zero, existing, _] = self.shares;
        let per = |x: [f64; 2]| {
            [if zero > 0.0 { x[0] / zero } else { 0.0 }, if existing > 0.0 { x[1] / existing } else { 0.0 }]
        };
        (per(reads), per(pages))
    }

    /// With `cache_index_and_filter_blocks`, each file's filter block (probed by every lookup
    /// its key range covers) and index block (read before each of its data blocks) compete
    /// with the data blocks; level 0's are pinned instead when the config pins them. With a
    /// two-level index the index partitions always do (and the filter partitions, partitioned),
    /// each a share of its file's requests; top levels not pinned are requested on every use.
    /// Returned with what each block is for, its file's rates and the pages one read of it takes.
    fn meta_blocks(
        &self,
        tree: &FileTree<'_>,
        per_file: &rustc_hash::FxHashMap<u64, FileRates>,
    ) -> (Vec<Meta>, Vec<(MetaUse, FileRates, f64)>) {
        let c = &self.config.block_cache;
        let two_level = c.two_level_index();
        if !c.cache_index_and_filter_blocks && !two_level {
            return (Vec::new(), Vec::new());
        }
        let pinned = if c.cache_index_and_filter_blocks && c.pin_l0_filter_and_index_blocks_in_cache { 1 } else { 0 };
        let (mut meta, mut uses) = (Vec::new(), Vec::new());
        for f in tree.levels.iter().skip(pinned).flatten() {
            let r = per_file.get(&f.id).copied().unwrap_or_default();
            let (probes, reads) = (r.zero_probes + r.existing_probes, r.zero_reads + r.existing_reads + r.scan_reads);
            let (index_parts, filter_parts) = self.partitions(f);
            let filter = f.entries * self.config.filter.bits_per_key / 8.0;
            let filter_cached = c.cache_index_and_filter_blocks || (two_level && c.partition_filters);
            // A file's partitions share its requests evenly: one entry stands for all of them
            // (their bytes, each one's rate), which fills the cache as they would together.
            let page = f64::from(self.config.page_bytes);
            let pages = |bytes: f64| (bytes / page).ceil().max(1.0);
            if filter > 0.0 && filter_cached {
                meta.push(Meta { charge: filter, rate: probes / filter_parts });
                uses.push((MetaUse::Filter, r, pages(filter / filter_parts)));
            }
            let index = f.entries / self.sizes.per_block * (self.sizes.key_bytes + 2.0);
            meta.push(Meta { charge: index, rate: reads / index_parts });
            uses.push((MetaUse::Index, r, pages(index / index_parts)));
            if two_level && c.cache_index_and_filter_blocks && !c.pin_top_level_index_and_filter {
                let top = |parts: f64| parts * (self.sizes.key_bytes + 22.0);
                meta.push(Meta { charge: top(index_parts), rate: reads });
                uses.push((MetaUse::Index, r, pages(top(index_parts))));
                if c.partition_filters && filter > 0.0 {
                    meta.push(Meta { charge: top(filter_parts), rate: probes });
                    uses.push((MetaUse::Filter, r, pages(top(filter_parts))));
                }
            }
        }
        (meta, uses)
    }
}

mod run;

pub(super) use run::{Priced, Reads, price};

#[cfg(test)]
mod tests {
    use super::*;

    fn file(id: u64, lo: f64, hi: f64) -> File {
        File { id, lo, hi, entries: 1000.0, content: vec![(0, 1000.0)], spans: Vec::new(), born: 0.0 }
    }

    #[test]
    fn scans_read_the_first_block_of_files_past_a_gap() {
        // L0: one file from 0.1; L1: files [0.3, 0.5] and [0.6, 1.0]. Scans span 0.01.
        let levels = vec![vec![file(1, 0.1, 0.9)], vec![file(2, 0.3, 0.5), file(3, 0.6, 1.0)]];
        let reads: Vec<(usize, u64, f64)> =
            first_block_reads(&levels, 0.01).into_iter().map(|(l, f, p)| (l, f.id, p)).collect();
        let expected = [(1, 1, 0.1), (2, 2, 0.3), (2, 3, 0.11)];
        assert_eq!(reads.len(), expected.len(), "{reads:?}");
        for ((l, id, p), (el, eid, ep)) in reads.iter().zip(expected) {
            // Starts before L0's file; before L1's first; in L1's gap or the previous file's last 0.01.
            assert_eq!((*l, *id), (el, eid));
            assert!((p - ep).abs() < 1e-12, "{reads:?}");
        }
        // A level with no gap (files end to end from 0) reads nothing extra.
        let whole = vec![Vec::new(), vec![file(4, 0.0, 0.5), file(5, 0.5, 1.0)]];
        assert!(first_block_reads(&whole, 0.01).is_empty());
    }
}

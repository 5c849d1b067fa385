//! Reading a table: open it (footer and range block), pin or unpin its fences and filter, and
//! answer what it holds; its blocks are fetched, pinned or through the block cache, in `blocks`.

use std::cell::RefCell;
use std::rc::Rc;

use crate::cache::BlockCache;
use crate::filestats::FileStats;
use crate::filter::{Filter, Module, ModuleInfo, module_fprs};
use crate::stats::ReadCounters;
use crate::storage::Storage;
use lsm_core::error::{Error, Result};
use lsm_core::hash::checksum;

use lsm_core::config::MetadataPins;

use super::format::{FOOTER_BYTES, Fences, Footer, decode_range, table_file_name};
use super::partitions::{FilterTop, IndexTop, PartitionedMeta, PinnedPartitions};

/// What the block cache holds for tables: a data page, a filter module or a table's fence pointers.
#[derive(Clone, Debug)]
pub enum Block {
    /// A data page, its checksum verified (a `Vec` so an evicted page's memory can be refilled).
    Page(Rc<Vec<u8>>),
    /// One filter module, decoded and verified.
    Module(Rc<Module>),
    /// A table's fence pointers (or one index partition), decoded and verified.
    Fences(Rc<Fences>),
    /// A partitioned table's top-level index.
    IndexTop(Rc<IndexTop>),
    /// A partitioned table's top-level filter index.
    FilterTop(Rc<FilterTop>),
}

/// The engine's block cache: data pages, filter modules and fence pointers under one budget.
pub type TableCache = BlockCache<Block>;

/// An open table: the figures from its footer, its key range and filter directory, and, when pinned,
/// its filter and fence pointers in memory. Data pages are read on demand, each one counted.
/// Every `Rc` field is checked by `owns_its_blocks` (`handover`) before a table crosses threads.
#[derive(Debug)]
pub struct Table {
    /// The table's id; its file is `table_file_name(id)`.
    pub id: u64,
    /// Its file's name in the storage.
    pub file: String,
    /// Data page size in bytes, from its footer.
    pub page_bytes: u32,
    /// Entries it holds, tombstones included.
    pub entries: u64,
    /// Sum of key + value lengths (the unit of level capacities).
    pub entry_bytes: u64,
    /// Its file's length in bytes: data pages, filter, index, range block and footer.
    pub file_bytes: u64,
    /// Data pages it holds (at least one).
    pub data_pages: u64,
    /// With RocksDB-style blocks: where each data block ends (held in memory, as RocksDB's
    /// table reader holds its index's block handles); `None` for fixed pages.
    pub(super) block_ends: Option<Rc<[u64]>>,
    /// Whether its data is in RocksDB-style blocks (its index carries their ends).
    pub(super) rocksdb_blocks: bool,
    /// Its index holds separators (`Fences` bounds blocks from above).
    pub(super) separator_index: bool,
    pub(super) min_key: Box<[u8]>,
    pub(super) max_key: Box<[u8]>,
    /// Bits per key the filter was sized for when built (0 after reopening: not stored).
    pub built_bits_per_key: f64,
    pub(super) filter_offset: u64,
    pub(super) modules: Vec<ModuleInfo>,
    pub(super) module_fprs: Vec<f64>,
    pub(super) index_offset: u64,
    pub(super) index_len: u64,
    pub(super) index_sum: u32,
    pub(super) pinned_filter: Option<Vec<Rc<Module>>>,
    pub(super) pinned_fences: Option<Rc<Fences>>,
    /// Partitioned metadata (RocksDB's two-level index, partitioned filters), if any.
    pub(super) parts: PartitionedMeta,
    /// Access statistics (Merlin's window, SHaMBa's counters).
    pub stats: RefCell<FileStats>,
    /// Data pages read to rebuild this table's filter (re-optimised Monkey), over its life.
    pub filter_rebuild_pages: u64,
}

/// What a lookup needs besides the table: storage, cache and where to count.
pub struct ReadCtx<'a> {
    /// Where the table files are read from.
    pub storage: &'a mut dyn Storage,
    /// The block cache; a zero-capacity one sends every read to storage (merges read that way).
    pub cache: &'a mut TableCache,
    /// Where every block access is counted, as a cache hit or as pages read.
    pub counters: &'a mut ReadCounters,
}

impl Table {
    /// Open a table file: verify the footer and range block; pin what `pins` says.
    pub fn open(id: u64, storage: &mut dyn Storage, pins: MetadataPins, opened: &mut ReadCounters) -> Result<Table> {
        let file = table_file_name(id);
        let len = storage.len(&file)?;
        if len < FOOTER_BYTES as u64 {
            return Err(Error::corruption(&file, 0, "file shorter than a table footer"));
        }
        let footer_at = len - FOOTER_BYTES as u64;
        let f = Footer::decode(&file, footer_at, &storage.read(&file, footer_at, FOOTER_BYTES)?)?;
        let page = u64::from(f.page_bytes);
        let data_bytes_fit =
            if f.rocksdb_blocks { f.filter_offset >= f.data_pages } else { f.filter_offset == f.data_pages * page };
        // Index partitions, if any, lie between the filter block and the top-level index.
        let index_fits = if f.two_level_index {
            f.index_offset >= f.filter_offset + f.filter_len && f.rocksdb_blocks
        } else {
            f.index_offset == f.filter_offset + f.filter_len
        };
        let sane = f.page_bytes.is_power_of_two()
            && data_bytes_fit
            && index_fits
            && (!f.partitioned_filter || (f.two_level_index && f.filter_dir_len as u64 == f.filter_len))
            && f.range_offset == f.index_offset + f.index_len
            && f.range_offset + u64::from(f.range_len) == footer_at
            && u64::from(f.filter_dir_len) <= f.filter_len
            && f.data_pages > 0;
        if !sane {
            return Err(Error::corruption(&file, footer_at, "footer offsets are inconsistent with the file length"));
        }
        let range = storage.read(&file, f.range_offset, f.range_len as usize)?;
        if checksum(&range) != f.range_sum {
            return Err(Error::corruption(&file, f.range_offset, "key range block checksum mismatch"));
        }
        let (min_key, max_key) = decode_range(&range)
            .ok_or_else(|| Error::corruption(&file, f.range_offset, "key range block is malformed"))?;
        let dir = storage.read(&file, f.filter_offset, f.filter_dir_len as usize)?;
        if checksum(&dir) != f.filter_dir_sum {
            return Err(Error::corruption(&file, f.filter_offset, "filter directory checksum mismatch"));
        }
        let mut parts = PartitionedMeta { two_level: f.two_level_index, ..PartitionedMeta::default() };
        let modules = if f.partitioned_filter {
            let top = FilterTop::decode(&dir)
                .ok_or_else(|| Error::corruption(&file, f.filter_offset, "top-level filter index is malformed"))?;
            opened.filter_pages_read += u64::from(f.filter_dir_len).div_ceil(page).max(1);
            opened.filter_block_reads += 1;
            let modules = vec![top.aggregate()];
            parts.filter = true;
            parts.filter_top_len = f.filter_len;
            parts.filter_top_sum = f.filter_dir_sum;
            parts.filter_top = Some(Rc::new(top));
            modules
        } else {
            let modules = Filter::decode_directory(&file, f.filter_offset, &dir)?;
            if modules.iter().any(|m| u64::from(m.offset) + u64::from(m.len) > f.filter_len) {
                return Err(Error::corruption(&file, f.filter_offset, "filter directory points past the filter block"));
            }
            modules
        };
        let mut table = Table {
            id,
            file,
            page_bytes: f.page_bytes,
            entries: f.entries,
            entry_bytes: f.entry_bytes,
            file_bytes: len,
            data_pages: f.data_pages,
            block_ends: None,
            rocksdb_blocks: false,
            separator_index: false,
            min_key,
            max_key,
            built_bits_per_key: 0.0,
            filter_offset: f.filter_offset,
            module_fprs: module_fprs(&modules, f.entries),
            modules,
            index_offset: f.index_offset,
            index_len: f.index_len,
            index_sum: f.index_sum,
            pinned_filter: None,
            pinned_fences: None,
            parts,
            stats: RefCell::new(FileStats::default()),
            filter_rebuild_pages: 0,
        };
        table.built_bits_per_key = table.filter_bits() as f64 / table.entries.max(1) as f64;
        table.rocksdb_blocks = f.rocksdb_blocks;
        table.separator_index = f.separator_index;
        if f.two_level_index {
            table.open_partitioned(storage, pins, opened)?;
            return Ok(table);
        }
        let mut fences = None;
        if f.rocksdb_blocks {
            // The block ends are read at open (counted in `opened`), as RocksDB opens a table.
            let loaded = table.load_fences(storage, opened)?;
            let ends: Rc<[u64]> = Rc::from(loaded.ends().unwrap_or_default());
            table.check_data_end(&ends)?;
            table.block_ends = Some(ends);
            fences = Some(loaded);
        }
        if pins.unpartitioned {
            let fences = match fences {
                Some(f) => f,
                None => table.load_fences(storage, opened)?,
            };
            table.pinned_fences = Some(Rc::new(fences));
            table.pin_whole_filter(storage, opened)?;
        }
        Ok(table)
    }

    fn pin_whole_filter(&mut self, storage: &mut dyn Storage, opened: &mut ReadCounters) -> Result<()> {
        let mut filter = Vec::with_capacity(self.modules.len());
        for d in 0..self.modules.len() {
            filter.push(Rc::new(self.load_module(d, storage, opened)?));
        }
        self.pinned_filter = Some(filter);
        Ok(())
    }

    /// The data blocks must end where the metadata starts: the filter partitions, or the filter.
    fn check_data_end(&self, ends: &[u64]) -> Result<()> {
        let data_end = if self.parts.filter { self.parts.filter_parts_offset } else { self.filter_offset };
        if ends.last() != Some(&data_end) {
            return Err(Error::corruption(
                &self.file,
                self.index_offset,
                "data blocks do not end where the filter starts",
            ));
        }
        Ok(())
    }

    /// Open the rest of a table with a two-level index: the top level (read at open, as RocksDB
    /// reads it), every index partition once for the block ends the table keeps (counted in
    /// `opened`), then keep what `pins` says.
    fn open_partitioned(
        &mut self,
        storage: &mut dyn Storage,
        pins: MetadataPins,
        opened: &mut ReadCounters,
    ) -> Result<()> {
        let top = Rc::new(self.load_index_top(storage, opened)?);
        let mut ends = Vec::with_capacity(self.data_pages as usize);
        let mut index = Vec::with_capacity(top.parts.len());
        for k in 0..top.parts.len() {
            let part = self.load_index_partition(&top, k, storage, opened)?;
            ends.extend_from_slice(part.ends().unwrap_or_default());
            index.push(Rc::new(part));
        }
        if self.parts.filter {
            self.parts.filter_parts_offset = ends.last().copied().unwrap_or(0);
            let end = self.filter_offset;
            let start = self.parts.filter_parts_offset;
            let fits = self
                .parts
                .filter_top
                .as_ref()
                .is_some_and(|t| t.parts.iter().all(|p| start + u64::from(p.offset) + u64::from(p.len) <= end));
            if !fits {
                return Err(Error::corruption(
                    &self.file,
                    self.filter_offset,
                    "filter partitions overlap the filter index",
                ));
            }
        }
        let ends: Rc<[u64]> = Rc::from(ends);
        self.check_data_end(&ends)?;
        self.block_ends = Some(ends);
        if pins.partitions {
            let mut filter = Vec::new();
            let mut bytes: u64 = top.parts.iter().map(|p| u64::from(p.len)).sum();
            if let Some(ftop) = self.parts.filter_top.clone() {
                for k in 0..ftop.parts.len() {
                    filter.push(Rc::new(self.load_filter_partition(&ftop, k, storage, opened)?));
                }
                bytes += ftop.partition_bytes();
            }
            self.parts.partitions = Some(Rc::new(PinnedPartitions { index, filter, bytes }));
        }
        if !self.parts.filter && pins.unpartitioned {
            self.pin_whole_filter(storage, opened)?;
        }
        self.parts.index_top = Some(top);
        if !pins.top_level {
            self.parts.index_top = None;
            self.parts.filter_top = None;
        }
        Ok(())
    }

    /// Keep pinned only what `pins` says (a table just built holds all its metadata).
    pub fn apply_pins(&mut self, pins: MetadataPins) {
        if !pins.unpartitioned {
            self.pinned_filter = None;
            self.pinned_fences = None;
        }
        if !pins.top_level {
            self.parts.index_top = None;
            self.parts.filter_top = None;
        }
        if !pins.partitions {
            self.parts.partitions = None;
        }
    }

    /// The same table with `filter` pinned in its place (re-optimised Monkey). The file keeps
    /// the filter it was built with: a resized filter lives in memory while the engine is open,
    /// and after a restart the policy derives it again from the runs that exist.
    pub fn with_filter(&self, filter: &Filter, rebuild_pages: u64) -> Table {
        let modules: Vec<ModuleInfo> = filter.infos();
        Table {
            id: self.id,
            file: self.file.clone(),
            page_bytes: self.page_bytes,
            entries: self.entries,
            entry_bytes: self.entry_bytes,
            file_bytes: self.file_bytes,
            data_pages: self.data_pages,
            block_ends: self.block_ends.clone(),
            rocksdb_blocks: self.rocksdb_blocks,
            separator_index: self.separator_index,
            min_key: self.min_key.clone(),
            max_key: self.max_key.clone(),
            built_bits_per_key: filter.bits() as f64 / self.entries.max(1) as f64,
            filter_offset: self.filter_offset,
            module_fprs: module_fprs(&modules, self.entries),
            modules,
            index_offset: self.index_offset,
            index_len: self.index_len,
            index_sum: self.index_sum,
            pinned_filter: Some(filter.modules().iter().cloned().map(Rc::new).collect()),
            pinned_fences: self.pinned_fences.clone(),
            parts: self.parts.clone(),
            stats: RefCell::new(self.stats.borrow().clone()),
            filter_rebuild_pages: self.filter_rebuild_pages + rebuild_pages,
        }
    }

    /// Start fetching the filter line a probe of `key_hash` will read, when the filter is one
    /// module held in memory. A lookup does this for every table it may probe before probing the
    /// first, so their cache misses overlap instead of following one another.
    #[inline]
    pub fn prefetch_filter(&self, key_hash: u64) {
        if let Some([module]) = self.pinned_filter.as_deref() {
            module.prefetch(key_hash);
        }
    }

    /// The pinned filter modules (none when filters go through the block cache).
    pub fn pinned_modules(&self) -> Option<&[Rc<Module>]> {
        self.pinned_filter.as_deref()
    }

    /// Bytes of index and filter blocks it holds pinned (0 when they go through the cache):
    /// whole blocks, top levels and partitions.
    pub fn pinned_metadata_bytes(&self) -> u64 {
        let mut bytes = 0;
        if self.pinned_fences.is_some() {
            bytes += self.index_len;
        }
        if self.pinned_filter.is_some() && !self.parts.filter {
            bytes += self.modules.iter().map(|m| u64::from(m.len)).sum::<u64>();
        }
        if self.parts.index_top.is_some() {
            bytes += self.index_len;
        }
        if self.parts.filter_top.is_some() {
            bytes += self.parts.filter_top_len;
        }
        bytes + self.parts.partitions.as_ref().map_or(0, |p| p.bytes)
    }

    /// Bytes the table holds in memory for its metadata besides pinned blocks: the data blocks'
    /// ends (8 B a block, with RocksDB-style blocks), as RocksDB's reader holds its handles.
    pub fn block_ends_bytes(&self) -> u64 {
        self.block_ends.as_ref().map_or(0, |e| 8 * e.len() as u64)
    }

    /// Forget pinned metadata so filter and fences go through the block cache.
    pub fn unpin(&mut self) {
        self.apply_pins(MetadataPins { unpartitioned: false, top_level: false, partitions: false });
    }

    /// Index partitions and filter partitions, counted from the top levels it holds pinned
    /// (0 for a top level it does not hold, or without partitions).
    pub fn partition_counts(&self) -> (usize, usize) {
        let index = self.parts.index_top.as_ref().map_or(0, |t| t.parts.len());
        let filter = self.parts.filter_top.as_ref().map_or(0, |t| t.parts.len());
        (index, filter)
    }

    /// Whether its index is two-level (RocksDB's `kTwoLevelIndexSearch`).
    pub fn two_level_index(&self) -> bool {
        self.parts.two_level
    }

    /// Whether its filter is partitioned (RocksDB's `partition_filters`).
    pub fn partitioned_filter(&self) -> bool {
        self.parts.filter
    }

    /// The smallest key it holds.
    pub fn min_key(&self) -> &[u8] {
        &self.min_key
    }

    /// The largest key it holds.
    pub fn max_key(&self) -> &[u8] {
        &self.max_key
    }

    /// Its filter's module directory, in probe order (empty: no filter).
    pub fn modules(&self) -> &[ModuleInfo] {
        &self.modules
    }

    /// Each module's expected FPR (integer-k formula), computed once.
    pub fn module_fprs(&self) -> &[f64] {
        &self.module_fprs
    }

    /// Bits of its filter over all modules (0: no filter).
    pub fn filter_bits(&self) -> u64 {
        self.modules.iter().map(|m| m.bits).sum()
    }

    /// Hash functions of its filter, summed over modules.
    pub fn filter_hashes(&self) -> u32 {
        self.modules.iter().map(|m| m.hashes).sum()
    }

    /// Theoretical FPR of the whole filter (product over modules; 1 without a filter).
    pub fn filter_fpr(&self) -> f64 {
        self.module_fprs.iter().product()
    }

    pub(super) fn pages(&self, bytes: u64) -> u64 {
        bytes.div_ceil(u64::from(self.page_bytes)).max(1)
    }

    /// Pages its fence-pointer block spans: what fetching it costs (at least 1).
    pub fn index_pages(&self) -> u64 {
        self.pages(self.index_len)
    }

    /// Pages filter module `d` spans: what fetching it costs (at least 1).
    pub fn module_pages(&self, d: usize) -> u64 {
        self.pages(u64::from(self.modules[d].len))
    }
}

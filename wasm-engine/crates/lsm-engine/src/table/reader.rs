//! Reading a table: open it (footer and range block), then fences, filter modules and data pages,
//! pinned or through the block cache.

use std::cell::RefCell;
use std::rc::Rc;

use crate::cache::{BlockCache, BlockKey, BlockKind, Priority};
use crate::filestats::FileStats;
use crate::filter::{Filter, Module, ModuleInfo, module_fprs};
use crate::page;
use crate::stats::ReadCounters;
use crate::storage::Storage;
use lsm_core::error::{Error, Result};
use lsm_core::hash::checksum;

use super::format::{FOOTER_BYTES, Fences, Footer, decode_range, table_file_name};

/// What the block cache holds for tables: a data page, a filter module or a table's fence pointers.
#[derive(Clone, Debug)]
pub enum Block {
    /// A data page, its checksum verified.
    Page(Rc<[u8]>),
    /// One filter module, decoded and verified.
    Module(Rc<Module>),
    /// A table's fence pointers, decoded and verified.
    Fences(Rc<Fences>),
}

/// The engine's block cache: data pages, filter modules and fence pointers under one budget.
pub type TableCache = BlockCache<Block>;

/// An open table: the figures from its footer, its key range and filter directory, and, when pinned,
/// its filter and fence pointers in memory. Data pages are read on demand, each one counted.
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
    /// Open a table file: verify the footer and range block; pin filter and fences if asked.
    pub fn open(id: u64, storage: &mut dyn Storage, pin: bool, opened: &mut ReadCounters) -> Result<Table> {
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
        let sane = f.page_bytes.is_power_of_two()
            && data_bytes_fit
            && f.index_offset == f.filter_offset + f.filter_len
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
        let modules = Filter::decode_directory(&file, f.filter_offset, &dir)?;
        if modules.iter().any(|m| u64::from(m.offset) + u64::from(m.len) > f.filter_len) {
            return Err(Error::corruption(&file, f.filter_offset, "filter directory points past the filter block"));
        }
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
            stats: RefCell::new(FileStats::default()),
            filter_rebuild_pages: 0,
        };
        table.built_bits_per_key = table.filter_bits() as f64 / table.entries.max(1) as f64;
        table.rocksdb_blocks = f.rocksdb_blocks;
        table.separator_index = f.separator_index;
        let mut fences = None;
        if f.rocksdb_blocks {
            // The block ends are read at open (counted in `opened`), as RocksDB opens a table.
            let loaded = table.load_fences(storage, opened)?;
            let ends: Rc<[u64]> = Rc::from(loaded.ends().unwrap_or_default());
            if ends.last() != Some(&f.filter_offset) {
                return Err(Error::corruption(
                    &table.file,
                    f.index_offset,
                    "data blocks do not end where the filter starts",
                ));
            }
            table.block_ends = Some(ends);
            fences = Some(loaded);
        }
        if pin {
            let fences = match fences {
                Some(f) => f,
                None => table.load_fences(storage, opened)?,
            };
            let mut filter = Vec::with_capacity(table.modules.len());
            for d in 0..table.modules.len() {
                filter.push(Rc::new(table.load_module(d, storage, opened)?));
            }
            table.pinned_fences = Some(Rc::new(fences));
            table.pinned_filter = Some(filter);
        }
        Ok(table)
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
            stats: RefCell::new(self.stats.borrow().clone()),
            filter_rebuild_pages: self.filter_rebuild_pages + rebuild_pages,
        }
    }

    /// The pinned filter modules (none when filters go through the block cache).
    pub fn pinned_modules(&self) -> Option<&[Rc<Module>]> {
        self.pinned_filter.as_deref()
    }

    /// Bytes of index and filter blocks it holds pinned (0 when they go through the cache).
    pub fn pinned_metadata_bytes(&self) -> u64 {
        match &self.pinned_fences {
            Some(_) => self.index_len + self.modules.iter().map(|m| u64::from(m.len)).sum::<u64>(),
            None => 0,
        }
    }

    /// Forget pinned metadata so filter and fences go through the block cache.
    pub fn unpin(&mut self) {
        self.pinned_filter = None;
        self.pinned_fences = None;
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

    fn pages(&self, bytes: u64) -> u64 {
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

    fn load_fences(&self, storage: &mut dyn Storage, c: &mut ReadCounters) -> Result<Fences> {
        let bytes = storage.read(&self.file, self.index_offset, self.index_len as usize)?;
        c.index_pages_read += self.index_pages();
        c.index_block_reads += 1;
        if checksum(&bytes) != self.index_sum {
            return Err(Error::corruption(&self.file, self.index_offset, "index block checksum mismatch"));
        }
        Fences::decode(&bytes, self.rocksdb_blocks, self.separator_index)
            .filter(|f| f.len() as u64 == self.data_pages)
            .ok_or_else(|| Error::corruption(&self.file, self.index_offset, "index block is malformed"))
    }

    fn load_module(&self, d: usize, storage: &mut dyn Storage, c: &mut ReadCounters) -> Result<Module> {
        let info = self.modules[d];
        let at = self.filter_offset + u64::from(info.offset);
        let bytes = storage.read(&self.file, at, info.len as usize)?;
        c.filter_pages_read += self.module_pages(d);
        c.filter_block_reads += 1;
        Filter::decode_module(&self.file, at, &info, &bytes)
    }

    /// Fence pointers: pinned, or through the cache (a miss reads the index block).
    pub fn fences(&self, ctx: &mut ReadCtx<'_>) -> Result<Rc<Fences>> {
        if let Some(f) = &self.pinned_fences {
            return Ok(f.clone());
        }
        let key = BlockKey { table: self.id, kind: BlockKind::Index, index: 0 };
        if let Some(Block::Fences(f)) = ctx.cache.get(&key) {
            ctx.counters.index_cache_hits += 1;
            return Ok(f);
        }
        let f = Rc::new(self.load_fences(ctx.storage, ctx.counters)?);
        ctx.cache.insert(key, Block::Fences(f.clone()), self.index_len, Priority::High);
        Ok(f)
    }

    /// Filter module `d`: pinned, or through the cache (module 1 at high priority, the rest low).
    pub fn module(&self, d: usize, ctx: &mut ReadCtx<'_>) -> Result<Rc<Module>> {
        if let Some(f) = &self.pinned_filter {
            return Ok(f[d].clone());
        }
        let key = BlockKey { table: self.id, kind: BlockKind::Filter, index: d as u32 };
        if let Some(Block::Module(m)) = ctx.cache.get(&key) {
            ctx.counters.filter_cache_hits += 1;
            return Ok(m);
        }
        let m = Rc::new(self.load_module(d, ctx.storage, ctx.counters)?);
        let priority = if d == 0 { Priority::High } else { Priority::Low };
        ctx.cache.insert(key, Block::Module(m.clone()), u64::from(self.modules[d].len), priority);
        Ok(m)
    }

    /// Where data page (or block) `p` lies in the file: its offset and length.
    pub fn block_span(&self, p: usize) -> (u64, usize) {
        match &self.block_ends {
            Some(ends) => {
                let start = if p == 0 { 0 } else { ends[p - 1] };
                (start, (ends[p] - start) as usize)
            }
            None => (p as u64 * u64::from(self.page_bytes), self.page_bytes as usize),
        }
    }

    /// Run `f` on data page `p`, verified: from the cache on a hit, else one page I/O.
    pub fn with_page<R>(&self, p: usize, ctx: &mut ReadCtx<'_>, f: impl FnOnce(&[u8]) -> Result<R>) -> Result<R> {
        let (offset, len) = self.block_span(p);
        if !ctx.cache.enabled() {
            ctx.counters.data_pages_read += 1;
            let mut f = Some(f);
            let mut out = None;
            let file = &self.file;
            let check = |bytes: &[u8]| page::verify(file, offset, bytes);
            ctx.storage.read_checked(file, offset, len, &check, &mut |bytes| {
                if let Some(f) = f.take() {
                    out = Some(f(bytes)?);
                }
                Ok(())
            })?;
            return out.ok_or_else(|| Error::State("page visitor was not called".into()));
        }
        let key = BlockKey { table: self.id, kind: BlockKind::Data, index: p as u32 };
        if let Some(Block::Page(bytes)) = ctx.cache.get(&key) {
            ctx.counters.data_cache_hits += 1;
            return f(&bytes);
        }
        ctx.counters.data_pages_read += 1;
        let bytes: Rc<[u8]> = Rc::from(ctx.storage.read(&self.file, offset, len)?);
        page::verify(&self.file, offset, &bytes)?;
        ctx.cache.insert(key, Block::Page(bytes.clone()), len as u64, Priority::Low);
        f(&bytes)
    }
}

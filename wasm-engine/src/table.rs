//! A table (SST file): immutable, written once in key order. A sorted run is one table (merges by
//! whole level) or several with disjoint key ranges (merges by file).
//!
//! Layout (integers little-endian):
//! ```text
//! data pages × P   see `page`
//! filter block     directory + one block per module (see `filter`)
//! index block      [u32 P]{[u16 len][first key of page p]}*      (fence pointers)
//! range block      [u16 len][smallest key][u16 len][largest key]
//! footer (112 B)   magic, version, page size, counts, block offsets, lengths and checksums
//! ```
//! The footer and the range block are read when a table is opened; the fence pointers and the
//! filter are either pinned in memory then, or fetched through the block cache on demand.

use std::cell::RefCell;
use std::rc::Rc;

use crate::bloom::Bloom;
use crate::bloom::FILTER_SEED;
use crate::cache::{Block, BlockCache, BlockKey, BlockKind, Priority};
use crate::error::{Error, Result};
use crate::filestats::FileStats;
use crate::filter::{Filter, FilterSpec, ModuleInfo, module_fprs};
use crate::hash::checksum;
use crate::page;
use crate::stats::{ReadCounters, WriteCounters};
use crate::storage::Storage;

const MAGIC: u64 = u64::from_le_bytes(*b"LSMNSST1");
const FORMAT_VERSION: u32 = 2;
const FOOTER_BYTES: usize = 112;
/// Data pages are buffered and appended in chunks this large (large sequential writes).
const WRITE_CHUNK: usize = 1 << 20;

pub fn table_file_name(id: u64) -> String {
    format!("{id:08}.sst")
}

/// The first 8 bytes of a key as a big-endian integer (zero-padded): comparing these first
/// decides most key comparisons without a memcmp.
#[inline]
fn prefix(key: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    let n = key.len().min(8);
    b[..n].copy_from_slice(&key[..n]);
    u64::from_be_bytes(b)
}

/// Fence pointers: the first key of every data page.
#[derive(Debug, PartialEq)]
pub struct Fences {
    keys: Vec<Box<[u8]>>,
    prefixes: Vec<u64>,
}

impl Fences {
    fn new(keys: Vec<Box<[u8]>>) -> Self {
        let prefixes = keys.iter().map(|k| prefix(k)).collect();
        Fences { keys, prefixes }
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The page that holds `key` if any does: the last page whose first key is ≤ key.
    #[inline]
    pub fn page_for(&self, key: &[u8]) -> usize {
        let p = prefix(key);
        let (mut lo, mut hi) = (0, self.keys.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            let fp = self.prefixes[mid];
            let le = if fp != p { fp < p } else { &self.keys[mid][..] <= key };
            if le {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo.saturating_sub(1)
    }

    fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&(self.keys.len() as u32).to_le_bytes());
        for k in &self.keys {
            out.extend_from_slice(&(k.len() as u16).to_le_bytes());
            out.extend_from_slice(k);
        }
    }

    fn decode(b: &[u8]) -> Option<Fences> {
        let n = u32::from_le_bytes(b.get(0..4)?.try_into().ok()?) as usize;
        let mut pos = 4;
        let mut keys = Vec::with_capacity(n);
        for _ in 0..n {
            let len = u16::from_le_bytes(b.get(pos..pos + 2)?.try_into().ok()?) as usize;
            keys.push(Box::from(b.get(pos + 2..pos + 2 + len)?));
            pos += 2 + len;
        }
        (pos == b.len()).then(|| Fences::new(keys))
    }
}

struct Footer {
    page_bytes: u32,
    data_pages: u64,
    entries: u64,
    entry_bytes: u64,
    filter_offset: u64,
    filter_len: u64,
    filter_dir_len: u32,
    filter_dir_sum: u32,
    index_offset: u64,
    index_len: u64,
    index_sum: u32,
    range_sum: u32,
    range_offset: u64,
    range_len: u32,
}

impl Footer {
    fn encode(&self, out: &mut Vec<u8>) {
        let start = out.len();
        out.extend_from_slice(&MAGIC.to_le_bytes());
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&self.page_bytes.to_le_bytes());
        for v in [self.data_pages, self.entries, self.entry_bytes, self.filter_offset, self.filter_len] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.filter_dir_len.to_le_bytes());
        out.extend_from_slice(&self.filter_dir_sum.to_le_bytes());
        out.extend_from_slice(&self.index_offset.to_le_bytes());
        out.extend_from_slice(&self.index_len.to_le_bytes());
        out.extend_from_slice(&self.index_sum.to_le_bytes());
        out.extend_from_slice(&self.range_sum.to_le_bytes());
        out.extend_from_slice(&self.range_offset.to_le_bytes());
        out.extend_from_slice(&self.range_len.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        let sum = checksum(&out[start..]);
        out.extend_from_slice(&sum.to_le_bytes());
        debug_assert_eq!(out.len() - start, FOOTER_BYTES);
    }

    fn decode(file: &str, at: u64, b: &[u8]) -> Result<Footer> {
        let bad = |m: &str| Error::corruption(file, at, m.to_string());
        if b.len() != FOOTER_BYTES {
            return Err(bad("footer has the wrong length"));
        }
        let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let u64_at = |i: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&b[i..i + 8]);
            u64::from_le_bytes(w)
        };
        if checksum(&b[..108]) != u32_at(108) {
            return Err(bad("footer checksum mismatch"));
        }
        if u64_at(0) != MAGIC {
            return Err(bad("not a table file (bad magic)"));
        }
        if u32_at(8) != FORMAT_VERSION {
            return Err(bad("unsupported table format version"));
        }
        Ok(Footer {
            page_bytes: u32_at(12),
            data_pages: u64_at(16),
            entries: u64_at(24),
            entry_bytes: u64_at(32),
            filter_offset: u64_at(40),
            filter_len: u64_at(48),
            filter_dir_len: u32_at(56),
            filter_dir_sum: u32_at(60),
            index_offset: u64_at(64),
            index_len: u64_at(72),
            index_sum: u32_at(80),
            range_sum: u32_at(84),
            range_offset: u64_at(88),
            range_len: u32_at(96),
        })
    }
}

/// Writes a table in key order. Keys must be strictly increasing.
pub struct TableBuilder {
    id: u64,
    file: String,
    page_bytes: usize,
    page: Vec<u8>,
    page_count: u16,
    pending: Vec<u8>,
    written: u64,
    fences: Vec<Box<[u8]>>,
    first_key: Vec<u8>,
    /// The largest key of the pages finished so far.
    last_key: Vec<u8>,
    /// Where the current page's last key sits in `page` (offset, length).
    last_key_at: (usize, usize),
    hashes: Vec<u64>,
    entries: u64,
    entry_bytes: u64,
}

impl TableBuilder {
    pub fn new(id: u64, page_bytes: u32) -> Self {
        let page_bytes = page_bytes as usize;
        let mut page = Vec::with_capacity(page_bytes);
        page.resize(page::PAGE_HEADER, 0);
        TableBuilder {
            id,
            file: table_file_name(id),
            page_bytes,
            page,
            page_count: 0,
            pending: Vec::with_capacity(WRITE_CHUNK.min(page_bytes * 256)),
            written: 0,
            fences: Vec::new(),
            first_key: Vec::new(),
            last_key: Vec::new(),
            last_key_at: (0, 0),
            hashes: Vec::new(),
            entries: 0,
            entry_bytes: 0,
        }
    }

    pub fn id(&self) -> u64 {
        self.id
    }

    pub fn entries(&self) -> u64 {
        self.entries
    }

    pub fn entry_bytes(&self) -> u64 {
        self.entry_bytes
    }

    /// Data pages started so far.
    pub fn data_pages(&self) -> u64 {
        self.fences.len() as u64
    }

    pub fn add(&mut self, key: &[u8], value: Option<&[u8]>, storage: &mut dyn Storage) -> Result<()> {
        let vlen = value.map_or(0, <[u8]>::len);
        self.start_entry(key, page::ENTRY_HEADER + key.len() + vlen, storage)?;
        page::push_entry(&mut self.page, key, value);
        self.finish_entry(key, vlen);
        Ok(())
    }

    /// Add an entry already encoded the way a page holds it (`[klen][vlen][key][value]`), as a
    /// merge reads it from another table: one copy instead of three.
    pub fn add_encoded(&mut self, key: &[u8], encoded: &[u8], storage: &mut dyn Storage) -> Result<()> {
        self.start_entry(key, encoded.len(), storage)?;
        self.page.extend_from_slice(encoded);
        self.finish_entry(key, encoded.len() - page::ENTRY_HEADER - key.len());
        Ok(())
    }

    /// Check the entry fits a page, start a new page if this one is full, note fences.
    fn start_entry(&mut self, key: &[u8], need: usize, storage: &mut dyn Storage) -> Result<()> {
        if key.len() > u16::MAX as usize || need > self.page_bytes - page::PAGE_HEADER {
            return Err(Error::TooLarge {
                field: "entry".into(),
                message: format!(
                    "key ({} B) + value ({} B) must fit in one page: at most {} B together",
                    key.len(),
                    need.saturating_sub(page::ENTRY_HEADER + key.len()),
                    page::max_entry_bytes(self.page_bytes as u32)
                ),
            });
        }
        if self.page.len() + need > self.page_bytes {
            self.finish_page(storage)?;
        }
        if self.page_count == 0 {
            self.fences.push(Box::from(key));
        }
        if self.entries == 0 {
            self.first_key.extend_from_slice(key);
        }
        Ok(())
    }

    fn finish_entry(&mut self, key: &[u8], vlen: usize) {
        // The last key is copied out when its page is finished, not after every entry.
        self.last_key_at = (self.page.len() - vlen - key.len(), key.len());
        self.page_count += 1;
        self.hashes.push(crate::hash::hash64(key, FILTER_SEED));
        self.entries += 1;
        self.entry_bytes += (key.len() + vlen) as u64;
    }

    fn finish_page(&mut self, storage: &mut dyn Storage) -> Result<()> {
        let (at, len) = self.last_key_at;
        self.last_key.clear();
        self.last_key.extend_from_slice(&self.page[at..at + len]);
        page::seal(&mut self.page, self.page_bytes, self.page_count);
        self.pending.extend_from_slice(&self.page);
        self.page.clear();
        self.page.resize(page::PAGE_HEADER, 0);
        self.page_count = 0;
        if self.pending.len() >= WRITE_CHUNK {
            self.flush_pending(storage)?;
        }
        Ok(())
    }

    fn flush_pending(&mut self, storage: &mut dyn Storage) -> Result<()> {
        if !self.pending.is_empty() {
            storage.append(&self.file, &self.pending)?;
            self.written += self.pending.len() as u64;
            self.pending.clear();
        }
        Ok(())
    }

    /// Write filter, index, range block and footer, sync, and return the open table (its filter
    /// and fences pinned). `None` if nothing was added (then nothing was written).
    pub fn finish(
        mut self,
        id: u64,
        spec: FilterSpec,
        storage: &mut dyn Storage,
        counters: &mut WriteCounters,
    ) -> Result<Option<Table>> {
        if self.entries == 0 {
            return Ok(None);
        }
        if self.page_count > 0 {
            self.finish_page(storage)?;
        }
        let data_pages = self.fences.len() as u64;
        let filter = Filter::build(&self.hashes, spec);
        let at = |b: &TableBuilder| b.written + b.pending.len() as u64;

        let filter_offset = at(&self);
        let filter_start = self.pending.len();
        let dir_len = filter.encode(&mut self.pending);
        let filter_dir_sum = checksum(&self.pending[filter_start..filter_start + dir_len]);
        let filter_len = (self.pending.len() - filter_start) as u64;
        let modules = Filter::decode_directory(&self.file, filter_offset, &self.pending[filter_start..])?;

        let fences = Fences::new(std::mem::take(&mut self.fences));
        let index_offset = at(&self);
        let index_start = self.pending.len();
        fences.encode(&mut self.pending);
        let index_len = (self.pending.len() - index_start) as u64;
        let index_sum = checksum(&self.pending[index_start..]);

        let range_offset = at(&self);
        let range_start = self.pending.len();
        for k in [&self.first_key, &self.last_key] {
            self.pending.extend_from_slice(&(k.len() as u16).to_le_bytes());
            self.pending.extend_from_slice(k);
        }
        let range_len = (self.pending.len() - range_start) as u32;
        let range_sum = checksum(&self.pending[range_start..]);

        Footer {
            page_bytes: self.page_bytes as u32,
            data_pages,
            entries: self.entries,
            entry_bytes: self.entry_bytes,
            filter_offset,
            filter_len,
            filter_dir_len: dir_len as u32,
            filter_dir_sum,
            index_offset,
            index_len,
            index_sum,
            range_sum,
            range_offset,
            range_len,
        }
        .encode(&mut self.pending);
        self.flush_pending(storage)?;
        storage.sync(&self.file)?;

        let page = self.page_bytes as u64;
        let file_bytes = self.written;
        counters.data_pages_written += data_pages;
        counters.meta_pages_written += (file_bytes - data_pages * page).div_ceil(page);
        counters.bytes_written += file_bytes;
        counters.entries_written += self.entries;

        Ok(Some(Table {
            id,
            file: self.file,
            page_bytes: self.page_bytes as u32,
            entries: self.entries,
            entry_bytes: self.entry_bytes,
            file_bytes,
            data_pages,
            min_key: self.first_key.into_boxed_slice(),
            max_key: self.last_key.into_boxed_slice(),
            built_bits_per_key: spec.bits_per_key,
            filter_offset,
            module_fprs: module_fprs(&modules, self.entries),
            modules,
            index_offset,
            index_len,
            index_sum,
            pinned_filter: Some(filter.modules().iter().cloned().map(Rc::new).collect()),
            pinned_fences: Some(Rc::new(fences)),
            stats: RefCell::new(FileStats::default()),
        }))
    }
}

/// An open table. Its key range is always in memory; filter and fences are pinned or cached.
#[derive(Debug)]
pub struct Table {
    pub id: u64,
    pub file: String,
    pub page_bytes: u32,
    pub entries: u64,
    /// Sum of key + value lengths (the unit of level capacities).
    pub entry_bytes: u64,
    pub file_bytes: u64,
    pub data_pages: u64,
    min_key: Box<[u8]>,
    max_key: Box<[u8]>,
    /// Bits per key the filter was sized for when built (0 after reopening: not stored).
    pub built_bits_per_key: f64,
    filter_offset: u64,
    modules: Vec<ModuleInfo>,
    module_fprs: Vec<f64>,
    index_offset: u64,
    index_len: u64,
    index_sum: u32,
    pinned_filter: Option<Vec<Rc<Bloom>>>,
    pinned_fences: Option<Rc<Fences>>,
    /// Access statistics (Merlin's window, SHaMBa's counters).
    pub stats: RefCell<FileStats>,
}

/// What a lookup needs besides the table: storage, cache and where to count.
pub struct ReadCtx<'a> {
    pub storage: &'a mut dyn Storage,
    pub cache: &'a mut BlockCache,
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
        let sane = f.page_bytes.is_power_of_two()
            && f.filter_offset == f.data_pages * page
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
        };
        table.built_bits_per_key = table.filter_bits() as f64 / table.entries.max(1) as f64;
        if pin {
            let fences = table.load_fences(storage, opened)?;
            let mut filter = Vec::with_capacity(table.modules.len());
            for d in 0..table.modules.len() {
                filter.push(Rc::new(table.load_module(d, storage, opened)?));
            }
            table.pinned_fences = Some(Rc::new(fences));
            table.pinned_filter = Some(filter);
        }
        Ok(table)
    }

    /// Forget pinned metadata so filter and fences go through the block cache.
    pub fn unpin(&mut self) {
        self.pinned_filter = None;
        self.pinned_fences = None;
    }

    pub fn min_key(&self) -> &[u8] {
        &self.min_key
    }

    pub fn max_key(&self) -> &[u8] {
        &self.max_key
    }

    pub fn modules(&self) -> &[ModuleInfo] {
        &self.modules
    }

    /// Each module's expected FPR (integer-k formula), computed once.
    pub fn module_fprs(&self) -> &[f64] {
        &self.module_fprs
    }

    pub fn filter_bits(&self) -> u64 {
        self.modules.iter().map(|m| m.bits).sum()
    }

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

    pub fn index_pages(&self) -> u64 {
        self.pages(self.index_len)
    }

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
        Fences::decode(&bytes)
            .filter(|f| f.len() as u64 == self.data_pages)
            .ok_or_else(|| Error::corruption(&self.file, self.index_offset, "index block is malformed"))
    }

    fn load_module(&self, d: usize, storage: &mut dyn Storage, c: &mut ReadCounters) -> Result<Bloom> {
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
    pub fn module(&self, d: usize, ctx: &mut ReadCtx<'_>) -> Result<Rc<Bloom>> {
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

    fn page_offset(&self, p: usize) -> u64 {
        p as u64 * u64::from(self.page_bytes)
    }

    /// Run `f` on data page `p`, verified: from the cache on a hit, else one page I/O.
    pub fn with_page<R>(&self, p: usize, ctx: &mut ReadCtx<'_>, f: impl FnOnce(&[u8]) -> Result<R>) -> Result<R> {
        let offset = self.page_offset(p);
        let len = self.page_bytes as usize;
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

/// The smallest and largest key of a table.
type KeyRange = (Box<[u8]>, Box<[u8]>);

fn decode_range(b: &[u8]) -> Option<KeyRange> {
    let l1 = u16::from_le_bytes(b.get(0..2)?.try_into().ok()?) as usize;
    let min = b.get(2..2 + l1)?;
    let l2 = u16::from_le_bytes(b.get(2 + l1..4 + l1)?.try_into().ok()?) as usize;
    let max = b.get(4 + l1..4 + l1 + l2)?;
    (4 + l1 + l2 == b.len() && min <= max).then(|| (Box::from(min), Box::from(max)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fence_search_agrees_with_plain_comparison() {
        let keys: Vec<Box<[u8]>> =
            [&b"a"[..], b"ab", b"ab\0", b"abcdefgh", b"abcdefghi", b"abcdefgz", b"b", b"zzzzzzzzzz"]
                .iter()
                .map(|k| Box::from(*k))
                .collect();
        let f = Fences::new(keys.clone());
        for probe in [
            &b""[..],
            b"a",
            b"aa",
            b"ab",
            b"ab\0",
            b"ab\0\0",
            b"abcdefgh",
            b"abcdefgha",
            b"abcdefgy",
            b"c",
            b"zzzzzzzzzzz",
        ] {
            let want = keys.partition_point(|k| &k[..] <= probe).saturating_sub(1);
            assert_eq!(f.page_for(probe), want, "{probe:?}");
        }
    }
}

//! A table's blocks, fetched: fence pointers, filter modules, the partitions and top levels of
//! RocksDB's partitioned metadata, and data pages, each from memory when pinned, else through
//! the block cache, every hit and every page read counted.

use std::rc::Rc;

use crate::cache::{BlockKey, BlockKind, Priority};
use crate::filter::{Filter, Module};
use crate::page;
use crate::stats::ReadCounters;
use crate::storage::Storage;
use lsm_core::error::{Error, Result};
use lsm_core::hash::checksum;

use super::format::Fences;
use super::partitions::{FilterTop, IndexTop};
use super::reader::{Block, ReadCtx, Table};

/// The block number a top level is cached under (partitions take 0, 1, …).
const TOP_LEVEL: u32 = u32::MAX;

impl Table {
    pub(super) fn load_fences(&self, storage: &mut dyn Storage, c: &mut ReadCounters) -> Result<Fences> {
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

    pub(super) fn load_module(&self, d: usize, storage: &mut dyn Storage, c: &mut ReadCounters) -> Result<Module> {
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

    /// The data page (block) that may hold `key`: through the fence pointers, or with a
    /// two-level index through its top level and one index partition.
    pub fn page_for(&self, key: &[u8], ctx: &mut ReadCtx<'_>) -> Result<usize> {
        if !self.parts.two_level {
            return Ok(self.fences(ctx)?.page_for(key));
        }
        let top = self.index_top(ctx)?;
        let k = top.partition_for(key);
        let part = self.index_partition(&top, k, ctx)?;
        Ok(top.parts[k].first_block as usize + part.page_for(key))
    }

    /// The filter partition that answers for `key` (a partitioned filter's probe).
    pub fn filter_partition_for(&self, key: &[u8], ctx: &mut ReadCtx<'_>) -> Result<Rc<Module>> {
        let top = self.filter_top(ctx)?;
        let k = top.partition_for(key);
        if let Some(p) = &self.parts.partitions {
            return Ok(p.filter[k].clone());
        }
        let cache_key = BlockKey { table: self.id, kind: BlockKind::Filter, index: k as u32 };
        if let Some(Block::Module(m)) = ctx.cache.get(&cache_key) {
            ctx.counters.filter_cache_hits += 1;
            return Ok(m);
        }
        let m = Rc::new(self.load_filter_partition(&top, k, ctx.storage, ctx.counters)?);
        ctx.cache.insert(cache_key, Block::Module(m.clone()), u64::from(top.parts[k].len), Priority::High);
        Ok(m)
    }

    fn index_top(&self, ctx: &mut ReadCtx<'_>) -> Result<Rc<IndexTop>> {
        if let Some(t) = &self.parts.index_top {
            return Ok(t.clone());
        }
        let key = BlockKey { table: self.id, kind: BlockKind::Index, index: TOP_LEVEL };
        if let Some(Block::IndexTop(t)) = ctx.cache.get(&key) {
            ctx.counters.index_cache_hits += 1;
            return Ok(t);
        }
        let t = Rc::new(self.load_index_top(ctx.storage, ctx.counters)?);
        ctx.cache.insert(key, Block::IndexTop(t.clone()), self.index_len, Priority::High);
        Ok(t)
    }

    fn filter_top(&self, ctx: &mut ReadCtx<'_>) -> Result<Rc<FilterTop>> {
        if let Some(t) = &self.parts.filter_top {
            return Ok(t.clone());
        }
        let key = BlockKey { table: self.id, kind: BlockKind::Filter, index: TOP_LEVEL };
        if let Some(Block::FilterTop(t)) = ctx.cache.get(&key) {
            ctx.counters.filter_cache_hits += 1;
            return Ok(t);
        }
        let len = self.parts.filter_top_len;
        let bytes = ctx.storage.read(&self.file, self.filter_offset, len as usize)?;
        ctx.counters.filter_pages_read += self.pages(len);
        ctx.counters.filter_block_reads += 1;
        if checksum(&bytes) != self.parts.filter_top_sum {
            return Err(Error::corruption(&self.file, self.filter_offset, "top-level filter index checksum mismatch"));
        }
        let t =
            Rc::new(FilterTop::decode(&bytes).ok_or_else(|| {
                Error::corruption(&self.file, self.filter_offset, "top-level filter index is malformed")
            })?);
        ctx.cache.insert(key, Block::FilterTop(t.clone()), len, Priority::High);
        Ok(t)
    }

    fn index_partition(&self, top: &IndexTop, k: usize, ctx: &mut ReadCtx<'_>) -> Result<Rc<Fences>> {
        if let Some(p) = &self.parts.partitions {
            return Ok(p.index[k].clone());
        }
        let key = BlockKey { table: self.id, kind: BlockKind::Index, index: k as u32 };
        if let Some(Block::Fences(f)) = ctx.cache.get(&key) {
            ctx.counters.index_cache_hits += 1;
            return Ok(f);
        }
        let f = Rc::new(self.load_index_partition(top, k, ctx.storage, ctx.counters)?);
        ctx.cache.insert(key, Block::Fences(f.clone()), u64::from(top.parts[k].len), Priority::High);
        Ok(f)
    }

    pub(super) fn load_index_top(&self, storage: &mut dyn Storage, c: &mut ReadCounters) -> Result<IndexTop> {
        let bytes = storage.read(&self.file, self.index_offset, self.index_len as usize)?;
        c.index_pages_read += self.index_pages();
        c.index_block_reads += 1;
        if checksum(&bytes) != self.index_sum {
            return Err(Error::corruption(&self.file, self.index_offset, "top-level index checksum mismatch"));
        }
        IndexTop::decode(&bytes)
            .filter(|t| t.parts.iter().all(|p| u64::from(p.first_block) < self.data_pages))
            .ok_or_else(|| Error::corruption(&self.file, self.index_offset, "top-level index is malformed"))
    }

    pub(super) fn load_index_partition(
        &self,
        top: &IndexTop,
        k: usize,
        storage: &mut dyn Storage,
        c: &mut ReadCounters,
    ) -> Result<Fences> {
        let p = top.parts[k];
        let bytes = storage.read(&self.file, p.offset, p.len as usize)?;
        c.index_pages_read += self.pages(u64::from(p.len));
        c.index_block_reads += 1;
        if checksum(&bytes) != p.sum {
            return Err(Error::corruption(&self.file, p.offset, "index partition checksum mismatch"));
        }
        Fences::decode(&bytes, true, true)
            .filter(|f| f.len() as u64 == top.blocks_in(k, self.data_pages))
            .ok_or_else(|| Error::corruption(&self.file, p.offset, "index partition is malformed"))
    }

    pub(super) fn load_filter_partition(
        &self,
        top: &FilterTop,
        k: usize,
        storage: &mut dyn Storage,
        c: &mut ReadCounters,
    ) -> Result<Module> {
        let info = top.parts[k];
        let at = self.parts.filter_parts_offset + u64::from(info.offset);
        let bytes = storage.read(&self.file, at, info.len as usize)?;
        c.filter_pages_read += self.pages(u64::from(info.len));
        c.filter_block_reads += 1;
        Filter::decode_module(&self.file, at, &info, &bytes)
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
        let bytes = read_page_into_cache(&self.file, offset, len, key, ctx)?;
        f(&bytes)
    }
}

/// Read data page `key` (`len` bytes at `offset` of `file`) from storage, verify it and cache it.
/// The page lands in the memory of the block the cache evicted last when there is one: a miss in
/// a full cache then costs no allocation, no copy and no free.
pub(crate) fn read_page_into_cache(
    file: &str,
    offset: u64,
    len: usize,
    key: BlockKey,
    ctx: &mut ReadCtx<'_>,
) -> Result<Rc<Vec<u8>>> {
    let mut buf = match ctx.cache.take_spare() {
        Some(Block::Page(old)) => Rc::try_unwrap(old).unwrap_or_default(),
        _ => Vec::new(),
    };
    buf.resize(len, 0);
    ctx.storage.read_into(file, offset, &mut buf)?;
    page::verify(file, offset, &buf)?;
    let bytes = Rc::new(buf);
    ctx.cache.insert(key, Block::Page(bytes.clone()), len as u64, Priority::Low);
    Ok(bytes)
}

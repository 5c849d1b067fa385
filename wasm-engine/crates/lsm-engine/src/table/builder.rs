//! Writing a table: entries in key order into pages, then filter, fences, range and footer.

use std::cell::RefCell;
use std::rc::Rc;

use crate::filestats::FileStats;
use crate::filter::{Filter, FilterSpec, Module, ModuleInfo, module_fprs};
use crate::page;
use crate::stats::WriteCounters;
use crate::storage::Storage;
use lsm_core::bloom::FILTER_SEED;
use lsm_core::config::{BlockLayout, EngineConfig};
use lsm_core::error::{Error, Result};
use lsm_core::filter_kinds::structure_bytes;
use lsm_core::hash::checksum;
use lsm_core::partition;

use super::format::{Fences, Footer, WRITE_CHUNK, short_successor, shortest_separator, table_file_name};
use super::partitions::{FilterTop, IndexPartition, IndexTop, PartitionedMeta, PinnedPartitions};
use super::reader::Table;

/// What `finish` wrote after the data and what the table holds of it.
struct Meta {
    filter_offset: u64,
    filter_len: u64,
    filter_dir_len: u32,
    filter_dir_sum: u32,
    index_offset: u64,
    index_len: u64,
    index_sum: u32,
    modules: Vec<ModuleInfo>,
    filter: Option<Vec<Rc<Module>>>,
    fences: Option<Rc<Fences>>,
    parts: PartitionedMeta,
}

/// Key hashes per chunk of `TableBuilder::hashes` (512 KiB).
const HASH_CHUNK: usize = 1 << 16;

/// Writes a table in key order. Keys must be strictly increasing.
pub struct TableBuilder {
    id: u64,
    file: String,
    page_bytes: usize,
    /// Entries in the page being built (0: no page open).
    page_count: u16,
    /// Sealed pages not yet written, then the open page from `page_start` on: entries are
    /// encoded where they will be written from, so no page is copied whole.
    pending: Vec<u8>,
    page_start: usize,
    written: u64,
    fences: Vec<Box<[u8]>>,
    first_key: Vec<u8>,
    /// The largest key of the pages finished so far.
    last_key: Vec<u8>,
    /// Where the open page's last key sits in `pending` (offset, length).
    last_key_at: (usize, usize),
    /// The keys' hashes for the filter, in fixed-size chunks: a table of millions of entries
    /// then never holds a doubled, half-empty vector (or a copy of it while it grows).
    hashes: Vec<Vec<u64>>,
    entries: u64,
    entry_bytes: u64,
    /// Cut data into RocksDB-style blocks (filled until they reach `page_bytes`, stored at their
    /// own length) instead of fixed pages.
    rocksdb_blocks: bool,
    /// With RocksDB-style blocks: where each finished block ends in the file.
    ends: Vec<u64>,
    /// Data pages (blocks) started, the one being filled included.
    pages_started: u64,
    /// With RocksDB-style blocks: the entries of each finished block (where partitions are cut).
    block_entries: Vec<u32>,
    /// RocksDB's partitioned metadata, when the design asks for it.
    partitioning: Option<Partitioning>,
}

/// How a table's metadata is partitioned (RocksDB's `kTwoLevelIndexSearch`, `partition_filters`).
#[derive(Clone, Copy, Debug)]
struct Partitioning {
    metadata_block_size: u64,
    filters: bool,
}

impl TableBuilder {
    /// A builder for table `id` (file `table_file_name(id)`) with pages of `page_bytes` bytes.
    pub fn new(id: u64, page_bytes: u32) -> Self {
        let page_bytes = page_bytes as usize;
        TableBuilder {
            id,
            file: table_file_name(id),
            page_bytes,
            page_count: 0,
            pending: Vec::with_capacity(WRITE_CHUNK.min(page_bytes * 256) + page_bytes),
            page_start: 0,
            written: 0,
            fences: Vec::new(),
            first_key: Vec::new(),
            last_key: Vec::new(),
            last_key_at: (0, 0),
            hashes: Vec::new(),
            entries: 0,
            entry_bytes: 0,
            rocksdb_blocks: false,
            ends: Vec::new(),
            pages_started: 0,
            block_entries: Vec::new(),
            partitioning: None,
        }
    }

    /// A builder for table `id` as `config` writes tables: its page size and block layout, and
    /// with RocksDB's blocks its partitioned metadata (`block_cache.index_type`,
    /// `partition_filters`, `metadata_block_size`).
    pub fn for_config(id: u64, config: &EngineConfig) -> Self {
        let rocksdb = config.block_layout == BlockLayout::Rocksdb;
        let mut b = TableBuilder::new(id, config.page_bytes).rocksdb_blocks(rocksdb);
        if rocksdb && config.block_cache.two_level_index() {
            b.partitioning = Some(Partitioning {
                metadata_block_size: config.block_cache.metadata_block_size,
                filters: config.block_cache.partition_filters,
            });
        }
        b
    }

    /// The same builder cutting its data into RocksDB-style blocks when `on`
    /// (`BlockLayout::Rocksdb`): a block takes entries until it reaches the page size, by
    /// `lsm_core::layout::rocksdb_block_is_full`, and is stored at its own length.
    pub fn rocksdb_blocks(mut self, on: bool) -> Self {
        self.rocksdb_blocks = on;
        self
    }

    /// The table's id.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// Entries added so far.
    pub fn entries(&self) -> u64 {
        self.entries
    }

    /// Key + value bytes added so far.
    pub fn entry_bytes(&self) -> u64 {
        self.entry_bytes
    }

    /// Data pages started so far.
    pub fn data_pages(&self) -> u64 {
        self.pages_started
    }

    /// Add an entry (`None`: a tombstone). Keys must come in strictly increasing order; key + value must
    /// fit in one page, else `Error::TooLarge`.
    pub fn add(&mut self, key: &[u8], value: Option<&[u8]>, storage: &mut dyn Storage) -> Result<()> {
        let vlen = value.map_or(0, <[u8]>::len);
        self.start_entry(key, page::ENTRY_HEADER + key.len() + vlen, storage)?;
        page::push_entry(&mut self.pending, key, value);
        self.finish_entry(key, vlen);
        Ok(())
    }

    /// Add an entry already encoded the way a page holds it (`[klen][vlen][key][value]`), as a
    /// merge reads it from another table: one copy instead of three.
    pub fn add_encoded(&mut self, key: &[u8], encoded: &[u8], storage: &mut dyn Storage) -> Result<()> {
        self.start_entry(key, encoded.len(), storage)?;
        self.pending.extend_from_slice(encoded);
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
        let used = self.pending.len() - self.page_start;
        let full = if self.rocksdb_blocks {
            lsm_core::layout::rocksdb_block_is_full(used, need, self.page_bytes)
        } else {
            used + need > self.page_bytes
        };
        if self.page_count > 0 && full {
            self.finish_page(storage)?;
        }
        if self.page_count == 0 {
            self.page_start = self.pending.len();
            self.pending.resize(self.page_start + page::PAGE_HEADER, 0);
            self.pages_started += 1;
            if !self.rocksdb_blocks {
                self.fences.push(Box::from(key));
            } else if self.entries > 0 {
                // RocksDB's index entry for the block just finished: a short key between its
                // last key and this block's first. It sizes the index block as RocksDB's.
                self.fences.push(shortest_separator(&self.last_key, key).into_boxed_slice());
            }
        }
        if self.entries == 0 {
            self.first_key.extend_from_slice(key);
        }
        Ok(())
    }

    fn finish_entry(&mut self, key: &[u8], vlen: usize) {
        // The last key is copied out when its page is finished, not after every entry.
        self.last_key_at = (self.pending.len() - vlen - key.len(), key.len());
        self.page_count += 1;
        if self.hashes.last().is_none_or(|c| c.len() == HASH_CHUNK) {
            self.hashes.push(Vec::with_capacity(HASH_CHUNK));
        }
        if let Some(chunk) = self.hashes.last_mut() {
            chunk.push(lsm_core::hash::hash64(key, FILTER_SEED));
        }
        self.entries += 1;
        self.entry_bytes += (key.len() + vlen) as u64;
    }

    fn finish_page(&mut self, storage: &mut dyn Storage) -> Result<()> {
        let (at, len) = self.last_key_at;
        self.last_key.clear();
        self.last_key.extend_from_slice(&self.pending[at..at + len]);
        if self.rocksdb_blocks {
            self.block_entries.push(u32::from(self.page_count));
            page::seal_block(&mut self.pending, self.page_start, self.page_count);
            self.ends.push(self.written + self.pending.len() as u64);
        } else {
            page::seal(&mut self.pending, self.page_start, self.page_bytes, self.page_count);
        }
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

    /// Write filter, index, range block and footer (not synced), and return the open table (its filter
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
        let data_pages = self.pages_started;
        let at = |b: &TableBuilder| b.written + b.pending.len() as u64;
        let data_bytes = at(&self);
        if self.rocksdb_blocks {
            self.fences.push(short_successor(&self.last_key).into_boxed_slice());
        }
        let meta = match self.partitioning {
            Some(p) if self.rocksdb_blocks => self.write_partitioned(p, spec)?,
            _ => self.write_whole(spec)?,
        };
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
            rocksdb_blocks: self.rocksdb_blocks,
            separator_index: self.rocksdb_blocks,
            data_pages,
            entries: self.entries,
            entry_bytes: self.entry_bytes,
            filter_offset: meta.filter_offset,
            filter_len: meta.filter_len,
            filter_dir_len: meta.filter_dir_len,
            filter_dir_sum: meta.filter_dir_sum,
            index_offset: meta.index_offset,
            index_len: meta.index_len,
            index_sum: meta.index_sum,
            range_sum,
            range_offset,
            range_len,
            two_level_index: meta.parts.two_level,
            partitioned_filter: meta.parts.filter,
        }
        .encode(&mut self.pending);
        // Written, not synced: whoever names the table in the manifest makes it durable first
        // (`Storage::sync_later`, which the record's `commit_later` waits for). A background
        // merger's handle leaves that to the writer's, so the merger never waits on the disk.
        self.flush_pending(storage)?;

        let page = self.page_bytes as u64;
        let file_bytes = self.written;
        counters.data_pages_written += data_pages;
        counters.meta_pages_written += (file_bytes - data_bytes).div_ceil(page);
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
            block_ends: (self.rocksdb_blocks).then(|| Rc::from(std::mem::take(&mut self.ends))),
            rocksdb_blocks: self.rocksdb_blocks,
            separator_index: self.rocksdb_blocks,
            min_key: self.first_key.into_boxed_slice(),
            max_key: self.last_key.into_boxed_slice(),
            built_bits_per_key: spec.bits_per_key,
            filter_offset: meta.filter_offset,
            module_fprs: module_fprs(&meta.modules, self.entries),
            modules: meta.modules,
            index_offset: meta.index_offset,
            index_len: meta.index_len,
            index_sum: meta.index_sum,
            pinned_filter: meta.filter,
            pinned_fences: meta.fences,
            parts: meta.parts,
            stats: RefCell::new(FileStats::default()),
            filter_rebuild_pages: 0,
        }))
    }

    /// The whole filter and one index block (no partitions).
    fn write_whole(&mut self, spec: FilterSpec) -> Result<Meta> {
        let filter = Filter::build_from(self.entries, self.hashes.iter().flatten().copied(), spec);
        self.hashes = Vec::new(); // 8 B per entry: free it before the filter and index are written
        let filter_offset = self.written + self.pending.len() as u64;
        let filter_start = self.pending.len();
        let dir_len = filter.encode(&mut self.pending);
        let filter_dir_sum = checksum(&self.pending[filter_start..filter_start + dir_len]);
        let filter_len = (self.pending.len() - filter_start) as u64;
        let modules = Filter::decode_directory(&self.file, filter_offset, &self.pending[filter_start..])?;

        let keys = std::mem::take(&mut self.fences);
        let fences =
            if self.rocksdb_blocks { Fences::with_ends(keys, self.ends.clone(), true) } else { Fences::new(keys) };
        let index_offset = self.written + self.pending.len() as u64;
        let index_start = self.pending.len();
        fences.encode(&mut self.pending);
        Ok(Meta {
            filter_offset,
            filter_len,
            filter_dir_len: dir_len as u32,
            filter_dir_sum,
            index_offset,
            index_len: (self.pending.len() - index_start) as u64,
            index_sum: checksum(&self.pending[index_start..]),
            modules,
            filter: Some(filter.modules().iter().cloned().map(Rc::new).collect()),
            fences: Some(Rc::new(fences)),
            parts: PartitionedMeta::default(),
        })
    }

    /// Filter partitions (if asked) and their top level, then index partitions and theirs,
    /// cut where RocksDB's builder cuts them (`lsm_core::partition::cut`).
    fn write_partitioned(&mut self, p: Partitioning, spec: FilterSpec) -> Result<Meta> {
        let mbs = p.metadata_block_size;
        let filters =
            p.filters && spec.bits_per_key > 0.0 && structure_bytes(spec.structure, spec.bits_per_key, 1 << 20) > 0;
        let per_partition = if filters {
            partition::keys_per_filter_partition(spec.structure, spec.bits_per_key, mbs)
        } else {
            u64::MAX
        };
        let blocks: Vec<u64> = self.block_entries.iter().map(|&n| u64::from(n)).collect();
        // The engine's index entry: [u16 len][separator] and the block's end (u64).
        let entry_bytes: Vec<u64> = self.fences.iter().map(|k| 2 + k.len() as u64 + 8).collect();
        let cuts = partition::cut(&blocks, &entry_bytes, mbs, per_partition);
        let mut parts = PartitionedMeta { two_level: true, filter: filters, ..PartitionedMeta::default() };
        // Keys before the end of each block: the block that holds key i is the first whose end exceeds i.
        let mut block_end_keys = Vec::with_capacity(blocks.len());
        let mut total = 0;
        for n in &blocks {
            total += n;
            block_end_keys.push(total);
        }
        let block_of = |key: u64| block_end_keys.partition_point(|&end| end <= key);

        let mut pinned_filter = Vec::new();
        let mut partition_bytes = 0u64;
        let (filter_offset, filter_len, filter_dir_len, filter_dir_sum, modules, whole_filter);
        if filters {
            parts.filter_parts_offset = self.written + self.pending.len() as u64;
            let base = self.pending.len();
            let (mut bounds, mut infos) = (Vec::new(), Vec::new());
            let mut hashes = self.hashes.iter().flatten().copied();
            for (j, &start) in cuts.filter.iter().enumerate() {
                let end = cuts.filter.get(j + 1).copied().unwrap_or(self.entries);
                let filter = Filter::build_from(end - start, hashes.by_ref().take((end - start) as usize), spec);
                let module = filter
                    .modules()
                    .first()
                    .ok_or_else(|| Error::State(format!("{}: filter partition {j} came out empty", self.file)))?;
                infos.push(ModuleInfo::append(module, &mut self.pending, base));
                pinned_filter.push(Rc::new(module.clone()));
                bounds.push(self.fences[block_of(end - 1)].clone());
            }
            self.hashes = Vec::new();
            let top = FilterTop::new(bounds, infos);
            partition_bytes += top.partition_bytes();
            modules = vec![top.aggregate()];
            filter_offset = self.written + self.pending.len() as u64;
            let start = self.pending.len();
            top.encode(&mut self.pending);
            filter_len = (self.pending.len() - start) as u64;
            filter_dir_len = filter_len as u32;
            filter_dir_sum = checksum(&self.pending[start..]);
            parts.filter_top_len = filter_len;
            parts.filter_top_sum = filter_dir_sum;
            parts.filter_top = Some(Rc::new(top));
            whole_filter = None;
        } else {
            // No partitioned filter: a whole one, as without partitions.
            let filter = Filter::build_from(self.entries, self.hashes.iter().flatten().copied(), spec);
            self.hashes = Vec::new();
            filter_offset = self.written + self.pending.len() as u64;
            let start = self.pending.len();
            let dir_len = filter.encode(&mut self.pending);
            filter_dir_sum = checksum(&self.pending[start..start + dir_len]);
            filter_len = (self.pending.len() - start) as u64;
            filter_dir_len = dir_len as u32;
            modules = Filter::decode_directory(&self.file, filter_offset, &self.pending[start..])?;
            whole_filter = Some(filter.modules().iter().cloned().map(Rc::new).collect());
        }

        let (mut bounds, mut handles, mut pinned_index) = (Vec::new(), Vec::new(), Vec::new());
        for (k, &first) in cuts.index.iter().enumerate() {
            let end = cuts.index.get(k + 1).copied().unwrap_or(blocks.len() as u64);
            let (a, b) = (first as usize, end as usize);
            let part = Fences::with_ends(self.fences[a..b].to_vec(), self.ends[a..b].to_vec(), true);
            let offset = self.written + self.pending.len() as u64;
            let start = self.pending.len();
            part.encode(&mut self.pending);
            let len = self.pending.len() - start;
            handles.push(IndexPartition {
                offset,
                len: len as u32,
                sum: checksum(&self.pending[start..]),
                first_block: first as u32,
            });
            partition_bytes += len as u64;
            bounds.push(self.fences[b - 1].clone());
            pinned_index.push(Rc::new(part));
        }
        self.fences = Vec::new();
        let top = IndexTop::new(bounds, handles);
        let index_offset = self.written + self.pending.len() as u64;
        let start = self.pending.len();
        top.encode(&mut self.pending);
        parts.index_top = Some(Rc::new(top));
        parts.partitions =
            Some(Rc::new(PinnedPartitions { index: pinned_index, filter: pinned_filter, bytes: partition_bytes }));
        Ok(Meta {
            filter_offset,
            filter_len,
            filter_dir_len,
            filter_dir_sum,
            index_offset,
            index_len: (self.pending.len() - start) as u64,
            index_sum: checksum(&self.pending[start..]),
            modules,
            filter: whole_filter,
            fences: None,
            parts,
        })
    }
}

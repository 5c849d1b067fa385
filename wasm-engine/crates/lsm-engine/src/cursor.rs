//! Sequential readers: over one table, and over a whole run (its tables in key order). Merges
//! and range scans use them. Every data page a cursor decodes is counted once; pages come from
//! the block cache when it is enabled (scans), else straight from storage with read-ahead.

use std::rc::Rc;

use crate::cache::{BlockKey, BlockKind};
use crate::keycmp::compare;
use crate::page;
use crate::table::{Block, ReadCtx, Table, read_page_into_cache};
use lsm_core::error::{Error, Result};

/// Physical read-ahead without a cache, in pages.
const READ_AHEAD_PAGES: usize = 64;

/// Reads one table's entries in key order: through the block cache when it is enabled (a page at a
/// time), else straight from storage with read-ahead (up to 64 pages a read). Every data page it
/// decodes is counted once, as a read or a cache hit.
pub struct TableCursor {
    table: Rc<Table>,
    next_page: usize,
    /// Pages read ahead (no cache) or the current page (cache).
    buf: Vec<u8>,
    buf_first_page: usize,
    buf_pages: usize,
    /// Pages the next read (no cache) fetches: a seek starts with one and doubles as the cursor
    /// keeps going (a short scan reads what it needs), a cursor from the start reads the most.
    read_ahead: usize,
    page_start: usize,
    /// Length of the current page (a RocksDB-style block may be longer or shorter than a page).
    page_len: usize,
    pos: usize,
    remaining: usize,
    seek_to: Option<Box<[u8]>>,
    key: page::Span,
    value: Option<page::Span>,
    valid: bool,
}

impl TableCursor {
    /// Positioned before the first entry ≥ `start` (or the first entry); call `advance` first.
    pub fn new(table: Rc<Table>, start: Option<&[u8]>, ctx: &mut ReadCtx<'_>) -> Result<TableCursor> {
        let next_page = match start {
            Some(k) => table.page_for(k, ctx)?,
            None => 0,
        };
        Ok(TableCursor {
            table,
            next_page,
            buf: Vec::new(),
            buf_first_page: 0,
            buf_pages: 0,
            read_ahead: if start.is_some() { 1 } else { READ_AHEAD_PAGES },
            page_start: 0,
            page_len: 0,
            pos: 0,
            remaining: 0,
            seek_to: start.map(Box::from),
            key: (0, 0),
            value: None,
            valid: false,
        })
    }

    /// Whether the cursor is on an entry: false before the first `advance` and past the last entry.
    pub fn valid(&self) -> bool {
        self.valid
    }

    /// The current entry's key (only meaningful while `valid`).
    pub fn key(&self) -> &[u8] {
        &self.buf[self.key.0..self.key.1]
    }

    /// The current entry's value, or `None` for a tombstone.
    pub fn value(&self) -> Option<&[u8]> {
        self.value.map(|(s, e)| &self.buf[s..e])
    }

    /// The table being read.
    pub fn table(&self) -> &Rc<Table> {
        &self.table
    }

    /// The current entry exactly as its page encodes it.
    pub fn encoded(&self) -> &[u8] {
        let end = self.value.map_or(self.key.1, |(_, e)| e);
        &self.buf[self.key.0 - page::ENTRY_HEADER..end]
    }

    /// Move to the next entry (the first, on the first call). Returns `valid()`.
    pub fn advance(&mut self, ctx: &mut ReadCtx<'_>) -> Result<bool> {
        loop {
            if self.remaining > 0 {
                let ps = self.page_start;
                let ((ks, ke), value, next) =
                    page::entry_at(&self.buf[ps..ps + self.page_len], self.pos).ok_or_else(|| {
                        let at = self.table.block_span(self.next_page - 1).0 + self.pos as u64;
                        Error::corruption(&self.table.file, at, "entry overruns its page")
                    })?;
                self.key = (ps + ks, ps + ke);
                self.value = value.map(|(s, e)| (ps + s, ps + e));
                self.pos = next;
                self.remaining -= 1;
                if let Some(target) = &self.seek_to {
                    if compare(&self.buf[self.key.0..self.key.1], target).is_lt() {
                        continue;
                    }
                    self.seek_to = None;
                }
                self.valid = true;
                return Ok(true);
            }
            if self.next_page as u64 >= self.table.data_pages {
                self.valid = false;
                return Ok(false);
            }
            self.load_page(ctx)?;
        }
    }

    fn load_page(&mut self, ctx: &mut ReadCtx<'_>) -> Result<()> {
        let t = self.table.clone();
        let p = self.next_page;
        let (offset, page_bytes) = t.block_span(p);
        self.page_len = page_bytes;
        if ctx.cache.enabled() {
            let key = BlockKey { table: t.id, kind: BlockKind::Data, index: p as u32 };
            if let Some(Block::Page(bytes)) = ctx.cache.get(&key) {
                ctx.counters.data_cache_hits += 1;
                self.buf.clear();
                self.buf.extend_from_slice(&bytes);
            } else {
                ctx.counters.data_pages_read += 1;
                let bytes = read_page_into_cache(&t.file, offset, page_bytes, key, ctx)?;
                self.buf.clear();
                self.buf.extend_from_slice(&bytes);
            }
            self.buf_first_page = p;
            self.buf_pages = 1;
            self.page_start = 0;
        } else {
            if p < self.buf_first_page || p >= self.buf_first_page + self.buf_pages {
                let n = self.read_ahead.min((t.data_pages as usize) - p);
                self.read_ahead = (self.read_ahead * 2).min(READ_AHEAD_PAGES);
                self.buf.clear();
                let buf = &mut self.buf;
                // Pages (or blocks) p..p+n lie back to back: one read, each verified alone.
                let (last_at, last_len) = t.block_span(p + n - 1);
                let len = (last_at - offset) as usize + last_len;
                let table = &t;
                let check = |bytes: &[u8]| -> Result<()> {
                    for q in p..p + n {
                        let (at, l) = table.block_span(q);
                        let from = (at - offset) as usize;
                        page::verify(&table.file, at, &bytes[from..from + l])?;
                    }
                    Ok(())
                };
                ctx.storage.read_checked(&t.file, offset, len, &check, &mut |bytes| {
                    buf.extend_from_slice(bytes);
                    Ok(())
                })?;
                self.buf_first_page = p;
                self.buf_pages = n;
            }
            self.page_start = (offset - t.block_span(self.buf_first_page).0) as usize;
            ctx.counters.data_pages_read += 1;
        }
        self.remaining = page::count(&self.buf[self.page_start..]);
        self.pos = page::PAGE_HEADER;
        self.next_page += 1;
        Ok(())
    }
}

/// A cursor over a run: its tables one after the other.
pub struct RunCursor {
    tables: Vec<Rc<Table>>,
    next_table: usize,
    current: Option<TableCursor>,
    start: Option<Box<[u8]>>,
}

impl RunCursor {
    /// Tables must be sorted and disjoint. Starts at the first entry ≥ `start`.
    pub fn new(tables: Vec<Rc<Table>>, start: Option<&[u8]>) -> RunCursor {
        let next_table = match start {
            Some(k) => tables.partition_point(|t| compare(t.max_key(), k).is_lt()),
            None => 0,
        };
        RunCursor { tables, next_table, current: None, start: start.map(Box::from) }
    }

    /// Whether the cursor is on an entry: false before the first `advance` and past the run's last entry.
    pub fn valid(&self) -> bool {
        self.current.as_ref().is_some_and(TableCursor::valid)
    }

    /// The current entry's key (empty when not `valid`).
    pub fn key(&self) -> &[u8] {
        self.current.as_ref().map_or(&[], TableCursor::key)
    }

    /// The current entry's value: `None` for a tombstone, or when not `valid`.
    pub fn value(&self) -> Option<&[u8]> {
        self.current.as_ref().and_then(TableCursor::value)
    }

    /// The current entry exactly as its page encodes it (empty when not `valid`), for a merge to copy.
    pub fn encoded(&self) -> &[u8] {
        self.current.as_ref().map_or(&[], TableCursor::encoded)
    }

    /// Every table of the run, in key order.
    pub fn tables(&self) -> &[Rc<Table>] {
        &self.tables
    }

    /// The table the current entry comes from.
    pub fn table(&self) -> Option<&Rc<Table>> {
        self.current.as_ref().map(TableCursor::table)
    }

    /// Move to the next entry (the first, on the first call), going on to the run's next table when one
    /// ends. Returns `valid()`.
    pub fn advance(&mut self, ctx: &mut ReadCtx<'_>) -> Result<bool> {
        loop {
            if let Some(c) = &mut self.current
                && c.advance(ctx)?
            {
                return Ok(true);
            }
            if self.next_table >= self.tables.len() {
                self.current = None;
                return Ok(false);
            }
            let t = self.tables[self.next_table].clone();
            self.next_table += 1;
            // Only the first table needs a seek; later ones start at their first key, reading
            // ahead as much as the cursor had come to (a short scan stays short across tables).
            let start = self.start.take();
            let carried = self.current.as_ref().map(|c| c.read_ahead);
            let mut next = TableCursor::new(t, start.as_deref(), ctx)?;
            if let Some(r) = carried {
                next.read_ahead = r;
            }
            self.current = Some(next);
        }
    }
}

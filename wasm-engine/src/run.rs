//! A sorted run: one immutable file of fixed-size data pages, followed by its Bloom filter,
//! its fence pointers (first key of every page) and a footer. Fence pointers and the filter are
//! kept in memory once the run is open, so a point lookup costs at most one data page read.
//!
//! File layout (all integers little-endian):
//! ```text
//! data page × P   [u32 checksum of the rest][u16 count]{[u16 klen][u32 vlen|TOMB][key][value]}* zero pad
//! filter block    Bloom::encode
//! index block     [u32 P]{[u16 len][first key of page p]}* [u16 len][max key]
//! footer (88 B)   magic, version, page_bytes, P, entries, entry bytes, filter/index offsets,
//!                 lengths and checksums, footer checksum
//! ```

use crate::bloom::{Bloom, Probe};
use crate::error::{Error, Result};
use crate::hash::checksum;
use crate::stats::{ReadCounters, WriteCounters};
use crate::storage::Storage;

const MAGIC: u64 = u64::from_le_bytes(*b"LSMNRUN1");
const FORMAT_VERSION: u32 = 1;
const FOOTER_BYTES: usize = 88;
const PAGE_HEADER: usize = 6;
const ENTRY_HEADER: usize = 6;
const TOMBSTONE: u32 = u32::MAX;
/// Physical write size: data pages are buffered and appended in chunks this large.
const WRITE_CHUNK: usize = 1 << 20;
/// Physical read-ahead of sequential cursors (merges and scans), in pages.
const READ_AHEAD_PAGES: usize = 16;

/// The largest key + value that fits in one page of `page_bytes`.
pub fn max_entry_bytes(page_bytes: u32) -> usize {
    page_bytes as usize - PAGE_HEADER - ENTRY_HEADER
}

pub fn run_file_name(id: u64) -> String {
    format!("{id:08}.run")
}

/// Bits per key and hash count a run's filter is built with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FilterSpec {
    pub bits_per_key: f64,
}

/// Writes a run in key order. Keys must be strictly increasing.
pub struct RunBuilder {
    file: String,
    page_bytes: usize,
    page: Vec<u8>,
    page_count: u16,
    pending: Vec<u8>,
    written: u64,
    fences: Vec<Box<[u8]>>,
    last_key: Vec<u8>,
    hashes: Vec<u64>,
    entries: u64,
    entry_bytes: u64,
}

impl RunBuilder {
    pub fn new(id: u64, page_bytes: u32) -> Self {
        let page_bytes = page_bytes as usize;
        let mut page = Vec::with_capacity(page_bytes);
        page.resize(PAGE_HEADER, 0);
        RunBuilder {
            file: run_file_name(id),
            page_bytes,
            page,
            page_count: 0,
            pending: Vec::with_capacity(WRITE_CHUNK.min(page_bytes * 256)),
            written: 0,
            fences: Vec::new(),
            last_key: Vec::new(),
            hashes: Vec::new(),
            entries: 0,
            entry_bytes: 0,
        }
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
        let need = ENTRY_HEADER + key.len() + vlen;
        if key.len() > u16::MAX as usize || need > self.page_bytes - PAGE_HEADER {
            return Err(Error::TooLarge {
                field: "entry".into(),
                message: format!(
                    "key ({} B) + value ({vlen} B) must fit in one page: at most {} B together",
                    key.len(),
                    max_entry_bytes(self.page_bytes as u32)
                ),
            });
        }
        debug_assert!(self.entries == 0 || key > &self.last_key[..], "keys must be strictly increasing");
        if self.page.len() + need > self.page_bytes {
            self.finish_page(storage)?;
        }
        if self.page_count == 0 {
            self.fences.push(Box::from(key));
        }
        self.page.extend_from_slice(&(key.len() as u16).to_le_bytes());
        self.page.extend_from_slice(&value.map_or(TOMBSTONE, |v| v.len() as u32).to_le_bytes());
        self.page.extend_from_slice(key);
        if let Some(v) = value {
            self.page.extend_from_slice(v);
        }
        self.page_count += 1;
        self.last_key.clear();
        self.last_key.extend_from_slice(key);
        self.hashes.push(crate::hash::hash64(key, crate::bloom::FILTER_SEED));
        self.entries += 1;
        self.entry_bytes += (key.len() + vlen) as u64;
        Ok(())
    }

    fn finish_page(&mut self, storage: &mut dyn Storage) -> Result<()> {
        self.page.resize(self.page_bytes, 0);
        self.page[4..6].copy_from_slice(&self.page_count.to_le_bytes());
        let sum = checksum(&self.page[4..]);
        self.page[0..4].copy_from_slice(&sum.to_le_bytes());
        self.pending.extend_from_slice(&self.page);
        self.page.clear();
        self.page.resize(PAGE_HEADER, 0);
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

    /// Write the filter, index and footer, sync, and return the open run. `None` if no entry
    /// was added (nothing is written then).
    pub fn finish(
        mut self,
        id: u64,
        filter: FilterSpec,
        storage: &mut dyn Storage,
        counters: &mut WriteCounters,
    ) -> Result<Option<Run>> {
        if self.entries == 0 {
            return Ok(None);
        }
        if self.page_count > 0 {
            self.finish_page(storage)?;
        }
        let data_pages = self.fences.len() as u64;
        let mut bloom = Bloom::with_bits_per_key(self.entries, filter.bits_per_key);
        if !bloom.is_empty() {
            for &h in &self.hashes {
                bloom.insert(Probe::from_hash(h));
            }
        }
        let filter_offset = self.written + self.pending.len() as u64;
        let filter_start = self.pending.len();
        bloom.encode(&mut self.pending);
        let filter_len = (self.pending.len() - filter_start) as u64;
        let filter_sum = checksum(&self.pending[filter_start..]);

        let index_offset = filter_offset + filter_len;
        let index_start = self.pending.len();
        encode_index(&self.fences, &self.last_key, &mut self.pending);
        let index_len = (self.pending.len() - index_start) as u64;
        let index_sum = checksum(&self.pending[index_start..]);

        let footer = Footer {
            page_bytes: self.page_bytes as u32,
            data_pages,
            entries: self.entries,
            entry_bytes: self.entry_bytes,
            filter_offset,
            filter_len,
            index_offset,
            index_len,
            filter_sum,
            index_sum,
        };
        footer.encode(&mut self.pending);
        self.flush_pending(storage)?;
        storage.sync(&self.file)?;

        let page = self.page_bytes as u64;
        let file_len = self.written;
        counters.data_pages_written += data_pages;
        counters.meta_pages_written += (file_len - data_pages * page).div_ceil(page);
        counters.bytes_written += file_len;
        counters.entries_written += self.entries;

        let max_key: Box<[u8]> = Box::from(&self.last_key[..]);
        Ok(Some(Run {
            id,
            file: self.file,
            page_bytes: self.page_bytes as u32,
            entries: self.entries,
            entry_bytes: self.entry_bytes,
            file_bytes: file_len,
            fences: self.fences,
            max_key,
            bloom,
        }))
    }
}

fn encode_index(fences: &[Box<[u8]>], max_key: &[u8], out: &mut Vec<u8>) {
    out.extend_from_slice(&(fences.len() as u32).to_le_bytes());
    for f in fences.iter().map(|f| &f[..]).chain(std::iter::once(max_key)) {
        out.extend_from_slice(&(f.len() as u16).to_le_bytes());
        out.extend_from_slice(f);
    }
}

struct Footer {
    page_bytes: u32,
    data_pages: u64,
    entries: u64,
    entry_bytes: u64,
    filter_offset: u64,
    filter_len: u64,
    index_offset: u64,
    index_len: u64,
    filter_sum: u32,
    index_sum: u32,
}

impl Footer {
    fn encode(&self, out: &mut Vec<u8>) {
        let start = out.len();
        out.extend_from_slice(&MAGIC.to_le_bytes());
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&self.page_bytes.to_le_bytes());
        for v in [
            self.data_pages,
            self.entries,
            self.entry_bytes,
            self.filter_offset,
            self.filter_len,
            self.index_offset,
            self.index_len,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.filter_sum.to_le_bytes());
        out.extend_from_slice(&self.index_sum.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes()); // reserved
        let sum = checksum(&out[start..]);
        out.extend_from_slice(&sum.to_le_bytes());
        debug_assert_eq!(out.len() - start, FOOTER_BYTES);
    }

    fn decode(file: &str, offset: u64, b: &[u8]) -> Result<Footer> {
        let bad = |m: &str| Error::corruption(file, offset, m.to_string());
        let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let u64_at = |i: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&b[i..i + 8]);
            u64::from_le_bytes(w)
        };
        if b.len() != FOOTER_BYTES {
            return Err(bad("footer has the wrong length"));
        }
        if checksum(&b[..84]) != u32_at(84) {
            return Err(bad("footer checksum mismatch"));
        }
        if u64_at(0) != MAGIC {
            return Err(bad("not a run file (bad magic)"));
        }
        if u32_at(8) != FORMAT_VERSION {
            return Err(bad("unsupported run format version"));
        }
        Ok(Footer {
            page_bytes: u32_at(12),
            data_pages: u64_at(16),
            entries: u64_at(24),
            entry_bytes: u64_at(32),
            filter_offset: u64_at(40),
            filter_len: u64_at(48),
            index_offset: u64_at(56),
            index_len: u64_at(64),
            filter_sum: u32_at(72),
            index_sum: u32_at(76),
        })
    }
}

/// An open run: its filter and fence pointers in memory, its pages in storage.
#[derive(Debug)]
pub struct Run {
    pub id: u64,
    pub file: String,
    pub page_bytes: u32,
    pub entries: u64,
    /// Sum of key + value lengths (the unit of level capacities).
    pub entry_bytes: u64,
    pub file_bytes: u64,
    fences: Vec<Box<[u8]>>,
    max_key: Box<[u8]>,
    pub bloom: Bloom,
}

/// Result of looking a key up in one run.
#[derive(Debug, PartialEq, Eq)]
pub enum Found {
    Absent,
    Tombstone,
    Value(Vec<u8>),
}

impl Run {
    /// Open a run file: verify and load footer, filter and fence pointers.
    pub fn open(
        id: u64,
        storage: &mut dyn Storage,
        index_pages_read: &mut u64,
        filter_pages_read: &mut u64,
    ) -> Result<Run> {
        let file = run_file_name(id);
        let len = storage.len(&file)?;
        if len < FOOTER_BYTES as u64 {
            return Err(Error::corruption(&file, 0, "file shorter than a run footer"));
        }
        let footer_at = len - FOOTER_BYTES as u64;
        let footer = Footer::decode(&file, footer_at, &storage.read(&file, footer_at, FOOTER_BYTES)?)?;
        let page = u64::from(footer.page_bytes);
        let sane = footer.page_bytes.is_power_of_two()
            && footer.filter_offset == footer.data_pages * page
            && footer.index_offset == footer.filter_offset + footer.filter_len
            && footer.index_offset + footer.index_len == footer_at;
        if !sane {
            return Err(Error::corruption(&file, footer_at, "footer offsets are inconsistent with the file length"));
        }
        let filter_bytes = storage.read(&file, footer.filter_offset, footer.filter_len as usize)?;
        if checksum(&filter_bytes) != footer.filter_sum {
            return Err(Error::corruption(&file, footer.filter_offset, "filter block checksum mismatch"));
        }
        let bloom = Bloom::decode(&filter_bytes)
            .ok_or_else(|| Error::corruption(&file, footer.filter_offset, "filter block is malformed"))?;
        let index_bytes = storage.read(&file, footer.index_offset, footer.index_len as usize)?;
        if checksum(&index_bytes) != footer.index_sum {
            return Err(Error::corruption(&file, footer.index_offset, "index block checksum mismatch"));
        }
        let (fences, max_key) = decode_index(&index_bytes)
            .filter(|(f, _)| f.len() as u64 == footer.data_pages && !f.is_empty())
            .ok_or_else(|| Error::corruption(&file, footer.index_offset, "index block is malformed"))?;
        *index_pages_read += footer.index_len.div_ceil(page);
        *filter_pages_read += footer.filter_len.div_ceil(page);
        Ok(Run {
            id,
            file,
            page_bytes: footer.page_bytes,
            entries: footer.entries,
            entry_bytes: footer.entry_bytes,
            file_bytes: len,
            fences,
            max_key,
            bloom,
        })
    }

    pub fn data_pages(&self) -> u64 {
        self.fences.len() as u64
    }

    pub fn min_key(&self) -> &[u8] {
        &self.fences[0]
    }

    pub fn max_key(&self) -> &[u8] {
        &self.max_key
    }

    /// Page that holds `key` if any page does: the last page whose first key is ≤ key.
    fn page_for(&self, key: &[u8]) -> usize {
        self.fences.partition_point(|f| &f[..] <= key).saturating_sub(1)
    }

    /// Theoretical FPR of this run's filter (1 when it has none).
    pub fn filter_fpr(&self) -> f64 {
        crate::bloom::expected_fpr(self.bloom.bits(), self.bloom.hashes(), self.entries)
    }

    /// Point lookup: key-range check, filter probe, then at most one data page read.
    pub fn get(
        &self,
        key: &[u8],
        probe: Probe,
        storage: &mut dyn Storage,
        page: &mut Vec<u8>,
        c: &mut ReadCounters,
    ) -> Result<Found> {
        if key < self.min_key() || key > self.max_key() {
            c.runs_skipped_by_range += 1;
            return Ok(Found::Absent);
        }
        let filtered = !self.bloom.is_empty();
        if filtered {
            c.filter_probes += 1;
            if !self.bloom.may_contain(probe) {
                c.filter_negatives += 1;
                return Ok(Found::Absent);
            }
            c.filter_positives += 1;
        } else {
            c.runs_without_filter += 1;
        }
        let p = self.page_for(key);
        self.read_page(p, storage, page)?;
        c.data_pages_read += 1;
        let found = search_page(&self.file, self.page_offset(p), page, key)?;
        if filtered && found != Found::Absent {
            c.filter_true_positives += 1;
        }
        Ok(found)
    }

    fn page_offset(&self, p: usize) -> u64 {
        p as u64 * u64::from(self.page_bytes)
    }

    fn read_page(&self, p: usize, storage: &mut dyn Storage, page: &mut Vec<u8>) -> Result<()> {
        page.resize(self.page_bytes as usize, 0);
        storage.read_into(&self.file, self.page_offset(p), page)?;
        verify_page(&self.file, self.page_offset(p), page)
    }

    /// A cursor positioned at the first entry ≥ `start` (or the first entry).
    pub fn cursor(&self, start: Option<&[u8]>) -> RunCursor {
        let page = start.map_or(0, |k| self.page_for(k));
        RunCursor {
            file: self.file.clone(),
            page_bytes: self.page_bytes as usize,
            data_pages: self.fences.len(),
            next_page: page,
            buf: Vec::new(),
            buf_first_page: 0,
            pos: 0,
            remaining: 0,
            seek_to: start.map(Box::from),
            key: (0, 0),
            value: None,
            valid: false,
        }
    }
}

/// Fence pointers (first key of each page) and the run's largest key.
type Index = (Vec<Box<[u8]>>, Box<[u8]>);

fn decode_index(b: &[u8]) -> Option<Index> {
    let n = u32::from_le_bytes(b.get(0..4)?.try_into().ok()?) as usize;
    let mut pos = 4;
    let mut keys = Vec::with_capacity(n + 1);
    for _ in 0..=n {
        let len = u16::from_le_bytes(b.get(pos..pos + 2)?.try_into().ok()?) as usize;
        keys.push(Box::from(b.get(pos + 2..pos + 2 + len)?));
        pos += 2 + len;
    }
    if pos != b.len() {
        return None;
    }
    let max = keys.pop()?;
    Some((keys, max))
}

fn verify_page(file: &str, offset: u64, page: &[u8]) -> Result<()> {
    let stored = u32::from_le_bytes([page[0], page[1], page[2], page[3]]);
    if checksum(&page[4..]) != stored {
        return Err(Error::corruption(file, offset, "data page checksum mismatch"));
    }
    Ok(())
}

/// Byte range within a page.
type Span = (usize, usize);

/// Decode the entry at `pos`: (key span, value span or None for a tombstone, next pos).
#[inline]
fn entry_at(page: &[u8], pos: usize) -> Option<(Span, Option<Span>, usize)> {
    let klen = u16::from_le_bytes([*page.get(pos)?, *page.get(pos + 1)?]) as usize;
    let vraw = u32::from_le_bytes(page.get(pos + 2..pos + 6)?.try_into().ok()?);
    let kstart = pos + ENTRY_HEADER;
    let kend = kstart + klen;
    let (value, next) = if vraw == TOMBSTONE {
        (None, kend)
    } else {
        let vend = kend + vraw as usize;
        (Some((kend, vend)), vend)
    };
    if next > page.len() {
        return None;
    }
    Some(((kstart, kend), value, next))
}

fn search_page(file: &str, offset: u64, page: &[u8], key: &[u8]) -> Result<Found> {
    let count = u16::from_le_bytes([page[4], page[5]]) as usize;
    let mut pos = PAGE_HEADER;
    for _ in 0..count {
        let ((ks, ke), value, next) = entry_at(page, pos)
            .ok_or_else(|| Error::corruption(file, offset + pos as u64, "entry overruns its page"))?;
        match page[ks..ke].cmp(key) {
            std::cmp::Ordering::Less => pos = next,
            std::cmp::Ordering::Equal => {
                return Ok(match value {
                    None => Found::Tombstone,
                    Some((vs, ve)) => Found::Value(page[vs..ve].to_vec()),
                });
            }
            std::cmp::Ordering::Greater => break,
        }
    }
    Ok(Found::Absent)
}

/// Sequential reader over a run's entries, used by merges and range scans. Each data page it
/// decodes is counted once in `pages_read`; physically it reads ahead several pages per call.
pub struct RunCursor {
    file: String,
    page_bytes: usize,
    data_pages: usize,
    next_page: usize,
    buf: Vec<u8>,
    buf_first_page: usize,
    pos: usize,
    remaining: usize,
    seek_to: Option<Box<[u8]>>,
    key: (usize, usize),
    value: Option<(usize, usize)>,
    valid: bool,
}

impl RunCursor {
    pub fn valid(&self) -> bool {
        self.valid
    }

    pub fn key(&self) -> &[u8] {
        &self.buf[self.key.0..self.key.1]
    }

    pub fn value(&self) -> Option<&[u8]> {
        self.value.map(|(s, e)| &self.buf[s..e])
    }

    /// Move to the next entry (or the first, on the first call). Returns `valid()`.
    pub fn advance(&mut self, storage: &mut dyn Storage, pages_read: &mut u64) -> Result<bool> {
        loop {
            if self.remaining > 0 {
                let page_start = self.current_page_start();
                let ((ks, ke), value, next) = entry_at(&self.buf[page_start..page_start + self.page_bytes], self.pos)
                    .ok_or_else(|| {
                    Error::corruption(
                        &self.file,
                        self.current_page_offset() + self.pos as u64,
                        "entry overruns its page",
                    )
                })?;
                self.key = (page_start + ks, page_start + ke);
                self.value = value.map(|(s, e)| (page_start + s, page_start + e));
                self.pos = next;
                self.remaining -= 1;
                if let Some(target) = &self.seek_to {
                    if self.buf[self.key.0..self.key.1] < target[..] {
                        continue;
                    }
                    self.seek_to = None;
                }
                self.valid = true;
                return Ok(true);
            }
            if self.next_page >= self.data_pages {
                self.valid = false;
                return Ok(false);
            }
            self.load_page(storage)?;
            *pages_read += 1;
        }
    }

    fn current_page_start(&self) -> usize {
        (self.next_page - 1 - self.buf_first_page) * self.page_bytes
    }

    fn current_page_offset(&self) -> u64 {
        ((self.next_page - 1) * self.page_bytes) as u64
    }

    fn load_page(&mut self, storage: &mut dyn Storage) -> Result<()> {
        let buffered = self.buf.len() / self.page_bytes;
        if self.next_page < self.buf_first_page || self.next_page >= self.buf_first_page + buffered {
            let n = READ_AHEAD_PAGES.min(self.data_pages - self.next_page);
            self.buf.resize(n * self.page_bytes, 0);
            storage.read_into(&self.file, (self.next_page * self.page_bytes) as u64, &mut self.buf)?;
            self.buf_first_page = self.next_page;
        }
        let start = (self.next_page - self.buf_first_page) * self.page_bytes;
        let offset = (self.next_page * self.page_bytes) as u64;
        verify_page(&self.file, offset, &self.buf[start..start + self.page_bytes])?;
        self.remaining = u16::from_le_bytes([self.buf[start + 4], self.buf[start + 5]]) as usize;
        self.pos = PAGE_HEADER;
        self.next_page += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::MemStorage;

    fn key(i: u64) -> Vec<u8> {
        format!("key{i:08}").into_bytes()
    }

    fn build(n: u64, bpk: f64, storage: &mut MemStorage) -> Run {
        let mut b = RunBuilder::new(1, 512);
        for i in 0..n {
            let v = if i % 7 == 3 { None } else { Some(vec![i as u8; (i % 50) as usize]) };
            b.add(&key(i * 2), v.as_deref(), storage).unwrap();
        }
        b.finish(1, FilterSpec { bits_per_key: bpk }, storage, &mut WriteCounters::default()).unwrap().unwrap()
    }

    #[test]
    fn point_lookups_find_values_tombstones_and_absence() {
        let mut s = MemStorage::new();
        let run = build(1000, 10.0, &mut s);
        let mut page = Vec::new();
        let mut c = ReadCounters::default();
        for i in 0..1000u64 {
            let k = key(i * 2);
            let expect = if i % 7 == 3 { Found::Tombstone } else { Found::Value(vec![i as u8; (i % 50) as usize]) };
            assert_eq!(run.get(&k, Probe::new(&k), &mut s, &mut page, &mut c).unwrap(), expect);
            let missing = key(i * 2 + 1);
            assert_eq!(run.get(&missing, Probe::new(&missing), &mut s, &mut page, &mut c).unwrap(), Found::Absent);
        }
        assert_eq!(c.filter_true_positives, 1000);
        assert_eq!(c.data_pages_read, 1000 + c.filter_positives - 1000);
        assert_eq!(c.filter_probes, c.filter_negatives + c.filter_positives);
    }

    #[test]
    fn reopened_run_matches_built_run() {
        let mut s = MemStorage::new();
        let built = build(500, 5.0, &mut s);
        let (mut ip, mut fp) = (0, 0);
        let opened = Run::open(1, &mut s, &mut ip, &mut fp).unwrap();
        assert_eq!(opened.entries, built.entries);
        assert_eq!(opened.fences, built.fences);
        assert_eq!(opened.bloom, built.bloom);
        assert_eq!(opened.max_key(), key(998).as_slice());
        assert!(ip >= 1 && fp >= 1);
    }

    #[test]
    fn cursor_visits_every_entry_in_order_and_seeks() {
        let mut s = MemStorage::new();
        let run = build(1000, 0.0, &mut s);
        let mut pages = 0;
        let mut cur = run.cursor(None);
        let mut n = 0u64;
        while cur.advance(&mut s, &mut pages).unwrap() {
            assert_eq!(cur.key(), key(n * 2).as_slice());
            n += 1;
        }
        assert_eq!(n, 1000);
        assert_eq!(pages, run.data_pages());
        let start = key(501);
        let mut cur = run.cursor(Some(&start));
        let mut pages = 0;
        assert!(cur.advance(&mut s, &mut pages).unwrap());
        assert_eq!(cur.key(), key(502).as_slice());
        assert_eq!(pages, 1);
    }

    #[test]
    fn every_corrupted_byte_is_detected() {
        let mut s = MemStorage::new();
        let _ = build(200, 8.0, &mut s);
        let len = s.contents("00000001.run").unwrap().len();
        for offset in (0..len).step_by(13) {
            let copy = MemStorage::new();
            copy.install("00000001.run", s.contents("00000001.run").unwrap());
            copy.corrupt("00000001.run", offset, 0x10);
            let mut st = copy.clone();
            let result = Run::open(1, &mut st, &mut 0, &mut 0).and_then(|run| {
                let mut cur = run.cursor(None);
                let mut p = 0;
                while cur.advance(&mut st, &mut p)? {}
                Ok(())
            });
            // Bytes in page padding are covered by the page checksum too, so every flip fails.
            assert!(matches!(result, Err(Error::Corruption { .. })), "flip at {offset} went unnoticed");
        }
    }
}

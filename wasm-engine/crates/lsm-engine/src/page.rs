//! The data page: the unit of I/O. `[u32 checksum of the rest][u16 count]` then entries
//! `[u16 key length][u32 value length, or u32::MAX for a tombstone][key][value]`, zero padding.

use lsm_core::error::{Error, Result};
use lsm_core::hash::checksum;

pub use lsm_core::layout::{ENTRY_HEADER, PAGE_HEADER};
/// The value length that marks a tombstone in an entry header (no value bytes follow).
pub const TOMBSTONE: u32 = u32::MAX;

/// The largest key + value that fits in one page of `page_bytes`.
pub fn max_entry_bytes(page_bytes: u32) -> usize {
    page_bytes as usize - PAGE_HEADER - ENTRY_HEADER
}

/// Byte range within a page.
pub type Span = (usize, usize);

/// What a lookup found in a table.
#[derive(Debug, PartialEq, Eq)]
pub enum Found {
    /// The table holds no version of the key.
    Absent,
    /// The key was deleted: the table holds its tombstone.
    Tombstone,
    /// The key's value.
    Value(Vec<u8>),
}

/// Seal the page filled from `start` to the end of `buf`: pad, set the entry count, write the checksum.
pub fn seal(buf: &mut Vec<u8>, start: usize, page_bytes: usize, count: u16) {
    buf.resize(start + page_bytes, 0);
    let page = &mut buf[start..];
    page[4..6].copy_from_slice(&count.to_le_bytes());
    let sum = checksum(&page[4..]);
    page[0..4].copy_from_slice(&sum.to_le_bytes());
}

/// Seal a RocksDB-style block filled from `start` to the end of `buf` at its own length (no
/// padding): set the entry count, write the checksum.
pub fn seal_block(buf: &mut [u8], start: usize, count: u16) {
    let block = &mut buf[start..];
    block[4..6].copy_from_slice(&count.to_le_bytes());
    let sum = checksum(&block[4..]);
    block[0..4].copy_from_slice(&sum.to_le_bytes());
}

/// Append one entry to `page` encoded as a page holds it (see the module docs: a value length of
/// `TOMBSTONE` for a delete); the caller checks that it fits.
pub fn push_entry(page: &mut Vec<u8>, key: &[u8], value: Option<&[u8]>) {
    page.extend_from_slice(&(key.len() as u16).to_le_bytes());
    page.extend_from_slice(&value.map_or(TOMBSTONE, |v| v.len() as u32).to_le_bytes());
    page.extend_from_slice(key);
    if let Some(v) = value {
        page.extend_from_slice(v);
    }
}

/// Check a whole page's checksum; a mismatch is a corruption error naming `file` and `offset`.
pub fn verify(file: &str, offset: u64, page: &[u8]) -> Result<()> {
    let stored = u32::from_le_bytes([page[0], page[1], page[2], page[3]]);
    if checksum(&page[4..]) != stored {
        return Err(Error::corruption(file, offset, "data page checksum mismatch"));
    }
    Ok(())
}

/// Entries the page holds, from its header.
pub fn count(page: &[u8]) -> usize {
    u16::from_le_bytes([page[4], page[5]]) as usize
}

/// Decode the entry at `pos`: (key span, value span or None for a tombstone, next pos).
#[inline]
pub fn entry_at(page: &[u8], pos: usize) -> Option<(Span, Option<Span>, usize)> {
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

/// Find `key` in a verified page.
pub fn search(file: &str, offset: u64, page: &[u8], key: &[u8]) -> Result<Found> {
    let mut pos = PAGE_HEADER;
    for _ in 0..count(page) {
        let ((ks, ke), value, next) = entry_at(page, pos)
            .ok_or_else(|| Error::corruption(file, offset + pos as u64, "entry overruns its page"))?;
        match crate::keycmp::compare(&page[ks..ke], key) {
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

//! Operation batches: many operations in one buffer, so a call across the JS↔wasm boundary (or
//! a trace file) carries thousands of operations instead of one.
//!
//! Encoding, repeated: `[u8 op][u16 key length][key]` then for puts `[u32 value length][value]`
//! and for scans `[u16 end-key length][end key]`. Integers little-endian.

use crate::engine::Engine;
use lsm_core::error::{Error, Result};

/// Operation code of a put: the key, then `[u32 value length][value]`.
pub const OP_PUT: u8 = 1;
/// Operation code of a delete: the key only.
pub const OP_DELETE: u8 = 2;
/// Operation code of a point lookup: the key only.
pub const OP_GET: u8 = 3;
/// Operation code of a range scan: the start key, then `[u16 end-key length][end key]`; both ends inclusive.
pub const OP_SCAN: u8 = 4;

/// What a batch did: per kind of operation, how many ran and what reads found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct BatchResult {
    /// Puts applied.
    pub puts: u64,
    /// Deletes applied.
    pub deletes: u64,
    /// Point lookups run.
    pub gets: u64,
    /// Point lookups that returned a value.
    pub gets_found: u64,
    /// Range scans run.
    pub scans: u64,
    /// Live entries the scans returned, summed over scans.
    pub scanned_entries: u64,
}

/// Append a put of `key` = `value` to `out`. The lengths are written as u16 and u32 unchecked: the key
/// must be shorter than 64 KiB.
pub fn encode_put(out: &mut Vec<u8>, key: &[u8], value: &[u8]) {
    out.push(OP_PUT);
    out.extend_from_slice(&(key.len() as u16).to_le_bytes());
    out.extend_from_slice(key);
    out.extend_from_slice(&(value.len() as u32).to_le_bytes());
    out.extend_from_slice(value);
}

/// Append an operation that carries a key only (`OP_DELETE` or `OP_GET`) to `out`; the key's length
/// is written as a u16 unchecked.
pub fn encode_key_op(out: &mut Vec<u8>, op: u8, key: &[u8]) {
    out.push(op);
    out.extend_from_slice(&(key.len() as u16).to_le_bytes());
    out.extend_from_slice(key);
}

/// Append a scan of `[start, end]`, both ends inclusive, to `out`.
pub fn encode_scan(out: &mut Vec<u8>, start: &[u8], end: &[u8]) {
    encode_key_op(out, OP_SCAN, start);
    out.extend_from_slice(&(end.len() as u16).to_le_bytes());
    out.extend_from_slice(end);
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.bytes.len()).ok_or_else(|| {
            Error::invalid("batch", format!("truncated operation at byte {} (needs {n} more bytes)", self.pos))
        })?;
        let s = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(s)
    }

    fn u16(&mut self) -> Result<usize> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]) as usize)
    }

    fn u32(&mut self) -> Result<usize> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
    }
}

/// Apply every operation of an encoded batch in order, then sync: when it returns, the batch's
/// writes are durable (acknowledged).
pub fn apply(engine: &mut Engine, bytes: &[u8]) -> Result<BatchResult> {
    let mut r = Reader { bytes, pos: 0 };
    let mut result = BatchResult::default();
    while r.pos < bytes.len() {
        let at = r.pos;
        let op = r.take(1)?[0];
        let klen = r.u16()?;
        let key = r.take(klen)?;
        match op {
            OP_PUT => {
                let vlen = r.u32()?;
                let value = r.take(vlen)?;
                engine.put(key, value)?;
                result.puts += 1;
            }
            OP_DELETE => {
                engine.delete(key)?;
                result.deletes += 1;
            }
            OP_GET => {
                result.gets += 1;
                if engine.get(key)?.is_some() {
                    result.gets_found += 1;
                }
            }
            OP_SCAN => {
                let elen = r.u16()?;
                let end = r.take(elen)?;
                result.scans += 1;
                result.scanned_entries += engine.scan_visit(key, end, |_, _| {})?;
            }
            other => {
                return Err(Error::invalid(
                    "batch",
                    format!("unknown operation code {other} at byte {at} (allowed 1-4)"),
                ));
            }
        }
    }
    engine.sync()?;
    Ok(result)
}

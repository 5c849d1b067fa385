//! Reading a trace payload's fields: fixed-width little-endian integers, varint32s and
//! length-prefixed strings (util/coding.h), each failure a message the reader puts a record to.

use std::ops::Range;

/// The little-endian u32 at `at` (the caller has checked the bytes are there).
pub(super) fn le32(data: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(std::array::from_fn(|i| data[at + i]))
}

/// The little-endian u64 at `at`.
pub(super) fn le64(data: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(std::array::from_fn(|i| data[at + i]))
}

/// Reads a payload's fields; messages say what is missing (the caller adds the record).
pub(super) struct Cursor<'a> {
    pub(super) data: &'a [u8],
    pub(super) pos: usize,
    pub(super) end: usize,
}

impl Cursor<'_> {
    pub(super) fn take(&mut self, n: usize, what: &str) -> std::result::Result<Range<usize>, String> {
        if self.end - self.pos < n {
            return Err(format!(
                "truncated {what} at byte {}: needs {n} bytes, {} left",
                self.pos,
                self.end - self.pos
            ));
        }
        self.pos += n;
        Ok(self.pos - n..self.pos)
    }

    pub(super) fn byte(&mut self) -> std::result::Result<u8, String> {
        Ok(self.data[self.take(1, "byte")?.start])
    }

    pub(super) fn fixed32(&mut self) -> std::result::Result<u32, String> {
        let r = self.take(4, "u32")?;
        Ok(le32(self.data, r.start))
    }

    pub(super) fn fixed64(&mut self) -> std::result::Result<u64, String> {
        let r = self.take(8, "u64")?;
        Ok(le64(self.data, r.start))
    }

    /// A varint32 (util/coding.h: 7 bits a byte, low first, at most 5 bytes).
    pub(super) fn varint32(&mut self) -> std::result::Result<u32, String> {
        let start = self.pos;
        let mut v = 0u64;
        for shift in (0..35).step_by(7) {
            let b = self.byte().map_err(|_| format!("truncated varint at byte {start}"))?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v as u32);
            }
        }
        Err(format!("varint at byte {start} is longer than 5 bytes"))
    }

    /// A varint32-length-prefixed string (GetLengthPrefixedSlice).
    pub(super) fn prefixed(&mut self) -> std::result::Result<Range<usize>, String> {
        let len = self.varint32()? as usize;
        self.take(len, "string")
    }
}

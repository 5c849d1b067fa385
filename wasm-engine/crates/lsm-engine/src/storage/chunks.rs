//! A growable byte string kept as a list of chunks: appending never moves the bytes already
//! stored (a run of hundreds of MiB is written without a single reallocation copy), and a read
//! inside one chunk is a plain slice.

/// Appends smaller than this extend the last chunk instead of starting one (log records).
const SMALL_APPEND: usize = 64 * 1024;

#[derive(Clone, Debug, Default)]
pub(super) struct Chunks {
    chunks: Vec<Vec<u8>>,
    /// Offset of the first byte of each chunk.
    starts: Vec<usize>,
    len: usize,
}

impl Chunks {
    pub(super) fn from_vec(data: Vec<u8>) -> Self {
        let len = data.len();
        if len == 0 {
            return Chunks::default();
        }
        Chunks { chunks: vec![data], starts: vec![0], len }
    }

    pub(super) fn len(&self) -> usize {
        self.len
    }

    pub(super) fn append(&mut self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        match self.chunks.last_mut() {
            Some(last) if bytes.len() < SMALL_APPEND && last.len() < SMALL_APPEND => last.extend_from_slice(bytes),
            _ => {
                self.starts.push(self.len);
                self.chunks.push(bytes.to_vec());
            }
        }
        self.len += bytes.len();
    }

    /// Index of the chunk holding byte `offset` (< len).
    fn chunk_of(&self, offset: usize) -> usize {
        self.starts.partition_point(|&s| s <= offset) - 1
    }

    /// `[offset, offset + len)` as one slice, if it lies inside one chunk.
    pub(super) fn slice(&self, offset: usize, len: usize) -> Option<&[u8]> {
        if len == 0 {
            return Some(&[]);
        }
        if offset.checked_add(len)? > self.len {
            return None;
        }
        let c = self.chunk_of(offset);
        let within = offset - self.starts[c];
        self.chunks[c].get(within..within + len)
    }

    /// Copy `[offset, offset + buf.len())` into `buf`; false if it runs past the end.
    pub(super) fn copy_to(&self, offset: usize, buf: &mut [u8]) -> bool {
        if offset.checked_add(buf.len()).is_none_or(|end| end > self.len) {
            return false;
        }
        let mut done = 0;
        while done < buf.len() {
            let at = offset + done;
            let c = self.chunk_of(at);
            let within = at - self.starts[c];
            let n = (self.chunks[c].len() - within).min(buf.len() - done);
            buf[done..done + n].copy_from_slice(&self.chunks[c][within..within + n]);
            done += n;
        }
        true
    }

    pub(super) fn byte_mut(&mut self, offset: usize) -> Option<&mut u8> {
        if offset >= self.len {
            return None;
        }
        let c = self.chunk_of(offset);
        let within = offset - self.starts[c];
        self.chunks[c].get_mut(within)
    }

    pub(super) fn truncate(&mut self, len: usize) {
        if len >= self.len {
            return;
        }
        let keep = self.starts.partition_point(|&s| s < len);
        self.chunks.truncate(keep);
        self.starts.truncate(keep);
        if let (Some(last), Some(&start)) = (self.chunks.last_mut(), self.starts.last()) {
            last.truncate(len - start);
        }
        self.len = len;
    }

    pub(super) fn to_vec(&self) -> Vec<u8> {
        self.chunks.concat()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn behaves_like_one_vec() {
        let mut c = Chunks::default();
        let mut v = Vec::new();
        for (i, n) in [3usize, 70_000, 5, 100_000, 1, 200_000, 7].iter().enumerate() {
            let bytes: Vec<u8> = (0..*n).map(|j| (i * 31 + j) as u8).collect();
            c.append(&bytes);
            v.extend_from_slice(&bytes);
        }
        assert_eq!(c.len(), v.len());
        assert_eq!(c.to_vec(), v);
        for (off, len) in [(0, 3), (2, 10), (69_990, 40), (170_000, 50_000), (v.len() - 7, 7)] {
            let mut buf = vec![0; len];
            assert!(c.copy_to(off, &mut buf));
            assert_eq!(buf, v[off..off + len]);
            if let Some(s) = c.slice(off, len) {
                assert_eq!(s, &v[off..off + len]);
            }
        }
        assert!(!c.copy_to(v.len() - 1, &mut [0; 2]));
        c.truncate(150_000);
        v.truncate(150_000);
        assert_eq!(c.to_vec(), v);
        *c.byte_mut(100).unwrap() ^= 1;
        v[100] ^= 1;
        assert_eq!(c.to_vec(), v);
    }
}

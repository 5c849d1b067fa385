//! The contract every storage backend keeps: named, append-only files of bytes.

use lsm_core::error::Result;

/// What a read hands the bytes to (`Storage::read_with`, `Storage::read_checked`): a backend that
/// holds them in memory passes its own slice, without a copy.
pub type Visit<'a> = &'a mut dyn FnMut(&[u8]) -> Result<()>;
/// A verification `Storage::read_checked` runs on the bytes before the visit (a checksum).
pub type Check<'a> = &'a dyn Fn(&[u8]) -> Result<()>;

/// What the engine keeps its files on: named, append-only files of bytes, with the ordered durability
/// its recovery relies on (`sync_later`, `commit_later`, `await_syncs`).
pub trait Storage {
    /// Append bytes to a file, creating it if absent. Appends are buffered by the backend until
    /// `sync`; only synced bytes are promised to survive a crash.
    fn append(&mut self, file: &str, bytes: &[u8]) -> Result<()>;
    /// Fill `buf` from `offset`; reading past the end is an error naming file and offset.
    fn read_into(&mut self, file: &str, offset: u64, buf: &mut [u8]) -> Result<()>;
    /// A file's length in bytes, synced or not; an error if there is no such file.
    fn len(&mut self, file: &str) -> Result<u64>;
    /// Make every appended byte of `file` durable.
    fn sync(&mut self, file: &str) -> Result<()>;
    /// Start making every byte appended to `file` so far durable, without waiting: they are
    /// durable once `await_syncs` returns, whichever handle appended them. A merge syncs each
    /// table it writes this way, so the disk syncs one table while the merge builds the next; the
    /// writer syncs a background merger's tables this way when it installs them. A backend that
    /// cannot sync in the background syncs at once.
    fn sync_later(&mut self, file: &str) -> Result<()> {
        self.sync(file)
    }
    /// Append `bytes` to `file` and make them durable, without waiting, but only once every
    /// `sync_later` and `commit_later` asked before has made its bytes durable: a commit record
    /// never reaches the disk ahead of the files it names, and a crash keeps the records up to
    /// some point and none after it. A `delete` asked afterwards takes effect after it. The bytes
    /// are readable at once; they are durable once `await_syncs` returns.
    fn commit_later(&mut self, file: &str, bytes: &[u8]) -> Result<()> {
        self.await_syncs()?;
        self.append(file, bytes)?;
        self.sync(file)
    }
    /// Wait until every `sync_later` and `commit_later` so far is durable; report one that failed.
    fn await_syncs(&mut self) -> Result<()> {
        Ok(())
    }
    /// Shorten a file (used to cut a torn log tail during recovery).
    fn truncate(&mut self, file: &str, len: u64) -> Result<()>;
    /// Remove a file. The name is gone at once; a backend that works in the background removes the bytes
    /// only after every `commit_later` asked before.
    fn delete(&mut self, file: &str) -> Result<()>;
    /// Let go of what this handle keeps open for `file` (descriptors, buffers) after writing its
    /// appends out: a second handle on the same files (a background merger's) releases each table
    /// it has finished writing or reading, so a table the other handle deletes frees its space.
    fn close(&mut self, _file: &str) -> Result<()> {
        Ok(())
    }
    /// Whether a file of this name exists.
    fn exists(&mut self, file: &str) -> Result<bool>;
    /// All file names, sorted.
    fn list(&mut self) -> Result<Vec<String>>;

    /// `len` bytes of `file` from `offset`, in a new buffer (see `read_into`).
    fn read(&mut self, file: &str, offset: u64, len: usize) -> Result<Vec<u8>> {
        let mut buf = vec![0; len];
        self.read_into(file, offset, &mut buf)?;
        Ok(buf)
    }

    /// Call `visit` with `len` bytes at `offset`. Backends that hold the bytes in memory pass
    /// them without copying (the hot path of a point lookup's page read).
    fn read_with(&mut self, file: &str, offset: u64, len: usize, visit: Visit<'_>) -> Result<()> {
        let buf = self.read(file, offset, len)?;
        visit(&buf)
    }

    /// Like `read_with`, with `check` (a checksum verification) run on the bytes first. A
    /// backend that holds the bytes in memory may remember ranges it has checked and that have
    /// not changed since, and skip the check for them.
    fn read_checked(&mut self, file: &str, offset: u64, len: usize, check: Check<'_>, visit: Visit<'_>) -> Result<()> {
        self.read_with(file, offset, len, &mut |b| {
            check(b)?;
            visit(b)
        })
    }
}

impl<S: Storage + ?Sized> Storage for Box<S> {
    fn append(&mut self, file: &str, bytes: &[u8]) -> Result<()> {
        (**self).append(file, bytes)
    }
    fn read_into(&mut self, file: &str, offset: u64, buf: &mut [u8]) -> Result<()> {
        (**self).read_into(file, offset, buf)
    }
    fn read_with(&mut self, file: &str, offset: u64, len: usize, visit: Visit<'_>) -> Result<()> {
        (**self).read_with(file, offset, len, visit)
    }
    fn read_checked(&mut self, file: &str, offset: u64, len: usize, check: Check<'_>, visit: Visit<'_>) -> Result<()> {
        (**self).read_checked(file, offset, len, check, visit)
    }
    fn len(&mut self, file: &str) -> Result<u64> {
        (**self).len(file)
    }
    fn sync(&mut self, file: &str) -> Result<()> {
        (**self).sync(file)
    }
    fn sync_later(&mut self, file: &str) -> Result<()> {
        (**self).sync_later(file)
    }
    fn commit_later(&mut self, file: &str, bytes: &[u8]) -> Result<()> {
        (**self).commit_later(file, bytes)
    }
    fn await_syncs(&mut self) -> Result<()> {
        (**self).await_syncs()
    }
    fn truncate(&mut self, file: &str, len: u64) -> Result<()> {
        (**self).truncate(file, len)
    }
    fn delete(&mut self, file: &str) -> Result<()> {
        (**self).delete(file)
    }
    fn close(&mut self, file: &str) -> Result<()> {
        (**self).close(file)
    }
    fn exists(&mut self, file: &str) -> Result<bool> {
        (**self).exists(file)
    }
    fn list(&mut self) -> Result<Vec<String>> {
        (**self).list()
    }
}

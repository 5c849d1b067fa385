//! In-memory storage. It also models what a crash does to unsynced data, so crash-safety tests
//! can cut the engine off at any point and reopen what a real disk would still hold.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;

use super::api::{Check, Storage, Visit};
use super::chunks::Chunks;
use lsm_core::error::{Error, Result};

#[derive(Clone, Debug, Default)]
struct MemFile {
    data: Chunks,
    /// Length guaranteed to survive a crash.
    synced: usize,
    /// Ranges (offset, length) a reader has checked (`read_checked`) since they last changed.
    checked: rustc_hash::FxHashSet<(u64, usize)>,
    /// Length of the prefix this process wrote itself and nothing has altered since: its
    /// checksums were computed from these very bytes, so checking them again proves nothing.
    trusted: usize,
}

/// Files shared through an `Rc` so a test can keep a handle, drop the engine (a crash) and
/// reopen the same bytes.
#[derive(Clone, Debug, Default)]
pub struct MemStorage {
    files: Rc<RefCell<BTreeMap<String, MemFile>>>,
    /// Crash tests: writes (appends, syncs, truncates, deletes) left before every further write
    /// fails, as if the process died there.
    writes_left: Rc<Cell<Option<u64>>>,
    /// A quota on stored bytes (None: unlimited); an append past it fails as storage full.
    quota: Rc<Cell<Option<u64>>>,
    /// What a background disk would still have to do, in order (`sync_later`, `commit_later`,
    /// and deletes asked while either waits): done by `await_syncs`, undone by a crash before
    /// it, the worst a slow disk can do.
    later: Rc<RefCell<Vec<Later>>>,
}

/// How far behind the modelled disk may run, in pieces of work.
const LATER_LAG: usize = 4;

#[derive(Clone, Debug)]
enum Later {
    Sync {
        file: String,
        len: usize,
    },
    /// Bytes `[from, to)` of `file`: readable at once, never on the disk before the work ahead.
    Commit {
        file: String,
        from: usize,
        to: usize,
    },
    /// Gone from the names at once; its bytes stay on the disk until the work ahead is done.
    Delete {
        file: String,
        was: MemFile,
    },
}

impl MemStorage {
    /// An empty store: no files, no quota (`set_quota`), no failure point (`fail_after_writes`).
    pub fn new() -> Self {
        Self::default()
    }

    /// What survives a power cut: every file cut back to its synced length, with `keep_unsynced`
    /// bytes of its unsynced tail kept (a torn write keeps part of it).
    /// Work still waiting for the disk (`Later`) is undone: deleted files come back, and bytes
    /// of a commit not yet written are not kept even in part.
    pub fn crash(&self, mut keep_unsynced: impl FnMut(&str, usize) -> usize) {
        let mut files = self.files.borrow_mut();
        let mut unwritten: BTreeMap<String, usize> = BTreeMap::new();
        for work in self.later.borrow_mut().drain(..) {
            match work {
                Later::Sync { .. } => {}
                Later::Commit { file, from, .. } => {
                    unwritten.entry(file).or_insert(from);
                }
                Later::Delete { file, was } => {
                    files.entry(file).or_insert(was);
                }
            }
        }
        for (name, f) in files.iter_mut() {
            let written = unwritten.get(name).map_or(f.data.len(), |&from| from.min(f.data.len()));
            let unsynced = written.saturating_sub(f.synced);
            let keep = keep_unsynced(name, unsynced).min(unsynced);
            f.data.truncate(f.synced + keep);
            f.synced = f.data.len();
            f.checked.clear();
            f.trusted = f.trusted.min(f.data.len());
        }
    }

    /// Flip bits of one stored byte (corruption tests).
    pub fn corrupt(&self, file: &str, offset: usize, mask: u8) {
        if let Some(f) = self.files.borrow_mut().get_mut(file) {
            f.checked.clear();
            f.trusted = 0;
            if let Some(b) = f.data.byte_mut(offset) {
                *b ^= mask;
            }
        }
    }

    /// Limit the bytes all files may hold together (None: no limit).
    pub fn set_quota(&self, bytes: Option<u64>) {
        self.quota.set(bytes);
    }

    /// Make every write after the next `n` fail (None: never).
    pub fn fail_after_writes(&self, n: Option<u64>) {
        self.writes_left.set(n);
    }

    fn write_allowed(&self, file: &str) -> Result<()> {
        match self.writes_left.get() {
            Some(0) => Err(Error::storage(file, "injected failure: the process died here")),
            Some(n) => {
                self.writes_left.set(Some(n - 1));
                Ok(())
            }
            None => Ok(()),
        }
    }

    /// Queue background work, doing the oldest while more than `LATER_LAG` wait: the disk runs
    /// a little behind, and what deleted files hold is freed soon.
    fn queue(&self, work: Later) -> Result<()> {
        self.later.borrow_mut().push(work);
        while self.later.borrow().len() > LATER_LAG {
            self.finish_oldest_work()?;
        }
        Ok(())
    }

    /// Do the oldest background work, if any; false when none waits.
    fn finish_oldest_work(&self) -> Result<bool> {
        let (file, durable) = match self.later.borrow().first() {
            None => return Ok(false),
            Some(Later::Sync { file, len }) => (file.clone(), Some(*len)),
            Some(Later::Commit { file, to, .. }) => (file.clone(), Some(*to)),
            Some(Later::Delete { file, .. }) => (file.clone(), None),
        };
        self.write_allowed(&file)?;
        let mut later = self.later.borrow_mut();
        later.remove(0);
        if let Some(len) = durable {
            // A file deleted since is still on the disk until its delete is done: sync that.
            let mut files = self.files.borrow_mut();
            let deleted = later.iter_mut().find_map(|w| match w {
                Later::Delete { file: f, was } if *f == file => Some(was),
                _ => None,
            });
            if let Some(f) = deleted.or_else(|| files.get_mut(&file)) {
                f.synced = f.synced.max(len.min(f.data.len()));
            }
        }
        Ok(true)
    }

    /// Bytes held over all files, synced or not.
    pub fn total_bytes(&self) -> u64 {
        self.files.borrow().values().map(|f| f.data.len() as u64).sum()
    }

    /// A file's full contents (tests, and the IndexedDB mirror's write-back).
    pub fn contents(&self, file: &str) -> Option<Vec<u8>> {
        self.files.borrow().get(file).map(|f| f.data.to_vec())
    }

    /// Install a file as if it had been written and synced (loading a persisted mirror).
    pub fn install(&self, file: &str, data: Vec<u8>) {
        let synced = data.len();
        let data = Chunks::from_vec(data);
        // Bytes loaded from elsewhere are not trusted: every range is checked when first read.
        self.files
            .borrow_mut()
            .insert(file.to_string(), MemFile { data, synced, checked: Default::default(), trusted: 0 });
    }
}

impl Storage for MemStorage {
    fn append(&mut self, file: &str, bytes: &[u8]) -> Result<()> {
        self.write_allowed(file)?;
        if let Some(quota) = self.quota.get() {
            let used = self.total_bytes();
            if used + bytes.len() as u64 > quota {
                return Err(Error::StorageFull {
                    file: file.to_string(),
                    message: format!("the quota of {quota} bytes is used up ({used} bytes stored)"),
                });
            }
        }
        let mut files = self.files.borrow_mut();
        let f = files.entry(file.to_string()).or_default();
        let was_trusted = f.trusted == f.data.len();
        f.data.append(bytes);
        if was_trusted {
            f.trusted = f.data.len();
        }
        Ok(())
    }

    fn read_into(&mut self, file: &str, offset: u64, buf: &mut [u8]) -> Result<()> {
        let files = self.files.borrow();
        let f = files.get(file).ok_or_else(|| Error::storage(file, "no such file"))?;
        let start = usize::try_from(offset).unwrap_or(usize::MAX);
        if !f.data.copy_to(start, buf) {
            return Err(Error::corruption(
                file,
                offset,
                format!("read of {} bytes past end of file ({} bytes)", buf.len(), f.data.len()),
            ));
        }
        Ok(())
    }

    fn read_with(&mut self, file: &str, offset: u64, len: usize, visit: Visit<'_>) -> Result<()> {
        let files = self.files.borrow();
        let f = files.get(file).ok_or_else(|| Error::storage(file, "no such file"))?;
        let start = usize::try_from(offset).unwrap_or(usize::MAX);
        match f.data.slice(start, len) {
            Some(bytes) => visit(bytes),
            None => {
                drop(files);
                let buf = self.read(file, offset, len)?;
                visit(&buf)
            }
        }
    }

    fn read_checked(&mut self, file: &str, offset: u64, len: usize, check: Check<'_>, visit: Visit<'_>) -> Result<()> {
        let mut files = self.files.borrow_mut();
        let f = files.get_mut(file).ok_or_else(|| Error::storage(file, "no such file"))?;
        let start = usize::try_from(offset).unwrap_or(usize::MAX);
        let Some(bytes) = f.data.slice(start, len) else {
            drop(files);
            let buf = self.read(file, offset, len)?;
            check(&buf)?;
            return visit(&buf);
        };
        // Bytes in memory change only through this type (appends never touch earlier bytes), so
        // a range checked once stays good until a corruption test or a truncate touches it.
        let trusted = start + len <= f.trusted;
        if !trusted && !f.checked.contains(&(offset, len)) {
            check(bytes)?;
            f.checked.insert((offset, len));
        }
        visit(bytes)
    }

    fn len(&mut self, file: &str) -> Result<u64> {
        let files = self.files.borrow();
        files.get(file).map(|f| f.data.len() as u64).ok_or_else(|| Error::storage(file, "no such file"))
    }

    fn sync(&mut self, file: &str) -> Result<()> {
        self.write_allowed(file)?;
        if let Some(f) = self.files.borrow_mut().get_mut(file) {
            f.synced = f.data.len();
        }
        Ok(())
    }

    fn sync_later(&mut self, file: &str) -> Result<()> {
        self.write_allowed(file)?;
        let len = self.files.borrow().get(file).map_or(0, |f| f.data.len());
        self.queue(Later::Sync { file: file.to_string(), len })
    }

    fn commit_later(&mut self, file: &str, bytes: &[u8]) -> Result<()> {
        let from = self.files.borrow().get(file).map_or(0, |f| f.data.len());
        self.append(file, bytes)?;
        self.queue(Later::Commit { file: file.to_string(), from, to: from + bytes.len() })
    }

    fn await_syncs(&mut self) -> Result<()> {
        while self.finish_oldest_work()? {}
        Ok(())
    }

    fn truncate(&mut self, file: &str, len: u64) -> Result<()> {
        self.write_allowed(file)?;
        let mut files = self.files.borrow_mut();
        let f = files.get_mut(file).ok_or_else(|| Error::storage(file, "no such file"))?;
        f.data.truncate(len as usize);
        f.synced = f.synced.min(f.data.len());
        f.trusted = f.trusted.min(f.data.len());
        f.checked.clear();
        Ok(())
    }

    fn delete(&mut self, file: &str) -> Result<()> {
        self.write_allowed(file)?;
        let was = self.files.borrow_mut().remove(file);
        match was {
            Some(was) if !self.later.borrow().is_empty() => self.queue(Later::Delete { file: file.to_string(), was }),
            _ => Ok(()),
        }
    }

    fn exists(&mut self, file: &str) -> Result<bool> {
        Ok(self.files.borrow().contains_key(file))
    }

    fn list(&mut self) -> Result<Vec<String>> {
        Ok(self.files.borrow().keys().cloned().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crash_keeps_synced_bytes_and_part_of_the_tail() {
        let mut s = MemStorage::new();
        s.append("wal", b"abc").unwrap();
        s.sync("wal").unwrap();
        s.append("wal", b"defgh").unwrap();
        let handle = s.clone();
        drop(s);
        handle.crash(|_, _| 2);
        assert_eq!(handle.contents("wal").unwrap(), b"abcde");
    }

    #[test]
    fn reading_past_the_end_names_file_and_offset() {
        let mut s = MemStorage::new();
        s.append("f", b"abc").unwrap();
        let e = s.read("f", 2, 4).unwrap_err().to_string();
        assert!(e.contains("f at offset 2"), "{e}");
    }
}

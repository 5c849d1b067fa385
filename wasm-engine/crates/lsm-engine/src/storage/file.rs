//! Native files in one directory (the `lsm` CLI). Appends go through a per-file buffer so a run
//! is written in large sequential chunks, and the disk starts on them at once; `sync` flushes
//! and fsyncs; finished tables are synced (`sync_later`), manifest records written after them
//! (`commit_later`) and obsolete files unlinked, in that order, on one thread of their own.

use rustc_hash::FxHashMap;
use std::fs::{self, File, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::PathBuf;
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

use super::api::{Storage, Visit};
use lsm_core::error::{Error, Result};

const WRITE_BUFFER: usize = 1 << 20;

/// Native files in one directory (feature `files`): appends buffered and written in large chunks, and
/// `sync_later`, `commit_later` and deletes done in order on a disk thread of its own.
pub struct FileStorage {
    dir: PathBuf,
    writers: FxHashMap<String, (File, Vec<u8>)>,
    readers: FxHashMap<String, File>,
    /// Where `read_with` reads to.
    scratch: Vec<u8>,
    disk: Disk,
}

/// The disk work nothing needs to wait for, done in order on a thread of its own: syncing
/// finished tables (1.2 s of a 3.7 s million-entry load waited in `fdatasync`), writing and
/// syncing manifest records after the tables they name, and unlinking merged-away files after
/// the record that drops them (ext4 frees a table's extents in the call, about 10 ms a file).
/// In order, so a crash finds a prefix of what was asked. A name with work queued is settled
/// before a call that depends on it. A failure stops the queue: every later call reports it,
/// since what followed the failed work may depend on it.
struct Disk {
    queue: Option<Sender<(String, DiskWork)>>,
    /// Work queued and not yet done, and the failure met.
    state: Arc<(Mutex<Pending>, Condvar)>,
    thread: Option<JoinHandle<()>>,
}

enum DiskWork {
    /// Write `bytes` at the end of the file (a second descriptor of it), then `fdatasync` it.
    Sync {
        file: File,
        bytes: Vec<u8>,
    },
    Unlink(PathBuf),
}

impl DiskWork {
    fn run(&self) -> std::io::Result<()> {
        match self {
            DiskWork::Sync { file, bytes } => {
                if !bytes.is_empty() {
                    let mut f = file;
                    f.write_all(bytes)?;
                }
                file.sync_data()
            }
            DiskWork::Unlink(path) => match fs::remove_file(path) {
                Err(e) if e.kind() != ErrorKind::NotFound => Err(e),
                _ => Ok(()),
            },
        }
    }
}

#[derive(Default)]
struct Pending {
    /// Work queued and not yet done.
    queued: usize,
    /// Per name, the queued work that changes what a reader of it sees (writes, unlinks; a
    /// sync changes nothing visible, so a merge reads the table it just wrote without waiting).
    visible: FxHashMap<String, usize>,
    failure: Option<(String, String)>,
}

impl DiskWork {
    fn is_visible(&self) -> bool {
        !matches!(self, DiskWork::Sync { bytes, .. } if bytes.is_empty())
    }
}

impl Pending {
    fn add(&mut self, name: &str, visible: bool) {
        self.queued += 1;
        if visible {
            *self.visible.entry(name.to_string()).or_default() += 1;
        }
    }

    fn remove(&mut self, name: &str, visible: bool) {
        self.queued -= 1;
        if visible && let Some(n) = self.visible.get_mut(name) {
            *n -= 1;
            if *n == 0 {
                self.visible.remove(name);
            }
        }
    }
}

fn lock(m: &Mutex<Pending>) -> MutexGuard<'_, Pending> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

fn failed(file: &str, message: &str) -> Error {
    Error::storage(file, format!("background write failed: {message}"))
}

impl Disk {
    fn start() -> Disk {
        let (queue, jobs) = mpsc::channel::<(String, DiskWork)>();
        let state = Arc::new((Mutex::new(Pending::default()), Condvar::new()));
        let shared = Arc::clone(&state);
        let thread = std::thread::Builder::new()
            .name("lsm-disk".into())
            .spawn(move || {
                for (name, work) in jobs {
                    let (m, done) = &*shared;
                    let result = if lock(m).failure.is_some() { Ok(()) } else { work.run() };
                    let visible = work.is_visible();
                    drop(work);
                    let mut s = lock(m);
                    if let Err(e) = result
                        && s.failure.is_none()
                    {
                        s.failure = Some((name.clone(), e.to_string()));
                    }
                    s.remove(&name, visible);
                    done.notify_all();
                }
            })
            .ok();
        Disk { queue: thread.is_some().then_some(queue), state, thread }
    }

    /// Do `work` on `name` after the work queued before it; at once if no thread could start.
    fn submit(&mut self, name: &str, work: DiskWork) -> Result<()> {
        let work = match &self.queue {
            Some(queue) => {
                let visible = work.is_visible();
                {
                    let mut s = lock(&self.state.0);
                    if let Some((file, message)) = &s.failure {
                        return Err(failed(file, message));
                    }
                    s.add(name, visible);
                }
                match queue.send((name.to_string(), work)) {
                    Ok(()) => return Ok(()),
                    Err(mpsc::SendError((_, work))) => {
                        // The thread is gone: undo the count and do the work here.
                        lock(&self.state.0).remove(name, visible);
                        work
                    }
                }
            }
            None => work,
        };
        work.run().map_err(|e| io_error(name, e))
    }

    /// Wait until the queued work that changes what `name` holds is done (all queued work, if
    /// None); report a failure.
    fn settle(&self, name: Option<&str>) -> Result<()> {
        let (m, done) = &*self.state;
        let mut s = lock(m);
        while s.failure.is_none() && name.map_or(s.queued > 0, |n| s.visible.contains_key(n)) {
            s = done.wait(s).unwrap_or_else(PoisonError::into_inner);
        }
        match &s.failure {
            Some((file, message)) => Err(failed(file, message)),
            None => Ok(()),
        }
    }
}

impl Drop for Disk {
    fn drop(&mut self) {
        // Closing the queue ends the thread once it has done what was queued.
        self.queue = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn io_error(file: &str, e: std::io::Error) -> Error {
    match e.kind() {
        ErrorKind::StorageFull | ErrorKind::QuotaExceeded => {
            Error::StorageFull { file: file.to_string(), message: e.to_string() }
        }
        _ => Error::storage(file, e.to_string()),
    }
}

impl FileStorage {
    /// Files in `dir`, created with its parents if absent; starts the disk thread.
    pub fn open(dir: impl Into<PathBuf>) -> Result<Self> {
        let dir = dir.into();
        fs::create_dir_all(&dir).map_err(|e| io_error(&dir.display().to_string(), e))?;
        Ok(FileStorage {
            dir,
            writers: FxHashMap::default(),
            readers: FxHashMap::default(),
            scratch: Vec::new(),
            disk: Disk::start(),
        })
    }

    fn path(&self, file: &str) -> PathBuf {
        self.dir.join(file)
    }

    /// Write the file's buffered appends, after any queued writes of it (a manifest's).
    fn flush_writer(&mut self, file: &str) -> Result<()> {
        if self.writers.get(file).is_some_and(|(_, b)| !b.is_empty()) {
            self.disk.settle(Some(file))?;
        }
        if let Some((f, buf)) = self.writers.get_mut(file).filter(|(_, b)| !b.is_empty()) {
            f.write_all(buf).map_err(|e| io_error(file, e))?;
            buf.clear();
        }
        Ok(())
    }

    /// The file's writer, opened (for appending) if it is not yet.
    fn writer(&mut self, file: &str) -> Result<&mut (File, Vec<u8>)> {
        if !self.writers.contains_key(file) {
            self.disk.settle(Some(file))?;
            let f =
                OpenOptions::new().create(true).append(true).open(self.path(file)).map_err(|e| io_error(file, e))?;
            self.writers.insert(file.to_string(), (f, Vec::with_capacity(WRITE_BUFFER)));
        }
        self.writers.get_mut(file).ok_or_else(|| Error::storage(file, "writer vanished"))
    }
}

/// Ask the kernel to start writing the file's dirty pages to disk now, without waiting (as
/// RocksDB's `bytes_per_sync` does): the merge goes on building the table while the disk works,
/// and the `sync` that makes it durable finds little left to wait for. Only a hint: durability
/// still comes from `sync`, so an error here is ignored.
#[cfg(target_os = "linux")]
fn start_writeback(f: &File) {
    use std::os::fd::AsRawFd;
    // SAFETY: a valid open descriptor; offset 0 and length 0 mean the whole file; the call only
    // starts asynchronous writeback and touches no memory of ours.
    unsafe {
        libc::sync_file_range(f.as_raw_fd(), 0, 0, libc::SYNC_FILE_RANGE_WRITE);
    }
}

#[cfg(not(target_os = "linux"))]
fn start_writeback(_f: &File) {}

/// One `pread`: a lookup's page read costs one system call, not a seek and a read.
#[cfg(unix)]
fn read_at(f: &mut File, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(f, buf, offset)
}

#[cfg(not(unix))]
fn read_at(f: &mut File, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    f.seek(SeekFrom::Start(offset))?;
    f.read_exact(buf)
}

impl Storage for FileStorage {
    fn append(&mut self, file: &str, bytes: &[u8]) -> Result<()> {
        let buffered = self.writer(file)?.1.len();
        if buffered + bytes.len() > WRITE_BUFFER {
            // Written here, so after any queued write of the same file.
            self.disk.settle(Some(file))?;
            let (f, buf) = self.writer(file)?;
            f.write_all(buf).map_err(|e| io_error(file, e))?;
            buf.clear();
            if bytes.len() >= WRITE_BUFFER {
                f.write_all(bytes).map_err(|e| io_error(file, e))?;
            }
            start_writeback(f);
            if bytes.len() >= WRITE_BUFFER {
                return Ok(());
            }
        }
        self.writer(file)?.1.extend_from_slice(bytes);
        Ok(())
    }

    fn read_into(&mut self, file: &str, offset: u64, buf: &mut [u8]) -> Result<()> {
        self.flush_writer(file)?;
        if !self.readers.contains_key(file) {
            self.disk.settle(Some(file))?;
            let f = File::open(self.path(file)).map_err(|e| io_error(file, e))?;
            self.readers.insert(file.to_string(), f);
        }
        let f = self.readers.get_mut(file).ok_or_else(|| Error::storage(file, "reader vanished"))?;
        read_at(f, offset, buf).map_err(|e| match e.kind() {
            ErrorKind::UnexpectedEof => {
                Error::corruption(file, offset, format!("read of {} bytes past end of file", buf.len()))
            }
            _ => io_error(file, e),
        })
    }

    fn read_with(&mut self, file: &str, offset: u64, len: usize, visit: Visit<'_>) -> Result<()> {
        // Into a buffer kept between reads: no allocation and no zeroing per page read.
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.resize(len, 0);
        let read = self.read_into(file, offset, &mut scratch[..len]);
        let result = read.and_then(|()| visit(&scratch[..len]));
        self.scratch = scratch;
        result
    }

    fn len(&mut self, file: &str) -> Result<u64> {
        self.disk.settle(Some(file))?;
        let pending = self.writers.get(file).map_or(0, |(_, b)| b.len() as u64);
        let on_disk = fs::metadata(self.path(file)).map_err(|e| io_error(file, e))?.len();
        Ok(on_disk + pending)
    }

    fn sync(&mut self, file: &str) -> Result<()> {
        self.flush_writer(file)?;
        if let Some((f, _)) = self.writers.get_mut(file) {
            f.sync_data().map_err(|e| io_error(file, e))?;
        }
        Ok(())
    }

    fn sync_later(&mut self, file: &str) -> Result<()> {
        self.flush_writer(file)?;
        // A second descriptor of the same file: its fdatasync covers every byte written to it,
        // by this handle or another (a background merger writes tables the writer syncs).
        let descriptor = match self.writers.get(file) {
            Some((f, _)) => f.try_clone(),
            None => File::open(self.path(file)),
        };
        let file_copy = descriptor.map_err(|e| io_error(file, e))?;
        self.disk.submit(file, DiskWork::Sync { file: file_copy, bytes: Vec::new() })
    }

    fn commit_later(&mut self, file: &str, bytes: &[u8]) -> Result<()> {
        // Written by the disk thread, after the work queued before: never ahead of the tables.
        let (f, buf) = self.writer(file)?;
        let mut record = std::mem::take(buf);
        record.extend_from_slice(bytes);
        let file_copy = f.try_clone().map_err(|e| io_error(file, e))?;
        self.disk.submit(file, DiskWork::Sync { file: file_copy, bytes: record })
    }

    fn await_syncs(&mut self) -> Result<()> {
        self.disk.settle(None)
    }

    fn truncate(&mut self, file: &str, len: u64) -> Result<()> {
        self.flush_writer(file)?;
        self.writers.remove(file);
        self.readers.remove(file);
        self.disk.settle(Some(file))?;
        let f = OpenOptions::new().write(true).open(self.path(file)).map_err(|e| io_error(file, e))?;
        f.set_len(len).map_err(|e| io_error(file, e))?;
        f.sync_all().map_err(|e| io_error(file, e))
    }

    fn delete(&mut self, file: &str) -> Result<()> {
        self.writers.remove(file);
        self.readers.remove(file);
        let path = self.path(file);
        self.disk.submit(file, DiskWork::Unlink(path))
    }

    fn close(&mut self, file: &str) -> Result<()> {
        self.flush_writer(file)?;
        self.writers.remove(file);
        self.readers.remove(file);
        Ok(())
    }

    fn exists(&mut self, file: &str) -> Result<bool> {
        self.disk.settle(Some(file))?;
        Ok(self.writers.contains_key(file) || self.path(file).exists())
    }

    fn list(&mut self) -> Result<Vec<String>> {
        self.disk.settle(None)?;
        let dir = self.dir.display().to_string();
        let mut names: Vec<String> = fs::read_dir(&self.dir)
            .map_err(|e| io_error(&dir, e))?
            .filter_map(|e| e.ok())
            .filter(|e| e.file_type().map(|t| t.is_file()).unwrap_or(false))
            .filter_map(|e| e.file_name().into_string().ok())
            .collect();
        for name in self.writers.keys() {
            if !names.contains(name) {
                names.push(name.clone());
            }
        }
        names.sort();
        Ok(names)
    }
}

impl Drop for FileStorage {
    fn drop(&mut self) {
        // Buffered appends reach the OS on a clean drop; durability still requires `sync`.
        let names: Vec<String> = self.writers.keys().cloned().collect();
        for name in names {
            let _ = self.flush_writer(&name);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("lsm-file-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_handle_syncs_a_file_another_handle_wrote_and_closed() {
        let dir = scratch("sync-other");
        let mut merger = FileStorage::open(&dir).unwrap();
        let mut writer = FileStorage::open(&dir).unwrap();
        merger.append("000001.sst", &[7u8; 3 * WRITE_BUFFER / 2]).unwrap();
        merger.close("000001.sst").unwrap();
        writer.sync_later("000001.sst").unwrap();
        writer.commit_later("MANIFEST", b"names 000001").unwrap();
        writer.await_syncs().unwrap();
        assert_eq!(writer.len("000001.sst").unwrap(), (3 * WRITE_BUFFER / 2) as u64);
        assert_eq!(writer.read("MANIFEST", 0, 12).unwrap(), b"names 000001");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn syncing_a_file_that_is_not_there_names_it() {
        let dir = scratch("sync-missing");
        let mut storage = FileStorage::open(&dir).unwrap();
        let e = storage.sync_later("000009.sst").unwrap_err().to_string();
        assert!(e.contains("000009.sst"), "{e}");
        let _ = fs::remove_dir_all(&dir);
    }
}

//! Native files in one directory (the `lsm` CLI). Appends go through a per-file buffer so a run
//! is written in large sequential chunks, and the disk starts on them at once; `sync` flushes
//! and fsyncs; obsolete files are unlinked on a thread of their own.

use std::collections::{HashMap, HashSet};
use std::fs::{self, File, OpenOptions};
use std::io::{ErrorKind, Read, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

use super::api::Storage;
use crate::error::{Error, Result};

const WRITE_BUFFER: usize = 1 << 20;

pub struct FileStorage {
    dir: PathBuf,
    writers: HashMap<String, (File, Vec<u8>)>,
    readers: HashMap<String, File>,
    unlinker: Unlinker,
}

/// Unlinks off the caller's path: freeing a merged-away table's extents took ext4 about 10 ms a
/// file, an eighth of a million-entry load, and nothing waits for it (the manifest no longer
/// names the file). A name still waiting to go is never touched before it has gone (`settle`),
/// and a failed unlink is reported by the next call that settles.
struct Unlinker {
    queue: Option<Sender<(String, PathBuf)>>,
    /// Names queued and not yet unlinked, and the first error met.
    state: Arc<(Mutex<Unlinking>, Condvar)>,
    thread: Option<JoinHandle<()>>,
}

#[derive(Default)]
struct Unlinking {
    pending: HashSet<String>,
    failure: Option<(String, String)>,
}

fn lock(m: &Mutex<Unlinking>) -> MutexGuard<'_, Unlinking> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Unlinker {
    fn start() -> Unlinker {
        let (queue, jobs) = mpsc::channel::<(String, PathBuf)>();
        let state = Arc::new((Mutex::new(Unlinking::default()), Condvar::new()));
        let shared = Arc::clone(&state);
        let thread = std::thread::Builder::new()
            .name("lsm-unlink".into())
            .spawn(move || {
                for (name, path) in jobs {
                    let result = fs::remove_file(&path);
                    let (m, done) = &*shared;
                    let mut s = lock(m);
                    if let Err(e) = result.as_ref().map_err(|e| (e.kind(), e.to_string()))
                        && e.0 != ErrorKind::NotFound
                        && s.failure.is_none()
                    {
                        s.failure = Some((name.clone(), e.1));
                    }
                    s.pending.remove(&name);
                    done.notify_all();
                }
            })
            .ok();
        Unlinker { queue: thread.is_some().then_some(queue), state, thread }
    }

    /// Unlink `path` (named `name`) soon; at once if no thread could be started.
    fn unlink(&mut self, name: &str, path: PathBuf) -> Result<()> {
        if let Some(queue) = &self.queue {
            lock(&self.state.0).pending.insert(name.to_string());
            if queue.send((name.to_string(), path.clone())).is_ok() {
                return Ok(());
            }
            lock(&self.state.0).pending.remove(name);
        }
        match fs::remove_file(path) {
            Err(e) if e.kind() != ErrorKind::NotFound => Err(io_error(name, e)),
            _ => Ok(()),
        }
    }

    /// Wait until `name` (every name, if None) has been unlinked; report an unlink that failed.
    fn settle(&self, name: Option<&str>) -> Result<()> {
        let (m, done) = &*self.state;
        let mut s = lock(m);
        while name.map_or(!s.pending.is_empty(), |n| s.pending.contains(n)) {
            s = done.wait(s).unwrap_or_else(PoisonError::into_inner);
        }
        match s.failure.take() {
            Some((file, message)) => Err(Error::storage(&file, format!("unlinking failed: {message}"))),
            None => Ok(()),
        }
    }
}

impl Drop for Unlinker {
    fn drop(&mut self) {
        // Closing the queue ends the thread once it has unlinked what was queued.
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
    pub fn open(dir: impl Into<PathBuf>) -> Result<Self> {
        let dir = dir.into();
        fs::create_dir_all(&dir).map_err(|e| io_error(&dir.display().to_string(), e))?;
        Ok(FileStorage { dir, writers: HashMap::new(), readers: HashMap::new(), unlinker: Unlinker::start() })
    }

    fn path(&self, file: &str) -> PathBuf {
        self.dir.join(file)
    }

    fn flush_writer(&mut self, file: &str) -> Result<()> {
        if let Some((f, buf)) = self.writers.get_mut(file).filter(|(_, b)| !b.is_empty()) {
            f.write_all(buf).map_err(|e| io_error(file, e))?;
            buf.clear();
        }
        Ok(())
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

impl Storage for FileStorage {
    fn append(&mut self, file: &str, bytes: &[u8]) -> Result<()> {
        if !self.writers.contains_key(file) {
            self.unlinker.settle(Some(file))?;
            let f =
                OpenOptions::new().create(true).append(true).open(self.path(file)).map_err(|e| io_error(file, e))?;
            self.writers.insert(file.to_string(), (f, Vec::with_capacity(WRITE_BUFFER)));
        }
        let (f, buf) = self.writers.get_mut(file).ok_or_else(|| Error::storage(file, "writer vanished"))?;
        if buf.len() + bytes.len() > WRITE_BUFFER {
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
        buf.extend_from_slice(bytes);
        Ok(())
    }

    fn read_into(&mut self, file: &str, offset: u64, buf: &mut [u8]) -> Result<()> {
        self.flush_writer(file)?;
        if !self.readers.contains_key(file) {
            self.unlinker.settle(Some(file))?;
            let f = File::open(self.path(file)).map_err(|e| io_error(file, e))?;
            self.readers.insert(file.to_string(), f);
        }
        let f = self.readers.get_mut(file).ok_or_else(|| Error::storage(file, "reader vanished"))?;
        f.seek(SeekFrom::Start(offset)).map_err(|e| io_error(file, e))?;
        f.read_exact(buf).map_err(|e| match e.kind() {
            ErrorKind::UnexpectedEof => {
                Error::corruption(file, offset, format!("read of {} bytes past end of file", buf.len()))
            }
            _ => io_error(file, e),
        })
    }

    fn len(&mut self, file: &str) -> Result<u64> {
        self.unlinker.settle(Some(file))?;
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

    fn truncate(&mut self, file: &str, len: u64) -> Result<()> {
        self.flush_writer(file)?;
        self.writers.remove(file);
        self.readers.remove(file);
        self.unlinker.settle(Some(file))?;
        let f = OpenOptions::new().write(true).open(self.path(file)).map_err(|e| io_error(file, e))?;
        f.set_len(len).map_err(|e| io_error(file, e))?;
        f.sync_all().map_err(|e| io_error(file, e))
    }

    fn delete(&mut self, file: &str) -> Result<()> {
        self.writers.remove(file);
        self.readers.remove(file);
        let path = self.path(file);
        self.unlinker.unlink(file, path)
    }

    fn exists(&mut self, file: &str) -> Result<bool> {
        self.unlinker.settle(Some(file))?;
        Ok(self.writers.contains_key(file) || self.path(file).exists())
    }

    fn list(&mut self) -> Result<Vec<String>> {
        self.unlinker.settle(None)?;
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

//! Native files in one directory (the `lsm` CLI). Appends go through a per-file buffer so a run
//! is written in large sequential chunks; `sync` flushes and fsyncs.

use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::io::{ErrorKind, Read, Seek, SeekFrom, Write};
use std::path::PathBuf;

use super::api::Storage;
use crate::error::{Error, Result};

const WRITE_BUFFER: usize = 1 << 20;

pub struct FileStorage {
    dir: PathBuf,
    writers: HashMap<String, (File, Vec<u8>)>,
    readers: HashMap<String, File>,
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
        Ok(FileStorage { dir, writers: HashMap::new(), readers: HashMap::new() })
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

impl Storage for FileStorage {
    fn append(&mut self, file: &str, bytes: &[u8]) -> Result<()> {
        if !self.writers.contains_key(file) {
            let f =
                OpenOptions::new().create(true).append(true).open(self.path(file)).map_err(|e| io_error(file, e))?;
            self.writers.insert(file.to_string(), (f, Vec::with_capacity(WRITE_BUFFER)));
        }
        let (f, buf) = self.writers.get_mut(file).ok_or_else(|| Error::storage(file, "writer vanished"))?;
        if buf.len() + bytes.len() > WRITE_BUFFER {
            f.write_all(buf).map_err(|e| io_error(file, e))?;
            buf.clear();
            if bytes.len() >= WRITE_BUFFER {
                return f.write_all(bytes).map_err(|e| io_error(file, e));
            }
        }
        buf.extend_from_slice(bytes);
        Ok(())
    }

    fn read_into(&mut self, file: &str, offset: u64, buf: &mut [u8]) -> Result<()> {
        self.flush_writer(file)?;
        if !self.readers.contains_key(file) {
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
        let f = OpenOptions::new().write(true).open(self.path(file)).map_err(|e| io_error(file, e))?;
        f.set_len(len).map_err(|e| io_error(file, e))?;
        f.sync_all().map_err(|e| io_error(file, e))
    }

    fn delete(&mut self, file: &str) -> Result<()> {
        self.writers.remove(file);
        self.readers.remove(file);
        match fs::remove_file(self.path(file)) {
            Err(e) if e.kind() != ErrorKind::NotFound => Err(io_error(file, e)),
            _ => Ok(()),
        }
    }

    fn exists(&mut self, file: &str) -> Result<bool> {
        Ok(self.writers.contains_key(file) || self.path(file).exists())
    }

    fn list(&mut self) -> Result<Vec<String>> {
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

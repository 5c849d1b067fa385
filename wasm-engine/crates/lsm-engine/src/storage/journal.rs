//! A storage that keeps every file in memory and journals each change, for backends that can
//! only persist asynchronously (IndexedDB): after every engine call the worker drains the journal
//! and writes it in one transaction, so the persisted copy always moves from one consistent state
//! to the next, and a step's writes are acknowledged only once that transaction has committed.

use std::cell::RefCell;
use std::rc::Rc;

use super::api::{Check, Storage, Visit};
use super::mem::MemStorage;
use lsm_core::error::Result;

/// One change to persist, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Bytes appended to `file`; consecutive appends to one file arrive as one.
    Append {
        /// The file appended to.
        file: String,
        /// The bytes appended.
        bytes: Vec<u8>,
    },
    /// `file` cut to `len` bytes (a torn log tail cut at recovery).
    Truncate {
        /// The file cut.
        file: String,
        /// Its new length in bytes.
        len: u64,
    },
    /// `file` removed; the journal drops the changes to it that came before.
    Delete {
        /// The file removed.
        file: String,
    },
}

/// The journal, shared between the storage (which writes it) and its owner (which drains it).
#[derive(Clone, Debug, Default)]
pub struct Journal(Rc<RefCell<Vec<Change>>>);

impl Journal {
    /// The changes made since the last call, consecutive appends to a file merged.
    pub fn take(&self) -> Vec<Change> {
        std::mem::take(&mut *self.0.borrow_mut())
    }
}

/// In-memory files that journal every change (`Change`), for a backend that persists asynchronously:
/// the IndexedDB mirror drains the journal after each engine call.
#[derive(Default)]
pub struct JournalStorage {
    files: MemStorage,
    journal: Journal,
}

impl JournalStorage {
    /// Start from persisted files (loaded by the caller), with an empty journal.
    pub fn new(files: Vec<(String, Vec<u8>)>) -> Self {
        let mem = MemStorage::new();
        for (name, bytes) in files {
            mem.install(&name, bytes);
        }
        JournalStorage { files: mem, journal: Journal::default() }
    }

    /// A handle on the journal, shared with this storage: drain it with `Journal::take`.
    pub fn journal(&self) -> Journal {
        self.journal.clone()
    }

    /// Bytes held over all files.
    pub fn total_bytes(&self) -> u64 {
        self.files.total_bytes()
    }
}

impl Storage for JournalStorage {
    fn append(&mut self, file: &str, bytes: &[u8]) -> Result<()> {
        self.files.append(file, bytes)?;
        let mut journal = self.journal.0.borrow_mut();
        match journal.last_mut() {
            Some(Change::Append { file: f, bytes: b }) if f == file => b.extend_from_slice(bytes),
            _ => journal.push(Change::Append { file: file.to_string(), bytes: bytes.to_vec() }),
        }
        Ok(())
    }

    fn read_into(&mut self, file: &str, offset: u64, buf: &mut [u8]) -> Result<()> {
        self.files.read_into(file, offset, buf)
    }

    fn read_with(&mut self, file: &str, offset: u64, len: usize, visit: Visit<'_>) -> Result<()> {
        self.files.read_with(file, offset, len, visit)
    }

    fn read_checked(&mut self, file: &str, offset: u64, len: usize, check: Check<'_>, visit: Visit<'_>) -> Result<()> {
        self.files.read_checked(file, offset, len, check, visit)
    }

    fn len(&mut self, file: &str) -> Result<u64> {
        self.files.len(file)
    }

    fn sync(&mut self, file: &str) -> Result<()> {
        // Durability comes when the worker commits the journal.
        self.files.sync(file)
    }

    fn truncate(&mut self, file: &str, len: u64) -> Result<()> {
        self.files.truncate(file, len)?;
        self.journal.0.borrow_mut().push(Change::Truncate { file: file.to_string(), len });
        Ok(())
    }

    fn delete(&mut self, file: &str) -> Result<()> {
        self.files.delete(file)?;
        // Earlier changes to a file that is going away never need to reach the backend.
        let mut journal = self.journal.0.borrow_mut();
        journal.retain(|c| match c {
            Change::Append { file: f, .. } | Change::Truncate { file: f, .. } => f != file,
            Change::Delete { .. } => true,
        });
        journal.push(Change::Delete { file: file.to_string() });
        Ok(())
    }

    fn exists(&mut self, file: &str) -> Result<bool> {
        self.files.exists(file)
    }

    fn list(&mut self) -> Result<Vec<String>> {
        self.files.list()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaying_the_journal_reproduces_the_files() {
        let mut j = JournalStorage::new(vec![("old".into(), b"0123".to_vec())]);
        j.append("a", b"he").unwrap();
        j.append("a", b"llo").unwrap();
        j.append("b", b"x").unwrap();
        j.truncate("old", 2).unwrap();
        j.append("tmp", b"gone").unwrap();
        j.delete("tmp").unwrap();
        let journal = j.journal().take();
        assert_eq!(journal[0], Change::Append { file: "a".into(), bytes: b"hello".to_vec() });
        assert!(!journal.iter().any(|c| matches!(c, Change::Append { file, .. } if file == "tmp")));
        // Apply to the persisted copy.
        let mut persisted: std::collections::BTreeMap<String, Vec<u8>> = [("old".to_string(), b"0123".to_vec())].into();
        for c in journal {
            match c {
                Change::Append { file, bytes } => persisted.entry(file).or_default().extend(bytes),
                Change::Truncate { file, len } => persisted.entry(file).or_default().truncate(len as usize),
                Change::Delete { file } => {
                    persisted.remove(&file);
                }
            }
        }
        for (name, bytes) in &persisted {
            assert_eq!(j.read(name, 0, bytes.len()).unwrap(), *bytes);
        }
        assert_eq!(persisted.len(), 3);
        assert!(j.journal().take().is_empty());
    }
}

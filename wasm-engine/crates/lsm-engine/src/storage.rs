//! Storage: named, append-only files of bytes. The engine never touches a file system directly;
//! backends (memory, native files, the IndexedDB mirror here; OPFS in `lsm-wasm`) implement this trait. Logical page
//! I/O is counted above this layer, so a backend can never change the counters.

mod api;
mod chunks;
#[cfg(feature = "files")]
mod file;
mod journal;
mod mem;

pub use api::{Check, Storage, Visit};
#[cfg(feature = "files")]
pub use file::FileStorage;
pub use journal::{Change, Journal, JournalStorage};
pub use mem::MemStorage;

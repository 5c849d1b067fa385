//! Storage: named, append-only files of bytes. The engine never touches a file system directly;
//! backends (memory, native files, OPFS, IndexedDB mirror) implement this trait. Logical page
//! I/O is counted above this layer, so a backend can never change the counters.

mod api;
mod chunks;
#[cfg(not(target_arch = "wasm32"))]
mod file;
mod journal;
mod mem;
#[cfg(target_arch = "wasm32")]
mod opfs;

pub use api::Storage;
#[cfg(not(target_arch = "wasm32"))]
pub use file::FileStorage;
pub use journal::{Change, Journal, JournalStorage};
pub use mem::MemStorage;
#[cfg(target_arch = "wasm32")]
pub use opfs::{OpfsPool, OpfsStorage};

//! Files in the Origin Private File System, through `FileSystemSyncAccessHandle`s held by a pool
//! on the JavaScript side (web/src/engine/opfsPool.ts). Opening a handle is asynchronous, so the
//! pool opens them ahead of time (between engine calls) and maps logical files onto them; every
//! call here is synchronous. Runs are appended in large chunks and reads go through the pool's
//! physical page cache, so OPFS's per-call cost stays off the hot path. Logical I/O is counted
//! above this layer and does not depend on any of it.

use wasm_bindgen::prelude::*;

use lsm_core::error::{Error, Result};
use lsm_engine::storage::Storage;

#[wasm_bindgen]
extern "C" {
    /// The pool of sync access handles (opfsPool.ts).
    #[derive(Clone)]
    pub type OpfsPool;

    #[wasm_bindgen(method, catch)]
    fn append(this: &OpfsPool, file: &str, bytes: &[u8]) -> std::result::Result<(), JsValue>;
    #[wasm_bindgen(method, catch)]
    fn read(this: &OpfsPool, file: &str, offset: f64, out: &mut [u8]) -> std::result::Result<(), JsValue>;
    #[wasm_bindgen(method, catch)]
    fn size(this: &OpfsPool, file: &str) -> std::result::Result<f64, JsValue>;
    #[wasm_bindgen(method, catch)]
    fn flush(this: &OpfsPool, file: &str) -> std::result::Result<(), JsValue>;
    #[wasm_bindgen(method, catch)]
    fn truncate(this: &OpfsPool, file: &str, len: f64) -> std::result::Result<(), JsValue>;
    #[wasm_bindgen(method, catch)]
    fn remove(this: &OpfsPool, file: &str) -> std::result::Result<(), JsValue>;
    #[wasm_bindgen(method)]
    fn has(this: &OpfsPool, file: &str) -> bool;
    #[wasm_bindgen(method)]
    fn names(this: &OpfsPool) -> Vec<String>;
}

/// `Storage` on the Origin Private File System, through the worker's pool of sync access handles.
pub struct OpfsStorage {
    pool: OpfsPool,
}

impl OpfsStorage {
    /// Storage over the files the pool holds; the pool must outlive every call.
    pub fn new(pool: OpfsPool) -> Self {
        OpfsStorage { pool }
    }
}

/// A JavaScript exception as an engine error: a full quota (or no free file slot) is
/// `StorageFull`, everything else a storage error naming the file.
fn js_error(file: &str, e: JsValue) -> Error {
    let name =
        js_sys::Reflect::get(&e, &JsValue::from_str("name")).ok().and_then(|v| v.as_string()).unwrap_or_default();
    let message = js_sys::Reflect::get(&e, &JsValue::from_str("message"))
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_else(|| format!("{e:?}"));
    if name == "QuotaExceededError" || name == "NoFreeSlotError" {
        Error::StorageFull { file: file.to_string(), message }
    } else {
        Error::storage(file, message)
    }
}

impl Storage for OpfsStorage {
    fn append(&mut self, file: &str, bytes: &[u8]) -> Result<()> {
        self.pool.append(file, bytes).map_err(|e| js_error(file, e))
    }

    fn read_into(&mut self, file: &str, offset: u64, buf: &mut [u8]) -> Result<()> {
        let len = self.len(file)?;
        if offset + buf.len() as u64 > len {
            return Err(Error::corruption(
                file,
                offset,
                format!("read of {} bytes past end of file ({len} bytes)", buf.len()),
            ));
        }
        self.pool.read(file, offset as f64, buf).map_err(|e| js_error(file, e))
    }

    fn len(&mut self, file: &str) -> Result<u64> {
        self.pool.size(file).map(|s| s as u64).map_err(|e| js_error(file, e))
    }

    fn sync(&mut self, file: &str) -> Result<()> {
        self.pool.flush(file).map_err(|e| js_error(file, e))
    }

    fn truncate(&mut self, file: &str, len: u64) -> Result<()> {
        self.pool.truncate(file, len as f64).map_err(|e| js_error(file, e))
    }

    fn delete(&mut self, file: &str) -> Result<()> {
        self.pool.remove(file).map_err(|e| js_error(file, e))
    }

    fn exists(&mut self, file: &str) -> Result<bool> {
        Ok(self.pool.has(file))
    }

    fn list(&mut self) -> Result<Vec<String>> {
        let mut names = self.pool.names();
        names.sort();
        Ok(names)
    }
}

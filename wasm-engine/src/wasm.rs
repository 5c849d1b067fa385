//! The engine's WebAssembly API (wasm-bindgen), used from a dedicated Web Worker. Documents
//! cross the boundary as JSON strings and operations as encoded batches (`batch` module), so a
//! single call carries thousands of operations.

use wasm_bindgen::prelude::*;

use crate::batch;
use crate::config::EngineConfig;
use crate::engine::Engine;
use crate::error::Error;
use crate::storage::MemStorage;

fn js(e: Error) -> JsError {
    JsError::new(&e.to_string())
}

fn json<T: serde::Serialize>(v: &T) -> Result<String, JsError> {
    serde_json::to_string(v).map_err(|e| JsError::new(&e.to_string()))
}

#[wasm_bindgen]
pub struct WasmEngine {
    engine: Engine,
}

#[wasm_bindgen]
impl WasmEngine {
    /// A new in-memory database with the given EngineConfig (JSON).
    #[wasm_bindgen(constructor)]
    pub fn new(config_json: &str) -> Result<WasmEngine, JsError> {
        let config = EngineConfig::from_json(config_json).map_err(js)?;
        let engine = Engine::create(config, Box::new(MemStorage::new())).map_err(js)?;
        Ok(WasmEngine { engine })
    }

    /// Apply an encoded batch of operations; returns a BatchResult as JSON.
    pub fn apply(&mut self, batch: &[u8]) -> Result<String, JsError> {
        let r = batch::apply(&mut self.engine, batch).map_err(js)?;
        json(&r)
    }

    pub fn put(&mut self, key: &[u8], value: &[u8]) -> Result<(), JsError> {
        self.engine.put(key, value).map_err(js)
    }

    pub fn delete(&mut self, key: &[u8]) -> Result<(), JsError> {
        self.engine.delete(key).map_err(js)
    }

    pub fn get(&mut self, key: &[u8]) -> Result<Option<Vec<u8>>, JsError> {
        self.engine.get(key).map_err(js)
    }

    pub fn flush(&mut self) -> Result<(), JsError> {
        self.engine.flush().map_err(js)
    }

    /// Advance merges by about `max_pages` output pages; true while work remains.
    pub fn step(&mut self, max_pages: u32) -> Result<bool, JsError> {
        self.engine.step(u64::from(max_pages)).map_err(js)
    }

    pub fn compact_all(&mut self) -> Result<(), JsError> {
        self.engine.compact_all().map_err(js)
    }

    #[wasm_bindgen(getter)]
    pub fn auto_compact(&self) -> bool {
        self.engine.auto_compact
    }

    #[wasm_bindgen(setter)]
    pub fn set_auto_compact(&mut self, on: bool) {
        self.engine.auto_compact = on;
    }

    /// I/O counters (Stats) as JSON.
    pub fn stats_json(&self) -> Result<String, JsError> {
        json(self.engine.stats())
    }

    /// The tree shape (TreeShape) as JSON.
    pub fn tree_json(&self) -> Result<String, JsError> {
        json(&self.engine.tree())
    }
}

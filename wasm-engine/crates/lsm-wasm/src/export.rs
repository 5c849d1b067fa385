//! The export API for the browser (wasm-bindgen). Documents cross as JSON strings; results come
//! back as JSON so the UI gets the file text and its warnings in one value. Bad input throws an
//! error naming the field, as the CLI reports it.

use wasm_bindgen::prelude::*;

use lsm_core::config::EngineConfig;
use lsm_core::error::Error;
use lsm_core::workload::Workload;

use lsm_export::{Format, ImportKind};

fn js(e: Error) -> JsError {
    JsError::new(&e.to_string())
}

fn json<T: serde::Serialize>(v: &T) -> Result<String, JsError> {
    serde_json::to_string(v).map_err(|e| JsError::new(&e.to_string()))
}

/// Export an EngineConfig (JSON) as `format` (`rocksdb`, `rocksdb-cpp`, `engine`, `db_bench`);
/// `workload_json` may be empty except for `db_bench`.
/// Returns `{"text": "...", "warnings": [{"field", "kind", "message"}]}`.
#[wasm_bindgen]
pub fn export_design(config_json: &str, format: &str, workload_json: &str) -> Result<String, JsError> {
    let config = EngineConfig::from_json(config_json).map_err(js)?;
    let format: Format = format.parse().map_err(js)?;
    let workload = match workload_json.trim() {
        "" => None,
        text => Some(Workload::from_json(text).map_err(js)?),
    };
    json(&lsm_export::export(&config, format, workload.as_ref()).map_err(js)?)
}

/// Import a design from `text` of `kind` (`rocksdb` OPTIONS file or `engine` JSON).
/// Returns `{"config": EngineConfig, "unknown_keys": ["..."], "warnings": [...]}`.
#[wasm_bindgen]
pub fn import_config(text: &str, kind: &str) -> Result<String, JsError> {
    let kind: ImportKind = kind.parse().map_err(js)?;
    json(&lsm_export::import(text, kind).map_err(js)?)
}

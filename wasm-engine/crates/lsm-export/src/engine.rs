//! The engine's own format: EngineConfig JSON in canonical form (every field, struct order,
//! two-space indent, trailing newline), which `lsm run --config` reads unchanged. Import accepts
//! JSON with fields this version does not know: they are removed and reported by name instead of
//! failing the whole document (plain `EngineConfig::from_json` rejects them).

use serde_json::{Map, Value};

use lsm_core::config::{Allocation, BlockLayout, BufferTrigger, EngineConfig, FilePick, MonkeyPolicy};
use lsm_core::error::{Error, Result};

use super::Import;

/// The engine format's text: `EngineConfig::to_json` and a trailing newline, which
/// `lsm run --config` reads unchanged.
pub fn canonical_json(config: &EngineConfig) -> String {
    let mut text = config.to_json();
    text.push('\n');
    text
}

/// Every field EngineConfig serializes, as a JSON value whose arrays hold one example element.
fn schema() -> Value {
    let mut sample = EngineConfig::uniform_shape(10.0, 1, Allocation::Explicit, 0.0);
    // Optional fields, and fields left out at their defaults, only serialize when set.
    sample.levels[0].bits_per_key = Some(0.0);
    sample.buffer_trigger = BufferTrigger::Logged;
    sample.block_layout = BlockLayout::Rocksdb;
    sample.filter.monkey_policy = MonkeyPolicy::Reoptimised;
    sample.filter.rebuild_payback = 2.0;
    sample.compaction.pick = FilePick::MinOverlappingRatio;
    sample.compaction.trivial_moves = true;
    sample.block_cache.midpoint_insertion = true;
    sample.compaction.output_cuts = lsm_core::config::OutputCuts::Rocksdb;
    sample.write_stalls.level0_slowdown_writes_trigger = 8;
    serde_json::to_value(&sample).unwrap_or(Value::Null)
}

/// EngineConfig JSON with the fields this version does not know removed and listed in
/// `unknown_keys` (`EngineConfig::from_json` would reject them); the rest must be valid.
pub fn import_json(text: &str) -> Result<Import> {
    let mut value: Value = serde_json::from_str(text)
        .map_err(|e| Error::Parse { document: "EngineConfig".into(), message: e.to_string() })?;
    let mut unknown = Vec::new();
    strip_unknown(&mut value, &schema(), "", &mut unknown);
    let config = EngineConfig::from_json(&value.to_string())?;
    Ok(Import { config, unknown_keys: unknown, warnings: Vec::new(), write_buffers: None })
}

fn strip_unknown(value: &mut Value, schema: &Value, path: &str, unknown: &mut Vec<String>) {
    match (value, schema) {
        (Value::Object(fields), Value::Object(known)) => strip_object(fields, known, path, unknown),
        (Value::Array(items), Value::Array(known)) => {
            if let Some(element) = known.first() {
                for (i, item) in items.iter_mut().enumerate() {
                    strip_unknown(item, element, &format!("{path}[{i}]"), unknown);
                }
            }
        }
        _ => {}
    }
}

fn strip_object(fields: &mut Map<String, Value>, known: &Map<String, Value>, path: &str, unknown: &mut Vec<String>) {
    let names: Vec<String> = fields.keys().cloned().collect();
    for name in names {
        let child = if path.is_empty() { name.clone() } else { format!("{path}.{name}") };
        match (known.get(&name), fields.get_mut(&name)) {
            (Some(schema), Some(value)) => strip_unknown(value, schema, &child, unknown),
            _ => {
                fields.remove(&name);
                unknown.push(child);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_form_is_stable_and_reads_back() {
        let c: EngineConfig =
            EngineConfig::from_json(include_str!("../../../../public/examples/leveling-monkey.json")).unwrap();
        let text = canonical_json(&c);
        assert!(text.ends_with("}\n"));
        assert_eq!(EngineConfig::from_json(&text).unwrap(), c);
        assert_eq!(canonical_json(&EngineConfig::from_json(&text).unwrap()), text, "a fixed point");
        let kind = text.find("\"kind\"").unwrap();
        let levels = text.find("\"levels\"").unwrap();
        let window = text.find("\"statistics_window\"").unwrap();
        assert!(kind < levels && levels < window, "struct order");
    }

    #[test]
    fn unknown_fields_are_reported_by_path_and_the_rest_imported() {
        let text = r#"{"kind":"lsm-navigator/engine-config","version":1,"page_bytes":4096,"buffer_bytes":1048576,
            "levels":[{"size_ratio":10,"max_runs":1,"colour":"red"}],
            "filter":{"allocation":"uniform","bits_per_key":10,"hash":"xx"},"future_knob":3}"#;
        let i = import_json(text).unwrap();
        assert_eq!(i.unknown_keys, vec!["filter.hash", "future_knob", "levels[0].colour"]);
        assert_eq!(i.config.levels[0].size_ratio, 10.0);
    }

    #[test]
    fn invalid_values_still_fail_naming_the_field() {
        let text = r#"{"kind":"lsm-navigator/engine-config","version":1,"page_bytes":4096,"buffer_bytes":1048576,
            "levels":[{"size_ratio":0.5,"max_runs":1}],"filter":{"allocation":"uniform","bits_per_key":10}}"#;
        let e = import_json(text).unwrap_err().to_string();
        assert!(e.starts_with("levels[0].size_ratio: must be a number in [1, 1000]"), "{e}");
    }
}

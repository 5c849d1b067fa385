//! How a JSON document is read and written: one parse-then-validate path and one printer, so
//! every document (`EngineConfig`, `Workload`) reports a bad file the same way.

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::{Error, Result};

/// Parses `text` as the document `name` and checks it with `validate`: `Error::Parse` (naming the
/// document) for malformed JSON, wrong types or unknown fields, then whatever `validate` says.
pub fn from_json<T: DeserializeOwned>(name: &str, text: &str, validate: impl FnOnce(&T) -> Result<()>) -> Result<T> {
    let value: T =
        serde_json::from_str(text).map_err(|e| Error::Parse { document: name.into(), message: e.to_string() })?;
    validate(&value)?;
    Ok(value)
}

/// Pretty-printed JSON (serde's own layout), which `from_json` reads back to an equal value.
pub fn to_json<T: Serialize>(value: &T) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, serde::Serialize, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Doc {
        n: u32,
    }

    fn small(d: &Doc) -> Result<()> {
        if d.n > 9 { Err(Error::invalid("n", format!("must be in [0, 9], got {}", d.n))) } else { Ok(()) }
    }

    #[test]
    fn parses_then_validates_and_prints_back() {
        assert_eq!(from_json("Doc", "{\"n\": 3}", small), Ok(Doc { n: 3 }));
        assert_eq!(from_json("Doc", &to_json(&Doc { n: 4 }), small), Ok(Doc { n: 4 }));
        let bad = from_json::<Doc>("Doc", "{\"m\": 3}", small).unwrap_err();
        assert!(matches!(&bad, Error::Parse { document, .. } if document == "Doc"), "{bad:?}");
        assert!(from_json("Doc", "{\"n\": 12}", small).unwrap_err().to_string().contains("got 12"));
    }
}

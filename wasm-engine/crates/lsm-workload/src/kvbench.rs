//! The KVBench trace format (BU-DiSC's K-V-Workload-Generator), one operation per line:
//! `I k v` insert, `U k v` update, `D k` delete, `Q k` point lookup, `S a b` range scan.
//! Integer keys are encoded like generated ones (big-endian id padded to the key length), so
//! a generated workload written as a trace and read back runs the same operations.

use std::fmt::Write as _;

use crate::generator::{Intent, Op, OpSource, Phase};
use crate::keys::KeyCodec;
use lsm_core::error::{Error, Result};

/// Append one operation as a trace line.
pub fn write_op(op: &Op<'_>, out: &mut String) {
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let _ = match op {
        Op::Put { intent: Intent::Insert, id, value, .. } => writeln!(out, "I {id} {}", text(value)),
        Op::Put { id, value, .. } => writeln!(out, "U {id} {}", text(value)),
        Op::Delete { id, .. } => writeln!(out, "D {id}"),
        Op::Get { id, .. } => writeln!(out, "Q {id}"),
        Op::Range { lo, hi, .. } => writeln!(out, "S {lo} {hi}"),
    };
}

/// Write every operation of a source (preload included) as a trace.
pub fn write_trace(source: &mut dyn OpSource) -> Result<String> {
    let mut out = String::new();
    while let Some((_, op)) = source.next_op()? {
        write_op(&op, &mut out);
    }
    Ok(out)
}

/// A KVBench trace as an `OpSource`: every line is a `Phase::Run` operation and lookups carry
/// `Intent::Get`, since a trace does not say whether the key exists. Blank lines and `#`
/// comments are skipped.
pub struct TraceReader {
    /// What errors call the trace: its file name, or "trace".
    name: String,
    text: String,
    pos: usize,
    line_no: usize,
    lines: u64,
    codec: KeyCodec,
    key: Vec<u8>,
    end: Vec<u8>,
}

impl TraceReader {
    /// A reader whose errors call the trace "trace"; integer keys are encoded to `key_bytes`
    /// bytes like generated ones.
    pub fn new(text: String, key_bytes: usize) -> Self {
        Self::named("trace", text, key_bytes)
    }

    /// A reader whose errors name the trace (its file): `ops.txt: line 7: …`.
    pub fn named(name: &str, text: String, key_bytes: usize) -> Self {
        let lines = text.lines().filter(|l| is_op_line(l)).count() as u64;
        TraceReader {
            name: name.to_string(),
            text,
            pos: 0,
            line_no: 0,
            lines,
            codec: KeyCodec { key_bytes },
            key: Vec::new(),
            end: Vec::new(),
        }
    }
}

fn is_op_line(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty() && !t.starts_with('#')
}

/// Encode a trace key: an integer id like generated keys, anything else as its raw bytes.
fn encode_key(codec: &KeyCodec, token: &str, out: &mut Vec<u8>) -> Option<u64> {
    match token.parse::<u64>() {
        Ok(id) => {
            codec.encode(id, out);
            Some(id)
        }
        Err(_) => {
            out.clear();
            out.extend_from_slice(token.as_bytes());
            None
        }
    }
}

impl OpSource for TraceReader {
    fn next_op(&mut self) -> Result<Option<(Phase, Op<'_>)>> {
        loop {
            if self.pos >= self.text.len() {
                return Ok(None);
            }
            let rest = &self.text[self.pos..];
            let (line_len, advance) = match rest.find('\n') {
                Some(i) => (i, i + 1),
                None => (rest.len(), rest.len()),
            };
            let start = self.pos;
            self.pos += advance;
            self.line_no += 1;
            let line = self.text[start..start + line_len].trim_end_matches('\r');
            if !is_op_line(line) {
                continue;
            }
            let n = self.line_no;
            let bad = |m: String| Error::Parse { document: self.name.clone(), message: format!("line {n}: {m}") };
            let mut parts = line.trim_start().splitn(3, ' ');
            let op = parts.next().unwrap_or("");
            let key = parts.next().filter(|k| !k.is_empty()).ok_or_else(|| bad(format!("'{op}' needs a key")))?;
            let third = parts.next();
            let id = encode_key(&self.codec, key, &mut self.key).unwrap_or(0);
            let op = match op {
                "I" | "U" => {
                    let value = third.ok_or_else(|| bad(format!("'{op}' needs a value")))?.as_bytes();
                    let intent = if op == "I" { Intent::Insert } else { Intent::Update };
                    Op::Put { intent, id, key: &self.key, value }
                }
                "D" => Op::Delete { id, key: &self.key },
                "Q" => Op::Get { intent: Intent::Get, id, key: &self.key },
                "S" => {
                    let end = third
                        .map(str::trim)
                        .filter(|e| !e.is_empty())
                        .ok_or_else(|| bad("'S' needs a start and an end key".into()))?;
                    let lo = id;
                    let hi = encode_key(&self.codec, end, &mut self.end).unwrap_or(0);
                    if let (Ok(a), Ok(b)) = (key.parse::<u64>(), end.parse::<u64>()) {
                        // Integer bounds cover every key of every id in [a, b].
                        self.codec.range_bounds(a, b, &mut self.key, &mut self.end);
                    }
                    Op::Range { lo, hi, start: &self.key, end: &self.end }
                }
                "R" => return Err(bad("range deletes ('R') are not supported; use D for each key".into())),
                other => return Err(bad(format!("unknown operation '{other}' (expected I, U, D, Q or S)"))),
            };
            return Ok(Some((Phase::Run, op)));
        }
    }

    fn totals(&self) -> (u64, Option<u64>) {
        (0, Some(self.lines))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::Generator;
    use lsm_core::workload::{Distribution, Mix, Preload, WORKLOAD_KIND, Workload};

    #[test]
    fn generated_workload_survives_a_trace_roundtrip() {
        let w = Workload {
            kind: WORKLOAD_KIND.into(),
            version: 1,
            name: String::new(),
            seed: 3,
            preload: Preload { entries: 50, key_space: 0, key_bytes: 12, value_bytes: 9 },
            operations: 200,
            mix: Mix {
                insert: 0.2,
                update: 0.2,
                delete: 0.1,
                get_existing: 0.2,
                get_missing: 0.2,
                range: 0.1,
                read_modify_write: 0.0,
            },
            distribution: Distribution::Uniform,
            range_selectivity: 0.05,
            ycsb: None,
            db_bench: None,
        };
        let trace = write_trace(&mut Generator::new(&w)).unwrap();
        assert_eq!(trace.lines().count(), 250);
        let mut g = Generator::new(&w);
        let mut r = TraceReader::new(trace, 12);
        assert_eq!(r.totals(), (0, Some(250)));
        while let Some((_, a)) = g.next_op().unwrap() {
            let (_, b) = r.next_op().unwrap().unwrap();
            // Same keys, values and bounds; lookups lose their intent (a trace does not say).
            match (&a, &b) {
                (Op::Get { key: ka, .. }, Op::Get { key: kb, .. }) => assert_eq!(ka, kb),
                (Op::Put { key: ka, value: va, .. }, Op::Put { key: kb, value: vb, .. }) => {
                    assert_eq!((ka, va), (kb, vb))
                }
                _ => assert_eq!(format!("{a:?}"), format!("{b:?}")),
            }
        }
        assert!(r.next_op().unwrap().is_none());
    }

    #[test]
    fn bad_lines_name_the_line() {
        let mut r = TraceReader::new("# comment\nI 1 v\n\nX 2\n".into(), 16);
        assert!(r.next_op().unwrap().is_some());
        let e = r.next_op().unwrap_err().to_string();
        assert_eq!(e, "trace: line 4: unknown operation 'X' (expected I, U, D, Q or S)");
        let mut r = TraceReader::new("I 7\n".into(), 16);
        assert_eq!(r.next_op().unwrap_err().to_string(), "trace: line 1: 'I' needs a value");
    }

    #[test]
    fn text_keys_are_raw_bytes() {
        let mut r = TraceReader::new("Q user42\n".into(), 16);
        let (_, op) = r.next_op().unwrap().unwrap();
        assert_eq!(op, Op::Get { intent: Intent::Get, id: 0, key: b"user42" });
    }
}

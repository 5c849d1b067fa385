//! The files a tune produces, the same from the page and from `lsm tune --out`: the designs as
//! engine JSON and RocksDB OPTIONS, the workload as YCSB properties and Workload JSON, a
//! db_bench script that runs the same comparison on real RocksDB, the result document, and a
//! short report saying what changed, why, and the gain expected and (when run) measured.

use serde::{Deserialize, Serialize};

use super::predict::CLASSES;
use super::{Priced, Target, TuneResult, allocation_name, human_bytes, shape_summary};
use lsm_core::config::{Allocation, EngineConfig};
use lsm_core::error::Result;
use lsm_export::{self as export, Format};
use lsm_workload::ycsb;

/// One file of a tune's bundle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BundleFile {
    /// File name in the bundle (`REPORT.md`, `recommended.OPTIONS`, …).
    pub name: String,
    /// The file's text, written as is.
    pub text: String,
}

/// I/O per operation measured for the current and the recommended design, and where.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Proof {
    /// Measured I/O per operation of the current design.
    pub current: f64,
    /// Measured I/O per operation of the recommended design.
    pub recommended: f64,
    /// "the engine, in memory", "the engine, on files in /tmp/x", …
    pub on: String,
}

fn file(name: &str, text: String) -> BundleFile {
    BundleFile { name: name.into(), text }
}

/// Every file of the bundle, in the order the report lists them.
pub fn files(result: &TuneResult, proof: Option<&Proof>) -> Result<Vec<BundleFile>> {
    let rec = result.recommendation();
    let w = &result.workload;
    let mut out = vec![file("REPORT.md", report(result, proof))];
    out.push(file("recommended.OPTIONS", export::export(&rec.config, Format::Rocksdb, Some(w))?.text));
    if matches!(rec.config.filter.allocation, Allocation::Monkey | Allocation::Explicit) {
        out.push(file("recommended-filter-policy.cc", export::export(&rec.config, Format::RocksdbCpp, Some(w))?.text));
    }
    out.push(file("current.OPTIONS", export::export(&result.current.config, Format::Rocksdb, Some(w))?.text));
    out.push(file("recommended.engine.json", export::engine::canonical_json(&rec.config)));
    out.push(file("current.engine.json", export::engine::canonical_json(&result.current.config)));
    out.push(file("workload.json", w.to_json() + "\n"));
    let (props, warnings) = ycsb::to_properties(w)?;
    let mut props_text = String::new();
    for warn in &warnings {
        props_text.push_str(&warn.comment_line("#"));
        props_text.push('\n');
    }
    props_text.push_str(&props);
    out.push(file("workload.properties", props_text));
    out.push(file("workload.db_bench.sh", export::export(&rec.config, Format::DbBench, Some(w))?.text));
    out.push(file("compare.sh", compare_script()));
    out.push(file("tune-result.json", serde_json::to_string_pretty(result).unwrap_or_default() + "\n"));
    Ok(out)
}

/// Runs workload.db_bench.sh on RocksDB with each OPTIONS file and prints, per design, the data
/// blocks its lookups read, what the Bloom filters saved and the bytes written.
fn compare_script() -> String {
    "#!/bin/sh
# The comparison on real RocksDB: the same workload (workload.db_bench.sh: same keys, same
# operation counts) with the current and the recommended OPTIONS, each in a fresh database.
# Needs db_bench (Debian: apt-get install rocksdb-tools). Prints one line per design:
#   design  block_reads  keys_read  block_reads_per_key_read  bloom_useful  bytes_written
# block_reads is RocksDB's own count of blocks its reads fetched (perf context block_read_count).
set -e
here=\"$(cd \"$(dirname \"$0\")\" && pwd)\"
WORK=\"${WORK:-$(mktemp -d)}\"
real=\"$(command -v db_bench)\"
mkdir -p \"$WORK/bin\"
# Every db_bench call of the workload script also reports its perf context.
printf '#!/bin/sh\\nexec \"%s\" \"$@\" --perf_level=3\\n' \"$real\" > \"$WORK/bin/db_bench\"
chmod +x \"$WORK/bin/db_bench\"
for design in current recommended; do
  rm -rf \"$WORK/$design\"
  PATH=\"$WORK/bin:$PATH\" DB=\"$WORK/$design\" OPTIONS=\"$here/$design.OPTIONS\" sh \"$here/workload.db_bench.sh\" > \"$WORK/$design.log\" 2>&1
  awk -v design=\"$design\" '
    { if (match($0, /block_read_count = [0-9]+/)) reads += substr($0, RSTART + 19, RLENGTH - 19) }
    /rocksdb.number.keys.read COUNT/ { keys += $NF }
    /rocksdb.bloom.filter.useful COUNT/ { useful += $NF }
    /rocksdb.bytes.written COUNT/ { written += $NF }
    END { printf \"%s %d %d %.4f %d %d\\n\", design, reads, keys, (keys ? reads / keys : 0), useful, written }
  ' \"$WORK/$design.log\"
done
"
    .into()
}

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

fn io(x: f64) -> String {
    format!("{x:.4}")
}

/// The class whose share × cost is the largest part of a design's expected cost.
fn dominant(p: &Priced, mix: &[f64; 4]) -> (usize, f64) {
    let parts: Vec<f64> = (0..4).map(|i| mix[i] * p.prediction.class_costs[i]).collect();
    let (i, part) =
        parts.iter().copied().enumerate().fold((0, f64::NEG_INFINITY), |b, (i, x)| if x > b.1 { (i, x) } else { b });
    (i, if p.prediction.expected > 0.0 { part / p.prediction.expected } else { 0.0 })
}

fn changes(a: &EngineConfig, b: &EngineConfig) -> Vec<String> {
    let mut out = Vec::new();
    if a.buffer_bytes != b.buffer_bytes {
        out.push(format!(
            "write buffer: {} → {}",
            human_bytes(a.buffer_bytes as f64),
            human_bytes(b.buffer_bytes as f64)
        ));
    }
    if a.filter.bits_per_key != b.filter.bits_per_key || a.filter.allocation != b.filter.allocation {
        out.push(format!(
            "filters: {} bits/key, {} → {} bits/key, {}",
            a.filter.bits_per_key,
            allocation_name(a.filter.allocation),
            b.filter.bits_per_key,
            allocation_name(b.filter.allocation)
        ));
    }
    let (sa, sb) = (shape_summary(a), shape_summary(b));
    if sa != sb || a.levels != b.levels {
        out.push(format!("shape: {sa} → {sb}"));
    }
    if out.is_empty() {
        out.push("nothing: no design for the same memory is predicted cheaper".into());
    }
    out
}

fn report(r: &TuneResult, proof: Option<&Proof>) -> String {
    let rec = r.recommendation();
    let cur = &r.current;
    let target = match r.target {
        Target::Engine => "the engine",
        Target::Rocksdb => "RocksDB",
    };
    let mut s = String::new();
    s.push_str(&format!(
        "# Tuned design: {}\n\n",
        if r.workload.name.is_empty() { "workload" } else { &r.workload.name }
    ));
    s.push_str(&format!(
        "Target: {target}. Memory for the write buffer and filters: {} (the current design's). Robustness ρ = {} ({}).\n\n",
        human_bytes(r.memory_bytes),
        r.rho,
        if r.rho > 0.0 { "the design with the lowest worst-case cost over workloads within that KL-divergence" } else { "the design with the lowest cost at this workload" }
    ));
    s.push_str("| | current | recommended |\n|---|---|---|\n");
    s.push_str(&format!("| design | {} | {} |\n", cur.summary, rec.summary));
    for (i, name) in CLASSES.iter().enumerate() {
        if r.mix[i] > 0.0 {
            s.push_str(&format!(
                "| {name} ({} of operations), I/O each | {} | {} |\n",
                pct(r.mix[i]),
                io(cur.prediction.class_costs[i]),
                io(rec.prediction.class_costs[i])
            ));
        }
    }
    s.push_str(&format!(
        "| predicted I/O per operation | {} | {} |\n",
        io(cur.prediction.expected),
        io(rec.prediction.expected)
    ));
    if r.rho > 0.0 {
        s.push_str(&format!("| worst case within ρ | {} | {} |\n", io(cur.worst), io(rec.worst)));
    }
    if let Some(p) = proof {
        s.push_str(&format!("| measured I/O per operation | {} | {} |\n", io(p.current), io(p.recommended)));
    }
    s.push_str("\n## What changed\n\n");
    for c in changes(&cur.config, &rec.config) {
        s.push_str(&format!("- {c}\n"));
    }
    let (class, share) = dominant(cur, &r.mix);
    s.push_str(&format!(
        "\n## Why\n\nFor the current design, {} dominate the cost: {} of its predicted I/O per operation. \
         The recommendation brings them from {} to {} I/O each.\n",
        CLASSES[class].to_string() + "s",
        pct(share),
        io(cur.prediction.class_costs[class]),
        io(rec.prediction.class_costs[class])
    ));
    s.push_str(&format!(
        "\n## Gain\n\nPredicted: {} less I/O per operation. The prediction replays the engine's own merge policy and \
         filter sizing on sizes, so it is what the engine will measure (tested against the engine within a few percent).\n",
        pct(r.predicted_gain)
    ));
    if let Some(p) = proof {
        let measured = if p.current > 0.0 { 1.0 - p.recommended / p.current } else { 0.0 };
        s.push_str(&format!("Measured on {}: {} less.\n", p.on, pct(measured)));
    }
    if r.rho > 0.0 {
        s.push_str(&format!("Robustness costs {} at the expected workload.\n", pct(r.expected_loss)));
    }
    let g = &r.grown;
    s.push_str(&format!(
        "\nWith twice the data ({} records, the same operations): {} I/O per operation for the current design, {} for the recommended one{}.\n",
        g.records,
        io(g.current),
        io(g.recommended),
        if g.recommended > g.current { " — the recommendation is tuned to this data size and loses as the data grows: tune again for the size you expect" } else { "" }
    ));
    s.push_str(
        "\n## Files\n\n\
         - `recommended.OPTIONS`, `current.OPTIONS`: RocksDB OPTIONS files (`# LOSSY` lines say what RocksDB cannot express)\n\
         - `recommended.engine.json`, `current.engine.json`: the designs for `lsm run --config`\n\
         - `workload.properties`, `workload.json`: the workload for YCSB and for `lsm run --workload`\n\
         - `workload.db_bench.sh`, `compare.sh`: `sh compare.sh` runs both OPTIONS files on RocksDB with the same keys and counts\n\
         - `tune-result.json`: everything above as data\n",
    );
    if matches!(rec.config.filter.allocation, Allocation::Monkey | Allocation::Explicit) {
        s.push_str("- `recommended-filter-policy.cc`: the per-level Bloom filter policy RocksDB needs for Monkey's allocation\n");
    }
    s
}

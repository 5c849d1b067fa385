//! The files a tune produces, the same from the page and from `lsm tune --out`: the designs as
//! engine JSON and RocksDB OPTIONS, the workload as YCSB properties and Workload JSON, the
//! RocksDB referee's source and `compare.sh`, which plays the workload's exact operations on real
//! RocksDB with both OPTIONS files (db_bench as an extra), the result document, and a short report
//! saying what changed, why, and the gain expected and (when run) measured.

use serde::{Deserialize, Serialize};

use crate::designs::{allocation_name, human_bytes, shape_summary};
use crate::options::Target;
use crate::predict::CLASSES;
use crate::result::{Priced, RequiredPlugin, TuneResult};
use lsm_core::config::{Allocation, EngineConfig};
use lsm_core::error::Result;
use lsm_export::{self as export, Format};
use lsm_workload::ycsb;

/// One file of a tune's bundle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct BundleFile {
    /// File name in the bundle (`REPORT.md`, `recommended.OPTIONS`, …).
    pub name: String,
    /// The file's text, written as is.
    pub text: String,
}

/// I/O per operation measured for the current and the recommended design, and where.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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

/// Every file of the bundle, in the order the report lists them. `original`: the OPTIONS file the
/// current design was imported from, when there is one: then `current.OPTIONS` is that file as
/// given, and `recommended.OPTIONS` is that file with exactly the options of the diff changed
/// (`recommended_options`), so compression, `max_write_buffer_number` and every option the tool
/// does not model stay as the user set them; without it both are exported from the designs.
pub fn files(result: &TuneResult, proof: Option<&Proof>, original: Option<&str>) -> Result<Vec<BundleFile>> {
    let rec = result.recommendation();
    let w = &result.workload;
    let mut out = vec![file("REPORT.md", report(result, proof, original.is_some()))];
    let (recommended, current) = match original {
        Some(text) => (recommended_options(result, text)?, text.to_string()),
        None => (
            export::export(&rec.config, Format::Rocksdb, Some(w))?.text,
            export::export(&result.current.config, Format::Rocksdb, Some(w))?.text,
        ),
    };
    out.push(file("recommended.OPTIONS", recommended));
    let plugin = RequiredPlugin::of(&rec.config);
    if let Some(p) = &plugin {
        // The plugin the recommendation cannot run without, under the name referee.cc includes.
        out.push(file(&p.file, export::export(&rec.config, Format::RocksdbCpp, Some(w))?.text));
    } else if matches!(rec.config.filter.allocation, Allocation::Monkey | Allocation::Explicit) {
        out.push(file("recommended-filter-policy.cc", export::export(&rec.config, Format::RocksdbCpp, Some(w))?.text));
    }
    out.push(file("current.OPTIONS", current));
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
    out.push(file(
        "compare.sh",
        compare_script(result.current.config.block_cache.bytes, rec.config.block_cache.bytes, plugin.is_some()),
    ));
    for (name, text) in REFEREE_SOURCES {
        out.push(file(name, (*text).into()));
    }
    out.push(file("tune-result.json", serde_json::to_string_pretty(result).unwrap_or_default() + "\n"));
    Ok(out)
}

/// The user's OPTIONS file `original` with exactly the options the recommendation's diff names
/// set to their new values (none for "keep your design", or a design the RocksDB search did not
/// advise on: then the file comes back as given). The per-level filter plugin is a line of the
/// diff but no option of the file: the bundle's policy.h carries it.
pub fn recommended_options(result: &TuneResult, original: &str) -> Result<String> {
    let changes = result.rocksdb.as_ref().map_or(&[][..], |a| a.changes.as_slice());
    let edits: Vec<export::OptionEdit<'_>> = changes
        .iter()
        .filter(|c| c.option != crate::rocksdb::knobs::PER_LEVEL_OPTION)
        .map(|c| export::OptionEdit { section: &c.section, option: &c.option, value: &c.to })
        .collect();
    let patched = export::with_options(original, &edits)?;
    if edits.is_empty() {
        return Ok(patched);
    }
    let names: Vec<&str> = edits.iter().map(|e| e.option).collect();
    Ok(format!(
        "# LSM Navigator: your OPTIONS file with the {} options of the recommendation set ({}); every other line as you \
         gave it.\n{patched}",
        edits.len(),
        names.join(", ")
    ))
}

/// The RocksDB referee's sources (interop/rocksdb/referee.cc, its `main`, and its parts
/// referee_*.h/.cc), shipped in the bundle so `compare.sh` can build it against the user's own
/// librocksdb. The bundle's tests check the list against the directory.
const REFEREE_SOURCES: &[(&str, &str)] = &[
    ("referee.cc", include_str!("../../../../interop/rocksdb/referee.cc")),
    ("referee_common.h", include_str!("../../../../interop/rocksdb/referee_common.h")),
    ("referee_common.cc", include_str!("../../../../interop/rocksdb/referee_common.cc")),
    ("referee_counters.h", include_str!("../../../../interop/rocksdb/referee_counters.h")),
    ("referee_counters.cc", include_str!("../../../../interop/rocksdb/referee_counters.cc")),
    ("referee_json.h", include_str!("../../../../interop/rocksdb/referee_json.h")),
    ("referee_json.cc", include_str!("../../../../interop/rocksdb/referee_json.cc")),
    ("referee_listener.h", include_str!("../../../../interop/rocksdb/referee_listener.h")),
    ("referee_listener.cc", include_str!("../../../../interop/rocksdb/referee_listener.cc")),
    ("referee_report.h", include_str!("../../../../interop/rocksdb/referee_report.h")),
    ("referee_report.cc", include_str!("../../../../interop/rocksdb/referee_report.cc")),
    ("referee_setup.h", include_str!("../../../../interop/rocksdb/referee_setup.h")),
    ("referee_setup.cc", include_str!("../../../../interop/rocksdb/referee_setup.cc")),
    ("referee_stream.h", include_str!("../../../../interop/rocksdb/referee_stream.h")),
    ("referee_stream.cc", include_str!("../../../../interop/rocksdb/referee_stream.cc")),
];

/// Plays workload.json's exact operation stream on RocksDB with each OPTIONS file through the
/// referee and prints, per run, RocksDB's own counts per operation; `db_bench` as an argument
/// adds the db_bench comparison (workload.db_bench.sh). With `plugin`, the referee is built with
/// the bundle's policy.h and installs it for the recommended design (--filter-plugin on).
fn compare_script(current_cache: u64, recommended_cache: u64, plugin: bool) -> String {
    let (build_flags, plugin_note, recommended_flags) = if plugin {
        (
            "-DLSM_NAVIGATOR_POLICY -I \"$here\" ",
            "#\n# The recommended design needs the C++ plugin policy.h (per-level filter bits, which an OPTIONS\n\
             # file cannot say): the referee is built with it and installs it as the recommended design's\n\
             # filter_policy (--filter-plugin on); db_bench cannot load it, so its recommended run has the\n\
             # OPTIONS file's mean bits on every level.\n",
            " --filter-plugin on",
        )
    } else {
        ("", "", "")
    };
    format!(
        "#!/bin/sh
# The comparison on real RocksDB, by RocksDB's own counters. The referee (referee.cc, built here
# against your librocksdb) plays the workload's exact operation stream (`lsm ops --workload
# workload.json`: the same keys, values and order as the tune priced, YCSB's zipfian and latest
# distributions included) on each OPTIONS file in a fresh database, with direct reads (blocks
# come from the device, not the OS page cache), REPEATS times (default 3), alternating designs,
# as users run RocksDB (the referee's defaults): flushes and compactions in the background, the
# database closed and reopened between the load and the run (cold block cache), one client
# thread. REFEREE_FLAGS adds referee flags: '--threads 4' for four clients, '--sync-compactions on
# --between continue' for its lab mode (each flush and compaction waited for: repeatable trees).
# Needs: lsm (LSM Navigator's CLI) on PATH or in $LSM; g++ and RocksDB's headers and library
# (Debian: apt-get install g++ librocksdb-dev). WORK (default: a temporary directory) holds the
# databases and each run's JSON (every counter the referee took) and log.
#
# Every design plays the same operations, so the figures below compare per operation:
#   blocks/op        blocks the operations read from storage (data + index + filter)
#   data/op          data blocks alone
#   written/B        bytes flushes and compactions wrote per user byte written (run phase)
#   ops/s            run phase operations over its wall time (in the lab mode, the waits for
#                    flush and compaction after each write that sealed a memtable included)
#   get, write, scan p50/p99 latency of the RocksDB call, microseconds (- : no such operation)
# The spread between a design's runs is the noise: a difference inside it is no difference. Under
# background compaction it is wide (how many level-0 files a run begins with moves its reads):
# each run's JSON says how the run began (run_start) and what the referee played (process).
#
# `sh compare.sh db_bench` then also runs workload.db_bench.sh (db_bench: the same key and
# operation counts, but its own uniform keys and one operation type at a time) per design.
{plugin_note}set -e
here=\"$(cd \"$(dirname \"$0\")\" && pwd)\"
WORK=\"${{WORK:-$(mktemp -d)}}\"
LSM=\"${{LSM:-lsm}}\"
REPEATS=\"${{REPEATS:-3}}\"
REFEREE_FLAGS=\"${{REFEREE_FLAGS:-}}\"
command -v \"$LSM\" > /dev/null || {{ echo \"compare.sh: lsm not found (put LSM Navigator's CLI on PATH or set LSM)\" >&2; exit 2; }}
mkdir -p \"$WORK\"
g++ -std=c++17 -O2 {build_flags}\"$here/referee.cc\" \"$here\"/referee_*.cc -o \"$WORK/referee\" -lrocksdb -lpthread
printf '%-12s %4s %10s %10s %10s %9s %15s %15s %15s\\n' design run blocks/op data/op written/B ops/s get_p50/p99 write_p50/p99 scan_p50/p99
i=1
while [ \"$i\" -le \"$REPEATS\" ]; do
  for design in current recommended; do
    if [ \"$design\" = current ]; then cache={current_cache}; plugin=; else cache={recommended_cache}; plugin=\"{recommended_flags}\"; fi
    rm -rf \"$WORK/db-$design\"
    \"$LSM\" ops --workload \"$here/workload.json\" | \"$WORK/referee\" --db \"$WORK/db-$design\" \\
      --options \"$here/$design.OPTIONS\" --block-cache-bytes \"$cache\"$plugin $REFEREE_FLAGS > \"$WORK/$design-$i.json\" 2> \"$WORK/$design-$i.log\"
    rm -rf \"$WORK/db-$design\"
    grep -q '\"direct_reads\": true' \"$WORK/$design-$i.json\" || echo \"warning: $design run $i: no direct reads (see $WORK/$design-$i.json): blocks may come from the page cache\" >&2
    grep '^referee: summary' \"$WORK/$design-$i.log\" | awk -v design=\"$design\" -v run=\"$i\" '
      function lat(c) {{ return ((c \"_p50_ns\") in v) ? sprintf(\"%.1f/%.1f\", v[c \"_p50_ns\"] / 1000, v[c \"_p99_ns\"] / 1000) : \"-\" }}
      {{ for (k = 3; k <= NF; k++) {{ split($k, kv, \"=\"); v[kv[1]] = kv[2] }}
        ops = v[\"ops\"] > 0 ? v[\"ops\"] : 1
        printf \"%-12s %4d %10.4f %10.4f %10.3f %9.0f %15s %15s %15s\\n\", design, run, v[\"blocks_read\"] / ops, v[\"data_blocks_read\"] / ops,
          (v[\"user_bytes\"] > 0 ? v[\"bytes_written\"] / v[\"user_bytes\"] : 0), (v[\"seconds\"] > 0 ? v[\"ops\"] / v[\"seconds\"] : 0), lat(\"get\"), lat(\"write\"), lat(\"scan\") }}'
  done
  i=$((i + 1))
done
[ \"$1\" = db_bench ] || exit 0

# db_bench, as an extra: blocks read per key read (perf context block_read_count over
# rocksdb.number.keys.read), keys the filters ruled out (rocksdb.bloom.filter.useful) and bytes
# flushes and compactions wrote (rocksdb.flush.write.bytes + rocksdb.compact.write.bytes).
# Needs db_bench (Debian: apt-get install rocksdb-tools).
real=\"$(command -v db_bench)\"
mkdir -p \"$WORK/bin\"
printf '#!/bin/sh\\nexec \"%s\" \"$@\" --perf_level=3\\n' \"$real\" > \"$WORK/bin/db_bench\"
chmod +x \"$WORK/bin/db_bench\"
printf '%-12s %16s %14s %16s\\n' design blocks/key_read filter_useful flush+compaction_B
for design in current recommended; do
  rm -rf \"$WORK/$design\"
  PATH=\"$WORK/bin:$PATH\" DB=\"$WORK/$design\" OPTIONS=\"$here/$design.OPTIONS\" sh \"$here/workload.db_bench.sh\" > \"$WORK/$design.log\" 2>&1
  awk -v design=\"$design\" '
    {{ if (match($0, /block_read_count = [0-9]+/)) reads += substr($0, RSTART + 19, RLENGTH - 19) }}
    /rocksdb.number.keys.read COUNT/ {{ keys += $NF }}
    /rocksdb.bloom.filter.useful COUNT/ {{ useful += $NF }}
    /rocksdb.flush.write.bytes COUNT/ {{ written += $NF }}
    /rocksdb.compact.write.bytes COUNT/ {{ written += $NF }}
    END {{ printf \"%-12s %16.4f %14d %16d\\n\", design, (keys ? reads / keys : 0), useful, written }}
  ' \"$WORK/$design.log\"
done
"
    )
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

fn report(r: &TuneResult, proof: Option<&Proof>, users_file: bool) -> String {
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
        "Target: {target}. Memory for {}: {}. Robustness ρ = {} ({}).\n\n",
        if cur.memory.is_some() {
            "memtables, block cache and the index and filter blocks held outside it"
        } else {
            "the write buffer and filters"
        },
        human_bytes(r.memory_bytes),
        r.rho,
        if r.rho > 0.0 {
            "the design with the lowest worst-case cost over workloads within that KL-divergence"
        } else {
            "the design with the lowest cost at this workload"
        }
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
    if let (Some(a), Some(b)) = (&cur.steady, &rec.steady) {
        s.push_str(&format!(
            "| steady state, writes amortised: I/O per operation | {} | {} |\n| write amplification (steady state) | {:.2} | {:.2} |\n| space amplification | {:.2} | {:.2} |\n",
            io(a.expected),
            io(b.expected),
            a.write_amp,
            b.write_amp,
            a.space_amp,
            b.space_amp
        ));
    }
    if let (Some(a), Some(b)) = (&cur.memory, &rec.memory) {
        let mem = |m: &crate::rocksdb::memory::Memory| {
            format!(
                "{} = memtables {} + cache {} + index/filters outside it {}",
                human_bytes(m.total),
                human_bytes(m.memtables),
                human_bytes(m.block_cache),
                human_bytes(m.outside_cache)
            )
        };
        s.push_str(&format!("| memory (as RocksDB charges it) | {} | {} |\n", mem(a), mem(b)));
    }
    let advice = r.rocksdb.as_ref();
    if let Some(a) = advice {
        s.push_str(&format!("\n**Verdict:** {}.\n", a.verdict.words));
    }
    if let Some(p) = advice.and_then(|a| a.plugin.as_ref()) {
        s.push_str(&format!("\n**Plugin required ({}):** {}.\n", p.plugin.name(), p.note));
    }
    s.push_str("\n## What changed\n\n");
    match advice.filter(|a| !a.changes.is_empty()) {
        None => {
            for c in changes(&cur.config, &rec.config) {
                s.push_str(&format!("- {c}\n"));
            }
        }
        Some(a) => {
            s.push_str("| RocksDB option | current | recommended | share of the gain | why |\n|---|---|---|---|---|\n");
            for c in &a.changes {
                s.push_str(&format!(
                    "| `{}` | `{}` | `{}` | {} | {} |\n",
                    c.option,
                    c.from,
                    c.to,
                    pct(c.share),
                    c.reason
                ));
            }
            s.push_str(&format!("\nShares: {}.\n", a.shares_note));
        }
    }
    if let Some(a) = advice.filter(|a| !a.robust_note.is_empty()) {
        s.push_str(&format!("\nRobust design: {}.\n", a.robust_note));
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
    let h = &r.headline;
    s.push_str(&format!(
        "\n## Gain\n\nPredicted: {} less {} ({} to {} within the model's error){}. In the run as played, in I/O per \
         operation (what the proof measures): {} less. The prediction replays the engine's own merge policy and filter \
         sizing on sizes, so it is what the engine will measure (tested against the engine within a few percent).\n",
        pct(h.gain),
        h.measures,
        pct(h.low),
        pct(h.high),
        if h.keep { ": keep your design" } else { "" },
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
    s.push_str(if users_file {
        "\n## Files\n\n\
         - `current.OPTIONS`: your OPTIONS file as you gave it; `recommended.OPTIONS`: the same file with exactly the \
         options under What changed set (none: your file unchanged), every other line (compression, max_write_buffer_number, what the tuner does \
         not model) as you wrote it\n"
    } else {
        "\n## Files\n\n\
         - `recommended.OPTIONS`, `current.OPTIONS`: RocksDB OPTIONS files (`# LOSSY` lines say what RocksDB cannot express)\n"
    });
    s.push_str(
        "- `recommended.engine.json`, `current.engine.json`: the designs for `lsm run --config`\n\
         - `workload.properties`, `workload.json`: the workload for YCSB and for `lsm run --workload`\n\
         - `compare.sh`, `referee.cc` and its parts `referee_*`: `sh compare.sh` plays the workload's exact operations on RocksDB with each OPTIONS file \
         (the referee, built from them against your librocksdb; needs `lsm` and g++), as users run RocksDB (background compactions, a restart between the load and the run), and prints RocksDB's own counts: \
         blocks read from storage per operation, bytes written per user byte, ops/s, latency\n\
         - `workload.db_bench.sh`: the same key and operation counts for db_bench (`sh compare.sh db_bench` runs it too)\n\
         - `tune-result.json`: everything above as data\n",
    );
    match RequiredPlugin::of(&rec.config) {
        Some(p) => s.push_str(&format!(
            "- `{}`: **plugin required** — the C++ filter policy giving each level its own bits ({}); RocksDB runs the \
             recommendation only with it (`compare.sh` builds the referee with it)\n",
            p.file,
            crate::rocksdb::per_level::bits_summary(&p.bits_by_level)
        )),
        None if matches!(rec.config.filter.allocation, Allocation::Monkey | Allocation::Explicit) => {
            s.push_str("- `recommended-filter-policy.cc`: the per-level Bloom filter policy RocksDB needs for Monkey's allocation\n");
        }
        None => {}
    }
    s
}

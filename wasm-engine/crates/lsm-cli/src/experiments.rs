//! The engine's experiments as commands: `lsm growth` (Monkey's Fig 12A), and `lsm keys` and
//! `lsm writes`, the write-side comparison with a real LevelDB. `keys` prints a workload's written
//! keys as raw bytes, which the LevelDB driver (interop/leveldb) reads, so both systems take the
//! same keys in the same order; `writes` measures the engine on them.

use std::io::Write as _;

use lsm_core::config::{Allocation, EngineConfig};
use lsm_core::error::{Error, Result};
use lsm_runner::clock::now_ns;
use lsm_runner::growth::{Growth, GrowthPolicy, GrowthSpec};
use lsm_runner::write_amp::{WriteAmpRun, WriteAmpSpec};
use lsm_workload::generator::{Generator, Intent, Op, OpSource, Phase};

use super::cli::{GrowthArgs, KeysArgs, OpsArgs, WritesArgs};
use super::{key_bytes, load_config, load_workload, number, open_rocksdb_trace, print_notes, read, storage};
use lsm_workload::kvbench::TraceReader;

/// A write error on a stream to stdout: a closed pipe (the reader has what it wanted, as with
/// `| head`) ends the command quietly; anything else is an error.
fn stdout_error(e: std::io::Error) -> Error {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    Error::storage("stdout", e.to_string())
}

/// Every key the workload writes, in order, as raw bytes (fixed length: the workload's key size).
pub(crate) fn keys(a: &KeysArgs) -> Result<()> {
    let w = load_workload(&a.workload, &a.counts)?;
    let mut generator = Generator::new(&w);
    let mut out = std::io::BufWriter::with_capacity(1 << 20, std::io::stdout().lock());
    while let Some((_, op)) = generator.next_op()? {
        match op {
            Op::Put { key, .. } => out.write_all(key).map_err(stdout_error)?,
            _ => {
                return Err(Error::invalid("--workload", "keys are printed for workloads of inserts and updates only"));
            }
        }
    }
    out.flush().map_err(stdout_error)
}

/// The header of `lsm ops`'s stream: a format name and version.
const OPS_MAGIC: &[u8; 8] = b"LSMOPS1\n";

/// A length-prefixed byte string of the `lsm ops` stream.
fn ops_bytes(out: &mut Vec<u8>, bytes: &[u8]) -> Result<()> {
    let len = u32::try_from(bytes.len())
        .map_err(|_| Error::invalid("--workload", "keys and values must be shorter than 4 GiB"))?;
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(bytes);
    Ok(())
}

/// One operation as an `lsm ops` record (the format is in `lsm ops --help`).
fn ops_record(op: &Op<'_>, out: &mut Vec<u8>) -> Result<()> {
    match op {
        Op::Put { intent, key, value, .. } => {
            out.push(if *intent == Intent::Insert { b'I' } else { b'U' });
            ops_bytes(out, key)?;
            ops_bytes(out, value)
        }
        Op::Delete { key, .. } => {
            out.push(b'D');
            ops_bytes(out, key)
        }
        Op::Get { intent, key, .. } => {
            out.push(match intent {
                Intent::GetExisting => b'G',
                Intent::GetMissing => b'M',
                _ => b'Q',
            });
            ops_bytes(out, key)
        }
        Op::Range { start, end, .. } => {
            out.push(b'S');
            ops_bytes(out, start)?;
            ops_bytes(out, end)
        }
    }
}

/// Every operation of the workload (or trace), phase markers included, as the binary stream the
/// RocksDB referee plays (interop/rocksdb): the engine's own operations, keys and values byte for byte.
pub(crate) fn ops(a: &OpsArgs) -> Result<()> {
    let (mut source, notes_of): (Box<dyn OpSource>, Option<&str>) = match (&a.workload, &a.trace, &a.rocksdb_trace) {
        (Some(w), _, _) => (Box::new(Generator::new(&load_workload(w, &a.counts)?)), None),
        (None, Some(t), _) => (Box::new(TraceReader::named(t, read(t)?, key_bytes(&a.key_bytes.key_bytes)?)), None),
        (None, None, Some(t)) => (Box::new(open_rocksdb_trace(t)?), Some(t.as_str())),
        (None, None, None) => {
            return Err(Error::invalid("--workload/--trace/--rocksdb-trace", "give exactly one of them"));
        }
    };
    if let Some(t) = notes_of {
        print_notes(t, &source.notes());
    }
    let generator = &mut source;
    let mut out = std::io::BufWriter::with_capacity(1 << 20, std::io::stdout().lock());
    out.write_all(OPS_MAGIC).map_err(stdout_error)?;
    let mut phase = None;
    let mut record = Vec::with_capacity(4096);
    while let Some((p, op)) = generator.next_op()? {
        record.clear();
        if phase != Some(p) {
            record.push(if p == Phase::Preload { b'L' } else { b'R' });
            phase = Some(p);
        }
        ops_record(&op, &mut record)?;
        out.write_all(&record).map_err(stdout_error)?;
    }
    out.flush().map_err(stdout_error)
}

/// The engine's write amplification by destination level at every `--checkpoint` writes (JSON).
pub(crate) fn writes(a: &WritesArgs) -> Result<()> {
    let at_flush = a.checkpoint == "flush";
    let spec = WriteAmpSpec {
        config: load_config(&a.config)?,
        workload: load_workload(&a.workload, &a.counts)?,
        checkpoint: if at_flush { 0 } else { number(&a.checkpoint, "checkpoint")? },
        checkpoint_at_flush: at_flush,
    };
    let result = WriteAmpRun::on(spec, storage(a.dir.as_deref().map(std::path::Path::new))?)?.run()?;
    let json = serde_json::to_string(&result).map_err(|e| Error::invalid("result", e.to_string()))?;
    outln!("{json}");
    Ok(())
}

/// Monkey's Fig 12A: zero-result I/O per lookup as one tree per filter policy doubles.
pub(crate) fn growth(a: &GrowthArgs) -> Result<()> {
    let config = match &a.config {
        Some(path) => load_config(path)?,
        None => {
            let mut c = EngineConfig::uniform_shape(
                number(&a.size_ratio, "size-ratio")?,
                number(&a.max_runs, "max-runs")?,
                Allocation::Monkey,
                number(&a.bits, "bits")?,
            );
            c.buffer_bytes = number(&a.buffer_bytes, "buffer-bytes")?;
            c
        }
    };
    let spec = GrowthSpec {
        config,
        from_log2: number(&a.from, "from")?,
        to_log2: number(&a.to, "to")?,
        lookups: number(&a.lookups, "lookups")?,
        value_bytes: number(&a.value_bytes, "value-bytes")?,
        policies: GrowthPolicy::ALL.to_vec(),
    };
    let started = now_ns();
    let result = Growth::new(spec)?.run()?;
    if a.json {
        outln!("{}", serde_json::to_string_pretty(&result).unwrap_or_default());
        return Ok(());
    }
    let c = &result.spec.config;
    outln!(
        "zero-result I/O per lookup, T = {}, {} run(s) per level, {} bits/key, {} lookups per size",
        c.levels[0].size_ratio,
        c.levels[0].max_runs,
        c.filter.bits_per_key,
        result.spec.lookups
    );
    outln!(
        "{:>9} {:>5} {:>9} {:>9} {:>9} {:>9} {:>8} {:>9} {:>10}",
        "entries",
        "runs",
        "uniform",
        "at birth",
        "re-opt",
        "optimum",
        "re/opt",
        "rebuilds",
        "reb.pages"
    );
    for size in result.spec.from_log2..=result.spec.to_log2 {
        let at = |p: GrowthPolicy| result.points.iter().find(|x| x.policy == p && x.entries == 1 << size);
        let (Some(u), Some(b), Some(r)) =
            (at(GrowthPolicy::Uniform), at(GrowthPolicy::MonkeyAtBirth), at(GrowthPolicy::MonkeyReoptimised))
        else {
            continue;
        };
        outln!(
            "{:>9} {:>5} {:>9.4} {:>9.4} {:>9.4} {:>9.4} {:>+7.1}% {:>9} {:>10}",
            format!("2^{size}"),
            r.runs.len(),
            u.io_per_lookup,
            b.io_per_lookup,
            r.io_per_lookup,
            r.optimum_io,
            (r.io_per_lookup / r.optimum_io - 1.0) * 100.0,
            r.rebuilds,
            r.rebuild_pages
        );
    }
    eprintln!("measured in {:.1} s", (now_ns() - started) / 1e9);
    Ok(())
}

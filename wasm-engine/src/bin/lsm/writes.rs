//! `lsm keys` and `lsm writes`: the write-side comparison with a real LevelDB. `keys` prints a
//! workload's written keys as raw bytes, which the LevelDB driver (interop/leveldb) reads, so
//! both systems take the same keys in the same order; `writes` measures the engine on them.

use std::collections::HashMap;
use std::io::Write as _;

use lsm_engine::error::{Error, Result};
use lsm_engine::generator::{Generator, Op, OpSource};
use lsm_engine::write_amp::{WriteAmpRun, WriteAmpSpec};

use super::{load_config, load_workload, number, required, storage};

/// Every key the workload writes, in order, as raw bytes (fixed length: the workload's key size).
pub fn keys(o: &HashMap<String, String>) -> Result<()> {
    let w = load_workload(required(o, "workload")?, o)?;
    let mut generator = Generator::new(&w);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 20, stdout.lock());
    let io = |e: std::io::Error| {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        Error::storage("stdout", e.to_string())
    };
    while let Some((_, op)) = generator.next_op()? {
        match op {
            Op::Put { key, .. } => out.write_all(key).map_err(io)?,
            _ => {
                return Err(Error::invalid("--workload", "keys are printed for workloads of inserts and updates only"));
            }
        }
    }
    out.flush().map_err(io)
}

/// The engine's write amplification by destination level at every `--checkpoint` writes (JSON).
pub fn writes(o: &HashMap<String, String>) -> Result<()> {
    let at_flush = o.get("checkpoint").is_some_and(|c| c == "flush");
    let spec = WriteAmpSpec {
        config: load_config(required(o, "config")?)?,
        workload: load_workload(required(o, "workload")?, o)?,
        checkpoint: if at_flush { u64::MAX >> 24 } else { number(o, "checkpoint", 100_000)? },
        checkpoint_at_flush: at_flush,
    };
    let result = WriteAmpRun::on(spec, storage(o)?)?.run()?;
    let json = serde_json::to_string(&result).map_err(|e| Error::invalid("result", e.to_string()))?;
    outln!("{json}");
    Ok(())
}

//! The command line, declared for clap: every command, every flag and what it takes. Each doc
//! comment is the help clap prints (`lsm --help`, `lsm <command> --help`) and the shell
//! completions are generated from the same declarations (`lsm completions <shell>`).
//!
//! The split of the checking: clap decides the shape of a command line (which flags a command
//! has, which need a value, which exclude each other, which are required) and refuses a bad one
//! with its own message and exit code 2. Values are checked by the engine, as they always were:
//! a flag's value is kept as the text given and read by the command, so a bad number or name
//! fails with the engine's message naming the flag and the allowed range (`lsm run: --records:
//! must be an integer in [0, 1000000000], got -1`) and exit code 1, like every other domain error.

use std::ffi::OsStr;

use clap::builder::{PossibleValue, StringValueParser, TypedValueParser};
use clap::{ArgGroup, Args, Parser, Subcommand, ValueHint};

/// What every command that reads a workload says about W.
const WORKLOADS: &str = "\
Wherever a workload W is read it may be Workload JSON, a YCSB workload properties file,
ycsb:a … ycsb:f (YCSB's core workloads), or a file holding a db_bench command line
(db_bench --benchmarks=fillrandom,mixgraph --num=… …); --records / --operations set a YCSB
workload's recordcount / operationcount, as YCSB's -p does, and a db_bench line's --num / --reads.

`lsm <command> --help` tells what a command takes; `lsm completions <shell>` prints a completion
script for bash, zsh, fish, elvish or PowerShell.";

/// LSM Navigator's engine, natively: run, predict, tune, export and trace designs and workloads.
///
/// On files or in memory. Same engine, same documents and same counters as the browser: `lsm run`
/// on an exported config reproduces a run from the explorer.
#[derive(Debug, Parser)]
#[command(
    name = "lsm",
    version,
    arg_required_else_help = true,
    max_term_width = 100,
    // As before clap: a flag given twice keeps its last value.
    args_override_self = true,
    after_help = WORKLOADS
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Run a workload, a KVBench trace or a RocksDB trace; write the Report (JSON) to R.json or stdout.
    ///
    /// Without --dir the database lives in memory and merges are paced, as in the browser; with
    /// --dir it is written to files there and merges run in the background (--merges to choose).
    /// The load and the run are summed up side by side on stderr (the merge mode, operations,
    /// time and rate, flushes, merges, pages and bytes written, write amplification), with each
    /// operation class's latency percentiles.
    Run(RunArgs),
    /// Print the workload's operations as a KVBench trace (I/U/D/Q/S lines).
    Trace(TraceArgs),
    /// Check a design or a workload document; print `ok`, or what is wrong with it.
    Validate(ValidateArgs),
    /// Time the load (preload) and the lookups (run) phases; print one JSON line.
    ///
    /// In memory, merges paced, unless --dir (files there, which must be empty; merges in the
    /// background unless --merges says otherwise); the line's `merges` says which ran. Without
    /// --config and --workload: the benchmark design and its 1,000,000 inserts then 1,000,000
    /// lookups.
    Bench(BenchArgs),
    /// Print a design in another format; what the format cannot express goes to stderr.
    Export(ExportArgs),
    /// Print a design as EngineConfig JSON; unknown keys and warnings go to stderr.
    Import(ImportArgs),
    /// Print a YCSB CoreWorkload properties file: a core workload, or the workload W.
    ///
    /// What YCSB cannot run of W goes to stderr.
    Ycsb(YcsbArgs),
    /// Fit a Workload to a KVBench or a RocksDB trace, or a RocksDB LOG; print the fit (JSON) with the Workload inside.
    ///
    /// A trace: operation mix (zero-result lookups apart), key popularity (uniform, or Zipf θ by
    /// maximum likelihood, with goodness of fit and a rank-frequency series), sizes. A LOG (its
    /// last stats dump and statistics): the mix, sizes and keys RocksDB counted, and the Zipf θ
    /// under which the predictor, replaying the OPTIONS, gives the LOG's block cache hit rate;
    /// each figure as the LOG has it and as predicted, and what was assumed.
    Fit(FitArgs),
    /// Tune a design for W: the same memory, fewer I/Os as the engine measures them (JSON).
    ///
    /// A design for the same buffer and filter memory that the engine will measure as cheaper for W:
    /// nominal, and robust over workloads within KL-divergence ρ (Endure); for RocksDB, within its
    /// own shape (write buffer, level multiplier, bits per key). Prints the result (JSON): each
    /// design's predicted I/O per class, the gain, the worst case within ρ and the costs over
    /// 1,000 nearby workloads. With --out, both designs are run on files and the bundle is
    /// written there.
    Tune(TuneArgs),
    /// Predict what a run will measure, without running it: I/O per operation (JSON).
    ///
    /// The engine's own merge policy and filter sizing replayed on sizes: I/O per operation of
    /// each class and in total.
    Predict(PredictArgs),
    /// Measure this device and this engine's CPU: pages and operations turned into time (JSON).
    ///
    /// Writes a file of --probe-mib MiB in DIR (a temporary directory without --dir), times page
    /// writes (large sequential batches, fdatasync) and random page reads (O_DIRECT where the
    /// filesystem allows, said when not), then each operation class's CPU on the design in memory.
    /// Takes a few seconds. `lsm predict --calibration` turns its I/O into µs and ops/s.
    Calibrate(CalibrateArgs),
    /// Monkey's Figure 12A on the engine: zero-result I/O per lookup as the data doubles.
    ///
    /// From 2^from to 2^to entries, for uniform filters, Monkey sized at birth and Monkey
    /// re-optimised, next to the optimum for each measured tree and the rebuilds' pages. Without
    /// --config: T = 2, K = 1, 5 bits/key, a 16 KiB buffer, 4 KiB pages.
    Growth(GrowthArgs),
    /// Print every key W writes, in order, as raw bytes (W must only insert and update).
    ///
    /// The stream the LevelDB driver in interop/leveldb reads.
    Keys(KeysArgs),
    /// Print every operation of W, with its keys and values byte for byte, as a binary stream.
    ///
    /// The stream the RocksDB referee in interop/rocksdb plays, so RocksDB and the engine run the
    /// same operations in the same order. After the 8 bytes `LSMOPS1\n`, one record per
    /// operation, each a tag byte: `L`/`R` the load/run phase begins; `I`/`U` insert/update (u32
    /// little-endian key length, key, u32 LE value length, value); `D` delete (length, key);
    /// `G`/`M`/`Q` lookup of an existing key / a key never inserted / either (a trace's); `S` scan of
    /// [start, end], both inclusive (length, start, length, end).
    ///
    /// The operations are a workload W's, a KVBench trace's (--trace) or a RocksDB query trace's
    /// (--rocksdb-trace: each operation of a Write batch, each key of a MultiGet, each Seek as a
    /// scan of [key, key]; what it cannot play is counted on stderr).
    Ops(OpsArgs),
    /// Write amplification by destination level, at every N writes or every flush (JSON).
    ///
    /// Cumulative entries and bytes written by flushes and by merges into each level, indexed as
    /// LevelDB's levels (0 = flushed files). W must only insert and update.
    Writes(WritesArgs),
    /// Print the version (as --version does).
    Version,
    /// Print a shell's completion script for lsm: `source <(lsm completions bash)`.
    ///
    /// To keep it: `lsm completions bash > ~/.local/share/bash-completion/completions/lsm`,
    /// `lsm completions zsh > ~/.zfunc/_lsm` (with ~/.zfunc on fpath), `lsm completions fish >
    /// ~/.config/fish/completions/lsm.fish`.
    Completions(CompletionsArgs),
}

/// `--records` / `--operations`: a YCSB workload's counts, for every command that reads a workload.
#[derive(Debug, Args)]
pub(crate) struct Counts {
    /// A YCSB workload's recordcount (the records loaded), a db_bench line's --num: an integer in [0, 1000000000].
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub(crate) records: Option<String>,
    /// A YCSB workload's operationcount (the operations run), a db_bench line's --reads: an integer in [0, 1000000000].
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub(crate) operations: Option<String>,
    /// Who plays a YCSB workload: `engine` (the engine's generator, the default), `cpp` (exactly
    /// as YCSB-cpp's RocksDB binding: user+FNV keys, scrambled Zipfian, rows, updates as Get+Put)
    /// or `java` (the same, as YCSB's own Java client computes it).
    #[arg(long, value_name = "CLIENT")]
    pub(crate) ycsb_client: Option<String>,
}

/// Where the database lives and whether writes are logged ahead.
#[derive(Debug, Args)]
pub(crate) struct Store {
    /// Store the database in files in DIR, which must be empty (in memory without it).
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub(crate) dir: Option<String>,
    /// Do not log writes ahead (as RocksDB's disableWAL): what the buffer holds is lost on a crash;
    /// flushed data is durable either way.
    #[arg(long)]
    pub(crate) no_wal: bool,
    /// When merges run: background (flushes and merges on threads of their own, as RocksDB runs
    /// them; writes stall only when they fall behind; needs --dir), paced (each write merges a
    /// slice of the pending work, as the browser runs it; writes stall at the design's
    /// write_stalls thresholds) or inline (every merge to completion inside the write whose flush
    /// made it due, as RocksDB with the referee's --sync-compactions on). Default: background
    /// with --dir, paced in memory. The Report's `merges` and the summary say which ran.
    #[arg(long, value_name = "MODE", value_parser = Named(&["background", "paced", "inline"]))]
    pub(crate) merges: Option<String>,
}

#[derive(Debug, Args)]
#[command(after_help = WORKLOADS)]
#[command(group(ArgGroup::new("input").required(true).args(["workload", "trace", "rocksdb_trace"])))]
pub(crate) struct RunArgs {
    /// The design: EngineConfig JSON.
    #[arg(long, value_name = "C.json", value_hint = ValueHint::FilePath)]
    pub(crate) config: String,
    /// The workload W to run (give it, --trace or --rocksdb-trace).
    #[arg(long, value_name = "W", value_hint = ValueHint::FilePath)]
    pub(crate) workload: Option<String>,
    /// A KVBench trace to run (I/U/D/Q/S lines; give it, --rocksdb-trace or --workload).
    #[arg(long, value_name = "T.txt", value_hint = ValueHint::FilePath)]
    pub(crate) trace: Option<String>,
    /// A RocksDB query trace to run (`DB::StartTrace`, `db_bench --trace_file`), record by record.
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub(crate) rocksdb_trace: Option<String>,
    #[command(flatten)]
    pub(crate) key_bytes: KeyBytes,
    /// Write the Report (JSON) to R.json instead of stdout.
    #[arg(long, value_name = "R.json", value_hint = ValueHint::FilePath)]
    pub(crate) report: Option<String>,
    #[command(flatten)]
    pub(crate) store: Store,
    #[command(flatten)]
    pub(crate) counts: Counts,
}

/// `--key-bytes`, for the commands that read a trace.
#[derive(Debug, Args)]
pub(crate) struct KeyBytes {
    /// The length, in bytes, that a trace's integer keys are encoded to: an integer in [8, 1024].
    #[arg(long, value_name = "BYTES", default_value = "16", allow_negative_numbers = true)]
    pub(crate) key_bytes: String,
}

#[derive(Debug, Args)]
#[command(after_help = WORKLOADS)]
pub(crate) struct TraceArgs {
    /// The workload W whose operations are printed.
    #[arg(long, value_name = "W", value_hint = ValueHint::FilePath)]
    pub(crate) workload: String,
    #[command(flatten)]
    pub(crate) counts: Counts,
}

#[derive(Debug, Args)]
#[command(after_help = WORKLOADS)]
#[command(group(ArgGroup::new("document").required(true).args(["config", "workload"])))]
pub(crate) struct ValidateArgs {
    /// A design to check: EngineConfig JSON (give it or --workload).
    #[arg(long, value_name = "C.json", value_hint = ValueHint::FilePath)]
    pub(crate) config: Option<String>,
    /// A workload W to check (give it or --config).
    #[arg(long, value_name = "W", value_hint = ValueHint::FilePath)]
    pub(crate) workload: Option<String>,
    #[command(flatten)]
    pub(crate) counts: Counts,
}

#[derive(Debug, Args)]
#[command(after_help = WORKLOADS)]
pub(crate) struct BenchArgs {
    /// The design: EngineConfig JSON (the benchmark design without it).
    #[arg(long, value_name = "C.json", value_hint = ValueHint::FilePath)]
    pub(crate) config: Option<String>,
    /// The workload W (1,000,000 inserts, then 1,000,000 lookups, half missing, without it).
    #[arg(long, value_name = "W", value_hint = ValueHint::FilePath)]
    pub(crate) workload: Option<String>,
    #[command(flatten)]
    pub(crate) store: Store,
    #[command(flatten)]
    pub(crate) counts: Counts,
    /// Time every operation and add the load's insert latency (p50, p99, p99.9, max) and its
    /// stalls to the line.
    #[arg(long)]
    pub(crate) latency: bool,
}

#[derive(Debug, Args)]
#[command(after_help = WORKLOADS)]
pub(crate) struct ExportArgs {
    /// The design: EngineConfig JSON.
    #[arg(long, value_name = "C.json", value_hint = ValueHint::FilePath)]
    pub(crate) design: String,
    /// The format to print: rocksdb (an OPTIONS file), rocksdb-cpp (a C++ filter policy), engine
    /// (canonical EngineConfig JSON) or db_bench (a script; needs --workload).
    #[arg(long, value_name = "FORMAT", value_parser = Named(&["rocksdb", "rocksdb-cpp", "engine", "db_bench"]))]
    pub(crate) format: String,
    /// A workload W to size the tree for (the RocksDB formats) and to run (db_bench).
    #[arg(long, value_name = "W", value_hint = ValueHint::FilePath)]
    pub(crate) workload: Option<String>,
    #[command(flatten)]
    pub(crate) counts: Counts,
}

#[derive(Debug, Args)]
#[command(group(ArgGroup::new("design").required(true).args(["rocksdb", "engine"])))]
pub(crate) struct ImportArgs {
    /// A RocksDB OPTIONS file to read (give it or --engine).
    #[arg(long, value_name = "OPTIONS", value_hint = ValueHint::FilePath)]
    pub(crate) rocksdb: Option<String>,
    /// EngineConfig JSON to read, printed in its canonical form (give it or --rocksdb).
    #[arg(long, value_name = "C.json", value_hint = ValueHint::FilePath)]
    pub(crate) engine: Option<String>,
}

#[derive(Debug, Args)]
#[command(after_help = WORKLOADS)]
#[command(group(ArgGroup::new("source").required(true).args(["core", "workload"])))]
pub(crate) struct YcsbArgs {
    /// One of YCSB's core workloads, by letter: a, b, c, d, e or f (give it or --workload).
    #[arg(long, value_name = "LETTER", value_parser = Named(&["a", "b", "c", "d", "e", "f"]))]
    pub(crate) core: Option<String>,
    /// The workload W to write as a YCSB file (give it or --core).
    #[arg(long, value_name = "W", value_hint = ValueHint::FilePath)]
    pub(crate) workload: Option<String>,
    #[command(flatten)]
    pub(crate) counts: Counts,
}

#[derive(Debug, Args)]
#[command(group(ArgGroup::new("input").required(true).args(["trace", "rocksdb_trace", "rocksdb_log"])))]
pub(crate) struct FitArgs {
    /// The KVBench trace to fit (I/U/D/Q/S lines; give it, --rocksdb-trace or --rocksdb-log).
    #[arg(long, value_name = "T.txt", value_hint = ValueHint::FilePath)]
    pub(crate) trace: Option<String>,
    /// A RocksDB query trace to fit (`DB::StartTrace`, `db_bench --trace_file`; give it, --trace or --rocksdb-log).
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub(crate) rocksdb_trace: Option<String>,
    /// A RocksDB LOG to fit (give it, --trace or --rocksdb-trace): its last stats dump, with statistics if on.
    #[arg(long, value_name = "LOG", value_hint = ValueHint::FilePath)]
    pub(crate) rocksdb_log: Option<String>,
    /// With --rocksdb-log: the OPTIONS file RocksDB ran with; default: the newest OPTIONS-n next
    /// to the LOG, else RocksDB 7.8's defaults (said in the fit's assumptions).
    #[arg(long, value_name = "OPTIONS", value_hint = ValueHint::FilePath, requires = "rocksdb_log")]
    pub(crate) options: Option<String>,
    #[command(flatten)]
    pub(crate) key_bytes: KeyBytes,
}

#[derive(Debug, Args)]
#[command(after_help = WORKLOADS)]
#[command(group(ArgGroup::new("design").required(true).args(["options", "config"])))]
pub(crate) struct TuneArgs {
    /// The current design as a RocksDB OPTIONS file (give it or --config).
    #[arg(long, value_name = "OPTIONS", value_hint = ValueHint::FilePath)]
    pub(crate) options: Option<String>,
    /// The current design as EngineConfig JSON (give it or --options).
    #[arg(long, value_name = "C.json", value_hint = ValueHint::FilePath)]
    pub(crate) config: Option<String>,
    /// The workload W to tune for.
    #[arg(long, value_name = "W", value_hint = ValueHint::FilePath)]
    pub(crate) workload: String,
    /// Robustness ρ: the KL-divergence around W within which the worst case is minimised, a number
    /// in [0, 10] (0: nominal only).
    #[arg(long, value_name = "ρ", default_value = "0", allow_negative_numbers = true)]
    pub(crate) robust: String,
    /// What the designs must run on: engine (any shape), or rocksdb (RocksDB's own shape).
    #[arg(long, value_name = "TARGET", default_value = "engine", value_parser = Named(&["engine", "rocksdb"]))]
    pub(crate) target: String,
    /// Run both designs on files under DIR/db (merges in the background, as `lsm run --dir`),
    /// then write the bundle (designs, workload, report, compare.sh) to DIR.
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub(crate) out: Option<String>,
    /// The memory every design must fit, in bytes (rocksdb: memtables × max_write_buffer_number +
    /// block cache + index and filter blocks held outside it; engine: buffer + filters); default:
    /// what the current design uses.
    #[arg(long, value_name = "BYTES")]
    pub(crate) memory: Option<String>,
    /// RocksDB's max_write_buffer_number, for the memory charge (whole number in [1, 64]);
    /// default: what --options sets, else RocksDB's 2.
    #[arg(long, value_name = "N")]
    pub(crate) max_write_buffer_number: Option<String>,
    /// A plugin you accept building into your application (--target rocksdb): per-level-filters
    /// lets the search give each level its own filter bits (Monkey's split) through the shipped
    /// C++ policy (policy.h, `lsm export --format rocksdb-cpp`); the result says when it is required.
    #[arg(long, value_name = "PLUGIN", value_parser = Named(&["per-level-filters"]))]
    pub(crate) plugin: Option<String>,
    /// What the designs are ranked by: io (I/O per operation) or time (predicted µs per operation
    /// on the device of --calibration, which time needs).
    #[arg(long, value_name = "UNIT", default_value = "io", value_parser = Named(&["io", "time"]))]
    pub(crate) rank: String,
    /// A calibration (`lsm calibrate`): the device --rank time prices the designs on.
    #[arg(long, value_name = "CAL.json", value_hint = ValueHint::FilePath)]
    pub(crate) calibration: Option<String>,
    /// How RocksDB is run between the load and the run (--target rocksdb): restart (close and
    /// reopen: Close flushes the memtable, level 0 is compacted at open; as the referee, YCSB and
    /// db_bench run it) or continue (one process: the lab's pricing, the default until the
    /// restart model's search with --plugin is understood).
    #[arg(long, value_name = "MODEL", default_value = "continue", value_parser = Named(&["restart", "continue"]))]
    pub(crate) process: String,
    /// The run's client threads, a whole number in [1, 64] (YCSB's threadcount).
    #[arg(long, value_name = "N", default_value = "1", allow_negative_numbers = true)]
    pub(crate) threads: String,
    #[command(flatten)]
    pub(crate) counts: Counts,
}

#[derive(Debug, Args)]
#[command(after_help = WORKLOADS)]
pub(crate) struct PredictArgs {
    /// The design: EngineConfig JSON.
    #[arg(long, value_name = "C.json", value_hint = ValueHint::FilePath)]
    pub(crate) config: String,
    /// The workload W.
    #[arg(long, value_name = "W", value_hint = ValueHint::FilePath)]
    pub(crate) workload: String,
    #[command(flatten)]
    pub(crate) counts: Counts,
    /// A calibration (`lsm calibrate`): also predict µs per operation and ops/s on that device.
    #[arg(long, value_name = "CAL.json", value_hint = ValueHint::FilePath)]
    pub(crate) calibration: Option<String>,
    /// How a RocksDB-shaped design's store is run between the load and the run: continue (one
    /// process, the lab's; the default here, what the twin compares with) or restart (as users
    /// run RocksDB; `lsm tune --target rocksdb`'s default), with the range it leaves.
    #[arg(long, value_name = "MODEL", default_value = "continue", value_parser = Named(&["restart", "continue"]))]
    pub(crate) process: String,
    /// The run's client threads, a whole number in [1, 64].
    #[arg(long, value_name = "N", default_value = "1", allow_negative_numbers = true)]
    pub(crate) threads: String,
}

#[derive(Debug, Args)]
pub(crate) struct CalibrateArgs {
    /// Where to write the probe file (removed after): a directory on the device to calibrate.
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub(crate) dir: Option<String>,
    /// The design whose CPU is measured: EngineConfig JSON (RocksDB 7.8's defaults without it).
    #[arg(long, value_name = "C.json", value_hint = ValueHint::FilePath)]
    pub(crate) config: Option<String>,
    /// Size of the probe file, MiB: an integer in [16, 65536]; larger than the device's cache
    /// when reads cannot be direct.
    #[arg(long, value_name = "MIB", default_value = "256", allow_negative_numbers = true)]
    pub(crate) probe_mib: String,
    /// Random page reads timed: an integer in [100, 1000000].
    #[arg(long, value_name = "N", default_value = "2000", allow_negative_numbers = true)]
    pub(crate) reads: String,
}

#[derive(Debug, Args)]
pub(crate) struct GrowthArgs {
    /// The design: EngineConfig JSON (instead of --size-ratio, --max-runs, --bits, --buffer-bytes).
    #[arg(long, value_name = "C.json", value_hint = ValueHint::FilePath, conflicts_with_all = ["size_ratio", "max_runs", "bits", "buffer_bytes"])]
    pub(crate) config: Option<String>,
    /// Size ratio T between levels: a number in [1, 1000].
    #[arg(long, value_name = "T", default_value = "2", allow_negative_numbers = true)]
    pub(crate) size_ratio: String,
    /// Runs per level K (1 = leveling): an integer in [1, 1000].
    #[arg(long, value_name = "K", default_value = "1", allow_negative_numbers = true)]
    pub(crate) max_runs: String,
    /// Filter memory, in bits per key: a number in [0, 64].
    #[arg(long, value_name = "B", default_value = "5", allow_negative_numbers = true)]
    pub(crate) bits: String,
    /// Write buffer size, in bytes: an integer in [4096 (one 4 KiB page), 4294967296].
    #[arg(long, value_name = "N", default_value = "16384", allow_negative_numbers = true)]
    pub(crate) buffer_bytes: String,
    /// The first size measured, as a power of two of entries: an integer in [6, 26].
    #[arg(long, value_name = "LOG2", default_value = "12", allow_negative_numbers = true)]
    pub(crate) from: String,
    /// The last size measured, as a power of two of entries: an integer in [6, 26], ≥ --from.
    #[arg(long, value_name = "LOG2", default_value = "20", allow_negative_numbers = true)]
    pub(crate) to: String,
    /// Zero-result lookups at each size: an integer in [100, 10000000].
    #[arg(long, value_name = "N", default_value = "100000", allow_negative_numbers = true)]
    pub(crate) lookups: String,
    /// Value size of every entry, in bytes (keys are 16 B): an integer in [0, page bytes − 28]
    /// (4068 for 4 KiB pages).
    #[arg(long, value_name = "BYTES", default_value = "100", allow_negative_numbers = true)]
    pub(crate) value_bytes: String,
    /// Print the measurements as JSON instead of a table.
    #[arg(long)]
    pub(crate) json: bool,
}

#[derive(Debug, Args)]
#[command(after_help = WORKLOADS)]
pub(crate) struct KeysArgs {
    /// The workload W whose keys are printed (inserts and updates only).
    #[arg(long, value_name = "W", value_hint = ValueHint::FilePath)]
    pub(crate) workload: String,
    #[command(flatten)]
    pub(crate) counts: Counts,
}

#[derive(Debug, Args)]
#[command(after_help = WORKLOADS)]
#[command(group(ArgGroup::new("input").required(true).args(["workload", "trace", "rocksdb_trace"])))]
pub(crate) struct OpsArgs {
    /// The workload W whose operations are printed (give it, --trace or --rocksdb-trace).
    #[arg(long, value_name = "W", value_hint = ValueHint::FilePath)]
    pub(crate) workload: Option<String>,
    /// A KVBench trace whose operations are printed (I/U/D/Q/S lines).
    #[arg(long, value_name = "T.txt", value_hint = ValueHint::FilePath)]
    pub(crate) trace: Option<String>,
    /// A RocksDB query trace whose operations are printed (`db_bench --trace_file`).
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub(crate) rocksdb_trace: Option<String>,
    #[command(flatten)]
    pub(crate) key_bytes: KeyBytes,
    #[command(flatten)]
    pub(crate) counts: Counts,
}

#[derive(Debug, Args)]
#[command(after_help = WORKLOADS)]
pub(crate) struct WritesArgs {
    /// The design: EngineConfig JSON.
    #[arg(long, value_name = "C.json", value_hint = ValueHint::FilePath)]
    pub(crate) config: String,
    /// The workload W (inserts and updates only).
    #[arg(long, value_name = "W", value_hint = ValueHint::FilePath)]
    pub(crate) workload: String,
    /// When to record the counters: every N writes, an integer in [0, 1099511627776] (2^40; 0:
    /// only at the start and the end), or `flush` (at every flush).
    #[arg(long, value_name = "N|flush", default_value = "100000", allow_negative_numbers = true)]
    pub(crate) checkpoint: String,
    /// Store the database in files in DIR, which must be empty (in memory without it).
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub(crate) dir: Option<String>,
    #[command(flatten)]
    pub(crate) counts: Counts,
}

#[derive(Debug, Args)]
pub(crate) struct CompletionsArgs {
    /// The shell the script is for.
    #[arg(value_enum)]
    pub(crate) shell: clap_complete::Shell,
}

/// A value with named choices that clap lists in the help and the completions but does not
/// check: the command reads it and refuses a wrong one with the engine's own message.
#[derive(Clone, Copy, Debug)]
struct Named(&'static [&'static str]);

impl TypedValueParser for Named {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> std::result::Result<String, clap::Error> {
        StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.0.iter().map(|name| PossibleValue::new(*name))))
    }
}

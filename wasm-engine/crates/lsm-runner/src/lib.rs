//! Plays a workload (generated or a trace) on the engine and writes the `Report`: per operation
//! class and per level counters, the load and the run side by side, latency percentiles with the
//! clock's resolution. Also the engine's two steppable experiments that pages and the CLI drive:
//! filters as a tree grows (`growth`, Monkey's Fig 12(A)) and write amplification flush by flush
//! (`write_amp`, held against a real LevelDB). And the CPU side of a device calibration
//! (`calibrate`): each operation class's cost with its pages in memory.

pub mod calibrate;
pub mod clock;
pub mod growth;
pub mod latency;
pub mod report;
pub mod runner;
pub mod write_amp;

pub use report::Report;
pub use runner::Runner;

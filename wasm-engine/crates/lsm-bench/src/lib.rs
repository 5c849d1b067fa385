//! The engine's hot paths as micro-benchmark kernels, defined once and timed three ways:
//! criterion natively (`cargo bench -p lsm-bench`, `benches/hot_paths.rs`), and the same timing
//! loop and clock (`timing`) natively (`micro-bench`) and in wasm (`lsm-wasm`'s `micro_bench`), so
//! `npm run bench` can print wasm/native ratios kernel by kernel.
//!
//! A kernel is set up from a seed (the project's own RNG, so native and wasm build the same
//! input) and then does one measured iteration per `Kernel::run`: a fixed number of elements
//! (keys inserted, probes, entries merged, lookups), which `Spec::elements` gives for throughput.
//!
//! The kernels, in `kernels::ALL` order:
//! - `memtable_insert`: 10,000 random 16 B keys with 100 B values into a fresh write buffer;
//! - `bloom_build`, `bloom_probe`: a 10 bits/key Bloom filter over 100,000 key hashes, and
//!   10,000 probes of it (half present, half missing);
//! - `modular_build`, `modular_probe`: the same as SHaMBa's modular filter of two modules
//!   (3 + 4 hashes);
//! - `merge`: 4 runs of 10,000 entries each (some keys in several runs) merged into one table
//!   of 4 KiB pages in memory, as a merge does (cursors over the inputs, the table builder);
//! - `page_search`: 1,000 searches in one 4 KiB page (half present, half missing);
//! - `table_get`: 1,000 point lookups through the table reader (filter, fences, page) on a
//!   100,000-entry table in `MemStorage`, half present, half missing.

pub mod data;
pub mod kernel;
pub mod kernels;
pub mod timing;

pub use kernel::{Kernel, SEED, Spec};
pub use kernels::ALL as KERNELS;
pub use timing::{Measurement, Plan, measure, measure_selected};

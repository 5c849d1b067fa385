//! Measured I/O against the models' basic predictions: filter FPR against the integer-k formula,
//! and zero-result lookup cost against the sum of the FPRs of the runs the tree really has.
#![allow(clippy::unwrap_used)]

// The engine crate's config fixtures, shared rather than copied.
#[path = "../../lsm-engine/tests/common.rs"]
mod common;

use lsm_core::config::{Allocation, EngineConfig};
use lsm_core::workload::{Distribution, Mix, Preload, WORKLOAD_KIND, Workload};
use lsm_engine::engine::Engine;
use lsm_engine::stats::OpClass;
use lsm_engine::storage::MemStorage;
use lsm_runner::runner::Runner;

/// Preload `entries` keys, then `lookups` zero-result lookups drawn from a key space 100× larger,
/// so nearly every lookup asks for a different missing key.
fn zero_result_workload(entries: u64, lookups: u64, seed: u64) -> Workload {
    Workload {
        kind: WORKLOAD_KIND.into(),
        version: 1,
        name: "zero-result lookups".into(),
        seed,
        preload: Preload { entries, key_space: entries * 100, key_bytes: 16, value_bytes: 48 },
        operations: lookups,
        mix: Mix { get_missing: 1.0, ..Mix::default() },
        distribution: Distribution::Uniform,
        range_selectivity: 0.0,
        ycsb: None,
        db_bench: None,
    }
}

fn run(config: EngineConfig, workload: &Workload, compact_first: bool) -> Engine {
    let mut engine = Engine::create(config, Box::new(MemStorage::new())).unwrap();
    let mut runner = Runner::for_workload(workload).unwrap();
    runner.step(&mut engine, workload.preload.entries).unwrap();
    if compact_first {
        engine.compact_all().unwrap();
    }
    runner.step(&mut engine, u64::MAX).unwrap();
    assert!(runner.is_finished());
    assert_eq!(runner.report(&engine).results.get_missing_found, 0);
    engine
}

#[test]
fn filter_fpr_matches_integer_k_formula_at_2_5_10_bits_per_key() {
    for bpk in [2.0, 5.0, 10.0] {
        let config = common::config("one run", 4096, 1 << 20, &[(10.0, 1, None)], Allocation::Uniform, bpk);
        let engine = run(config, &zero_result_workload(100_000, 200_000, 11), true);
        let tree = engine.tree();
        assert_eq!(tree.run_count(), 1);
        let predicted = tree.levels.iter().flat_map(|l| &l.runs).next().unwrap().filter_fpr;
        let reads = engine.stats().total_reads(OpClass::GetZeroResult);
        let measured = reads.filter_positives as f64 / reads.filter_probes as f64;
        let rel = (measured - predicted).abs() / predicted;
        println!(
            "{bpk} bits/key: measured FPR {measured:.5} over {} probes, formula {predicted:.5}, rel {rel:.4}",
            reads.filter_probes
        );
        assert!(reads.filter_probes >= 100_000);
        assert!(rel < 0.10, "{bpk} bits/key: measured {measured} vs {predicted}");
    }
}

#[test]
fn zero_result_io_matches_the_sum_of_run_fprs_within_3_percent() {
    let cases = [
        common::config("leveling T4 uniform 5", 4096, 64 << 10, &[(4.0, 1, None)], Allocation::Uniform, 5.0),
        common::config("leveling T4 monkey 5", 4096, 64 << 10, &[(4.0, 1, None)], Allocation::Monkey, 5.0),
        common::config("tiering T3 uniform 4", 4096, 64 << 10, &[(3.0, 2, None)], Allocation::Uniform, 4.0),
    ];
    for config in cases {
        let name = config.name.clone();
        let engine = run(config, &zero_result_workload(150_000, 300_000, 5), false);
        let tree = engine.tree();
        let predicted = tree.zero_result_cost();
        let lookups = engine.stats().ops[OpClass::GetZeroResult.index()];
        let reads = engine.stats().total_reads(OpClass::GetZeroResult);
        let measured = reads.page_ios() as f64 / lookups as f64;
        let rel = (measured - predicted).abs() / predicted;
        println!(
            "{name}: {} runs, measured {measured:.5} I/O per zero-result lookup, Σ FPR {predicted:.5}, rel {rel:.4}",
            tree.run_count()
        );
        assert!(tree.run_count() >= 3, "{name}: want a multi-run tree");
        assert!(rel < 0.03, "{name}: measured {measured} vs predicted {predicted}");
        // Every I/O of a zero-result lookup is a filter false positive.
        assert_eq!(reads.page_ios(), reads.filter_false_positives() + reads.runs_without_filter);
    }
}

fn skewed_lookups(preload: u64, lookups: u64) -> Workload {
    Workload {
        kind: WORKLOAD_KIND.into(),
        version: 1,
        name: "skewed lookups".into(),
        seed: 3,
        preload: Preload { entries: preload, key_space: 0, key_bytes: 16, value_bytes: 48 },
        operations: lookups,
        mix: Mix { get_existing: 0.5, get_missing: 0.5, ..Mix::default() },
        distribution: Distribution::Zipf { theta: 0.99 },
        range_selectivity: 0.0,
        ycsb: None,
        db_bench: None,
    }
}

#[test]
fn cache_hits_and_ios_add_up_to_every_block_access() {
    use lsm_core::config::{BlockCacheConfig, FilterKind};
    let mut per_lookup = Vec::new();
    for (bytes, metadata) in [(0u64, true), (256 << 10, true), (256 << 10, false)] {
        let mut config = common::config("cached", 4096, 64 << 10, &[(4.0, 1, None)], Allocation::Uniform, 8.0);
        config.filter.kind = FilterKind::Modular;
        config.filter.modules = 2;
        config.block_cache = BlockCacheConfig {
            bytes,
            cache_index_and_filter_blocks: metadata,
            pin_l0_filter_and_index_blocks_in_cache: false,
            high_priority_ratio: 0.3,
            midpoint_insertion: false,
            ..BlockCacheConfig::default()
        };
        let engine = run(config, &skewed_lookups(60_000, 100_000), false);
        let mut ios = 0;
        let mut lookups = 0;
        for class in [OpClass::GetZeroResult, OpClass::GetNonZeroResult] {
            let r = engine.stats().total_reads(class);
            lookups += engine.stats().ops[class.index()];
            ios += r.page_ios();
            // Every lookup that passes the filter reads one data page: from the cache or storage.
            let page_accesses = r.filter_positives + r.runs_without_filter + r.filters_skipped;
            assert_eq!(r.data_cache_hits + r.data_pages_read, page_accesses, "{bytes} B: data");
            let (index, modules) = if metadata { (page_accesses, r.filter_modules_probed) } else { (0, 0) };
            assert_eq!(r.index_cache_hits + r.index_block_reads, index, "{bytes} B: fence pointers");
            assert_eq!(r.filter_cache_hits + r.filter_block_reads, modules, "{bytes} B: filter modules");
            if bytes == 0 {
                assert_eq!(r.cache_hits(), 0, "budget 0: every access is an I/O");
            }
        }
        let io = ios as f64 / lookups as f64;
        println!("cache {bytes} B, filters and fences cached: {metadata}: {io:.4} I/O per lookup");
        per_lookup.push(io);
    }
    assert!(per_lookup[1] < per_lookup[0], "a cache must save I/O: {per_lookup:?}");
}

#[test]
fn mnemosyne_beats_monkey_and_uniform_under_key_range_skew() {
    use lsm_core::config::{CompactionConfig, Granularity};
    let workload = Workload {
        kind: WORKLOAD_KIND.into(),
        version: 1,
        name: "hotspot".into(),
        seed: 21,
        preload: Preload { entries: 80_000, key_space: 0, key_bytes: 16, value_bytes: 48 },
        operations: 400_000,
        mix: Mix { insert: 0.25, get_existing: 0.25, get_missing: 0.5, ..Mix::default() },
        distribution: Distribution::Hotspot { hot_fraction: 0.05, hot_probability: 0.95 },
        range_selectivity: 0.0,
        ycsb: None,
        db_bench: None,
    };
    let mut zero = Vec::new();
    for allocation in [Allocation::Uniform, Allocation::Monkey, Allocation::Mnemosyne] {
        let mut config = common::config("hotspot", 4096, 64 << 10, &[(4.0, 3, None), (4.0, 1, None)], allocation, 4.0);
        config.compaction = CompactionConfig {
            granularity: Granularity::File,
            target_file_bytes: 64 << 10,
            ..CompactionConfig::default()
        };
        let engine = run(config, &workload, false);
        let n = engine.stats().ops[OpClass::GetZeroResult.index()];
        let io = engine.stats().total_reads(OpClass::GetZeroResult).page_ios() as f64 / n as f64;
        let bits: u64 = engine.tree().levels.iter().flat_map(|l| &l.runs).map(|r| r.filter_bits).sum();
        let entries = engine.tree().entries();
        println!(
            "{allocation:?}: {io:.4} I/O per zero-result lookup over {n} lookups ({:.2} bits/entry spent)",
            bits as f64 / entries as f64
        );
        zero.push(io);
    }
    assert!(zero[2] < zero[1] && zero[2] < zero[0], "Mnemosyne should win: uniform, Monkey, Mnemosyne = {zero:?}");
}

/// Monkey's filters are sized once, when their run is written, yet the tree they serve keeps
/// changing shape; whatever the moment, a zero-result lookup must cost no more than with the same
/// memory spread uniformly, and the filters must stay within that memory.
#[test]
fn monkey_never_loses_to_uniform_at_the_same_memory_as_the_tree_grows() {
    let shapes: [(&str, (f64, u32)); 3] =
        [("tiering T10", (10.0, 9)), ("leveling T3", (3.0, 1)), ("tiering T4 K3", (4.0, 3))];
    for (name, (t, k)) in shapes {
        for entries in [20_000, 65_536, 160_000] {
            let workload = zero_result_workload(entries, 20_000, 7);
            let mut zero = Vec::new();
            for allocation in [Allocation::Uniform, Allocation::Monkey] {
                let config = common::config(name, 4096, 64 << 10, &[(t, k, None)], allocation, 5.0);
                let engine = run(config, &workload, false);
                let n = engine.stats().ops[OpClass::GetZeroResult.index()];
                let io = engine.stats().total_reads(OpClass::GetZeroResult).page_ios() as f64 / n as f64;
                let bits: u64 = engine.tree().levels.iter().flat_map(|l| &l.runs).map(|r| r.filter_bits).sum();
                let bits_per_key = bits as f64 / engine.tree().entries() as f64;
                println!(
                    "{name} {entries} {allocation:?}: {io:.3} I/O per zero-result lookup, {bits_per_key:.2} bits/key"
                );
                assert!(bits_per_key <= 5.0 + 1e-6, "{name} {entries} {allocation:?} spent {bits_per_key} bits/key");
                zero.push(io);
            }
            // 1% slack: both are measured over 20,000 lookups.
            assert!(
                zero[1] <= zero[0] * 1.01,
                "{name} at {entries} entries: uniform {:.3}, Monkey {:.3}",
                zero[0],
                zero[1]
            );
        }
    }
}

/// Storage that counts the bytes read from it (and otherwise is memory).
struct CountingStorage {
    inner: MemStorage,
    bytes_read: std::rc::Rc<std::cell::Cell<u64>>,
}

impl lsm_engine::storage::Storage for CountingStorage {
    fn append(&mut self, file: &str, bytes: &[u8]) -> lsm_core::error::Result<()> {
        self.inner.append(file, bytes)
    }
    fn read_into(&mut self, file: &str, offset: u64, buf: &mut [u8]) -> lsm_core::error::Result<()> {
        self.bytes_read.set(self.bytes_read.get() + buf.len() as u64);
        self.inner.read_into(file, offset, buf)
    }
    fn len(&mut self, file: &str) -> lsm_core::error::Result<u64> {
        self.inner.len(file)
    }
    fn sync(&mut self, file: &str) -> lsm_core::error::Result<()> {
        self.inner.sync(file)
    }
    fn truncate(&mut self, file: &str, len: u64) -> lsm_core::error::Result<()> {
        self.inner.truncate(file, len)
    }
    fn delete(&mut self, file: &str) -> lsm_core::error::Result<()> {
        self.inner.delete(file)
    }
    fn exists(&mut self, file: &str) -> lsm_core::error::Result<bool> {
        self.inner.exists(file)
    }
    fn list(&mut self) -> lsm_core::error::Result<Vec<String>> {
        self.inner.list()
    }
}

#[test]
fn a_short_scan_reads_the_pages_it_needs_not_a_merge_sized_read_ahead() {
    // 60,000 entries of 64 B in a few runs of many pages; then 300 scans of ~10 entries each.
    let config = common::config("leveling", 4096, 256 << 10, &[(4.0, 1, None)], Allocation::Uniform, 10.0);
    let bytes_read = std::rc::Rc::new(std::cell::Cell::new(0));
    let storage = CountingStorage { inner: MemStorage::new(), bytes_read: bytes_read.clone() };
    let mut engine = Engine::create(config, Box::new(storage)).unwrap();
    for i in 0..60_000u64 {
        let k = format!("key{:012}", i.wrapping_mul(2_654_435_761) % 1_000_000_007);
        engine.put(k.as_bytes(), &[7u8; 48]).unwrap();
    }
    engine.flush().unwrap();
    let runs = engine.tree().run_count() as u64;
    assert!(runs >= 2, "{runs} runs");
    let before = bytes_read.get();
    let scans = 300u64;
    for s in 0..scans {
        let start = format!("key{:012}", s * 3_333_333);
        let end = format!("key{:012}", s * 3_333_333 + 150_000);
        engine.scan_visit(start.as_bytes(), end.as_bytes(), |_, _| {}).unwrap();
    }
    let pages = (bytes_read.get() - before) as f64 / 4096.0 / scans as f64;
    // A seek reads one page per run, then doubles while the scan goes on: a 10-entry scan needs a
    // page or two per run. A 64-page read-ahead would read ≥ 64 per run.
    eprintln!("{pages:.1} pages read physically per scan over {runs} runs");
    assert!(pages <= 4.0 * runs as f64, "{pages} pages per scan over {runs} runs");
}

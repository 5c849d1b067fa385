//! Monkey re-optimised as the tree grows (Fig 12A on the engine): at every doubling, for
//! leveling at T = 2 and T = 10 with 5 and 10 bits per entry, the re-optimised filters measure
//! within 5% of the optimum for the tree that exists and never above uniform or at-birth sizing
//! beyond sampling noise; the budget holds; the rebuilds' pages are reported. The same check to
//! 2²² entries runs on the release CLI (`web/test/filter-growth.test.ts`).
#![allow(clippy::unwrap_used)]

use lsm_core::config::{Allocation, EngineConfig, MonkeyPolicy};
use lsm_runner::growth::{Growth, GrowthPoint, GrowthPolicy, GrowthSpec};

const LOOKUPS: u64 = 30_000;

fn measure(size_ratio: f64, bits: f64, to_log2: u32) -> Vec<GrowthPoint> {
    let mut config = EngineConfig::uniform_shape(size_ratio, 1, Allocation::Monkey, bits);
    config.buffer_bytes = 16 << 10;
    let spec = GrowthSpec {
        config,
        from_log2: 12,
        to_log2,
        lookups: LOOKUPS,
        value_bytes: 100,
        policies: GrowthPolicy::ALL.to_vec(),
    };
    Growth::new(spec).unwrap().run().unwrap().points
}

fn check(size_ratio: f64, bits: f64, to_log2: u32) {
    let points = measure(size_ratio, bits, to_log2);
    let mut rebuild_pages = 0;
    for size in 12..=to_log2 {
        let at = |p: GrowthPolicy| points.iter().find(|x| x.policy == p && x.entries == 1 << size).unwrap();
        let (u, b, r) =
            (at(GrowthPolicy::Uniform), at(GrowthPolicy::MonkeyAtBirth), at(GrowthPolicy::MonkeyReoptimised));
        let label = format!("T = {size_ratio}, {bits} bits/key, 2^{size}");
        // Three standard errors of a binomial count over the lookups.
        let noise = |io: f64| 3.0 * (io / LOOKUPS as f64).sqrt();
        assert!(r.io_per_lookup <= r.optimum_io * 1.05 + noise(r.optimum_io), "{label}: {r:?}");
        assert!(r.io_per_lookup <= u.io_per_lookup + noise(u.io_per_lookup), "{label}: {r:?} vs uniform {u:?}");
        assert!(r.io_per_lookup <= b.io_per_lookup + noise(b.io_per_lookup), "{label}: {r:?} vs at birth {b:?}");
        // What the filters as built say is what the lookups measure.
        assert!((r.io_per_lookup - r.expected_io).abs() <= noise(r.expected_io) + 0.002, "{label}: {r:?}");
        assert!(r.bits_per_key <= bits * 1.01 + 0.05, "{label}: over budget {r:?}");
        // Uniform and at-birth never rebuild; re-optimised reports what its rebuilds read.
        assert_eq!((u.rebuilds, b.rebuilds, u.rebuild_pages, b.rebuild_pages), (0, 0, 0, 0), "{label}");
        assert!(r.rebuild_pages >= rebuild_pages, "{label}: rebuild pages are cumulative");
        rebuild_pages = r.rebuild_pages;
    }
    assert!(rebuild_pages > 0, "T = {size_ratio}, {bits} bits/key: no rebuild");
}

#[test]
fn leveling_t2_5_bits() {
    check(2.0, 5.0, 17);
}

#[test]
fn leveling_t2_10_bits() {
    check(2.0, 10.0, 17);
}

#[test]
fn leveling_t10_5_bits() {
    check(10.0, 5.0, 17);
}

#[test]
fn leveling_t10_10_bits() {
    check(10.0, 10.0, 17);
}

/// The issue's measurement: at 2²⁰ × 116 B, T = 2, 5 bits/key, at-birth sizing measured 11–12%
/// below uniform and 28% above the optimum for its runs; re-optimised closes that gap.
#[test]
fn reoptimised_beats_at_birth_where_the_tree_has_grown() {
    let points = measure(2.0, 5.0, 16);
    let at = |p: GrowthPolicy| points.iter().find(|x| x.policy == p && x.entries == 1 << 16).unwrap().io_per_lookup;
    let (u, b, r) = (at(GrowthPolicy::Uniform), at(GrowthPolicy::MonkeyAtBirth), at(GrowthPolicy::MonkeyReoptimised));
    assert!(b < u * 0.95, "at birth {b} vs uniform {u}");
    assert!(r < b * 0.85, "re-optimised {r} vs at birth {b}");
}

/// Pages a workload costs on a design: what its operations read plus what filter rebuilds read.
fn workload_pages(config: &EngineConfig, workload: &lsm_core::workload::Workload) -> (u64, u64) {
    use lsm_engine::engine::Engine;
    use lsm_engine::stats::OpClass;
    use lsm_runner::runner::Runner;
    let mut engine = Engine::create(config.clone(), Box::new(lsm_engine::storage::MemStorage::new())).unwrap();
    let mut runner = Runner::for_workload(workload).unwrap();
    while !runner.is_finished() {
        runner.step(&mut engine, 10_000).unwrap();
    }
    let run = &runner.report(&engine).run;
    let reads = OpClass::ALL.iter().map(|&c| run.total_reads(c).page_ios()).sum();
    let rebuilds = run.levels.iter().map(|l| l.filter_resizing.pages_read).sum();
    (reads, rebuilds)
}

/// Under writes the filters' optimum keeps moving (every flush moves it, and over a merge cycle
/// the upper levels fill and empty): re-optimised filters must not chase it at a loss. On the
/// example mixed workload (40% writes) and a read-heavy one (2% inserts), re-optimised Monkey
/// costs no more pages than Monkey at birth, rebuilds included.
#[test]
fn under_writes_re_optimising_never_costs_more_than_sizing_at_birth() {
    use lsm_core::workload::Workload;
    let mut at_birth =
        EngineConfig::from_json(include_str!("../../../../public/examples/leveling-monkey-reoptimised.json")).unwrap();
    at_birth.filter.monkey_policy = MonkeyPolicy::AtBirth;
    let reoptimised =
        EngineConfig::from_json(include_str!("../../../../public/examples/leveling-monkey-reoptimised.json")).unwrap();
    assert_eq!(reoptimised.filter.monkey_policy, MonkeyPolicy::Reoptimised);
    let mixed = Workload::from_json(include_str!("../../../../public/examples/mixed.json")).unwrap();
    let mut read_heavy = mixed.clone();
    read_heavy.preload.entries = 100_000;
    read_heavy.operations = 100_000;
    read_heavy.mix = serde_json::from_str(r#"{ "insert": 0.02, "get_existing": 0.49, "get_missing": 0.49 }"#).unwrap();
    read_heavy.distribution = serde_json::from_str(r#"{ "kind": "uniform" }"#).unwrap();
    for (name, w) in [("mixed", &mixed), ("read-heavy", &read_heavy)] {
        let (birth_reads, birth_rebuilds) = workload_pages(&at_birth, w);
        let (reads, rebuilds) = workload_pages(&reoptimised, w);
        println!("{name}: at birth {birth_reads} pages; re-optimised {reads} + {rebuilds} rebuild pages");
        assert_eq!(birth_rebuilds, 0);
        assert!(reads + rebuilds <= birth_reads, "{name}: re-optimised {reads} + {rebuilds} > at birth {birth_reads}");
    }
}

/// Modular filters shrink for free: re-optimised with SHaMBa's modules, the filters that hold more
/// than their share drop trailing modules (no pages read) instead of being rebuilt, and the
/// lookups still find exactly what was inserted.
#[test]
fn modular_filters_shrink_by_dropping_modules() {
    use lsm_core::config::FilterKind;
    use lsm_engine::engine::Engine;
    let mut config = EngineConfig::uniform_shape(2.0, 1, Allocation::Monkey, 8.0);
    config.buffer_bytes = 16 << 10;
    config.filter.kind = FilterKind::Modular;
    config.filter.modules = 4;
    config.filter.monkey_policy = MonkeyPolicy::Reoptimised;
    let mut engine = Engine::create(config, Box::new(lsm_engine::storage::MemStorage::new())).unwrap();
    let key = |i: u64| (i.wrapping_mul(0x9E37_79B9_7F4A_7C15)).to_be_bytes();
    for i in 0..(1u64 << 15) {
        engine
            .put(&key(2 * i), b"value of a hundred bytes, more or less, padded out with words to look like a real one")
            .unwrap();
    }
    for j in 0..20_000u64 {
        assert_eq!(engine.get(&key(2 * j + 1)).unwrap(), None);
    }
    for i in (0..(1u64 << 15)).step_by(97) {
        assert!(engine.get(&key(2 * i)).unwrap().is_some());
    }
    let resizing = engine.stats().levels.iter().fold((0, 0, 0), |a, l| {
        (a.0 + l.filter_resizing.shrinks, a.1 + l.filter_resizing.rebuilds, a.2 + l.filter_resizing.pages_read)
    });
    println!("shrinks {}, rebuilds {}, rebuild pages {}", resizing.0, resizing.1, resizing.2);
    assert!(resizing.0 > 0, "no filter dropped a module: {resizing:?}");
    let tree = engine.tree();
    let bits: u64 = tree.levels.iter().flat_map(|l| &l.runs).map(|r| r.filter_bits).sum();
    let entries: u64 = tree.levels.iter().flat_map(|l| &l.runs).map(|r| r.entries).sum();
    assert!(bits as f64 <= 8.0 * entries as f64 * 1.01 + 64.0 * 64.0, "over budget: {bits} bits for {entries} entries");
}

//! Export tests: every exported OPTIONS file is parsed back with the INI reader and checked
//! field by field against the design (level targets recomputed the way RocksDB computes them),
//! the `# LOSSY` lines are exactly the warnings and the warnings exactly what the design loses,
//! db_bench scripts replay the workloads, and imports give back what RocksDB can express.

use std::collections::BTreeMap;

use super::ini::{Ini, parse_struct, split_list};
use super::mapping::{Mapping, Style};
use super::*;
use lsm_core::compaction::geometry;
use lsm_core::config::{
    Allocation, BlockLayout, FilePick, FilterKind, FilterSkip, Granularity, IndexType, LevelConfig,
};
use lsm_core::pacing::WriteStallConfig;
use lsm_core::universal::{StopStyle, UniversalConfig};
use lsm_core::workload::{Distribution, Mix, Preload, WORKLOAD_KIND};

const PRESET_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../public/presets");

#[derive(serde::Deserialize)]
struct PresetIndex {
    kind: String,
    version: u32,
    presets: Vec<PresetEntry>,
}

#[derive(serde::Deserialize)]
struct PresetEntry {
    id: String,
    file: String,
    label: String,
    description: String,
}

fn presets() -> Vec<(String, EngineConfig)> {
    let index: PresetIndex = serde_json::from_str(include_str!("../../../../public/presets/index.json")).unwrap();
    assert_eq!((index.kind.as_str(), index.version), ("lsm-navigator/preset-index", 1));
    index
        .presets
        .iter()
        .map(|p| {
            assert!(!p.label.is_empty() && !p.description.is_empty(), "{}", p.id);
            let text = std::fs::read_to_string(format!("{PRESET_DIR}/{}", p.file)).unwrap();
            let c = EngineConfig::from_json(&text).unwrap_or_else(|e| panic!("{}: {e}", p.file));
            (p.id.clone(), c)
        })
        .collect()
}

fn design(levels: &[(f64, u32, Option<f64>)], allocation: Allocation, bits: f64) -> EngineConfig {
    let mut c = EngineConfig::uniform_shape(10.0, 1, allocation, bits);
    c.name = "test design".into();
    c.levels = levels.iter().map(|&(t, k, b)| LevelConfig { size_ratio: t, max_runs: k, bits_per_key: b }).collect();
    c.validate().unwrap();
    c
}

fn workload(entries: u64, operations: u64, mix: Mix) -> Workload {
    Workload {
        kind: WORKLOAD_KIND.into(),
        version: 1,
        name: "w".into(),
        seed: 7,
        preload: Preload { entries, key_space: 0, key_bytes: 16, value_bytes: 100 },
        operations,
        mix,
        distribution: Distribution::Uniform,
        range_selectivity: 0.0,
        ycsb: None,
        db_bench: None,
    }
}

fn rocksdb(c: &EngineConfig, w: Option<&Workload>) -> (Export, Ini) {
    let e = export(c, Format::Rocksdb, w).unwrap();
    let ini = Ini::parse(&e.text).unwrap();
    (e, ini)
}

/// The sorted (field, kind) pairs of the warnings.
fn lossy(e: &Export) -> Vec<(String, WarningKind)> {
    let mut v: Vec<_> = e.warnings.iter().map(|w| (w.field.clone(), w.kind)).collect();
    v.sort();
    v
}

fn expect(pairs: &[(&str, WarningKind)]) -> Vec<(String, WarningKind)> {
    let mut v: Vec<_> = pairs.iter().map(|&(f, k)| (f.to_string(), k)).collect();
    v.sort();
    v
}

struct Options<'a> {
    cf: &'a super::ini::Section,
    table: &'a super::ini::Section,
}

impl Options<'_> {
    fn cf_u64(&self, name: &str) -> u64 {
        self.cf.get(name).unwrap_or_else(|| panic!("CFOptions.{name} missing")).parse().unwrap()
    }
    fn cf_f64(&self, name: &str) -> f64 {
        self.cf.get(name).unwrap_or_else(|| panic!("CFOptions.{name} missing")).parse().unwrap()
    }
    fn cf_str(&self, name: &str) -> &str {
        self.cf.get(name).unwrap_or_else(|| panic!("CFOptions.{name} missing"))
    }
    fn table_str(&self, name: &str) -> &str {
        self.table.get(name).unwrap_or_else(|| panic!("TableOptions.{name} missing"))
    }
}

/// The structure `LoadOptionsFromFile` requires, and the two option sections.
fn sections(ini: &Ini) -> Options<'_> {
    let version = ini.section("Version", None).expect("[Version]");
    assert_eq!(version.get("options_file_version"), Some("1.1"));
    assert!(ini.section("DBOptions", None).is_some());
    let cf_index = ini.sections.iter().position(|s| s.title == "CFOptions").unwrap();
    assert_eq!(ini.sections[cf_index].argument.as_deref(), Some("default"), "default CF first");
    assert!(ini.preamble.is_empty());
    Options {
        cf: ini.section("CFOptions", Some("default")).unwrap(),
        table: ini.section("TableOptions/BlockBasedTable", Some("default")).unwrap(),
    }
}

/// `# LOSSY` lines are exactly the warnings, in order.
fn check_comments(e: &Export, ini: &Ini) {
    let lines: Vec<String> =
        ini.comments.iter().filter(|c| c.text.starts_with("LOSSY")).map(|c| format!("# {}", c.text)).collect();
    let want: Vec<String> = e.warnings.iter().map(|w| w.comment_line("#")).collect();
    assert_eq!(lines, want);
    let lossless = ini.comments.iter().any(|c| c.text.starts_with("Lossless"));
    assert_eq!(lossless, e.warnings.is_empty());
}

/// RocksDB's static level targets (`VersionStorageInfo::CalculateBaseBytes` with dynamic level
/// bytes off): L1 = base, Lr = L(r−1) × multiplier × additional[r−1].
fn rocks_targets(o: &Options) -> Vec<f64> {
    let n = o.cf_u64("num_levels") as usize;
    let base = o.cf_u64("max_bytes_for_level_base") as f64;
    let multiplier = o.cf_f64("max_bytes_for_level_multiplier");
    let additional: Vec<f64> =
        split_list(o.cf_str("max_bytes_for_level_multiplier_additional")).iter().map(|s| s.parse().unwrap()).collect();
    assert_eq!(additional.len(), n);
    assert!(additional.iter().all(|a| a.fract() == 0.0), "RocksDB reads integers");
    let mut t = vec![0.0, base];
    for r in 2..n {
        t.push(t[r - 1] * multiplier * additional[r - 1]);
    }
    t
}

/// Every field of an exported OPTIONS file, checked against the design.
fn check_options(c: &EngineConfig, w: Option<&Workload>) -> Export {
    let (e, ini) = rocksdb(c, w);
    check_comments(&e, &ini);
    let o = sections(&ini);
    let m = Mapping::new(c, w);
    let entry = w.map(|w| f64::from(w.preload.key_bytes + w.preload.value_bytes));
    let arena = c.buffer_trigger == lsm_core::config::BufferTrigger::Arena;
    let mem = if arena { 1.0 } else { entry.map_or(1.0, |e| (e + 24.0) / e) };
    let sst = entry.map_or(1.0, |e| (e + 11.0) / e);

    assert_eq!(o.cf_u64("write_buffer_size"), (c.buffer_bytes as f64 * mem).round() as u64);
    assert_eq!(o.table_str("block_size"), c.page_bytes.to_string());
    assert_eq!(o.cf_str("compression"), "kNoCompression");
    let dynamic = c.compaction.dynamic_level_bytes;
    assert_eq!(o.cf_str("level_compaction_dynamic_level_bytes"), dynamic.to_string());
    if dynamic {
        // RocksDB's last level is the design's: num_levels copied, one multiplier below L1.
        assert_eq!(o.cf_u64("num_levels"), u64::from(c.compaction.num_levels));
        assert_eq!(o.cf_f64("max_bytes_for_level_multiplier"), c.level(2).size_ratio);
    } else if c.compaction.universal.is_none() {
        assert!(o.cf_u64("num_levels") >= 7);
    }

    let rounded: Vec<&str> =
        e.warnings.iter().filter(|w| w.kind == WarningKind::Rounded).map(|w| w.field.as_str()).collect();
    match m.style {
        Style::Leveled | Style::L0Tiered => {
            assert_eq!(o.cf_str("compaction_style"), "kCompactionStyleLevel");
            let l0 = m.style == Style::L0Tiered;
            let trigger = match (c.compaction.granularity, l0) {
                // Merges by file: level 1 is L0 and compacts once it would exceed its runs.
                (Granularity::File, _) => u64::from(c.levels[0].max_runs) + 1,
                (Granularity::Level, true) => c.levels[0].size_ratio.round() as u64,
                (Granularity::Level, false) => 1,
            };
            assert_eq!(o.cf_u64("level0_file_num_compaction_trigger"), trigger);
            let targets = rocks_targets(&o);
            for (r, &target) in targets.iter().enumerate().skip(1) {
                let level = if l0 { r + 1 } else { r };
                // Bytes per target: the engine capacity, unless a ratio above was rounded.
                let want = geometry(c, level).capacity * sst;
                let touched = (1..=level)
                    .any(|i| rounded.contains(&format!("levels[{}].size_ratio", m.config_index(i)).as_str()));
                if !touched {
                    assert!(
                        (target - want).abs() <= 1.0 + 1e-7 * want,
                        "L{r}: {target} vs engine level {level} {want}"
                    );
                }
            }
            match c.compaction.granularity {
                Granularity::File => assert_eq!(
                    o.cf_u64("target_file_size_base"),
                    (c.compaction.target_file_bytes as f64 * sst).round() as u64
                ),
                Granularity::Level => assert_eq!(o.cf_u64("target_file_size_base"), 64 << 20),
            }
        }
        Style::Universal if c.compaction.universal.is_some() => {
            // The mechanism: every option as the design has it.
            let d = c.compaction.universal.clone().unwrap();
            assert_eq!(o.cf_str("compaction_style"), "kCompactionStyleUniversal");
            assert_eq!(o.cf_u64("level0_file_num_compaction_trigger"), u64::from(d.level0_file_num_compaction_trigger));
            assert_eq!(o.cf_u64("num_levels"), u64::from(c.compaction.num_levels));
            let u: BTreeMap<String, String> =
                parse_struct(o.cf_str("compaction_options_universal")).unwrap().into_iter().collect();
            let field = |name: &str| u[name].parse::<u64>().unwrap();
            assert_eq!(
                [field("size_ratio"), field("min_merge_width"), field("max_merge_width")],
                [d.size_ratio, d.min_merge_width, d.max_merge_width].map(u64::from)
            );
            assert_eq!(field("max_size_amplification_percent"), u64::from(d.max_size_amplification_percent));
            assert_eq!(u["allow_trivial_move"], d.allow_trivial_move.to_string());
            if c.compaction.granularity == Granularity::File {
                let want = (c.compaction.target_file_bytes as f64 * sst).round() as u64;
                assert_eq!(o.cf_u64("target_file_size_base"), want);
            }
        }
        Style::Universal => {
            assert_eq!(o.cf_str("compaction_style"), "kCompactionStyleUniversal");
            assert_eq!(o.cf_u64("level0_file_num_compaction_trigger"), u64::from(c.levels[0].max_runs) + 1);
            let u: BTreeMap<String, String> =
                parse_struct(o.cf_str("compaction_options_universal")).unwrap().into_iter().collect();
            let min: u64 = u["min_merge_width"].parse().unwrap();
            let max: u64 = u["max_merge_width"].parse().unwrap();
            assert!(2 <= min && min <= max, "{u:?}");
            assert!(u["max_size_amplification_percent"].parse::<u64>().unwrap() >= 1);
            assert!(!o.cf.entries.iter().any(|e| e.name == "max_bytes_for_level_base"));
        }
    }
    assert!(o.cf_u64("level0_slowdown_writes_trigger") >= o.cf_u64("level0_file_num_compaction_trigger"));
    assert!(o.cf_u64("level0_stop_writes_trigger") >= o.cf_u64("level0_slowdown_writes_trigger"));

    // Filter: one bits-per-key with the design's filter memory (capacity-weighted over the levels
    // that keep a filter); the bottommost level's filter dropped when the design drops it.
    let bits = m.level_bits();
    let zero_suffix = bits.iter().rev().take_while(|&&b| b <= 0.0).count();
    let kept = m.depth - zero_suffix;
    let drop_last = zero_suffix > 0 && kept > 0;
    assert_eq!(o.cf_str("optimize_filters_for_hits"), if drop_last { "true" } else { "false" });
    let weight: f64 = (1..=kept).map(|i| m.capacity(i)).sum();
    let mean = if weight > 0.0 { (1..=kept).map(|i| m.capacity(i) * bits[i - 1]).sum::<f64>() / weight } else { 0.0 };
    let policy = o.table_str("filter_policy");
    if mean <= 0.0005 {
        assert_eq!(policy, "nullptr");
    } else {
        let parts: Vec<&str> = policy.split(':').collect();
        assert_eq!((parts[0], parts[2]), ("bloomfilter", "false"));
        let b: f64 = parts[1].parse().unwrap();
        assert!((b - mean).abs() <= 0.0005 + 1e-12, "{policy} vs {mean}");
    }

    // Block cache.
    let bc = &c.block_cache;
    if bc.bytes == 0 {
        assert_eq!(o.table_str("no_block_cache"), "true");
        assert_eq!(o.table_str("cache_index_and_filter_blocks"), "false");
    } else {
        assert_eq!(o.table_str("no_block_cache"), "false");
        let v = o.table_str("block_cache");
        if bc.high_priority_ratio > 0.0 {
            let s: BTreeMap<String, String> = parse_struct(v).unwrap().into_iter().collect();
            assert_eq!(s["capacity"], bc.bytes.to_string());
            assert_eq!(s["high_pri_pool_ratio"].parse::<f64>().unwrap(), bc.high_priority_ratio);
            assert_eq!(o.table_str("cache_index_and_filter_blocks_with_high_priority"), "true");
        } else {
            assert_eq!(v, bc.bytes.to_string());
        }
        assert_eq!(o.table_str("cache_index_and_filter_blocks"), bc.cache_index_and_filter_blocks.to_string());
    }
    e
}

use WarningKind::{Approximated, Dropped, Rounded};

mod db_bench;
mod import;

#[test]
fn every_preset_exports_an_options_file_that_matches_it() {
    let all = presets();
    assert_eq!(all.len(), 10);
    let files: Vec<String> = std::fs::read_dir(PRESET_DIR)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| f != "index.json")
        .collect();
    assert_eq!(files.len(), all.len(), "every preset file is listed in index.json");
    let mixed = Workload::from_json(include_str!("../../../../public/examples/mixed.json")).unwrap();
    for (id, c) in &all {
        check_options(c, None);
        check_options(c, Some(&mixed));
        let style = Mapping::new(c, None).style;
        let want = match id.as_str() {
            "cassandra" | "moose" | "tiering" => Style::Universal,
            "dostoevsky-lazy-leveling" | "leveldb" | "rocksdb" | "rocksdb-monkey-table4" => Style::L0Tiered,
            _ => Style::Leveled,
        };
        assert_eq!(style, want, "{id}");
    }
}

#[test]
fn preset_lossiness_lists_exactly_what_rocksdb_cannot_express() {
    let all: BTreeMap<String, EngineConfig> = presets().into_iter().collect();
    let buffer = ("buffer_bytes", Approximated);
    let granularity = ("compaction.granularity", Approximated);
    let monkey = ("filter.allocation", Dropped);
    let cases: &[(&str, Vec<(&str, WarningKind)>)] = &[
        ("leveldb", vec![buffer]),
        // Counted in arena bytes, as RocksDB counts write_buffer_size: nothing to approximate.
        ("rocksdb", vec![]),
        ("rocksdb-monkey-table4", vec![]),
        ("hbase", vec![buffer, granularity]),
        ("accumulo", vec![buffer, granularity]),
        ("monkey", vec![buffer, granularity, monkey]),
        ("cassandra", vec![buffer, ("levels", Approximated)]),
        ("tiering", vec![buffer, ("levels", Approximated)]),
        ("dostoevsky-lazy-leveling", vec![buffer, ("levels[1].max_runs", Dropped), granularity, monkey]),
        (
            "moose",
            vec![
                buffer,
                ("levels", Approximated),
                ("levels[0].size_ratio", Approximated),
                ("levels[1].size_ratio", Approximated),
                ("levels[2].size_ratio", Approximated),
                ("levels[3].size_ratio", Rounded),
                ("levels[4].size_ratio", Rounded),
                monkey,
            ],
        ),
    ];
    for (id, want) in cases {
        let (e, _) = rocksdb(&all[*id], None);
        assert_eq!(lossy(&e), expect(want), "{id}");
    }
}

#[test]
fn leveled_moose_layout_with_fractional_ratios_rounds_only_the_fractional_levels() {
    let c = design(&[(2.5, 1, None), (7.3, 1, None), (5.0, 1, None)], Allocation::Uniform, 8.0);
    let e = check_options(&c, None);
    assert_eq!(
        lossy(&e),
        expect(&[
            ("buffer_bytes", Approximated),
            ("levels[1].size_ratio", Rounded),
            ("compaction.granularity", Approximated)
        ])
    );
    let ini = Ini::parse(&e.text).unwrap();
    let o = sections(&ini);
    // L1 = buffer × 2.5 exactly; L2 = L1 × 7 (7.3 rounded); deeper × 5.
    assert_eq!(o.cf_u64("max_bytes_for_level_base"), (1u64 << 20) * 5 / 2);
    assert_eq!(o.cf_f64("max_bytes_for_level_multiplier"), 1.0);
    assert_eq!(o.cf_str("max_bytes_for_level_multiplier_additional"), "1:7:5:5:5:5:1");
    let t = rocks_targets(&o);
    assert_eq!(t[2], 2.5 * 7.0 * (1u64 << 20) as f64);
    assert_eq!(t[3], t[2] * 5.0);
}

#[test]
fn tiered_design_becomes_universal_compaction() {
    let c = design(&[(4.0, 3, None)], Allocation::Uniform, 10.0);
    let w = workload(100_000, 0, Mix::default());
    let e = check_options(&c, Some(&w));
    assert_eq!(lossy(&e), expect(&[("levels", Approximated)]));
    let ini = Ini::parse(&e.text).unwrap();
    let o = sections(&ini);
    let u: BTreeMap<String, String> =
        parse_struct(o.cf_str("compaction_options_universal")).unwrap().into_iter().collect();
    assert_eq!((u["min_merge_width"].as_str(), u["max_merge_width"].as_str()), ("4", "4"));
    assert_eq!(o.cf_u64("level0_file_num_compaction_trigger"), 4);
    // 100,000 × 116 B = 11.6 MB: levels of 4, 16 MiB → 2 levels; worst amplification T = 4 → 400%.
    assert_eq!(u["max_size_amplification_percent"], "400");
}

#[test]
fn design_without_a_last_level_filter_sets_optimize_filters_for_hits() {
    let c = design(&[(10.0, 1, Some(10.0)), (10.0, 1, Some(10.0)), (10.0, 1, Some(0.0))], Allocation::Explicit, 0.0);
    // 1,500,000 × 116 B = 174 MB: levels of 10, 100, 1000 MiB → exactly 3 levels.
    let w = workload(1_500_000, 0, Mix::default());
    assert_eq!(Mapping::new(&c, Some(&w)).depth, 3);
    let e = check_options(&c, Some(&w));
    assert_eq!(lossy(&e), expect(&[("compaction.granularity", Approximated)]));
    let ini = Ini::parse(&e.text).unwrap();
    let o = sections(&ini);
    assert_eq!(o.cf_str("optimize_filters_for_hits"), "true");
    assert_eq!(o.table_str("filter_policy"), "bloomfilter:10:false");

    // Without the workload the tree has 6 levels, 3..6 without filters: RocksDB drops one.
    let e = check_options(&c, None);
    assert_eq!(
        lossy(&e),
        expect(&[
            ("buffer_bytes", Approximated),
            ("levels[2].bits_per_key", Approximated),
            ("compaction.granularity", Approximated)
        ])
    );
}

#[test]
fn per_level_bits_collapse_to_the_capacity_weighted_mean() {
    let c = design(&[(10.0, 1, Some(12.0)), (10.0, 1, Some(8.0))], Allocation::Explicit, 0.0);
    let w = workload(150_000, 0, Mix::default()); // 17.4 MB: 2 levels (10 and 100 MiB)
    let e = check_options(&c, Some(&w));
    assert_eq!(
        lossy(&e),
        expect(&[
            ("levels[0].bits_per_key", Dropped),
            ("levels[1].bits_per_key", Dropped),
            ("compaction.granularity", Approximated)
        ])
    );
    let ini = Ini::parse(&e.text).unwrap();
    // (10 × 12 + 100 × 8) / 110 = 8.3636…
    assert_eq!(sections(&ini).table_str("filter_policy"), "bloomfilter:8.364:false");
}

#[test]
fn shamba_and_mnemosyne_settings_are_listed_as_dropped() {
    let mut c = design(&[(10.0, 1, None)], Allocation::Mnemosyne, 6.0);
    c.filter.kind = FilterKind::Modular;
    c.filter.modules = 4;
    c.filter.skip = FilterSkip::Partial;
    c.block_cache.cache_index_and_filter_blocks = true;
    c.validate().unwrap();
    let e = check_options(&c, None);
    assert_eq!(
        lossy(&e),
        expect(&[
            ("buffer_bytes", Approximated),
            ("compaction.granularity", Approximated),
            ("filter.allocation", Dropped),
            ("statistics_window", Dropped),
            ("filter.kind", Dropped),
            ("filter.skip", Dropped),
            ("block_cache.cache_index_and_filter_blocks", Dropped),
        ])
    );
}

#[test]
fn block_cache_with_a_high_priority_pool_is_expressed() {
    let mut c = design(&[(10.0, 1, None)], Allocation::Uniform, 10.0);
    c.block_cache.bytes = 8 << 20;
    c.block_cache.cache_index_and_filter_blocks = true;
    c.block_cache.high_priority_ratio = 0.5;
    c.block_cache.midpoint_insertion = true;
    c.compaction.granularity = Granularity::File;
    c.compaction.trivial_moves = true;
    let w = workload(10_000, 0, Mix::default());
    let e = check_options(&c, Some(&w));
    assert!(e.warnings.is_empty(), "{:?}", e.warnings);
    assert!(e.text.contains("block_cache={capacity=8388608;high_pri_pool_ratio=0.5}"));
}

#[test]
fn tiered_first_level_becomes_l0_with_its_trigger() {
    let c = design(&[(5.5, 2, None), (10.0, 1, None)], Allocation::Uniform, 10.0);
    let e = check_options(&c, None);
    assert_eq!(
        lossy(&e),
        expect(&[
            ("buffer_bytes", Approximated),
            ("levels[0].size_ratio", Rounded),
            ("levels[0].max_runs", Dropped),
            ("compaction.granularity", Approximated)
        ])
    );
    let ini = Ini::parse(&e.text).unwrap();
    let o = sections(&ini);
    assert_eq!(o.cf_u64("level0_file_num_compaction_trigger"), 6);
    // L1 is engine level 2: buffer × 5.5 × 10.
    assert_eq!(o.cf_u64("max_bytes_for_level_base"), (1u64 << 20) * 55);
}

#[test]
fn rocksdb_cpp_gives_each_level_its_bits() {
    let c = design(&[(10.0, 1, Some(12.0)), (10.0, 1, Some(9.5)), (10.0, 1, Some(4.0))], Allocation::Explicit, 0.0);
    let e = export(&c, Format::RocksdbCpp, None).unwrap();
    assert!(e.warnings.is_empty(), "{:?}", e.warnings);
    // L0 (flushes) and L1 hold engine level 1; deeper levels repeat the last entry.
    assert!(e.text.contains("constexpr double kBitsPerKeyByLevel[] = {12, 12, 9.5, 4, 4, 4, 4};"), "{}", e.text);
    assert!(e.text.contains("constexpr double kBottommostBitsPerKey = -1;"));
    assert!(e.text.contains("context.level_at_creation"));
    assert_eq!(e.text.matches('{').count(), e.text.matches('}').count());
    assert!(e.text.contains("constexpr bool kRibbon = false;"), "{}", e.text);

    // A Ribbon design keeps its kind and RocksDB's bloom_before_level rule, level by level.
    let mut r = c.clone();
    r.filter.kind = FilterKind::Ribbon;
    r.filter.bloom_before_level = 2;
    let e = export(&r, Format::RocksdbCpp, None).unwrap();
    assert!(e.warnings.is_empty(), "{:?}", e.warnings);
    assert!(e.text.contains("constexpr bool kRibbon = true;\nconstexpr int kBloomBeforeLevel = 2;"), "{}", e.text);
    assert!(e.text.contains("rocksdb::NewRibbonFilterPolicy(bits, kBloomBeforeLevel)"));

    let mut m = design(&[(10.0, 1, None)], Allocation::Monkey, 10.0);
    m.name = "monkey".into();
    let e = export(&m, Format::RocksdbCpp, None).unwrap();
    assert_eq!(lossy(&e), expect(&[("filter.allocation", Approximated)]));
    let list = e.text.split("kBitsPerKeyByLevel[] = {").nth(1).unwrap().split('}').next().unwrap();
    let bits: Vec<f64> = list.split(", ").map(|b| b.parse().unwrap()).collect();
    assert!(bits[1..].windows(2).all(|w| w[0] > w[1]), "Monkey: fewer bits deeper, {bits:?}");
}

#[test]
fn rocksdb_exports_say_re_optimised_filters_are_not_expressible() {
    let mut m = design(&[(2.0, 1, None)], Allocation::Monkey, 5.0);
    m.filter.monkey_policy = lsm_core::config::MonkeyPolicy::Reoptimised;
    for format in [Format::Rocksdb, Format::RocksdbCpp] {
        let e = export(&m, format, None).unwrap();
        let w = e
            .warnings
            .iter()
            .find(|w| w.field == "filter.monkey_policy")
            .unwrap_or_else(|| panic!("{format:?}: {:?}", e.warnings));
        assert!(w.message.contains("never resizes"), "{format:?}: {}", w.message);
    }
    // The engine's own JSON keeps the policy and reads back equal.
    let e = export(&m, Format::Engine, None).unwrap();
    assert!(e.text.contains("\"monkey_policy\": \"reoptimised\""), "{}", e.text);
    assert_eq!(EngineConfig::from_json(&e.text).unwrap(), m);
}

#[test]
fn engine_export_round_trips_every_preset() {
    for (id, c) in presets() {
        let e = export(&c, Format::Engine, None).unwrap();
        assert!(e.warnings.is_empty());
        assert!(e.text.ends_with("}\n"), "{id}");
        assert_eq!(EngineConfig::from_json(&e.text).unwrap(), c, "{id}");
        assert_eq!(import(&e.text, ImportKind::Engine).unwrap().config, c, "{id}");
    }
}

#[test]
fn exports_are_deterministic() {
    let w = Workload::from_json(include_str!("../../../../public/examples/mixed.json")).unwrap();
    for (_, c) in presets() {
        for format in Format::ALL {
            let a = export(&c, format, Some(&w)).unwrap();
            let b = export(&c.clone(), format, Some(&w.clone())).unwrap();
            assert_eq!(a, b);
        }
    }
}

//! Imports: an exported OPTIONS file read back gives what RocksDB expresses; unknown keys are
//! reported by name; malformed files and bad designs fail with a reason.

use super::*;

/// Engine levels 1..=depth as (size ratio, runs).
fn shape(c: &EngineConfig, depth: usize) -> Vec<(f64, u32)> {
    (1..=depth).map(|i| (c.level(i).size_ratio, c.level(i).max_runs)).collect()
}

/// Capacities (entry bytes) of RocksDB's L1..L6 as a design lays them out.
fn rocks_capacities(c: &EngineConfig) -> Vec<f64> {
    let m = Mapping::new(c, None);
    (1..7).map(|r| m.capacity(m.engine_level(r))).collect()
}

#[test]
fn importing_an_exported_options_file_gives_back_what_rocksdb_expresses() {
    let mut cached = design(&[(8.0, 1, None)], Allocation::Uniform, 7.5);
    cached.page_bytes = 16384;
    cached.block_cache.bytes = 64 << 20;
    cached.block_cache.cache_index_and_filter_blocks = true;
    cached.block_cache.high_priority_ratio = 0.25;
    // RocksDB's LRU cache promotes a block hit once into its high-priority pool.
    cached.block_cache.midpoint_insertion = true;
    let mut pinned = cached.clone();
    pinned.block_cache.pin_l0_filter_and_index_blocks_in_cache = true;
    // RocksDB's partitioned metadata, every option off its default.
    let mut partitioned = cached.clone();
    partitioned.block_layout = BlockLayout::Rocksdb;
    partitioned.block_cache.index_type = IndexType::TwoLevelIndexSearch;
    partitioned.block_cache.partition_filters = true;
    partitioned.block_cache.metadata_block_size = 8192;
    partitioned.block_cache.pin_top_level_index_and_filter = false;
    // A two-level index alone, without a block cache (its partitions are read every time).
    let mut two_level = design(&[(10.0, 1, None)], Allocation::Uniform, 10.0);
    two_level.block_layout = BlockLayout::Rocksdb;
    two_level.block_cache.index_type = IndexType::TwoLevelIndexSearch;
    let cases = [
        design(&[(10.0, 1, None)], Allocation::Uniform, 10.0),
        design(&[(2.5, 1, None), (7.0, 1, None), (5.0, 1, None)], Allocation::Uniform, 5.0),
        design(&[(4.0, 3, None), (10.0, 1, None)], Allocation::Uniform, 10.0),
        cached,
        pinned,
        partitioned,
        two_level,
    ];
    for c in &cases {
        let e = export(c, Format::Rocksdb, None).unwrap();
        let i = import(&e.text, ImportKind::Rocksdb).unwrap();
        let back = &i.config;
        assert_eq!((back.page_bytes, back.buffer_bytes), (c.page_bytes, c.buffer_bytes));
        if back.compaction.granularity == Granularity::File {
            // Leveled RocksDB imports as merges by file (level 1 = L0): the same level targets.
            let (a, b) = (rocks_capacities(back), rocks_capacities(c));
            assert!(a.iter().zip(&b).all(|(x, y)| (x - y).abs() <= 1e-9 * y), "{:?}: {a:?} vs {b:?}", c.levels);
        } else {
            assert_eq!(shape(back, 8), shape(c, 8), "{:?}", c.levels);
        }
        assert_eq!(back.filter.bits_per_key, c.filter.bits_per_key);
        assert_eq!(back.block_cache, c.block_cache);
        assert!(i.unknown_keys.is_empty(), "{:?}", i.unknown_keys);
    }

    // Sizes converted for a workload (16 + 100 B entries): the memtable gets 24 B and the SST
    // 11 B more per entry, so write_buffer_size grows by 140/116 and L1's ratio reads 127/140 of T.
    let w = workload(1_500_000, 0, Mix::default());
    let c = design(&[(10.0, 1, Some(10.0)), (10.0, 1, Some(10.0)), (10.0, 1, Some(0.0))], Allocation::Explicit, 0.0);
    let i = import(&export(&c, Format::Rocksdb, Some(&w)).unwrap().text, ImportKind::Rocksdb).unwrap();
    let back = &i.config;
    assert_eq!(back.buffer_bytes, (c.buffer_bytes as f64 * 140.0 / 116.0).round() as u64);
    assert!((back.levels[0].size_ratio - 10.0 * 127.0 / 140.0).abs() < 1e-5, "{}", back.levels[0].size_ratio);
    assert_eq!(back.levels[1].size_ratio, 10.0);
    // optimize_filters_for_hits: every level filtered but RocksDB's last.
    assert_eq!(back.filter.allocation, Allocation::Explicit);
    let bits: Vec<f64> = back.levels.iter().map(|l| l.bits_per_key.unwrap()).collect();
    assert_eq!(bits, [10.0, 10.0, 10.0, 10.0, 10.0, 0.0]);
}

#[test]
fn unknown_keys_in_an_imported_options_file_are_reported_by_name() {
    let text = "[Version]\n  rocksdb_version=8.10.0\n  options_file_version=1.1\n\
                [DBOptions]\n  max_background_jobs=4\n  create_if_missing=true\n\
                [CFOptions \"default\"]\n  write_buffer_size=4M\n  level0_file_num_compaction_trigger=4\n  \
                max_bytes_for_level_base=16M\n  frobnicate_level=3\n  compression=kLZ4Compression\n\
                [TableOptions/BlockBasedTable \"default\"]\n  block_size=8k\n  filter_policy=ribbonfilter:10:-1\n  \
                data_block_index_type=kDataBlockBinaryAndHash\n\
                [CFOptions \"logs\"]\n  write_buffer_size=1024\n";
    let i = import(text, ImportKind::Rocksdb).unwrap();
    assert_eq!(
        i.unknown_keys,
        vec![
            "DBOptions.max_background_jobs",
            "CFOptions.frobnicate_level",
            "TableOptions/BlockBasedTable.data_block_index_type",
            "[CFOptions \"logs\"] (only the default column family's block-based table is imported)",
        ]
    );
    let c = &i.config;
    assert_eq!((c.page_bytes, c.buffer_bytes), (8192, 4 << 20));
    // Trigger 4: level 1 is L0 with 3 runs; L1 = 16 MiB = 4 × the 4 MiB buffer → T₁ = 4; then 10.
    assert_eq!(shape(c, 3), vec![(4.0, 3), (10.0, 1), (10.0, 1)]);
    assert_eq!(c.compaction.granularity, Granularity::File);
    let fields: Vec<(&str, WarningKind)> = i.warnings.iter().map(|w| (w.field.as_str(), w.kind)).collect();
    // RocksDB 8.10 defaults to dynamic level bytes: imported as the mechanism, not approximated.
    assert!(c.compaction.dynamic_level_bytes && c.compaction.num_levels == 7);
    assert!(!fields.contains(&("levels", Approximated)), "{fields:?}");
    // Ribbon is imported as the mechanism, Ribbon everywhere (bloom_before_level −1).
    assert!(!fields.iter().any(|(f, _)| f.starts_with("filter")), "{fields:?}");
    assert_eq!((c.filter.kind, c.filter.bloom_before_level), (FilterKind::Ribbon, -1));
    assert!(fields.contains(&("compression", Dropped)));
    assert_eq!(c.filter.bits_per_key, 10.0);
    assert_eq!(c.block_cache.bytes, 32 << 20);
}

#[test]
fn partitioned_metadata_options_are_read_as_rocksdb_means_them() {
    let table = |lines: &str| {
        format!(
            "[Version]\n  rocksdb_version=7.8.3\n[DBOptions]\n[CFOptions \"default\"]\n  write_buffer_size=4M\n\
             [TableOptions/BlockBasedTable \"default\"]\n  block_cache=8M\n{lines}"
        )
    };
    // RocksDB 7.8's OPTIONS file writes every one, with the metadata cache options at kFallback.
    let i = import(
        &table(
            "  index_type=kTwoLevelIndexSearch\n  partition_filters=true\n  metadata_block_size=4096\n  \
             pin_top_level_index_and_filter=true\n  metadata_cache_options={top_level_index_pinning=kFallback;\
             partition_pinning=kFallback;unpartitioned_pinning=kFallback;}\n",
        ),
        ImportKind::Rocksdb,
    )
    .unwrap();
    let b = &i.config.block_cache;
    assert_eq!(
        (b.index_type, b.partition_filters, b.metadata_block_size),
        (IndexType::TwoLevelIndexSearch, true, 4096)
    );
    assert!(i.unknown_keys.is_empty() && !i.warnings.iter().any(|w| w.field == "block_cache"), "{:?}", i.warnings);
    // partition_filters without a two-level index: ignored, as RocksDB ignores it, and said.
    let i = import(
        &table("  partition_filters=true\n  index_type=kHashSearch\n  metadata_block_size=16\n"),
        ImportKind::Rocksdb,
    )
    .unwrap();
    let b = &i.config.block_cache;
    assert_eq!((b.index_type, b.partition_filters, b.metadata_block_size), (IndexType::BinarySearch, false, 64));
    let fields: Vec<(&str, WarningKind)> = i.warnings.iter().map(|w| (w.field.as_str(), w.kind)).collect();
    for f in [
        ("block_cache.index_type", Approximated),
        ("block_cache.partition_filters", Dropped),
        ("block_cache.metadata_block_size", Rounded),
    ] {
        assert!(fields.contains(&f), "{f:?} in {fields:?}");
    }
    // Pinning by tier is not modelled: named.
    let i = import(&table("  metadata_cache_options={partition_pinning=kAll;}\n"), ImportKind::Rocksdb).unwrap();
    assert!(i.warnings.iter().any(|w| w.field == "block_cache" && w.message.contains("partition_pinning=kAll")));
}

#[test]
fn malformed_options_files_fail_with_a_reason() {
    let e = import("[CFOptions \"default\"]\n", ImportKind::Rocksdb).unwrap_err().to_string();
    assert!(e.contains("[DBOptions]"), "{e}");
    let e = import("[DBOptions]\n[CFOptions \"default\"]\n  write_buffer_size=lots\n", ImportKind::Rocksdb)
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "write_buffer_size (line 3): must be an integer in [0, 2^64 − 1] (k/m/g/t suffix allowed), got \"lots\""
    );
    let e =
        import("[DBOptions]\n[CFOptions \"default\"]\n  compaction_style=kCompactionStyleFIFO\n", ImportKind::Rocksdb)
            .unwrap_err()
            .to_string();
    assert!(e.starts_with("compaction_style:"), "{e}");
}

#[test]
fn bad_designs_and_formats_are_rejected_naming_the_field() {
    let mut c = design(&[(10.0, 1, None)], Allocation::Uniform, 10.0);
    c.levels[0].max_runs = 0;
    for format in Format::ALL {
        let e = export(&c, format, None).unwrap_err().to_string();
        assert!(e.starts_with("levels[0].max_runs: must be an integer in [1, 1000]"), "{format}: {e}");
    }
    let e = "xml".parse::<Format>().unwrap_err().to_string();
    assert!(e.starts_with("format: must be one of rocksdb"), "{e}");
    let mut w = workload(10, 10, Mix { get_missing: 0.5, ..Mix::default() });
    w.seed = 1;
    let e = export(&design(&[(10.0, 1, None)], Allocation::Uniform, 10.0), Format::DbBench, Some(&w))
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("mix:"), "{e}");
}

/// The filter_policy lines RocksDB 7.8.3 writes (an OPTIONS file of a database opened with
/// `NewBloomFilterPolicy(10, false)`, `NewRibbonFilterPolicy(10)` and
/// `NewRibbonFilterPolicy(9.5, 2)`): the kind RocksDB builds, and back to the same line.
#[test]
fn filter_kinds_import_as_rocksdb_builds_them_and_export_back() {
    let file = |policy: &str, table_extra: &str, version: &str| {
        format!(
            "[Version]\n  rocksdb_version={version}\n  options_file_version=1.1\n[DBOptions]\n[CFOptions \"default\"]\n\
             [TableOptions/BlockBasedTable \"default\"]\n  filter_policy={policy}\n{table_extra}"
        )
    };
    let cases: [(&str, &str, &str, FilterKind, f64, i32); 6] = [
        ("bloomfilter:10:false", "  format_version=5\n", "7.8.3", FilterKind::FastLocalBloom, 10.0, 0),
        // format_version absent: 5, 7.8's default.
        ("bloomfilter:16:false", "", "7.8.3", FilterKind::FastLocalBloom, 16.0, 0),
        ("ribbonfilter:10:0", "  format_version=5\n", "7.8.3", FilterKind::Ribbon, 10.0, 0),
        ("ribbonfilter:9.5:2", "  format_version=5\n", "7.8.3", FilterKind::Ribbon, 9.5, 2),
        ("ribbonfilter:5:-1", "", "7.8.3", FilterKind::Ribbon, 5.0, -1),
        // Below format_version 5 RocksDB builds its legacy Bloom filter: the textbook one here.
        ("bloomfilter:10:false", "  format_version=4\n", "7.8.3", FilterKind::Bloom, 10.0, 0),
    ];
    for (policy, extra, version, kind, bits, level) in cases {
        let i = import(&file(policy, extra, version), ImportKind::Rocksdb).unwrap();
        let c = &i.config;
        assert_eq!(
            (c.filter.kind, c.filter.bits_per_key, c.filter.bloom_before_level),
            (kind, bits, level),
            "{policy}"
        );
        assert!(i.unknown_keys.is_empty(), "{:?}", i.unknown_keys);
        let legacy = i.warnings.iter().any(|w| w.field == "filter.kind" && w.kind == Approximated);
        assert_eq!(legacy, kind == FilterKind::Bloom, "{policy}");
        // Exported back: the same filter_policy, format_version 5 (the legacy filter excepted).
        let e = export(c, Format::Rocksdb, None).unwrap();
        let ini = Ini::parse(&e.text).unwrap();
        let table = sections(&ini);
        if kind != FilterKind::Bloom {
            assert_eq!(table.table_str("filter_policy"), policy, "{policy}");
            assert_eq!(table.table_str("format_version"), "5");
            let back = import(&e.text, ImportKind::Rocksdb).unwrap().config;
            assert_eq!(back.filter, c.filter, "{policy}");
        }
    }
    // Files older than 6.19 default to format_version 4: the legacy Bloom filter.
    let old = import(&file("bloomfilter:10:false", "", "6.10.0"), ImportKind::Rocksdb).unwrap().config;
    assert_eq!(old.filter.kind, FilterKind::Bloom);
    // ribbonfilter:N alone (the older spelling) is bloom_before_level 0.
    let bare = import(&file("ribbonfilter:8", "", "7.8.3"), ImportKind::Rocksdb).unwrap().config;
    assert_eq!((bare.filter.kind, bare.filter.bloom_before_level), (FilterKind::Ribbon, 0));
}

#[test]
fn rocksdb_7_8_defaults_import_to_the_rocksdb_preset() {
    // What Options() leaves unset is absent from a hand-written file: RocksDB's defaults apply.
    let text = "[Version]\n  rocksdb_version=7.8.3\n  options_file_version=1.1\n[DBOptions]\n[CFOptions \"default\"]\n\
                [TableOptions/BlockBasedTable \"default\"]\n";
    let mut imported = import(text, ImportKind::Rocksdb).unwrap().config;
    let (_, preset) = presets().into_iter().find(|(id, _)| id == "rocksdb").unwrap();
    imported.name = preset.name.clone();
    assert_eq!(imported, preset);
    assert_eq!(preset.block_cache.bytes, 8 << 20);
    assert_eq!(preset.filter.bits_per_key, 0.0);
    // From 8.0 on the internal cache is 32 MiB.
    let newer = import(&text.replace("7.8.3", "8.1.1"), ImportKind::Rocksdb).unwrap().config;
    assert_eq!(newer.block_cache.bytes, 32 << 20);
}

#[test]
fn compaction_pri_picks_the_file_and_leveled_compaction_moves_trivially() {
    let with = |pri: &str| {
        let text = format!("[DBOptions]\n[CFOptions \"default\"]\n  compaction_pri={pri}\n");
        import(&text, ImportKind::Rocksdb)
    };
    let c = with("kRoundRobin").unwrap().config;
    assert_eq!((c.compaction.pick, c.compaction.trivial_moves), (FilePick::RoundRobin, true));
    let i = with("kOldestLargestSeqFirst").unwrap();
    assert_eq!(i.config.compaction.pick, FilePick::MinOverlappingRatio);
    assert!(i.warnings.iter().any(|w| w.field == "compaction.pick" && w.message.contains("kOldestLargestSeqFirst")));
    let e = with("kSmallestFirst").unwrap_err().to_string();
    assert!(e.contains("compaction_pri") && e.contains("kMinOverlappingRatio"), "{e}");
    // And back: the export writes compaction_pri.
    let text = export(&with("kRoundRobin").unwrap().config, Format::Rocksdb, None).unwrap().text;
    assert!(text.contains("compaction_pri=kRoundRobin"), "{text}");
}

/// A leveled OPTIONS file with `cf` lines added to RocksDB 7.8.3's defaults.
fn leveled_options(cf: &str) -> String {
    format!(
        "[Version]\n  rocksdb_version=7.8.3\n  options_file_version=1.1\n[DBOptions]\n[CFOptions \"default\"]\n\
         {cf}[TableOptions/BlockBasedTable \"default\"]\n  filter_policy=bloomfilter:10:false\n"
    )
}

#[test]
fn dynamic_level_bytes_imports_as_the_mechanism_and_exports_back() {
    let text = leveled_options(
        "  level_compaction_dynamic_level_bytes=true\n  num_levels=5\n  write_buffer_size=1M\n  \
         max_bytes_for_level_base=4M\n  max_bytes_for_level_multiplier=8\n  level0_file_num_compaction_trigger=4\n  \
         max_bytes_for_level_multiplier_additional=1:1:2:1:1\n",
    );
    let i = import(&text, ImportKind::Rocksdb).unwrap();
    let c = &i.config;
    assert!(c.compaction.dynamic_level_bytes);
    assert_eq!(c.compaction.num_levels, 5);
    assert_eq!(c.compaction.granularity, Granularity::File);
    // L0 holds 3 flushed files; max_bytes_for_level_base = 4 × the buffer; one multiplier, 8.
    assert_eq!(shape(c, 5), vec![(4.0, 3), (8.0, 1), (8.0, 1), (8.0, 1), (8.0, 1)]);
    let fields: Vec<(&str, WarningKind)> = i.warnings.iter().map(|w| (w.field.as_str(), w.kind)).collect();
    // Not approximated any more; the additional multipliers are ignored as RocksDB ignores them.
    assert!(!fields.contains(&("levels", Approximated)), "{fields:?}");
    assert!(fields.contains(&("levels", Dropped)), "{fields:?}");

    // Exported: dynamic level bytes on, RocksDB's num_levels the design's; read back equal.
    let e = check_options(c, None);
    assert!(e.text.contains("level_compaction_dynamic_level_bytes=true"), "{}", e.text);
    assert!(e.text.contains("num_levels=5\n"), "{}", e.text);
    let back = import(&e.text, ImportKind::Rocksdb).unwrap();
    let mut again = back.config.clone();
    again.name = c.name.clone();
    assert_eq!(&again, c);
    assert!(back.warnings.iter().all(|w| w.field != "levels"), "{:?}", back.warnings);

    // Without additional multipliers: no warning about levels at all.
    let plain = leveled_options("  level_compaction_dynamic_level_bytes=true\n");
    let i = import(&plain, ImportKind::Rocksdb).unwrap();
    assert!(i.warnings.iter().all(|w| w.field != "levels"), "{:?}", i.warnings);
    assert_eq!((i.config.compaction.num_levels, i.config.levels.len()), (7, 2));
}

#[test]
fn dynamic_level_bytes_keeps_filters_off_only_at_the_last_level_and_bounds_num_levels() {
    let text = leveled_options(
        "  level_compaction_dynamic_level_bytes=true\n  num_levels=4\n  optimize_filters_for_hits=true\n",
    );
    let c = import(&text, ImportKind::Rocksdb).unwrap().config;
    // L0..L3 spelled out: every level filtered but L3, the last (engine level 4).
    let bits: Vec<f64> = c.levels.iter().map(|l| l.bits_per_key.unwrap()).collect();
    assert_eq!(bits, [10.0, 10.0, 10.0, 0.0]);
    let back = import(&export(&c, Format::Rocksdb, None).unwrap().text, ImportKind::Rocksdb).unwrap().config;
    assert_eq!((back.compaction.num_levels, back.levels.len()), (4, 4));
    assert_eq!(back.levels.iter().map(|l| l.bits_per_key.unwrap()).collect::<Vec<_>>(), bits);

    // num_levels 1 leaves no level below L0: rounded up to 2, with a warning naming the field.
    let i =
        import(&leveled_options("  level_compaction_dynamic_level_bytes=true\n  num_levels=1\n"), ImportKind::Rocksdb)
            .unwrap();
    assert_eq!(i.config.compaction.num_levels, 2);
    assert!(i.warnings.iter().any(|w| w.field == "compaction.num_levels" && w.kind == Rounded), "{:?}", i.warnings);
    // Universal compaction bounds it the same way, saying why in its own words.
    let i = import(&universal_options("  num_levels=100\n"), ImportKind::Rocksdb).unwrap();
    let (_, hi) = lsm_core::config::NUM_LEVELS_RANGE;
    assert_eq!(i.config.compaction.num_levels, hi);
    let w = i.warnings.iter().find(|w| w.field == "compaction.num_levels").expect("a num_levels warning");
    assert_eq!(w.kind, Rounded);
    assert!(w.message.contains(&format!("num_levels 100 becomes {hi}: the engine's universal tree")), "{}", w.message);
    // Static targets keep num_levels in the level list, not in compaction.
    let i = import(&leveled_options("  num_levels=5\n"), ImportKind::Rocksdb).unwrap();
    assert!(!i.config.compaction.dynamic_level_bytes);
    assert_eq!(i.config.compaction.num_levels, 7);
}

/// A universal OPTIONS file with `cf` lines added to RocksDB 7.8.3's defaults.
fn universal_options(cf: &str) -> String {
    leveled_options(&format!("  compaction_style=kCompactionStyleUniversal\n{cf}"))
}

#[test]
fn universal_compaction_imports_as_the_mechanism_with_rocksdb_s_defaults() {
    let i = import(&universal_options("  write_buffer_size=1M\n  target_file_size_base=1M\n"), ImportKind::Rocksdb)
        .unwrap();
    let c = &i.config;
    assert_eq!(c.compaction.universal, Some(UniversalConfig::default()));
    assert_eq!(
        (c.compaction.granularity, c.compaction.num_levels, c.compaction.target_file_bytes),
        (Granularity::File, 7, 1 << 20)
    );
    // Not tiering any more: the picker reads no size ratio or run count; no approximation noted.
    assert!(i.warnings.iter().all(|w| w.field != "levels"), "{:?}", i.warnings);
    assert!(i.unknown_keys.is_empty(), "{:?}", i.unknown_keys);
    // What RocksDB 7.8 defaults to: trigger 4, size_ratio 1, widths 2..UINT_MAX, 200%.
    let u = c.compaction.universal.as_ref().unwrap();
    assert_eq!(
        (u.level0_file_num_compaction_trigger, u.size_ratio, u.min_merge_width, u.max_merge_width),
        (4, 1, 2, u32::MAX)
    );
    assert_eq!(
        (u.max_size_amplification_percent, u.stop_style, u.allow_trivial_move),
        (200, StopStyle::TotalSize, false)
    );
}

#[test]
fn universal_compaction_round_trips_option_for_option() {
    let text = universal_options(
        "  num_levels=5\n  level0_file_num_compaction_trigger=6\n  write_buffer_size=2M\n  target_file_size_base=4M\n  \
         compaction_options_universal={size_ratio=5;min_merge_width=3;max_merge_width=8;\
         max_size_amplification_percent=150;compression_size_percent=-1;stop_style=kCompactionStopStyleSimilarSize;\
         allow_trivial_move=true;incremental=false}\n",
    );
    let i = import(&text, ImportKind::Rocksdb).unwrap();
    let c = &i.config;
    assert_eq!(
        c.compaction.universal,
        Some(UniversalConfig {
            level0_file_num_compaction_trigger: 6,
            size_ratio: 5,
            min_merge_width: 3,
            max_merge_width: 8,
            max_size_amplification_percent: 150,
            stop_style: StopStyle::SimilarSize,
            allow_trivial_move: true,
        })
    );
    assert_eq!((c.compaction.num_levels, c.compaction.target_file_bytes), (5, 4 << 20));
    assert!(i.warnings.is_empty() || i.warnings.iter().all(|w| !w.field.starts_with("compaction")), "{:?}", i.warnings);
    // Exported: the same options; read back: the same design.
    let e = check_options(c, None);
    assert!(e.text.contains("compaction_style=kCompactionStyleUniversal"), "{}", e.text);
    assert!(e.warnings.iter().all(|w| !w.field.starts_with("compaction")), "{:?}", e.warnings);
    let back = import(&e.text, ImportKind::Rocksdb).unwrap();
    let mut again = back.config.clone();
    again.name = c.name.clone();
    assert_eq!(&again, c);
    assert!(back.unknown_keys.is_empty(), "{:?}", back.unknown_keys);

    // optimize_filters_for_hits: every level filtered but the last (engine level num_levels).
    let text = universal_options("  num_levels=4\n  optimize_filters_for_hits=true\n");
    let c = import(&text, ImportKind::Rocksdb).unwrap().config;
    let bits: Vec<f64> = c.levels.iter().map(|l| l.bits_per_key.unwrap()).collect();
    assert_eq!(bits, [10.0, 10.0, 10.0, 0.0]);
    let back = import(&check_options(&c, None).text, ImportKind::Rocksdb).unwrap().config;
    assert_eq!(back.levels, c.levels);
    assert_eq!(back.compaction, c.compaction);
}

#[test]
fn universal_options_the_engine_does_not_model_are_named() {
    let text = universal_options(
        "  max_bytes_for_level_base=4M\n  compaction_options_universal={size_ratio=1;frobnicate=3;incremental=true;\
         compression_size_percent=50;min_merge_width=0}\n  level0_file_num_compaction_trigger=0\n",
    );
    let i = import(&text, ImportKind::Rocksdb).unwrap();
    assert_eq!(i.unknown_keys, vec!["CFOptions.compaction_options_universal.frobnicate"]);
    let notes: Vec<(&str, WarningKind, &str)> =
        i.warnings.iter().map(|w| (w.field.as_str(), w.kind, w.message.as_str())).collect();
    let has = |field: &str, kind: WarningKind, text: &str| {
        notes.iter().any(|(f, k, m)| *f == field && *k == kind && m.contains(text))
    };
    assert!(has("compaction.universal", Approximated, "incremental=true"), "{notes:?}");
    assert!(has("compaction.universal", Dropped, "compression_size_percent=50"), "{notes:?}");
    assert!(has("compaction.universal", Dropped, "max_bytes_for_level_base"), "{notes:?}");
    // RocksDB reads min_merge_width 0 as 2 and a trigger of 0 as 1: the same, noted.
    assert!(has("compaction.universal.min_merge_width", Rounded, "becomes 2"), "{notes:?}");
    assert!(has("compaction.universal.level0_file_num_compaction_trigger", Rounded, "becomes 1"), "{notes:?}");
    let u = i.config.compaction.universal.unwrap();
    assert_eq!((u.min_merge_width, u.level0_file_num_compaction_trigger), (2, 1));
    // A stop style RocksDB does not have fails, naming the option.
    let e = import(&universal_options("  compaction_options_universal={stop_style=kSometimes}\n"), ImportKind::Rocksdb)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("compaction_options_universal.stop_style") && e.contains("kCompactionStopStyleTotalSize"),
        "{e}"
    );
}

#[test]
fn a_tiered_design_exports_as_universal_compaction_and_comes_back_as_the_mechanism() {
    for (levels, trigger) in [(vec![(10.0, 9, None)], 10), (vec![(4.0, 4, None)], 5)] {
        let c = design(&levels, Allocation::Uniform, 10.0);
        let back = import(&export(&c, Format::Rocksdb, None).unwrap().text, ImportKind::Rocksdb).unwrap().config;
        let u = back.compaction.universal.expect("universal compaction");
        assert_eq!(u.level0_file_num_compaction_trigger, trigger);
        assert_eq!(
            (back.page_bytes, back.buffer_bytes, back.filter.bits_per_key),
            (c.page_bytes, c.buffer_bytes, 10.0)
        );
    }
}

#[test]
fn write_stalls_round_trip_option_for_option() {
    // Absent: RocksDB 7.8's defaults.
    let i = import(&leveled_options(""), ImportKind::Rocksdb).unwrap();
    assert_eq!(i.config.write_stalls, WriteStallConfig::default());
    let text = leveled_options(
        "  level0_slowdown_writes_trigger=6\n  level0_stop_writes_trigger=9\n  \
         soft_pending_compaction_bytes_limit=1G\n  hard_pending_compaction_bytes_limit=2147483648\n",
    );
    let i = import(&text, ImportKind::Rocksdb).unwrap();
    let want = WriteStallConfig {
        level0_slowdown_writes_trigger: 6,
        level0_stop_writes_trigger: 9,
        soft_pending_compaction_bytes_limit: 1 << 30,
        hard_pending_compaction_bytes_limit: 2 << 30,
    };
    assert_eq!(i.config.write_stalls, want);
    assert!(i.unknown_keys.iter().all(|k| !k.contains("pending_compaction") && !k.contains("writes_trigger")));
    assert!(i.warnings.iter().all(|w| !w.field.starts_with("write_stalls")), "{:?}", i.warnings);
    // Exported: the same four options; read back: the same thresholds.
    let e = check_options(&i.config, None);
    for line in [
        "level0_slowdown_writes_trigger=6",
        "level0_stop_writes_trigger=9",
        "soft_pending_compaction_bytes_limit=1073741824",
        "hard_pending_compaction_bytes_limit=2147483648",
    ] {
        assert!(e.text.contains(line), "{line} not in\n{}", e.text);
    }
    let back = import(&e.text, ImportKind::Rocksdb).unwrap();
    assert_eq!(back.config.write_stalls, want);
}

#[test]
fn write_stalls_rocksdb_accepts_but_the_engine_cannot_are_adjusted_with_a_warning() {
    // A negative slowdown trigger (RocksDB: no slowdown by level-0 files) and a soft limit above
    // the hard one.
    let text = leveled_options(
        "  level0_slowdown_writes_trigger=-1\n  level0_stop_writes_trigger=12\n  \
         soft_pending_compaction_bytes_limit=300G\n  hard_pending_compaction_bytes_limit=100G\n",
    );
    let i = import(&text, ImportKind::Rocksdb).unwrap();
    let w = &i.config.write_stalls;
    assert_eq!((w.level0_slowdown_writes_trigger, w.level0_stop_writes_trigger), (12, 12));
    assert_eq!((w.soft_pending_compaction_bytes_limit, w.hard_pending_compaction_bytes_limit), (100 << 30, 100 << 30));
    let fields: Vec<&str> = i.warnings.iter().map(|w| w.field.as_str()).collect();
    assert!(fields.contains(&"write_stalls.level0_slowdown_writes_trigger"), "{fields:?}");
    assert!(fields.contains(&"write_stalls.soft_pending_compaction_bytes_limit"), "{fields:?}");
    // Not a number: the error names the option and its line.
    let e =
        import(&leveled_options("  level0_stop_writes_trigger=many\n"), ImportKind::Rocksdb).unwrap_err().to_string();
    assert!(e.contains("level0_stop_writes_trigger") && e.contains("line"), "{e}");
}

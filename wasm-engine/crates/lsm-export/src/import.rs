//! RocksDB OPTIONS file → EngineConfig: the inverse of the `rocksdb` export for what RocksDB
//! can express. Options that have no engine meaning are reported by name (`unknown_keys`),
//! never dropped silently; approximations are warnings. Absent options take RocksDB's defaults.
//!
//! This file reads the sections and assembles the design; each concept is read in its own
//! module: `defaults` (RocksDB's, by release), `reader` (one section's values), `levels`
//! (leveled compaction's shape and file pick), `universal_compaction`, `filter`
//! (`filter_policy`), `block_cache` and `write_stalls`.

use lsm_core::arena;
use lsm_core::config::{
    Allocation, BlockLayout, BufferTrigger, CONFIG_KIND, CONFIG_VERSION, CompactionConfig, EngineConfig, FilePick,
    FilterConfig, Granularity, OutputCuts, PAGE_BYTES_RANGE,
};
use lsm_core::error::{Error, Result};

use super::ini::Ini;
use super::{Import, Warning, WarningKind};

mod block_cache;
mod defaults;
mod filter;
mod levels;
mod reader;
mod universal_compaction;
mod write_stalls;

use block_cache::block_cache;
use defaults::{
    DEFAULT_BLOCK_CACHE, DEFAULT_BLOCK_CACHE_7, DEFAULT_BLOCK_SIZE, DEFAULT_NUM_LEVELS, DEFAULT_TARGET_FILE_SIZE,
    DEFAULT_WRITE_BUFFER_SIZE, FORMAT_VERSION_5_SINCE, LARGER_BLOCK_CACHE_SINCE, version,
};
use filter::{FilterPolicy, default_filter, filter_policy};
use levels::{collapse, file_pick, level_shape};
use reader::Reader;
use universal_compaction::{UNIVERSAL_LEVELS, universal_shape};
use write_stalls::write_stalls;

/// A RocksDB OPTIONS file as a design, from `[DBOptions]` and the default column family's
/// `[CFOptions]` and block-based table. Absent options take RocksDB's defaults; options and
/// sections with no engine meaning go to `unknown_keys`.
pub fn from_rocksdb(text: &str) -> Result<Import> {
    let ini = Ini::parse(text)?;
    let structure = |m: &str| Error::Parse { document: "RocksDB OPTIONS".into(), message: m.to_string() };
    if ini.section("DBOptions", None).is_none() {
        return Err(structure("a RocksDB OPTIONS file must have a [DBOptions] section"));
    }
    let cf_section = ini
        .section("CFOptions", Some("default"))
        .ok_or_else(|| structure("a RocksDB OPTIONS file must have a [CFOptions \"default\"] section"))?;
    let table_section = ini.section("TableOptions/BlockBasedTable", Some("default"));

    let mut warnings = Vec::new();
    let mut unknown: Vec<String> = ini.preamble.iter().map(|e| format!("(before any section).{}", e.name)).collect();
    let mut cf = Reader::new(Some(cf_section));
    let mut table = Reader::new(table_section);

    // Sizes.
    let page = table.size("block_size")?.unwrap_or(DEFAULT_BLOCK_SIZE);
    let page_bytes = power_of_two_page(page);
    if u64::from(page_bytes) != page {
        warnings.push(Warning::new(
            "page_bytes",
            WarningKind::Rounded,
            format!("block_size {page} becomes a {page_bytes}-byte page (a power of two in {PAGE_BYTES_RANGE:?})"),
        ));
    }
    let wbs = cf.size("write_buffer_size")?.unwrap_or(DEFAULT_WRITE_BUFFER_SIZE);
    let buffer_bytes = wbs.clamp(u64::from(page_bytes), 1 << 32);
    if buffer_bytes != wbs {
        warnings.push(Warning::new(
            "buffer_bytes",
            WarningKind::Rounded,
            format!("write_buffer_size {wbs} is outside the engine's range; {buffer_bytes} used"),
        ));
    }
    if let Some(block) = cf.size("arena_block_size")?.filter(|&b| b != 0 && b != arena::arena_block_bytes(wbs)) {
        warnings.push(Warning::new(
            "buffer_trigger",
            WarningKind::Approximated,
            format!(
                "arena_block_size {block}: the engine's arena trigger assumes RocksDB's default, write_buffer_size / 8"
            ),
        ));
    }

    // Shape.
    let style = cf.raw("compaction_style").unwrap_or("kCompactionStyleLevel");
    let num_levels = cf.size("num_levels")?.unwrap_or(DEFAULT_NUM_LEVELS).max(1);
    // `dynamic`: the number of levels when the tree has a fixed last level (dynamic level bytes
    // or universal compaction).
    let (mut levels, granularity, dynamic, universal) = match style {
        "kCompactionStyleLevel" => {
            let (levels, granularity, dynamic) = level_shape(&ini, &mut cf, wbs, num_levels, &mut warnings)?;
            (levels, granularity, dynamic, None)
        }
        "kCompactionStyleUniversal" => {
            let (options, n) = universal_shape(&mut cf, num_levels, &mut warnings, &mut unknown)?;
            (vec![UNIVERSAL_LEVELS], Granularity::File, Some(n), Some(options))
        }
        other => {
            return Err(Error::invalid(
                "compaction_style",
                format!("{other} has no LSM-tree equivalent in the engine (level or universal only)"),
            ));
        }
    };
    let target_file = cf.size("target_file_size_base")?;
    let pick = match universal {
        // Universal compaction picks no file; RocksDB ignores compaction_pri there.
        Some(_) => {
            cf.raw("compaction_pri");
            FilePick::RoundRobin
        }
        None => file_pick(cf.raw("compaction_pri"), granularity, &mut warnings)?,
    };
    // 7.8's default; false keeps only the target size and max_compaction_bytes cuts, which the
    // engine approximates with the same rules.
    if cf.boolean("level_compaction_dynamic_file_size")? == Some(false)
        && granularity == Granularity::File
        && universal.is_none()
    {
        warnings.push(Warning::new(
            "compaction.output_cuts",
            WarningKind::Approximated,
            "level_compaction_dynamic_file_size=false: output files are cut with RocksDB's dynamic file size rules",
        ));
    }
    let compaction = match (granularity, universal) {
        // RocksDB cuts universal outputs below L0 at target_file_size_base (max_file_size).
        (_, Some(options)) => CompactionConfig {
            granularity: Granularity::File,
            target_file_bytes: target_file
                .map_or(DEFAULT_TARGET_FILE_SIZE, |t| t.clamp(u64::from(page_bytes), 1 << 32)),
            num_levels: dynamic.unwrap_or(CompactionConfig::default().num_levels),
            universal: Some(options),
            ..CompactionConfig::default()
        },
        (Granularity::File, None) => CompactionConfig {
            granularity,
            target_file_bytes: target_file
                .map_or(DEFAULT_TARGET_FILE_SIZE, |t| t.clamp(u64::from(page_bytes), 1 << 32)),
            pick,
            trivial_moves: true,
            dynamic_level_bytes: dynamic.is_some(),
            num_levels: dynamic.unwrap_or(CompactionConfig::default().num_levels),
            output_cuts: OutputCuts::Rocksdb,
            universal: None,
        },
        (Granularity::Level, None) => CompactionConfig::default(),
    };

    // Filters: the policy, and the table format that decides which Bloom filter it builds.
    let policy = table.raw("filter_policy");
    let format_version = match table.size("format_version")? {
        Some(v) => v,
        None if version(&ini).is_some_and(|v| v < FORMAT_VERSION_5_SINCE) => 4,
        None => 5,
    };
    let FilterPolicy { bits, kind, bloom_before_level } = filter_policy(policy, format_version, &mut warnings);
    let drop_last = cf.boolean("optimize_filters_for_hits")?.unwrap_or(false) && bits > 0.0;
    let filter = if drop_last {
        // Bits by level, the last one without: spell out every level. With dynamic level bytes
        // the last level is RocksDB's L(num_levels − 1), engine level num_levels.
        if let Some(n) = dynamic {
            while levels.len() < n as usize {
                levels.push(levels[levels.len() - 1].clone());
            }
        }
        let last = levels.len().max(1);
        for (i, level) in levels.iter_mut().enumerate() {
            level.bits_per_key = Some(if i + 1 == last { 0.0 } else { bits });
        }
        FilterConfig {
            allocation: Allocation::Explicit,
            bits_per_key: bits,
            kind,
            bloom_before_level,
            ..default_filter()
        }
    } else {
        collapse(&mut levels);
        FilterConfig {
            allocation: Allocation::Uniform,
            bits_per_key: bits,
            kind,
            bloom_before_level,
            ..default_filter()
        }
    };

    // Block cache.
    let default_cache = match version(&ini) {
        Some(v) if v < LARGER_BLOCK_CACHE_SINCE => DEFAULT_BLOCK_CACHE_7,
        _ => DEFAULT_BLOCK_CACHE,
    };
    let block_cache = block_cache(&mut table, default_cache, &mut warnings)?;

    // Options with no engine meaning that are fine at these values.
    if let Some(c) = cf.raw("compression").filter(|&c| c != "kNoCompression") {
        warnings.push(Warning::new(
            "compression",
            WarningKind::Dropped,
            format!("{c}: the engine stores pages uncompressed"),
        ));
    }
    cf.raw("table_factory");
    let write_stalls = write_stalls(&mut cf, &mut warnings)?;
    if let Some(m) = cf.raw("target_file_size_multiplier").filter(|&m| m != "1") {
        warnings.push(Warning::new(
            "compaction.target_file_bytes",
            WarningKind::Dropped,
            format!("target_file_size_multiplier {m}: the engine's files have one target size"),
        ));
    }
    for neutral in ["cache_index_and_filter_blocks_with_high_priority", "whole_key_filtering"] {
        table.raw(neutral);
    }

    let mut db = Reader::new(ini.section("DBOptions", None));
    db.raw("create_if_missing");
    // Not the design's, but the tuner's: the memtables RocksDB keeps, charged to memory. RocksDB
    // runs at least 2 (its SanitizeOptions raises anything below); the tuner charges up to 64.
    let write_buffers = cf.size("max_write_buffer_number")?.map(|n| {
        let kept = n.clamp(2, 64) as u32;
        if u64::from(kept) != n {
            warnings.push(Warning::new(
                "max_write_buffer_number",
                WarningKind::Rounded,
                format!("{n}: RocksDB keeps at least 2 memtables, and the tuner charges at most 64; {kept} used"),
            ));
        }
        kept
    });
    db.unused("DBOptions", &mut unknown);
    cf.unused("CFOptions", &mut unknown);
    table.unused("TableOptions/BlockBasedTable", &mut unknown);
    let mut version_reader = Reader::new(ini.section("Version", None));
    version_reader.raw("rocksdb_version");
    version_reader.raw("options_file_version");
    version_reader.unused("Version", &mut unknown);
    for s in &ini.sections {
        let imported = matches!(
            (s.title.as_str(), s.argument.as_deref()),
            ("Version" | "DBOptions", None)
                | ("CFOptions", Some("default"))
                | ("TableOptions/BlockBasedTable", Some("default"))
        );
        if !imported {
            unknown.push(format!("[{}] (only the default column family's block-based table is imported)", s.label()));
        }
    }

    let config = EngineConfig {
        kind: CONFIG_KIND.into(),
        version: CONFIG_VERSION,
        name: "Imported from a RocksDB OPTIONS file".into(),
        page_bytes,
        // RocksDB's block_size is a target a block fills up to, not a fixed page.
        block_layout: BlockLayout::Rocksdb,
        buffer_bytes,
        buffer_trigger: BufferTrigger::Arena,
        levels,
        filter,
        compaction,
        block_cache,
        statistics_window: 64,
        write_stalls,
    };
    config.validate()?;
    Ok(Import { config, unknown_keys: unknown, warnings, write_buffers })
}

fn power_of_two_page(bytes: u64) -> u32 {
    let (lo, hi) = PAGE_BYTES_RANGE;
    let clamped = bytes.clamp(u64::from(lo), u64::from(hi));
    // Nearest power of two, ties up.
    let up = clamped.next_power_of_two();
    let down = up / 2;
    let p = if up - clamped <= clamped - down.max(1) || down < u64::from(lo) { up } else { down };
    u32::try_from(p.min(u64::from(hi))).unwrap_or(hi)
}

//! RocksDB OPTIONS file → EngineConfig: the inverse of the `rocksdb` export for what RocksDB
//! can express. Options that have no engine meaning are reported by name (`unknown_keys`),
//! never dropped silently; approximations are warnings. Absent options take RocksDB's defaults.

use rustc_hash::FxHashSet;

use lsm_core::arena;
use lsm_core::config::{
    Allocation, BLOOM_BEFORE_LEVEL_RANGE, BlockCacheConfig, BlockLayout, BufferTrigger, CONFIG_KIND, CONFIG_VERSION,
    CompactionConfig, EngineConfig, FilePick, FilterConfig, FilterKind, Granularity, IndexType, LevelConfig,
    MAX_LEVELS, METADATA_BLOCK_SIZE_RANGE, NUM_LEVELS_RANGE, OutputCuts, PAGE_BYTES_RANGE, SIZE_RATIO_RANGE,
};
use lsm_core::error::{Error, Result};
use lsm_core::pacing::{LEVEL0_TRIGGER_RANGE, WriteStallConfig};
use lsm_core::universal::{self, StopStyle, UniversalConfig};

use super::ini::{Ini, Section, parse_struct};
use super::{Import, Warning, WarningKind, number};

/// RocksDB's defaults for the options the import reads.
const DEFAULT_WRITE_BUFFER_SIZE: u64 = 64 << 20;
const DEFAULT_BLOCK_SIZE: u64 = 4096;
const DEFAULT_NUM_LEVELS: u64 = 7;
const DEFAULT_L0_TRIGGER: u64 = 4;
const DEFAULT_LEVEL_BASE: u64 = 256 << 20;
const DEFAULT_MULTIPLIER: f64 = 10.0;
const DEFAULT_TARGET_FILE_SIZE: u64 = 64 << 20;
/// The internal block cache RocksDB creates when none is configured: 8 MiB through the 7.x
/// releases (7.8's table.h: "an 8MB internal cache"), 32 MiB in 8.x.
const DEFAULT_BLOCK_CACHE_7: u64 = 8 << 20;
const DEFAULT_BLOCK_CACHE: u64 = 32 << 20;
/// The first release whose internal block cache is `DEFAULT_BLOCK_CACHE`.
const LARGER_BLOCK_CACHE_SINCE: (u64, u64) = (8, 0);
/// `LRUCacheOptions::high_pri_pool_ratio`'s default (7.x and 8.x).
const ROCKSDB_HIGH_PRI_POOL_RATIO: f64 = 0.5;
/// `BlockBasedTableOptions::format_version` defaults to 5 (FastLocalBloom filters) from this
/// release on; 4 before.
const FORMAT_VERSION_5_SINCE: (u64, u64) = (6, 19);
/// `level_compaction_dynamic_level_bytes` defaults to true from this release on.
const DYNAMIC_LEVEL_BYTES_SINCE: (u64, u64) = (8, 4);

/// Options read from one section, remembering which were used.
struct Reader<'a> {
    section: Option<&'a Section>,
    used: FxHashSet<&'static str>,
}

impl<'a> Reader<'a> {
    fn new(section: Option<&'a Section>) -> Reader<'a> {
        Reader { section, used: FxHashSet::default() }
    }

    fn raw(&mut self, name: &'static str) -> Option<&'a str> {
        self.used.insert(name);
        self.section.and_then(|s| s.get(name))
    }

    /// Parse `name`'s value; a bad value's error names the option and its line in the file.
    fn parsed<T>(&mut self, name: &'static str, parse: impl Fn(&str, &str) -> Result<T>) -> Result<Option<T>> {
        self.used.insert(name);
        let Some(entry) = self.section.and_then(|s| s.entry(name)) else { return Ok(None) };
        parse(name, &entry.value).map(Some).map_err(|e| match e {
            Error::Invalid { field, message } => {
                Error::Invalid { field: format!("{field} (line {})", entry.line), message }
            }
            other => other,
        })
    }

    fn size(&mut self, name: &'static str) -> Result<Option<u64>> {
        self.parsed(name, parse_size)
    }

    fn float(&mut self, name: &'static str) -> Result<Option<f64>> {
        self.parsed(name, |name, v| {
            v.parse::<f64>().map_err(|_| Error::invalid(name, format!("must be a number, got \"{v}\"")))
        })
    }

    fn boolean(&mut self, name: &'static str) -> Result<Option<bool>> {
        self.parsed(name, parse_bool)
    }

    /// Names in the section this import did not use, as `Section.name`.
    fn unused(&self, prefix: &str, out: &mut Vec<String>) {
        if let Some(s) = self.section {
            let mut seen = FxHashSet::default();
            for e in &s.entries {
                if !self.used.contains(e.name.as_str()) && seen.insert(e.name.as_str()) {
                    out.push(format!("{prefix}.{}", e.name));
                }
            }
        }
    }
}

/// An unsigned size with RocksDB's optional k/m/g/t suffix (powers of 1024).
fn parse_size(name: &str, v: &str) -> Result<u64> {
    let bad =
        || Error::invalid(name, format!("must be an integer in [0, 2^64 − 1] (k/m/g/t suffix allowed), got \"{v}\""));
    let (digits, shift) = match v.chars().last() {
        Some('k' | 'K') => (&v[..v.len() - 1], 10),
        Some('m' | 'M') => (&v[..v.len() - 1], 20),
        Some('g' | 'G') => (&v[..v.len() - 1], 30),
        Some('t' | 'T') => (&v[..v.len() - 1], 40),
        _ => (v, 0),
    };
    let n: u64 = digits.trim().parse().map_err(|_| bad())?;
    n.checked_mul(1u64 << shift).ok_or_else(bad)
}

fn parse_bool(name: &str, v: &str) -> Result<bool> {
    match v {
        "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        _ => Err(Error::invalid(name, format!("must be true or false, got \"{v}\""))),
    }
}

/// `rocksdb_version=8.10.0` → (8, 10).
fn version(ini: &Ini) -> Option<(u64, u64)> {
    let v = ini.section("Version", None)?.get("rocksdb_version")?;
    let mut parts = v.split('.').map(|p| p.trim().parse::<u64>().ok());
    Some((parts.next()??, parts.next().flatten().unwrap_or(0)))
}

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

/// `compaction_pri` as the engine's file pick. Leveled compaction always moves a file that
/// overlaps nothing below (RocksDB has no option to turn trivial moves off), so the import turns
/// them on; the two size- and age-based priorities have no engine mechanism and become RocksDB's
/// default, with a warning.
fn file_pick(pri: Option<&str>, granularity: Granularity, warnings: &mut Vec<Warning>) -> Result<FilePick> {
    if granularity != Granularity::File {
        return Ok(FilePick::RoundRobin);
    }
    Ok(match pri.unwrap_or("kMinOverlappingRatio") {
        "kMinOverlappingRatio" => FilePick::MinOverlappingRatio,
        "kRoundRobin" => FilePick::RoundRobin,
        other @ ("kByCompensatedSize" | "kOldestLargestSeqFirst" | "kOldestSmallestSeqFirst") => {
            warnings.push(Warning::new(
                "compaction.pick",
                WarningKind::Approximated,
                format!(
                    "compaction_pri {other} has no engine mechanism; kMinOverlappingRatio (RocksDB's default) used"
                ),
            ));
            FilePick::MinOverlappingRatio
        }
        other => {
            return Err(Error::invalid(
                "compaction_pri",
                format!(
                    "must be kByCompensatedSize, kOldestLargestSeqFirst, kOldestSmallestSeqFirst, \
                     kMinOverlappingRatio or kRoundRobin, got \"{other}\""
                ),
            ));
        }
    })
}

fn default_filter() -> FilterConfig {
    FilterConfig::bloom(Allocation::Uniform, 0.0)
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

fn ratio(value: f64, option: &str, level: usize, warnings: &mut Vec<Warning>) -> f64 {
    let (lo, hi) = SIZE_RATIO_RANGE;
    let r = if value.is_finite() { value.clamp(lo, hi) } else { lo };
    if r != value {
        warnings.push(Warning::new(
            format!("levels[{}].size_ratio", level - 1),
            WarningKind::Rounded,
            format!("{option} gives level {level} a size ratio of {}; the engine needs [{lo}, {hi}]", number(value, 4)),
        ));
    }
    r
}

/// Leveled compaction. A trigger of 1 compacts every flush into L1 (engine level i = Li); a
/// larger trigger keeps that many flushes in L0, a tiered engine level 1 (engine level i+1 = Li).
/// Returns the levels, the granularity and, with `level_compaction_dynamic_level_bytes`, the
/// number of levels the engine's dynamic mode takes (`compaction.num_levels`).
fn level_shape(
    ini: &Ini,
    cf: &mut Reader,
    wbs: u64,
    num_levels: u64,
    warnings: &mut Vec<Warning>,
) -> Result<(Vec<LevelConfig>, Granularity, Option<u32>)> {
    let trigger = cf.size("level0_file_num_compaction_trigger")?.unwrap_or(DEFAULT_L0_TRIGGER).max(1);
    let base = cf.size("max_bytes_for_level_base")?.unwrap_or(DEFAULT_LEVEL_BASE) as f64;
    let multiplier = cf.float("max_bytes_for_level_multiplier")?.unwrap_or(DEFAULT_MULTIPLIER);
    let additional: Vec<f64> = match cf.raw("max_bytes_for_level_multiplier_additional") {
        Some(list) => super::ini::split_list(list)
            .iter()
            .filter(|s| !s.is_empty())
            .map(|s| {
                s.parse::<f64>().map_err(|_| {
                    Error::invalid("max_bytes_for_level_multiplier_additional", format!("\"{s}\" is not a number"))
                })
            })
            .collect::<Result<_>>()?,
        None => Vec::new(),
    };
    let dynamic = match cf.boolean("level_compaction_dynamic_level_bytes")? {
        Some(d) => d,
        None => version(ini).is_some_and(|v| v >= DYNAMIC_LEVEL_BYTES_SINCE),
    };
    // Merges by file: engine level 1 is L0 (up to trigger − 1 flushed files at rest), and its
    // size ratio sets L1's capacity relative to the buffer (with dynamic level bytes,
    // max_bytes_for_level_base, the base level's largest target).
    if trigger == 1 {
        warnings.push(Warning::new(
            "levels[0].max_runs",
            WarningKind::Approximated,
            "level0_file_num_compaction_trigger = 1 compacts every flush; the engine keeps one flushed file \
             in level 1 before it merges",
        ));
    }
    let mut levels = vec![LevelConfig {
        size_ratio: ratio(base / wbs as f64, "max_bytes_for_level_base", 1, warnings),
        max_runs: (trigger - 1).max(1) as u32,
        bits_per_key: None,
    }];
    if dynamic {
        // One multiplier for every level (`levels[1]`, repeated below); the engine's dynamic
        // mode takes RocksDB's last level from num_levels.
        if additional.iter().any(|&a| a != 1.0) {
            warnings.push(Warning::new(
                "levels",
                WarningKind::Dropped,
                "max_bytes_for_level_multiplier_additional: RocksDB itself ignores it with \
                 level_compaction_dynamic_level_bytes, and so does the engine",
            ));
        }
        let n = engine_num_levels(num_levels, "dynamic level bytes needs L0 and a last level", warnings);
        levels.push(LevelConfig {
            size_ratio: ratio(multiplier, "max_bytes_for_level_multiplier", 2, warnings),
            max_runs: 1,
            bits_per_key: None,
        });
        return Ok((levels, Granularity::File, Some(n)));
    }
    let factor = |rocks_level: usize| multiplier * additional.get(rocks_level - 1).copied().unwrap_or(1.0);
    let rocks_levels = usize::try_from(num_levels).unwrap_or(MAX_LEVELS).min(MAX_LEVELS + 1);
    for rocks_level in 2..rocks_levels {
        let level = levels.len() + 1;
        if level > MAX_LEVELS {
            break;
        }
        let r = ratio(factor(rocks_level), "max_bytes_for_level_multiplier", level, warnings);
        levels.push(LevelConfig { size_ratio: r, max_runs: 1, bits_per_key: None });
    }
    // RocksDB's leveled compaction always works file by file.
    Ok((levels, Granularity::File, None))
}

/// Universal compaction's `levels`: they give only bits per key (one entry, repeated), the
/// picker reads no size ratio or run count.
const UNIVERSAL_LEVELS: LevelConfig = LevelConfig { size_ratio: DEFAULT_MULTIPLIER, max_runs: 1, bits_per_key: None };

/// `compaction_options_universal` and the trigger as `compaction.universal`, with RocksDB's
/// defaults for what the file leaves out, and `num_levels` in the engine's range. Values the
/// engine reads differently are rounded with a warning; options it does not model are named.
fn universal_shape(
    cf: &mut Reader,
    num_levels: u64,
    warnings: &mut Vec<Warning>,
    unknown: &mut Vec<String>,
) -> Result<(UniversalConfig, u32)> {
    let options = match cf.raw("compaction_options_universal") {
        Some(v) => parse_struct(v)?,
        None => Vec::new(),
    };
    let mut u = UniversalConfig::default();
    let field = |name: &str| format!("compaction.universal.{name}");
    let as_u32 = |name: &str, v: &str| -> Result<u32> {
        let n = parse_size(&format!("compaction_options_universal.{name}"), v)?;
        Ok(u32::try_from(n).unwrap_or(u32::MAX))
    };
    for (name, value) in &options {
        let option = format!("compaction_options_universal.{name}");
        match name.as_str() {
            "size_ratio" => u.size_ratio = as_u32(name, value)?,
            "min_merge_width" => u.min_merge_width = as_u32(name, value)?,
            "max_merge_width" => u.max_merge_width = as_u32(name, value)?,
            "max_size_amplification_percent" => u.max_size_amplification_percent = as_u32(name, value)?,
            "stop_style" => {
                u.stop_style = match value.as_str() {
                    "kCompactionStopStyleTotalSize" => StopStyle::TotalSize,
                    "kCompactionStopStyleSimilarSize" => StopStyle::SimilarSize,
                    other => {
                        return Err(Error::invalid(
                            option,
                            format!(
                                "must be kCompactionStopStyleTotalSize or kCompactionStopStyleSimilarSize, got \"{other}\""
                            ),
                        ));
                    }
                }
            }
            "allow_trivial_move" => u.allow_trivial_move = parse_bool(&option, value)?,
            "compression_size_percent" => {
                if value.trim() != "-1" {
                    warnings.push(Warning::new(
                        "compaction.universal",
                        WarningKind::Dropped,
                        format!("{option}={value}: the engine stores pages uncompressed"),
                    ));
                }
            }
            "incremental" => {
                if parse_bool(&option, value)? {
                    warnings.push(Warning::new(
                        "compaction.universal",
                        WarningKind::Approximated,
                        format!("{option}=true (RocksDB's experimental incremental size-amplification merges) is not modelled: whole sorted runs merge"),
                    ));
                }
            }
            _ => unknown.push(format!("CFOptions.{option}")),
        }
    }
    let trigger = cf.size("level0_file_num_compaction_trigger")?.unwrap_or(DEFAULT_L0_TRIGGER);
    let (lo, hi) = universal::TRIGGER_RANGE;
    u.level0_file_num_compaction_trigger = trigger.clamp(u64::from(lo), u64::from(hi)) as u32;
    if u64::from(u.level0_file_num_compaction_trigger) != trigger {
        warnings.push(Warning::new(
            field("level0_file_num_compaction_trigger"),
            WarningKind::Rounded,
            format!(
                "level0_file_num_compaction_trigger {trigger} becomes {} (the engine takes [{lo}, {hi}])",
                u.level0_file_num_compaction_trigger
            ),
        ));
    }
    let (_, hi) = universal::SIZE_RATIO_PERCENT_RANGE;
    if u.size_ratio > hi {
        warnings.push(Warning::new(
            field("size_ratio"),
            WarningKind::Rounded,
            format!("size_ratio {} becomes {hi} (the engine's largest; either joins every run)", u.size_ratio),
        ));
        u.size_ratio = hi;
    }
    // RocksDB merges at least two runs whatever min_merge_width says.
    if u.min_merge_width < universal::MIN_MERGE_WIDTH {
        warnings.push(Warning::new(
            field("min_merge_width"),
            WarningKind::Rounded,
            format!("min_merge_width {} becomes 2, as RocksDB reads it", u.min_merge_width),
        ));
        u.min_merge_width = universal::MIN_MERGE_WIDTH;
    }
    if u.max_merge_width < u.min_merge_width {
        warnings.push(Warning::new(
            field("max_merge_width"),
            WarningKind::Approximated,
            format!(
                "max_merge_width {} below min_merge_width {}: RocksDB would never merge by size ratio or run count; \
                 the engine merges min_merge_width runs",
                u.max_merge_width, u.min_merge_width
            ),
        ));
        u.max_merge_width = u.min_merge_width;
    }
    let n = engine_num_levels(num_levels, "the engine's universal tree has L0 and at least one level", warnings);
    // Options of leveled compaction that RocksDB's universal picker never reads: named, as the
    // engine ignores them too.
    let ignored: Vec<&str> = [
        "max_bytes_for_level_base",
        "max_bytes_for_level_multiplier",
        "max_bytes_for_level_multiplier_additional",
        "level_compaction_dynamic_level_bytes",
        "level_compaction_dynamic_file_size",
        "compaction_pri",
    ]
    .into_iter()
    .filter(|name| cf.raw(name).is_some())
    .collect();
    if !ignored.is_empty() {
        warnings.push(Warning::new(
            "compaction.universal",
            WarningKind::Dropped,
            format!("{}: leveled compaction's options, which universal compaction does not read", ignored.join(", ")),
        ));
    }
    Ok((u, n))
}

/// What `filter_policy` builds: bits per key, the filter kind and Ribbon's `bloom_before_level`.
struct FilterPolicy {
    bits: f64,
    kind: FilterKind,
    bloom_before_level: i32,
}

/// `filter_policy` (RocksDB 7.x spellings and the older names) under `format_version`:
/// `bloomfilter:N:false` builds FastLocalBloom from format_version 5 on and the legacy Bloom
/// filter below it; `ribbonfilter:N:L` a Standard128Ribbon with Bloom-equivalent N bits per key
/// and FastLocalBloom before level L (7.8 writes L; 0 when absent).
fn filter_policy(policy: Option<&str>, format_version: u64, warnings: &mut Vec<Warning>) -> FilterPolicy {
    let none = FilterPolicy { bits: 0.0, kind: FilterKind::Bloom, bloom_before_level: 0 };
    let Some(policy) = policy.map(str::trim).filter(|p| !p.is_empty() && *p != "nullptr") else {
        return none;
    };
    let parts: Vec<&str> = policy.split(':').collect();
    let bits = parts.get(1).and_then(|b| b.trim().parse::<f64>().ok());
    let bloom = |bits: f64, warnings: &mut Vec<Warning>| {
        if format_version >= 5 {
            return FilterPolicy { bits, kind: FilterKind::FastLocalBloom, bloom_before_level: 0 };
        }
        warnings.push(Warning::new(
            "filter.kind",
            WarningKind::Approximated,
            format!(
                "{policy} with format_version={format_version}: RocksDB's legacy Bloom filter (cache-local, about \
                 1.14% false positives at 10 bits/key), imported as the textbook Bloom filter"
            ),
        ));
        FilterPolicy { bits, kind: FilterKind::Bloom, bloom_before_level: 0 }
    };
    match (parts[0], bits) {
        ("bloomfilter" | "rocksdb.BloomFilter", Some(b)) => bloom(b.clamp(0.0, 64.0), warnings),
        ("ribbonfilter" | "rocksdb.RibbonFilter", Some(b)) => {
            let (lo, hi) = BLOOM_BEFORE_LEVEL_RANGE;
            let level = parts.get(2).and_then(|l| l.trim().parse::<i64>().ok()).unwrap_or(0);
            if level < i64::from(lo) || level > i64::from(hi) {
                warnings.push(Warning::new(
                    "filter.bloom_before_level",
                    WarningKind::Approximated,
                    format!("{policy}: bloom_before_level {level} clamped to [{lo}, {hi}]"),
                ));
            }
            FilterPolicy {
                bits: b.clamp(0.0, 64.0),
                kind: FilterKind::Ribbon,
                bloom_before_level: level.clamp(i64::from(lo), i64::from(hi)) as i32,
            }
        }
        _ => {
            warnings.push(Warning::new(
                "filter.bits_per_key",
                WarningKind::Approximated,
                format!("filter_policy \"{policy}\" does not record its bits per key here; 10 assumed"),
            ));
            bloom(10.0, warnings)
        }
    }
}

fn block_cache(table: &mut Reader, default_bytes: u64, warnings: &mut Vec<Warning>) -> Result<BlockCacheConfig> {
    let no_cache = table.boolean("no_block_cache")?.unwrap_or(false);
    let cache_index = table.boolean("cache_index_and_filter_blocks")?.unwrap_or(false);
    let pin_l0 = table.boolean("pin_l0_filter_and_index_blocks_in_cache")?.unwrap_or(false);
    if pin_l0 && !cache_index {
        warnings.push(Warning::new(
            "block_cache.pin_l0_filter_and_index_blocks_in_cache",
            WarningKind::Dropped,
            "true has no effect without cache_index_and_filter_blocks: every file's index and filter are pinned",
        ));
    }
    // RocksDB's LRUCache: a high-priority pool of half the capacity by default, which a block
    // enters once it has been hit.
    let mut config = BlockCacheConfig {
        bytes: 0,
        cache_index_and_filter_blocks: cache_index,
        pin_l0_filter_and_index_blocks_in_cache: pin_l0 && cache_index,
        high_priority_ratio: ROCKSDB_HIGH_PRI_POOL_RATIO,
        midpoint_insertion: true,
        ..BlockCacheConfig::default()
    };
    partitioned_metadata(table, &mut config, warnings)?;
    if no_cache {
        let (index_type, partition_filters, metadata_block_size, pin_top_level_index_and_filter) = (
            config.index_type,
            config.partition_filters,
            config.metadata_block_size,
            config.pin_top_level_index_and_filter,
        );
        return Ok(BlockCacheConfig {
            index_type,
            partition_filters,
            metadata_block_size,
            pin_top_level_index_and_filter,
            ..BlockCacheConfig::default()
        });
    }
    match table.raw("block_cache") {
        Some(v) if v.contains('=') => {
            for (name, value) in parse_struct(v)? {
                match name.as_str() {
                    "capacity" => config.bytes = parse_size("block_cache.capacity", &value)?,
                    "high_pri_pool_ratio" => {
                        config.high_priority_ratio = value.parse::<f64>().map_err(|_| {
                            Error::invalid(
                                "block_cache.high_pri_pool_ratio",
                                format!("must be a number, got \"{value}\""),
                            )
                        })?
                    }
                    other => warnings.push(Warning::new(
                        "block_cache",
                        WarningKind::Dropped,
                        format!("block_cache option {other}={value} has no engine equivalent"),
                    )),
                }
            }
        }
        Some(v) => config.bytes = parse_size("block_cache", v)?,
        None => {
            config.bytes = default_bytes;
            warnings.push(Warning::new(
                "block_cache.bytes",
                WarningKind::Approximated,
                format!(
                    "no block_cache set: RocksDB creates its default internal cache, {default_bytes} bytes for this \
                     file's rocksdb_version (8 MiB before 8.0, 32 MiB since; 32 MiB when the file names no version)"
                ),
            ));
        }
    }
    config.bytes = config.bytes.min(1 << 40);
    config.high_priority_ratio = config.high_priority_ratio.clamp(0.0, 1.0);
    config.midpoint_insertion = config.high_priority_ratio > 0.0;
    Ok(config)
}

/// RocksDB's partitioned metadata: `index_type` (binary search or two-level; the others are
/// read as binary search), `partition_filters` (RocksDB ignores it without a two-level index),
/// `metadata_block_size` and `pin_top_level_index_and_filter`; `metadata_cache_options` other
/// than its fallbacks is named as not modelled.
fn partitioned_metadata(table: &mut Reader, config: &mut BlockCacheConfig, warnings: &mut Vec<Warning>) -> Result<()> {
    match table.raw("index_type") {
        None | Some("kBinarySearch") => {}
        Some("kTwoLevelIndexSearch") => config.index_type = IndexType::TwoLevelIndexSearch,
        Some(other) => warnings.push(Warning::new(
            "block_cache.index_type",
            WarningKind::Approximated,
            format!(
                "index_type {other}: imported as kBinarySearch (the engine builds binary-search and two-level indexes)"
            ),
        )),
    }
    if table.boolean("partition_filters")?.unwrap_or(false) {
        if config.index_type == IndexType::TwoLevelIndexSearch {
            config.partition_filters = true;
        } else {
            warnings.push(Warning::new(
                "block_cache.partition_filters",
                WarningKind::Dropped,
                "true without index_type=kTwoLevelIndexSearch: RocksDB ignores it too (filter partitions follow the index's)",
            ));
        }
    }
    if let Some(size) = table.size("metadata_block_size")? {
        let (lo, hi) = METADATA_BLOCK_SIZE_RANGE;
        config.metadata_block_size = size.clamp(lo, hi);
        if config.metadata_block_size != size {
            warnings.push(Warning::new(
                "block_cache.metadata_block_size",
                WarningKind::Rounded,
                format!(
                    "metadata_block_size {size} becomes {}: the engine's range is [{lo}, {hi}]",
                    config.metadata_block_size
                ),
            ));
        }
    }
    if let Some(pin) = table.boolean("pin_top_level_index_and_filter")? {
        config.pin_top_level_index_and_filter = pin;
    }
    if let Some(m) = table.raw("metadata_cache_options") {
        let fallback_only = parse_struct(m)?.iter().all(|(_, v)| v == "kFallback");
        if !fallback_only {
            warnings.push(Warning::new(
                "block_cache",
                WarningKind::Dropped,
                format!(
                    "metadata_cache_options {m}: not modelled; pinning follows pin_top_level_index_and_filter and \
                     pin_l0_filter_and_index_blocks_in_cache (the kFallback rules)"
                ),
            ));
        }
    }
    Ok(())
}

/// Drop trailing level entries equal to the one before: the last entry repeats anyway.
fn collapse(levels: &mut Vec<LevelConfig>) {
    while levels.len() > 1 && levels[levels.len() - 1] == levels[levels.len() - 2] {
        levels.pop();
    }
}

/// RocksDB's `num_levels` in the engine's range (`NUM_LEVELS_RANGE`), with a warning that says
/// `why` when it had to move.
fn engine_num_levels(num_levels: u64, why: &str, warnings: &mut Vec<Warning>) -> u32 {
    let (lo, hi) = NUM_LEVELS_RANGE;
    let n = num_levels.clamp(u64::from(lo), u64::from(hi)) as u32;
    if u64::from(n) != num_levels {
        warnings.push(Warning::new(
            "compaction.num_levels",
            WarningKind::Rounded,
            format!("num_levels {num_levels} becomes {n}: {why}, at most {hi} levels"),
        ));
    }
    n
}

/// RocksDB's write-stall thresholds (defaults: 7.8's). A level-0 trigger below 1 (RocksDB: a
/// negative slowdown trigger turns the slowdown off) is raised to the range's floor or, for the
/// slowdown, to the stop trigger; a slowdown trigger above the stop trigger is lowered to it; a
/// soft byte limit above the hard one is lowered to it — each with a warning.
fn write_stalls(cf: &mut Reader<'_>, warnings: &mut Vec<Warning>) -> Result<WriteStallConfig> {
    let int = |name: &str, v: &str| {
        v.trim().parse::<i64>().map_err(|_| Error::invalid(name, format!("must be an integer, got \"{v}\"")))
    };
    let defaults = WriteStallConfig::default();
    let (lo, hi) = LEVEL0_TRIGGER_RANGE;
    let stop_raw =
        cf.parsed("level0_stop_writes_trigger", int)?.unwrap_or(i64::from(defaults.level0_stop_writes_trigger));
    let stop = stop_raw.clamp(i64::from(lo), i64::from(hi)) as u32;
    if i64::from(stop) != stop_raw {
        warnings.push(Warning::new(
            "write_stalls.level0_stop_writes_trigger",
            WarningKind::Rounded,
            format!("level0_stop_writes_trigger {stop_raw} is outside [{lo}, {hi}]; {stop} used"),
        ));
    }
    let slow_raw =
        cf.parsed("level0_slowdown_writes_trigger", int)?.unwrap_or(i64::from(defaults.level0_slowdown_writes_trigger));
    let slow = if slow_raw < 1 { stop } else { slow_raw.min(i64::from(stop)) as u32 };
    if i64::from(slow) != slow_raw {
        warnings.push(Warning::new(
            "write_stalls.level0_slowdown_writes_trigger",
            WarningKind::Approximated,
            format!(
                "level0_slowdown_writes_trigger {slow_raw}: the engine slows writes down by level-0 files from [{lo}, \
                 level0_stop_writes_trigger = {stop}]; {slow} used"
            ),
        ));
    }
    let hard = cf.size("hard_pending_compaction_bytes_limit")?.unwrap_or(defaults.hard_pending_compaction_bytes_limit);
    let soft_raw =
        cf.size("soft_pending_compaction_bytes_limit")?.unwrap_or(defaults.soft_pending_compaction_bytes_limit);
    let soft = if hard != 0 { soft_raw.min(hard) } else { soft_raw };
    if soft != soft_raw {
        warnings.push(Warning::new(
            "write_stalls.soft_pending_compaction_bytes_limit",
            WarningKind::Rounded,
            format!("soft_pending_compaction_bytes_limit {soft_raw} is above the hard limit; {soft} used"),
        ));
    }
    Ok(WriteStallConfig {
        level0_slowdown_writes_trigger: slow,
        level0_stop_writes_trigger: stop,
        soft_pending_compaction_bytes_limit: soft,
        hard_pending_compaction_bytes_limit: hard,
    })
}

//! EngineConfig → RocksDB OPTIONS file (INI, as `LoadOptionsFromFile` reads it, RocksDB 7.x+).
//!
//! Only options the design decides are written; everything else keeps RocksDB's defaults.
//! Each option carries a comment saying which design field it comes from and how it was
//! converted; whatever RocksDB cannot express is listed at the top as `# LOSSY` lines, which
//! are exactly the returned warnings.

use lsm_core::config::{
    Allocation, BufferTrigger, EngineConfig, FilePick, FilterKind, FilterSkip, Granularity, IndexType, MonkeyPolicy,
    OutputCuts,
};
use lsm_core::universal::{StopStyle, UniversalConfig};
use lsm_core::workload::Workload;

use super::mapping::{MEMTABLE_ENTRY_OVERHEAD, Mapping, SST_ENTRY_OVERHEAD, Style};
use super::{Export, Warning, WarningKind, number, one_line};

/// RocksDB's defaults for the options the export sets conditionally.
pub(crate) const DEFAULT_TARGET_FILE_SIZE_BASE: u64 = 64 << 20;

/// One line of an OPTIONS section, in file order: a statement, or the comment explaining the next.
#[derive(Clone, Debug, PartialEq)]
enum Line {
    Note(String),
    Set(String, String),
}

/// One section of an exported OPTIONS file (`CFOptions "default"`), its statements in file order
/// with the comments that explain them.
#[derive(Clone, Debug, PartialEq)]
pub struct OptionsSection {
    /// The section's title as the file writes it between brackets (`TableOptions/BlockBasedTable "default"`).
    pub name: String,
    lines: Vec<Line>,
}

impl OptionsSection {
    fn new(name: &str) -> OptionsSection {
        OptionsSection { name: name.to_string(), lines: Vec::new() }
    }

    fn note(&mut self, text: impl AsRef<str>) {
        self.lines.push(Line::Note(text.as_ref().to_string()));
    }

    fn set(&mut self, name: &str, value: impl AsRef<str>) {
        self.lines.push(Line::Set(name.to_string(), value.as_ref().to_string()));
    }

    /// `(option, value)` in file order.
    pub fn options(&self) -> impl Iterator<Item = (&str, &str)> {
        self.lines.iter().filter_map(|l| match l {
            Line::Set(k, v) => Some((k.as_str(), v.as_str())),
            Line::Note(_) => None,
        })
    }

    fn render(&self, out: &mut String) {
        out.push('[');
        out.push_str(&self.name);
        out.push_str("]\n");
        for line in &self.lines {
            match line {
                Line::Note(text) => out.push_str(&format!("  # {text}\n")),
                Line::Set(k, v) => out.push_str(&format!("  {k}={v}\n")),
            }
        }
    }
}

/// An OPTIONS file as the exporter builds it: its sections and what RocksDB cannot express of the
/// design, before it is written out as text. The tuner compares designs on this, never on text.
#[derive(Clone, Debug, PartialEq)]
pub struct RocksdbOptions {
    /// `Version`, `DBOptions`, `CFOptions "default"`, `TableOptions/BlockBasedTable "default"`.
    pub sections: Vec<OptionsSection>,
    /// Every setting the file cannot express exactly (each is also a `LOSSY` comment of the text).
    pub warnings: Vec<Warning>,
    /// The comment block the file opens with.
    preamble: String,
}

impl RocksdbOptions {
    /// `(section, option, value)` of every statement, in file order.
    pub fn entries(&self) -> impl Iterator<Item = (&str, &str, &str)> {
        self.sections.iter().flat_map(|s| s.options().map(move |(k, v)| (s.name.as_str(), k, v)))
    }

    /// The value `option` has in `section`, if the file sets it.
    pub fn get(&self, section: &str, option: &str) -> Option<&str> {
        self.entries().find(|&(s, k, _)| s == section && k == option).map(|(_, _, v)| v)
    }

    /// The file, as `LoadOptionsFromFile` reads it.
    pub fn render(&self) -> String {
        let mut text = self.preamble.clone();
        for section in &self.sections {
            section.render(&mut text);
            text.push('\n');
        }
        text.pop();
        text
    }
}

/// Warnings keyed by field, so a level entry repeated over many RocksDB levels is listed once.
#[derive(Default)]
struct Lossy(Vec<Warning>);

impl Lossy {
    fn add(&mut self, field: impl Into<String>, kind: WarningKind, message: impl Into<String>) {
        let field = field.into();
        if !self.0.iter().any(|w| w.field == field && w.kind == kind) {
            self.0.push(Warning::new(field, kind, message));
        }
    }
}

/// The OPTIONS file for `config` (sized for `workload` when given), as structure.
pub(crate) fn options(config: &EngineConfig, workload: Option<&Workload>) -> RocksdbOptions {
    let m = Mapping::new(config, workload);
    let mut lossy = Lossy::default();
    let mut version = OptionsSection::new("Version");
    version.set("rocksdb_version", "7.0.0");
    version.set("options_file_version", "1.1");
    let mut db = OptionsSection::new("DBOptions");
    db.set("create_if_missing", "true");
    let mut cf = OptionsSection::new("CFOptions \"default\"");
    let mut table = OptionsSection::new("TableOptions/BlockBasedTable \"default\"");

    write_buffer(&m, workload, &mut cf, &mut lossy);
    match m.style {
        Style::Leveled | Style::L0Tiered => leveled(&m, &mut cf, &mut lossy),
        Style::Universal => match &config.compaction.universal {
            Some(options) => universal_compaction(&m, options, &mut cf, &mut lossy),
            None => universal(&m, &mut cf, &mut lossy),
        },
    }
    cf.note("the engine stores pages uncompressed; so does this RocksDB");
    cf.set("compression", "kNoCompression");
    let drop_last_filter = filters(&m, &mut table, &mut lossy);
    cf.set("optimize_filters_for_hits", if drop_last_filter { "true" } else { "false" });
    cf.set("table_factory", "BlockBasedTable");
    cache(config, &mut table, &mut lossy);

    let preamble = header(config, workload, &m, &lossy.0);
    RocksdbOptions { sections: vec![version, db, cf, table], warnings: lossy.0, preamble }
}

pub(crate) fn options_file(config: &EngineConfig, workload: Option<&Workload>) -> Export {
    let o = options(config, workload);
    Export { text: o.render(), warnings: o.warnings }
}

fn header(config: &EngineConfig, workload: Option<&Workload>, m: &Mapping, warnings: &[Warning]) -> String {
    let mut h = String::new();
    let name = if config.name.is_empty() { "unnamed".to_string() } else { one_line(&config.name) };
    h.push_str(&format!("# RocksDB OPTIONS file exported by LSM Navigator from design \"{name}\".\n"));
    h.push_str("# Load it with rocksdb::LoadOptionsFromFile (RocksDB 7.x or later) or db_bench --options_file.\n");
    h.push_str("#\n");
    let shape = match m.style {
        Style::Leveled => "leveled compaction; engine level i is RocksDB level Li, L0 only stages flushes",
        Style::L0Tiered => "leveled compaction; engine level 1 (tiered) is L0, engine level i+1 is Li",
        Style::Universal if config.compaction.universal.is_some() => {
            "universal compaction (compaction.universal); engine level 1 is L0, engine level i+1 is Li"
        }
        Style::Universal => "universal compaction (tiered levels)",
    };
    h.push_str(&format!("# Shape: {shape}; {} engine levels described", m.depth));
    match workload {
        Some(w) => h.push_str(&format!(" (as deep as workload \"{}\" fills).\n", one_line(&w.name))),
        None => h.push_str(" (RocksDB's default tree; export with a workload to size it).\n"),
    }
    if config.filter.kind == FilterKind::Bloom || config.filter.kind == FilterKind::Modular {
        h.push_str("# Filters: RocksDB's Bloom filter is cache-local (FastLocalBloom); at the same bits per key its\n");
        h.push_str("# false-positive rate is somewhat above the engine's standard Bloom filter.\n");
    }
    h.push_str("#\n");
    if warnings.is_empty() {
        h.push_str("# Lossless: every setting of the design is expressed below.\n");
    } else {
        h.push_str("# Not expressible in RocksDB (dropped, rounded or approximated):\n");
        for w in warnings {
            h.push_str(&w.comment_line("#"));
            h.push('\n');
        }
    }
    h.push('\n');
    h
}

fn write_buffer(m: &Mapping, workload: Option<&Workload>, cf: &mut OptionsSection, lossy: &mut Lossy) {
    let buffer = m.config.buffer_bytes;
    if m.config.buffer_trigger == BufferTrigger::Arena {
        // Already counted as RocksDB's arena counts write_buffer_size.
        cf.note(format!("buffer_bytes {buffer} arena bytes (buffer_trigger arena), copied 1:1"));
        cf.set("write_buffer_size", buffer.to_string());
        return;
    }
    let bytes = (buffer as f64 * m.memtable_scale()).round() as u64;
    match (workload, m.entry_bytes) {
        (Some(_), Some(e)) => cf.note(format!(
            "buffer_bytes {buffer} entry bytes = {} entries of {} B; RocksDB's memtable spends ~{} B more per entry",
            number((buffer as f64 / e).round(), 0),
            number(e, 0),
            number(MEMTABLE_ENTRY_OVERHEAD, 0),
        )),
        _ => {
            cf.note(format!("buffer_bytes {buffer} entry bytes, copied 1:1"));
            lossy.add(
                "buffer_bytes",
                WarningKind::Approximated,
                format!(
                    "the engine counts key + value bytes, RocksDB's write_buffer_size counts memtable memory \
                     (~{} B more per entry), so a memtable holds fewer entries; export with a workload to convert",
                    number(MEMTABLE_ENTRY_OVERHEAD, 0)
                ),
            );
        }
    }
    cf.set("write_buffer_size", bytes.to_string());
}

fn level_ratio(m: &Mapping, level: usize) -> f64 {
    m.config.level(level).size_ratio
}

fn leveled(m: &Mapping, cf: &mut OptionsSection, lossy: &mut Lossy) {
    let c = m.config;
    // With dynamic level bytes the design names RocksDB's num_levels itself: its last level is
    // the engine's last level.
    let dynamic = c.compaction.granularity == Granularity::File && c.compaction.dynamic_level_bytes;
    let num_levels = if dynamic { c.compaction.num_levels as usize } else { m.num_levels() };
    cf.set("compaction_style", "kCompactionStyleLevel");
    cf.set("num_levels", num_levels.to_string());

    let (trigger, base_level) = match m.style {
        Style::L0Tiered if c.compaction.granularity == Granularity::File => {
            // Level 1 is L0: it compacts once a flush would exceed its runs.
            let trigger = u64::from(c.levels[0].max_runs) + 1;
            cf.note(format!(
                "engine level 1 is L0: it holds {} flushed files and compacts at {trigger}",
                c.levels[0].max_runs
            ));
            (trigger, 2)
        }
        Style::L0Tiered => {
            let t1 = level_ratio(m, 1);
            let trigger = (t1.round() as u64).max(1);
            cf.note(format!(
                "engine level 1 (T = {}, {} runs) is L0: compact after {trigger} flushes",
                number(t1, 4),
                c.levels[0].max_runs
            ));
            if t1.fract() != 0.0 {
                lossy.add(
                    "levels[0].size_ratio",
                    WarningKind::Rounded,
                    format!(
                        "level 1 holds {} buffers; L0 compacts after a whole number of flushes ({trigger})",
                        number(t1, 4)
                    ),
                );
            }
            if u64::from(c.levels[0].max_runs) + 1 < trigger {
                lossy.add(
                    "levels[0].max_runs",
                    WarningKind::Dropped,
                    format!(
                        "level 1 keeps {} runs of {} buffers; each RocksDB L0 file is one flush",
                        c.levels[0].max_runs,
                        number(t1 / f64::from(c.levels[0].max_runs), 3)
                    ),
                );
            }
            (trigger, 2)
        }
        _ => {
            cf.note("each flush is compacted into L1 at once, as the engine merges its buffer into level 1");
            (1, 1)
        }
    };
    cf.set("level0_file_num_compaction_trigger", trigger.to_string());
    write_stalls(m.config, cf);

    let base = (m.capacity(base_level) * m.sst_scale()).round() as u64;
    let what = if dynamic { "largest base-level target" } else { "L1 target" };
    cf.note(format!(
        "{what} = capacity of engine level {base_level} ({} entry bytes{})",
        number(m.capacity(base_level), 0),
        if m.sst_scale() != 1.0 {
            format!(
                " × {} for SST overhead of ~{} B per entry",
                number(m.sst_scale(), 4),
                number(SST_ENTRY_OVERHEAD, 0)
            )
        } else {
            String::new()
        }
    ));
    cf.set("max_bytes_for_level_base", base.to_string());

    // Level r ≥ 2 targets level r−1 × multiplier × additional[r−1]; the additional factors are
    // integers and count only with dynamic level bytes off.
    let ratios: Vec<f64> = (2..num_levels).map(|r| m.rocks_ratio(r)).collect();
    let uniform = ratios.windows(2).all(|w| w[0] == w[1]);
    let multiplier = if uniform { ratios.first().copied().unwrap_or(10.0) } else { 1.0 };
    let mut additional = vec![1u64; num_levels];
    if !uniform {
        for (r, &t) in (2..num_levels).zip(&ratios) {
            additional[r - 1] = (t.round() as u64).max(1);
        }
    }
    for (r, &t) in (2..num_levels).zip(&ratios) {
        let realized = multiplier * additional[r - 1] as f64;
        if realized != t {
            let level = m.ratio_level(r);
            lossy.add(
                format!("levels[{}].size_ratio", m.config_index(level)),
                WarningKind::Rounded,
                format!(
                    "level {level} size ratio {} becomes {}: max_bytes_for_level_multiplier_additional takes integers",
                    number(t, 4),
                    number(realized, 4)
                ),
            );
        }
    }
    if uniform {
        cf.note("every level below L1 has the same size ratio");
    } else {
        cf.note("per-level size ratios: multiplier 1 × additional[i] (honoured only with dynamic level bytes off)");
    }
    cf.set("max_bytes_for_level_multiplier", number(multiplier, 6));
    cf.set(
        "max_bytes_for_level_multiplier_additional",
        additional.iter().map(u64::to_string).collect::<Vec<_>>().join(":"),
    );
    if dynamic {
        cf.note(format!(
            "compaction.dynamic_level_bytes: targets from the last level (L{}) up, L0 compacts into the base level",
            num_levels - 1
        ));
        cf.set("level_compaction_dynamic_level_bytes", "true");
    } else {
        cf.note("static level targets, as the engine sizes levels from the buffer down");
        cf.set("level_compaction_dynamic_level_bytes", "false");
    }

    let first_leveled = if m.style == Style::L0Tiered { 2 } else { 1 };
    for level in first_leveled..=m.depth {
        let runs = c.level(level).max_runs;
        if runs > 1 {
            lossy.add(
                format!("levels[{}].max_runs", m.config_index(level)),
                WarningKind::Dropped,
                format!(
                    "level {level} holds {runs} runs; RocksDB's leveled compaction keeps one run per level below L0"
                ),
            );
        }
    }

    match c.compaction.granularity {
        Granularity::File => {
            let target = (c.compaction.target_file_bytes as f64 * m.sst_scale()).round() as u64;
            cf.note(format!("compaction.target_file_bytes {} (file granularity)", c.compaction.target_file_bytes));
            cf.set("target_file_size_base", target.to_string());
            cf.set(
                "compaction_pri",
                match c.compaction.pick {
                    FilePick::RoundRobin => "kRoundRobin",
                    FilePick::MinOverlappingRatio => "kMinOverlappingRatio",
                },
            );
            // RocksDB's dynamic file sizes are the engine's `rocksdb` cuts; without them RocksDB
            // cuts at the target and max_compaction_bytes, nearest to LevelDB's.
            cf.set(
                "level_compaction_dynamic_file_size",
                if c.compaction.output_cuts == OutputCuts::Rocksdb { "true" } else { "false" },
            );
            if !c.compaction.trivial_moves {
                lossy.add(
                    "compaction.trivial_moves",
                    WarningKind::Approximated,
                    "RocksDB always moves a file that overlaps nothing below without rewriting it; the engine's design rewrites it",
                );
            }
        }
        Granularity::Level => {
            lossy.add(
                "compaction.granularity",
                WarningKind::Approximated,
                format!(
                    "the engine merges whole levels; RocksDB's leveled compaction merges one file at a time \
                     (target_file_size_base {} B, RocksDB's default)",
                    DEFAULT_TARGET_FILE_SIZE_BASE
                ),
            );
            cf.set("target_file_size_base", DEFAULT_TARGET_FILE_SIZE_BASE.to_string());
        }
    }
    cf.set("target_file_size_multiplier", "1");
}

/// The design's own universal compaction (`compaction.universal`): every option as it is.
fn universal_compaction(m: &Mapping, u: &UniversalConfig, cf: &mut OptionsSection, lossy: &mut Lossy) {
    let c = m.config;
    cf.set("compaction_style", "kCompactionStyleUniversal");
    cf.note("compaction.num_levels: L0 and the levels sorted runs are placed in");
    cf.set("num_levels", c.compaction.num_levels.to_string());
    let trigger = u64::from(u.level0_file_num_compaction_trigger);
    cf.note("compaction.universal.level0_file_num_compaction_trigger: sorted runs (L0 files and levels) before a compaction");
    cf.set("level0_file_num_compaction_trigger", trigger.to_string());
    write_stalls(m.config, cf);
    let stop_style = match u.stop_style {
        StopStyle::TotalSize => "kCompactionStopStyleTotalSize",
        StopStyle::SimilarSize => "kCompactionStopStyleSimilarSize",
    };
    cf.note("compaction.universal, option for option");
    cf.set(
        "compaction_options_universal",
        format!(
            "{{size_ratio={};min_merge_width={};max_merge_width={};max_size_amplification_percent={};\
             compression_size_percent=-1;stop_style={stop_style};allow_trivial_move={};incremental=false}}",
            u.size_ratio, u.min_merge_width, u.max_merge_width, u.max_size_amplification_percent, u.allow_trivial_move
        ),
    );
    match c.compaction.granularity {
        Granularity::File => {
            let target = (c.compaction.target_file_bytes as f64 * m.sst_scale()).round() as u64;
            cf.note(format!(
                "compaction.target_file_bytes {}: outputs below L0 are cut at this size",
                c.compaction.target_file_bytes
            ));
            cf.set("target_file_size_base", target.to_string());
        }
        Granularity::Level => {
            lossy.add(
                "compaction.granularity",
                WarningKind::Approximated,
                format!(
                    "the engine writes each sorted run as one file; RocksDB cuts universal outputs below L0 at \
                     target_file_size_base ({DEFAULT_TARGET_FILE_SIZE_BASE} B, RocksDB's default)"
                ),
            );
            cf.set("target_file_size_base", DEFAULT_TARGET_FILE_SIZE_BASE.to_string());
        }
    }
    cf.set("target_file_size_multiplier", "1");
    cf.set("level_compaction_dynamic_level_bytes", "false");
}

fn universal(m: &Mapping, cf: &mut OptionsSection, lossy: &mut Lossy) {
    let c = m.config;
    let k1 = u64::from(c.level(1).max_runs);
    let trigger = k1 + 1;
    cf.set("compaction_style", "kCompactionStyleUniversal");
    cf.set("num_levels", m.num_levels().to_string());

    // A tiered level merges all its runs, about K + 1 of them (never more than T arrivals).
    let tiered: Vec<usize> = (1..=m.depth).filter(|&i| c.level(i).max_runs > 1).collect();
    let width = |i: usize| (u64::from(c.level(i).max_runs) + 1).min((level_ratio(m, i).round() as u64).max(2));
    let min_width = tiered.iter().map(|&i| width(i)).min().unwrap_or(2);
    let max_width = tiered.iter().map(|&i| width(i)).max().unwrap_or(2);

    let last = m.depth;
    let leveled_last = c.level(last).max_runs == 1 && last > 1;
    let size_amp = if leveled_last {
        // Lazy leveling: merge everything into the last level once the upper levels hold what a
        // full tree's would.
        let upper: f64 = (1..last).map(|i| m.capacity(i)).sum();
        (100.0 * upper / m.capacity(last)).ceil().max(1.0)
    } else {
        // Never force a full merge the engine would not do: the worst ratio of newer runs to the
        // oldest run is reached with level d full and its first run the oldest.
        (1..=last)
            .map(|d| {
                let unit = if d == 1 { c.buffer_bytes as f64 } else { m.capacity(d - 1) };
                let upper: f64 = (1..d).map(|i| m.capacity(i)).sum();
                100.0 * (m.capacity(d) - unit + upper) / unit
            })
            .fold(0.0, f64::max)
            .ceil()
            .max(1.0)
    };

    let widths = if min_width == max_width { min_width.to_string() } else { format!("{min_width}..{max_width}") };
    cf.note(format!(
        "a compaction is considered once level 1's {k1} runs are full ({trigger} sorted runs); it merges {widths} runs of similar size"
    ));
    cf.set("level0_file_num_compaction_trigger", trigger.to_string());
    write_stalls(m.config, cf);
    cf.note(if leveled_last {
        "max_size_amplification_percent: the last level is leveled, so merge into it once upper levels are full"
    } else {
        "max_size_amplification_percent: above the design's worst space amplification, so no forced full merges"
    });
    cf.set(
        "compaction_options_universal",
        format!(
            "{{size_ratio=1;min_merge_width={min_width};max_merge_width={max_width};max_size_amplification_percent={}}}",
            number(size_amp, 0)
        ),
    );
    cf.set("level_compaction_dynamic_level_bytes", "false");

    let budget: u64 = (1..=m.depth).map(|i| u64::from(c.level(i).max_runs)).sum();
    lossy.add(
        "levels",
        WarningKind::Approximated,
        format!(
            "universal compaction has no per-level run counts: it keeps about {} sorted runs in total \
             (level0_file_num_compaction_trigger + 1; the design allows {budget} over {} levels) and merges \
             {widths} similar-sized runs at a time",
            trigger + 1,
            m.depth
        ),
    );
    for level in 1..=m.depth {
        let t = level_ratio(m, level);
        if c.level(level).max_runs > 1 && (t.fract() != 0.0 || min_width != max_width) {
            let kind = if t.fract() != 0.0 { WarningKind::Rounded } else { WarningKind::Approximated };
            lossy.add(
                format!("levels[{}].size_ratio", m.config_index(level)),
                kind,
                format!(
                    "level {level} size ratio {} ({} runs): universal merges {widths} runs for every level",
                    number(t, 4),
                    c.level(level).max_runs
                ),
            );
        }
    }
    if leveled_last {
        lossy.add(
            format!("levels[{}].max_runs", m.config_index(last)),
            WarningKind::Approximated,
            format!(
                "the leveled last level (level {last}) becomes universal's size-amplification merge at {}%",
                number(size_amp, 0)
            ),
        );
    }
    if c.compaction.granularity == Granularity::File {
        lossy.add(
            "compaction.granularity",
            WarningKind::Dropped,
            "universal compaction merges whole sorted runs; file granularity does not apply",
        );
    }
}

/// Writes `filter_policy`; returns whether the last level's filter is dropped
/// (`optimize_filters_for_hits`).
fn filters(m: &Mapping, table: &mut OptionsSection, lossy: &mut Lossy) -> bool {
    let c = m.config;
    let bits = m.level_bits();
    // Levels from `drop_from` down have no filter.
    let drop_from = (1..=m.depth).rev().take_while(|&i| bits[i - 1] <= 0.0).last();
    let filtered_to = drop_from.map_or(m.depth, |d| d - 1);
    let drop_last = filtered_to >= 1 && drop_from.is_some();
    if let Some(from) = drop_from.filter(|&from| drop_last && from < m.depth) {
        let field = match c.filter.allocation {
            Allocation::Explicit => format!("levels[{}].bits_per_key", m.config_index(from)),
            _ => "filter.bits_per_key".to_string(),
        };
        lossy.add(
            field,
            WarningKind::Approximated,
            format!(
                "levels {from}..{} have no filter; optimize_filters_for_hits drops only the bottommost level's \
                 (exact when the data fills {} levels)",
                m.depth, from
            ),
        );
    }

    let weight: f64 = (1..=filtered_to).map(|i| m.capacity(i)).sum();
    let mean =
        if weight > 0.0 { (1..=filtered_to).map(|i| m.capacity(i) * bits[i - 1]).sum::<f64>() / weight } else { 0.0 };
    let millibits = (mean * 1000.0).round() / 1000.0;

    match c.filter.allocation {
        Allocation::Uniform => {
            if millibits != mean {
                lossy.add(
                    "filter.bits_per_key",
                    WarningKind::Rounded,
                    format!("{} bits per key becomes {}: RocksDB keeps millibits", mean, number(millibits, 3)),
                );
            }
        }
        Allocation::Explicit => {
            for level in 1..=filtered_to {
                let b = bits[level - 1];
                if (b - mean).abs() > 1e-9 {
                    lossy.add(
                        format!("levels[{}].bits_per_key", m.config_index(level)),
                        WarningKind::Dropped,
                        format!(
                            "level {level} has {} bits per key; RocksDB uses one value for all levels, here {} \
                             (the capacity-weighted mean: same filter memory); see the rocksdb-cpp export",
                            number(b, 3),
                            number(millibits, 3)
                        ),
                    );
                }
            }
        }
        Allocation::Monkey => lossy.add(
            "filter.allocation",
            WarningKind::Dropped,
            format!(
                "Monkey's optimal per-run bits are not expressible: every level gets {} bits per key \
                 (same filter memory); the rocksdb-cpp export sets bits per level",
                number(millibits, 3)
            ),
        ),
        Allocation::Mnemosyne => {
            lossy.add(
                "filter.allocation",
                WarningKind::Dropped,
                format!(
                    "Mnemosyne sizes each file's filter from measured lookups; RocksDB gives every file {} bits per key",
                    number(millibits, 3)
                ),
            );
        }
    }
    if c.filter.monkey_policy == MonkeyPolicy::Reoptimised {
        lossy.add("filter.monkey_policy", WarningKind::Dropped, super::REOPTIMISED_NOT_EXPRESSIBLE);
    }
    if c.filter.allocation == Allocation::Mnemosyne || c.filter.skip != FilterSkip::None {
        lossy.add(
            "statistics_window",
            WarningKind::Dropped,
            "RocksDB keeps no per-file lookup statistics for filter sizing or skipping",
        );
    }
    if c.filter.kind == FilterKind::Modular {
        lossy.add(
            "filter.kind",
            WarningKind::Dropped,
            format!(
                "SHaMBa's modular filter ({} modules) has no RocksDB equivalent: one Bloom filter per file",
                c.filter.modules
            ),
        );
    }
    if c.filter.skip != FilterSkip::None {
        lossy.add("filter.skip", WarningKind::Dropped, "RocksDB always probes a file's whole filter");
    }

    if millibits <= 0.0 {
        table.note("no filters");
        table.set("filter_policy", "nullptr");
        return false;
    }
    if millibits < 1.0 {
        let field = if c.filter.allocation == Allocation::Explicit { "levels" } else { "filter.bits_per_key" };
        lossy.add(
            field,
            WarningKind::Rounded,
            format!(
                "RocksDB turns {} bits per key into {}",
                number(millibits, 3),
                if millibits < 0.5 { "no filter" } else { "1 bit per key" }
            ),
        );
    }
    let levels = if filtered_to == 1 { "level 1".to_string() } else { format!("levels 1..{filtered_to}") };
    table.note(format!("{} bits per key on engine {levels}", number(millibits, 3)));
    // FastLocalBloom (and the textbook Bloom filter, which RocksDB has not: it builds FastLocalBloom)
    // is `bloomfilter` with format_version 5; Ribbon is `ribbonfilter` with its bloom_before_level.
    let policy = match c.filter.kind {
        FilterKind::Ribbon => format!("ribbonfilter:{}:{}", number(millibits, 3), c.filter.bloom_before_level),
        FilterKind::Bloom | FilterKind::Modular | FilterKind::FastLocalBloom => {
            format!("bloomfilter:{}:false", number(millibits, 3))
        }
    };
    table.set("filter_policy", policy);
    table.set("format_version", "5");
    if drop_last {
        table.note("the bottommost level has no filter (optimize_filters_for_hits)");
    }
    drop_last
}

fn cache(config: &EngineConfig, table: &mut OptionsSection, lossy: &mut Lossy) {
    let b = &config.block_cache;
    table.note(format!("page_bytes {}", config.page_bytes));
    table.set("block_size", config.page_bytes.to_string());
    // Partitioned metadata (with a two-level index its partitions always use the block cache).
    let two_level = b.index_type == IndexType::TwoLevelIndexSearch;
    table.set("index_type", if two_level { "kTwoLevelIndexSearch" } else { "kBinarySearch" });
    table.set("partition_filters", if b.partition_filters { "true" } else { "false" });
    table.set("metadata_block_size", b.metadata_block_size.to_string());
    table.set("pin_top_level_index_and_filter", if b.pin_top_level_index_and_filter { "true" } else { "false" });
    if b.bytes == 0 {
        table.note("block_cache.bytes 0: every data block read is an I/O");
        table.set("no_block_cache", "true");
        if b.cache_index_and_filter_blocks {
            lossy.add(
                "block_cache.cache_index_and_filter_blocks",
                WarningKind::Dropped,
                "without a block cache RocksDB keeps index and filter blocks in memory; it cannot make each access an I/O",
            );
        }
        table.set("cache_index_and_filter_blocks", "false");
        return;
    }
    table.note("LoadOptionsFromFile's `cache` argument, when given, replaces this cache");
    // Always with its ratio: a bare capacity would give RocksDB's default pool of 0.5.
    table.set(
        "block_cache",
        format!("{{capacity={};high_pri_pool_ratio={}}}", b.bytes, number(b.high_priority_ratio, 6)),
    );
    if b.high_priority_ratio > 0.0 && !b.midpoint_insertion {
        lossy.add(
            "block_cache.midpoint_insertion",
            WarningKind::Approximated,
            "with a high-priority pool RocksDB's LRU cache moves a block hit once into it; the engine's design does not",
        );
    }
    table.set("no_block_cache", "false");
    table.set("cache_index_and_filter_blocks", if b.cache_index_and_filter_blocks { "true" } else { "false" });
    table.set(
        "pin_l0_filter_and_index_blocks_in_cache",
        if b.pin_l0_filter_and_index_blocks_in_cache { "true" } else { "false" },
    );
    if b.high_priority_ratio > 0.0 {
        table.note("index and filter blocks use the high-priority pool");
        table.set("cache_index_and_filter_blocks_with_high_priority", "true");
    }
}

/// The design's write-stall thresholds, option for option (`write_stalls`; RocksDB's defaults
/// unless the design says otherwise).
fn write_stalls(c: &EngineConfig, cf: &mut OptionsSection) {
    let w = &c.write_stalls;
    cf.note("write_stalls: when writes slow down and stop behind compactions");
    cf.set("level0_slowdown_writes_trigger", w.level0_slowdown_writes_trigger.to_string());
    cf.set("level0_stop_writes_trigger", w.level0_stop_writes_trigger.to_string());
    cf.set("soft_pending_compaction_bytes_limit", w.soft_pending_compaction_bytes_limit.to_string());
    cf.set("hard_pending_compaction_bytes_limit", w.hard_pending_compaction_bytes_limit.to_string());
}

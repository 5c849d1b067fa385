//! A Workload fitted to a RocksDB LOG (`lsm_export::rocksdb_log`): what the database served, from
//! its own counters, and the key skew under which the predictor, replaying the user's OPTIONS,
//! reproduces the block cache's hit rate. The cache is the one the LOG's dump shows (an OPTIONS
//! file does not record its capacity).
//!
//! - The mix: point lookups from `rocksdb.number.keys.read`, of them found (non-zero-result) the
//!   hits RocksDB counts by where it found the key (`memtable.hit`, `l0.hit`, `l1.hit`,
//!   `l2andup.hit`); writes from `number.keys.written` (puts and deletes together: the LOG does
//!   not tell them apart, so they count as puts; a put is to an existing key as often as a lookup
//!   finds one, the rest insert new keys — unless no lookup found its key in the memtable, which
//!   says the writes go to keys no lookup reads: then all are inserts); scans from
//!   `number.db.seek`, their length from `number.db.next` per seek.
//! - Sizes: exact from the table-creation events' properties (`raw_key_size` is the internal key,
//!   8 bytes more than the user's); without them, values are `bytes.read` per found lookup and
//!   keys what is left of `bytes.written` per key once the value and the write batch's framing
//!   (12 bytes a batch, a type byte and two length varints an entry) are taken off.
//! - Keys: the entries the LOG's levels hold (their bytes over the bytes per entry the tables
//!   show), matched by the predicted tree's entries when the run ends, by bisection on the preload
//!   (a level tree holds a key's older versions too, so the entries overstate the keys).
//! - Skew: Zipf θ over the keys, by bisection, so that the predicted data block cache hit rate
//!   equals the LOG's (hits over hits and the misses of lookups: compaction reads, which RocksDB
//!   also counts as data misses, taken off by `rocksdb.read.block.compaction.micros`' count).
//!   The hit rate grows with θ; a LOG at or below the uniform prediction is uniform.

use serde::Serialize;

use crate::predict::{self, Prediction, Predictor, TwinFigures};
use lsm_core::config::EngineConfig;
use lsm_core::error::{Error, Result};
use lsm_core::workload::{
    Distribution, KEY_BYTES_RANGE, MAX_OPERATIONS, Mix, Preload, VALUE_BYTES_RANGE, WORKLOAD_KIND, WORKLOAD_VERSION,
    Workload,
};
use lsm_export::rocksdb_log::RocksdbLog;

/// The `kind` of a `LogFit` document.
pub const LOG_FIT_KIND: &str = "lsm-navigator/rocksdb-log-fit";
/// An OPTIONS file that sets nothing: RocksDB 7.8's defaults, for a LOG given without its OPTIONS.
pub const DEFAULT_OPTIONS: &str = "[DBOptions]\n[CFOptions \"default\"]\n[TableOptions/BlockBasedTable \"default\"]\n";
/// The `version` of a `LogFit` document.
pub const LOG_FIT_VERSION: u32 = 1;
/// Largest θ the fit tries.
pub const MAX_THETA: f64 = 1.5;
/// Bisection steps for θ and for the key count.
const STEPS: usize = 12;
/// Moments of the run at which the search prices lookups (the final prediction uses `SAMPLES`).
const SEARCH_SAMPLES: usize = 4;

/// What the LOG counted, operation by operation.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LogCounts {
    /// Point lookups (`rocksdb.number.keys.read`).
    pub gets: u64,
    /// Of those, found (memtable, L0, L1 and deeper hits).
    pub found: u64,
    /// Keys written (`rocksdb.number.keys.written`, or `Cumulative writes` without statistics).
    pub writes: u64,
    /// Iterator seeks (`rocksdb.number.db.seek`).
    pub seeks: u64,
    /// Iterator steps (`rocksdb.number.db.next`).
    pub nexts: u64,
}

/// One figure of the LOG set against the prediction for the fitted workload.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LogFigure {
    /// Short name (`cache_hit_rate`).
    pub name: &'static str,
    /// What it is and how the LOG's value is computed.
    pub what: &'static str,
    /// The LOG's value.
    pub log: f64,
    /// The prediction for the fitted workload on the OPTIONS' design.
    pub predicted: f64,
    /// (predicted − log) / log; 0 when both are 0, absent (null) when only the LOG's is 0.
    pub relative_error: Option<f64>,
    /// Whether the fit chose a parameter to match it (otherwise it checks the fit).
    pub fitted: bool,
}

/// The fit: the Workload, the figures it matched, and what it assumed.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LogFit {
    /// Always `LOG_FIT_KIND`.
    #[cfg_attr(feature = "ts", ts(type = "\"lsm-navigator/rocksdb-log-fit\""))]
    pub kind: &'static str,
    /// Always `LOG_FIT_VERSION` (1).
    #[cfg_attr(feature = "ts", ts(type = "1"))]
    pub version: u32,
    /// The LOG's name, as given.
    pub log: String,
    /// The line of the stats dump read.
    pub dump_line: usize,
    /// RocksDB's version, as the LOG says.
    pub rocksdb_version: Option<String>,
    /// The counts the mix comes from.
    pub counts: LogCounts,
    /// The fitted workload.
    pub workload: Workload,
    /// The LOG's figures against the prediction for `workload`.
    pub figures: Vec<LogFigure>,
    /// What the fit had to assume, and figures the LOG lacked.
    pub assumptions: Vec<String>,
    /// The prediction's RocksDB figures for the fitted workload.
    pub predicted: TwinFigures,
}

/// Fits a workload to `log` for the design `config` (the OPTIONS RocksDB ran with, imported).
pub fn fit_log(name: &str, log: &RocksdbLog, config: &EngineConfig) -> Result<LogFit> {
    if !predict::rocksdb_shaped(config) {
        return Err(Error::invalid("options", "the design must be RocksDB's (an imported OPTIONS file)"));
    }
    let mut notes = Vec::new();
    let with_cache = with_the_logs_cache(log, config, &mut notes);
    let config = with_cache.as_ref().unwrap_or(config);
    let counts = counts(log, &mut notes);
    let total = counts.gets + counts.writes + counts.seeks;
    if total == 0 {
        return Err(Error::invalid("LOG", format!("the stats dump of line {} counts no operations", log.dump_line)));
    }
    let (key_bytes, value_bytes) = sizes(log, &counts, &mut notes);
    let t = total as f64;
    let found_share = if counts.gets > 0 { counts.found as f64 / counts.gets as f64 } else { 1.0 };
    let apart = writes_apart_from_lookups(log, &counts);
    if apart {
        notes.push(format!(
            "writes: the lookups found none of their keys in the memtable ({} found, {} written): the writes go to \
             keys the lookups do not read (as db_bench's mixgraph decides the operation by the key), so they are \
             taken as inserts of keys no lookup asks for",
            counts.found, counts.writes
        ));
    } else if counts.gets > 0 && counts.writes > 0 {
        notes.push(format!(
            "writes: a write is to an existing key as often as a lookup finds one ({:.1}%); the rest insert new keys",
            100.0 * found_share
        ));
    }
    let writes = counts.writes as f64 / t;
    let update_share = if apart { 0.0 } else { found_share };
    let mix = Mix {
        insert: writes * (1.0 - update_share),
        update: writes * update_share,
        get_existing: counts.found as f64 / t,
        get_missing: (counts.gets - counts.found) as f64 / t,
        range: counts.seeks as f64 / t,
        ..Mix::default()
    };
    let mix = normalised(mix);
    let entry_bytes = match log.tables.entries {
        0 => {
            notes.push(format!(
                "bytes per stored entry: no table_file_creation event in the LOG; assumed key + value + 8 = {}",
                key_bytes + value_bytes + 8
            ));
            f64::from(key_bytes + value_bytes + 8)
        }
        n => log.tables.file_bytes as f64 / n as f64,
    };
    let stored_bytes = log.default_family().map_or(0.0, |f| f.sum.size_bytes);
    let stored_entries = stored_bytes / entry_bytes;
    let seeks_len = if counts.seeks > 0 { counts.nexts as f64 / counts.seeks as f64 } else { 0.0 };
    let operations = total.min(MAX_OPERATIONS);
    let workload_for = |entries: u64, distribution: Distribution| -> Workload {
        let entries = entries.clamp(1, MAX_OPERATIONS);
        // Lookups that miss draw from ids never written: as many more ids as the misses say.
        let key_space = if found_share > 0.0 && found_share < 1.0 {
            ((entries as f64 / found_share).ceil() as u64).max(entries + 1)
        } else {
            0
        };
        let range_selectivity = if mix.range > 0.0 { (seeks_len / entries as f64).clamp(1e-9, 1.0) } else { 0.0 };
        Workload {
            kind: WORKLOAD_KIND.into(),
            version: WORKLOAD_VERSION,
            name: format!("fitted to {name}"),
            seed: 1,
            preload: Preload { entries, key_space, key_bytes, value_bytes },
            operations,
            mix: mix.clone(),
            distribution,
            range_selectivity,
            ycsb: None,
            db_bench: None,
        }
    };
    let quick = |w: &Workload| -> Result<Prediction> { Predictor::new(w)?.predict(config, SEARCH_SAMPLES) };
    // The key count: the preload whose predicted tree holds the LOG's entries when the run ends.
    let entries = if stored_entries >= 1.0 {
        let held = |entries: u64| -> Result<f64> {
            Ok(quick(&workload_for(entries, Distribution::Uniform))?.tree.iter().flatten().sum::<f64>())
        };
        let (mut lo, mut hi) = (1u64, (stored_entries.ceil() as u64).max(2));
        // The tree never holds fewer entries than its keys, so the answer lies below `hi`.
        for _ in 0..STEPS {
            let mid = lo + (hi - lo) / 2;
            if held(mid)? < stored_entries {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        hi
    } else {
        notes.push("keys: the LOG's levels hold no files; assumed the keys written".into());
        counts.writes.max(1)
    };
    // The skew: θ whose predicted data block hit rate is the LOG's.
    let target = log_hit_rate(log);
    let mut distribution = Distribution::Uniform;
    match target {
        Some(target) => {
            let hit = |theta: f64| -> Result<f64> {
                let d = if theta == 0.0 { Distribution::Uniform } else { Distribution::Zipf { theta } };
                Ok(quick(&workload_for(entries, d))?.twin.map_or(0.0, |t| t.cache_hit_rate))
            };
            if hit(0.0)? < target {
                let (mut lo, mut hi) = (0.0, MAX_THETA);
                if hit(MAX_THETA)? < target {
                    notes.push(format!(
                        "skew: even Zipf θ = {MAX_THETA} predicts a lower cache hit rate than the LOG's"
                    ));
                    lo = MAX_THETA;
                }
                for _ in 0..STEPS {
                    if lo >= hi {
                        break;
                    }
                    let mid = (lo + hi) / 2.0;
                    if hit(mid)? < target {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                }
                let theta = ((lo + hi) / 2.0 * 1000.0).round() / 1000.0;
                distribution = Distribution::Zipf { theta };
            }
        }
        None => notes.push(
            "skew: the LOG has no block cache data hits and misses (statistics off, or no lookups); assumed uniform"
                .into(),
        ),
    }
    notes.push("keys are hot in the order they were first written (Zipf over insertion order)".into());
    let workload = workload_for(entries, distribution);
    let prediction = predict::predict(config, &workload)?;
    let predicted = prediction.twin.clone().unwrap_or_default();
    let figures = figures(log, &counts, target, &predicted, &prediction, stored_entries);
    Ok(LogFit {
        kind: LOG_FIT_KIND,
        version: LOG_FIT_VERSION,
        log: name.to_string(),
        dump_line: log.dump_line,
        rocksdb_version: log.version.clone(),
        counts,
        workload,
        figures,
        assumptions: notes,
        predicted,
    })
}

/// The design with the block cache the LOG's dump says RocksDB ran with, when that is not the
/// design's (`None` when they agree within the dump's rounding, or the dump shows no cache). An
/// OPTIONS file records no cache capacity (the cache is an object passed in), so the import
/// assumes RocksDB's internal default; the LOG's `Block cache … capacity:` line is the cache
/// whose hits and misses the fit reproduces.
fn with_the_logs_cache(log: &RocksdbLog, config: &EngineConfig, notes: &mut Vec<String>) -> Option<EngineConfig> {
    let logged = log.default_family()?.block_cache.as_ref()?.capacity_bytes.round();
    let design = config.block_cache.bytes as f64;
    // The dump prints two decimals of the unit ("8.00 MB"): within 1% is the same cache.
    if logged <= 0.0 || (logged - design).abs() <= 0.01 * logged {
        return None;
    }
    notes.push(format!(
        "block cache: {} bytes, as the LOG's stats dump shows RocksDB ran with (the design said {}: an OPTIONS file \
         records no cache capacity)",
        logged as u64, config.block_cache.bytes
    ));
    let mut with = config.clone();
    with.block_cache.bytes = logged as u64;
    Some(with)
}

/// The mix with rounding error moved onto its largest part, so it sums to 1 exactly.
fn normalised(mut mix: Mix) -> Mix {
    let sum = mix.insert + mix.update + mix.get_existing + mix.get_missing + mix.range;
    let parts = [&mut mix.insert, &mut mix.update, &mut mix.get_existing, &mut mix.get_missing, &mut mix.range];
    if let Some(largest) = parts.into_iter().max_by(|a, b| a.total_cmp(b)) {
        *largest += 1.0 - sum;
    }
    mix
}

/// The LOG's operation counts; what it lacks goes to `notes`.
fn counts(log: &RocksdbLog, notes: &mut Vec<String>) -> LogCounts {
    let t = |name: &str| log.ticker(name).unwrap_or(0);
    if log.statistics.is_none() {
        notes.push(
            "the LOG has no statistics (RocksDB ran without `statistics`): lookups, scans, sizes read and the block \
             cache and filter counters are unknown; the workload is the LOG's writes only, uniform"
                .into(),
        );
        return LogCounts { writes: log.writes.as_ref().map_or(0, |w| w.keys), ..LogCounts::default() };
    }
    notes.push("writes: puts and deletes are one count in the LOG; all taken as puts".into());
    let gets = t("rocksdb.number.keys.read") + t("rocksdb.number.multiget.keys.read");
    let found = t("rocksdb.memtable.hit") + t("rocksdb.l0.hit") + t("rocksdb.l1.hit") + t("rocksdb.l2andup.hit");
    LogCounts {
        gets,
        found: found.min(gets),
        writes: t("rocksdb.number.keys.written"),
        seeks: t("rocksdb.number.db.seek"),
        nexts: t("rocksdb.number.db.next"),
    }
}

/// Found lookups and writes each at least this many before a memtable that served no lookup is
/// taken as evidence that the writes and the lookups touch different keys.
const APART_EVIDENCE: u64 = 1_000;

/// Whether the LOG says the writes go to keys the lookups never read: thousands of lookups found
/// their keys, thousands of keys were written, and not one lookup found its key in the memtable.
/// Writes drawn from the keys the lookups read would leave the hot keys' newest versions in the
/// memtable (the predictor prices exactly that); db_bench's mixgraph, which derives the operation
/// from the key's draw, gives each key one kind of operation, and its LOG shows `memtable.hit 0`.
fn writes_apart_from_lookups(log: &RocksdbLog, counts: &LogCounts) -> bool {
    log.ticker("rocksdb.memtable.hit") == Some(0) && counts.found >= APART_EVIDENCE && counts.writes >= APART_EVIDENCE
}

/// Key and value bytes, by the best evidence the LOG has.
fn sizes(log: &RocksdbLog, counts: &LogCounts, notes: &mut Vec<String>) -> (u32, u32) {
    let clamp = |x: f64, (lo, hi): (u32, u32), what: &str, notes: &mut Vec<String>| -> u32 {
        let v = x.round().clamp(f64::from(lo), f64::from(hi)) as u32;
        if x.round() < f64::from(lo) || x.round() > f64::from(hi) {
            notes.push(format!("{what}: {x:.1} from the LOG, outside [{lo}, {hi}]; {v} used"));
        }
        v
    };
    let tables = &log.tables;
    if tables.entries > 0 {
        let key = tables.raw_key_bytes as f64 / tables.entries as f64 - 8.0;
        let value =
            tables.raw_value_bytes as f64 / (tables.entries - tables.deletions.min(tables.entries)).max(1) as f64;
        return (
            clamp(key, KEY_BYTES_RANGE, "key bytes", notes),
            clamp(value, VALUE_BYTES_RANGE, "value bytes", notes),
        );
    }
    let t = |name: &str| log.ticker(name).unwrap_or(0) as f64;
    let value = if counts.found > 0 && t("rocksdb.bytes.read") > 0.0 {
        t("rocksdb.bytes.read") / counts.found as f64
    } else {
        notes.push("value bytes: no table properties or found lookups in the LOG; assumed 100".into());
        100.0
    };
    let batches = t("rocksdb.write.self") + t("rocksdb.write.other");
    let key = if counts.writes > 0 && t("rocksdb.bytes.written") > 0.0 {
        let per_key = (t("rocksdb.bytes.written") - 12.0 * batches) / counts.writes as f64;
        let varints = if value >= 128.0 { 2.0 } else { 1.0 } + 1.0;
        notes.push("key bytes: from bytes written per key, less the value and the write batch's framing".into());
        per_key - value - 1.0 - varints
    } else {
        notes.push("key bytes: no table properties or write bytes in the LOG; assumed 16".into());
        16.0
    };
    (clamp(key, KEY_BYTES_RANGE, "key bytes", notes), clamp(value, VALUE_BYTES_RANGE, "value bytes", notes))
}

/// Data blocks the LOG's lookups read: data misses less compaction's block reads.
fn lookup_misses(log: &RocksdbLog) -> Option<f64> {
    let misses = log.ticker("rocksdb.block.cache.data.miss")? as f64;
    let compaction = log
        .statistics
        .as_ref()
        .and_then(|s| s.histograms.get("rocksdb.read.block.compaction.micros"))
        .map_or(0, |h| h.count) as f64;
    Some((misses - compaction).max(0.0))
}

/// The LOG's data block hit rate of lookups.
fn log_hit_rate(log: &RocksdbLog) -> Option<f64> {
    let hits = log.ticker("rocksdb.block.cache.data.hit")? as f64;
    let misses = lookup_misses(log)?;
    (hits + misses > 0.0).then(|| hits / (hits + misses))
}

fn figure(name: &'static str, what: &'static str, log: f64, predicted: f64, fitted: bool) -> LogFigure {
    let relative_error = match (log == 0.0, predicted == 0.0) {
        (true, true) => Some(0.0),
        (true, false) => None,
        _ => Some((predicted - log) / log),
    };
    LogFigure { name, what, log, predicted, relative_error, fitted }
}

/// The figures the LOG has, set against the prediction.
fn figures(
    log: &RocksdbLog,
    counts: &LogCounts,
    hit_rate: Option<f64>,
    twin: &TwinFigures,
    prediction: &Prediction,
    stored_entries: f64,
) -> Vec<LogFigure> {
    let mut out = Vec::new();
    let held: f64 = prediction.tree.iter().flatten().sum();
    if stored_entries >= 1.0 {
        out.push(figure(
            "stored_entries",
            "entries the levels hold: the compaction stats' Sum size over the bytes per entry of the LOG's tables",
            stored_entries,
            held,
            true,
        ));
    }
    if let Some(hit) = hit_rate {
        out.push(figure(
            "cache_hit_rate",
            "data block cache hits / (hits + misses of lookups): block.cache.data.hit, .miss less compaction's block reads",
            hit,
            twin.cache_hit_rate,
            true,
        ));
    }
    let gets = counts.gets as f64;
    if let (Some(misses), true) = (lookup_misses(log), gets > 0.0) {
        out.push(figure(
            "data_blocks_per_lookup",
            "data blocks read per point lookup: block.cache.data.miss less compaction's block reads, over keys.read",
            misses / gets,
            twin.data_blocks_per_lookup,
            false,
        ));
    }
    let useful = log.ticker("rocksdb.bloom.filter.useful");
    let positive = log.ticker("rocksdb.bloom.filter.full.positive");
    if let (Some(u), Some(p), true) = (useful, positive, gets > 0.0) {
        out.push(figure(
            "filters_per_lookup",
            "filters probed per point lookup: (bloom.filter.useful + bloom.filter.full.positive) / keys.read",
            (u + p) as f64 / gets,
            twin.filters_per_lookup,
            false,
        ));
    }
    if let Some(family) = log.default_family() {
        let files = family.levels.iter().map(|l| l.files).sum::<u64>() as f64;
        let predicted = twin.files_after_run.iter().sum::<usize>() as f64;
        out.push(figure("files", "SST files in the levels when the LOG's dump was written", files, predicted, false));
    }
    out
}

/// The OPTIONS text for a LOG given without its OPTIONS file: the options the LOG printed at its
/// last open, or RocksDB 7.8's defaults when it printed none; and what that assumed, to say first.
pub fn options_without_a_file(log: &RocksdbLog) -> (&str, String) {
    match &log.logged_options {
        Some(o) => {
            let filter = match (o.filter_bits_per_key, o.filter_bits_measured) {
                (Some(b), true) => format!("; the filter's {b} bits per key from its tables' filter sizes"),
                (Some(b), false) => format!("; the filter's bits per key are not in the LOG, {b} assumed"),
                (None, _) => String::new(),
            };
            (
                o.text.as_str(),
                format!(
                    "no OPTIONS file given: the design is the options the LOG printed when the database opened (line {}){filter}",
                    o.line
                ),
            )
        }
        None => (
            DEFAULT_OPTIONS,
            "no OPTIONS file given and the LOG printed no options: the design is RocksDB 7.8's defaults".into(),
        ),
    }
}

/// `fit_log` on texts: the LOG's, and the OPTIONS file's (without one, the options the LOG
/// printed, or RocksDB 7.8's defaults; the fit says which). The browser calls this.
pub fn fit_log_text(name: &str, log_text: &str, options: Option<&str>) -> Result<LogFit> {
    let log = lsm_export::rocksdb_log::parse(log_text)?;
    let (text, assumed) = match options {
        Some(o) => (o, None),
        None => {
            let (text, said) = options_without_a_file(&log);
            (text, Some(said))
        }
    };
    let imported = lsm_export::import(text, lsm_export::ImportKind::Rocksdb)?;
    let mut fit = fit_log(name, &log, &imported.config)?;
    if let Some(said) = assumed {
        fit.assumptions.insert(0, said);
    }
    Ok(fit)
}

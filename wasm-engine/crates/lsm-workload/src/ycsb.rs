//! YCSB workloads: the core workloads A–F by name, YCSB workload properties files read into a
//! Workload, and a Workload written back as a properties file. YCSB's CoreWorkload properties
//! are followed as YCSB documents them; what the engine's Workload cannot say, and what YCSB
//! cannot say of a Workload, is listed as warnings (dropped, rounded, approximated), as the
//! RocksDB exports do.
//!
//! How the two meet:
//! - `recordcount` → `preload.entries`; `operationcount` → `operations`.
//! - `readproportion` → `mix.get_existing` (YCSB reads always target inserted keys);
//!   `updateproportion` → `update`; `insertproportion` → `insert`; `scanproportion` → `range`.
//!   `readmodifywriteproportion`: one read and one update each, so an RMW share p adds p to
//!   both, and the run has operationcount × (1 + p) engine operations.
//!   Proportions are weights, as in YCSB: they are scaled to sum to 1.
//! - `requestdistribution`: uniform, zipfian (θ = `zipfianconstant`, default 0.99), latest,
//!   hotspot (`hotspotdatafraction`, `hotspotopnfraction`).
//! - A scan covers `maxscanlength` records at most, uniformly (or Zipf) distributed lengths: its
//!   mean length over `recordcount` is the range selectivity.
//! - `fieldcount` × `fieldlength` → `value_bytes`; YCSB keys ("user" + up to 19 digits) → 23 bytes.

use std::collections::BTreeMap;

use lsm_core::error::{Error, Result};
use lsm_core::warning::{Warning, WarningKind};
use lsm_core::workload::{
    Distribution, MAX_OPERATIONS, Mix, Preload, THETA_RANGE, VALUE_BYTES_RANGE, WORKLOAD_KIND, WORKLOAD_VERSION,
    Workload,
};
use lsm_core::ycsb::{InsertOrder, LengthDistribution, YcsbClient, YcsbPlay, YcsbUpdates};

/// YCSB's key: "user" and a hashed record number of at most 19 digits.
pub const YCSB_KEY_BYTES: u32 = 23;
/// `zipfianconstant`'s default in YCSB.
pub const ZIPFIAN_CONSTANT: f64 = 0.99;
/// The seed of workloads read from YCSB files (YCSB itself has no seed property).
pub const SEED: u64 = 1;

/// The core workloads as YCSB ships them (workloads/workloada … workloadf), record and
/// operation counts included; `core_workload` reads one, with those counts replaceable.
const CORE: [(char, &str, &str); 6] = [
    (
        'a',
        "Update heavy: 50% reads, 50% updates, zipfian",
        "readproportion=0.5\nupdateproportion=0.5\nscanproportion=0\ninsertproportion=0\nrequestdistribution=zipfian\n",
    ),
    (
        'b',
        "Read mostly: 95% reads, 5% updates, zipfian",
        "readproportion=0.95\nupdateproportion=0.05\nscanproportion=0\ninsertproportion=0\nrequestdistribution=zipfian\n",
    ),
    (
        'c',
        "Read only: 100% reads, zipfian",
        "readproportion=1\nupdateproportion=0\nscanproportion=0\ninsertproportion=0\nrequestdistribution=zipfian\n",
    ),
    (
        'd',
        "Read latest: 95% reads, 5% inserts, latest",
        "readproportion=0.95\nupdateproportion=0\nscanproportion=0\ninsertproportion=0.05\nrequestdistribution=latest\n",
    ),
    (
        'e',
        "Short ranges: 95% scans, 5% inserts, zipfian",
        "readproportion=0\nupdateproportion=0\nscanproportion=0.95\ninsertproportion=0.05\nrequestdistribution=zipfian\nmaxscanlength=100\nscanlengthdistribution=uniform\n",
    ),
    (
        'f',
        "Read-modify-write: 50% reads, 50% RMW, zipfian",
        "readproportion=0.5\nupdateproportion=0\nscanproportion=0\ninsertproportion=0\nreadmodifywriteproportion=0.5\nrequestdistribution=zipfian\n",
    ),
];

/// A workload read from YCSB, and what did not carry over.
#[derive(Debug, serde::Serialize)]
pub struct YcsbImport {
    /// The Workload the properties describe, validated; its seed is `SEED`.
    pub workload: Workload,
    /// What did not carry over exactly; each `field` is the YCSB property concerned.
    pub warnings: Vec<Warning>,
    /// Properties this reader does not know (typos, other workload classes' settings).
    pub unknown_keys: Vec<String>,
}

/// The text of core workload `letter` (a–f) as a properties file, with these counts.
pub fn core_workload(letter: char, records: u64, operations: u64) -> Result<String> {
    let (l, title, body) = CORE.iter().find(|(l, _, _)| *l == letter.to_ascii_lowercase()).ok_or_else(|| {
        Error::invalid("workload", format!("YCSB core workloads are a, b, c, d, e and f, got \"{letter}\""))
    })?;
    Ok(format!(
        "# YCSB core workload {}: {title}\nworkload=site.ycsb.workloads.CoreWorkload\nrecordcount={records}\noperationcount={operations}\nreadallfields=true\n{body}",
        l.to_ascii_uppercase()
    ))
}

/// The core workloads' letters and one-line descriptions, for choosers.
pub fn core_workloads() -> impl Iterator<Item = (char, &'static str)> {
    CORE.iter().map(|(l, t, _)| (*l, *t))
}

/// One `key=value` statement and the line it started on.
struct Property {
    value: String,
    line: usize,
}

/// Java properties syntax: `key=value`, `key: value` or `key value`; `#` and `!` comments;
/// a trailing backslash continues the line. As in Java, a key set twice keeps its last value.
fn parse(text: &str, file: &str) -> Result<BTreeMap<String, Property>> {
    let mut out = BTreeMap::new();
    let mut lines = text.lines().enumerate().peekable();
    while let Some((idx, raw)) = lines.next() {
        let start = idx + 1;
        let mut logical = raw.trim_start().to_string();
        if logical.is_empty() || logical.starts_with('#') || logical.starts_with('!') {
            continue;
        }
        while logical.ends_with('\\') && !logical.ends_with("\\\\") {
            logical.pop();
            match lines.next() {
                Some((_, next)) => logical.push_str(next.trim_start()),
                None => break,
            }
        }
        let split = logical.find(['=', ':', ' ', '\t']).unwrap_or(logical.len());
        let key = logical[..split].trim();
        let mut rest = logical[split..].trim_start();
        if let Some(r) = rest.strip_prefix(['=', ':']) {
            rest = r.trim_start();
        }
        if key.is_empty() {
            return Err(Error::Parse {
                document: file.into(),
                message: format!("line {start}: a property needs a name before its value"),
            });
        }
        if key.len() > 200 || rest.len() > 10_000 {
            return Err(Error::Parse {
                document: file.into(),
                message: format!("line {start}: a property name is at most 200 characters and a value at most 10,000"),
            });
        }
        out.insert(key.to_string(), Property { value: rest.trim_end().to_string(), line: start });
    }
    Ok(out)
}

/// Reads the properties, remembering which were used; errors name the property and its line.
struct Reader<'a> {
    props: &'a BTreeMap<String, Property>,
    used: Vec<&'static str>,
}

impl<'a> Reader<'a> {
    fn raw(&mut self, name: &'static str) -> Option<&'a Property> {
        self.used.push(name);
        self.props.get(name)
    }

    fn bad(name: &str, p: &Property, allowed: &str) -> Error {
        Error::invalid(format!("{name} (line {})", p.line), format!("must be {allowed}, got \"{}\"", p.value))
    }

    fn number(&mut self, name: &'static str, default: f64, lo: f64, hi: f64) -> Result<f64> {
        let Some(p) = self.raw(name) else { return Ok(default) };
        match p.value.parse::<f64>() {
            Ok(v) if v.is_finite() && (lo..=hi).contains(&v) => Ok(v),
            _ => Err(Self::bad(name, p, &format!("a number in [{lo}, {hi}]"))),
        }
    }

    fn integer(&mut self, name: &'static str, default: u64, lo: u64, hi: u64) -> Result<u64> {
        let Some(p) = self.raw(name) else { return Ok(default) };
        match p.value.parse::<u64>() {
            Ok(v) if (lo..=hi).contains(&v) => Ok(v),
            _ => Err(Self::bad(name, p, &format!("an integer in [{lo}, {hi}]"))),
        }
    }

    fn choice(&mut self, name: &'static str, default: &'static str, allowed: &[&'static str]) -> Result<&'static str> {
        let Some(p) = self.raw(name) else { return Ok(default) };
        allowed
            .iter()
            .find(|a| a.eq_ignore_ascii_case(&p.value))
            .copied()
            .ok_or_else(|| Self::bad(name, p, &format!("one of {}", allowed.join(", "))))
    }
}

/// CoreWorkload properties that change nothing the engine measures, or that it cannot express.
const IGNORED: [(&str, &str); 10] = [
    ("insertorder", "the engine spreads keys by its own permutation"),
    ("insertstart", "the preload always starts at the first record"),
    ("insertcount", "the preload inserts recordcount records"),
    ("fieldlengthdistribution", "values have one length, fieldcount × fieldlength"),
    ("fieldnameprefix", "values are opaque bytes"),
    ("table", "there is one key space"),
    ("measurementtype", "the Report measures every operation"),
    ("dataintegrity", "values are checked by checksums"),
    ("threadcount", "the engine runs one operation at a time"),
    ("target", "operations run as fast as the engine goes"),
];

/// Who plays a YCSB file's operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Play {
    /// The engine's generator: binary keys, Zipf over insertion order, whole-value writes, an
    /// RMW as a read and an update of independently drawn keys, scans as key-space fractions.
    Engine,
    /// YCSB's CoreWorkload through this client, exactly (`lsm_core::ycsb`, `ycsb_client`).
    Ycsb(YcsbClient),
}

impl std::str::FromStr for Play {
    type Err = Error;
    fn from_str(s: &str) -> Result<Play> {
        match s {
            "engine" => Ok(Play::Engine),
            "cpp" | "ycsb-cpp" => Ok(Play::Ycsb(YcsbClient::Cpp)),
            "java" | "ycsb" => Ok(Play::Ycsb(YcsbClient::Java)),
            _ => Err(Error::invalid("ycsb client", format!("must be engine, cpp or java, got \"{s}\""))),
        }
    }
}

/// Read a YCSB workload properties file (`file` names it in errors), played by the engine's
/// generator (`Play::Engine`).
pub fn from_properties(text: &str, file: &str) -> Result<YcsbImport> {
    from_properties_played(text, file, Play::Engine)
}

/// Read a YCSB workload properties file, to be played as `play` says.
pub fn from_properties_played(text: &str, file: &str, play: Play) -> Result<YcsbImport> {
    let props = parse(text, file)?;
    let mut r = Reader { props: &props, used: Vec::new() };
    let mut warnings = Vec::new();

    let class = r.raw("workload").map(|p| (p.value.clone(), p.line));
    if let Some((class, line)) = class
        && !class.ends_with(".CoreWorkload")
    {
        return Err(Error::invalid(
            format!("workload (line {line})"),
            format!("must be YCSB's CoreWorkload (site.ycsb.workloads.CoreWorkload), got \"{class}\""),
        ));
    }
    let records = r.integer("recordcount", 1_000, 0, MAX_OPERATIONS)?;
    let operations = r.integer("operationcount", 1_000, 0, MAX_OPERATIONS)?;
    let read = r.number("readproportion", 0.95, 0.0, 1.0)?;
    let update = r.number("updateproportion", 0.05, 0.0, 1.0)?;
    let insert = r.number("insertproportion", 0.0, 0.0, 1.0)?;
    let scan = r.number("scanproportion", 0.0, 0.0, 1.0)?;
    let rmw = r.number("readmodifywriteproportion", 0.0, 0.0, 1.0)?;
    let total = read + update + insert + scan + rmw;
    if total <= 0.0 && operations > 0 {
        return Err(Error::invalid(
            "readproportion + updateproportion + insertproportion + scanproportion + readmodifywriteproportion",
            "must be above 0 when operationcount is above 0, got 0",
        ));
    }
    if (total - 1.0).abs() > 1e-9 && total > 0.0 {
        warnings.push(Warning::new(
            "proportions",
            WarningKind::Approximated,
            format!(
                "the proportions sum to {total}; YCSB treats them as weights, and so does this: scaled to sum to 1"
            ),
        ));
    }
    // An RMW is a read and an update: engine operations per YCSB operation.
    let per_op = if total > 0.0 { (total + rmw) / total } else { 1.0 };
    let engine_ops = (operations as f64 * per_op).round() as u64;
    let client = match play {
        Play::Ycsb(client) => Some(client),
        Play::Engine => None,
    };
    if rmw > 0.0 && client.is_none() {
        warnings.push(Warning::new(
            "readmodifywriteproportion",
            WarningKind::Approximated,
            format!(
                "each read-modify-write is a read and an update: {operations} YCSB operations are {engine_ops} engine operations"
            ),
        ));
    }
    let norm = if total > 0.0 { total + rmw } else { 1.0 };
    let mix = if operations == 0 || total <= 0.0 {
        Mix::default()
    } else if client.is_some() {
        // CoreWorkload's own operations: the client turns each into engine operations.
        Mix {
            insert: insert / total,
            update: update / total,
            get_existing: read / total,
            range: scan / total,
            read_modify_write: rmw / total,
            ..Mix::default()
        }
    } else {
        Mix {
            insert: insert / norm,
            update: (update + rmw) / norm,
            delete: 0.0,
            get_existing: (read + rmw) / norm,
            get_missing: 0.0,
            range: scan / norm,
            read_modify_write: 0.0,
        }
    };

    let allowed: &[&'static str] = if client.is_some() {
        &["uniform", "zipfian", "latest", "hotspot", "exponential"]
    } else {
        &["uniform", "zipfian", "latest", "hotspot"]
    };
    let distribution = match r.choice("requestdistribution", "uniform", allowed)? {
        // YCSB's zipfian is scrambled; YCSB-cpp reads its constant from `zipfian_const`, Java
        // always uses 0.99 (ζ is precomputed for it alone).
        "zipfian" if client.is_some() => {
            let theta = match client {
                Some(YcsbClient::Cpp) => r.number("zipfian_const", ZIPFIAN_CONSTANT, 0.01, 0.999)?,
                _ => ZIPFIAN_CONSTANT,
            };
            Distribution::ScrambledZipf { theta }
        }
        "latest" if client.is_some() => Distribution::Latest { theta: ZIPFIAN_CONSTANT },
        "exponential" => Distribution::Exponential {
            percentile: r.number("exponential.percentile", 95.0, 0.001, 99.999)?,
            fraction: r.number("exponential.frac", 0.857_142_857_1, 0.000_001, 1.0)?,
        },
        "zipfian" => {
            Distribution::Zipf { theta: r.number("zipfianconstant", ZIPFIAN_CONSTANT, THETA_RANGE.0, THETA_RANGE.1)? }
        }
        "latest" => {
            Distribution::Latest { theta: r.number("zipfianconstant", ZIPFIAN_CONSTANT, THETA_RANGE.0, THETA_RANGE.1)? }
        }
        "hotspot" => {
            let hot_fraction = r.number("hotspotdatafraction", 0.2, 0.0, 1.0)?;
            if !(hot_fraction > 0.0 && hot_fraction < 1.0) {
                let p = &props["hotspotdatafraction"];
                return Err(Reader::bad("hotspotdatafraction", p, "a number in (0, 1)"));
            }
            Distribution::Hotspot { hot_fraction, hot_probability: r.number("hotspotopnfraction", 0.8, 0.0, 1.0)? }
        }
        _ => Distribution::Uniform,
    };

    let max_scan = r.integer("maxscanlength", 1_000, 1, if client.is_some() { 1_000_000 } else { MAX_OPERATIONS })?;
    let min_scan = if client.is_some() { r.integer("minscanlength", 1, 1, max_scan)? } else { 1 };
    let scan_lengths = r.choice("scanlengthdistribution", "uniform", &["uniform", "zipfian"])?;
    let mean_scan = match scan_lengths {
        // Zipf(0.99) over min..=max, as YCSB's ZipfianGenerator draws lengths.
        "zipfian" => min_scan as f64 - 1.0 + zipf_mean(max_scan - min_scan + 1, ZIPFIAN_CONSTANT),
        _ => (min_scan as f64 + max_scan as f64) / 2.0,
    };
    let range_selectivity = if mix.range > 0.0 { (mean_scan / records.max(1) as f64).min(1.0) } else { 0.0 };

    let field_count = r.integer("fieldcount", 10, 1, u64::from(VALUE_BYTES_RANGE.1))?;
    let field_length = r.integer("fieldlength", 100, 0, u64::from(VALUE_BYTES_RANGE.1))?;
    let ycsb = match client {
        Some(client) => Some(ycsb_play(&mut r, client, field_count, field_length, min_scan, max_scan, scan_lengths)?),
        None => None,
    };
    let value_bytes = match &ycsb {
        Some(play) => play.mean_row_bytes().round() as u64,
        None => field_count * field_length,
    };
    let key_bytes = match &ycsb {
        Some(play) => mean_key_bytes(play, records),
        None => YCSB_KEY_BYTES,
    };
    if value_bytes > u64::from(VALUE_BYTES_RANGE.1) {
        let line = props.get("fieldlength").or(props.get("fieldcount")).map_or(0, |p| p.line);
        return Err(Error::invalid(
            format!("fieldcount × fieldlength (line {line})"),
            format!("must be at most {} bytes (the engine's largest value), got {value_bytes}", VALUE_BYTES_RANGE.1),
        ));
    }

    // Whole records are read and written either way: YCSB's RocksDB binding reads a record and
    // writes the whole record back on an update, as the engine does with values.
    r.raw("readallfields");
    r.raw("writeallfields");
    let mut unknown_keys = Vec::new();
    for (key, p) in &props {
        if r.used.contains(&key.as_str()) {
            continue;
        }
        // Played exactly, insertorder and the field lengths are honoured (read above).
        let mut ignored = IGNORED.iter().filter(|(k, _)| client.is_none() || !PLAYED.contains(k));
        match ignored.find(|(k, _)| k == key) {
            Some((_, why)) => {
                warnings.push(Warning::new(key.clone(), WarningKind::Dropped, format!("{key}={}: {why}", p.value)))
            }
            None => unknown_keys.push(key.clone()),
        }
    }

    let name = format!("YCSB {file}");
    let workload = Workload {
        kind: WORKLOAD_KIND.into(),
        version: WORKLOAD_VERSION,
        name,
        seed: SEED,
        preload: Preload { entries: records, key_space: 0, key_bytes, value_bytes: value_bytes as u32 },
        operations: if client.is_some() { operations } else { engine_ops },
        mix,
        distribution,
        range_selectivity,
        ycsb,
        db_bench: None,
    };
    workload.validate()?;
    Ok(YcsbImport { workload, warnings, unknown_keys })
}

/// Properties the exact play honours that the engine's generator drops.
const PLAYED: [&str; 2] = ["insertorder", "fieldlengthdistribution"];

/// The `ycsb` section of an exactly played file: CoreWorkload's row, key and scan properties.
fn ycsb_play(
    r: &mut Reader<'_>,
    client: YcsbClient,
    field_count: u64,
    field_length: u64,
    min_scan: u64,
    max_scan: u64,
    scan_lengths: &str,
) -> Result<YcsbPlay> {
    let lengths = |s: &str| match s {
        "uniform" => LengthDistribution::Uniform,
        "zipfian" => LengthDistribution::Zipfian,
        _ => LengthDistribution::Constant,
    };
    // YCSB names it fieldlengthdistribution, YCSB-cpp field_len_dist.
    let length_key = if client == YcsbClient::Cpp { "field_len_dist" } else { "fieldlengthdistribution" };
    let field_lengths = lengths(r.choice(length_key, "constant", &["constant", "uniform", "zipfian"])?);
    let min_field =
        if client == YcsbClient::Java { r.integer("minfieldlength", 1, 1, field_length.max(1))? } else { 1 };
    let insert_order = match r.choice("insertorder", "hashed", &["hashed", "ordered"])? {
        "ordered" => InsertOrder::Ordered,
        _ => InsertOrder::Hashed,
    };
    let zero_padding = r.integer("zeropadding", 1, 1, u64::from(lsm_core::ycsb::MAX_ZERO_PADDING))? as u32;
    let write_all = r.choice("writeallfields", "false", &["true", "false"])? == "true";
    let play = YcsbPlay {
        client,
        updates: YcsbUpdates::ReadModifyWrite,
        insert_order,
        zero_padding,
        field_count: field_count.min(u64::from(u32::MAX)) as u32,
        field_length: field_length.min(u64::from(u32::MAX)) as u32,
        field_length_distribution: field_lengths,
        min_field_length: min_field as u32,
        write_all_fields: write_all,
        min_scan_length: min_scan as u32,
        max_scan_length: max_scan as u32,
        scan_length_distribution: lengths(scan_lengths),
    };
    play.validate(VALUE_BYTES_RANGE.1)?;
    Ok(play)
}

/// Mean length of the loaded records' key names, over 4,096 key numbers spread over the load.
fn mean_key_bytes(play: &YcsbPlay, records: u64) -> u32 {
    let samples = records.clamp(1, 4096);
    let mut key = Vec::new();
    let total: usize = (0..samples)
        .map(|i| {
            lsm_core::ycsb::key_name(play, i * records.max(1) / samples, &mut key);
            key.len()
        })
        .sum();
    ((total as f64 / samples as f64).round() as u32).max(lsm_core::workload::KEY_BYTES_RANGE.0)
}

/// Mean of Zipf(θ) over 1..=n: Σ k·k^−θ / Σ k^−θ (exact up to 100,000 terms, then an integral).
fn zipf_mean(n: u64, theta: f64) -> f64 {
    let terms = n.min(100_000);
    let (mut num, mut den) = (0.0, 0.0);
    for k in 1..=terms {
        let w = (k as f64).powf(-theta);
        num += k as f64 * w;
        den += w;
    }
    if n > terms {
        // ∫ x^(1−θ) and ∫ x^(−θ) over (terms, n].
        let (a, b) = (terms as f64, n as f64);
        num += (b.powf(2.0 - theta) - a.powf(2.0 - theta)) / (2.0 - theta);
        den += if (theta - 1.0).abs() < 1e-12 {
            (b / a).ln()
        } else {
            (b.powf(1.0 - theta) - a.powf(1.0 - theta)) / (1.0 - theta)
        };
    }
    num / den
}

/// A Workload as a YCSB CoreWorkload properties file, and what YCSB cannot run of it.
pub fn to_properties(w: &Workload) -> Result<(String, Vec<Warning>)> {
    w.validate()?;
    let mut warnings = Vec::new();
    let m = &w.mix;
    if m.get_missing > 0.0 {
        warnings.push(Warning::new(
            "mix.get_missing",
            WarningKind::Approximated,
            format!("YCSB reads only keys it inserted: the {:.4} share of lookups of missing keys becomes reads of existing keys", m.get_missing),
        ));
    }
    if m.delete > 0.0 {
        warnings.push(Warning::new(
            "mix.delete",
            WarningKind::Dropped,
            format!(
                "YCSB's core workload has no deletes: the {:.4} share of deletes is left out (the rest is scaled up)",
                m.delete
            ),
        ));
    }
    if w.preload.key_bytes != YCSB_KEY_BYTES {
        warnings.push(Warning::new(
            "preload.key_bytes",
            WarningKind::Dropped,
            format!(
                "YCSB keys are \"user\" and a number ({YCSB_KEY_BYTES} bytes at most), not {} bytes",
                w.preload.key_bytes
            ),
        ));
    }
    if w.preload.key_space != 0 {
        warnings.push(Warning::new("preload.key_space", WarningKind::Dropped, "YCSB picks new keys itself"));
    }
    if w.seed != SEED {
        warnings.push(Warning::new(
            "seed",
            WarningKind::Dropped,
            "YCSB has no seed property: its runs differ from run to run",
        ));
    }
    let mut out = String::new();
    let line = |out: &mut String, k: &str, v: String| {
        out.push_str(k);
        out.push('=');
        out.push_str(&v);
        out.push('\n');
    };
    out.push_str(&format!(
        "# YCSB CoreWorkload written by LSM Navigator from Workload \"{}\"\n",
        w.name.replace('\n', " ")
    ));
    line(&mut out, "workload", "site.ycsb.workloads.CoreWorkload".into());
    line(&mut out, "recordcount", w.preload.entries.to_string());
    line(&mut out, "operationcount", w.operations.to_string());
    line(&mut out, "readproportion", fraction(m.get_existing + m.get_missing));
    line(&mut out, "updateproportion", fraction(m.update));
    line(&mut out, "insertproportion", fraction(m.insert));
    line(&mut out, "scanproportion", fraction(m.range));
    line(&mut out, "readmodifywriteproportion", fraction(m.read_modify_write));
    match w.distribution {
        Distribution::ScrambledZipf { theta } => {
            line(&mut out, "requestdistribution", "zipfian".into());
            if theta != ZIPFIAN_CONSTANT {
                // YCSB-cpp's property; YCSB (Java) has ζ for 0.99 only and ignores it.
                line(&mut out, "zipfian_const", theta.to_string());
            }
        }
        Distribution::Exponential { percentile, fraction: frac } => {
            line(&mut out, "requestdistribution", "exponential".into());
            line(&mut out, "exponential.percentile", percentile.to_string());
            line(&mut out, "exponential.frac", frac.to_string());
        }
        Distribution::Uniform => line(&mut out, "requestdistribution", "uniform".into()),
        Distribution::Zipf { theta } => {
            line(&mut out, "requestdistribution", "zipfian".into());
            line(&mut out, "zipfianconstant", theta.to_string());
        }
        Distribution::Latest { theta } => {
            line(&mut out, "requestdistribution", "latest".into());
            line(&mut out, "zipfianconstant", theta.to_string());
        }
        Distribution::Hotspot { hot_fraction, hot_probability } => {
            line(&mut out, "requestdistribution", "hotspot".into());
            line(&mut out, "hotspotdatafraction", hot_fraction.to_string());
            line(&mut out, "hotspotopnfraction", hot_probability.to_string());
        }
    }
    if let Some(play) = &w.ycsb {
        write_play(&mut out, play);
        return Ok((out, warnings));
    }
    if m.range > 0.0 {
        // Uniform lengths 1..=max have mean (max + 1) / 2 = selectivity × records.
        let mean = w.range_selectivity * w.preload.entries as f64;
        let max = (2.0 * mean - 1.0).round().max(1.0) as u64;
        let exact = (max as f64 + 1.0) / 2.0;
        if (exact - mean).abs() > 1e-9 * mean.max(1.0) {
            warnings.push(Warning::new(
                "range_selectivity",
                WarningKind::Rounded,
                format!("scans of 1 to {max} records (uniform) average {exact} records, for {mean:.3} asked"),
            ));
        }
        line(&mut out, "maxscanlength", max.to_string());
        line(&mut out, "scanlengthdistribution", "uniform".into());
    }
    line(&mut out, "fieldcount", "1".into());
    line(&mut out, "fieldlength", w.preload.value_bytes.to_string());
    line(&mut out, "readallfields", "true".into());
    Ok((out, warnings))
}

/// The `ycsb` section as CoreWorkload's properties.
fn write_play(out: &mut String, p: &YcsbPlay) {
    let lengths = |d: LengthDistribution| match d {
        LengthDistribution::Constant => "constant",
        LengthDistribution::Uniform => "uniform",
        LengthDistribution::Zipfian => "zipfian",
    };
    let length_key = if p.client == YcsbClient::Cpp { "field_len_dist" } else { "fieldlengthdistribution" };
    let mut lines = vec![
        ("insertorder", if p.insert_order == InsertOrder::Ordered { "ordered" } else { "hashed" }.to_string()),
        ("zeropadding", p.zero_padding.to_string()),
        ("fieldcount", p.field_count.to_string()),
        ("fieldlength", p.field_length.to_string()),
        (length_key, lengths(p.field_length_distribution).to_string()),
        ("writeallfields", p.write_all_fields.to_string()),
        ("readallfields", "true".to_string()),
        ("minscanlength", p.min_scan_length.to_string()),
        ("maxscanlength", p.max_scan_length.to_string()),
        ("scanlengthdistribution", lengths(p.scan_length_distribution).to_string()),
    ];
    if p.client == YcsbClient::Java {
        lines.push(("minfieldlength", p.min_field_length.to_string()));
    }
    for (k, v) in lines {
        out.push_str(&format!("{k}={v}\n"));
    }
}

/// A share with enough digits to read back exactly enough (12 significant), no trailing zeros.
fn fraction(v: f64) -> String {
    let s = format!("{:.12}", v);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s.is_empty() { "0".into() } else { s.to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> YcsbImport {
        from_properties(text, "w.properties").unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn core_workloads_read_as_ycsb_defines_them() {
        let a = read(&core_workload('a', 1_000_000, 1_000_000).unwrap());
        assert_eq!(a.workload.preload.entries, 1_000_000);
        assert_eq!(a.workload.operations, 1_000_000);
        assert_eq!(a.workload.mix, Mix { update: 0.5, get_existing: 0.5, ..Mix::default() });
        assert_eq!(a.workload.distribution, Distribution::Zipf { theta: 0.99 });
        assert_eq!(a.workload.preload.value_bytes, 1000);
        assert_eq!(a.workload.preload.key_bytes, 23);
        assert!(a.unknown_keys.is_empty(), "{:?}", a.unknown_keys);

        let d = read(&core_workload('D', 1000, 1000).unwrap());
        assert_eq!(d.workload.distribution, Distribution::Latest { theta: 0.99 });
        assert!((d.workload.mix.insert - 0.05).abs() < 1e-12 && (d.workload.mix.get_existing - 0.95).abs() < 1e-12);

        // E: 95% scans of 1..100 records (mean 50.5) over 1,000 records, 5% inserts.
        let e = read(&core_workload('e', 1000, 1000).unwrap());
        assert!((e.workload.mix.range - 0.95).abs() < 1e-12);
        assert!((e.workload.range_selectivity - 50.5 / 1000.0).abs() < 1e-15);

        // F: 50% reads, 50% read-modify-writes = 1,500 engine operations: 1,000 reads, 500 updates.
        let f = read(&core_workload('f', 1000, 1000).unwrap());
        assert_eq!(f.workload.operations, 1500);
        assert!(
            (f.workload.mix.get_existing - 2.0 / 3.0).abs() < 1e-12
                && (f.workload.mix.update - 1.0 / 3.0).abs() < 1e-12
        );
        assert!(f.warnings.iter().any(|w| w.field == "readmodifywriteproportion"));
        assert!(core_workload('g', 1, 1).unwrap_err().to_string().contains("a, b, c, d, e and f"));
    }

    #[test]
    fn properties_syntax_comments_continuations_and_separators() {
        let w = read(
            "# a comment\n! another\nrecordcount : 5000\noperationcount 2000\nreadproportion=0.25\nupdateproportion=\\\n  0.75\nrequestdistribution=HOTSPOT\nhotspotdatafraction=0.1\nhotspotopnfraction=0.9\nthreadcount=8\nmyownsetting=1\n",
        );
        assert_eq!(w.workload.preload.entries, 5000);
        assert_eq!(w.workload.operations, 2000);
        assert!((w.workload.mix.update - 0.75).abs() < 1e-12);
        assert_eq!(w.workload.distribution, Distribution::Hotspot { hot_fraction: 0.1, hot_probability: 0.9 });
        assert_eq!(w.unknown_keys, vec!["myownsetting".to_string()]);
        assert!(w.warnings.iter().any(|x| x.field == "threadcount" && x.kind == WarningKind::Dropped));
    }

    #[test]
    fn bad_values_name_the_property_its_line_and_the_allowed_range() {
        let err = |t: &str| from_properties(t, "w.properties").unwrap_err().to_string();
        assert_eq!(
            err("recordcount=10\nreadproportion=1.5\n"),
            "readproportion (line 2): must be a number in [0, 1], got \"1.5\""
        );
        assert_eq!(
            err("requestdistribution=exponential\n"),
            "requestdistribution (line 1): must be one of uniform, zipfian, latest, hotspot, got \"exponential\""
        );
        assert_eq!(err("recordcount=-3\n"), "recordcount (line 1): must be an integer in [0, 1000000000], got \"-3\"");
        assert_eq!(
            err("\nfieldcount=1000\nfieldlength=1000\n"),
            "fieldcount × fieldlength (line 3): must be at most 60000 bytes (the engine's largest value), got 1000000"
        );
        assert_eq!(
            err("workload=site.ycsb.workloads.TimeSeriesWorkload\n"),
            "workload (line 1): must be YCSB's CoreWorkload (site.ycsb.workloads.CoreWorkload), got \"site.ycsb.workloads.TimeSeriesWorkload\""
        );
        assert_eq!(
            err("readproportion=0\nupdateproportion=0\n").split(':').nth(1).map(str::trim),
            Some("must be above 0 when operationcount is above 0, got 0")
        );
        assert!(err("=5\n").starts_with("w.properties: line 1: a property needs a name"));
    }

    #[test]
    fn a_workload_written_as_ycsb_reads_back_the_same() {
        for letter in ['a', 'b', 'c', 'd', 'e'] {
            let first = read(&core_workload(letter, 100_000, 50_000).unwrap()).workload;
            let (text, warnings) = to_properties(&first).unwrap();
            assert!(warnings.is_empty(), "{letter}: {warnings:?}");
            let mut again = read(&text).workload;
            again.name = first.name.clone();
            assert_eq!(again, first, "{letter}:\n{text}");
        }
    }

    #[test]
    fn what_ycsb_cannot_run_is_said() {
        let mut w = read(&core_workload('b', 1000, 1000).unwrap()).workload;
        w.mix = Mix {
            insert: 0.1,
            update: 0.1,
            delete: 0.1,
            get_existing: 0.3,
            get_missing: 0.3,
            range: 0.1,
            read_modify_write: 0.0,
        };
        w.range_selectivity = 0.0123;
        w.preload.key_bytes = 16;
        let (text, warnings) = to_properties(&w).unwrap();
        let fields: Vec<&str> = warnings.iter().map(|w| w.field.as_str()).collect();
        assert_eq!(fields, ["mix.get_missing", "mix.delete", "preload.key_bytes", "range_selectivity"]);
        assert!(text.contains("readproportion=0.6\n") && text.contains("maxscanlength=24\n"), "{text}");
    }

    #[test]
    fn zipf_scan_lengths_have_the_zipf_mean() {
        // Σ k^0.01 / Σ k^−0.99 over 1..=100, computed directly.
        let direct: (f64, f64) =
            (1..=100).map(|k| k as f64).fold((0.0, 0.0), |(n, d), k| (n + k.powf(0.01), d + k.powf(-0.99)));
        assert!((zipf_mean(100, 0.99) - direct.0 / direct.1).abs() < 1e-12);
        // The integral tail stays close to the exact sum.
        let exact: (f64, f64) =
            (1..=300_000u64).map(|k| k as f64).fold((0.0, 0.0), |(n, d), k| (n + k.powf(0.01), d + k.powf(-0.99)));
        assert!((zipf_mean(300_000, 0.99) / (exact.0 / exact.1) - 1.0).abs() < 1e-4);
    }
}

/// The core workload a user names (`name`: one letter, a–f, either case) as a properties file
/// with these counts, and the name YCSB ships its file under (`workloada`): the one reading of a
/// name that the CLI's `ycsb:a` and the page's chooser share.
// Appended below the tests so that it does not touch the parser above while it is being edited.
#[allow(clippy::items_after_test_module)]
pub fn named_core_workload(name: &str, records: u64, operations: u64) -> Result<(String, String)> {
    let mut letters = name.chars();
    match (letters.next(), letters.next()) {
        (Some(letter), None) => {
            Ok((format!("workload{}", letter.to_ascii_lowercase()), core_workload(letter, records, operations)?))
        }
        _ => Err(Error::invalid("workload", format!("YCSB core workloads are a, b, c, d, e and f, got \"{name}\""))),
    }
}

//! The recommendation as RocksDB states it: the options whose exported value differs, each with
//! the move that set it and its share of the gain; and what the OPTIONS file cannot express. Both
//! compare the structure the exporter builds, never its text.

use lsm_core::config::EngineConfig;
use lsm_core::warning::{Warning, WarningKind};
use lsm_core::workload::Workload;

use super::knobs::{self, Knob};
use super::option_change::OptionChange;
use super::per_level;
use crate::result::{Priced, RequiredPlugin};

/// What `lsm export --format rocksdb` cannot express of `c`, as the exporter's warnings. A design whose
/// bits the per-level policy sets (`per_level::needs_plugin`) is exported as OPTIONS plus the
/// policy: the OPTIONS file's warnings about per-level bits are what the policy carries, so they
/// give way to what the policy (`rocksdb-cpp`) cannot express.
pub(crate) fn export_warnings(c: &EngineConfig, workload: &Workload) -> Vec<Warning> {
    // A design the exporter refuses is one whole loss, named by the error's field.
    let refused = |e: lsm_core::error::Error| vec![Warning::new("design", WarningKind::Dropped, e.to_string())];
    let options = lsm_export::rocksdb_options(c, Some(workload)).map_or_else(refused, |o| o.warnings);
    if !per_level::needs_plugin(c) {
        return options;
    }
    let mut out: Vec<Warning> = options
        .into_iter()
        .filter(|w| !(w.field.starts_with("levels") || w.field.starts_with("filter.bits_per_key")))
        .collect();
    out.extend(
        lsm_export::export(c, lsm_export::Format::RocksdbCpp, Some(workload)).map_or_else(refused, |e| e.warnings),
    );
    out
}

/// A warning as the result document lists it.
pub(crate) fn warning_line(w: &Warning) -> String {
    format!("{}: {}", w.field, w.message)
}

/// `(section, option, value)` of the OPTIONS file exported for `config`, in file order.
fn options_of(config: &EngineConfig, workload: &Workload) -> Vec<(String, String, String)> {
    let Ok(o) = lsm_export::rocksdb_options(config, Some(workload)) else { return Vec::new() };
    o.entries().map(|(s, k, v)| (s.to_string(), k.to_string(), v.to_string())).collect()
}

/// The options whose exported value differs between `a` and `b`: (section, option, from, to).
fn option_diff(
    a: &[(String, String, String)],
    b: &[(String, String, String)],
) -> Vec<(String, String, String, String)> {
    let mut out = Vec::new();
    for (s, k, v) in b {
        let from = a.iter().find(|(s2, k2, _)| s2 == s && k2 == k).map_or("(default)".to_string(), |x| x.2.clone());
        if &from != v && s != "Version" {
            out.push((s.clone(), k.clone(), from, v.clone()));
        }
    }
    out
}

/// The recommendation as RocksDB options, old → new: the options whose exported value differs,
/// each with the reason of the move that set it, its figures and its share of the gain.
pub(crate) fn option_changes(
    current: &Priced,
    chosen: &Priced,
    steps: &[knobs::Step<Priced>],
    workload: &Workload,
    key: impl Fn(&Priced) -> f64,
    plugin_allowed: bool,
) -> Vec<OptionChange> {
    let whole = key(current) - key(chosen);
    // With the plugin accepted, the per-level policy is one more "option" of the diff.
    let exported = |c: &EngineConfig| {
        let mut o = options_of(c, workload);
        if plugin_allowed {
            let bits = per_level::bits_by_level(c);
            let value = if bits.is_empty() {
                "none (the OPTIONS file's filter_policy on every level)".to_string()
            } else {
                format!("{}: {}", per_level::POLICY_NAME, per_level::bits_summary(&bits))
            };
            o.push((format!("C++ plugin {}", per_level::POLICY_FILE), knobs::PER_LEVEL_OPTION.to_string(), value));
        }
        o
    };
    let step_diffs: Vec<(Knob, f64, String, Vec<String>)> = steps
        .iter()
        .map(|s| {
            let share = if whole > 0.0 { (key(&s.before) - key(&s.after)) / whole } else { 0.0 };
            let (b, a) = (&s.before, &s.after);
            let time = match (&b.time, &a.time) {
                (Some(tb), Some(ta)) => format!("predicted µs per operation {:.1} → {:.1}, ", tb.mean_us, ta.mean_us),
                _ => String::new(),
            };
            let figures = format!(
                "{time}I/O per lookup {:.3} → {:.3}, write amplification {:.2} → {:.2}",
                lookup_cost(b),
                lookup_cost(a),
                b.steady.as_ref().map_or(0.0, |x| x.write_amp),
                a.steady.as_ref().map_or(0.0, |x| x.write_amp),
            );
            let names = option_diff(&exported(&b.config), &exported(&a.config)).into_iter().map(|d| d.1).collect();
            (s.knob, share, figures, names)
        })
        .collect();
    option_diff(&exported(&current.config), &exported(&chosen.config))
        .into_iter()
        .map(|(section, option, from, to)| {
            let movers: Vec<&(Knob, f64, String, Vec<String>)> =
                step_diffs.iter().filter(|d| d.3.contains(&option)).collect();
            let (reason, share) = if option == "block_cache" {
                ("the memory the budget leaves after the memtables and the index and filter blocks held outside the cache; \
                  its effect is counted in the moves that freed or took the memory"
                    .to_string(), 0.0)
            } else {
                // A move's share counts once, under its own option; options it sets alongside
                // (format_version with a filter, the slowdown trigger with the level-0 trigger) say so.
                let own: Vec<_> = movers.iter().filter(|d| d.0.option() == option).collect();
                if own.is_empty() {
                    let by = movers.iter().map(|d| d.0.option()).collect::<Vec<_>>().join(", ");
                    (if by.is_empty() { "set with the changes above".to_string() } else { format!("set with {by}") }, 0.0)
                } else {
                    // A knob moved more than once says why once, then each move's figures in order.
                    let figures = own.iter().map(|d| d.2.clone()).collect::<Vec<_>>().join("; then ");
                    let required = RequiredPlugin::of(&chosen.config)
                        .filter(|_| option == knobs::PER_LEVEL_OPTION)
                        .map_or(String::new(), |p| format!("{}. ", p.note));
                    (format!("{required}{}; {figures}", own[0].0.why()), own.iter().map(|d| d.1).sum())
                }
            };
            OptionChange { section, option, from, to, reason, share }
        })
        .collect()
}

/// I/O per point lookup or scan at the workload's read mix.
fn lookup_cost(p: &Priced) -> f64 {
    let c = p.io_costs();
    let reads: f64 = p.prediction.mix[..3].iter().sum();
    if reads > 0.0 { (0..3).map(|i| p.prediction.mix[i] * c[i]).sum::<f64>() / reads } else { 0.0 }
}

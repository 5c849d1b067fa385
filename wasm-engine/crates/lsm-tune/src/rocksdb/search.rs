//! RocksDB's wing of the search: coordinate descent over RocksDB's own knobs (`knobs`) within one
//! memory budget as RocksDB charges it (`memory`), ranked by the steady-state cost (`steady`), the
//! gain judged against the model's error (`verdict`) and stated as an option diff (`diff`).

use lsm_core::config::EngineConfig;
use lsm_core::error::{Error, Result};
use lsm_core::workload::Workload;

use super::data::RocksdbData;
use super::knobs::{self, Knob, descend};
use super::per_level::{self, Plugin};
use super::{diff, memory};
use crate::designs::rocksdb_summary;
use crate::options::{Target, TuneOptions};
use crate::predict::{self, Predictor, class_mix};
use crate::rank::Ranker;
use crate::result::{
    Grown, Headline, HeadlineDesigns, NEIGHBOUR_SAMPLES, Neighbourhood, Priced, RequiredPlugin, RocksdbAdvice,
    TUNE_KIND, TUNE_VERSION, TuneResult, measure,
};
use crate::robust::{sample_neighbourhood, worst_case};
use crate::verdict;

/// A move may raise the run's predicted cost by at most this share.
const RUN_SLACK: f64 = 0.005;

/// RocksDB's knobs within one memory budget (`knobs`): coordinate descent from the current
/// design, ranked by the steady-state cost (nominal) or its worst case within ρ (robust), the
/// block cache taking what each move leaves of the budget; every candidate exports to RocksDB
/// OPTIONS with no more warnings than the current design.
pub(crate) fn search(current: &EngineConfig, given: &Workload, options: &TuneOptions) -> Result<TuneResult> {
    let rho = options.rho;
    // Priced as the store is run (`options.process`: a restart by default, as users run RocksDB),
    // on the workload as the engine sees it (`Predictor::workload`); `given` keeps its generator.
    let predictor = Predictor::new(given)?.with_process(options.process, options.device());
    let workload = predictor.workload();
    let wb = options.write_buffers;
    let mix = class_mix(workload);
    let ranker = Ranker::new(options.rank, options.calibration.as_ref(), mix);
    let unit = ranker.unit();
    // The run's cost in the unit ranked by (the run's I/O, or its time on the device).
    let run_cost = |p: &Priced| ranker.expected(p.prediction.expected, &p.prediction.class_costs);
    let data = RocksdbData::new(workload, current.page_bytes);
    let budget = options.memory.unwrap_or_else(|| memory::charge(current, &data.held(current), wb).total);
    // Per-level bits only where the user accepts the plugin that sets them.
    let allocator = options.plugin.map(|Plugin::PerLevelFilters| per_level::Allocator {
        data: data.data,
        key_bytes: data.key_bytes,
        value_bytes: data.value_bytes,
        zero: mix[0],
        existing: mix[1],
    });
    // The moves without the plugin, and with it: the descent is greedy, so more moves can lead
    // it elsewhere; both are searched and the better kept, so accepting the plugin never gives
    // a recommendation predicted worse than refusing it.
    let plain = |k: Knob, c: &EngineConfig| knobs::moves_with(k, c, None);
    let with_plugin = |k: Knob, c: &EngineConfig| knobs::moves_with(k, c, allocator.as_ref());
    let mut move_sets: Vec<knobs::Moves<'_>> = vec![&plain];
    if allocator.is_some() {
        move_sets.push(&with_plugin);
    }
    let price = |config: EngineConfig, quick: bool| -> Result<Priced> {
        let prediction = if quick {
            predictor.quick(&config, predict::QUICK_SAMPLES)?
        } else {
            predictor.predict(&config, predict::SAMPLES)?
        };
        let steady = data.steady(&config, &prediction, workload);
        let w = worst_case(&ranker.costs(&steady.class_costs), &mix, rho)?;
        let memory = memory::charge(&config, &data.held(&config), wb);
        let time = ranker.time(&steady.class_costs);
        Ok(Priced {
            summary: rocksdb_summary(&config),
            config,
            prediction,
            worst: w.cost,
            worst_mix: w.workload,
            steady: Some(steady),
            memory: Some(memory),
            time,
        })
    };
    let mut current_priced = price(current.clone(), false)?;
    current_priced.summary = rocksdb_summary(current);
    let current_warnings = diff::export_warnings(current, workload);
    let fit = |c: EngineConfig| -> Option<EngineConfig> {
        let held = data.held(&c);
        let c = memory::fit_cache(c, &held, wb, budget)?;
        // Never silently lossy: a candidate the OPTIONS file cannot say exactly is not one.
        diff::export_warnings(&c, workload).iter().all(|w| current_warnings.contains(w)).then_some(c)
    };
    let start = match options.memory {
        None => current.clone(),
        Some(_) => fit(current.clone()).ok_or_else(|| {
            Error::invalid(
                "memory",
                format!(
                    "{budget} bytes leave no block cache after the current memtables and index/filter blocks ({} bytes)",
                    memory::charge(current, &data.held(current), wb).total - current.block_cache.bytes as f64
                ),
            )
        })?,
    };
    let mut candidates_priced = 1;
    let mut search_with =
        |key: fn(&Priced) -> f64, moves: knobs::Moves<'_>| -> Result<(Priced, Vec<knobs::Step<Priced>>)> {
            // A move must not cost more in the run than it saves: the steady state prices writes the
            // run may never see, and a user measures the run (the proof does).
            let run_no_worse = |a: &Priced, b: &Priced| run_cost(b) <= run_cost(a) * (1.0 + RUN_SLACK);
            let d = descend(
                price(start.clone(), true)?,
                &|p: &Priced| &p.config,
                moves,
                &fit,
                &mut |c| price(c, true),
                &key,
                &run_no_worse,
            )?;
            candidates_priced += d.priced + 1;
            // The path priced in full: the choice and the shares are made on full prices.
            let mut path =
                vec![if options.memory.is_none() { current_priced.clone() } else { price(start.clone(), false)? }];
            let mut steps = Vec::new();
            for s in &d.steps {
                let after = price(s.after.config.clone(), false)?;
                candidates_priced += 1;
                steps.push(knobs::Step { knob: s.knob, before: path[path.len() - 1].clone(), after: after.clone() });
                path.push(after);
            }
            // Ties go to the earlier design on the path: the start first. Priced in full, a design must
            // still cost no more than the start in the run.
            let best = path
                .iter()
                .filter(|p| run_no_worse(&path[0], p))
                .fold(&path[0], |b, p| if key(p) < key(b) - 1e-12 { p } else { b })
                .clone();
            let upto = path.iter().position(|p| p.config == best.config).unwrap_or(0);
            steps.truncate(upto);
            Ok((best, steps))
        };
    // Each set of moves searched; ties go to the first (no plugin).
    let mut search = |key: fn(&Priced) -> f64| -> Result<(Priced, Vec<knobs::Step<Priced>>)> {
        let mut best: Option<(Priced, Vec<knobs::Step<Priced>>)> = None;
        for moves in &move_sets {
            let found = search_with(key, *moves)?;
            if best.as_ref().is_none_or(|b| key(&found.0) < key(&b.0) - 1e-12) {
                best = Some(found);
            }
        }
        best.ok_or_else(|| Error::invalid("plugin", "no search was run"))
    };
    let (nominal, nominal_steps) = search(|p| p.ranked())?;
    let (robust, robust_steps) =
        if rho == 0.0 { (nominal.clone(), nominal_steps.clone()) } else { search(|p| p.worst)? };
    let recommended = if rho > 0.0 { "robust" } else { "nominal" };
    let (chosen, steps) = if rho > 0.0 { (&robust, &robust_steps) } else { (&nominal, &nominal_steps) };
    let ranked_key = |p: &Priced| p.headline_cost(rho);
    let mut verdict = verdict::verdict(
        ranked_key(&current_priced),
        ranked_key(chosen),
        &current_priced.ranked_costs(),
        &chosen.ranked_costs(),
        &mix,
        &unit,
    );
    // The run, too, must gain beyond the model's error: a steady-state gain the run does not show
    // is not one the user can see.
    let run = verdict::verdict(
        run_cost(&current_priced),
        run_cost(chosen),
        &ranker.costs(&current_priced.prediction.class_costs),
        &ranker.costs(&chosen.prediction.class_costs),
        &mix,
        &unit,
    );
    if run.keep && !verdict.keep {
        verdict.keep = true;
        verdict.words = format!(
            "keep your design: the steady-state gain in {unit} ({:.1}%) does not show in the run, where the gain is inside the model's error ({:.1}% to {:.1}%)",
            100.0 * verdict.gain,
            100.0 * run.low,
            100.0 * run.high
        );
    }
    if !verdict.keep {
        verdict.words.push_str(&write_amplification_caveat(&current_priced, chosen, mix[3]));
    }
    let plugin = if verdict.keep { None } else { RequiredPlugin::of(&chosen.config) };
    if let Some(p) = &plugin {
        verdict.words.push_str(&format!("; {}", p.note));
    }
    let changes = if verdict.keep {
        Vec::new()
    } else {
        diff::option_changes(&current_priced, chosen, steps, workload, ranked_key, options.plugin.is_some())
    };
    let samples = sample_neighbourhood(&mix, rho, NEIGHBOUR_SAMPLES, 1)?;
    let grown = Grown::of(given, &current_priced.config, &chosen.config)?;
    let gain = |a: f64, b: f64| if a > 0.0 { 1.0 - b / a } else { 0.0 };
    let export_warnings_new: Vec<String> = diff::export_warnings(&chosen.config, workload)
        .iter()
        .filter(|w| !current_warnings.contains(w))
        .map(diff::warning_line)
        .collect();
    Ok(TuneResult {
        kind: TUNE_KIND.into(),
        version: TUNE_VERSION,
        rho,
        target: Target::Rocksdb,
        rank: options.rank,
        calibration: ranker.calibration().cloned(),
        memory_bytes: budget,
        workload: workload.clone(),
        mix,
        neighbourhood: Neighbourhood::over(&samples, &current_priced, &nominal, &robust),
        expected_loss: if nominal.ranked() > 0.0 { robust.ranked() / nominal.ranked() - 1.0 } else { 0.0 },
        predicted_gain: gain(current_priced.prediction.expected, chosen.prediction.expected),
        headline: Headline::of(
            &verdict,
            measure(rho, &unit, "in the steady state (writes at their share of the flushes and merges they cause)"),
            HeadlineDesigns::at(rho, &current_priced, &nominal, &robust),
        ),
        candidates: candidates_priced,
        grown,
        recommended: recommended.into(),
        rocksdb: Some(RocksdbAdvice {
            write_buffers: wb,
            steady_gain: gain(current_priced.ranked(), chosen.ranked()),
            verdict,
            changes,
            shares_note: "each change's share is the steady-state cost its move took off, the moves added one at a \
                          time in the order the search took them (coordinate descent), over the whole gain"
                .into(),
            robust_note: robust_note(rho, &nominal, &robust, &mix),
            export_warnings: export_warnings_new,
            plugin_allowed: options.plugin,
            plugin,
            process: options.process,
            predicted_gain_range: gain_range(&current_priced, chosen),
        }),
        current: current_priced,
        nominal,
        robust,
    })
}

/// A recommendation that writes each byte more often than the current design is not free even
/// where the workload seldom writes: the data got there by writes, and will again. Said with the
/// verdict when the steady write amplification rises by a quarter or more.
fn write_amplification_caveat(current: &Priced, chosen: &Priced, write_share: f64) -> String {
    let (Some(a), Some(b)) = (&current.steady, &chosen.steady) else { return String::new() };
    if a.write_amp <= 0.0 || b.write_amp < 1.25 * a.write_amp {
        return String::new();
    }
    format!(
        "; it writes more: write amplification {:.2} → {:.2}, so every byte loaded or written costs {:.1}× the I/O \
         (writes are {:.0}% of this workload's operations)",
        a.write_amp,
        b.write_amp,
        b.write_amp / a.write_amp,
        100.0 * write_share
    )
}

/// Why the robust design is the nominal one, or what it trades for the worst case.
fn robust_note(rho: f64, nominal: &Priced, robust: &Priced, mix: &[f64; 4]) -> String {
    let shares = |m: &[f64; 4]| m.iter().map(|x| format!("{:.0}%", 100.0 * x)).collect::<Vec<_>>().join(" / ");
    if rho == 0.0 {
        return "ρ = 0: the workload may not drift, so the robust design is the nominal one by definition".into();
    }
    if robust.config == nominal.config {
        let same = robust.worst_mix.iter().zip(mix).all(|(a, b)| (a - b).abs() < 1e-6);
        return if same {
            format!(
                "within ρ = {rho} the worst-case mix is the expected one ({}), so the nominal design is also the robust one",
                shares(mix)
            )
        } else {
            format!(
                "within ρ = {rho} the worst case is the mix {} (zero-result / non-zero-result / range / writes; expected {}), and no other design in the same memory costs less there: the nominal design is also the robust one",
                shares(&robust.worst_mix),
                shares(mix)
            )
        };
    }
    format!(
        "the robust design costs {:.1}% more at the expected mix and {:.1}% less at its worst mix within ρ = {rho} ({})",
        100.0 * (robust.ranked() / nominal.ranked().max(1e-300) - 1.0),
        100.0 * (1.0 - robust.worst / nominal.worst.max(1e-300)),
        shares(&robust.worst_mix)
    )
}

/// The predicted gain's range over the process's scenarios (`predict::process`): the gain in each
/// (current and recommended priced under the same timing), [min, max]; None without a restart.
fn gain_range(current: &Priced, chosen: &Priced) -> Option<[f64; 2]> {
    let (Some(c), Some(r)) = (&current.prediction.process, &chosen.prediction.process) else {
        return None;
    };
    let gains: Vec<f64> =
        c.expected.iter().zip(&r.expected).map(|(&c, &r)| if c > 0.0 { 1.0 - r / c } else { 0.0 }).collect();
    Some([gains.iter().copied().fold(f64::INFINITY, f64::min), gains.iter().copied().fold(f64::NEG_INFINITY, f64::max)])
}

//! db_bench command lines read as workloads and played as db_bench draws them: the vectors are
//! derived from db_bench_tool.cc's formulas (RocksDB 7.8.3), not from this crate's code.

// Test code: a failed expectation is the test failing, with its message.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use lsm_core::db_bench::{DbBenchBenchmark, DbBenchLoad};
use lsm_core::math::{exp, pow};
use lsm_core::workload::Distribution;
use lsm_workload::db_bench::{from_command_line, looks_like_db_bench};
use lsm_workload::generator::{Generator, Intent, Op, OpSource, Phase};

/// The ZippyDB fit of Cao et al. (FAST'20) as db_bench flags (issue 48), at a chosen scale.
fn zippydb(num: u64, fill: bool) -> String {
    format!(
        "./db_bench --benchmarks={}mixgraph --num={num} --key_size=48 -key_dist_a=0.002312 -key_dist_b=0.3467 \\\n\
         -keyrange_dist_a=14.18 -keyrange_dist_b=-2.917 -keyrange_dist_c=0.0164 -keyrange_dist_d=-0.08082 \\\n\
         -keyrange_num=30 -value_k=0.2615 -value_sigma=25.45 -iter_k=2.517 -iter_sigma=14.236 \\\n\
         -mix_get_ratio=0.83 -mix_put_ratio=0.14 -mix_seek_ratio=0.03 -sine_a=1000 -sine_mix_rate \\\n\
         --write_buffer_size=1048576 --statistics --frobnicate=3",
        if fill { "fillrandom," } else { "" }
    )
}

#[test]
fn the_zippydb_line_parses_with_its_counts_and_warnings() {
    let text = zippydb(50_000, true);
    assert!(looks_like_db_bench(&text));
    let imported = from_command_line(&text).unwrap();
    let w = &imported.workload;
    let play = w.db_bench.as_ref().unwrap();
    assert_eq!((play.load, play.benchmark), (DbBenchLoad::Fillrandom, DbBenchBenchmark::Mixgraph));
    // --num is the fill's writes and, without --reads, mixgraph's operations.
    assert_eq!((w.preload.entries, w.operations, play.num), (50_000, 50_000, 50_000));
    assert_eq!((w.preload.key_bytes, w.preload.value_bytes), (48, 100));
    assert_eq!((play.keyrange_num, play.key_dist_b, play.iter_sigma), (30, 0.3467, 14.236));
    // QueryDecider's slots: ceil(1000·0.83) = 830, 140, 30 of 1000.
    assert_eq!((w.mix.get_existing, w.mix.update, w.mix.range), (0.83, 0.14, 0.03));
    let flagged: Vec<&str> = imported.warnings.iter().map(|w| w.field.as_str()).collect();
    assert_eq!(flagged, ["--sine_a", "--sine_mix_rate", "--write_buffer_size", "--keyrange_num"]);
    assert!(imported.warnings[2].message.contains("OPTIONS"));
    assert_eq!(imported.unknown_flags, ["--frobnicate"]);
    assert!(matches!(w.distribution, Distribution::Hotspot { .. }));
}

#[test]
fn bad_values_are_errors_naming_the_flag() {
    let err = |text: &str| from_command_line(text).unwrap_err().to_string();
    assert_eq!(
        err("db_bench --benchmarks=mixgraph --num=0"),
        "--num: must be an integer in [1, 1000000000], got \"0\""
    );
    assert_eq!(
        err("db_bench --benchmarks=mixgraph -mix_get_ratio=lots"),
        "--mix_get_ratio: must be a finite number, got \"lots\""
    );
    assert!(err("db_bench --benchmarks=fillrandom,overwrite").starts_with("--benchmarks: \"overwrite\" is not one"));
    assert!(
        err("db_bench --benchmarks=mixgraph,fillrandom").starts_with("--benchmarks: \"fillrandom\" must come first")
    );
    assert_eq!(
        err("db_bench --benchmarks=readrandom --key_size=4"),
        "--key_size: must be an integer in [8, 1024], got \"4\""
    );
    assert_eq!(
        err("db_bench --benchmarks=mixgraph --mix_get_ratio=0"),
        "--mix_get_ratio: mix_get_ratio + mix_put_ratio + mix_seek_ratio must be above 0, got 0"
    );
    assert!(
        err("db_bench --benchmarks=mixgraph --num=100 -keyrange_dist_a=1 -keyrange_num=101")
            .starts_with("--keyrange_num: must be an integer in [1, 100]")
    );
    // A fuzzer's: refused (now before any of its 30 million ranges is built).
    assert!(
        err("db_bench --benchmarks=mixgraph --num=3000 -keyrange_dist_a=14.18 -keyrange_num=30261082")
            .starts_with("--keyrange_num: must be an integer in [1, 3000]")
    );
    assert!(
        err("db_bench --benchmarks=readrandom --keys_per_prefix=10 --prefix_size=12 --key_size=16")
            .starts_with("--prefix_size: must be an integer in [0, 8]")
    );
}

/// Runs the generator; per run operation: (kind 0 Get / 1 Put / 2 Seek, id, value length).
fn run_ops(text: &str) -> Vec<(u8, u64, usize)> {
    let w = from_command_line(text).unwrap().workload;
    let mut g = Generator::new(&w);
    let mut out = Vec::new();
    while let Some((phase, op)) = g.next_op().unwrap() {
        if phase == Phase::Preload {
            continue;
        }
        out.push(match op {
            Op::Get { id, .. } => (0, id, 0),
            Op::Put { id, value, .. } => (1, id, value.len()),
            Op::Range { lo, .. } => (2, lo, 0),
            Op::Delete { .. } => panic!("db_bench has no deletes here"),
        });
    }
    out
}

#[test]
fn a_million_zippydb_draws_follow_db_bench_formulas() {
    let ops = run_ops(&format!("{} --reads=1000000", zippydb(1_000_000, false)));
    assert_eq!(ops.len(), 1_000_000);
    let n = ops.len() as f64;
    let share = |kind: u8| ops.iter().filter(|o| o.0 == kind).count() as f64 / n;
    for (kind, want) in [(0, 0.83), (1, 0.14), (2, 0.03)] {
        let got = share(kind);
        assert!((got / want - 1.0).abs() < 0.01, "query type {kind}: {got} vs {want}");
    }
    // The hottest key range (x = 1): db_bench gives range x ⌊amplify·w(x)⌋ slots, w(x) =
    // a·e^(bx)+c·e^(dx) and amplify = ⌊1/w(30)⌋ + 1 (the first weight it meets, x = 30), and
    // draws a slot uniformly; ranges hold num/30 ids each, shuffled, so find it as the most drawn.
    let weight = |x: f64| 14.18 * exp(-2.917 * x) + 0.0164 * exp(-0.08082 * x);
    let amplify = (1.0 / weight(30.0)).floor() + 1.0;
    let total: f64 = (1..=30).map(|x| (amplify * weight(f64::from(x))).floor()).sum();
    let size = 1_000_000 / 30;
    let mut per_range = [0u64; 30];
    for o in &ops {
        per_range[(o.1 / size).min(29) as usize] += 1;
    }
    let hottest = *per_range.iter().max().unwrap() as f64 / n;
    let want = (amplify * weight(1.0)).floor() / total;
    assert!((hottest / want - 1.0).abs() < 0.01, "hottest range {hottest} vs {want}");
    // Put value sizes: Pareto(k 0.2615, σ 25.45) rounded up and raised to 10 (the wrap at 1024
    // holds < 0.01% of draws): E = 10 + σ/(1−k)·(1 + 10k/σ)^(1−1/k), + ½ for the rounding up.
    let (k, sigma) = (0.2615, 25.45);
    let want = 10.0 + sigma / (1.0 - k) * pow(1.0 + 10.0 * k / sigma, 1.0 - 1.0 / k) + 0.5;
    let puts: Vec<f64> = ops.iter().filter(|o| o.0 == 1).map(|o| o.2 as f64).collect();
    let mean = puts.iter().sum::<f64>() / puts.len() as f64;
    assert!((mean / want - 1.0).abs() < 0.02, "mean value {mean} vs {want}");
    let w = from_command_line(&zippydb(1_000_000, false)).unwrap().workload;
    assert!((w.db_bench.unwrap().mean_put_value() / want - 1.0).abs() < 0.02);
}

#[test]
fn all_random_draws_ids_uniformly_and_keys_are_formed_as_db_bench_does() {
    let text = "db_bench --benchmarks=fillseq,readrandom --num=1000 --reads=100000 --key_size=20 --value_size=7";
    let w = from_command_line(text).unwrap().workload;
    let mut g = Generator::new(&w);
    let (mut fill, mut found, mut reads) = (0u64, 0u64, 0u64);
    while let Some((phase, op)) = g.next_op().unwrap() {
        match (phase, op) {
            (Phase::Preload, Op::Put { id, key, value, .. }) => {
                // fillseq writes 0, 1, 2 …: 8 big-endian bytes, then '0' to key_size.
                assert_eq!(id, fill);
                assert_eq!(&key[..8], &fill.to_be_bytes());
                assert_eq!(&key[8..], b"000000000000");
                assert_eq!(value.len(), 7);
                fill += 1;
            }
            (Phase::Run, Op::Get { intent, id, .. }) => {
                assert!(id < 1000);
                reads += 1;
                found += u64::from(intent == Intent::GetExisting);
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!((fill, reads, found), (1000, 100_000, 100_000));
}

#[test]
fn prefixed_keys_carry_the_prefix_id_first() {
    let text = "db_bench --benchmarks=fillrandom --num=100 --keys_per_prefix=10 --prefix_size=8 --key_size=24";
    let w = from_command_line(text).unwrap().workload;
    let mut g = Generator::new(&w);
    while let Some((_, op)) = g.next_op().unwrap() {
        let Op::Put { id, key, .. } = op else { panic!("a fill only writes") };
        assert_eq!(&key[..8], &(id % 10).to_be_bytes());
        assert_eq!(&key[8..16], &id.to_be_bytes());
        assert_eq!(&key[16..], b"00000000");
    }
}

#[test]
fn readrandomwriterandom_plays_batches_of_a_hundred_and_fillrandom_repeats() {
    let text = "db_bench --benchmarks=fillrandom,readrandomwriterandom --num=10000 --readwritepercent=70";
    let w = from_command_line(text).unwrap().workload;
    let mut g = Generator::new(&w);
    let mut kinds = Vec::new();
    let mut filled = std::collections::BTreeSet::new();
    while let Some((phase, op)) = g.next_op().unwrap() {
        match (phase, op) {
            (Phase::Preload, Op::Put { id, .. }) => {
                filled.insert(id);
            }
            (Phase::Run, Op::Get { .. }) => kinds.push(0),
            (Phase::Run, Op::Put { .. }) => kinds.push(1),
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(kinds.len(), 10_000);
    assert!(kinds[..70].iter().all(|&k| k == 0) && kinds[70..100].iter().all(|&k| k == 1));
    assert_eq!(kinds.iter().filter(|&&k| k == 0).count(), 7000);
    // 10,000 draws with repeats over 10,000 ids leave 1 − e^−1 of them written.
    let distinct = filled.len() as f64 / 10_000.0;
    assert!((distinct - (1.0 - exp(-1.0))).abs() < 0.01, "{distinct}");
}

#[test]
fn a_seek_reads_the_next_written_keys() {
    let text = "db_bench --benchmarks=fillseq,seekrandom --num=1000 --writes=500 --reads=200 --seek_nexts=5";
    let w = from_command_line(text).unwrap().workload;
    let mut g = Generator::new(&w);
    let mut seeks = 0;
    while let Some((phase, op)) = g.next_op().unwrap() {
        if let (Phase::Run, Op::Range { lo, hi, start, end }) = (phase, op) {
            seeks += 1;
            assert_eq!(&start[..8], &lo.to_be_bytes());
            if lo + 5 <= 500 {
                // ids 0…499 are written: the fifth at or after lo is lo + 4.
                assert_eq!((hi, &end[..8]), (lo + 4, &(lo + 4).to_be_bytes()[..]));
            } else if lo < 500 {
                assert_eq!(hi, 499);
            } else {
                assert!(end.is_empty(), "nothing after {lo}: an empty range");
            }
        }
    }
    assert_eq!(seeks, 200);
}

#[test]
fn the_engine_view_is_a_plain_workload_and_export_gives_back_the_flags() {
    let imported = from_command_line(&zippydb(50_000, true)).unwrap();
    let w = &imported.workload;
    let view = w.engine_view();
    view.validate().unwrap();
    assert!(view.db_bench.is_none());
    // 50,000 draws with repeats over 50,000 ids: 1 − e^−1 of them.
    assert_eq!(view.preload.entries, (50_000.0 * (1.0 - exp(-1.0))).round() as u64);
    assert_eq!(view.preload.key_space, 50_000);
    let found = view.preload.entries as f64 / 50_000.0;
    assert!((view.mix.get_existing - 0.83 * found).abs() < 1e-12);
    assert!((view.mix.get_missing - 0.83 * (1.0 - found)).abs() < 1e-12);
    let again = from_command_line(&format!("db_bench {}", w.db_bench.as_ref().unwrap().flags(w).join(" "))).unwrap();
    assert_eq!(&again.workload.db_bench, &w.db_bench);
    assert_eq!((again.workload.preload.entries, again.workload.operations), (w.preload.entries, w.operations));
}

/// Two lines the fuzzer found (db_bench_flags): updaterandom's engine view split its Gets into
/// found and missing twice (its mix summed to 0.816 at 1,000 keys), and a section's own flags
/// dropped a prefix size without keys_per_prefix and a non-mixgraph benchmark's mixgraph flags,
/// so the line did not read back to the same section.
#[test]
fn updaterandom_prices_a_whole_mix_and_every_section_reads_back_from_its_flags() {
    let update =
        from_command_line("db_bench --benchmarks=fillrandom,updaterandom,stats --num 1000 --value_size 50 --seed=3")
            .expect("reads")
            .workload;
    let view = update.engine_view();
    view.validate().expect("the engine view is valid");
    let sum: f64 = view.mix.parts().iter().map(|(_, f)| f).sum();
    assert!((sum - 1.0).abs() < 1e-9, "mix sums to {sum}");
    assert!((view.mix.update - 0.5).abs() < 1e-9);
    for line in [
        "db_bench --benchmarks=fillrandom,readrandomwriterandom --num=1000 --readwritepercent=70 --prefix_size=8 --key_size=24",
        "db_bench --benchmarks=fillseq,seekrandom --num=1000 --writes=500 --seek_nexts=5 -keyrange_dist_c=0.0164",
    ] {
        let w = from_command_line(line).expect("reads").workload;
        let play = w.db_bench.clone().expect("a db_bench section");
        let again = from_command_line(&format!("db_bench {}", play.flags(&w).join(" "))).expect("its own flags read");
        assert_eq!(again.workload.db_bench, w.db_bench, "{line}");
    }
}

#[test]
fn updaterandom_beyond_the_engines_operations_is_refused_by_name() {
    // A fuzzer's find: 862,181,615 updaterandom operations are valid client operations but
    // 1,724,363,230 engine operations (a Get and a Put each), past the engine's 10⁹.
    let text = "db_bench --benchmarks=fillrandom,updaterandom --num 862181615";
    let e = lsm_workload::db_bench::from_command_line(text).map(|i| i.workload.validate());
    let message = match e {
        Err(e) | Ok(Err(e)) => e.to_string(),
        Ok(Ok(())) => panic!("accepted"),
    };
    assert!(message.contains("operations") && message.contains("[0, 500000000]"), "{message}");
    // Half of the bound is accepted, and so is its engine view.
    let ok = lsm_workload::db_bench::from_command_line("db_bench --benchmarks=fillrandom,updaterandom --num 500000000")
        .unwrap();
    ok.workload.validate().unwrap();
    ok.workload.engine_view().validate().unwrap();
}

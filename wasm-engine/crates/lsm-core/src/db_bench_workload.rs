//! A db_bench section read against the Workload that holds it: the mix its benchmark plays, the
//! validation of its flags and of the Workload fields it fixes, the plain workload the predictor
//! prices (`engine_view`), and the db_bench flags that play it. Kept apart from
//! `crate::db_bench` (the flags and db_bench's arithmetic) so the Workload document can hold the
//! section without the two modules reaching each other.

use crate::db_bench::{DbBenchBenchmark, DbBenchLoad, DbBenchPlay, MAX_KEYRANGES};
use crate::error::{Error, Result};
use crate::range::{check_integer, check_range};
use crate::workload::{Distribution, MAX_OPERATIONS, Mix, Workload};

impl DbBenchPlay {
    /// The mix the benchmark plays, as the Workload's `mix` must say it.
    pub fn mix(&self) -> Mix {
        match self.benchmark {
            DbBenchBenchmark::None => Mix::default(),
            DbBenchBenchmark::Mixgraph => {
                let s = self.query_decider().shares();
                Mix { get_existing: s[0], update: s[1], range: s[2], ..Mix::default() }
            }
            DbBenchBenchmark::Readrandomwriterandom => {
                let r = f64::from(self.readwritepercent) / 100.0;
                Mix { get_existing: r, update: 1.0 - r, ..Mix::default() }
            }
            DbBenchBenchmark::Updaterandom => Mix { read_modify_write: 1.0, ..Mix::default() },
            DbBenchBenchmark::Seekrandom => Mix { range: 1.0, ..Mix::default() },
            DbBenchBenchmark::Readrandom => Mix { get_existing: 1.0, ..Mix::default() },
        }
    }

    /// Checks each flag's range (errors name `db_bench.<flag>`) and the Workload fields the
    /// section fixes: `preload.key_space` 0, the fill's count, the mix the benchmark plays.
    pub fn validate(&self, w: &Workload) -> Result<()> {
        check_integer("db_bench.num", self.num, (1, MAX_OPERATIONS), "")?;
        if w.preload.key_space != 0 {
            return Err(Error::invalid(
                "preload.key_space",
                format!("must be 0 with db_bench (keys are ids in [0, db_bench.num)), got {}", w.preload.key_space),
            ));
        }
        if self.load == DbBenchLoad::None && w.preload.entries > 0 {
            return Err(Error::invalid(
                "preload.entries",
                format!("must be 0 when db_bench.load is none, got {}", w.preload.entries),
            ));
        }
        if self.benchmark == DbBenchBenchmark::None && w.operations > 0 {
            return Err(Error::invalid(
                "operations",
                format!("must be 0 when db_bench.benchmark is none, got {}", w.operations),
            ));
        }
        self.validate_keys(w.preload.key_bytes)?;
        check_integer("db_bench.readwritepercent", self.readwritepercent, (0, 100), "")?;
        check_integer("db_bench.seek_nexts", self.seek_nexts, (0, 1_000_000), "")?;
        if self.benchmark == DbBenchBenchmark::Mixgraph {
            self.validate_mixgraph()?;
            if self.keys_per_prefix > 0 && self.prefix_size > 0 && !self.all_random() && !self.uses_key_ranges() {
                return Err(Error::invalid(
                    "db_bench.keys_per_prefix",
                    "must be 0 for mixgraph's power law without key ranges: its negative draws name keys outside [0, num), which a prefix cannot order here".to_string(),
                ));
            }
        }
        let want = self.mix();
        if w.operations > 0 {
            for ((name, got), (_, expected)) in w.mix.parts().iter().zip(want.parts()) {
                if (got - expected).abs() > 1e-9 {
                    return Err(Error::invalid(
                        format!("mix.{name}"),
                        format!("must be {expected} with db_bench (the share {:?} plays), got {got}", self.benchmark),
                    ));
                }
            }
        }
        Ok(())
    }

    fn validate_keys(&self, key_bytes: u32) -> Result<()> {
        if self.keys_per_prefix == 0 {
            return Ok(());
        }
        check_integer("db_bench.keys_per_prefix", self.keys_per_prefix, (0, self.num), "")?;
        let most = key_bytes.saturating_sub(8);
        check_integer("db_bench.prefix_size", self.prefix_size, (0, most), " (bytes: key_size less the id's 8)")?;
        let prefixes = self.num / self.keys_per_prefix;
        if (1..8).contains(&self.prefix_size) && prefixes > 1u64 << (8 * self.prefix_size) {
            return Err(Error::invalid(
                "db_bench.prefix_size",
                format!(
                    "must hold the {prefixes} prefix ids (num / keys_per_prefix) in its bytes, got {} bytes",
                    self.prefix_size
                ),
            ));
        }
        Ok(())
    }

    fn validate_mixgraph(&self) -> Result<()> {
        const BOUND: f64 = 1e9;
        let numbers = [
            ("key_dist_a", self.key_dist_a),
            ("key_dist_b", self.key_dist_b),
            ("keyrange_dist_a", self.keyrange_dist_a),
            ("keyrange_dist_b", self.keyrange_dist_b),
            ("keyrange_dist_c", self.keyrange_dist_c),
            ("keyrange_dist_d", self.keyrange_dist_d),
            ("value_theta", self.value_theta),
            ("value_k", self.value_k),
            ("value_sigma", self.value_sigma),
            ("iter_theta", self.iter_theta),
            ("iter_k", self.iter_k),
            ("iter_sigma", self.iter_sigma),
        ];
        for (name, v) in numbers {
            check_range(&format!("db_bench.{name}"), v, -BOUND, BOUND)?;
        }
        for (name, v) in [
            ("mix_get_ratio", self.mix_get_ratio),
            ("mix_put_ratio", self.mix_put_ratio),
            ("mix_seek_ratio", self.mix_seek_ratio),
        ] {
            check_range(&format!("db_bench.{name}"), v, 0.0, BOUND)?;
        }
        if self.mix_get_ratio + self.mix_put_ratio + self.mix_seek_ratio <= 0.0 {
            return Err(Error::invalid(
                "db_bench.mix_get_ratio",
                "mix_get_ratio + mix_put_ratio + mix_seek_ratio must be above 0, got 0".to_string(),
            ));
        }
        check_integer("db_bench.mix_max_scan_len", self.mix_max_scan_len, (1, MAX_OPERATIONS), "")?;
        check_integer("db_bench.mix_max_value_size", self.mix_max_value_size, (1, 60_000), " (bytes)")?;
        if self.uses_key_ranges() {
            check_integer("db_bench.keyrange_num", self.keyrange_num, (1, self.num.min(MAX_KEYRANGES)), "")?;
            let ranges = self.key_ranges();
            // Slots beyond 2^62 would overflow db_bench's own sums; none at all has nothing to draw.
            if ranges.rand_max <= 0 || ranges.rand_max > 1 << 62 {
                return Err(Error::invalid(
                    "db_bench.keyrange_dist_a",
                    format!(
                        "the key-range weights a·e^(bx)+c·e^(dx), x = 1 … {}, must give some range a positive share without overflowing (slots {})",
                        self.keyrange_num, ranges.rand_max
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The workload as the predictor prices it: a plain Workload with db_bench's counts and mean
    /// sizes. An approximation, by design: the fill's repeats become its expected distinct keys
    /// (num·(1 − e^(−writes/num))); a Get finds a key with the probability a uniformly drawn id
    /// was filled (the fill is uniform, so hot ids are filled as often as cold ones); values are
    /// the write-weighted mean of the fill's `value_size` and the Puts' Pareto mean; a Seek covers
    /// the mean scan length; and the key choice becomes the closest plain distribution — a
    /// hotspot fitted to the key ranges' shares, Zipf(1 − b) for a power law alone, else uniform.
    pub fn engine_view(&self, w: &Workload) -> Workload {
        let num = self.num as f64;
        let writes = w.preload.entries as f64;
        let distinct = match self.load {
            DbBenchLoad::None => 0.0,
            DbBenchLoad::Fillseq => writes.min(num),
            DbBenchLoad::Fillrandom => num * (1.0 - crate::math::exp(-writes / num)),
        };
        let entries = (distinct.round() as u64).min(self.num.saturating_sub(1));
        // Without key ranges mixgraph's power law keys a draw by Random64's output taken as int64
        // modulo num (`mixgraph_key`): negative for half the draws, an id no fill wrote.
        let scattered_negative =
            self.benchmark == DbBenchBenchmark::Mixgraph && !self.all_random() && !self.uses_key_ranges();
        let found = entries as f64 / num * if scattered_negative { 0.5 } else { 1.0 };
        let (per_op, mix, scan) = match self.benchmark {
            DbBenchBenchmark::Updaterandom => (
                2.0,
                // A Get then a Put per operation; the Gets are split into found and missing below.
                Mix { get_existing: 0.5, update: 0.5, ..Mix::default() },
                0.0,
            ),
            DbBenchBenchmark::Seekrandom => (1.0, Mix { range: 1.0, ..Mix::default() }, f64::from(self.seek_nexts)),
            DbBenchBenchmark::Mixgraph => (1.0, self.mix(), self.mean_scan_length()),
            _ => (1.0, self.mix(), 0.0),
        };
        let gets = mix.get_existing;
        let mix = Mix { get_existing: gets * found, get_missing: gets * (1.0 - found), ..mix };
        let mix = if entries == 0 { Mix { insert: mix.update, update: 0.0, ..mix } } else { mix };
        let run_puts = w.operations as f64 * per_op * (mix.update + mix.insert);
        let put_bytes = match self.benchmark {
            DbBenchBenchmark::Mixgraph => self.mean_put_value(),
            _ => f64::from(w.preload.value_bytes),
        };
        let all = writes + run_puts;
        let value_bytes = if all > 0.0 {
            (writes * f64::from(w.preload.value_bytes) + run_puts * put_bytes) / all
        } else {
            f64::from(w.preload.value_bytes)
        };
        let mut plain = w.clone();
        plain.db_bench = None;
        plain.preload.entries = entries;
        plain.preload.key_space = self.num.max(entries + 1);
        plain.preload.value_bytes = value_bytes.round() as u32;
        plain.operations = (w.operations as f64 * per_op).round() as u64;
        plain.mix = mix;
        plain.range_selectivity = ((scan.max(1.0)) / num).min(1.0);
        plain.distribution = self.fitted_distribution();
        plain
    }

    /// The plain distribution closest to the benchmark's key choice (see `engine_view`).
    pub fn fitted_distribution(&self) -> Distribution {
        // Uniform draws (`use_random_modeling`) take precedence over key ranges, as in db_bench.
        if self.benchmark != DbBenchBenchmark::Mixgraph || self.all_random() {
            return Distribution::Uniform;
        }
        if self.uses_key_ranges() {
            let mut shares = self.key_ranges().shares();
            shares.sort_by(|a, b| b.total_cmp(a));
            let n = shares.len() as f64;
            // The hot set that departs most from uniform: the top m ranges maximising
            // share(m) − m/n (the Kolmogorov–Smirnov point of the two distributions).
            let (mut best, mut best_gap, mut acc) = ((0usize, 0.0), 0.0, 0.0);
            for (i, s) in shares.iter().enumerate() {
                acc += s;
                let gap = acc - (i + 1) as f64 / n;
                if gap > best_gap {
                    best_gap = gap;
                    best = (i + 1, acc);
                }
            }
            if best.0 == 0 || best.0 == shares.len() {
                return Distribution::Uniform;
            }
            return Distribution::Hotspot { hot_fraction: best.0 as f64 / n, hot_probability: best.1.min(1.0) };
        }
        Distribution::Zipf { theta: (1.0 - self.key_dist_b).clamp(0.0, 5.0) }
    }

    /// The db_bench flags that play this section with `w`'s counts (the exporter's command
    /// line; lsm-workload's reader reads it back to the same section).
    pub fn flags(&self, w: &Workload) -> Vec<String> {
        let play = self;
        let mut out = Vec::new();
        let load = match play.load {
            DbBenchLoad::None => None,
            DbBenchLoad::Fillrandom => Some("fillrandom"),
            DbBenchLoad::Fillseq => Some("fillseq"),
        };
        let run = match play.benchmark {
            DbBenchBenchmark::None => None,
            DbBenchBenchmark::Mixgraph => Some("mixgraph"),
            DbBenchBenchmark::Readrandomwriterandom => Some("readrandomwriterandom"),
            DbBenchBenchmark::Updaterandom => Some("updaterandom"),
            DbBenchBenchmark::Seekrandom => Some("seekrandom"),
            DbBenchBenchmark::Readrandom => Some("readrandom"),
        };
        let list: Vec<&str> = [load, run].into_iter().flatten().collect();
        out.push(format!("--benchmarks={}", list.join(",")));
        out.push(format!("--num={}", play.num));
        // db_bench's defaults are num; readrandomwriterandom and updaterandom take the larger of
        // --writes and --reads, so a fill and such a run of different counts need two command lines.
        if w.preload.entries != play.num && play.load != DbBenchLoad::None {
            out.push(format!("--writes={}", w.preload.entries));
        }
        if w.operations != play.num {
            out.push(format!("--reads={}", w.operations));
        }
        out.push(format!("--seed={}", w.seed as i64));
        out.push(format!("--key_size={}", w.preload.key_bytes));
        out.push(format!("--value_size={}", w.preload.value_bytes));
        // Each written when set, so the section reads back whole (a prefix size without
        // keys_per_prefix does nothing in db_bench, but it is what the line said).
        if play.keys_per_prefix > 0 {
            out.push(format!("--keys_per_prefix={}", play.keys_per_prefix));
        }
        if play.prefix_size > 0 {
            out.push(format!("--prefix_size={}", play.prefix_size));
        }
        // Every benchmark's parameters, whichever runs: db_bench reads them all and uses its own,
        // and the line reads back to the same section.
        out.push(format!("--readwritepercent={}", play.readwritepercent));
        out.push(format!("--seek_nexts={}", play.seek_nexts));
        for (name, v) in [
            ("key_dist_a", play.key_dist_a),
            ("key_dist_b", play.key_dist_b),
            ("keyrange_dist_a", play.keyrange_dist_a),
            ("keyrange_dist_b", play.keyrange_dist_b),
            ("keyrange_dist_c", play.keyrange_dist_c),
            ("keyrange_dist_d", play.keyrange_dist_d),
            ("value_theta", play.value_theta),
            ("value_k", play.value_k),
            ("value_sigma", play.value_sigma),
            ("iter_theta", play.iter_theta),
            ("iter_k", play.iter_k),
            ("iter_sigma", play.iter_sigma),
            ("mix_get_ratio", play.mix_get_ratio),
            ("mix_put_ratio", play.mix_put_ratio),
            ("mix_seek_ratio", play.mix_seek_ratio),
        ] {
            out.push(format!("-{name}={v}"));
        }
        out.push(format!("-keyrange_num={}", play.keyrange_num));
        out.push(format!("-mix_max_scan_len={}", play.mix_max_scan_len));
        out.push(format!("-mix_max_value_size={}", play.mix_max_value_size));
        out
    }
}

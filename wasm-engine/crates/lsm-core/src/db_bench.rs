//! The Workload section (`DbBenchPlay`) that asks the generator to play a workload as db_bench
//! (RocksDB 7.8.3, tools/db_bench_tool.cc) does: its key format, its fill, and one benchmark —
//! `mixgraph` (`lsm_core::mixgraph` has the arithmetic), `readrandomwriterandom`,
//! `updaterandom`, `seekrandom`, `readrandom`. The Workload's own fields carry the counts
//! (`preload.entries` = the fill's writes, `operations` = the benchmark's), the sizes
//! (`preload.key_bytes` = `--key_size`, `preload.value_bytes` = `--value_size`) and the mix the
//! benchmark plays; `crate::db_bench_workload` reads the section against its Workload (the mix,
//! validation, the plain workload the predictor prices, the flags).

use serde::{Deserialize, Serialize};

use crate::mixgraph::{KeyRanges, QueryDecider, mix_scan_length, mix_value_size, mt64_first, power_cdf_inversion};

/// What runs before the benchmark (`--benchmarks=fillrandom,…`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum DbBenchLoad {
    /// No fill: the benchmark starts on an empty database (`preload.entries` must be 0).
    None,
    /// `fillrandom`: `preload.entries` writes of ids drawn uniformly from [0, num), with
    /// repeats (so about num·(1 − e^(−writes/num)) distinct keys).
    Fillrandom,
    /// `fillseq`: ids 0, 1, 2 … in order.
    Fillseq,
}

/// The benchmark the run plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum DbBenchBenchmark {
    /// Only the fill (`operations` must be 0).
    None,
    /// Get / Put / Seek by `mix_*_ratio`, keys by key-range hotness and a power law, Pareto
    /// value sizes and scan lengths.
    Mixgraph,
    /// Gets then Puts in batches of 100: `readwritepercent` of them Gets; uniform keys.
    Readrandomwriterandom,
    /// A Get then a Put of one uniformly drawn key (mix `read_modify_write`).
    Updaterandom,
    /// A Seek to a uniformly drawn key then `seek_nexts` Nexts.
    Seekrandom,
    /// Gets of uniformly drawn keys.
    Readrandom,
}

/// db_bench's flags that shape the workload (names as db_bench spells them, defaults as 7.8.3's).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct DbBenchPlay {
    /// The fill before the run.
    pub load: DbBenchLoad,
    /// The benchmark of the run.
    pub benchmark: DbBenchBenchmark,
    /// `--num`: keys are ids in [0, num); in [1, 1000000000].
    pub num: u64,
    /// `--keys_per_prefix`: with a positive value, keys start with a prefix id (id mod
    /// num/keys_per_prefix) of `prefix_size` bytes; in [0, num]. Default 0.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub keys_per_prefix: u64,
    /// `--prefix_size`, bytes; at most key_bytes − 8. Default 0.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub prefix_size: u32,
    /// `--readwritepercent` (readrandomwriterandom); in [0, 100], default 90.
    #[serde(default = "d_rwp")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub readwritepercent: u32,
    /// `--seek_nexts` (seekrandom); in [0, 1000000], default 0.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub seek_nexts: u32,
    /// `--key_dist_a`: the power law a·x^b of keys within a range; 0 (or b 0) draws uniformly.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub key_dist_a: f64,
    /// `--key_dist_b`.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub key_dist_b: f64,
    /// `--keyrange_dist_a`: key-range hotness a·e^(bx)+c·e^(dx); all four 0: no key ranges.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub keyrange_dist_a: f64,
    /// `--keyrange_dist_b`.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub keyrange_dist_b: f64,
    /// `--keyrange_dist_c`.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub keyrange_dist_c: f64,
    /// `--keyrange_dist_d`.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub keyrange_dist_d: f64,
    /// `--keyrange_num`: key ranges; in [1, min(num, 1000000)], default 1.
    #[serde(default = "d_one")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub keyrange_num: u64,
    /// `--value_theta`: Pareto location of Put value sizes; default 0.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub value_theta: f64,
    /// `--value_k`: Pareto shape; default 0.2615.
    #[serde(default = "d_value_k")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub value_k: f64,
    /// `--value_sigma`: Pareto scale; default 25.45.
    #[serde(default = "d_value_sigma")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub value_sigma: f64,
    /// `--iter_theta`: Pareto location of scan lengths; default 0.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub iter_theta: f64,
    /// `--iter_k`: default 2.517.
    #[serde(default = "d_iter_k")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub iter_k: f64,
    /// `--iter_sigma`: default 14.236.
    #[serde(default = "d_iter_sigma")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub iter_sigma: f64,
    /// `--mix_get_ratio`; default 1.
    #[serde(default = "d_get")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub mix_get_ratio: f64,
    /// `--mix_put_ratio`; default 0.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub mix_put_ratio: f64,
    /// `--mix_seek_ratio`; default 0.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub mix_seek_ratio: f64,
    /// `--mix_max_scan_len`: scan lengths are taken modulo it; in [1, 1000000000], default 10000.
    #[serde(default = "d_scan")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub mix_max_scan_len: u64,
    /// `--mix_max_value_size`: larger drawn sizes wrap modulo it; in [1, 60000] here (db_bench
    /// allows 1 MiB), default 1024.
    #[serde(default = "d_value_max")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub mix_max_value_size: u32,
}

fn d_rwp() -> u32 {
    90
}
fn d_one() -> u64 {
    1
}
fn d_value_k() -> f64 {
    0.2615
}
fn d_value_sigma() -> f64 {
    25.45
}
fn d_iter_k() -> f64 {
    2.517
}
fn d_iter_sigma() -> f64 {
    14.236
}
fn d_get() -> f64 {
    1.0
}
fn d_scan() -> u64 {
    10_000
}
fn d_value_max() -> u32 {
    1024
}

/// Most key ranges (each is a table entry the generator searches).
pub const MAX_KEYRANGES: u64 = 1_000_000;
/// Points the engine view averages Pareto draws over (u on a midpoint grid of [0, 1)). For
/// ZippyDB's parameters 4,096 points land within 0.2% (value sizes) and 0.8% (scan lengths) of a
/// 2^21-point grid: the error is the wrapped tail's, noise-like, and 16× more points buy only a
/// third of it, at a cost every workload read pays.
const MEAN_GRID: u32 = 1 << 12;

impl DbBenchPlay {
    /// db_bench's defaults for `benchmark` over `num` keys, loaded by `load`.
    pub fn defaults(load: DbBenchLoad, benchmark: DbBenchBenchmark, num: u64) -> DbBenchPlay {
        DbBenchPlay {
            load,
            benchmark,
            num,
            keys_per_prefix: 0,
            prefix_size: 0,
            readwritepercent: d_rwp(),
            seek_nexts: 0,
            key_dist_a: 0.0,
            key_dist_b: 0.0,
            keyrange_dist_a: 0.0,
            keyrange_dist_b: 0.0,
            keyrange_dist_c: 0.0,
            keyrange_dist_d: 0.0,
            keyrange_num: 1,
            value_theta: 0.0,
            value_k: d_value_k(),
            value_sigma: d_value_sigma(),
            iter_theta: 0.0,
            iter_k: d_iter_k(),
            iter_sigma: d_iter_sigma(),
            mix_get_ratio: 1.0,
            mix_put_ratio: 0.0,
            mix_seek_ratio: 0.0,
            mix_max_scan_len: d_scan(),
            mix_max_value_size: d_value_max(),
        }
    }

    /// Whether mixgraph picks a key range first (any keyrange_dist parameter non-zero).
    pub fn uses_key_ranges(&self) -> bool {
        [self.keyrange_dist_a, self.keyrange_dist_b, self.keyrange_dist_c, self.keyrange_dist_d]
            .iter()
            .any(|&x| x != 0.0)
    }

    /// Whether mixgraph draws keys uniformly (`use_random_modeling`: key_dist_a or _b is 0).
    pub fn all_random(&self) -> bool {
        self.key_dist_a == 0.0 || self.key_dist_b == 0.0
    }

    /// The key ranges mixgraph builds (when `uses_key_ranges`).
    pub fn key_ranges(&self) -> KeyRanges {
        KeyRanges::new(
            self.num as i64,
            self.keyrange_num as i64,
            self.keyrange_dist_a,
            self.keyrange_dist_b,
            self.keyrange_dist_c,
            self.keyrange_dist_d,
        )
    }

    /// The id MixGraph keys a draw `ini_rand` (in [0, num)) by: the draw itself (`all_random`),
    /// the range and offset `ranges` give it (`KeyRanges::key_id`, when `uses_key_ranges`), or the
    /// power law's seed for u = ini_rand / num scattered over all ids — `Random64`'s output taken
    /// as int64 modulo num, negative half the time (db_bench then keys an id no fill wrote).
    pub fn mixgraph_key(&self, ranges: Option<&KeyRanges>, ini_rand: i64) -> i64 {
        if self.all_random() {
            return ini_rand;
        }
        if let Some(ranges) = ranges {
            return ranges.key_id(ini_rand, self.key_dist_a, self.key_dist_b);
        }
        let u = (ini_rand % self.num as i64) as f64 / self.num as f64;
        let seed = power_cdf_inversion(u, self.key_dist_a, self.key_dist_b);
        (mt64_first(seed as u64) as i64) % self.num as i64
    }

    /// mixgraph's query decider over Get, Put, Seek.
    pub fn query_decider(&self) -> QueryDecider {
        QueryDecider::new(&[self.mix_get_ratio, self.mix_put_ratio, self.mix_seek_ratio])
    }

    /// The value size cap mixgraph wraps at (`min(1 MiB, mix_max_value_size)`).
    pub fn value_max(&self) -> i64 {
        i64::from(self.mix_max_value_size).min(1 << 20)
    }

    /// Mean of a mixgraph Put's value size, u uniform on [0, 1) (a midpoint grid).
    pub fn mean_put_value(&self) -> f64 {
        let max = self.value_max();
        let sum: f64 = (0..MEAN_GRID)
            .map(|i| {
                let u = (f64::from(i) + 0.5) / f64::from(MEAN_GRID);
                mix_value_size(u, self.value_theta, self.value_k, self.value_sigma, max) as f64
            })
            .sum();
        sum / f64::from(MEAN_GRID)
    }

    /// Mean of a mixgraph Seek's scan length (Nexts after the Seek).
    pub fn mean_scan_length(&self) -> f64 {
        let max = self.mix_max_scan_len as i64;
        let sum: f64 = (0..MEAN_GRID)
            .map(|i| {
                let u = (f64::from(i) + 0.5) / f64::from(MEAN_GRID);
                mix_scan_length(u, self.iter_theta, self.iter_k, self.iter_sigma, max) as f64
            })
            .sum();
        sum / f64::from(MEAN_GRID)
    }
}

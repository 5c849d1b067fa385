//! Key popularity as the workload generator draws it, in bins of keys that share a probability:
//! what the predictor needs to know which keys a run holds and where a lookup finds its key.

use lsm_core::db_bench::{DbBenchBenchmark, DbBenchPlay};
use lsm_core::math::{exp, ln, ln_1p, pow};
use lsm_core::workload::{Distribution, Workload};

/// Zipf ranks priced one by one before geometric bins take over.
pub(super) const EXACT_RANKS: f64 = 64.0;
/// Growth of the rank bins past `EXACT_RANKS` (p varies by ≤ 6% within a bin; 3% bins moved
/// predictions by < 0.05% on YCSB A–F at 10⁶ records).
pub(super) const BIN_GROWTH: f64 = 1.06;
/// The coarse resolution a quick first ranking uses: a quarter of the bins.
pub(super) const QUICK_EXACT_RANKS: f64 = 16.0;
pub(super) const QUICK_BIN_GROWTH: f64 = 1.25;

/// A group of keys that share a popularity: `count` keys, each picked with probability `p` by a
/// lookup or an update, placed at insertion indices `[first, first + count)` or, if `scattered`,
/// spread evenly over every key inserted so far.
#[derive(Clone, Copy, Debug)]
pub(super) struct Bin {
    pub(super) first: f64,
    pub(super) count: f64,
    pub(super) p: f64,
    /// ln(1 − p): the chance a key escapes U picks is exp(U · ln(1 − p)).
    log_miss: f64,
    pub(super) scattered: bool,
}

impl Bin {
    fn new(first: f64, count: f64, p: f64, scattered: bool) -> Bin {
        let p = p.min(1.0);
        Bin { first, count, p, log_miss: if p >= 1.0 { f64::NEG_INFINITY } else { ln_1p(-p) }, scattered }
    }

    /// P(a key of this bin is picked at least once in `u` picks).
    pub(super) fn hit(&self, u: f64) -> f64 {
        let x = u * self.log_miss;
        // Below −38, exp(x) < 2⁻⁵⁴ and 1 − exp(x) rounds to exactly 1: hot keys skip the exp.
        if u <= 0.0 {
            0.0
        } else if x < -38.0 {
            1.0
        } else {
            1.0 - exp(x)
        }
    }
}

/// Key popularity as the generator draws it (`generator.rs`): uniform, Zipf over insertion order
/// (oldest hottest), Zipf over reverse insertion order (newest hottest), or a scattered hot set.
/// Bins are built once; for recency ranks only their placement moves as keys are inserted.
#[derive(Clone, Debug)]
pub(super) struct Popularity {
    bins: Vec<Bin>,
    newest_first: bool,
}

impl Popularity {
    /// `exact` ranks one by one, then bins growing by `growth`.
    pub(super) fn of(w: &Workload, keys: f64, exact: f64, growth: f64) -> Popularity {
        let scattered = |groups: &[(f64, f64)]| Popularity {
            bins: groups.iter().map(|&(count, p)| Bin::new(0.0, count, p, true)).collect(),
            newest_first: false,
        };
        let ranked = |theta: f64, newest_first: bool| Popularity {
            bins: zipf_bins(keys, theta, exact, growth)
                .into_iter()
                .map(|(rank, count, p)| Bin::new(rank - 1.0, count, p, false))
                .collect(),
            newest_first,
        };
        match w.distribution {
            Distribution::Uniform => scattered(&[(keys, 1.0 / keys)]),
            Distribution::Hotspot { hot_fraction, hot_probability } => {
                // The hot ids are a contiguous id range, but ids are a random permutation of the
                // insertion order: in the tree the hot keys are everywhere.
                let hot = (keys * hot_fraction).max(1.0);
                let cold = (keys - hot).max(1.0);
                scattered(&[(hot, hot_probability / hot), (cold, (1.0 - hot_probability) / cold)])
            }
            Distribution::Zipf { theta } => ranked(theta, false),
            Distribution::Latest { theta } => ranked(theta, true),
            Distribution::ScrambledZipf { theta } => Popularity {
                bins: scrambled_bins(keys, theta, exact, growth)
                    .into_iter()
                    .map(|(count, p)| Bin::new(0.0, count, p, true))
                    .collect(),
                newest_first: false,
            },
            Distribution::Exponential { percentile, fraction } => {
                let gamma = lsm_core::ycsb::exponential_gamma(percentile, fraction, w.preload.entries.max(1));
                Popularity {
                    bins: exponential_bins(keys, gamma, exact, growth)
                        .into_iter()
                        .map(|(rank, count, p)| Bin::new(rank - 1.0, count, p, false))
                        .collect(),
                    newest_first: true,
                }
            }
        }
    }

    /// The popularity of a db_bench workload's keys, as its benchmark draws them: mixgraph's
    /// (`mixgraph_bins`); every other benchmark draws ids uniformly, as its plain view says.
    /// `plain` is the workload's `engine_view`, `keys` the keys it holds.
    pub(super) fn of_db_bench(play: &DbBenchPlay, plain: &Workload, keys: f64, exact: f64, growth: f64) -> Popularity {
        if play.benchmark != DbBenchBenchmark::Mixgraph || play.all_random() {
            return Popularity::of(
                &Workload { distribution: Distribution::Uniform, ..plain.clone() },
                keys,
                exact,
                growth,
            );
        }
        Popularity {
            bins: mixgraph_bins(play, keys, exact, growth)
                .into_iter()
                .map(|(count, p)| Bin::new(0.0, count, p, true))
                .collect(),
            newest_first: false,
        }
    }

    /// The bins at a moment when `inserted` keys exist.
    pub(super) fn bins(&self, inserted: f64) -> std::borrow::Cow<'_, [Bin]> {
        if !self.newest_first {
            return std::borrow::Cow::Borrowed(&self.bins);
        }
        // Rank r is the r-th newest key: insertion index inserted − r.
        let moved = self.bins.iter().map(|b| Bin { first: (inserted - b.first - b.count).max(0.0), ..*b }).collect();
        std::borrow::Cow::Owned(moved)
    }
}

/// Σ_{r=a}^{b-1} r^{−θ}: exact below `EXACT_RANKS`, else the midpoint integral.
fn zipf_mass(a: f64, b: f64, theta: f64) -> f64 {
    if (theta - 1.0).abs() < 1e-12 {
        ln((b - 0.5) / (a - 0.5))
    } else {
        (pow(b - 0.5, 1.0 - theta) - pow(a - 0.5, 1.0 - theta)) / (1.0 - theta)
    }
}

fn zipf_bins(keys: f64, theta: f64, exact: f64, growth: f64) -> Vec<(f64, f64, f64)> {
    let n = keys.floor().max(1.0);
    let mut raw = Vec::new();
    let mut rank = 1.0;
    while rank <= n {
        if rank <= exact {
            raw.push((rank, 1.0, pow(rank, -theta)));
            rank += 1.0;
        } else {
            let end = (rank * growth).ceil().min(n + 1.0).max(rank + 1.0);
            raw.push((rank, end - rank, zipf_mass(rank, end, theta)));
            rank = end;
        }
    }
    let total: f64 = raw.iter().map(|b| b.2).sum();
    raw.into_iter().map(|(r, c, m)| (r, c, m / total / c)).collect()
}

/// YCSB's scrambled Zipfian over `keys` keys as (count, p) groups of keys, placed anywhere: the
/// i-th most popular key holds Gray's mass of rank i (ranks hash onto distinct keys while they
/// are fewer than the keys), and every key an even share of the ranks past the key count (10¹⁰
/// of them fold onto each key about 10¹⁰/keys times).
fn scrambled_bins(keys: f64, theta: f64, exact: f64, growth: f64) -> Vec<(f64, f64)> {
    let ranks = lsm_core::ycsb::scrambled_ranks(theta);
    let items = lsm_core::ycsb::SCRAMBLED_RANKS;
    let n = keys.floor().max(1.0) as u64;
    let floor = (1.0 - ranks.cdf(n, items)) / n as f64;
    let mut out = Vec::new();
    let mut rank = 0u64;
    while rank < n {
        let end =
            if (rank as f64) < exact { rank + 1 } else { ((rank as f64 * growth).ceil() as u64).clamp(rank + 1, n) };
        let count = (end - rank) as f64;
        out.push((count, (ranks.cdf(end, items) - ranks.cdf(rank, items)) / count + floor));
        rank = end;
    }
    out
}

/// YCSB's exponential over `keys` keys, newest first, as (rank from 1, count, p): the k-th newest
/// is picked with e^(−γk)(1 − e^(−γ)), renormalised for the picks past the oldest drawn again.
fn exponential_bins(keys: f64, gamma: f64, exact: f64, growth: f64) -> Vec<(f64, f64, f64)> {
    let n = keys.floor().max(1.0);
    let survive = |k: f64| exp(-gamma * k);
    let total = 1.0 - survive(n);
    let mut out = Vec::new();
    let mut rank = 1.0;
    while rank <= n {
        let end = if rank <= exact { rank + 1.0 } else { (rank * growth).ceil().min(n + 1.0).max(rank + 1.0) };
        let count = end - rank;
        out.push((rank, count, (survive(rank - 1.0) - survive(end - 1.0)) / total / count));
        rank = end;
    }
    out
}

/// mixgraph's key popularity over the `keys` filled ids, as (count, p) groups placed anywhere
/// (the fill draws ids at random, so a hot id is as likely to be old as new). A draw picks a key
/// range by its share of slots (`KeyRanges::shares`; one range of all ids without them), then an
/// offset in it by the power law: u uniform, seed ⌈(u/a)^(1/b)⌉ (seed s with probability
/// a·(s^b − (s−1)^b)), the offset `Random64(seed) mod size` — so the hottest seeds land on
/// distinct offsets (priced one by one, then in bins growing by `growth`, up to an eighth of the
/// range, where hashing would start to fold them), and the rest of the mass, which folds onto
/// every offset about evenly, is spread evenly. Filled ids are a uniform sample (the fill
/// does not look at popularity), so each group keeps the filled share of its ids and its
/// probability is over the filled ones. Groups of nearly the same p (within `growth`) merge.
fn mixgraph_bins(play: &DbBenchPlay, keys: f64, exact: f64, growth: f64) -> Vec<(f64, f64)> {
    let num = play.num as f64;
    let filled = (keys / num).clamp(1.0 / num, 1.0);
    let (shares, size) = if play.uses_key_ranges() {
        let ranges = play.key_ranges();
        (ranges.shares(), ranges.size.max(1) as f64)
    } else {
        (vec![1.0], num)
    };
    let within = power_law_offsets(play.key_dist_a, play.key_dist_b, size, exact, growth);
    let mut groups: Vec<(f64, f64)> = shares
        .iter()
        .filter(|&&share| share > 0.0)
        .flat_map(|&share| within.iter().map(move |&(count, p)| (count * filled, share * p / filled)))
        .collect();
    groups.sort_by(|x, y| y.1.total_cmp(&x.1));
    let mut merged: Vec<(f64, f64, f64)> = Vec::new(); // (count, mass, hottest p)
    for (count, p) in groups {
        match merged.last_mut() {
            Some(last) if last.2 <= p * growth => {
                last.0 += count;
                last.1 += count * p;
            }
            _ => merged.push((count, count * p, p)),
        }
    }
    merged.into_iter().map(|(count, mass, _)| (count, mass / count)).collect()
}

/// One range's `size` offsets under the power law CDF a·x^b, as (count, p) with Σ count·p = 1:
/// the hottest seeds one offset each, then every offset's even share of the rest.
fn power_law_offsets(a: f64, b: f64, size: f64, exact: f64, growth: f64) -> Vec<(f64, f64)> {
    let cdf = |s: f64| (a * pow(s, b)).min(1.0);
    let last_seed = pow(1.0 / a, 1.0 / b).ceil();
    let head = last_seed.min((size / 8.0).floor()).max(0.0);
    let rest = (1.0 - cdf(head)) / size;
    let mut out = Vec::new();
    let mut seed = 1.0;
    while seed <= head {
        let end = if seed <= exact { seed + 1.0 } else { (seed * growth).ceil().min(head + 1.0).max(seed + 1.0) };
        let count = end - seed;
        out.push((count, (cdf(end - 1.0) - cdf(seed - 1.0)) / count + rest));
        seed = end;
    }
    if size > head {
        out.push((size - head, rest));
    }
    out
}

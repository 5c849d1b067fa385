//! Key popularity as the workload generator draws it, in bins of keys that share a probability:
//! what the predictor needs to know which keys a run holds and where a lookup finds its key.

use lsm_core::db_bench::DbBenchPlay;
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

/// A group of keys that share a popularity: `count` keys, each picked with probability `p` by an
/// update and `lookup_p` by a lookup (the same but for mixgraph, whose one draw decides both the
/// key and the query), placed at insertion indices `[first, first + count)` or, if `scattered`,
/// spread evenly over every key inserted so far.
#[derive(Clone, Copy, Debug)]
pub(super) struct Bin {
    pub(super) first: f64,
    pub(super) count: f64,
    pub(super) p: f64,
    pub(super) lookup_p: f64,
    /// ln(1 − p): the chance a key escapes U picks is exp(U · ln(1 − p)).
    log_miss: f64,
    pub(super) scattered: bool,
}

impl Bin {
    fn new(first: f64, count: f64, p: f64, scattered: bool) -> Bin {
        Bin::drawn(first, count, p, p, scattered)
    }

    fn drawn(first: f64, count: f64, p: f64, lookup_p: f64, scattered: bool) -> Bin {
        let p = p.min(1.0);
        let log_miss = if p >= 1.0 { f64::NEG_INFINITY } else { ln_1p(-p) };
        Bin { first, count, p, lookup_p: lookup_p.min(1.0), log_miss, scattered }
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

    /// The popularity of keys drawn as `drawn` says (mixgraph's, `DrawnKeys::of_mixgraph`):
    /// its groups kept one by one for the `exact` hottest keys, then merged while both
    /// probabilities stay within a factor `growth`.
    pub(super) fn of_drawn(drawn: &DrawnKeys, exact: f64, growth: f64) -> Popularity {
        let mut groups = drawn.groups.clone();
        groups.sort_by(|x, y| (y.1 + y.2).total_cmp(&(x.1 + x.2)));
        let bucket = |p: f64| if p > 0.0 { (ln(p) / ln(growth)).floor() as i64 } else { i64::MIN };
        let mut kept: Vec<(f64, f64, f64)> = Vec::new(); // (count, put mass, get mass)
        let mut merged: std::collections::BTreeMap<(i64, i64), (f64, f64, f64)> = Default::default();
        let mut ranked = 0.0;
        for (count, put, get) in groups {
            if ranked < exact {
                kept.push((count, count * put, count * get));
            } else {
                let m = merged.entry((bucket(put), bucket(get))).or_insert((0.0, 0.0, 0.0));
                *m = (m.0 + count, m.1 + count * put, m.2 + count * get);
            }
            ranked += count;
        }
        kept.extend(merged.into_values());
        Popularity {
            bins: kept
                .into_iter()
                .filter(|g| g.0 > 0.0)
                .map(|(count, put, get)| Bin::drawn(0.0, count, put / count, get / count, true))
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

/// Ids up to which mixgraph's draws are counted one by one (`mixgraph_draws`: two 32-bit
/// counts per id, 64 MiB at most); beyond, the power law's shape is priced (`power_law_offsets`).
const COUNTED_IDS: u64 = 1 << 23;

/// The keys a generator's draws hit, where keys and queries come from one draw (mixgraph):
/// (keys, put p, get p) groups of the keys that exist, placed anywhere (the fill draws ids at
/// random, so a hot id is as likely to be old as new), p over them; and the share of Gets that
/// find their key.
#[derive(Clone, Debug)]
pub(super) struct DrawnKeys {
    groups: Vec<(f64, f64, f64)>,
    pub(super) found: f64,
}

impl DrawnKeys {
    /// mixgraph's draws over `plain` (its `engine_view`: the keys the fill leaves, the run's
    /// Puts). A key exists if the fill wrote it (a uniform sample of the ids: the fill does not
    /// look at popularity) or, for the rest of the run, once a Put drew it: with λ Puts expected
    /// on it, it exists for a share 1 − (1 − e^−λ)/λ of the run.
    pub(super) fn of_mixgraph(play: &DbBenchPlay, plain: &Workload) -> DrawnKeys {
        let filled = (plain.preload.entries as f64 / play.num as f64).clamp(0.0, 1.0);
        let run_puts = plain.operations as f64 * (plain.mix.insert + plain.mix.update);
        let ids = if play.num <= COUNTED_IDS { mixgraph_draws(play) } else { mixgraph_shape(play) };
        let exists = |put: f64| {
            let lambda = run_puts * put;
            let later = if lambda > 1e-9 { 1.0 - (1.0 - exp(-lambda)) / lambda } else { lambda / 2.0 };
            filled + (1.0 - filled) * later
        };
        let (mut put_mass, mut get_mass) = (0.0, 0.0);
        let groups: Vec<(f64, f64, f64)> = ids
            .iter()
            .map(|&(count, put, get)| {
                let keys = count * exists(put);
                put_mass += keys * put;
                get_mass += keys * get;
                (keys, put, get)
            })
            .collect();
        let norm = |mass: f64, p: f64| if mass > 0.0 { p / mass } else { 0.0 };
        DrawnKeys {
            groups: groups
                .into_iter()
                .map(|(keys, put, get)| (keys, norm(put_mass, put), norm(get_mass, get)))
                .collect(),
            // Gets to ids ≥ 0 that exist; the mass of the ids < 0 (never written) is left out.
            found: get_mass,
        }
    }
}

/// Every draw of MixGraph counted: `ini_rand` is uniform over [0, num), and the key's range
/// (`ini_rand mod` the range slots), its offset (`ini_rand mod` the range size) and the query
/// type (`ini_rand mod` the query slots) all come from it, so the keys Puts hit are not the keys
/// Gets hit in the same proportions (with uniform draws, `all_random`, no key is both). As
/// (ids, put p, get p) groups of the ids ≥ 0, p the share of all Puts (Gets) that draw the id: a
/// negative id, one no fill wrote, takes the rest.
fn mixgraph_draws(play: &DbBenchPlay) -> Vec<(f64, f64, f64)> {
    let num = play.num as usize;
    let decider = play.query_decider();
    let ranges = (play.uses_key_ranges() && !play.all_random()).then(|| play.key_ranges());
    // With ranges the offset depends on `ini_rand mod size` only: computed once per offset.
    let offsets: Vec<i64> = ranges
        .as_ref()
        .map_or_else(Vec::new, |r| (0..r.size).map(|j| r.offset(j, play.key_dist_a, play.key_dist_b)).collect());
    let (mut puts, mut gets) = (vec![0u32; num], vec![0u32; num]);
    let (mut all_puts, mut all_gets) = (0.0f64, 0.0f64);
    for ini_rand in 0..num as i64 {
        let counts = match decider.get_type(ini_rand) {
            0 => {
                all_gets += 1.0;
                &mut gets
            }
            1 => {
                all_puts += 1.0;
                &mut puts
            }
            _ => continue,
        };
        let key = match &ranges {
            Some(r) => r.size * r.range_of(ini_rand % r.rand_max) as i64 + offsets[(ini_rand % r.size) as usize],
            None => play.mixgraph_key(None, ini_rand),
        };
        if (0..num as i64).contains(&key) {
            counts[key as usize] += 1;
        }
    }
    let (all_puts, all_gets) = (all_puts.max(1.0), all_gets.max(1.0));
    let mut by_pair: std::collections::BTreeMap<(u32, u32), f64> = Default::default();
    for (&p, &g) in puts.iter().zip(&gets) {
        *by_pair.entry((p, g)).or_insert(0.0) += 1.0;
    }
    by_pair.into_iter().map(|((p, g), ids)| (ids, f64::from(p) / all_puts, f64::from(g) / all_gets)).collect()
}

/// MixGraph's popularity for more ids than are counted one by one: each range's share of slots
/// (`KeyRanges::shares`; one range of all ids without them) times the power law's shape over its
/// offsets, the same for Puts and Gets.
fn mixgraph_shape(play: &DbBenchPlay) -> Vec<(f64, f64, f64)> {
    let num = play.num as f64;
    if play.all_random() {
        return vec![(num, 1.0 / num, 1.0 / num)];
    }
    let (shares, size) = if play.uses_key_ranges() {
        let ranges = play.key_ranges();
        (ranges.shares(), ranges.size.max(1) as f64)
    } else {
        // Half the draws key a negative id (`DbBenchPlay::mixgraph_key`).
        (vec![0.5], num)
    };
    // A power law of a non-positive a or b (db_bench takes any) is priced as even over the range.
    let (a, b) = (play.key_dist_a, play.key_dist_b);
    let within = if a > 0.0 && b > 0.0 { power_law_offsets(a, b, size) } else { vec![(size, 1.0 / size)] };
    shares
        .iter()
        .filter(|&&share| share > 0.0)
        .flat_map(|&share| within.iter().map(move |&(count, p)| (count, share * p, share * p)))
        .collect()
}

/// One range's `size` offsets as db_bench's power law CDF a·s^b draws them, as (count, p) with
/// Σ count·p = 1. A draw's u is `(ini_rand mod size) / size`, one of `size` even steps j, so a
/// draw is j with chance 1/size and its seed ⌈(j/(size·a))^(1/b)⌉: seed s takes every j up to
/// size·a·s^b not taken before. The offset is `Random64(seed) mod size`. Seeds that take two or
/// more j (the hot head) are few, each on an offset of its own; seeds that take one j land at
/// random, so an offset holds k of them with Poisson(λ) odds, λ = their number over `size`:
/// with λ near 1 a third of the offsets are never drawn and a fifth are drawn twice as often.
fn power_law_offsets(a: f64, b: f64, size: f64) -> Vec<(f64, f64)> {
    // j's with a seed ≤ s (j = 0 has seed 0).
    let taken = |s: f64| ((size * a * pow(s, b)).floor() + 1.0).min(size);
    let mut head = Vec::new(); // j's of each seed that takes two or more
    let mut singles = 0.0;
    let mut before = 1.0; // seed 0 takes j = 0
    let mut seed = 1.0;
    // The head: with b < 1 a seed's share of j's only shrinks, so the first seed that takes one
    // or none ends it; every seed is looked at while there are few of them (b ≥ 1).
    let last_seed = pow(1.0 / a, 1.0 / b).ceil();
    let look_at_all = last_seed <= 4.0 * size;
    if before >= 2.0 {
        head.push(before);
    } else {
        singles += before;
    }
    // At most 2²² seeds are looked at (a few milliseconds); what is left counts as single j's.
    let last_looked_at = (4.0 * size).min(f64::from(1u32 << 22));
    while before < size && seed <= last_looked_at {
        let upto = taken(seed);
        let count = upto - before;
        if count >= 2.0 {
            head.push(count);
        } else if b < 1.0 && !look_at_all {
            break;
        } else {
            singles += count;
        }
        before = upto;
        seed += 1.0;
    }
    singles += size - before;
    let lambda = singles / size;
    let rest = size - head.len() as f64;
    let mut out: Vec<(f64, f64)> = head.iter().map(|&count| (1.0, (count + lambda) / size)).collect();
    // Poisson(λ) over the other offsets, k = 0, 1, …, until what is left rounds away.
    let mut pk = exp(-lambda);
    let mut covered = 0.0;
    let mut k = 0.0;
    while covered < 1.0 - 1e-12 && k < 1e4 {
        if pk * rest >= 1e-9 {
            out.push((pk * rest, k / size));
        }
        covered += pk;
        k += 1.0;
        pk *= lambda / k;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsm_workload::db_bench::from_command_line;

    /// The share of draws on the hottest `ids` of (ids, p) groups.
    fn hottest(groups: &[(f64, f64)], ids: f64) -> f64 {
        let mut g = groups.to_vec();
        g.sort_by(|x, y| y.1.total_cmp(&x.1));
        let (mut left, mut mass) = (ids, 0.0);
        for (count, p) in g {
            let take = count.min(left);
            mass += take * p;
            left -= take;
        }
        mass
    }

    /// The ZippyDB flags at 1M ids, counted draw by draw and priced by the power law's shape: the
    /// draws' masses agree, and the stream itself says the same (`lsm trace` of this line's run:
    /// the hottest 33,333 ids took 86.8% of the operations, the hottest 10,000 55.5%).
    #[test]
    fn the_power_laws_shape_prices_what_counting_the_draws_gives() {
        let line = "db_bench --benchmarks=fillrandom,mixgraph --num=1000000 --key_size=48 \
            -key_dist_a=0.002312 -key_dist_b=0.3467 -keyrange_dist_a=14.18 -keyrange_dist_b=-2.917 \
            -keyrange_dist_c=0.0164 -keyrange_dist_d=-0.08082 -keyrange_num=30 \
            -mix_get_ratio=0.83 -mix_put_ratio=0.14 -mix_seek_ratio=0.03";
        let play = from_command_line(line).unwrap().workload.db_bench.unwrap();
        let counted = mixgraph_draws(&play);
        let shape = mixgraph_shape(&play);
        let total =
            |g: &[(f64, f64, f64)], pick: fn(&(f64, f64, f64)) -> f64| g.iter().map(|x| x.0 * pick(x)).sum::<f64>();
        assert!((total(&counted, |x| x.1) - 1.0).abs() < 1e-9 && (total(&counted, |x| x.2) - 1.0).abs() < 1e-9);
        assert!((total(&shape, |x| x.1) - 1.0).abs() < 1e-6);
        assert_eq!(counted.iter().map(|x| x.0).sum::<f64>(), 1e6);
        let gets = |g: &[(f64, f64, f64)]| g.iter().map(|x| (x.0, x.2)).collect::<Vec<_>>();
        for (ids, stream) in [(33_333.0, 0.868), (10_000.0, 0.555)] {
            let (c, s) = (hottest(&gets(&counted), ids), hottest(&gets(&shape), ids));
            eprintln!("hottest {ids}: counted {c:.3}, shape {s:.3}, stream {stream}");
            assert!((c - stream).abs() < 0.03, "counted {c} vs the stream's {stream}");
            assert!((s - c).abs() < 0.05, "shape {s} vs counted {c}");
        }
    }
}

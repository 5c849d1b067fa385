//! The block cache's hit rate under a workload's key popularity, from the characteristic-time
//! approximation of LRU caches: Che, Tung and Wang, "Hierarchical Web caching systems: modeling,
//! design and experimental results", IEEE JSAC 20(7), 2002; shown accurate for LRU under
//! independent requests by Fricker, Robert and Roberts, "A versatile and accurate approximation
//! for LRU cache performance", ITC 24, 2012. A block requested at rate λ stays cached if it is
//! requested again within the cache's characteristic time T, chosen so that the expected number
//! of cached blocks equals the capacity.
//!
//! RocksDB's LRUCache with a high-priority pool (`midpoint_insertion`) is a two-segment LRU: a
//! missed block enters the low pool and survives there for T_low; a block hit once moves to the
//! high pool, survives there for T_high and, pushed out of it, T_low more in the low pool. On the
//! chain of one block's requests (in the style of Martina, Garetto and Leonardi, "A unified
//! approach to the performance analysis of caching systems", INFOCOM 2014): after a miss the next
//! request hits with a = 1 − e^{−λ T_low}; after a hit with b = 1 − e^{−λ (T_high + T_low)}; the
//! hit probability is a / (1 + a − b). T_high fills the high pool's share, T_low the rest.
//! With T_high = 0 this is Che's LRU (hit probability a).
//!
//! Blocks hold several keys: a request's block has its key's rate plus what the block's other
//! keys add, a mixture over which popularity class the hottest of them is in (`neighbours`).
//! Under a skewed workload a block of many keys (a level-0 file without a filter is read at the
//! block covering every key looked up, there or not: ~150 keys of the key space a block at 1M
//! records) is requested about as often as its hottest key makes it: most such blocks hold one
//! warm key, and the hit rate, concave in the rate, is not the hit rate of the mean rate. (The
//! model took the mean, less keys ten times hotter than it, and priced RocksDB's defaults on
//! YCSB A at a hit rate of 0.039 where RocksDB measured 0.080.)
//!
//! A run starts from a cold cache (a load only writes, and RocksDB's flushes and compactions do
//! not fill the cache), and a file written during the run starts with none of its data blocks
//! cached. (Index and filter blocks are taken as warm: RocksDB reads them when it opens a table.)
//! T is also the age at which a cold LRU fills (the blocks requested within T are what it
//! holds), so a request `a` operations into a block's life hits with min(h, 1 − e^{−λa}): it
//! needs an earlier request, and it hits no more often than in the warm cache (`from_cold`).
//! A short run over a large key space is mostly first requests, which no cache size changes.

/// Blocks that share how they are requested: `blocks` blocks of `keys` keys each; a key of
/// popularity class c is there with probability `presence[c]` (its newest version may be in the
/// memtable, or in another file), and while there adds `rate[c]` requests per operation to its
/// block; the block's other requests (scans, zero-result lookups) add `base` per block. A key
/// moves between places as a whole: its block sees its full rate or nothing, not the average.
/// A key leaves (an update puts its newest version in the memtable) at `leave[c]` per
/// operation; its block, requested less, stays cached as long as its rate with the key kept it
/// cached until it ages out (stale: a whole block when the key was its requests).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Blocks {
    pub(super) blocks: f64,
    /// Bytes each block is charged in the cache.
    pub(super) charge: f64,
    pub(super) keys: f64,
    pub(super) base: f64,
    pub(super) rate: Vec<f64>,
    pub(super) presence: Vec<f64>,
    pub(super) leave: Vec<f64>,
    /// Operations since the blocks could first be cached, over the stretch of the run priced.
    pub(super) age: Age,
}

/// How long a block has been cacheable: its age in operations at the start and the end of the
/// stretch of the run priced (`[0, N]` for a file that was there when a run of N operations
/// began from a cold cache). `Age::WARM`: long enough that only the warm cache's rate matters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Age {
    pub(super) from: f64,
    pub(super) to: f64,
}

impl Age {
    /// A cache warmed for ever (the steady state the characteristic time describes).
    #[cfg(test)]
    pub(super) const WARM: Age = Age { from: f64::INFINITY, to: f64::INFINITY };
}

/// The hit probability of a request at rate `rate` whose warm-cache hit probability is `warm`,
/// averaged over the ages in `age`: min(warm, 1 − e^{−rate·a}) (see the module docs).
pub(super) fn from_cold(warm: f64, rate: f64, age: Age) -> f64 {
    if rate <= 0.0 || warm <= 0.0 || age.from.is_infinite() {
        return warm;
    }
    let seen = |a: f64| -(-rate * a).exp_m1();
    // ∫₀^a (1 − e^{−λx}) dx, kept accurate where λa is tiny.
    let area = |a: f64| {
        let x = rate * a;
        if x < 1e-4 { a * x / 2.0 * (1.0 - x / 3.0) } else { a - seen(a) / rate }
    };
    let (lo, hi) = (age.from.max(0.0), age.to.max(age.from).max(0.0));
    // The age from which the warm rate is the smaller.
    let warm_from = if warm >= 1.0 { f64::INFINITY } else { -(-warm).ln_1p() / rate };
    if hi - lo <= 1e-9 * hi.max(1.0) {
        return warm.min(seen(lo));
    }
    let cut = warm_from.clamp(lo, hi);
    (area(cut) - area(lo) + warm * (hi - cut)) / (hi - lo)
}

/// An index or filter block in the cache (`cache_index_and_filter_blocks`): inserted at high
/// priority (RocksDB's `cache_index_and_filter_blocks_with_high_priority`, on by default),
/// `charge` bytes, requested `rate` times per operation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Meta {
    pub(super) charge: f64,
    pub(super) rate: f64,
}

/// A high-priority block's request chain: it enters the high pool on every request, so it is
/// cached while requested again within T_high + T_low: (hit probability, share of time in the
/// low pool, in the high pool).
pub(super) fn meta_block(rate: f64, t: &Times) -> (f64, f64, f64) {
    if t.all {
        return if rate > 0.0 { (1.0, 0.0, 1.0) } else { (0.0, 0.0, 0.0) };
    }
    let e_high = (-rate * t.high).exp();
    let e_both = e_high * (-rate * t.low).exp();
    (1.0 - e_both, e_high - e_both, 1.0 - e_high)
}

/// The cache: its capacity in bytes, and the high pool's share of it (0: a single LRU).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct CacheShape {
    pub(super) capacity: f64,
    pub(super) high_share: f64,
}

/// The characteristic times found for a population of blocks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Times {
    low: f64,
    high: f64,
    /// The cache holds every block: every request after the first hits.
    all: bool,
}

/// One block's request chain at rate `rate`: (hit probability, share of time in the low pool,
/// share of time in the high pool).
fn block(rate: f64, t: &Times) -> (f64, f64, f64) {
    if t.all {
        return (if rate > 0.0 { 1.0 } else { 0.0 }, 0.0, if rate > 0.0 { 1.0 } else { 0.0 });
    }
    chain((-rate * t.low).exp(), (-rate * t.high).exp())
}

/// `block` from e^{−λ T_low} and e^{−λ T_high}: the search for T_low holds T_high, so
/// `Population` takes e^{−λ T_high} once per T_high instead of once per step. The hit
/// probability a / (1 + a − b) is taken as a / (a + e^{−λ(T_high + T_low)}), the same quotient
/// without the 1 that swallows a tiny a (a block requested so seldom is a miss, not 0 / 0).
fn chain(e_low: f64, e_high: f64) -> (f64, f64, f64) {
    let a = 1.0 - e_low;
    let e_both = e_high * e_low;
    let hit = if a > 0.0 { a / (a + e_both) } else { 0.0 };
    let miss = 1.0 - hit;
    let low = miss * a + hit * (e_high - e_both);
    let high = hit * (1.0 - e_high);
    (hit, low, high)
}

/// Components of the neighbour mixture lighter than this are left out (the rest reweighted):
/// they change a hit rate by less than their weight, and each costs a chain per request.
const NEGLIGIBLE: f64 = 1e-6;

/// What a block's other keys add to its requests, as a mixture over which popularity class the
/// hottest of them is in: (weight, rate) pairs, the weights summing to 1.
///
/// A block spans `slots` keys of the key space other than the one requested; each is a key of
/// class c, there, with probability share[c] × presence[c], so class c's keys in the block are
/// Poisson with mean M_c = slots × share[c] × presence[c] (many slots, each seldom c). Classes
/// taken hottest first, the hottest key is of class c with probability
/// e^{−Σ_{hotter} M} (1 − e^{−M_c}); the block then holds E[n_c | n_c ≥ 1] = M_c / (1 − e^{−M_c})
/// keys of class c and, the colder classes being independent of the hotter ones, their mean.
/// The mixture keeps the mean rate (Σ M_c rate_c) and the spread around it that a skewed
/// workload gives blocks of many keys: a block holding one hot key is requested far more than
/// the mean and a block without one far less, and the hit rate, concave in the rate, is not the
/// hit rate of the mean. (A block of a few keys is nearly its requested key alone.)
fn neighbours(g: &Blocks, share: &[f64], slots: f64) -> Vec<(f64, f64)> {
    let mut classes: Vec<(f64, f64)> = g
        .rate
        .iter()
        .zip(&g.presence)
        .zip(share)
        .map(|((&r, &p), &s)| (r, slots.max(0.0) * s * p))
        .filter(|&(r, m)| r > 0.0 && m > 0.0)
        .collect();
    classes.sort_by(|a, b| b.0.total_cmp(&a.0));
    // tail[j]: the mean rate the classes colder than j add.
    let mut tail = vec![0.0; classes.len() + 1];
    for j in (0..classes.len()).rev() {
        tail[j] = tail[j + 1] + classes[j].0 * classes[j].1;
    }
    let mut out = Vec::with_capacity(classes.len() + 1);
    // Σ M of the classes hotter than the one at hand.
    let mut hotter: f64 = 0.0;
    for (j, &(r, m)) in classes.iter().enumerate() {
        let some = -(-m).exp_m1();
        let weight = (-hotter).exp() * some;
        if weight > NEGLIGIBLE {
            out.push((weight, r * m / some + tail[j + 1]));
        }
        hotter += m;
    }
    let none = (-hotter).exp();
    if none > NEGLIGIBLE {
        out.push((none, 0.0));
    }
    let total: f64 = out.iter().map(|x| x.0).sum();
    if total > 0.0 {
        out.iter_mut().for_each(|x| x.0 /= total);
    } else {
        out.push((1.0, tail[0]));
    }
    out
}

/// A group's requests as the hit rates need them: its blocks' base rate and age, and the
/// neighbour mixture of a request for one of its keys (the other keys − 1 slots) and of a
/// request for no key in particular (all keys slots).
pub(super) struct Requests {
    base: f64,
    age: Age,
    others: Vec<(f64, f64)>,
    all: Vec<(f64, f64)>,
}

impl Requests {
    /// `g`'s requests, its keys of class c making up `share[c]` of its keys.
    pub(super) fn of(g: &Blocks, share: &[f64]) -> Requests {
        Requests {
            base: g.base,
            age: g.age,
            others: neighbours(g, share, g.keys - 1.0),
            all: neighbours(g, share, g.keys),
        }
    }
}

/// What the occupancy of one group needs that does not depend on the characteristic times,
/// taken once per solve (the search evaluates the occupancy a few hundred times).
struct Group {
    /// Blocks × the bytes each is charged.
    bytes: f64,
    /// Its blocks' rates as the neighbour mixture of all their slots: (index into
    /// `Population::rates`, weight).
    mixture: Vec<(usize, f64)>,
    /// Per popularity class that leaves: its block's rate with the key and without it (indices
    /// into `Population::rates`), and the keys of the class leaving a block per operation.
    stale: Vec<(usize, usize, f64)>,
}

/// The blocks a cache holds (`groups` of data blocks whose keys of class c make up `share[c]` of
/// a group's keys, index and filter blocks `meta`), prepared for the search of T_low and T_high.
/// Many blocks share a rate (files of one level alike): each distinct rate's chain is taken once
/// per step.
struct Population {
    /// The distinct rates of the groups' mixtures and leaving classes.
    rates: Vec<f64>,
    groups: Vec<Group>,
    meta: Vec<Meta>,
}

/// A `Population` at one T_high: each distinct rate's e^{−λ T_high} taken once.
struct AtHigh<'a> {
    population: &'a Population,
    high: f64,
    meta: Vec<f64>,
    /// e^{−λ T_high} of each of `Population::rates`.
    rates: Vec<f64>,
}

impl Population {
    fn new(groups: &[Blocks], meta: &[Meta], share: &[f64]) -> Population {
        let mut rates = Vec::new();
        let mut index: std::collections::BTreeMap<u64, usize> = std::collections::BTreeMap::new();
        let mut index_of = |rate: f64| {
            *index.entry(rate.to_bits()).or_insert_with(|| {
                rates.push(rate);
                rates.len() - 1
            })
        };
        let groups = groups
            .iter()
            .map(|g| {
                let mixture =
                    neighbours(g, share, g.keys).into_iter().map(|(w, r)| (index_of(g.base + r), w)).collect();
                // A leaving key's block: its own rate and the mean of the others, before and after.
                let others = g.base + mean_rate(g, share, g.keys - 1.0);
                let mut stale = Vec::new();
                for (((r, p), s), leave) in g.rate.iter().zip(&g.presence).zip(share).zip(&g.leave) {
                    let left = g.keys * s * p * leave;
                    if left > 0.0 {
                        stale.push((index_of(others + r), index_of(others), left));
                    }
                }
                Group { bytes: g.blocks * g.charge, mixture, stale }
            })
            .collect();
        Population { rates, groups, meta: meta.to_vec() }
    }

    fn at_high(&self, high: f64) -> AtHigh<'_> {
        let e = |rate: f64| (-rate * high).exp();
        AtHigh {
            population: self,
            high,
            meta: self.meta.iter().map(|m| e(m.rate)).collect(),
            rates: self.rates.iter().map(|&r| e(r)).collect(),
        }
    }
}

/// The mean rate `slots` keys of `g` add to a block.
fn mean_rate(g: &Blocks, share: &[f64], slots: f64) -> f64 {
    slots.max(0.0) * g.rate.iter().zip(&g.presence).zip(share).map(|((r, p), s)| r * p * s).sum::<f64>()
}

impl AtHigh<'_> {
    /// Expected bytes cached in the low and the high pool at T_low = `low` (not `Times::all`).
    fn occupancy(&self, low: f64) -> (f64, f64) {
        let p = self.population;
        let mut low_bytes = 0.0;
        let mut high_bytes = 0.0;
        for (m, &e_high) in p.meta.iter().zip(&self.meta) {
            // `meta_block`, its e^{−λ T_high} taken once.
            let e_both = e_high * (-m.rate * low).exp();
            low_bytes += m.charge * (e_high - e_both);
            high_bytes += m.charge * (1.0 - e_high);
        }
        // Each distinct rate's share of time in the low and the high pool.
        let pools: Vec<(f64, f64)> = p
            .rates
            .iter()
            .zip(&self.rates)
            .map(|(&rate, &e_high)| {
                let (_, l, h) = chain((-rate * low).exp(), e_high);
                (l, h)
            })
            .collect();
        for g in &p.groups {
            let (mut l, mut h) = (0.0, 0.0);
            for &(rate, weight) in &g.mixture {
                l += weight * pools[rate].0;
                h += weight * pools[rate].1;
            }
            for &(with, without, left) in &g.stale {
                // A key leaving takes its rate from its block, but the block, cached as often as
                // its rate with the key made it, stays cached T_low more from the low pool, or
                // T_high and then T_low from the high pool (Little's law): the excess over what
                // the rest of its keys keep cached. A block of one key is left stale; a block of
                // many, hardly changed.
                let ((lw, hw), (lo, ho)) = (pools[with], pools[without]);
                l += left * ((lw + hw) - (lo + ho)).max(0.0) * low;
                h += left * (hw - ho).max(0.0) * self.high;
            }
            low_bytes += g.bytes * l.clamp(0.0, 1.0);
            high_bytes += g.bytes * h.clamp(0.0, 1.0);
        }
        (low_bytes, high_bytes)
    }
}

/// Solve `f(t) = target` for t > 0 with f increasing, from a `guess`: widen a bracket around it
/// by factors of 4, then bisect on a log scale to a relative `tolerance`.
fn solve(target: f64, guess: f64, tolerance: f64, f: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (guess / 2.0, guess * 2.0);
    while f(hi) < target && hi < 1e30 {
        lo = hi;
        hi *= 4.0;
    }
    while f(lo) > target && lo > 1e-12 {
        hi = lo;
        lo /= 4.0;
    }
    while hi / lo > 1.0 + tolerance {
        let mid = (lo * hi).sqrt();
        if f(mid) < target { lo = mid } else { hi = mid }
    }
    (lo * hi).sqrt()
}

/// The characteristic times of data blocks `groups` (keys of class c making up `share[c]` of
/// each group's keys) and index and filter blocks `meta` in `cache`.
pub(super) fn characteristic_times(groups: &[Blocks], meta: &[Meta], share: &[f64], cache: CacheShape) -> Times {
    let requested: f64 = groups
        .iter()
        .filter(|g| g.base > 0.0 || g.rate.iter().any(|&r| r > 0.0))
        .map(|g| g.blocks * g.charge)
        .chain(meta.iter().filter(|m| m.rate > 0.0).map(|m| m.charge))
        .sum();
    if cache.capacity <= 0.0 {
        return Times { low: 0.0, high: 0.0, all: false };
    }
    if requested <= cache.capacity {
        return Times { low: 0.0, high: 0.0, all: true };
    }
    let pop = Population::new(groups, meta, share);
    let total = |at: &AtHigh<'_>, low: f64| {
        let (l, h) = at.occupancy(low);
        l + h
    };
    // A first guess: a single LRU's time, where rates are per operation and the cache holds
    // about `capacity` of the blocks requested.
    let single = pop.at_high(0.0);
    let lru = solve(cache.capacity, 1.0, 1e-4, |low| total(&single, low));
    if cache.high_share <= 0.0 {
        return Times { low: lru, high: 0.0, all: false };
    }
    let guess = std::cell::Cell::new(lru);
    let low_for = |at: &AtHigh<'_>| {
        let low = solve(cache.capacity, guess.get(), 1e-4, |low| total(at, low));
        guess.set(low);
        low
    };
    // The high pool holds at most its share: T_high grows until it is full (or unbounded if the
    // blocks hit again never fill it).
    let high_cap = cache.capacity * cache.high_share;
    let high_held = |high: f64| {
        let at = pop.at_high(high);
        let low = low_for(&at);
        at.occupancy(low).1
    };
    // Unbounded only if every block requested fits in the high pool: with T_high → ∞ a block hit
    // once never leaves it, so over time it holds them all. (Probing T_high = 10¹² instead solved
    // T_low to where a = 1 − e^{−λT_low} rounds to 0, found the pool empty, and then priced every
    // block as a hit: YCSB E at 1M, 8 → 120 MiB of cache, predicted 96% fewer reads, measured 20%.)
    let high = if requested <= high_cap { 1e12 } else { solve(high_cap, 4.0 * lru, 1e-3, high_held) };
    Times { low: low_for(&pop.at_high(high)), high, all: false }
}

/// Hit probability of a request for a key of class c in `g`.
#[cfg(test)]
fn hit(g: &Blocks, c: usize, share: &[f64], t: &Times) -> f64 {
    hit_at(&Requests::of(g, share), g.rate[c], t)
}

/// Hit probability of a request for a key that adds `rate` to its block: over the mixture of
/// what the block's other keys add (`neighbours`).
pub(super) fn hit_at(r: &Requests, rate: f64, t: &Times) -> f64 {
    mixed_hit(r, &r.others, r.base + rate, t)
}

/// Hit probability of a request at `rate` plus each of `mixture`'s rates, each from a cold cache.
fn mixed_hit(r: &Requests, mixture: &[(f64, f64)], rate: f64, t: &Times) -> f64 {
    mixture
        .iter()
        .map(|&(w, extra)| {
            let total = rate + extra;
            w * from_cold(block(total, t).0, total, r.age)
        })
        .sum()
}

/// Popularity classes for the cache model: consecutive bins (hottest first) merged while their
/// keys stay within half again the keys before them, so ranks 1, 2, 3–4, 5–7, … (about 35
/// classes for 10⁶ keys, where a prediction prices a few hundred bins). Returns each bin's class.
pub(super) fn classes_of(counts: &[f64]) -> (Vec<usize>, usize) {
    let mut class = Vec::with_capacity(counts.len());
    let (mut current, mut before, mut start): (usize, f64, f64) = (0, 0.0, 0.0);
    for (i, &c) in counts.iter().enumerate() {
        if i > 0 && before + c > 1.5 * start.max(1.0) {
            current += 1;
            start = before;
        }
        before += c;
        class.push(current);
    }
    (class, current + 1)
}

/// Hit probability of a request that is not for one key (a scan passing through `g`'s blocks,
/// a lookup of a key not there): a block as its keys make it, all of them neighbours.
pub(super) fn hit_typical(r: &Requests, t: &Times) -> f64 {
    mixed_hit(r, &r.all, r.base, t)
}

#[cfg(test)]
mod tests;

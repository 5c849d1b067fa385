/** MSLS primitives (reference §2): Unique, Unique⁻¹, Merge, weighted Unique, DInterval and the density profile. */
import { ModelInputError, finite, requireNumber, requireOneOf } from '../validate';
import { validatedPopularity, type MslsDistribution, type MslsGrouping, type Popularity } from './popularity';

// ────────────────────────────────────────────────────────────────────────── primitives (internal)

/** Unique(p) = Σ_k 1 − (1 − f_k)^p. */
export function uniqueOf(pop: Popularity, p: number): number {
  if (p === Infinity) return pop.keySpace;
  if (p <= 0) return 0;
  const { counts, lambdas } = pop;
  let sum = 0;
  for (let j = 0; j < counts.length; j++) sum -= counts[j] * Math.expm1(-p * lambdas[j]);
  return sum;
}

/** Unique'(p) = Σ_k λ_k (1 − f_k)^p. */
export function uniqueSlopeOf(pop: Popularity, p: number): number {
  if (p === Infinity) return 0;
  const { counts, lambdas } = pop;
  let sum = 0;
  for (let j = 0; j < counts.length; j++) sum += counts[j] * lambdas[j] * Math.exp(-p * lambdas[j]);
  return sum;
}

/**
 * Unique⁻¹(u) by Newton's method. Unique is increasing and concave, so Newton iterates started left
 * of the root rise monotonically; a start right of the root (a warm-start hint, or u < 1 under skew)
 * lands left of it after one step, clamped to a proven lower bound. Above N/2 the residual is formed on the missing-key count to avoid cancellation near N.
 */
export function uniqueInverseOf(pop: Popularity, u: number, hint?: number): number {
  const n = pop.keySpace;
  if (u <= 0) return 0;
  if (u >= n) return Infinity;
  const { counts, lambdas } = pop;
  if (counts.length === 1) return -Math.log1p(-u / n) / lambdas[0];
  const nearFull = u > 0.5 * n;
  // Concavity gives Unique(p) ≤ p·Unique'(0), so the root is ≥ u/Unique'(0). (Unique(p) ≤ p holds
  // only for p ≥ 1: under skew Unique'(0) = Σλ > 1 and Unique(p) > p for small real p.)
  const lower = u / uniqueSlopeOf(pop, 0);
  let p = hint !== undefined && hint > lower && Number.isFinite(hint) ? hint : u;
  for (let it = 0; it < 1000; it++) {
    let slope = 0;
    let level = 0; // missing count (near full) or Unique(p)
    for (let j = 0; j < counts.length; j++) {
      const e = Math.exp(-p * lambdas[j]);
      slope += counts[j] * lambdas[j] * e;
      level += nearFull ? counts[j] * e : -counts[j] * Math.expm1(-p * lambdas[j]);
    }
    const residual = nearFull ? level - (n - u) : u - level;
    const step = residual / slope;
    if (!(slope > 0) || !Number.isFinite(step)) break;
    if (step >= 0) {
      p += step;
      if (step <= 1e-13 * p) break;
    } else {
      if (-step <= 1e-13 * p) break;
      p = Math.max(lower, p + step);
    }
  }
  return p;
}

/**
 * Per-key terms of the density sum for one group: g(y) = (1/N) Σ_{d<N} (1 − e^{−y·d/N}) with y = D·λ,
 * its complement and dg/dy. Small y uses the power series (the closed form cancels there).
 */
function densityTerm(y: number, n: number): [g: number, miss: number, slope: number] {
  if (y < 1e-4) {
    const m1 = (n - 1) / (2 * n);
    const m2 = ((n - 1) * (2 * n - 1)) / (6 * n * n);
    const m3 = ((n - 1) * (n - 1)) / (4 * n * n);
    const g = y * m1 - ((y * y) / 2) * m2 + ((y * y * y) / 6) * m3;
    return [g, 1 - g, m1 - y * m2 + ((y * y) / 2) * m3];
  }
  const a = -Math.expm1(-y);
  const b = -Math.expm1(-y / n);
  const r = a / (n * b);
  const dr = (Math.exp(-y) * b - (a * Math.exp(-y / n)) / n) / (n * b * b);
  return [1 - r, r, -dr];
}

/**
 * DInterval(l) (Theorem 3 / Lemma 2): the D solving (1/N) Σ_{d=0}^{N−1} Unique(D·d/N) = size, i.e. the
 * requests in one sweep of the round-robin cursor. The left side G(D) is increasing and concave with
 * supremum N − 1, so Newton from D = size (G(D) ≤ D for D ≥ 1) converges monotonically; a start right
 * of the root lands left of it after one step. Returns [D, G'(D)].
 */
export function dIntervalOf(pop: Popularity, size: number, hint?: number): [number, number] {
  const n = pop.keySpace;
  if (size <= 0) return [0, Infinity];
  if (size >= n - 1) return [Infinity, 0];
  const { counts, lambdas } = pop;
  const nearFull = size > 0.5 * n;
  // G is concave with G'(0) = Σλ·(N−1)/(2N), so the root is ≥ size/G'(0).
  const lower = size / ((uniqueSlopeOf(pop, 0) * (n - 1)) / (2 * n));
  let dInt = hint !== undefined && hint > lower && Number.isFinite(hint) ? hint : size;
  let slope = 0;
  for (let it = 0; it < 1000; it++) {
    let level = 0;
    slope = 0;
    for (let j = 0; j < counts.length; j++) {
      const [g, miss, dg] = densityTerm(dInt * lambdas[j], n);
      level += counts[j] * (nearFull ? miss : g);
      slope += counts[j] * lambdas[j] * dg;
    }
    const residual = nearFull ? level - (n - size) : size - level;
    const step = residual / slope;
    if (!(slope > 0) || !Number.isFinite(step)) break;
    if (step >= 0) {
      dInt += step;
      if (step <= 1e-13 * dInt) break;
    } else {
      if (-step <= 1e-13 * dInt) break;
      dInt = Math.max(lower, dInt + step);
    }
  }
  return [dInt, slope];
}

// ────────────────────────────────────────────────────────────────────────── primitives (public)

/**
 * Unique(p): expected number of distinct keys among `requests` i.i.d. requests (Theorem 1).
 * @param requests p ≥ 0 (real; Infinity gives keySpace)
 * @param keySpace N, the number of keys the workload can touch: integer in [2, 1e12]
 * @param distribution key popularity; Zipf θ in [0, 5]
 * @param grouping Zipf compression (default exact ranks 1..1000, tail ratio 1.001)
 * @returns distinct keys (items), in [0, N]
 */
export function unique(
  requests: number,
  keySpace: number,
  distribution: MslsDistribution,
  grouping?: MslsGrouping,
): number {
  const pop = validatedPopularity(keySpace, distribution, grouping);
  requireNumber('requests', requests, 0, Infinity);
  return finite('unique', uniqueOf(pop, requests));
}

/**
 * Unique⁻¹(u): the request count whose expected distinct-key count is u (not the coupon-collector
 * time). Unique⁻¹(N) = Infinity by the paper's limit convention.
 * @param uniqueKeys u in [0, keySpace] (items)
 * @returns requests, in [u, ∞]
 */
export function uniqueInverse(
  uniqueKeys: number,
  keySpace: number,
  distribution: MslsDistribution,
  grouping?: MslsGrouping,
): number {
  const pop = validatedPopularity(keySpace, distribution, grouping);
  requireNumber('uniqueKeys', uniqueKeys, 0, pop.keySpace);
  return uniqueInverseOf(pop, uniqueKeys);
}

/**
 * Merge(u₁, …, u_m) = Unique(Σ Unique⁻¹(u_i)) (Theorem 2): expected size of the table produced by
 * merging tables of u_i distinct keys each. A full table (N) absorbs everything.
 * @param sizes table sizes in items, each in [0, keySpace]
 * @returns items, in [max u_i, min(Σ u_i, N)]
 */
export function mslsMerge(
  sizes: readonly number[],
  keySpace: number,
  distribution: MslsDistribution,
  grouping?: MslsGrouping,
): number {
  const pop = validatedPopularity(keySpace, distribution, grouping);
  if (!Array.isArray(sizes)) throw new ModelInputError('sizes', `must be an array of table sizes, got ${String(sizes)}`);
  let requests = 0;
  sizes.forEach((u, i) => {
    requireNumber(`sizes[${i}]`, u, 0, pop.keySpace);
    requests += uniqueInverseOf(pop, u);
  });
  return finite('mslsMerge', uniqueOf(pop, requests));
}

/** How the weighted Unique weighs keys: by a uniform query mix (1/N each) or by insert popularity. */
export type MslsQueryWeighting = 'uniform' | 'popularity';

/**
 * Weighted Unique (§8): Σ_k [1 − (1 − f_k)^p]·w(k) with w the query probability of key k, i.e. the
 * probability that a random query targets a key present among the last `requests` inserts.
 * @param weighting 'popularity': queries follow the insert distribution (w = f); 'uniform': w = 1/N
 * @returns a probability in [0, 1]
 */
export function uniqueWeighted(
  requests: number,
  keySpace: number,
  distribution: MslsDistribution,
  weighting: MslsQueryWeighting,
  grouping?: MslsGrouping,
): number {
  const pop = validatedPopularity(keySpace, distribution, grouping);
  requireNumber('requests', requests, 0, Infinity);
  const w = requireOneOf('weighting', weighting, ['uniform', 'popularity'] as const);
  return finite('uniqueWeighted', weightedUniqueOf(pop, requests, w));
}

export function weightedUniqueOf(pop: Popularity, p: number, w: MslsQueryWeighting): number {
  if (p <= 0) return 0;
  const { counts, lambdas, probs } = pop;
  let sum = 0;
  let total = 0;
  for (let j = 0; j < counts.length; j++) {
    const weight = counts[j] * (w === 'popularity' ? probs[j] : 1 / pop.keySpace);
    total += weight;
    sum += weight * (p === Infinity ? 1 : -Math.expm1(-p * lambdas[j]));
  }
  // Normalise away the grouping's rounding so probabilities sum to exactly 1.
  return sum / total;
}

/**
 * DInterval: expected requests between two compactions of the same key position of a level of
 * `sizeItems` distinct keys under round-robin table selection (Theorem 3). Larger than
 * Unique⁻¹(size) because the cursor always compacts the densest part of the level.
 * @param sizeItems Size(l) in items, in [0, keySpace − 1) (the density sum never reaches N − 1)
 * @returns requests
 */
export function mslsDInterval(
  sizeItems: number,
  keySpace: number,
  distribution: MslsDistribution,
  grouping?: MslsGrouping,
): number {
  const pop = validatedPopularity(keySpace, distribution, grouping);
  requireNumber('sizeItems', sizeItems, 0, pop.keySpace - 1, { exclusiveMax: true });
  return dIntervalOf(pop, sizeItems)[0];
}

/**
 * Density(l, d) = Unique(DInterval·d/N)/N sampled at `points` backward distances d/N = (i+½)/points
 * from the round-robin cursor (reference §7.1 "density profile": overlay with a histogram of the
 * engine's level keys by distance from compact_pointer).
 * @returns [{ distance: fraction of the key space in (0, 1), density: probability in [0, 1] }]
 */
export function mslsDensityProfile(
  sizeItems: number,
  keySpace: number,
  distribution: MslsDistribution,
  points = 100,
  grouping?: MslsGrouping,
): { distance: number; density: number }[] {
  const pop = validatedPopularity(keySpace, distribution, grouping);
  requireNumber('sizeItems', sizeItems, 0, pop.keySpace - 1, { exclusiveMax: true });
  requireNumber('points', points, 1, 100_000, { integer: true });
  const [dInt] = dIntervalOf(pop, sizeItems);
  return Array.from({ length: points }, (_, i) => {
    const distance = (i + 0.5) / points;
    return { distance, density: uniqueOf(pop, dInt * distance) / pop.keySpace };
  });
}

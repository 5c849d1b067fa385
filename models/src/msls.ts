/**
 * MSLS (Lim, Andersen, Kaminsky, FAST'16): accurate write-amplification models for multi-stage
 * log-structured designs, built from three primitives over a key-popularity distribution:
 * Unique (expected distinct keys among p requests), Unique⁻¹ and Merge.
 *
 * Units: every model quantity is in ITEMS (fixed-size entries) and every "time" in insert REQUESTS.
 * The public parameter objects take bytes (project convention) and convert with `entryBytes`.
 * Write amplification (WA) = data written to storage ÷ data inserted; compaction reads are excluded.
 *
 * Reference: msls.md (§2 primitives, §3 design models, §4 level-size optimisation).
 */
import { fprFromBitsPerKey } from './bloom';
import { ModelInputError, finite, requireNumber, requireOneOf } from './validate';

// ────────────────────────────────────────────────────────────────────────── distributions

/** Key popularity. Zipf: the key of popularity rank i is requested with probability i^−θ / H(N, θ). */
export type MslsDistribution = { kind: 'uniform' } | { kind: 'zipf'; theta: number };

/**
 * How a Zipf distribution is compressed (reference §2.6): ranks 1..exactRanks keep their own
 * probability, later ranks are grouped in geometric runs [lo, ⌊lo·groupRatio⌋] carrying the run's
 * mean probability. The default (1000, 1.001) has relative error ≈ 1e-8 on Unique and DInterval;
 * exactRanks ≥ keySpace makes the distribution exact. Uniform keys are always one exact group.
 */
export interface MslsGrouping {
  /** Ranks kept exact, integer in [1, 4 194 304]. Default 1000. */
  exactRanks?: number;
  /** Geometric growth of a tail group, in (1, 2]. Default 1.001. */
  groupRatio?: number;
}

const DEFAULT_GROUPING: Required<MslsGrouping> = { exactRanks: 1000, groupRatio: 1.001 };
/** Coarser grouping used inside the level-size search (~20× fewer groups); the optimum found with it re-evaluates within 1e-9 of the fine-grouping optimum at N = 10⁸, Zipf 0.99. */
const SEARCH_GROUPING: Required<MslsGrouping> = { exactRanks: 100, groupRatio: 1.02 };

const MAX_KEY_SPACE = 1e12;
const MAX_THETA = 5;

/**
 * A key-popularity distribution compressed to groups: `counts[j]` keys, each requested with
 * probability `probs[j]`; `lambdas[j]` = −ln(1 − probs[j]) so (1 − f)^p = exp(−p·λ) stays exact
 * for f ≈ 1e-9 (never pow(1 − f, p)).
 */
interface Popularity {
  keySpace: number;
  counts: Float64Array;
  probs: Float64Array;
  lambdas: Float64Array;
}

function validateDistribution(field: string, d: unknown): MslsDistribution {
  if (typeof d !== 'object' || d === null) {
    throw new ModelInputError(field, `must be { kind: 'uniform' } or { kind: 'zipf', theta }, got ${String(d)}`);
  }
  const kind = requireOneOf(`${field}.kind`, (d as { kind?: unknown }).kind, ['uniform', 'zipf'] as const);
  if (kind === 'uniform') return { kind };
  const theta = requireNumber(`${field}.theta`, (d as { theta?: unknown }).theta, 0, MAX_THETA);
  return { kind, theta };
}

function validateGrouping(field: string, g: MslsGrouping | undefined): Required<MslsGrouping> {
  if (g === undefined) return DEFAULT_GROUPING;
  if (typeof g !== 'object' || g === null) throw new ModelInputError(field, `must be an object, got ${String(g)}`);
  return {
    exactRanks:
      g.exactRanks === undefined
        ? DEFAULT_GROUPING.exactRanks
        : requireNumber(`${field}.exactRanks`, g.exactRanks, 1, 4_194_304, { integer: true }),
    groupRatio:
      g.groupRatio === undefined
        ? DEFAULT_GROUPING.groupRatio
        : requireNumber(`${field}.groupRatio`, g.groupRatio, 1, 2, { exclusiveMin: true }),
  };
}

function validateKeySpace(field: string, n: unknown): number {
  // f_X(k) < 1 for every key needs at least two keys.
  return requireNumber(field, n, 2, MAX_KEY_SPACE, { integer: true });
}

/** expm1(x)/x, exact at and near 0. */
function expm1OverX(x: number): number {
  return Math.abs(x) < 1e-8 ? 1 + x / 2 : Math.expm1(x) / x;
}

/** Σ_{i=a}^{b} i^−s: a plain loop for short runs, Euler–Maclaurin to the 3rd derivative otherwise. */
function powerSum(a: number, b: number, s: number): number {
  if (b - a < 64) {
    let sum = 0;
    for (let i = a; i <= b; i++) sum += i ** -s;
    return sum;
  }
  // ∫_a^b x^−s dx, written so that s → 1 (the logarithm) needs no special case.
  const t = Math.log(b / a);
  const integral = a ** (1 - s) * t * expm1OverX((1 - s) * t);
  const d1 = (x: number) => -s * x ** (-s - 1);
  const d3 = (x: number) => -s * (s + 1) * (s + 2) * x ** (-s - 3);
  return integral + (a ** -s + b ** -s) / 2 + (d1(b) - d1(a)) / 12 - (d3(b) - d3(a)) / 720;
}

function buildPopularity(keySpace: number, d: MslsDistribution, g: Required<MslsGrouping>): Popularity {
  if (d.kind === 'uniform') {
    const f = 1 / keySpace;
    return {
      keySpace,
      counts: Float64Array.of(keySpace),
      probs: Float64Array.of(f),
      lambdas: Float64Array.of(-Math.log1p(-f)),
    };
  }
  const s = d.theta;
  const counts: number[] = [];
  const weights: number[] = [];
  const head = Math.min(keySpace, g.exactRanks);
  for (let i = 1; i <= head; i++) {
    counts.push(1);
    weights.push(i ** -s);
  }
  for (let lo = head + 1; lo <= keySpace; ) {
    const hi = Math.min(keySpace, Math.max(lo, Math.floor(lo * g.groupRatio)));
    const c = hi - lo + 1;
    counts.push(c);
    weights.push(powerSum(lo, hi, s) / c);
    lo = hi + 1;
  }
  let h = 0;
  for (let j = 0; j < counts.length; j++) h += counts[j] * weights[j];
  const probs = Float64Array.from(weights, (w) => w / h);
  return {
    keySpace,
    counts: Float64Array.from(counts),
    probs,
    lambdas: Float64Array.from(probs, (f) => -Math.log1p(-f)),
  };
}

// Building a Zipf table costs ~1 ms for 10⁸ keys; interactive callers re-evaluate the same
// distribution many times, so keep the last few. The cache is invisible to callers (pure results).
const popularityCache = new Map<string, Popularity>();
const POPULARITY_CACHE_SIZE = 16;

function popularity(keySpace: number, d: MslsDistribution, g: Required<MslsGrouping>): Popularity {
  const key = d.kind === 'uniform' ? `u|${keySpace}` : `z|${keySpace}|${d.theta}|${g.exactRanks}|${g.groupRatio}`;
  const hit = popularityCache.get(key);
  if (hit) return hit;
  const pop = buildPopularity(keySpace, d, g);
  if (popularityCache.size >= POPULARITY_CACHE_SIZE) {
    const oldest = popularityCache.keys().next().value;
    if (oldest !== undefined) popularityCache.delete(oldest);
  }
  popularityCache.set(key, pop);
  return pop;
}

function validatedPopularity(keySpace: unknown, distribution: unknown, grouping: MslsGrouping | undefined): Popularity {
  const n = validateKeySpace('keySpace', keySpace);
  const d = validateDistribution('distribution', distribution);
  return popularity(n, d, validateGrouping('grouping', grouping));
}

// ────────────────────────────────────────────────────────────────────────── primitives (internal)

/** Unique(p) = Σ_k 1 − (1 − f_k)^p. */
function uniqueOf(pop: Popularity, p: number): number {
  if (p === Infinity) return pop.keySpace;
  if (p <= 0) return 0;
  const { counts, lambdas } = pop;
  let sum = 0;
  for (let j = 0; j < counts.length; j++) sum -= counts[j] * Math.expm1(-p * lambdas[j]);
  return sum;
}

/** Unique'(p) = Σ_k λ_k (1 − f_k)^p. */
function uniqueSlopeOf(pop: Popularity, p: number): number {
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
function uniqueInverseOf(pop: Popularity, u: number, hint?: number): number {
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
function dIntervalOf(pop: Popularity, size: number, hint?: number): [number, number] {
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

function weightedUniqueOf(pop: Popularity, p: number, w: MslsQueryWeighting): number {
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

// ────────────────────────────────────────────────────────────────────────── leveled (LevelDB) model

/** How a level-l table is chosen for l → l+1 compaction. */
export type MslsTableSelection = 'round-robin' | 'no-density-gradient';

/** Parameters shared by every MSLS design model. */
export interface MslsWorkloadParams {
  /** N: distinct keys the workload can touch (after warm-up the last level holds all of them), integer in [2, 1e12]. */
  keySpace: number;
  /** Key popularity of inserts. Default uniform. */
  distribution?: MslsDistribution;
  /** Entry (item) size in bytes, converts byte thresholds to items; in (0, 1e9]. Default 1000 (the paper's 1 kB items). */
  entryBytes?: number;
  /** wal: log/memtable bytes (all inserts, duplicates included) that trigger a flush; ≥ entryBytes. Default 4 MiB. */
  writeBufferBytes?: number;
  /** Zipf compression; default exact ranks 1..1000 then groups of ratio 1.001 (≈1e-8 relative error). */
  grouping?: MslsGrouping;
}

/** LevelDB-style leveled compaction with partitioned (file-granular) round-robin table selection. */
export interface MslsLevelParams extends MslsWorkloadParams {
  /** c0: level-0 table count that triggers L0 → L1 compaction, integer in [1, 1000]. Default 4. */
  level0Trigger?: number;
  /** Size(1): level-1 compaction trigger in bytes, > 0. Default 10 MiB. */
  level1Bytes?: number;
  /** r: Size(l) = level1Bytes·r^(l−1) for l < L, in (1, 1e6]. Default 10. */
  growthFactor?: number;
  /**
   * L: number of standard levels (level 0 excluded), integer in [1, 64]. Default: the smallest L with
   * level1Bytes·r^(L−1) ≥ N·entryBytes. The last level always holds all N keys (Size(L) = N).
   */
  levels?: number;
  /**
   * Explicit Size(1..L−1) in bytes (overrides level1Bytes and growthFactor; L = length + 1). Each must
   * be > 0 and below (N − 1)·entryBytes. Feed back `mslsOptimizeLevelSizes(...).levelBytes` here.
   */
  levelBytes?: readonly number[];
  /**
   * 'round-robin' (LevelDB; the paper's model). 'no-density-gradient' replaces DInterval(l) by
   * Unique⁻¹(Size(l)) — the reference's unvalidated what-if proxy for RocksDB v4 largest-first
   * selection (§3.5); the paper itself has no model for it. Default 'round-robin'.
   */
  tableSelection?: MslsTableSelection;
}

/** `MslsLevelParams` with defaults applied and every threshold converted to items. */
export interface MslsResolvedLevelParams {
  keySpace: number;
  distribution: MslsDistribution;
  grouping: Required<MslsGrouping>;
  entryBytes: number;
  /** wal in items (requests per flush). */
  walItems: number;
  level0Trigger: number;
  /** L. */
  levels: number;
  /** Size(1..L) in items; the last is N. */
  levelItems: number[];
  tableSelection: MslsTableSelection;
}

/** LevelDB defaults (1 kB items as in the paper). */
export const MSLS_LEVELDB_DEFAULTS = {
  entryBytes: 1000,
  writeBufferBytes: 4 * 1024 * 1024,
  level0Trigger: 4,
  level1Bytes: 10 * 1024 * 1024,
  growthFactor: 10,
} as const;

/**
 * Apply defaults, validate every field (errors name the field and range) and convert to items.
 * Level count rule (reproduces the paper's Table 1): L is the first level whose nominal capacity
 * covers N; a nominal size within one item of N also counts as covering (DInterval needs Size < N − 1).
 */
export function mslsResolveLevelParams(params: MslsLevelParams): MslsResolvedLevelParams {
  if (typeof params !== 'object' || params === null) throw new ModelInputError('params', 'must be an object');
  const base = resolveWorkload(params);
  const n = base.keySpace;
  const level0Trigger = requireNumber('level0Trigger', params.level0Trigger ?? MSLS_LEVELDB_DEFAULTS.level0Trigger, 1, 1000, {
    integer: true,
  });
  const tableSelection = requireOneOf('tableSelection', params.tableSelection ?? 'round-robin', [
    'round-robin',
    'no-density-gradient',
  ] as const);
  const upper: number[] = [];
  const maxBytes = (n - 1) * base.entryBytes;
  if (params.levelBytes !== undefined) {
    if (!Array.isArray(params.levelBytes) || params.levelBytes.length > 63) {
      throw new ModelInputError('levelBytes', 'must be an array of at most 63 level sizes in bytes (levels 1..L−1)');
    }
    params.levelBytes.forEach((b, i) => {
      requireNumber(`levelBytes[${i}]`, b, 0, maxBytes, { exclusiveMin: true, exclusiveMax: true });
      upper.push(b / base.entryBytes);
    });
    if (params.levels !== undefined && params.levels !== upper.length + 1) {
      throw new ModelInputError('levels', `must equal levelBytes.length + 1 = ${upper.length + 1}, got ${String(params.levels)}`);
    }
  } else {
    const level1Bytes = requireNumber('level1Bytes', params.level1Bytes ?? MSLS_LEVELDB_DEFAULTS.level1Bytes, 0, 1e18, {
      exclusiveMin: true,
    });
    const r = requireNumber('growthFactor', params.growthFactor ?? MSLS_LEVELDB_DEFAULTS.growthFactor, 1, 1e6, {
      exclusiveMin: true,
    });
    const nominal = (l: number) => (level1Bytes * r ** (l - 1)) / base.entryBytes;
    if (params.levels === undefined) {
      while (nominal(upper.length + 1) < n - 1 && upper.length < 63) upper.push(nominal(upper.length + 1));
    } else {
      const levels = requireNumber('levels', params.levels, 1, 64, { integer: true });
      let fits = 1;
      while (fits < 64 && nominal(fits) < n - 1) fits += 1;
      if (levels > fits) {
        throw new ModelInputError(
          'levels',
          `must be an integer in [1, ${fits}]: with level1Bytes = ${level1Bytes} and growthFactor = ${r}, Size(${fits}) would reach the key space (N − 1 = ${n - 1} items), got ${levels}`,
        );
      }
      for (let l = 1; l < levels; l++) upper.push(nominal(l));
    }
  }
  return {
    ...base,
    level0Trigger,
    levels: upper.length + 1,
    levelItems: [...upper, n],
    tableSelection,
  };
}

interface ResolvedWorkload {
  keySpace: number;
  distribution: MslsDistribution;
  grouping: Required<MslsGrouping>;
  entryBytes: number;
  walItems: number;
}

function resolveWorkload(params: MslsWorkloadParams): ResolvedWorkload {
  const keySpace = validateKeySpace('keySpace', params.keySpace);
  const distribution = validateDistribution('distribution', params.distribution ?? { kind: 'uniform' });
  const grouping = validateGrouping('grouping', params.grouping);
  const entryBytes = requireNumber('entryBytes', params.entryBytes ?? MSLS_LEVELDB_DEFAULTS.entryBytes, 0, 1e9, {
    exclusiveMin: true,
  });
  // A buffer below one entry would flush fractional items: meaningless, so rejected.
  const writeBufferBytes = requireNumber(
    'writeBufferBytes',
    params.writeBufferBytes ?? MSLS_LEVELDB_DEFAULTS.writeBufferBytes,
    entryBytes,
    1e18,
  );
  return { keySpace, distribution, grouping, entryBytes, walItems: writeBufferBytes / entryBytes };
}

/** One compaction step l → l+1 of the leveled model (Algorithm 1). */
export interface MslsCompactionStep {
  fromLevel: number;
  toLevel: number;
  /** Interval(l): requests over which the l → l+1 cost is amortised (c0·wal for l = 0; cumulative above). */
  intervalRequests: number;
  /** DInterval(l): requests per sweep of the round-robin cursor (the engine's cursor wrap period); null for l = 0. */
  sweepRequests: number | null;
  /** Merge(Unique(Interval(l)), Size(l+1)), items. */
  mergeItems: number;
  /** False-overlap term Unique(Interval(l)) for l ≥ 1 (0 for L0 → L1), items. */
  falseOverlapItems: number;
  /** Write(l+1) = merge + false overlap, items. */
  writeItems: number;
  /** Write(l+1)/Interval(l): this step's share of WA. */
  writeAmplification: number;
}

/** Write amplification with its per-source breakdown. */
export interface MslsWriteAmplification {
  /** Total WA (dimensionless). */
  total: number;
  /** Write-ahead log: 1 (no deduplication). */
  log: number;
  /** Memtable → level 0: Unique(wal)/wal. */
  flush: number;
  /** Steps L0→L1, …, L(L−1)→L(L). */
  compactions: MslsCompactionStep[];
  /**
   * WA written INTO each level, length L + 1: [flush into L0, into L1, …, into L]. Compare with the
   * engine's bytes written per level ÷ bytes inserted (logical bytes, after warm-up).
   */
  perLevel: number[];
  resolved: MslsResolvedLevelParams;
  /** Regions where the reference says the model is less accurate. */
  warnings: string[];
}

interface LeveledCore {
  total: number;
  flush: number;
  intervals: number[];
  sweeps: number[];
  merges: number[];
  overlaps: number[];
  /** dWA/d ln Size(l), l = 1..L−1 (only with gradient). */
  gradient: number[];
}

interface SolveHints {
  q: number[];
  d: number[];
}

/**
 * Algorithm 1. sizes = Size(1..L) in items (last = N). Uses Merge(Unique(I), S) = Unique(I + Unique⁻¹(S))
 * (the isomorphism), which saves one inversion per level. Optionally returns the analytic gradient
 * with respect to ln Size(l): WA depends on Size(j) through Unique⁻¹(Size(j)) (the merge into level j)
 * and through DInterval(j), which shifts every later cumulative Interval.
 */
function leveledCore(
  pop: Popularity,
  wal: number,
  c0: number,
  sizes: readonly number[],
  selection: MslsTableSelection,
  withGradient: boolean,
  hints?: SolveHints,
): LeveledCore {
  const n = pop.keySpace;
  const levels = sizes.length;
  const q: number[] = [];
  const qSlope: number[] = [];
  const sweeps: number[] = [];
  const sweepSlope: number[] = [];
  for (let j = 0; j < levels - 1; j++) {
    q[j] = uniqueInverseOf(pop, sizes[j], hints?.q[j]);
    if (selection === 'round-robin') {
      [sweeps[j], sweepSlope[j]] = dIntervalOf(pop, sizes[j], hints?.d[j]);
    } else {
      sweeps[j] = q[j];
    }
    if (withGradient) {
      qSlope[j] = uniqueSlopeOf(pop, q[j]);
      if (selection !== 'round-robin') sweepSlope[j] = qSlope[j];
    }
  }
  q[levels - 1] = Infinity;
  if (hints) {
    hints.q = q.slice(0, levels - 1);
    hints.d = sweeps.slice();
  }
  const intervals = [wal * c0];
  for (let l = 1; l < levels; l++) intervals[l] = intervals[l - 1] + sweeps[l - 1];
  const merges: number[] = [];
  const overlaps: number[] = [];
  const dTdI: number[] = [];
  const dTdQ: number[] = [];
  let total = 1;
  const flush = uniqueOf(pop, wal) / wal;
  total += flush;
  for (let l = 0; l < levels; l++) {
    const iv = intervals[l];
    const last = l === levels - 1;
    merges[l] = last ? n : uniqueOf(pop, iv + q[l]);
    overlaps[l] = l === 0 ? 0 : uniqueOf(pop, iv);
    const term = (merges[l] + overlaps[l]) / iv;
    total += term;
    if (withGradient) {
      const mergeSlope = last ? 0 : uniqueSlopeOf(pop, iv + q[l]);
      dTdQ[l] = mergeSlope / iv;
      dTdI[l] = (mergeSlope + (l === 0 ? 0 : uniqueSlopeOf(pop, iv)) - term) / iv;
    }
  }
  const gradient: number[] = [];
  if (withGradient) {
    // DInterval(level j+1) feeds every Interval(m), m ≥ j+1, so it collects Σ_{m>j} ∂T_m/∂Interval(m).
    let suffix = 0;
    for (let j = levels - 2; j >= 0; j--) {
      suffix += dTdI[j + 1];
      const viaMerge = dTdQ[j] / qSlope[j];
      const viaSweep = suffix / sweepSlope[j];
      gradient[j] = sizes[j] * (viaMerge + viaSweep);
    }
  }
  return { total, flush, intervals, sweeps, merges, overlaps, gradient };
}

function leveledResult(pop: Popularity, r: MslsResolvedLevelParams): MslsWriteAmplification {
  const core = leveledCore(pop, r.walItems, r.level0Trigger, r.levelItems, r.tableSelection, false);
  finite('mslsWriteAmplification', core.total);
  const compactions = core.intervals.map((iv, l) => {
    const writeItems = core.merges[l] + core.overlaps[l];
    return {
      fromLevel: l,
      toLevel: l + 1,
      intervalRequests: iv,
      sweepRequests: l === 0 ? null : core.sweeps[l - 1],
      mergeItems: core.merges[l],
      falseOverlapItems: core.overlaps[l],
      writeItems,
      writeAmplification: writeItems / iv,
    };
  });
  const warnings: string[] = [];
  if (r.levels > 1 && r.levelItems[0] < r.walItems) {
    warnings.push(
      'Size(1) is smaller than the write buffer: the overflow approximation is crude here and the model overestimates WA under uniform keys (paper Fig. 10).',
    );
  }
  return {
    total: core.total,
    log: 1,
    flush: core.flush,
    compactions,
    perLevel: [core.flush, ...compactions.map((c) => c.writeAmplification)],
    resolved: r,
    warnings,
  };
}

/**
 * Write amplification of LevelDB-style leveled compaction with round-robin partitioned compaction
 * (the paper's Algorithm 1, §3.2):
 *   WA = 1 + Unique(wal)/wal + Merge(Unique(c0·wal), Size(1))/(c0·wal)
 *          + Σ_{l=1}^{L−1} [Merge(Unique(I_l), Size(l+1)) + Unique(I_l)] / I_l,
 *   I_0 = c0·wal, I_l = I_{l−1} + DInterval(l), Size(L) = N.
 * Models redundancy (Unique/Merge), the density gradient of round-robin selection (DInterval),
 * level overflow (cumulative Interval) and false overlaps (+Unique(I_l)).
 */
export function mslsWriteAmplification(params: MslsLevelParams): MslsWriteAmplification {
  const r = mslsResolveLevelParams(params);
  return leveledResult(popularity(r.keySpace, r.distribution, r.grouping), r);
}

/**
 * The conventional no-redundancy worst case the paper compares against (merging sizes u and v
 * yields u + v; skew-independent). [UNCERTAIN] The paper states only that assumption; this is the
 * reference's reconstruction (§3.3), "no-redundancy worst case": every level moves wholesale,
 *   WA_wc = 1 + 1 + (c0·wal + Size(1))/(c0·wal) + Σ_{l=1}^{L−1} (Size(l) + Size(l+1))/Size(l).
 * Same breakdown shape as `mslsWriteAmplification` (Interval(l) = Size(l) for l ≥ 1).
 */
export function worstCaseWriteAmplification(params: MslsLevelParams): MslsWriteAmplification {
  const r = mslsResolveLevelParams(params);
  const sizes = r.levelItems;
  const compactions: MslsCompactionStep[] = sizes.map((target, l) => {
    const iv = l === 0 ? r.level0Trigger * r.walItems : sizes[l - 1];
    return {
      fromLevel: l,
      toLevel: l + 1,
      intervalRequests: iv,
      sweepRequests: null,
      mergeItems: iv + target,
      falseOverlapItems: 0,
      writeItems: iv + target,
      writeAmplification: (iv + target) / iv,
    };
  });
  const perLevel = [1, ...compactions.map((c) => c.writeAmplification)];
  const total = 1 + perLevel.reduce((a, b) => a + b, 0);
  return { total: finite('worstCaseWriteAmplification', total), log: 1, flush: 1, compactions, perLevel, resolved: r, warnings: [] };
}

// ────────────────────────────────────────────────────────────────────────── level-size optimiser

/** Constraints and search settings for `mslsOptimizeLevelSizes`. */
export interface MslsOptimizeOptions {
  /**
   * ρ_min: every ratio Size(l+1)/Size(l), l = 1..L−1 (including N/Size(L−1)), must be ≥ this, in
   * [1.01, 1000]. Keeps the fixed-L premise honest: without it large write buffers drive levels
   * toward N and effectively remove them (reference §4.4). Default 2 (the reference's choice),
   * lowered to the baseline's smallest ratio if that is below 2.
   */
  minGrowthFactor?: number;
  /**
   * Lower bound on Size(1) in bytes, ≥ entryBytes. Default one entry (or the baseline Size(1) if
   * smaller). The reference suggests ≈ c0·wal for the explorer; with large buffers that can be infeasible.
   */
  minLevel1Bytes?: number;
  /** Zipf grouping used during the search (the result is re-evaluated with `params.grouping`). Default (100, 1.02). */
  searchGrouping?: MslsGrouping;
}

/** Result of the level-size optimisation. */
export interface MslsOptimizedLevels {
  /** Optimised Size(1..L−1) in bytes: pass as `levelBytes` to the other functions. */
  levelBytes: number[];
  /** Optimised Size(1..L) in items (last = N). */
  levelItems: number[];
  /** The model at the optimised sizes. */
  optimized: MslsWriteAmplification;
  /** The model at the sizes `params` describes (LevelDB geometric sizes by default). */
  baseline: MslsWriteAmplification;
  /** Relative WA reduction 1 − optimized/baseline; ≥ 0 whenever `baselineFeasible`. */
  gain: number;
  /**
   * The bounds actually enforced. Default bounds are relaxed to contain the baseline (e.g. a last
   * level barely above Size(L−1) lowers ρ_min below 2); bounds given in the options are kept.
   */
  constraints: { minGrowthFactor: number; minLevel1Items: number };
  /** Whether the baseline satisfies `constraints` (always true with default bounds). */
  baselineFeasible: boolean;
  /** Human-readable list of constraints that bind at the optimum (reference §4.4: show these). */
  activeConstraints: string[];
  /** Model evaluations spent. */
  evaluations: number;
}

/**
 * Minimise the leveled model's WA over Size(1..L−1) with L, wal, c0, the entry size and the key
 * distribution fixed and Size(L) = N (the paper's §6 / reference §4). Sizes live in log space; the
 * constraints ln Size(1) ≥ a and ln Size(l+1) − ln Size(l) ≥ ln ρ_min leave L non-negative gaps with
 * a fixed sum, parameterised by a softmax so the search is unconstrained. BFGS with the analytic
 * gradient, started from the baseline and from three geometric shapes (growth 4, 7, 12 from the top,
 * as the reference does); the best is kept. Uniform keys: a few ms; Zipf at N = 10⁸: well under 1 s.
 */
export function mslsOptimizeLevelSizes(params: MslsLevelParams, options: MslsOptimizeOptions = {}): MslsOptimizedLevels {
  const r = mslsResolveLevelParams(params);
  const pop = popularity(r.keySpace, r.distribution, r.grouping);
  const baseline = leveledResult(pop, r);
  const n = r.keySpace;
  const levels = r.levels;
  const base = r.levelItems;
  // Default bounds are relaxed to contain the baseline (so the result is never worse than it);
  // bounds the caller gives are enforced as given.
  let rho: number;
  if (options.minGrowthFactor === undefined) {
    rho = 2;
    for (let l = 1; l < levels; l++) rho = Math.min(rho, base[l] / base[l - 1]);
  } else {
    rho = requireNumber('minGrowthFactor', options.minGrowthFactor, 1.01, 1000);
  }
  const min1 =
    options.minLevel1Bytes === undefined
      ? Math.min(1, base[0])
      : requireNumber('minLevel1Bytes', options.minLevel1Bytes, r.entryBytes, 1e18) / r.entryBytes;
  const searchGrouping = validateGrouping('searchGrouping', options.searchGrouping ?? SEARCH_GROUPING);
  const constraints = { minGrowthFactor: rho, minLevel1Items: min1 };
  const lnA = Math.log(min1);
  const lnB = Math.log(rho);
  const span = Math.log(n) - lnA - (levels - 1) * lnB;
  const feasible = (sizes: readonly number[]) =>
    sizes[0] >= min1 * (1 - 1e-12) && sizes.every((s, l) => l === 0 || s / sizes[l - 1] >= rho * (1 - 1e-12));
  const baselineFeasible = feasible(base);
  if (levels > 1 && !(span > 0)) {
    throw new ModelInputError(
      options.minGrowthFactor === undefined ? 'minLevel1Bytes' : 'minGrowthFactor',
      `leaves no feasible level sizes: need minLevel1·minGrowthFactor^(L−1) < N with L = ${levels}, N = ${n} items`,
    );
  }
  if (levels === 1 || (baselineFeasible && span < 1e-12)) {
    return {
      levelBytes: base.slice(0, -1).map((s) => s * r.entryBytes),
      levelItems: base.slice(),
      optimized: baseline,
      baseline,
      gain: 0,
      constraints,
      baselineFeasible,
      activeConstraints: [],
      evaluations: 1,
    };
  }
  const searchPop = popularity(n, r.distribution, searchGrouping);
  const search = new SoftmaxLevelSearch(searchPop, r, lnA, lnB, span);
  const starts: number[][] = [base.slice(0, -1)];
  for (const growth of [4, 7, 12]) {
    starts.push(Array.from({ length: levels - 1 }, (_, j) => n / growth ** (levels - 1 - j)));
  }
  let best: { sizes: number[]; wa: number } | null = null;
  for (const s of starts) {
    const found = search.run(s);
    if (best === null || found.wa < best.wa) best = found;
  }
  const chosen = best as { sizes: number[]; wa: number };
  let levelItems = [...chosen.sizes, n];
  let optimized = leveledResult(pop, { ...r, levelItems });
  if (baselineFeasible && !(optimized.total <= baseline.total)) {
    levelItems = base.slice();
    optimized = baseline;
  }
  const activeConstraints: string[] = [];
  const tol = 1e-6;
  if (Math.log(levelItems[0]) - lnA < tol) activeConstraints.push(`Size(1) ≥ ${fmt(min1)} items`);
  for (let l = 1; l < levels; l++) {
    if (Math.log(levelItems[l] / levelItems[l - 1]) - lnB < tol) {
      activeConstraints.push(`Size(${l + 1})/Size(${l}) ≥ ${fmt(rho)}`);
    }
  }
  return {
    levelBytes: levelItems.slice(0, -1).map((s) => s * r.entryBytes),
    levelItems,
    optimized,
    baseline,
    gain: 1 - optimized.total / baseline.total,
    constraints,
    baselineFeasible,
    activeConstraints,
    evaluations: search.evaluations,
  };
}

function fmt(x: number): string {
  return Number(x.toPrecision(6)).toString();
}

/**
 * The softmax-parameterised BFGS search. Gaps g_0..g_{L−1} ≥ 0 with Σ g = span define
 * ln Size(1) = a + g_0, ln Size(l+1) = ln Size(l) + b + g_l; g = span·softmax(t).
 */
class SoftmaxLevelSearch {
  evaluations = 0;
  private readonly hints: SolveHints = { q: [], d: [] };

  constructor(
    private readonly pop: Popularity,
    private readonly r: MslsResolvedLevelParams,
    private readonly lnA: number,
    private readonly lnB: number,
    private readonly span: number,
  ) {}

  private sizesOf(t: readonly number[]): { sizes: number[]; soft: number[] } {
    const m = Math.max(...t);
    const e = t.map((x) => Math.exp(x - m));
    const z = e.reduce((a, b) => a + b, 0);
    const soft = e.map((x) => x / z);
    const sizes: number[] = [];
    let ln = this.lnA;
    for (let j = 0; j < t.length - 1; j++) {
      ln += (j === 0 ? 0 : this.lnB) + this.span * soft[j];
      sizes.push(Math.exp(ln));
    }
    return { sizes, soft };
  }

  private evaluate(t: readonly number[]): { wa: number; grad: number[]; sizes: number[] } {
    this.evaluations += 1;
    const { sizes, soft } = this.sizesOf(t);
    const n = this.pop.keySpace;
    if (sizes.some((s) => !(s < n - 1) || !(s > 0))) return { wa: Infinity, grad: t.map(() => 0), sizes };
    const core = leveledCore(this.pop, this.r.walItems, this.r.level0Trigger, [...sizes, n], this.r.tableSelection, true, this.hints);
    // dWA/dg_i = Σ_{j ≥ i} dWA/d ln Size(j+1): gap i raises every level above it.
    const k = t.length;
    const h: number[] = new Array<number>(k).fill(0);
    let acc = 0;
    for (let j = k - 2; j >= 0; j--) {
      acc += core.gradient[j];
      h[j] = acc;
    }
    const mean = soft.reduce((a, s, i) => a + s * h[i], 0);
    const grad = soft.map((s, i) => this.span * s * (h[i] - mean));
    return { wa: Number.isFinite(core.total) ? core.total : Infinity, grad, sizes };
  }

  run(startSizes: readonly number[]): { sizes: number[]; wa: number } {
    const k = startSizes.length + 1;
    const n = this.pop.keySpace;
    // Gaps of the start point, nudged inside the feasible simplex.
    const lns = [...startSizes.map((s) => Math.log(s)), Math.log(n)];
    const gaps = lns.map((ln, j) => Math.max(ln - (j === 0 ? this.lnA : lns[j - 1] + this.lnB), 1e-9 * this.span));
    const scale = this.span / gaps.reduce((a, b) => a + b, 0);
    let t = gaps.map((g) => Math.log(g * scale));
    let cur = this.evaluate(t);
    if (!Number.isFinite(cur.wa)) {
      t = new Array<number>(k).fill(0);
      cur = this.evaluate(t);
    }
    let hInv = identity(k);
    for (let iter = 0; iter < 200; iter++) {
      const dir = matVec(hInv, cur.grad).map((x) => -x);
      let slope = dot(dir, cur.grad);
      if (!(slope < 0)) {
        hInv = identity(k);
        dir.splice(0, k, ...cur.grad.map((x) => -x));
        slope = dot(dir, cur.grad);
        if (!(slope < 0)) break;
      }
      let step = 1;
      let next = cur;
      let accepted = false;
      for (let bt = 0; bt < 40; bt++) {
        const tn = t.map((x, i) => x + step * dir[i]);
        next = this.evaluate(tn);
        if (next.wa <= cur.wa + 1e-4 * step * slope) {
          accepted = true;
          const s = tn.map((x, i) => x - t[i]);
          const y = next.grad.map((g, i) => g - cur.grad[i]);
          hInv = bfgsUpdate(hInv, s, y);
          t = tn;
          break;
        }
        step *= 0.5;
      }
      if (!accepted) break;
      const improvement = cur.wa - next.wa;
      cur = next;
      if (improvement <= 1e-13 * cur.wa && Math.sqrt(dot(cur.grad, cur.grad)) < 1e-7) break;
      if (improvement <= 1e-15 * cur.wa) break;
    }
    return { sizes: cur.sizes, wa: cur.wa };
  }
}

function identity(k: number): number[][] {
  return Array.from({ length: k }, (_, i) => Array.from({ length: k }, (_, j) => (i === j ? 1 : 0)));
}

function dot(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

function matVec(m: readonly number[][], v: readonly number[]): number[] {
  return m.map((row) => dot(row, v));
}

/** Inverse-Hessian BFGS update; skipped when the curvature condition fails (keeps H positive definite). */
function bfgsUpdate(h: number[][], s: number[], y: number[]): number[][] {
  const sy = dot(s, y);
  if (!(sy > 1e-12 * Math.sqrt(dot(s, s) * dot(y, y)))) return h;
  const rho = 1 / sy;
  const hy = matVec(h, y);
  const yhy = dot(y, hy);
  const k = s.length;
  return Array.from({ length: k }, (_, i) =>
    Array.from(
      { length: k },
      (_, j) => h[i][j] - rho * (hy[i] * s[j] + s[i] * hy[j]) + (rho * rho * yhy + rho) * s[i] * s[j],
    ),
  );
}

// ────────────────────────────────────────────────────────────────────────── read amplification

/** Options of the read-amplification heuristic. */
export interface MslsReadOptions {
  /** Queries follow the insert popularity ('popularity', default) or are uniform over the N keys. */
  queries?: MslsQueryWeighting;
  /** Bloom bits per key of every table; 0 (default, LevelDB's default) means no filter: a probe costs 1 I/O. */
  filterBitsPerKey?: number;
}

/** One place a point query can be answered. */
export interface MslsReadComponent {
  name: string;
  /** Age window [startAge, endAge) in inserts of the data this component holds. */
  startAge: number;
  endAge: number;
  /** Probability that a query is answered here: Unique(e, w) − Unique(s, w). */
  probability: number;
  /** I/Os of a query answered here, c(l). */
  cost: number;
}

/** Expected random I/Os per point query with its breakdown. */
export interface MslsReadAmplification {
  total: number;
  components: MslsReadComponent[];
}

/**
 * Read amplification (Theorem 4): RA = Σ_l [Unique(e(l), w) − Unique(s(l), w)]·c(l), w = query
 * probability. The paper gives no s, e or c; this is the reference's §3.7 HEURISTIC, with the
 * windows made contiguous so the probabilities sum to 1: memtable [0, wal/2), L0 [wal/2, c0·wal),
 * level l [Interval(l−1), Interval(l)), last level [Interval(L−1), ∞). Costs: memtable 0; the L0
 * tables span c0 − ½ tables of data, each probed table without the key costs the filter FPR φ
 * (φ = 1 without filters) and the table holding it 1: c(L0) = 1 + φ·(n0 − 1)/2, c(l) = 1 + φ·(n0 + l − 1).
 */
export function mslsReadAmplification(params: MslsLevelParams, options: MslsReadOptions = {}): MslsReadAmplification {
  const r = mslsResolveLevelParams(params);
  const pop = popularity(r.keySpace, r.distribution, r.grouping);
  const weighting = requireOneOf('queries', options.queries ?? 'popularity', ['uniform', 'popularity'] as const);
  const bits = requireNumber('filterBitsPerKey', options.filterBitsPerKey ?? 0, 0, 64);
  const phi = bits === 0 ? 1 : fprFromBitsPerKey(bits);
  const core = leveledCore(pop, r.walItems, r.level0Trigger, r.levelItems, r.tableSelection, false);
  const n0 = r.level0Trigger - 0.5;
  const windows: [string, number, number, number][] = [
    ['memtable', 0, r.walItems / 2, 0],
    ['L0', r.walItems / 2, core.intervals[0], 1 + (phi * Math.max(0, n0 - 1)) / 2],
  ];
  for (let l = 1; l <= r.levels; l++) {
    const end = l === r.levels ? Infinity : core.intervals[l];
    windows.push([`L${l}`, core.intervals[l - 1], end, 1 + phi * (n0 + l - 1)]);
  }
  const components = windows.map(([name, startAge, endAge, cost]) => ({
    name,
    startAge,
    endAge,
    probability: weightedUniqueOf(pop, endAge, weighting) - weightedUniqueOf(pop, startAge, weighting),
    cost,
  }));
  const total = components.reduce((a, c) => a + c.probability * c.cost, 0);
  return { total: finite('mslsReadAmplification', total), components };
}

// ────────────────────────────────────────────────────────────────────────── other designs

/** RocksDB universal (tiered) compaction, table-level simulation (§5, Algorithm 3). RocksDB option names. */
export interface MslsUniversalParams extends MslsWorkloadParams {
  /** level0_file_num_compaction_trigger, integer in [2, 1000]. Default 12 (the paper's setting). */
  compactionTrigger?: number;
  /** level0_stop_writes_trigger, integer ≥ compactionTrigger. Default 24. */
  stopWritesTrigger?: number;
  /** max_size_amplification_percent, in (0, 1e6]. Default 200. */
  maxSizeAmplificationPercent?: number;
  /** size_ratio (percent), in [0, 1e6]. Default 1. */
  sizeRatioPercent?: number;
  /** Measured inserts per key after loading all N keys once (the paper's 10·N), in (0, 1000]. Default 10. */
  insertsPerKey?: number;
}

/**
 * WA of RocksDB universal compaction by the paper's table-level simulation (no closed form exists):
 * only table sizes are tracked; each table is kept as its equivalent request count, so a merge is a
 * sum (the Unique isomorphism) and costs one Unique. Starts from one table holding all N keys and
 * runs insertsPerKey·N inserts. [reference assumptions] RocksDB 4.0 defaults stop 24, 200 %, ratio 1 %.
 * Cost: O(inserts/wal × groups) — fast for uniform keys; Zipf at N ≥ 10⁷ takes seconds.
 */
export function mslsUniversalWriteAmplification(params: MslsUniversalParams): number {
  const w = resolveWorkload(params);
  const trigger = requireNumber('compactionTrigger', params.compactionTrigger ?? 12, 2, 1000, { integer: true });
  const stop = requireNumber('stopWritesTrigger', params.stopWritesTrigger ?? 24, trigger, 100_000, { integer: true });
  const amp = requireNumber('maxSizeAmplificationPercent', params.maxSizeAmplificationPercent ?? 200, 0, 1e6, {
    exclusiveMin: true,
  });
  const ratio = requireNumber('sizeRatioPercent', params.sizeRatioPercent ?? 1, 0, 1e6);
  const perKey = requireNumber('insertsPerKey', params.insertsPerKey ?? 10, 0, 1000, { exclusiveMin: true });
  const pop = popularity(w.keySpace, w.distribution, w.grouping);
  const wal = w.walItems;
  const flushSize = uniqueOf(pop, wal);
  // Newest first. A table is [requests, size]; the initial table (all keys) has requests = ∞.
  const tables: [number, number][] = [[Infinity, w.keySpace]];
  const mergeRange = (from: number, to: number): number => {
    let req = 0;
    for (let i = from; i < to; i++) req += tables[i][0];
    const size = uniqueOf(pop, req);
    tables.splice(from, to - from, [req, size]);
    return size;
  };
  const goal = perKey * w.keySpace;
  let inserts = 0;
  let writes = 0;
  while (inserts < goal) {
    if (tables.length < stop) {
      writes += wal + flushSize;
      inserts += wal;
      tables.unshift([wal, flushSize]);
    }
    if (tables.length < trigger) continue;
    const last = tables.length - 1;
    let younger = 0;
    for (let i = 0; i < last; i++) younger += tables[i][1];
    if (younger / tables[last][1] > amp / 100) {
      writes += mergeRange(0, tables.length);
      continue;
    }
    let merged = false;
    for (let start = 0; start < tables.length && !merged; start++) {
      let count = 1;
      let total = tables[start][1];
      for (let i = start + 1; i < tables.length; i++) {
        if ((total * (100 + ratio)) / 100 < tables[i][1]) break;
        total += tables[i][1];
        count += 1;
      }
      if (count >= 2) {
        writes += mergeRange(start, start + count);
        merged = true;
      }
    }
    if (!merged) {
      const count = tables.length - trigger;
      if (count >= 2) writes += mergeRange(0, count);
    }
  }
  return finite('mslsUniversalWriteAmplification', writes / inserts);
}

/** COLA / SAMT (Appendix B): levels grow by an integer factor r and the WAL is capped at wal. */
export interface MslsColaParams extends MslsWorkloadParams {
  /** r: integer growth factor in [2, 1000]. */
  growthFactor: number;
  /** L, integer in [1, 200]. Default: the smallest L with wal·r^(L−1) ≥ N (the reference's choice). */
  levels?: number;
}

function resolveCola(params: MslsColaParams): { w: ResolvedWorkload; r: number; levels: number; pop: Popularity } {
  const w = resolveWorkload(params);
  const r = requireNumber('growthFactor', params.growthFactor, 2, 1000, { integer: true });
  let levels = 1;
  if (params.levels === undefined) {
    while (w.walItems * r ** (levels - 1) < w.keySpace) levels += 1;
  } else {
    levels = requireNumber('levels', params.levels, 1, 200, { integer: true });
  }
  return { w, r, levels, pop: popularity(w.keySpace, w.distribution, w.grouping) };
}

/**
 * COLA write amplification (Appendix B): WA = 1 + Σ_{l=0}^{L−2} Σ_{j=0}^{r−2} Merge(Unique(I_l),
 * Unique(j·I_l)) / I_{l+1} + N/I_{L−1}, I_l = wal·r^l. Each level absorbs r − 1 merges before moving
 * down; the last level holds all N keys.
 */
export function mslsColaWriteAmplification(params: MslsColaParams): number {
  const { w, r, levels, pop } = resolveCola(params);
  let wa = 1;
  let iv = w.walItems;
  for (let l = 0; l < levels - 1; l++) {
    let written = 0;
    // Merge(Unique(I), Unique(j·I)) = Unique((j+1)·I) by the isomorphism.
    for (let j = 0; j <= r - 2; j++) written += uniqueOf(pop, (j + 1) * iv);
    wa += written / (iv * r);
    iv *= r;
  }
  return finite('mslsColaWriteAmplification', wa + w.keySpace / iv);
}

/** SAMT write amplification (Appendix B): WA = 1 + Σ_{l=0}^{L−2} r·Unique(I_l)/I_{l+1} + N/I_{L−1}. */
export function mslsSamtWriteAmplification(params: MslsColaParams): number {
  const { w, r, levels, pop } = resolveCola(params);
  let wa = 1;
  let iv = w.walItems;
  for (let l = 0; l < levels - 1; l++) {
    wa += (r * uniqueOf(pop, iv)) / (iv * r);
    iv *= r;
  }
  return finite('mslsSamtWriteAmplification', wa + w.keySpace / iv);
}

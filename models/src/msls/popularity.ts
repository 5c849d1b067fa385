/** MSLS key-popularity distributions (uniform, Zipf) compressed to groups, with their validation and cache. */
import { ModelInputError, requireNumber, requireOneOf } from '../validate';

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

const MAX_KEY_SPACE = 1e12;
const MAX_THETA = 5;

/**
 * A key-popularity distribution compressed to groups: `counts[j]` keys, each requested with
 * probability `probs[j]`; `lambdas[j]` = −ln(1 − probs[j]) so (1 − f)^p = exp(−p·λ) stays exact
 * for f ≈ 1e-9 (never pow(1 − f, p)).
 */
export interface Popularity {
  keySpace: number;
  counts: Float64Array;
  probs: Float64Array;
  lambdas: Float64Array;
}

export function validateDistribution(field: string, d: unknown): MslsDistribution {
  if (typeof d !== 'object' || d === null) {
    throw new ModelInputError(field, `must be { kind: 'uniform' } or { kind: 'zipf', theta }, got ${String(d)}`);
  }
  const kind = requireOneOf(`${field}.kind`, (d as { kind?: unknown }).kind, ['uniform', 'zipf'] as const);
  if (kind === 'uniform') return { kind };
  const theta = requireNumber(`${field}.theta`, (d as { theta?: unknown }).theta, 0, MAX_THETA);
  return { kind, theta };
}

export function validateGrouping(field: string, g: MslsGrouping | undefined): Required<MslsGrouping> {
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

export function validateKeySpace(field: string, n: unknown): number {
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

export function popularity(keySpace: number, d: MslsDistribution, g: Required<MslsGrouping>): Popularity {
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

export function validatedPopularity(keySpace: unknown, distribution: unknown, grouping: MslsGrouping | undefined): Popularity {
  const n = validateKeySpace('keySpace', keySpace);
  const d = validateDistribution('distribution', distribution);
  return popularity(n, d, validateGrouping('grouping', grouping));
}

/**
 * Monkey (Dayan, Athanassoulis, Idreos, TODS 2018): the paper's closed forms, in the corrected
 * versions of the reference (marked [FIX] there). Used to draw the paper's curves next to the exact
 * model in `monkey.ts`.
 *
 * Units: filter memory as bits per entry (the paper's Mfilt/N); costs in page I/Os. The nonzero
 * lookup mix is given as the fraction f of point lookups that find their key; the paper's
 * v = f/(1−f), so v/(v+1) = f and 1/(v+1) = 1−f. With f = 1 (v = ∞) every formula stays finite.
 */
import { LN2_SQ } from './bloom';
import type { Policy } from './types';
import { ModelInputError, requireFraction, requireNumber, requireOneOf } from './validate';

/** A perfectly shaped tree in the paper's model: merge policy, size ratio T and level count L. */
export interface MonkeyShape {
  policy: Policy;
  /** Size ratio T, at least 2. */
  sizeRatio: number;
  /** Number of on-disk levels L, an integer ≥ 1. */
  levels: number;
}

const POLICIES = ['leveling', 'tiering'] as const;

/** Slack for ceil() of a logarithm that should be an integer (reference pitfall P3). */
const LOG_EPS = 1e-12;

function checkPolicy(field: string, policy: unknown): Policy {
  return requireOneOf(field, policy, POLICIES);
}

function checkSizeRatio(field: string, sizeRatio: unknown): number {
  return requireNumber(field, sizeRatio, 2, Infinity, { exclusiveMax: true });
}

function checkShape(shape: MonkeyShape): void {
  checkPolicy('shape.policy', shape.policy);
  checkSizeRatio('shape.sizeRatio', shape.sizeRatio);
  requireNumber('shape.levels', shape.levels, 1, 10_000, { integer: true });
}

function checkBits(bitsPerEntry: number): number {
  return requireNumber('filterBitsPerEntry', bitsPerEntry, 0, 1000);
}

/** Runs per level: 1 with leveling, T−1 with tiering (the steady-state maximum). */
export function monkeyRunsPerLevel(policy: Policy, sizeRatio: number): number {
  checkPolicy('policy', policy);
  checkSizeRatio('sizeRatio', sizeRatio);
  return policy === 'leveling' ? 1 : sizeRatio - 1;
}

/**
 * The constant in front of e^(−bits·ln²2) in Eq 7/36: T^(T/(T−1))/(T−1) with leveling, T^(T/(T−1))
 * with tiering (4 at T = 2; 1.4351 and 12.9155 at T = 10).
 */
export function monkeyFilteredCostConstant(policy: Policy, sizeRatio: number): number {
  checkPolicy('policy', policy);
  const t = checkSizeRatio('sizeRatio', sizeRatio);
  return Math.pow(t, t / (t - 1)) / (policy === 'leveling' ? t - 1 : 1);
}

/** Mthreshold/N (Eq 8): bits per entry below which Monkey leaves the largest level unfiltered. */
export function memoryThresholdBitsPerEntry(sizeRatio: number): number {
  const t = checkSizeRatio('sizeRatio', sizeRatio);
  return Math.log(t) / ((t - 1) * LN2_SQ);
}

/** Mthreshold (Eq 8) in bits for `entries` entries: N·ln T/((T−1)·ln²2). Same for both policies. */
export function memoryThresholdBits(entries: number, sizeRatio: number): number {
  requireNumber('entries', entries, 0, Infinity, { exclusiveMax: true });
  return entries * memoryThresholdBitsPerEntry(sizeRatio);
}

/** Lunfiltered for zero-result lookups (Eq 8/37): how many of the deepest levels get no filter. */
export function monkeyUnfilteredLevels(shape: MonkeyShape, filterBitsPerEntry: number): number {
  return monkeyGeneralUnfilteredLevels(shape, filterBitsPerEntry, 0);
}

export interface MonkeyZeroResultClosedForm {
  /** R, expected I/O of a zero-result point lookup. */
  cost: number;
  /** Rfiltered: the part from filtered levels. */
  filtered: number;
  /** Runfiltered: Lu (leveling) or Lu·(T−1) (tiering). */
  unfiltered: number;
  /** Lunfiltered, Eq 8. */
  unfilteredLevels: number;
}

/**
 * Monkey's zero-result lookup cost R (Eq 7 with Lu from Eq 8), an infinite-level formula.
 * [FIX] With Lu = L there is no filtered level, so Rfiltered = 0; and R never exceeds the
 * no-filter cost r·L (just above Mthreshold/T^(L−1) the infinite tail would overshoot by ≤ 1/(T−1)).
 */
export function monkeyZeroResultCostClosedForm(shape: MonkeyShape, filterBitsPerEntry: number): MonkeyZeroResultClosedForm {
  checkShape(shape);
  const bits = checkBits(filterBitsPerEntry);
  const { policy, sizeRatio: t, levels: l } = shape;
  const r = policy === 'leveling' ? 1 : t - 1;
  const lu = monkeyUnfilteredLevels(shape, bits);
  const filteredRaw = lu === l ? 0 : monkeyFilteredCostConstant(policy, t) * Math.exp(-bits * LN2_SQ * Math.pow(t, lu));
  const unfiltered = r * lu;
  const cost = Math.min(filteredRaw + unfiltered, r * l);
  return { cost, filtered: cost - unfiltered, unfiltered, unfilteredLevels: lu };
}

/**
 * Bits per entry Monkey needs for zero-result cost R (Eq 34; Eq 35 with `unfilteredLevels` > 0).
 * R − r·Lu must lie in (0, T/(T−1)] (leveling) or (0, T] (tiering), the range of Eq 5/6.
 */
export function monkeyFilterBitsPerEntryForZeroResultCost(
  policy: Policy,
  sizeRatio: number,
  zeroResultCost: number,
  unfilteredLevels = 0,
): number {
  const r = monkeyRunsPerLevel(policy, sizeRatio);
  const t = sizeRatio;
  requireNumber('unfilteredLevels', unfilteredLevels, 0, 10_000, { integer: true });
  const cap = policy === 'leveling' ? t / (t - 1) : t;
  const lo = r * unfilteredLevels;
  requireNumber('zeroResultCost', zeroResultCost, lo, lo + cap, { exclusiveMin: true });
  const rest = zeroResultCost - lo;
  const k = Math.pow(t, t / (t - 1));
  const inner = policy === 'leveling' ? k / (rest * (t - 1)) : k / rest;
  return Math.log(inner) / (LN2_SQ * Math.pow(t, unfilteredLevels));
}

/** Largest R a group of `filtered` leveled/tiered levels can contribute with FPRs ≤ 1 (Eq 30/31 domain). */
function finiteCap(policy: Policy, t: number, filtered: number): number {
  const c = t - Math.pow(t, 1 - filtered);
  return policy === 'leveling' ? c / (t - 1) : c;
}

/**
 * Monkey's per-level FPRs for a target zero-result cost R (index 0 = level 1).
 * `'large-L'`: Eq 5/6; `'finite-L'`: Eq 30–33. Both with the corrected Lu rule of the reference
 * ([FIX]: the paper's floor(R−1) for leveling can push p above 1 when T > 2): the smallest Lu whose
 * filtered levels can still carry the rest of R. Every p is clamped to ≤ 1. R ∈ (0, r·L].
 */
export function monkeyFprsForZeroResultCost(shape: MonkeyShape, zeroResultCost: number, form: 'large-L' | 'finite-L'): number[] {
  checkShape(shape);
  requireOneOf('form', form, ['large-L', 'finite-L'] as const);
  const { policy, sizeRatio: t, levels: l } = shape;
  const r = policy === 'leveling' ? 1 : t - 1;
  const cost = requireNumber('zeroResultCost', zeroResultCost, 0, r * l, { exclusiveMin: true });
  let lu = 0;
  if (form === 'large-L') {
    const cap = policy === 'leveling' ? t / (t - 1) : t;
    lu = Math.min(l, Math.max(0, Math.ceil((cost - cap) / r - LOG_EPS)));
  } else {
    while (lu < l && cost - r * lu > finiteCap(policy, t, l - lu) * (1 + LOG_EPS)) lu += 1;
  }
  const lf = l - lu;
  const rest = cost - r * lu;
  const out: number[] = [];
  for (let i = 1; i <= l; i++) {
    let p = 1;
    if (i <= lf) {
      if (form === 'large-L') {
        p = (policy === 'leveling' ? rest * (t - 1) : rest) / Math.pow(t, lf + 1 - i);
      } else {
        // T^(Lf−1)/(T^Lf − 1) written as 1/(T − T^(1−Lf)) so deep trees do not overflow.
        p = ((policy === 'leveling' ? rest * (t - 1) : rest) * Math.pow(t, i - lf)) / (t - Math.pow(t, 1 - lf));
      }
    }
    out.push(Math.min(1, p));
  }
  return out;
}

/** Filter memory of per-level FPRs (Eq 4) as bits per entry Mfilt/N; index 0 = level 1. */
export function monkeyFilterBitsPerEntryFromFprs(sizeRatio: number, fprs: readonly number[]): number {
  const t = checkSizeRatio('sizeRatio', sizeRatio);
  const l = fprs.length;
  let sum = 0;
  fprs.forEach((p, idx) => {
    requireNumber(`fprs[${idx}]`, p, 0, 1, { exclusiveMin: true });
    sum += Math.log(p) / Math.pow(t, l - (idx + 1));
  });
  return (-((t - 1) / t) * sum) / LN2_SQ;
}

/**
 * Non-zero-result lookup cost from R and the largest level's FPR (Eq 13's non-zero term): 1 + R − p_L
 * with leveling (= Eq 9); 1 + R − p_L·T/2 with tiering, where the target sits on average in the
 * middle of level L's T−1 runs.
 */
export function monkeyNonZeroResultCost(policy: Policy, sizeRatio: number, zeroResultCost: number, lastLevelFpr: number): number {
  checkPolicy('policy', policy);
  const t = checkSizeRatio('sizeRatio', sizeRatio);
  requireNumber('zeroResultCost', zeroResultCost, 0, Infinity, { exclusiveMax: true });
  requireFraction('lastLevelFpr', lastLevelFpr);
  return 1 + zeroResultCost - lastLevelFpr * (policy === 'leveling' ? 1 : t / 2);
}

/** Weighted point-lookup cost Z (Eq 13) = (1−f)·R + f·V, with V from `monkeyNonZeroResultCost`. */
export function monkeyMixedPointLookupCost(
  policy: Policy,
  sizeRatio: number,
  zeroResultCost: number,
  lastLevelFpr: number,
  nonZeroFraction: number,
): number {
  const f = requireFraction('nonZeroFraction', nonZeroFraction);
  const v = monkeyNonZeroResultCost(policy, sizeRatio, zeroResultCost, lastLevelFpr);
  return (1 - f) * zeroResultCost + f * v;
}

export interface MonkeyGeneralThresholds {
  /** M^L_threshold/N: below it the largest level loses its filter. +∞ when f = 1 (v = ∞). */
  lastLevel: number;
  /** M^(L−1)_threshold/N = Mthreshold/(N·T): below it level L−1 loses its filter too. */
  secondLastLevel: number;
}

/** Monkey_general's memory thresholds (Eq 18) in bits per entry. */
export function monkeyGeneralThresholdsBitsPerEntry(policy: Policy, sizeRatio: number, nonZeroFraction: number): MonkeyGeneralThresholds {
  checkPolicy('policy', policy);
  const t = checkSizeRatio('sizeRatio', sizeRatio);
  const f = requireFraction('nonZeroFraction', nonZeroFraction);
  const base = Math.log(t) / (t - 1);
  // ln(1 − ...) is −∞ at f = 1 (leveling, or tiering at T = 2): the threshold is then +∞, not NaN.
  const inner = policy === 'leveling' ? 1 - f : 1 - (f * t) / (2 * (t - 1));
  const lastLevel = inner <= 0 ? Infinity : (base - Math.log(inner) / t) / LN2_SQ;
  return { lastLevel, secondLastLevel: base / (t * LN2_SQ) };
}

/** Lunfiltered for Monkey_general (Eq 18, [FIX] case-3 bound M^(L−1)_thr/T^(L−1)), clamped to ≤ L. */
export function monkeyGeneralUnfilteredLevels(shape: MonkeyShape, filterBitsPerEntry: number, nonZeroFraction: number): number {
  checkShape(shape);
  const bits = checkBits(filterBitsPerEntry);
  const th = monkeyGeneralThresholdsBitsPerEntry(shape.policy, shape.sizeRatio, nonZeroFraction);
  return unfilteredLevelsUnchecked(shape.sizeRatio, shape.levels, bits, th);
}

function unfilteredLevelsUnchecked(t: number, l: number, bits: number, th: MonkeyGeneralThresholds): number {
  if (bits >= th.lastLevel) return 0;
  if (bits >= th.secondLastLevel) return Math.min(1, l);
  if (bits <= th.secondLastLevel / Math.pow(t, l - 1)) return l;
  return Math.min(l, 1 + Math.ceil(Math.log(th.secondLastLevel / bits) / Math.log(t) - LOG_EPS));
}

export interface MonkeyPointLookupClosedForm {
  /** Z, expected I/O of a point lookup under the mix (Eq 19/20). */
  cost: number;
  /** Lunfiltered from Eq 18. */
  unfilteredLevels: number;
}

/**
 * Monkey_general's point-lookup cost Z as a function of memory (Eq 18–20); f = 0 gives Eq 7.
 * Same corrections as `monkeyZeroResultCostClosedForm`: no filtered term when Lu = L, and never
 * above the no-filter cost (L with leveling; (T−1)·L − f·(T/2 − 1) with tiering).
 */
export function monkeyPointLookupCostClosedForm(
  shape: MonkeyShape,
  filterBitsPerEntry: number,
  nonZeroFraction: number,
): MonkeyPointLookupClosedForm {
  checkShape(shape);
  const bits = checkBits(filterBitsPerEntry);
  const f = requireFraction('nonZeroFraction', nonZeroFraction);
  const { policy, sizeRatio: t, levels: l } = shape;
  const th = monkeyGeneralThresholdsBitsPerEntry(policy, t, f);
  return {
    cost: monkeyPointLookupCostUnchecked(policy, t, l, bits, f, th),
    unfilteredLevels: unfilteredLevelsUnchecked(t, l, bits, th),
  };
}

/** Eq 18 without validation, for optimizer inner loops. `th` from `monkeyGeneralThresholdsBitsPerEntry`. */
export function monkeyUnfilteredLevelsUnchecked(t: number, l: number, bits: number, th: MonkeyGeneralThresholds): number {
  return unfilteredLevelsUnchecked(t, l, bits, th);
}

/** Eq 19/20 without validation (allocation-free), for optimizer inner loops. */
export function monkeyPointLookupCostUnchecked(
  policy: Policy,
  t: number,
  l: number,
  bits: number,
  f: number,
  th: MonkeyGeneralThresholds,
): number {
  const lu = unfilteredLevelsUnchecked(t, l, bits, th);
  const lev = policy === 'leveling';
  const k = Math.pow(t, t / (t - 1));
  const noFilter = lev ? l : (t - 1) * l - f * (t / 2 - 1);
  let cost: number;
  if (lu === 0) {
    const e = Math.exp(-bits * LN2_SQ);
    const shrink = lev ? Math.pow(1 - f, (t - 1) / t) : Math.pow(1 - (f * t) / (2 * (t - 1)), (t - 1) / t);
    cost = e * (lev ? k / (t - 1) : k) * shrink + f;
  } else {
    const e = lu === l ? 0 : Math.exp(-bits * Math.pow(t, lu) * LN2_SQ);
    cost = lev ? (e * k) / (t - 1) + lu : e * k + (lu - f) * (t - 1) + (t / 2) * f;
  }
  return Math.min(cost, noFilter);
}

/**
 * Monkey_general's per-level FPRs for a target point-lookup cost Z (Eq 14–17), index 0 = level 1,
 * clamped to ≤ 1. With `unfilteredLevels` = 0 and leveling, f must be < 1 (v finite).
 */
export function monkeyGeneralFprsClosedForm(
  shape: MonkeyShape,
  pointLookupCost: number,
  nonZeroFraction: number,
  unfilteredLevels: number,
): number[] {
  checkShape(shape);
  const z = requireNumber('pointLookupCost', pointLookupCost, 0, Infinity, { exclusiveMax: true });
  const f = requireFraction('nonZeroFraction', nonZeroFraction);
  const { policy, sizeRatio: t, levels: l } = shape;
  const lu = requireNumber('unfilteredLevels', unfilteredLevels, 0, l, { integer: true });
  if (policy === 'leveling' && lu === 0 && f === 1) {
    throw new ModelInputError('nonZeroFraction', 'must be < 1 when every level is filtered (v = ∞ never filters level L)');
  }
  const out = new Array<number>(l);
  for (let i = 0; i < l; i++) {
    let p: number;
    if (policy === 'leveling') {
      if (lu === 0) p = i === 0 ? (((z - f) / (1 - f)) * (t - 1)) / t : ((z - f) * (t - 1)) / t / Math.pow(t, i);
      else p = lu <= i ? ((z - lu) / Math.pow(t, i - lu)) * ((t - 1) / t) : 1;
    } else if (lu === 0) {
      p = i === 0 ? (z - f) / t / (1 - (f * t) / (2 * (t - 1))) : (z - f) / t / Math.pow(t, i);
    } else {
      p = lu <= i ? (z - (t / 2) * f - (lu - f) * (t - 1)) / Math.pow(t, 1 + i - lu) : 1;
    }
    out[l - 1 - i] = Math.min(1, p);
  }
  return out;
}

/** The state of the art's zero-result cost (Eq 56): r·L·e^(−bits·ln²2), every filter alike. */
export function uniformZeroResultCost(shape: MonkeyShape, filterBitsPerEntry: number): number {
  checkShape(shape);
  const bits = checkBits(filterBitsPerEntry);
  const r = shape.policy === 'leveling' ? 1 : shape.sizeRatio - 1;
  return r * shape.levels * Math.exp(-bits * LN2_SQ);
}

/**
 * Eq 55 inverted for finite L: the Mfilt = bits·N filter bits spread over the N·(1−T^−L) entries the
 * model's levels hold, so p = e^(−bits·ln²2/(1−T^−L)).
 */
export function uniformZeroResultCostFiniteL(shape: MonkeyShape, filterBitsPerEntry: number): number {
  checkShape(shape);
  const bits = checkBits(filterBitsPerEntry);
  const r = shape.policy === 'leveling' ? 1 : shape.sizeRatio - 1;
  const stored = 1 - Math.pow(shape.sizeRatio, -shape.levels);
  return r * shape.levels * Math.exp((-bits * LN2_SQ) / stored);
}

/** Bits per entry the state of the art needs for zero-result cost R (Eq 55, large L). R ∈ (0, r·L]. */
export function uniformFilterBitsPerEntryForZeroResultCost(shape: MonkeyShape, zeroResultCost: number): number {
  checkShape(shape);
  const r = shape.policy === 'leveling' ? 1 : shape.sizeRatio - 1;
  const cost = requireNumber('zeroResultCost', zeroResultCost, 0, r * shape.levels, { exclusiveMin: true });
  return Math.log((r * shape.levels) / cost) / LN2_SQ;
}

/** The state of the art's point-lookup cost under the mix (Fig 10): Eq 13 with R from Eq 56, p_L = R/(r·L). */
export function uniformPointLookupCost(shape: MonkeyShape, filterBitsPerEntry: number, nonZeroFraction: number): number {
  const cost = uniformZeroResultCost(shape, filterBitsPerEntry);
  const r = shape.policy === 'leveling' ? 1 : shape.sizeRatio - 1;
  return monkeyMixedPointLookupCost(shape.policy, shape.sizeRatio, cost, cost / (r * shape.levels), nonZeroFraction);
}

/** Monkey_zero's point-lookup cost under the mix (Fig 10): Eq 13 with R from Eq 7 and p_L from Eq 5/6. */
export function monkeyZeroTunedPointLookupCost(shape: MonkeyShape, filterBitsPerEntry: number, nonZeroFraction: number): number {
  const { cost } = monkeyZeroResultCostClosedForm(shape, filterBitsPerEntry);
  const fprs = monkeyFprsForZeroResultCost(shape, cost, 'large-L');
  return monkeyMixedPointLookupCost(shape.policy, shape.sizeRatio, cost, fprs[fprs.length - 1], nonZeroFraction);
}

/**
 * Worst-case amortised update cost W (Eq 10) in I/O per update: (L/B)·(T−1)/2·(1+φ) with leveling,
 * (L/B)·(T−1)/T·(1+φ) with tiering. `levels` may be fractional (Algorithm 1 uses a continuous L).
 */
export function monkeyUpdateCost(policy: Policy, sizeRatio: number, levels: number, entriesPerPage: number, writeReadCostRatio: number): number {
  checkPolicy('policy', policy);
  const t = checkSizeRatio('sizeRatio', sizeRatio);
  requireNumber('levels', levels, 0, Infinity, { exclusiveMax: true });
  requireNumber('entriesPerPage', entriesPerPage, 1, Infinity, { exclusiveMax: true });
  requireNumber('writeReadCostRatio', writeReadCostRatio, 0, Infinity, { exclusiveMax: true });
  return monkeyUpdateCostUnchecked(policy, t, levels, entriesPerPage, writeReadCostRatio);
}

export function monkeyUpdateCostUnchecked(policy: Policy, t: number, levels: number, b: number, phi: number): number {
  return (levels / b) * (policy === 'leveling' ? (t - 1) / 2 : (t - 1) / t) * (1 + phi);
}

/**
 * Eq 10 with every write counted: data pages written per update, as an engine counts them. Eq 10
 * counts, per level, the merges an entry takes part in after it arrived — (T−1)/2 with leveling,
 * (T−1)/T with tiering (App H) — a convention (reference P12) that leaves out the write that puts
 * the entry into the level. Counting it: leveling, the j-th of T arrivals rewrites the resident
 * j−1 and itself, Σ_{j=1..T} j / T = (T+1)/2 per level; tiering writes each entry once per level.
 * Writes only (no φ).
 */
export function monkeyPagesWrittenPerUpdate(policy: Policy, sizeRatio: number, levels: number, entriesPerPage: number): number {
  checkPolicy('policy', policy);
  const t = checkSizeRatio('sizeRatio', sizeRatio);
  requireNumber('levels', levels, 0, Infinity, { exclusiveMax: true });
  requireNumber('entriesPerPage', entriesPerPage, 1, Infinity, { exclusiveMax: true });
  return (levels / entriesPerPage) * (policy === 'leveling' ? (t + 1) / 2 : 1);
}

/** Worst-case range-lookup cost Q (Eq 11): s·N/B pages scanned plus one seek per run (L or L·(T−1)). */
export function monkeyRangeLookupCost(
  policy: Policy,
  sizeRatio: number,
  levels: number,
  entries: number,
  entriesPerPage: number,
  rangeSelectivity: number,
): number {
  checkPolicy('policy', policy);
  const t = checkSizeRatio('sizeRatio', sizeRatio);
  requireNumber('levels', levels, 0, Infinity, { exclusiveMax: true });
  requireNumber('entries', entries, 0, Infinity, { exclusiveMax: true });
  requireNumber('entriesPerPage', entriesPerPage, 1, Infinity, { exclusiveMax: true });
  const s = requireFraction('rangeSelectivity', rangeSelectivity);
  return monkeyRangeLookupCostUnchecked(policy, t, levels, entries, entriesPerPage, s);
}

export function monkeyRangeLookupCostUnchecked(policy: Policy, t: number, levels: number, n: number, b: number, s: number): number {
  return (s * n) / b + levels * (policy === 'leveling' ? 1 : t - 1);
}

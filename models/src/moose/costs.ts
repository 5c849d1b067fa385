/** Moose's cost model: the per-operation formulas (Eq.2–4, 11, 15, 16) and `mooseCosts` for a layout. */
import { LN2_SQ, fprFromBitsPerKey } from '../bloom';
import type { Dataset, Workload } from '../types';
import { finite, requireNumber, requireOneOf } from '../validate';
import { geometry, ratiosOf, type Geometry } from './capacities';
import {
  FPR,
  MAX_BITS_PER_ENTRY,
  POSITIVE,
  checkEnv,
  checkVectors,
  checkWorkload,
  type CheckedWorkload,
  type Env,
} from './checks';
import type { MooseCostBreakdown, MooseCosts, MooseLevel, MooseLevelDetail, MooseOptions } from './types';

// ---------------------------------------------------------------------------------------------
// Cost formulas (exported individually so curves and tests can use real-valued run counts)

/** Short range lookup, Σ n_i seeks [paper Eq.3]; `runs` > 0 (real values allowed). */
export function mooseShortRangeCost(runs: readonly number[]): number {
  checkVectors({ runs }, { runs: POSITIVE });
  return runs.reduce((a, n) => a + n, 0);
}

export function updatePaper(r: readonly number[], n: readonly number[], B: number): number {
  let u = 0;
  for (let i = 0; i < r.length; i++) u += r[i] / n[i];
  return u / B;
}

export function updateRefined(r: readonly number[], n: readonly number[], B: number): number {
  let u = 0;
  for (let i = 0; i < r.length; i++) u += (r[i] / n[i] + 1) / 2;
  return u / B;
}

/**
 * Update cost exactly as paper Eq.2: (1/B) Σ r_i / n_i, page I/Os per update. Ratios and runs
 * > 0 (real values allowed for the continuous analysis), B = entries per page ≥ 1.
 */
export function mooseUpdateCostPaper(
  sizeRatios: readonly number[],
  runs: readonly number[],
  entriesPerPage: number,
): number {
  return checkedUpdate(updatePaper, sizeRatios, runs, entriesPerPage);
}

/**
 * [extension] Refined update cost: an entry is rewritten (s_i + 1)/2 times on average at a level
 * with run magnification s_i = r_i/n_i, so (1/B) Σ (s_i + 1)/2 page writes per update
 * (double it to also count compaction reads). Same inputs as `mooseUpdateCostPaper`.
 */
export function mooseUpdateCostRefined(
  sizeRatios: readonly number[],
  runs: readonly number[],
  entriesPerPage: number,
): number {
  return checkedUpdate(updateRefined, sizeRatios, runs, entriesPerPage);
}

/** The public update costs' shared validation (ratios and runs > 0, B ≥ 1) before their kernel. */
function checkedUpdate(
  kernel: (r: readonly number[], n: readonly number[], B: number) => number,
  sizeRatios: readonly number[],
  runs: readonly number[],
  entriesPerPage: number,
): number {
  checkVectors({ sizeRatios, runs }, { sizeRatios: POSITIVE, runs: POSITIVE });
  return kernel(sizeRatios, runs, requireNumber('entriesPerPage', entriesPerPage, 1, Infinity));
}

export function zeroResult(n: readonly number[], p: readonly number[]): number {
  let z = 0;
  for (let i = 0; i < n.length; i++) z += n[i] * p[i];
  return z;
}

function nonZeroResult(n: readonly number[], p: readonly number[], share: number): number {
  const L = n.length;
  let z = 1;
  for (let i = 0; i < L - 1; i++) z += n[i] * p[i];
  return z + share * (n[L - 1] - 1) * p[L - 1];
}

/** Zero-result point lookup, Σ n_i p_i [paper Eq.4]; runs > 0, FPRs in [0, 1]. */
export function mooseZeroResultPointCost(runs: readonly number[], fprs: readonly number[]): number {
  checkVectors({ runs, fprs }, { runs: POSITIVE, fprs: FPR });
  return zeroResult(runs, fprs);
}

/**
 * [extension] Non-zero-result point lookup with the target in the last level:
 * 1 + Σ_{i<L} n_i p_i + f·(n_L − 1)·p_L, f = 1/2 ('average') or 1 ('worst'). Runs ≥ 1, FPRs in [0, 1].
 */
export function mooseNonZeroResultPointCost(
  runs: readonly number[],
  fprs: readonly number[],
  which: 'average' | 'worst' = 'average',
): number {
  checkVectors({ runs, fprs }, { runs: [1, Infinity, false], fprs: FPR });
  const share = requireOneOf('which', which, ['average', 'worst'] as const) === 'worst' ? 1 : 0.5;
  return nonZeroResult(runs, fprs, share);
}

/**
 * Worst-case space amplification, Eq.15 in its long form
 * Σ_i (Σ_{j≥i} n_j)(N_i/n_i − N_{i−1}/n_{i−1}) / (N_L/n_L), which telescopes to n_L·ΣN_i/N_L.
 * `capacities` (> 0, any unit) and `runs` (> 0); the worst case assumes non-decreasing run sizes.
 */
export function mooseSpaceAmplification(capacities: readonly number[], runs: readonly number[]): number {
  const L = checkVectors({ capacities, runs }, { capacities: POSITIVE, runs: POSITIVE });
  let num = 0;
  let prevRun = 0;
  for (let i = 0; i < L; i++) {
    let copies = 0;
    for (let j = i; j < L; j++) copies += runs[j];
    const run = capacities[i] / runs[i];
    num += copies * (run - prevRun);
    prevRun = run;
  }
  return num / (capacities[L - 1] / runs[L - 1]);
}

/**
 * Eq.16 for Moose: the printed bound k·N/√(N_L(N−N_L)) (derived with an inequality in the wrong
 * direction, so it is really a lower bound) and a valid upper bound √2 times that (reference §2.7).
 * `lastLevelFraction` = N_L/N in (0, 1).
 */
export function mooseSpaceAmplificationBound(k: number, lastLevelFraction: number): { printed: number; valid: number } {
  requireNumber('k', k, 0, Infinity, { exclusiveMin: true });
  const f = requireNumber('lastLevelFraction', lastLevelFraction, 0, 1, { exclusiveMin: true, exclusiveMax: true });
  const printed = k / Math.sqrt(f * (1 - f));
  return { printed, valid: Math.SQRT2 * printed };
}

/** Lemma 3.2: Moose's point cost is within 2^{(N_L/N)/2} of the best for the same N_L and k. */
export function mooseLemma32Factor(lastLevelFraction: number): number {
  const f = requireNumber('lastLevelFraction', lastLevelFraction, 0, 1);
  return Math.pow(2, f / 2);
}

/**
 * Eq.11: zero-result point cost with n_i = k·√r_i and the optimal split, in closed form,
 * N·k·Π(N_i N_{i−1})^{−N_i/(2N)}·exp(−(M/N) ln²2). Exact while no level's FPR is clamped.
 * `capacities` and `bufferEntries` in entries, `memoryBits` in bits.
 */
export function mooseEq11PointCost(
  capacities: readonly number[],
  bufferEntries: number,
  k: number,
  memoryBits: number,
): number {
  requireNumber('k', k, 0, Infinity, { exclusiveMin: true });
  requireNumber('memoryBits', memoryBits, 0, Infinity);
  requireNumber('bufferEntries', bufferEntries, 0, Infinity, { exclusiveMin: true });
  ratiosOf(capacities, bufferEntries); // validates
  const N = capacities.reduce((a, c) => a + c, 0);
  let lnProd = 0;
  let prev = bufferEntries;
  for (const c of capacities) {
    lnProd += (-c / (2 * N)) * Math.log(c * prev);
    prev = c;
  }
  return finite('Eq.11 point cost', N * k * Math.exp(lnProd - (memoryBits / N) * LN2_SQ));
}

// ---------------------------------------------------------------------------------------------
// mooseCosts

export function breakdown(
  env: Env,
  g: Geometry,
  fprs: readonly number[],
  w: CheckedWorkload,
): MooseCostBreakdown {
  const B = env.entriesPerPage;
  const L = g.runs.length;
  const zeroResultPoint = zeroResult(g.runs, fprs);
  const nonZeroResultPoint = nonZeroResult(g.runs, fprs, 0.5);
  const nonZeroResultPointWorst = nonZeroResult(g.runs, fprs, 1);
  const shortRange = g.runs.reduce((a, n) => a + n, 0);
  const range = shortRange + (w.sigma * env.entries) / B;
  const uPaper = updatePaper(g.ratio, g.runs, B);
  const uRefined = updateRefined(g.ratio, g.runs, B);
  const update = env.updateModel === 'paper' ? uPaper : uRefined;
  const spaceAmplification = (g.runs[L - 1] * env.entries) / g.entries[L - 1];
  const point = (1 - w.v) * zeroResultPoint + w.v * nonZeroResultPoint;
  const weighted = w.z * point + w.q * range + w.w * update;
  return {
    zeroResultPoint,
    nonZeroResultPoint,
    nonZeroResultPointWorst,
    shortRange,
    range,
    updatePaper: uPaper,
    updateRefined: uRefined,
    update,
    spaceAmplification,
    weighted: finite('weighted cost', weighted),
  };
}

/**
 * Costs of a layout for a workload, in page I/Os per operation: zero-result point (Eq.4),
 * non-zero-result point [extension], range (Eq.3 + σN/B), update (Eq.2, or the refined form when
 * `options.updateModel` is 'refined'; both are always reported), space amplification (Eq.15) and
 * the workload-weighted cost per operation. `levels[i].bitsPerEntry` is used as given (fill it
 * with `mooseOptimalBitsPerEntry` for the optimal split).
 */
export function mooseCosts(
  dataset: Dataset,
  levels: readonly MooseLevel[],
  workload: Workload,
  options: MooseOptions = {},
): MooseCosts {
  const env = checkEnv(dataset, options);
  const g = geometry(env, levels);
  const w = checkWorkload(workload);
  const bits = levels.map((lv, i) => requireNumber(`levels[${i}].bitsPerEntry`, lv.bitsPerEntry, 0, MAX_BITS_PER_ENTRY));
  const fprs = bits.map((b) => fprFromBitsPerKey(b));
  const details: MooseLevelDetail[] = g.entries.map((entries, i) => ({
    capacityEntries: g.capacity[i],
    entries,
    sizeRatio: g.ratio[i],
    runs: g.runs[i],
    runCapacityEntries: entries / g.runs[i],
    runMagnification: g.ratio[i] / g.runs[i],
    bitsPerEntry: bits[i],
    fpr: fprs[i],
    filterBits: bits[i] * entries,
  }));
  return {
    ...breakdown(env, g, fprs, w),
    levels: details,
    bufferEntries: env.bufferEntries,
    entriesPerPage: env.entriesPerPage,
    filterBits: details.reduce((a, d) => a + d.filterBits, 0),
    updateModel: env.updateModel,
  };
}

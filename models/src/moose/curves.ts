/** Moose trade-off curves (reference §5.1): the RU-curve, Eq.8's bound, design curves and the N_L sweep. */
import type { Dataset, Workload } from '../types';
import { requireNumber } from '../validate';
import { geometry, ratiosOf } from './capacities';
import {
  MAX_LEVELS,
  MAX_RATIO,
  checkEnv,
  checkMemoryBits,
  checkWorkload,
  floorRatio,
  type CheckedWorkload,
  type Env,
} from './checks';
import { breakdown } from './costs';
import { optimalFprs } from './filters';
import { mooseRunVectors } from './runs';
import { buffersOf, mooseFixedRatioCapacities, mooseStructure } from './structure';
import type { MooseCostBreakdown, MooseOptions } from './types';

// ---------------------------------------------------------------------------------------------
// Trade-off curves (reference §5.1)

/** One point of a trade-off curve: a layout and its per-operation costs (page I/Os). */
export interface MooseCurvePoint {
  /** T for fixed-ratio designs, k for Moose. */
  parameter: number;
  sizeRatios: number[];
  runs: number[];
  zeroResultPoint: number;
  nonZeroResultPoint: number;
  shortRange: number;
  updatePaper: number;
  updateRefined: number;
  spaceAmplification: number;
}

/** Curves per design (see `mooseTradeoffCurves`). */
export interface MooseTradeoffCurves {
  leveling: MooseCurvePoint[];
  tiering: MooseCurvePoint[];
  lazyLeveling: MooseCurvePoint[];
  moose: MooseCurvePoint[];
}

/** One N_L of `mooseLastLevelSweep`: the structure and its costs. */
export interface MooseLastLevelPoint extends MooseCostBreakdown {
  lastLevelFraction: number;
  lastLevelEntries: number;
  sizeRatios: number[];
  runs: number[];
  sumSqrtRatios: number;
}

const NEUTRAL: CheckedWorkload = { z: 1, v: 0, q: 0, w: 0, sigma: 0 };

function curvePoint(
  env: Env,
  parameter: number,
  sizeRatios: readonly number[],
  runs: readonly number[],
  memoryBits: number,
): MooseCurvePoint {
  const g = geometry(env, sizeRatios.map((r, i) => ({ sizeRatio: r, runs: runs[i] })));
  const c = breakdown(env, g, optimalFprs(g.entries, g.runs, memoryBits), NEUTRAL);
  return {
    parameter,
    sizeRatios: g.ratio,
    runs: g.runs,
    zeroResultPoint: c.zeroResultPoint,
    nonZeroResultPoint: c.nonZeroResultPoint,
    shortRange: c.shortRange,
    updatePaper: c.updatePaper,
    updateRefined: c.updateRefined,
    spaceAmplification: c.spaceAmplification,
  };
}

/**
 * The RU-curve of fixed ratios (reference §5.1.1, Fig.10A): every distinct integer run vector
 * n_i = round(k√r_i) in increasing k, with range, update, R·U and (given `memoryBytes`) the
 * zero-result point cost; plus A = Σ√r_i, so the continuous curve is R = kA, U = A/(kB) and
 * R·U ≥ A²/B (Eq.7). `levels` are sizes only (runs are ignored); the last holds the remainder.
 */
export function mooseRuCurve(
  dataset: Dataset,
  sizeRatios: readonly number[],
  memoryBytes = 0,
  options: MooseOptions = {},
): {
  sumSqrtRatios: number;
  entriesPerPage: number;
  productBound: number;
  points: (MooseCurvePoint & { k: number; product: number })[];
} {
  const env = checkEnv(dataset, options);
  const g = geometry(env, sizeRatios.map((r) => ({ sizeRatio: r, runs: 1 })));
  const bits = checkMemoryBits('memoryBytes', memoryBytes, env.entries);
  const A = g.ratio.reduce((a, r) => a + Math.sqrt(r), 0);
  const points = mooseRunVectors(g.ratio).map(({ k, runs }) => {
    const p = curvePoint(env, k, sizeRatios, runs, bits);
    return { ...p, k, product: p.shortRange * p.updatePaper };
  });
  return { sumSqrtRatios: A, entriesPerPage: env.entriesPerPage, productBound: (A * A) / env.entriesPerPage, points };
}

/**
 * Eq.8: the least R·U with L equal ratios spanning X = N_L/F, L²·X^{1/L}/B, and its minimum over
 * real L (L* = ln X / 2, ratio e²): e²·ln²X/(4B).
 */
export function mooseEqualRatioRuBound(
  lastOverBuffer: number,
  levels: number,
  entriesPerPage: number,
): { product: number; bestLevels: number; bestProduct: number } {
  const X = requireNumber('lastOverBuffer', lastOverBuffer, 1, Infinity, { exclusiveMin: true });
  const L = requireNumber('levels', levels, 1, MAX_LEVELS, { integer: true });
  const B = requireNumber('entriesPerPage', entriesPerPage, 1, Infinity);
  const lnX = Math.log(X);
  return {
    product: (L * L * Math.pow(X, 1 / L)) / B,
    bestLevels: lnX / 2,
    bestProduct: (Math.E * Math.E * lnX * lnX) / (4 * B),
  };
}

/**
 * Trade-off curves for the explorer (reference §5.1): leveling, tiering and lazy leveling over a
 * sweep of T, and Moose over every k breakpoint of its default structure, each point with its
 * point/range/update/space costs under `memoryBytes` of optimally split filter memory. Plot
 * (updatePaper, zeroResultPoint) for the point–update curve, (updatePaper, shortRange) for
 * range–update. Needs N ≥ 2F.
 */
export function mooseTradeoffCurves(
  dataset: Dataset,
  params: { memoryBytes: number; sizeRatios?: number[]; lastLevelFraction?: number },
  options: MooseOptions = {},
): MooseTradeoffCurves {
  const env = checkEnv(dataset, options);
  const x = buffersOf(env, 2);
  const bits = checkMemoryBits('params.memoryBytes', params.memoryBytes, env.entries);
  const defaults = [2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 32, 64].filter((T) => T <= Math.max(2, x));
  const Ts = (params.sizeRatios ?? defaults).map((T, i) => requireNumber(`params.sizeRatios[${i}]`, T, 2, MAX_RATIO));
  const out: MooseTradeoffCurves = { leveling: [], tiering: [], lazyLeveling: [], moose: [] };
  for (const T of Ts) {
    const r = ratiosOf(mooseFixedRatioCapacities(x, T), 1);
    const tier = r.map((ri) => Math.min(Math.round(T), floorRatio(ri)));
    out.leveling.push(curvePoint(env, T, r, r.map(() => 1), bits));
    out.tiering.push(curvePoint(env, T, r, tier, bits));
    out.lazyLeveling.push(curvePoint(env, T, r, tier.map((n, i) => (i === r.length - 1 ? 1 : n)), bits));
  }
  const s = mooseStructure(dataset, { lastLevelFraction: params.lastLevelFraction }, options);
  for (const { k, runs } of mooseRunVectors(s.sizeRatios)) out.moose.push(curvePoint(env, k, s.sizeRatios, runs, bits));
  return out;
}

/**
 * Moose's cost as N_L varies at fixed k (reference §5.1.3, Fig.10B, vectors E6): for each
 * fraction f in [0.5, 1], the DP structure for N_L = F·round(f·N/F), its runs, Σ√r, the
 * per-operation costs and the workload-weighted cost.
 */
export function mooseLastLevelSweep(
  dataset: Dataset,
  workload: Workload,
  memoryBytes: number,
  params: { fractions: number[]; k?: number },
  options: MooseOptions = {},
): MooseLastLevelPoint[] {
  const env = checkEnv(dataset, options);
  const w = checkWorkload(workload);
  const bits = checkMemoryBits('memoryBytes', memoryBytes, env.entries);
  return params.fractions.map((f) => {
    const s = mooseStructure(dataset, { lastLevelFraction: f, k: params.k }, options);
    const g = geometry(env, s.sizeRatios.map((r, i) => ({ sizeRatio: r, runs: s.runs[i] })));
    return {
      ...breakdown(env, g, optimalFprs(g.entries, g.runs, bits), w),
      lastLevelFraction: f,
      lastLevelEntries: s.lastLevelEntries,
      sizeRatios: s.sizeRatios,
      runs: g.runs,
      sumSqrtRatios: s.sumSqrtRatios,
    };
  });
}

/** Smoose: the workload-optimal Moose structure (reference §4), and its continuous relaxation (§4.5). */
import type { Dataset, Workload } from '../types';
import { ModelInputError, requireNumber, requireOneOf } from '../validate';
import { ratiosOf } from './capacities';
import { EPS, checkEnv, checkMemoryBits, checkWorkload, floorRatio } from './checks';
import { mooseCosts, zeroResult } from './costs';
import { AllLastLevelsDp, branchAndBound, smooseWorkloadLevelCost, type MooseDpLevelCost } from './dp';
import { optimalFprs } from './filters';
import { runsFor } from './runs';
import {
  EXHAUSTIVE_NODES,
  FINAL_NODES,
  SCAN_NODES,
  better,
  cachedSqrtDp,
  coarseLastGrid,
  evalSumSqrt,
  evalWorkloadAware,
  logGrid,
  pickBetter,
  refineLast,
  scanLast,
  score,
  sqrtCostFor,
  type Candidate,
  type DpAt,
  type Scorer,
  type SmooseBaseline,
} from './smoose-search';

export type { SmooseBaseline };
import { buffersOf, layoutOf, mooseFixedRatioCapacities, structureFromBuffers } from './structure';
import {
  MOOSE_DEFAULT_K,
  MOOSE_DEFAULT_LAST_LEVEL_FRACTION,
  type MooseCosts,
  type MooseLevel,
  type MooseOptions,
} from './types';

// ---------------------------------------------------------------------------------------------
// Smoose (reference §4)

export type SmooseVariant = 'sum-sqrt' | 'workload-aware' | 'fixed-ratio';

export interface SmooseOptions extends MooseOptions {
  /**
   * 'sum-sqrt': DP minimising Σ√r (§4.3), every k breakpoint; 'workload-aware': DP with the
   * per-level cost s·n + u·U_1 for each k of `kGrid` (§4.6); 'best' (default): both, the lower
   * weighted cost wins.
   */
  variant?: 'sum-sqrt' | 'workload-aware' | 'best';
  /**
   * Also score default Moose and the fixed-ratio presets (leveling, tiering, lazy leveling for
   * T = 2..64 and larger powers up to N/F) and return one of them if it is cheaper: n_i = round(k√r_i)
   * cannot express e.g. lazy leveling, nor the geometric trees' fractional ratios. Default true;
   * false gives the paper's search alone.
   */
  baselines?: boolean;
  /**
   * 'exhaustive': every N_L = F·m, m from ceil(N/2F) to floor(N/F − 2) (the paper's scan);
   * 'coarse-to-fine': log-spaced in N − N_L, then refined around the best few; 'auto' (default):
   * exhaustive when that is at most 200 values.
   */
  search?: 'auto' | 'exhaustive' | 'coarse-to-fine';
  /**
   * k values of the workload-aware variant. Default: 41 log-spaced in [0.1, 10] for the exhaustive
   * scan (the reference's grid); 7 log-spaced in [0.1, 10], refined around the best, otherwise.
   */
  kGrid?: number[];
}

export interface SmooseResult {
  /** The chosen layout with its optimal filter split. */
  levels: MooseLevel[];
  costs: MooseCosts;
  /** Σ√r DP, workload-aware DP, or a fixed-ratio baseline that beat both. */
  variant: SmooseVariant;
  /** Set when `variant` is 'fixed-ratio'. */
  baseline?: SmooseBaseline;
  /** N_L (entries) and N_L/N. */
  lastLevelEntries: number;
  lastLevelFraction: number;
  /** The run regulator k that produced the runs (null for a fixed-ratio baseline). */
  k: number | null;
  capacities: number[];
  /** Workload-weighted cost of the choice (= costs.weighted). */
  objective: number;
  /** (N_L, k) structures scored. */
  evaluated: number;
  /** True if every DP behind the chosen structure finished within its node budget. */
  exact: boolean;
}

function smooseSumSqrt(sc: Scorer, x: number, lo: number, hi: number, exhaustive: boolean): Candidate {
  if (exhaustive && x <= 4096) {
    const all = new AllLastLevelsDp(x, x - lo, sqrtCostFor(x));
    return scanLast(x, lo, hi, true, (m) => evalSumSqrt(sc, m, (mm) => all.solve(mm)));
  }
  const budget = exhaustive ? EXHAUSTIVE_NODES : SCAN_NODES;
  const c = scanLast(x, lo, hi, exhaustive, (m) => evalSumSqrt(sc, m, (mm) => cachedSqrtDp(x, mm, budget)));
  if (c.exact) return c;
  return pickBetter(c, evalSumSqrt(sc, c.m, (mm) => cachedSqrtDp(x, mm, FINAL_NODES)));
}

function smooseWorkloadAware(
  sc: Scorer,
  x: number,
  lo: number,
  hi: number,
  exhaustive: boolean,
  kGrid: number[] | undefined,
): Candidate {
  const { env, w } = sc;
  const costs = new Map<number, MooseDpLevelCost>();
  const costFor = (k: number): MooseDpLevelCost => {
    let c = costs.get(k);
    if (!c) {
      c = smooseWorkloadLevelCost(w.q, w.w, env.entriesPerPage, k, 2 * x, env.updateModel);
      costs.set(k, c);
    }
    return c;
  };
  if (exhaustive) {
    const ks = kGrid ?? logGrid(0.1, 10, 41);
    const forward = x <= 4096;
    const dps: DpAt[] = ks.map((k) => {
      if (!forward) return (m) => branchAndBound(x, m, costFor(k), EXHAUSTIVE_NODES);
      const all = new AllLastLevelsDp(x, x - lo, costFor(k));
      return (m) => all.solve(m);
    });
    return scanLast(x, lo, hi, true, (m) => {
      let b: Candidate | null = null;
      ks.forEach((k, i) => (b = better(b, evalWorkloadAware(sc, m, k, dps[i]))));
      return b as unknown as Candidate;
    });
  }
  // Coarse (N_L, k) grid, then for the best few: k refined between grid neighbours, N_L by pattern search.
  const ks = kGrid ?? logGrid(0.1, 10, 7);
  const seen = new Map<string, Candidate>();
  const at = (m: number, k: number): Candidate => {
    const key = `${m}|${k}`;
    let c = seen.get(key);
    if (!c) {
      c = evalWorkloadAware(sc, m, k, (mm) => branchAndBound(x, mm, costFor(k), SCAN_NODES));
      seen.set(key, c);
    }
    return c;
  };
  let best: Candidate | null = null;
  const coarse: Candidate[] = [];
  for (const m of coarseLastGrid(x, lo, hi, 10)) for (const k of ks) coarse.push(at(m, k));
  coarse.sort((a, b) => a.J - b.J);
  for (const c0 of coarse.slice(0, 2)) {
    let c = c0;
    if (!kGrid && ks.length > 1) {
      const step = Math.pow(ks[ks.length - 1] / ks[0], 1 / (ks.length - 1));
      for (const f of [Math.pow(step, -0.5), Math.pow(step, -0.25), Math.pow(step, 0.25), Math.pow(step, 0.5)]) {
        const t = at(c0.m, c0.k * f);
        if (t.J < c.J) c = t;
      }
    }
    const k = c.k;
    c = refineLast(lo, hi, c.m, Math.max(1, Math.floor((x - c.m) / 4)), (m) => at(m, k));
    best = better(best, c);
  }
  const b = best as unknown as Candidate;
  if (b.exact) return b;
  return pickBetter(b, evalWorkloadAware(sc, b.m, b.k, (mm) => branchAndBound(x, mm, costFor(b.k), FINAL_NODES)));
}

/**
 * Smoose: the Moose structure (N_L ∈ [N/2, N − 2F] in steps of F, k) with the least
 * workload-weighted cost (Eq.17 extended by the workload's non-zero-result share and long-range
 * scan; with updateModel 'paper' and nonZeroFraction 0 it is exactly Eq.17). `memoryBytes` is the
 * filter budget (bytes, ≥ 0), split optimally over the levels of every candidate. Needs N ≥ 2F.
 *
 * Search: for N/F up to ~400 every N_L (with a DP shared by all N_L, exact); above, a coarse grid
 * log-spaced in N − N_L refined around the best points, with the per-N_L DP capped at a node
 * budget (`exact` reports whether the final structure's DP finished). Tens of milliseconds at
 * N/F = 1e5.
 */
export function smoose(
  dataset: Dataset,
  workload: Workload,
  memoryBytes: number,
  options: SmooseOptions = {},
): SmooseResult {
  const env = checkEnv(dataset, options);
  const w = checkWorkload(workload);
  const memoryBits = checkMemoryBits('memoryBytes', memoryBytes, env.entries);
  const variants = ['best', 'sum-sqrt', 'workload-aware'] as const;
  const variant = requireOneOf('options.variant', options.variant ?? 'best', variants);
  const search = requireOneOf('options.search', options.search ?? 'auto', ['auto', 'exhaustive', 'coarse-to-fine'] as const);
  const kGrid = options.kGrid?.map((k, i) => requireNumber(`options.kGrid[${i}]`, k, 0, 1e6, { exclusiveMin: true }));
  if (kGrid !== undefined && kGrid.length === 0) throw new ModelInputError('options.kGrid', 'must list at least one k');
  const x = buffersOf(env, 2);
  let lo = Math.ceil(x / 2 - EPS);
  let hi = Math.floor(x - 2 + EPS);
  if (lo > hi) lo = hi = x; // too small for two levels: one level holding everything
  const exhaustive = search === 'exhaustive' || hi - lo < 2 || (search === 'auto' && hi - lo + 1 <= 200);
  const sc: Scorer = { env, w, memoryBits, count: 0 };
  const found: { c: Candidate; v: SmooseVariant }[] = [];
  if (variant === 'best' && (options.baselines ?? true)) {
    for (const c of smooseBaselines(sc, x, lo, hi)) found.push({ c, v: c.baseline ? 'fixed-ratio' : 'sum-sqrt' });
  }
  if (variant !== 'workload-aware') found.push({ c: smooseSumSqrt(sc, x, lo, hi, exhaustive), v: 'sum-sqrt' });
  // The workload-aware DP is degenerate without ranges and updates (every structure costs 0).
  if (variant === 'workload-aware' || (variant === 'best' && w.q + w.w > 0)) {
    found.push({ c: smooseWorkloadAware(sc, x, lo, hi, exhaustive, kGrid), v: 'workload-aware' });
  }
  // the paper's variants first, so that they win ties against the baselines
  found.sort((a, b) => a.c.J - b.c.J || Number(a.v === 'fixed-ratio') - Number(b.v === 'fixed-ratio'));
  const { c, v } = found[0];
  const s = structureFromBuffers(env, c.caps, c.k, c.exact);
  const levels = layoutOf(env, s.sizeRatios, c.runs, memoryBits / env.entries);
  const costs = mooseCosts(dataset, levels, workload, options);
  return {
    levels,
    costs,
    variant: v,
    lastLevelEntries: s.lastLevelEntries,
    lastLevelFraction: s.lastLevelEntries / env.entries,
    k: c.baseline ? null : c.k,
    ...(c.baseline ? { baseline: c.baseline } : {}),
    capacities: s.capacities,
    objective: costs.weighted,
    evaluated: sc.count,
    exact: c.exact,
  };
}

/** Default Moose (N_L = 0.8N, k = 1) and the fixed-ratio presets over a sweep of T, scored like Smoose's candidates. */
function smooseBaselines(sc: Scorer, x: number, lo: number, hi: number): Candidate[] {
  const out: Candidate[] = [];
  const m = Math.min(hi, Math.max(lo, Math.round(MOOSE_DEFAULT_LAST_LEVEL_FRACTION * x)));
  const dp = cachedSqrtDp(x, m, FINAL_NODES);
  const mr = ratiosOf(dp.capacities, 1);
  const mRuns = mr.map((r) => runsFor(r, MOOSE_DEFAULT_K));
  const J = score(sc, dp.capacities, mr, mRuns);
  out.push({ J, m, k: MOOSE_DEFAULT_K, caps: dp.capacities, runs: mRuns, exact: dp.exact });
  const Ts: number[] = [];
  for (let T = 2; T <= Math.min(64, x); T++) Ts.push(T);
  for (let T = 128; T <= x; T *= 2) Ts.push(T);
  for (const T of Ts) {
    const caps = mooseFixedRatioCapacities(x, T);
    const ratios = ratiosOf(caps, 1);
    const L = ratios.length;
    const tier = ratios.map((r) => Math.min(T, floorRatio(r)));
    const designs: [SmooseBaseline['design'], number[]][] = [
      ['leveling', ratios.map(() => 1)],
      ['tiering', tier],
      ['lazyLeveling', tier.map((n, i) => (i === L - 1 ? 1 : n))],
    ];
    for (const [design, runs] of designs) {
      const J = score(sc, caps, ratios, runs);
      out.push({ J, m: caps[L - 1], k: -1, caps, runs, exact: true, baseline: { design, sizeRatio: T } });
    }
  }
  return out;
}

/**
 * [reference §4.5] Continuous Smoose: ignore integrality and filter clamping, so R = kA,
 * U = A/(kB), Z = k·Z1 (Z1 = optimal Σ n_i p_i with n_i = √r_i); then k* = √(uA/(B(sA + zZ1)))
 * clamped to [1/√r_min, √r_min], 𝓛* = k*(sA + zZ1) + uA/(k*B). Uses zero-result points and short
 * ranges (the paper's Eq.17). Scans N_L like `smoose`.
 */
export function smooseContinuous(
  dataset: Dataset,
  workload: Workload,
  memoryBytes: number,
  options: SmooseOptions = {},
): { lastLevelEntries: number; k: number; objective: number; sizeRatios: number[]; sumSqrtRatios: number; z1: number } {
  const env = checkEnv(dataset, options);
  const w = checkWorkload(workload);
  const memoryBits = checkMemoryBits('memoryBytes', memoryBytes, env.entries);
  const x = buffersOf(env, 2);
  let lo = Math.ceil(x / 2 - EPS);
  let hi = Math.floor(x - 2 + EPS);
  if (lo > hi) lo = hi = x;
  const search = requireOneOf('options.search', options.search ?? 'auto', ['auto', 'exhaustive', 'coarse-to-fine'] as const);
  const exhaustive = search === 'exhaustive' || hi - lo < 2 || (search === 'auto' && hi - lo + 1 <= 200);
  const B = env.entriesPerPage;
  const all = exhaustive && x <= 4096 ? new AllLastLevelsDp(x, x - lo, sqrtCostFor(x)) : null;
  const extra = new Map<number, { A: number; z1: number; ratios: number[] }>();
  const best = scanLast(x, lo, hi, exhaustive, (m) => {
    const dp = all ? all.solve(m) : cachedSqrtDp(x, m, exhaustive ? EXHAUSTIVE_NODES : SCAN_NODES);
    const ratios = ratiosOf(dp.capacities, 1);
    const A = ratios.reduce((a, r) => a + Math.sqrt(r), 0);
    const n1 = ratios.map(Math.sqrt);
    const z1 = zeroResult(n1, optimalFprs(dp.capacities, n1, memoryBits / env.bufferEntries));
    const rmin = Math.min(...ratios);
    let k = w.w > 0 ? Math.sqrt((w.w * A) / (B * (w.q * A + w.z * z1))) : 0;
    k = Math.min(Math.max(k, 1 / Math.sqrt(rmin)), Math.sqrt(rmin));
    const J = k * (w.q * A + w.z * z1) + (w.w * A) / (k * B);
    extra.set(m, { A, z1, ratios });
    return { J, m, k, caps: dp.capacities, runs: [], exact: dp.exact };
  });
  const e = extra.get(best.m) as { A: number; z1: number; ratios: number[] };
  return {
    lastLevelEntries: best.m * env.bufferEntries,
    k: best.k,
    objective: best.J,
    sizeRatios: e.ratios,
    sumSqrtRatios: e.A,
    z1: e.z1,
  };
}

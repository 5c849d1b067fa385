/**
 * Smoose's search machinery (internal): candidate scoring, the per-structure k walk, the N_L scan
 * (exhaustive or coarse-to-fine) and the shared Σ√r DP cache.
 */
import { LN2_SQ } from '../bloom';
import { ratiosOf } from './capacities';
import { floorRatio, type CheckedWorkload, type Env } from './checks';
import { updatePaper, updateRefined } from './costs';
import { branchAndBound, mooseSqrtLevelCost, type MooseDpLevelCost, type MooseDpResult } from './dp';
import { optimalFprs } from './filters';
import { runsFor } from './runs';

// ---------------------------------------------------------------------------------------------
// Smoose search (reference §4.3–4.6)

/** A fixed-ratio design Smoose compares itself with (see `SmooseOptions.baselines`). */
export interface SmooseBaseline {
  design: 'leveling' | 'tiering' | 'lazyLeveling';
  sizeRatio: number;
}

export interface Candidate {
  J: number;
  m: number;
  k: number;
  caps: number[];
  runs: number[];
  exact: boolean;
  baseline?: SmooseBaseline;
}

export interface Scorer {
  env: Env;
  w: CheckedWorkload;
  memoryBits: number;
  count: number;
}

/** The weighted cost of a structure (buffer units; the filter split is scale-free), as `breakdown` computes it. */
export function score(sc: Scorer, capsInBuffers: readonly number[], ratios: readonly number[], runs: readonly number[]): number {
  const { w, env } = sc;
  const B = env.entriesPerPage;
  const L = runs.length;
  const p = optimalFprs(capsInBuffers, runs, sc.memoryBits / env.bufferEntries);
  let R = 0;
  let Z = 0;
  let U = 0;
  for (let i = 0; i < L; i++) {
    R += runs[i];
    Z += runs[i] * p[i];
    U += env.updateModel === 'paper' ? ratios[i] / runs[i] : (ratios[i] / runs[i] + 1) / 2;
  }
  const hit = 1 + Z - p[L - 1] * (runs[L - 1] + 1) / 2;
  sc.count++;
  return w.z * ((1 - w.v) * Z + w.v * hit) + w.q * (R + (w.sigma * env.entries) / B) + (w.w * U) / B;
}

export type DpAt = (m: number) => MooseDpResult;

/**
 * Best run vector n(k) = round(k√r) of a structure over all k. Walks the k breakpoints outward
 * from a good start; upward it stops once q·Σn + z(1−v)·Z_lb(n) (non-decreasing in k, Z_lb the
 * Eq.9 bound) exceeds the best cost, downward once w·U(n) (non-increasing in k) does — so huge
 * last-level ratios do not mean enumerating every one of their breakpoints. Ties: smaller k.
 */
export function evalSumSqrt(sc: Scorer, m: number, dp: DpAt): Candidate {
  const res = dp(m);
  const caps = res.capacities;
  const ratios = ratiosOf(caps, 1);
  const L = ratios.length;
  const { w, env } = sc;
  const B = env.entriesPerPage;
  const x = caps.reduce((a, c) => a + c, 0);
  const sqrtR = ratios.map(Math.sqrt);
  const top = ratios.map(floorRatio);
  const fixed = w.q * ((w.sigma * env.entries) / B) + w.z * w.v;
  // ln of N·e^{−(M/N) ln²2}·Π N_i^{−N_i/N}, in buffer units (the bound is scale-free)
  let lnZ0 = Math.log(x) - (sc.memoryBits / env.entries) * LN2_SQ;
  for (let i = 0; i < L; i++) lnZ0 -= (caps[i] / x) * Math.log(caps[i]);
  const rising = (n: number[]): number => {
    let R = 0;
    let lnZ = lnZ0;
    for (let i = 0; i < L; i++) {
      R += n[i];
      lnZ += (caps[i] / x) * Math.log(n[i]);
    }
    return w.q * R + w.z * (1 - w.v) * Math.exp(lnZ);
  };
  const falling = (n: number[]): number =>
    w.w * (env.updateModel === 'paper' ? updatePaper(ratios, n, B) : updateRefined(ratios, n, B));
  // smallest k giving the same vector as k (just above the largest breakpoint below k)
  const floorK = (k: number): number => {
    let b = 0;
    for (let i = 0; i < L; i++) {
      const j = Math.min(Math.ceil(k * sqrtR[i] - 0.5) - 1, top[i] - 1);
      if (j >= 0) b = Math.max(b, (j + 0.5) / sqrtR[i]);
    }
    return b === 0 ? 1e-9 : b * (1 + 1e-9);
  };
  let best: Candidate | null = null;
  const seen = new Set<string>();
  const visit = (k: number): number[] => {
    const runs = ratios.map((r) => runsFor(r, k));
    const key = runs.join(',');
    if (!seen.has(key)) {
      seen.add(key);
      const J = score(sc, caps, ratios, runs);
      const kk = floorK(k);
      if (best === null || J < best.J || (J === best.J && kk < best.k)) best = { J, m, k: kk, caps, runs, exact: res.exact };
    }
    return runs;
  };
  // each part is bounded by its own extreme: rising ≥ rising(all ones), falling ≥ falling(n = floor r)
  const risingMin = rising(ratios.map(() => 1));
  const fallingMin = falling(top);
  // start at the minimiser of the range+update part, k = √(w/(qB)), and at all-ones
  visit(1e-9);
  const k0 = w.q > 0 && w.w > 0 ? Math.sqrt(w.w / (w.q * B)) : w.w > 0 ? Math.sqrt(Math.max(...ratios)) : 1e-9;
  visit(k0);
  for (let k = k0; ; ) {
    let next = Infinity;
    for (let i = 0; i < L; i++) {
      const j = Math.floor(k * sqrtR[i] - 0.5) + 1;
      if (j < top[i]) next = Math.min(next, (j + 0.5) / sqrtR[i]);
    }
    if (next === Infinity) break;
    k = next * (1 + 1e-9);
    const runs = visit(k);
    if (fixed + rising(runs) + fallingMin > (best as unknown as Candidate).J) break;
  }
  for (let k = k0; ; ) {
    const runs = ratios.map((r) => runsFor(r, k));
    if (fixed + falling(runs) + risingMin > (best as unknown as Candidate).J) break;
    const lower = floorK(k);
    if (lower <= 1e-9) break;
    k = (lower / (1 + 1e-9)) * (1 - 1e-9);
    visit(k);
  }
  return best as unknown as Candidate;
}

export function evalWorkloadAware(sc: Scorer, m: number, k: number, dp: DpAt): Candidate {
  const res = dp(m);
  const ratios = ratiosOf(res.capacities, 1);
  const runs = ratios.map((r) => runsFor(r, k));
  return { J: score(sc, res.capacities, ratios, runs), m, k, caps: res.capacities, runs, exact: res.exact };
}

export function logGrid(lo: number, hi: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => lo * Math.pow(hi / lo, i / (n - 1)));
}

export function better(a: Candidate | null, b: Candidate): Candidate {
  if (a === null || b.J < a.J || (b.J === a.J && (b.m < a.m || (b.m === a.m && b.k < a.k)))) return b;
  return a;
}

/** m values log-spaced in x − m between x − hi and x − lo (dense near N_L = N, where range-heavy optima sit). */
export function coarseLastGrid(x: number, lo: number, hi: number, points: number): number[] {
  const ms = logGrid(x - hi, x - lo, points).map((X) => Math.min(hi, Math.max(lo, Math.round(x - X))));
  return [...new Set(ms)].sort((a, b) => a - b);
}

/** Pattern search on m from `start`, halving the step from `step` to 1; returns the best seen. */
export function refineLast(lo: number, hi: number, start: number, step: number, at: (m: number) => Candidate): Candidate {
  let cur = at(start);
  for (let s = Math.max(1, step); s >= 1; ) {
    let moved = false;
    for (const m of [cur.m - s, cur.m + s]) {
      if (m < lo || m > hi) continue;
      const c = at(m);
      if (c.J < cur.J) {
        cur = c;
        moved = true;
      }
    }
    if (!moved) s = Math.floor(s / 2);
  }
  return cur;
}

function memo<T>(f: (m: number) => T): (m: number) => T {
  const cache = new Map<number, T>();
  return (m) => {
    let v = cache.get(m);
    if (v === undefined) {
      v = f(m);
      cache.set(m, v);
    }
    return v;
  };
}

/**
 * Minimise over m ∈ [lo, hi]: every m, or a coarse grid refined around the best `top` points
 * (the cost is not unimodal in N_L because the run counts are rounded).
 */
export function scanLast(
  x: number,
  lo: number,
  hi: number,
  exhaustive: boolean,
  f: (m: number) => Candidate,
  coarse = 16,
  top = 2,
): Candidate {
  const at = memo(f);
  let best: Candidate | null = null;
  if (exhaustive) {
    for (let m = lo; m <= hi; m++) best = better(best, at(m));
    return best as unknown as Candidate;
  }
  const grid = coarseLastGrid(x, lo, hi, coarse);
  for (const m of grid) best = better(best, at(m));
  const ranked = grid.map((m, i) => ({ i, J: at(m).J })).sort((a, b) => a.J - b.J).slice(0, top);
  for (const { i } of ranked) {
    const step = Math.floor(Math.max(grid[i] - (grid[i - 1] ?? lo), (grid[i + 1] ?? hi) - grid[i]) / 2);
    best = better(best, refineLast(lo, hi, grid[i], step, at));
  }
  return best as unknown as Candidate;
}

export const SCAN_NODES = 120;
export const FINAL_NODES = 20_000;
export const EXHAUSTIVE_NODES = 2_000_000;

/** Σ√r DP results depend only on (N/F, N_L/F): shared by every Smoose call (bounded). */
const sqrtDpCache = new Map<string, MooseDpResult>();
const sqrtCostCache = new Map<number, MooseDpLevelCost>();

export function sqrtCostFor(x: number): MooseDpLevelCost {
  const R = Math.max(4, 2 ** Math.ceil(Math.log2(2 * x)));
  let c = sqrtCostCache.get(R);
  if (!c) {
    c = mooseSqrtLevelCost(R);
    sqrtCostCache.set(R, c);
  }
  return c;
}

export function cachedSqrtDp(x: number, m: number, maxNodes: number): MooseDpResult {
  const key = `${x}|${m}|${maxNodes}`;
  let r = sqrtDpCache.get(key);
  if (!r) {
    if (sqrtDpCache.size > 20000) sqrtDpCache.clear();
    r = branchAndBound(x, m, sqrtCostFor(x), maxNodes);
    sqrtDpCache.set(key, r);
  }
  return r;
}

export function pickBetter(a: Candidate, b: Candidate): Candidate {
  return b.J <= a.J ? b : { ...a, exact: false };
}

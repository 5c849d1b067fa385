/** MSLS level-size optimisation (reference §4): BFGS over softmax-parameterised level sizes. */
import { ModelInputError, requireNumber } from '../validate';
import { leveledCore, leveledResult, type MslsWriteAmplification, type SolveHints } from './leveled';
import { mslsResolveLevelParams, type MslsLevelParams, type MslsResolvedLevelParams } from './params';
import { popularity, validateGrouping, type MslsGrouping, type Popularity } from './popularity';

// ────────────────────────────────────────────────────────────────────────── level-size optimiser

/** Coarser grouping used inside the level-size search (~20× fewer groups); the optimum found with it re-evaluates within 1e-9 of the fine-grouping optimum at N = 10⁸, Zipf 0.99. */
const SEARCH_GROUPING: Required<MslsGrouping> = { exactRanks: 100, groupRatio: 1.02 };

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

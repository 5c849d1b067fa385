/** Moose's inner-level DP (Eq.12, exact variant) and its per-level costs, solved by branch and bound. */
import { ModelInputError, requireNumber } from '../validate';
import { EPS, MAX_BUFFERS } from './checks';
import { runsFor } from './runs';
import type { MooseUpdateModel } from './types';

// ---------------------------------------------------------------------------------------------
// The inner-level DP (reference §4.3, exact variant), solved by branch and bound

/**
 * A per-level cost c(r) for the DP plus two lower bounds the branch and bound needs, tabulated on
 * a log2 grid with `steps` cells per doubling (cell j starts at 2^{j/steps}):
 * `one[j]` ≤ c(r) for every r ≥ 2^{j/steps} (so the table is non-decreasing), and `inner[j]` ≤ the
 * cost of any sequence of ≥ 1 levels whose ratios multiply to at least 2^{j/steps}.
 */
export interface MooseDpLevelCost {
  readonly name: string;
  cost(r: number): number;
  readonly steps: number;
  readonly one: Float64Array;
  readonly inner: Float64Array;
}

const TABLE_STEPS = 64;

/**
 * inner[j] = min_ℓ ℓ·ψ(ln q_j / ℓ) for a convex lower bound ψ(ln r) of c (Jensen over ℓ levels);
 * convex in ℓ, so stop at the first increase.
 */
function innerTable(cells: number, psi: (t: number) => number): Float64Array {
  const tab = new Float64Array(cells);
  for (let j = 0; j < cells; j++) {
    const T = (j / TABLE_STEPS) * Math.LN2;
    let best = Infinity;
    for (let l = 1; l < 100000; l++) {
      const v = l * psi(T / l);
      if (v < best) best = v;
      else if (v > best) break;
    }
    tab[j] = best * (1 - 1e-12);
  }
  return tab;
}

function cellsFor(maxRatio: number): number {
  return Math.ceil(Math.log2(Math.max(2, maxRatio)) * TABLE_STEPS) + 2;
}

/** The Moose DP objective c(r) = √r (Σ√r_i = A, Eq.7/12). `maxRatio` ≥ 2 sizes the bound tables (N/F suffices). */
export function mooseSqrtLevelCost(maxRatio = 1e6): MooseDpLevelCost {
  const R = requireNumber('maxRatio', maxRatio, 2, MAX_BUFFERS * 2);
  const cells = cellsFor(R);
  const one = new Float64Array(cells);
  for (let j = 0; j < cells; j++) one[j] = Math.pow(2, j / TABLE_STEPS / 2) * (1 - 1e-12);
  return { name: 'sum-sqrt', cost: Math.sqrt, steps: TABLE_STEPS, one, inner: innerTable(cells, (t) => Math.exp(t / 2)) };
}

/**
 * [reference §4.6, reconstructed] Workload-aware DP cost for fixed k:
 * c_k(r) = s·n_k(r) + u·U_1(r, n_k(r)), n_k(r) = clamp(round(k√r), 1, floor r), where U_1 is one
 * level's update cost (r/n)/B ('paper') or ((r/n + 1)/2)/B ('refined'); s, u = range and update
 * fractions. `maxRatio` bounds the ratios the DP can meet (N/F suffices).
 */
export function smooseWorkloadLevelCost(
  rangeFraction: number,
  updateFraction: number,
  entriesPerPage: number,
  k: number,
  maxRatio: number,
  updateModel: MooseUpdateModel = 'paper',
): MooseDpLevelCost {
  const s = requireNumber('rangeFraction', rangeFraction, 0, 1);
  const u = requireNumber('updateFraction', updateFraction, 0, 1);
  const B = requireNumber('entriesPerPage', entriesPerPage, 1, Infinity);
  requireNumber('k', k, 0, Infinity, { exclusiveMin: true });
  const R = requireNumber('maxRatio', maxRatio, 2, MAX_BUFFERS * 2);
  const refined = updateModel === 'refined';
  const cost = (r: number): number => {
    const n = runsFor(r, k);
    return s * n + (u * (refined ? (r / n + 1) / 2 : r / n)) / B;
  };
  // c is increasing between the points where n_k(r) jumps (round and floor changes).
  const bps: number[] = [];
  for (let m = 0; ; m++) {
    const b = ((m + 0.5) / k) ** 2;
    if (b > R) break;
    if (b > 1) bps.push(b);
  }
  for (let i = 2; i <= R && i <= k * Math.sqrt(i) + 1.5; i++) bps.push(i);
  bps.sort((a, b) => a - b);
  // Step lower bound: each cell gets the least value c takes in it, then the suffix minimum.
  const cells = cellsFor(R);
  const one = new Float64Array(cells);
  let bi = 0;
  for (let j = 0; j < cells; j++) {
    const lo = Math.pow(2, j / TABLE_STEPS);
    const hi = Math.pow(2, (j + 1) / TABLE_STEPS);
    let v = Math.min(cost(lo), cost(lo * (1 + 1e-12)));
    while (bi < bps.length && bps[bi] < lo) bi++;
    for (let t = bi; t < bps.length && bps[t] < hi; t++) v = Math.min(v, cost(bps[t]), cost(bps[t] * (1 + 1e-12)));
    one[j] = v * (1 - 1e-9);
  }
  for (let j = cells - 2; j >= 0; j--) one[j] = Math.min(one[j], one[j + 1]);
  // Lower convex hull of the step function's corners, in t = ln r.
  const hx: number[] = [];
  const hy: number[] = [];
  const push = (px: number, py: number): void => {
    while (hx.length >= 2) {
      const n = hx.length;
      const cross = (hx[n - 1] - hx[n - 2]) * (py - hy[n - 2]) - (hy[n - 1] - hy[n - 2]) * (px - hx[n - 2]);
      if (cross > 0) break;
      hx.pop();
      hy.pop();
    }
    hx.push(px);
    hy.push(py);
  };
  for (let j = 0; j < cells; j++) {
    push((j / TABLE_STEPS) * Math.LN2, one[j]);
    push(((j + 1) / TABLE_STEPS) * Math.LN2, one[j]);
  }
  const psi = (t: number): number => {
    if (t <= hx[0]) return hy[0];
    if (t >= hx[hx.length - 1]) return hy[hy.length - 1];
    let a = 0;
    let b = hx.length - 1;
    while (b - a > 1) {
      const mid = (a + b) >> 1;
      if (hx[mid] <= t) a = mid;
      else b = mid;
    }
    return hy[a] + ((hy[b] - hy[a]) * (t - hx[a])) / (hx[b] - hx[a]);
  };
  return { name: 'workload-aware', cost, steps: TABLE_STEPS, one, inner: innerTable(cells, psi) };
}

export interface MooseDpResult {
  /** Capacities N_1..N_L in buffers (units of F); the last is N_L. */
  capacities: number[];
  /** Σ c(r_i) of the returned structure, the last level's term included. */
  cost: number;
  /** False when the node budget ran out: the result is then the best structure found. */
  exact: boolean;
  /** Search nodes visited. */
  nodes: number;
}

/**
 * The exact inner-level DP of reference §4.3 ("exact variant" of Eq.12), in units of the buffer:
 * levels 1..m−1 have integer ratios ≥ 2 (capacities stay multiples of F), level m takes all the
 * remaining capacity (ratio ≥ 2, may be fractional), the last level holds `lastBuffers`, and the
 * structure minimises Σ_i c(r_i) including the last level's term. Returns the same structure as
 * the reference's memoised recursion; it is found by branch and bound (depth-first, children in
 * order of their lower bound), which visits a small part of the reference's state space.
 * `totalBuffers` = N/F, `lastBuffers` = N_L/F with N/2 ≤ N_L ≤ N. If N − N_L < 2F the answer is a
 * single level of N.
 */
export function mooseDp(
  totalBuffers: number,
  lastBuffers: number,
  levelCost: MooseDpLevelCost = mooseSqrtLevelCost(),
  limits: { maxNodes?: number } = {},
): MooseDpResult {
  const x = requireNumber('totalBuffers', totalBuffers, 1, MAX_BUFFERS);
  const m = requireNumber('lastBuffers', lastBuffers, x / 2 - EPS, x);
  const maxNodes = requireNumber('maxNodes', limits.maxNodes ?? 5_000_000, 1, Infinity);
  const covered = Math.pow(2, (levelCost.one.length - 1) / levelCost.steps);
  if (covered < x) {
    throw new ModelInputError('levelCost', `covers ratios up to ${covered}; build it with maxRatio ≥ totalBuffers = ${x}`);
  }
  return branchAndBound(x, m, levelCost, maxNodes);
}

export function branchAndBound(x: number, m: number, lc: MooseDpLevelCost, maxNodes: number): MooseDpResult {
  const X = x - m;
  if (X < 2) return { capacities: [x], cost: lc.cost(x), exact: true, nodes: 1 };
  const c = lc.cost;
  const { one, inner, steps } = lc;
  const lastOne = one.length - 1;
  const lastInner = inner.length - 1;
  const oneAt = (l2: number): number => (l2 < 0 ? 0 : one[Math.min(Math.floor(l2 * steps), lastOne)]);
  const innerAt = (l2: number): number => (l2 < 0 ? 0 : inner[Math.min(Math.floor(l2 * steps), lastInner)]);
  const lm = Math.log2(m);
  const minRest = inner[0];
  // Remaining cost from (P, N_r): the final inner level holds c_m ∈ (N_r/2, N_r] (later inner
  // levels at least double, so they sum to less than c_m), hence the last ratio is m/c_m and the
  // inner product c_m/P; bound both over four slices of that interval.
  const lowerBound = (l2P: number, Nr: number): number => {
    const l = Math.log2(Nr) - 1;
    let v = Infinity;
    for (let j = 0; j < 4; j++) {
      const t = oneAt(lm - l - (j + 1) / 4) + innerAt(l + j / 4 - l2P);
      if (t < v) v = t;
    }
    return v;
  };
  let best = Infinity;
  let bestPath: number[] = [];
  const path: number[] = [];
  let nodes = 0;
  let aborted = false;
  const kidLb: Float64Array[] = [];
  const kidAcc: Float64Array[] = [];
  const kidR: Float64Array[] = [];
  const dfs = (Np: number, Nr: number, acc: number, depth: number): void => {
    if (++nodes > maxNodes) {
      aborted = true;
      return;
    }
    if (Nr >= 2 * Np) {
      const v = acc + c(Nr / Np) + c(m / Nr);
      if (v < best) {
        best = v;
        bestPath = [...path, Nr];
      }
    }
    if (Nr < 6 * Np) return; // no room for a child of ratio ≥ 2
    const maxKids = Math.floor(Nr / (3 * Np)) + 1;
    if (!kidLb[depth] || kidLb[depth].length < maxKids) {
      const size = Math.max(maxKids, 16);
      kidLb[depth] = new Float64Array(size);
      kidAcc[depth] = new Float64Array(size);
      kidR[depth] = new Float64Array(size);
    }
    const LB = kidLb[depth];
    const AC = kidAcc[depth];
    const RR = kidR[depth];
    const l2Np = Math.log2(Np);
    let count = 0;
    for (let r = 2; Nr - r * Np >= 2 * r * Np; r++) {
      const l2r = Math.log2(r);
      if (acc + oneAt(l2r) + minRest >= best) break;
      const a = acc + c(r);
      const lb = a + lowerBound(l2Np + l2r, Nr - r * Np);
      if (lb >= best) continue;
      LB[count] = lb;
      AC[count] = a;
      RR[count] = r;
      count++;
    }
    // most promising child first (ties: smaller ratio first)
    const order = Array.from({ length: count }, (_, i) => i).sort((i, j) => LB[i] - LB[j] || i - j);
    for (const i of order) {
      if (aborted) return;
      // the arrays of this depth are not touched by deeper calls
      if (LB[i] >= best) continue;
      const P2 = RR[i] * Np;
      path.push(P2);
      dfs(P2, Nr - P2, AC[i], depth + 1);
      path.pop();
    }
  };
  // A greedy dive first (most promising child, ratios ≤ 256) gives an incumbent, so that the
  // children loops below stop early instead of bounding every ratio up to N_r/3.
  for (let Np = 1, Nr = X, acc = 0; ; ) {
    if (Nr >= 2 * Np) {
      const v = acc + c(Nr / Np) + c(m / Nr);
      if (v < best) {
        best = v;
        bestPath = [...path, Nr];
      }
    }
    let pick = 0;
    let pickLb = Infinity;
    const l2Np = Math.log2(Np);
    for (let r = 2; r <= 256 && Nr - r * Np >= 2 * r * Np; r++) {
      const lb = acc + c(r) + lowerBound(l2Np + Math.log2(r), Nr - r * Np);
      if (lb < pickLb) {
        pickLb = lb;
        pick = r;
      }
    }
    if (pick === 0 || pickLb >= best) break;
    acc += c(pick);
    Np *= pick;
    Nr -= Np;
    path.push(Np);
  }
  path.length = 0;
  dfs(1, X, 0, 0);
  return { capacities: [...bestPath, m], cost: best, exact: !aborted, nodes };
}

/**
 * The same DP for every N_L at once, for small trees: the reference's states (P, S) — P the last
 * placed capacity, S the capacity placed so far, both in buffers — each with the least Σc(r) of
 * a path reaching it. A state serves every N_L with S + 2P ≤ N − N_L, so one forward pass over
 * the states of the largest N − N_L answers all of them. Used by the exhaustive Smoose scan.
 */
export class AllLastLevelsDp {
  private readonly P: number[] = [1];
  private readonly S: number[] = [0];
  private readonly f: number[] = [0];
  private readonly parent: number[] = [-1];

  constructor(
    private readonly x: number,
    maxInner: number,
    private readonly lc: MooseDpLevelCost,
  ) {
    const byP = new Map<number, number[]>([[1, [0]]]);
    const index = new Map<number, number>();
    const width = Math.floor(maxInner) + 1;
    for (let p = 1; 6 * p <= maxInner; p++) {
      const list = byP.get(p);
      if (!list) continue;
      for (const i of list) {
        for (let r = 2; this.S[i] + 3 * r * p <= maxInner; r++) {
          const P2 = r * p;
          const S2 = this.S[i] + P2;
          const v = this.f[i] + lc.cost(r);
          const key = P2 * width + S2;
          const j = index.get(key);
          if (j === undefined) {
            index.set(key, this.P.length);
            const l2 = byP.get(P2);
            if (l2) l2.push(this.P.length);
            else byP.set(P2, [this.P.length]);
            this.P.push(P2);
            this.S.push(S2);
            this.f.push(v);
            this.parent.push(i);
          } else if (v < this.f[j]) {
            this.f[j] = v;
            this.parent[j] = i;
          }
        }
      }
    }
  }

  solve(m: number): MooseDpResult {
    const X = this.x - m;
    const c = this.lc.cost;
    if (X < 2) return { capacities: [this.x], cost: c(this.x), exact: true, nodes: 1 };
    let best = Infinity;
    let arg = -1;
    for (let i = 0; i < this.P.length; i++) {
      const Nr = X - this.S[i];
      if (Nr < 2 * this.P[i]) continue;
      const v = this.f[i] + c(Nr / this.P[i]) + c(m / Nr);
      if (v < best) {
        best = v;
        arg = i;
      }
    }
    const caps: number[] = [X - this.S[arg], m];
    for (let i = arg; i > 0; i = this.parent[i]) caps.unshift(this.P[i]);
    return { capacities: caps, cost: best, exact: true, nodes: this.P.length };
  }
}

/**
 * Eq.12 exactly as printed (reference §3.3), kept to show why it is not used: when fewer than two
 * of the last placed level fit, the remainder is folded into that level and the state's value is
 * √(N_L/(N_d + N_r)) — the enlarged level's own ratio is never re-charged, so `reportedCost`
 * under-counts Σ√r of the structure it builds. Units of F; only for N/F ≤ 4096.
 */
export function mooseDpLiteral(totalBuffers: number, lastBuffers: number): { capacities: number[]; reportedCost: number } {
  const x = requireNumber('totalBuffers', totalBuffers, 1, 4096);
  const m = requireNumber('lastBuffers', lastBuffers, x / 2 - EPS, x);
  const X = x - m;
  if (X < 2) return { capacities: [x], reportedCost: 0 };
  const memo = new Map<string, { cost: number; seq: number[] }>();
  const S = (Nd: number, Nr: number): { cost: number; seq: number[] } => {
    if (Nr < 2 * Nd) return { cost: Math.sqrt(m / (Nd + Nr)), seq: [] };
    const key = `${Nd}:${Nr}`;
    const hit = memo.get(key);
    if (hit) return hit;
    let best = { cost: Infinity, seq: [] as number[] };
    for (let r = 2; r <= Math.ceil(Nr / Nd); r++) {
      const sub = S(r * Nd, Nr - r * Nd);
      const v = sub.cost + Math.sqrt(r);
      if (v < best.cost) best = { cost: v, seq: [r, ...sub.seq] };
    }
    memo.set(key, best);
    return best;
  };
  const { cost, seq } = S(1, X);
  const caps: number[] = [];
  let Nd = 1;
  let Nr = X;
  for (const r of seq) {
    Nd *= r;
    Nr -= Nd;
    caps.push(Nd);
  }
  caps[caps.length - 1] += Nr; // the fold; may be negative when r = ceil(N_r/N_d)
  return { capacities: [...caps, m], reportedCost: cost };
}

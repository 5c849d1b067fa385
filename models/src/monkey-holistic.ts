/**
 * Monkey's holistic design (Sec 4.5, App C): split memory between buffer and filters with
 * Newton–Raphson (Algorithm 5) and search merge policy × size ratio (Algorithm 1), optionally under
 * a lookup- or update-cost bound.
 *
 * Units: memory in bytes at the API; inside, the paper's bits (M̂, x = Mfilt, page = B·E, β per bit,
 * δ in bits). Costs in page I/Os.
 *
 * The objective is Eq 23 as Algorithm 1 evaluates it: Z from Eq 19/20 (Lu capped at the integer L of
 * Eq 1, corrected as in `monkey-closed-form.ts`), Q and W from Eq 10/11 with the continuous level
 * count L(x) = ln(N·E/(M̂−x)·(T−1)/T)/ln T of Eq 38, clamped to ≥ 1 (pitfall P14: it turns
 * negative once the buffer outgrows the data).
 */
import { LN2_SQ } from './bloom';
import {
  type MonkeyGeneralThresholds,
  monkeyGeneralThresholdsBitsPerEntry,
  monkeyPointLookupCostUnchecked,
  monkeyRangeLookupCostUnchecked,
  monkeyUnfilteredLevelsUnchecked,
  monkeyUpdateCostUnchecked,
} from './monkey-closed-form';
import {
  costs,
  type MonkeyCosts,
  monkeyCheckDataset,
  monkeyCheckHardware,
  monkeyCheckWorkload,
  monkeyLevelsUnchecked,
  monkeyMaxFilterBitsPerEntry,
} from './monkey';
import type { Dataset, Design, Hardware, Policy, Workload } from './types';
import { ModelInputError, requireNumber, requireOneOf } from './validate';

const POLICIES = ['leveling', 'tiering'] as const;

/** Coefficients of the memory-split cost (Eq 25–28), paper units: β per bit, δ in bits. */
export interface MonkeySplitCoefficients {
  alpha: number;
  beta: number;
  gamma: number;
  delta: number;
  c: number;
}

/** Everything the split and the objective need, in the paper's units. */
interface Context {
  n: number;
  entryBytes: number;
  /** E in bits. */
  e: number;
  b: number;
  phi: number;
  z: number;
  q: number;
  w: number;
  f: number;
  s: number;
  /** M̂ in bits. */
  mhat: number;
  /** One page, B·E bits: Newton's tolerance and the smallest buffer. */
  page: number;
}

function context(dataset: Dataset, workload: Workload, hardware: Hardware, memoryBytes: number): Context {
  monkeyCheckDataset(dataset);
  monkeyCheckWorkload(workload);
  monkeyCheckHardware(hardware);
  requireNumber('memoryBytes', memoryBytes, 0, Infinity, { exclusiveMin: true, exclusiveMax: true });
  const b = Math.floor(dataset.pageBytes / dataset.entryBytes);
  const e = dataset.entryBytes * 8;
  return {
    n: dataset.entries,
    entryBytes: dataset.entryBytes,
    e,
    b,
    phi: hardware.writeReadCostRatio,
    z: workload.pointLookups,
    q: workload.rangeLookups,
    w: workload.updates,
    f: workload.nonZeroFraction,
    s: workload.rangeSelectivity,
    mhat: memoryBytes * 8,
    page: b * e,
  };
}

function coefficientsUnchecked(ctx: Context, policy: Policy, t: number): MonkeySplitCoefficients {
  const k = Math.pow(t, t / (t - 1));
  const lnT = Math.log(t);
  const { z, q, w, f, b, phi } = ctx;
  const lev = policy === 'leveling';
  const alpha = lev
    ? ((z * k) / (t - 1)) * Math.pow(1 - f, (t - 1) / t)
    : z * k * Math.pow(1 - (f * t) / (2 * (t - 1)), (t - 1) / t);
  const gamma = lev
    ? (q + (w * (t - 1) * (1 + phi)) / (2 * b)) / lnT
    : (q * (t - 1) + (w * (t - 1) * (1 + phi)) / (t * b)) / lnT;
  return {
    alpha,
    beta: LN2_SQ / ctx.n,
    gamma,
    delta: (ctx.n * ctx.e * (t - 1)) / t,
    c: z * f + (q * ctx.s * ctx.n) / b,
  };
}

function checkCandidate(policy: Policy, sizeRatio: number): void {
  requireOneOf('policy', policy, POLICIES);
  requireNumber('sizeRatio', sizeRatio, 2, Infinity, { exclusiveMax: true });
}

/** α, β, γ, δ, C of Eq 26–28 for one policy and size ratio (β in 1/bit, δ in bits). */
export function monkeyMemorySplitCoefficients(
  dataset: Dataset,
  workload: Workload,
  hardware: Hardware,
  policy: Policy,
  sizeRatio: number,
): MonkeySplitCoefficients {
  const ctx = context(dataset, workload, hardware, 1);
  checkCandidate(policy, sizeRatio);
  return coefficientsUnchecked(ctx, policy, sizeRatio);
}

/**
 * Eq 25: α·e^(−β·x) + γ·ln(δ/(M̂ − x)) + C, the cost Algorithm 5 minimises (all levels filtered,
 * continuous L). x = 8·filterBytes, M̂ = 8·memoryBytes; 0 ≤ filterBytes < memoryBytes.
 */
export function monkeyMemorySplitCost(coefficients: MonkeySplitCoefficients, memoryBytes: number, filterBytes: number): number {
  const mhat = requireNumber('memoryBytes', memoryBytes, 0, Infinity, { exclusiveMin: true, exclusiveMax: true }) * 8;
  const x = requireNumber('filterBytes', filterBytes, 0, memoryBytes, { exclusiveMax: true }) * 8;
  const { alpha, beta, gamma, delta, c } = coefficients;
  return alpha * Math.exp(-beta * x) + gamma * Math.log(delta / (mhat - x)) + c;
}

/**
 * Algorithm 5 in bits, stopping once a step is ≤ `tolerance` bits (the paper: one page).
 * Guards (P15): α = 0 → no filters; γ = 0 → all but one page to filters.
 */
function newtonUnchecked(
  co: MonkeySplitCoefficients,
  mhat: number,
  page: number,
  tolerance: number,
  start?: number,
): { x: number; iterations: number } {
  const { alpha, beta, gamma } = co;
  const top = mhat - page;
  if (top <= 0 || alpha <= 0) return { x: 0, iterations: 0 };
  if (gamma <= 0) return { x: top, iterations: 0 };
  if (mhat <= gamma / (alpha * beta)) return { x: 0, iterations: 0 };
  const scale = (alpha * beta) / gamma;
  let x0 = start ?? top;
  // h(x) = x − ln(scale·(M̂ − x))/β (Eq 48), h'(x) = 1 + 1/(β(M̂ − x)) (Eq 49); inline, no closures.
  if (start === undefined && x0 - Math.log(scale * (mhat - x0)) / beta <= 0) return { x: top, iterations: 0 };
  // From the right of the root h is increasing and convex, so Newton decreases monotonically to it.
  let iterations = 0;
  let err = mhat;
  while (err > tolerance && iterations < 100) {
    const h = x0 - Math.log(scale * (mhat - x0)) / beta;
    const x1 = x0 - h / (1 + 1 / (beta * (mhat - x0)));
    err = Math.abs(x1 - x0);
    x0 = x1;
    iterations += 1;
  }
  return { x: x0, iterations };
}

export interface MonkeyFilterMemory {
  filterBytes: number;
  bufferBytes: number;
  /** Mfilt/N. */
  filterBitsPerEntry: number;
  /** Newton steps taken (0 when a guard decided). */
  iterations: number;
  coefficients: MonkeySplitCoefficients;
}

/**
 * Algorithm 5 (App C): the filter memory minimising Eq 25 for one policy and size ratio, found by
 * Newton–Raphson on h(x) = x − ln((αβ/γ)(M̂ − x))/β from x0 = M̂ − one page, to one page of precision.
 * Returns 0 for filters when M̂ ≤ γ/(αβ) (Eq 52). memoryBytes = buffer + filters, > 0.
 */
export function monkeyOptimalFilterMemory(
  dataset: Dataset,
  workload: Workload,
  hardware: Hardware,
  memoryBytes: number,
  policy: Policy,
  sizeRatio: number,
): MonkeyFilterMemory {
  const ctx = context(dataset, workload, hardware, memoryBytes);
  checkCandidate(policy, sizeRatio);
  const coefficients = coefficientsUnchecked(ctx, policy, sizeRatio);
  const { x, iterations } = newtonUnchecked(coefficients, ctx.mhat, ctx.page, ctx.page);
  return { filterBytes: x / 8, bufferBytes: (ctx.mhat - x) / 8, filterBitsPerEntry: x / ctx.n, iterations, coefficients };
}

// ------------------------------------------------------------------ the objective (Eq 23)

interface Candidate {
  policy: Policy;
  t: number;
  th: MonkeyGeneralThresholds;
  delta: number;
}

export interface MonkeyObjective {
  /** θ = z·Z + q·Q + w·W. */
  cost: number;
  pointLookup: number;
  update: number;
  rangeLookup: number;
  /** Continuous L(x) used by Q and W. */
  levels: number;
  /** Integer L (Eq 1) used by Z's Lu cap. */
  integerLevels: number;
  unfilteredLevels: number;
}

/** Eq 23 at x filter bits: the three costs, θ and both level counts; what the objective and the split search share. */
function costsAt(ctx: Context, cand: Candidate, x: number): Omit<MonkeyObjective, 'unfilteredLevels'> {
  const { policy, t } = cand;
  const mbuf = ctx.mhat - x;
  const integerLevels = monkeyLevelsUnchecked(ctx.n, ctx.entryBytes, mbuf / 8, t);
  const levels = Math.max(1, Math.log(cand.delta / mbuf) / Math.log(t));
  const pointLookup = monkeyPointLookupCostUnchecked(policy, t, integerLevels, x / ctx.n, ctx.f, cand.th);
  const update = monkeyUpdateCostUnchecked(policy, t, levels, ctx.b, ctx.phi);
  const rangeLookup = monkeyRangeLookupCostUnchecked(policy, t, levels, ctx.n, ctx.b, ctx.s);
  const cost = ctx.z * pointLookup + ctx.q * rangeLookup + ctx.w * update;
  return { cost, pointLookup, update, rangeLookup, levels, integerLevels };
}

function objectiveUnchecked(ctx: Context, cand: Candidate, x: number): MonkeyObjective {
  const costs = costsAt(ctx, cand, x);
  const unfilteredLevels = monkeyUnfilteredLevelsUnchecked(cand.t, costs.integerLevels, x / ctx.n, cand.th);
  return { ...costs, unfilteredLevels };
}

function makeCandidate(ctx: Context, policy: Policy, t: number): Candidate {
  return {
    policy,
    t,
    th: monkeyGeneralThresholdsBitsPerEntry(policy, t, ctx.f),
    delta: (ctx.n * ctx.e * (t - 1)) / t,
  };
}

/**
 * Algorithm 1's objective for one design point: Eq 23 with `filterBytes` of `memoryBytes` going to
 * filters and the rest to the buffer (0 ≤ filterBytes < memoryBytes).
 */
export function monkeyHolisticObjective(
  dataset: Dataset,
  workload: Workload,
  hardware: Hardware,
  memoryBytes: number,
  policy: Policy,
  sizeRatio: number,
  filterBytes: number,
): MonkeyObjective {
  const ctx = context(dataset, workload, hardware, memoryBytes);
  checkCandidate(policy, sizeRatio);
  requireNumber('filterBytes', filterBytes, 0, memoryBytes, { exclusiveMax: true });
  return objectiveUnchecked(ctx, makeCandidate(ctx, policy, sizeRatio), filterBytes * 8);
}

// ------------------------------------------------------------------ the split per candidate

/** Bounds a design must meet, in page I/Os. */
export interface MonkeySla {
  /** Largest acceptable point-lookup cost Z (I/O per lookup). */
  maxLookupCost?: number;
  /** Largest acceptable update cost W (I/O per update). */
  maxUpdateCost?: number;
}

interface Point {
  x: number;
  cost: number;
  /** Relative excess over the SLA; 0 when feasible. */
  violation: number;
}

/** The objective and SLA excess at x. */
function evaluate(ctx: Context, cand: Candidate, sla: MonkeySla, x: number): Point {
  const { cost, pointLookup, update } = costsAt(ctx, cand, x);
  let violation = 0;
  if (sla.maxLookupCost !== undefined) violation += Math.max(0, pointLookup / sla.maxLookupCost - 1);
  if (sla.maxUpdateCost !== undefined) violation += Math.max(0, update / sla.maxUpdateCost - 1);
  return { x, cost, violation };
}

/** Feasible first, then cheaper. */
function better(a: Point, b: Point): boolean {
  if (a.violation !== b.violation) return a.violation < b.violation;
  return a.cost < b.cost;
}

/**
 * Most filter bits a split may use: all but one page of M̂, and at most `monkeyMaxFilterBitsPerEntry`
 * per entry (only binding when memory dwarfs the data; the excess then goes to the buffer).
 */
function filterBitsLimit(ctx: Context): number {
  return Math.max(0, Math.min(ctx.mhat - ctx.page, monkeyMaxFilterBitsPerEntry * ctx.n));
}

/** Point-lookup cost with no filters: every run probed, the target found in level L. */
function noFilterCost(policy: Policy, t: number, levels: number, f: number): number {
  return policy === 'leveling' ? levels : (t - 1) * levels - f * (t / 2 - 1);
}

function clamp(hi: number, x: number): number {
  return Math.min(hi, Math.max(0, x));
}

/**
 * The skip test of `bestSplit`. Z(x) ≥ min(Z_top(x), noFilter(L(x))) everywhere (Eq 19/20's lower
 * branches are constrained versions of the top one; the Lu cap and the clamp give the no-filter cost).
 * Where Z_top is the smaller, objective(x) ≥ R(x) ≥ R(x*); elsewhere objective(x) ≥ z·noFilter(L(0)) +
 * q·Q(0) + w·W(0), since L and Q, W only grow with x. So x* is optimal when the objective equals R
 * there (every level filtered, no clamp) and that floor is no lower than its cost.
 */
function relaxationIsExact(ctx: Context, cand: Candidate, co: MonkeySplitCoefficients, star: Point): boolean {
  const { policy, t } = cand;
  const levelsAtStar = monkeyLevelsUnchecked(ctx.n, ctx.entryBytes, (ctx.mhat - star.x) / 8, t);
  if (monkeyUnfilteredLevelsUnchecked(t, levelsAtStar, star.x / ctx.n, cand.th) !== 0) return false;
  const zTopAtStar = (co.alpha / ctx.z) * Math.exp(-co.beta * star.x) + ctx.f;
  if (noFilterCost(policy, t, levelsAtStar, ctx.f) < zTopAtStar) return false;
  const fewestLevels = monkeyLevelsUnchecked(ctx.n, ctx.entryBytes, ctx.mhat / 8, t);
  const levelsAtZero = Math.max(1, Math.log(cand.delta / ctx.mhat) / Math.log(t));
  const floor =
    ctx.z * noFilterCost(policy, t, fewestLevels, ctx.f) +
    ctx.q * monkeyRangeLookupCostUnchecked(policy, t, levelsAtZero, ctx.n, ctx.b, ctx.s) +
    ctx.w * monkeyUpdateCostUnchecked(policy, t, levelsAtZero, ctx.b, ctx.phi);
  return floor >= star.cost;
}

const SCAN_POINTS = 24;
const GOLDEN_STEPS = 40;
const INV_PHI = (Math.sqrt(5) - 1) / 2;

/**
 * The best split for one candidate. Newton (Algorithm 5, polished past its one-page tolerance) minimises
 * the relaxation R(x) = z·Z_top(x) + q·Q + w·W, whose minimiser on [0, M̂ − page] is x* = max(x_N,
 * M̂ − δ/T) (below M̂ − δ/T the L ≥ 1 clamp makes R decrease in x). `relaxationIsExact` proves x*
 * optimal in the common case; otherwise (unfiltered levels, few levels, SLA bounds) a coarse scan plus
 * golden-section refinement of the true objective decide, seeded with x*.
 */
function bestSplit(ctx: Context, cand: Candidate, sla: MonkeySla): { best: Point; newton: { x: number; iterations: number } } {
  const hi = filterBitsLimit(ctx);
  const co = coefficientsUnchecked(ctx, cand.policy, cand.t);
  const newton = newtonUnchecked(co, ctx.mhat, ctx.page, ctx.page);
  const polished = newton.iterations > 0 ? newtonUnchecked(co, ctx.mhat, ctx.page, Math.max(1, ctx.mhat * 1e-13), newton.x) : newton;
  const xStar = clamp(hi, Math.max(polished.x, ctx.mhat - cand.delta / cand.t));
  const noSla = sla.maxLookupCost === undefined && sla.maxUpdateCost === undefined;
  if (noSla) {
    // Without point lookups filters buy nothing: keep every bit in the buffer.
    if (ctx.z === 0) return { best: evaluate(ctx, cand, sla, 0), newton };
    const star = evaluate(ctx, cand, sla, xStar);
    if (relaxationIsExact(ctx, cand, co, star)) return { best: star, newton };
  }
  const seeds = [xStar, polished.x, 0, hi];
  if (sla.maxUpdateCost !== undefined) {
    // W ≤ bound ⇔ L(x) ≤ Lw ⇔ x ≤ M̂ − δ·T^(−Lw).
    const perLevel = monkeyUpdateCostUnchecked(cand.policy, cand.t, 1, ctx.b, ctx.phi);
    if (perLevel > 0) seeds.push(ctx.mhat - cand.delta * Math.pow(cand.t, -sla.maxUpdateCost / perLevel));
  }
  if (sla.maxLookupCost !== undefined && co.alpha > 0 && sla.maxLookupCost > ctx.f) {
    // Z ≤ bound on Eq 19/20's top branch ⇔ x ≥ ln(α/(z·(bound − f)))/β.
    seeds.push(Math.log(co.alpha / (ctx.z * (sla.maxLookupCost - ctx.f))) / co.beta);
  }
  let best = evaluate(ctx, cand, sla, clamp(hi, seeds[0]));
  for (let i = 1; i < seeds.length; i++) {
    const p = evaluate(ctx, cand, sla, clamp(hi, seeds[i]));
    if (better(p, best)) best = p;
  }
  if (hi === 0) return { best, newton };
  const step = hi / (SCAN_POINTS - 1);
  let scanBest = evaluate(ctx, cand, sla, 0);
  for (let i = 1; i < SCAN_POINTS; i++) {
    const p = evaluate(ctx, cand, sla, i === SCAN_POINTS - 1 ? hi : i * step);
    if (better(p, scanBest)) scanBest = p;
  }
  if (better(scanBest, best)) best = scanBest;
  // Golden section around the best point found so far, keeping the best value ever seen.
  let a = clamp(hi, best.x - step);
  let b = clamp(hi, best.x + step);
  let c = b - INV_PHI * (b - a);
  let d = a + INV_PHI * (b - a);
  let pc = evaluate(ctx, cand, sla, c);
  let pd = evaluate(ctx, cand, sla, d);
  for (let i = 0; i < GOLDEN_STEPS; i++) {
    if (better(pc, pd)) {
      b = d;
      d = c;
      pd = pc;
      c = b - INV_PHI * (b - a);
      pc = evaluate(ctx, cand, sla, c);
      if (better(pc, best)) best = pc;
    } else {
      a = c;
      c = d;
      pc = pd;
      d = a + INV_PHI * (b - a);
      pd = evaluate(ctx, cand, sla, d);
      if (better(pd, best)) best = pd;
    }
  }
  return { best, newton };
}

// ------------------------------------------------------------------ Algorithm 1

export interface MonkeyHolisticOptions {
  /**
   * Candidate size ratios: `'pages'` T = (N/B)^(1/Lc) (default; bottom level N/B pages, as Sec 4.5's
   * Tlim = N/B), or `'paper'` T = N^(1/Lc) as Algorithm 1 prints it (pitfall P4); Lc = 1..⌈log2(N/B)⌉.
   * T = 2 is always added; ratios below 2 are skipped.
   */
  sizeRatioRule?: 'pages' | 'paper';
  /** Explicit candidate size ratios (each ≥ 2), replacing the rule. */
  sizeRatios?: readonly number[];
  /** Policies to search (default both). */
  policies?: readonly Policy[];
}

export interface MonkeyHolisticCandidate {
  policy: Policy;
  sizeRatio: number;
  filterBytes: number;
  bufferBytes: number;
  filterBitsPerEntry: number;
  /** Algorithm 1's objective θ at this candidate's best split. */
  cost: number;
  pointLookup: number;
  update: number;
  rangeLookup: number;
  /** Continuous L(x) of the best split. */
  levels: number;
  /** Meets the SLA (always true without one). */
  feasible: boolean;
  /** Algorithm 5's answer before the safeguards, and its Newton steps. */
  newtonFilterBytes: number;
  newtonIterations: number;
}

export interface MonkeyHolisticResult {
  /** The chosen design, with Monkey's filter allocation. */
  design: Design;
  policy: Policy;
  sizeRatio: number;
  bufferBytes: number;
  filterBytes: number;
  filterBitsPerEntry: number;
  /** Algorithm 1's objective θ (closed-form model) of the chosen design. */
  objective: number;
  /** The chosen design on the exact model (`costs`). */
  costs: MonkeyCosts;
  /** Operations per second on the exact model, `costs.throughput`. */
  throughput: number;
  /** False when no candidate meets the SLA; the design then violates it least. */
  feasible: boolean;
  /** Every candidate searched, in search order. */
  candidates: MonkeyHolisticCandidate[];
}

function sizeRatioCandidates(ctx: Context, options: MonkeyHolisticOptions): number[] {
  if (options.sizeRatios !== undefined) {
    if (!Array.isArray(options.sizeRatios) || options.sizeRatios.length === 0) {
      throw new ModelInputError('options.sizeRatios', 'must be a non-empty array of numbers ≥ 2');
    }
    return options.sizeRatios.map((t, i) => requireNumber(`options.sizeRatios[${i}]`, t, 2, Infinity, { exclusiveMax: true }));
  }
  const rule = requireOneOf('options.sizeRatioRule', options.sizeRatioRule ?? 'pages', ['pages', 'paper'] as const);
  const base = rule === 'pages' ? ctx.n / ctx.b : ctx.n;
  const maxLevels = Math.max(1, Math.ceil(Math.log2(ctx.n / ctx.b)));
  const out: number[] = [];
  for (let lc = 1; lc <= maxLevels; lc++) {
    const t = Math.pow(base, 1 / lc);
    if (t >= 2) out.push(t);
  }
  if (!out.includes(2)) out.push(2);
  return out;
}

/**
 * Holistic design (Algorithm 1): for every candidate size ratio and policy, split `memoryBytes`
 * (buffer + filters, bytes) with Algorithm 5 (safeguarded, see `bestSplit`), evaluate Eq 23 and keep
 * the cheapest candidate that meets `sla`. Returns the design, its objective and its exact-model
 * costs, and every candidate for display.
 */
export function holisticDesign(
  dataset: Dataset,
  workload: Workload,
  hardware: Hardware,
  memoryBytes: number,
  sla: MonkeySla = {},
  options: MonkeyHolisticOptions = {},
): MonkeyHolisticResult {
  const ctx = context(dataset, workload, hardware, memoryBytes);
  if (typeof sla !== 'object' || sla === null) throw new ModelInputError('sla', 'must be an object');
  if (sla.maxLookupCost !== undefined) requireNumber('sla.maxLookupCost', sla.maxLookupCost, 0, Infinity, { exclusiveMin: true });
  if (sla.maxUpdateCost !== undefined) requireNumber('sla.maxUpdateCost', sla.maxUpdateCost, 0, Infinity, { exclusiveMin: true });
  const ratios = sizeRatioCandidates(ctx, options);
  const policies = options.policies ?? POLICIES;
  if (!Array.isArray(policies) || policies.length === 0) throw new ModelInputError('options.policies', 'must list "leveling" and/or "tiering"');
  policies.forEach((p, i) => requireOneOf(`options.policies[${i}]`, p, POLICIES));

  const candidates: MonkeyHolisticCandidate[] = [];
  let bestPoint: Point | undefined;
  let bestIndex = 0;
  for (const t of ratios) {
    for (const policy of policies) {
      const cand = makeCandidate(ctx, policy, t);
      const { best, newton } = bestSplit(ctx, cand, sla);
      const o = objectiveUnchecked(ctx, cand, best.x);
      candidates.push({
        policy,
        sizeRatio: t,
        filterBytes: best.x / 8,
        bufferBytes: (ctx.mhat - best.x) / 8,
        filterBitsPerEntry: best.x / ctx.n,
        cost: o.cost,
        pointLookup: o.pointLookup,
        update: o.update,
        rangeLookup: o.rangeLookup,
        levels: o.levels,
        feasible: best.violation === 0,
        newtonFilterBytes: newton.x / 8,
        newtonIterations: newton.iterations,
      });
      if (bestPoint === undefined || better(best, bestPoint)) {
        bestPoint = best;
        bestIndex = candidates.length - 1;
      }
    }
  }
  const chosen = candidates[bestIndex];
  const design: Design = {
    policy: chosen.policy,
    sizeRatio: chosen.sizeRatio,
    bufferBytes: chosen.bufferBytes,
    filterBitsPerEntry: chosen.filterBitsPerEntry,
    allocation: 'monkey',
  };
  const exact = costs(dataset, design, workload, hardware);
  return {
    design,
    policy: chosen.policy,
    sizeRatio: chosen.sizeRatio,
    bufferBytes: chosen.bufferBytes,
    filterBytes: chosen.filterBytes,
    filterBitsPerEntry: chosen.filterBitsPerEntry,
    objective: chosen.cost,
    costs: exact,
    throughput: exact.throughput,
    feasible: chosen.feasible,
    candidates,
  };
}

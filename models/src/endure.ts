/**
 * Robust tuning after Endure (Huynh, Chaudhari, Hosseini, Kennedy, Athanassoulis, Papon; VLDB 2022):
 * choose the design whose WORST expected cost over every workload within KL-divergence ρ of the
 * expected one is smallest, instead of the design that is best for the expected workload alone.
 *
 * A workload is a distribution w over the four operation classes Monkey prices — zero-result
 * point lookups (R), non-zero-result point lookups (V), range lookups (Q) and updates (W). For a
 * design with per-class costs c, the worst case over {w' : KL(w' ‖ w) ≤ ρ} is, by convex duality,
 *
 *     J(c) = min over λ > 0 of  λρ + λ · log Σᵢ wᵢ · exp(cᵢ / λ)
 *
 * (ρ = 0 gives Σ wᵢcᵢ, the nominal cost; ρ → ∞ gives the largest cᵢ with wᵢ > 0). The worst
 * workload is wᵢ' ∝ wᵢ · exp(cᵢ / λ*). The robust design minimises J over the holistic design space
 * (policy, size ratio, memory split); the nominal design minimises Σ wᵢcᵢ over the same candidates,
 * so ρ = 0 gives exactly the nominal design. Costs are Monkey's exact model (`costs`).
 */
import { costs, monkeyLevelsUnchecked } from './monkey';
import { holisticDesign } from './monkey-holistic';
import { mulberry32 } from './random';
import type { Dataset, Design, Hardware, Policy, Workload } from './types';
import { ModelInputError, requireNumber } from './validate';

/** Shares of the four operation classes, in this order: R, V, Q, W. */
export type ClassMix = readonly [zeroResult: number, nonZeroResult: number, range: number, update: number];
export const CLASS_NAMES = ['zero-result lookup', 'non-zero-result lookup', 'range lookup', 'update'] as const;

/** A Monkey workload as class shares. */
export function classMix(w: Workload): ClassMix {
  return [w.pointLookups * (1 - w.nonZeroFraction), w.pointLookups * w.nonZeroFraction, w.rangeLookups, w.updates];
}

/** Class shares back as a Monkey workload (range selectivity kept from `like`). */
export function workloadOf(mix: ClassMix, like: Workload): Workload {
  const point = mix[0] + mix[1];
  return {
    pointLookups: point,
    nonZeroFraction: point > 0 ? mix[1] / point : like.nonZeroFraction,
    rangeLookups: mix[2],
    updates: mix[3],
    rangeSelectivity: like.rangeSelectivity,
  };
}

/** KL(p ‖ q) in nats; +∞ if p puts weight where q has none. */
export function klDivergence(p: readonly number[], q: readonly number[]): number {
  let d = 0;
  for (let i = 0; i < p.length; i++) {
    if (p[i] <= 0) continue;
    if (q[i] <= 0) return Infinity;
    d += p[i] * Math.log(p[i] / q[i]);
  }
  return d;
}

function checkMix(name: string, w: readonly number[]): void {
  if (!Array.isArray(w) || w.length !== 4) throw new ModelInputError(name, 'must list four class shares (R, V, Q, W)');
  let sum = 0;
  w.forEach((x, i) => {
    requireNumber(`${name}[${i}]`, x, 0, 1);
    sum += x;
  });
  if (Math.abs(sum - 1) > 1e-9) throw new ModelInputError(name, `shares must sum to 1, got ${sum}`);
}

/** λρ + λ log Σ wᵢ exp(cᵢ/λ), computed without overflow. */
function dualObjective(c: readonly number[], w: ClassMix, rho: number, lambda: number): number {
  let top = -Infinity;
  for (let i = 0; i < 4; i++) if (w[i] > 0) top = Math.max(top, c[i]);
  let s = 0;
  for (let i = 0; i < 4; i++) if (w[i] > 0) s += w[i] * Math.exp((c[i] - top) / lambda);
  return lambda * rho + top + lambda * Math.log(s);
}

export interface WorstCase {
  /** J: the largest expected cost over the ρ-neighbourhood (I/O per operation). */
  cost: number;
  /** Σ wᵢcᵢ: the cost at the expected workload. */
  nominal: number;
  /** The minimising λ (∞ when ρ = 0 or every class costs the same). */
  lambda: number;
  /** The workload that attains it, wᵢ ∝ wᵢ exp(cᵢ/λ). */
  workload: ClassMix;
}

/**
 * The worst expected cost of per-class costs `c` over workloads within KL-divergence `rho` of `w`,
 * through the dual (a convex minimisation over log λ, golden-section to relative 1e-12).
 */
export function worstCase(c: readonly number[], w: ClassMix, rho: number): WorstCase {
  checkMix('w', w);
  if (!Array.isArray(c) || c.length !== 4) throw new ModelInputError('c', 'must list four class costs');
  c.forEach((x, i) => requireNumber(`c[${i}]`, x, 0, Infinity, { exclusiveMax: true }));
  requireNumber('rho', rho, 0, Infinity, { exclusiveMax: true });
  const nominal = w.reduce((s, wi, i) => s + wi * c[i], 0);
  const support = [0, 1, 2, 3].filter((i) => w[i] > 0);
  const spread = Math.max(...support.map((i) => c[i])) - Math.min(...support.map((i) => c[i]));
  if (rho === 0 || spread === 0) return { cost: nominal, nominal, lambda: Infinity, workload: [...w] as unknown as ClassMix };
  // λ between spread·1e-9 and spread·1e9 covers every ρ worth asking about (J is flat beyond).
  let lo = Math.log(spread * 1e-9);
  let hi = Math.log(spread * 1e9);
  const f = (x: number) => dualObjective(c, w, rho, Math.exp(x));
  const g = (Math.sqrt(5) - 1) / 2;
  let a = hi - g * (hi - lo);
  let b = lo + g * (hi - lo);
  let fa = f(a);
  let fb = f(b);
  for (let k = 0; k < 200 && hi - lo > 1e-12; k++) {
    if (fa < fb) {
      hi = b;
      b = a;
      fb = fa;
      a = hi - g * (hi - lo);
      fa = f(a);
    } else {
      lo = a;
      a = b;
      fa = fb;
      b = lo + g * (hi - lo);
      fb = f(b);
    }
  }
  const lambda = Math.exp((lo + hi) / 2);
  const cost = Math.min(f((lo + hi) / 2), Math.max(...support.map((i) => c[i])));
  const top = Math.max(...support.map((i) => c[i]));
  const weights = w.map((wi, i) => (wi > 0 ? wi * Math.exp((c[i] - top) / lambda) : 0));
  const total = weights.reduce((s, x) => s + x, 0);
  return { cost, nominal, lambda, workload: weights.map((x) => x / total) as unknown as ClassMix };
}

export interface TunedDesign {
  design: Design;
  /** Per-class costs R, V, Q, W (I/O per operation of that class). */
  classCosts: [number, number, number, number];
  /** The design's cost at the expected workload. */
  nominalCost: number;
  /** The design's worst expected cost within ρ. */
  worstCost: number;
  worstWorkload: ClassMix;
}

export interface RobustTuning {
  rho: number;
  /** Best at the expected workload (over the same candidates). */
  nominal: TunedDesign;
  /** Best in the worst case within ρ; the nominal design when ρ = 0. */
  robust: TunedDesign;
  /** What robustness costs at the expected workload: robust.nominalCost / nominal.nominalCost − 1. */
  expectedLoss: number;
  /** Designs searched. */
  candidates: number;
}

export interface RobustOptions {
  /** Filter-memory shares of the memory budget to try per (policy, T), besides the holistic one (default 48). */
  splits?: number;
  /** Policies to search (default both). */
  policies?: readonly Policy[];
  /** Most filter bits per entry a design may have: what the target can express (the engine: 64). */
  maxBitsPerEntry?: number;
  /** More designs to consider, e.g. the current one, so the choice is never predicted worse than it. */
  extraCandidates?: readonly Design[];
  /** Keep only the designs this accepts (e.g. those whose tree the model prices as the engine builds it). */
  accept?: (design: Design) => boolean;
}

/**
 * Endure's robust tuning over Monkey's design space. Candidates: each policy × the holistic
 * search's size ratios × `splits` memory splits (filters from 0 to all but one page of buffer),
 * plus the holistic design itself. Returns the nominal and the robust choice, each with its
 * costs at the expected workload and in the worst case within `rho`.
 */
export function robustTuning(
  dataset: Dataset,
  workload: Workload,
  hardware: Hardware,
  memoryBytes: number,
  rho: number,
  options: RobustOptions = {},
): RobustTuning {
  requireNumber('rho', rho, 0, Infinity, { exclusiveMax: true });
  const splits = requireNumber('options.splits', options.splits ?? 48, 2, 10_000, { integer: true });
  const w = classMix(workload);
  const holistic = holisticDesign(dataset, workload, hardware, memoryBytes, {}, { policies: options.policies });
  const ratios = [...new Set(holistic.candidates.map((c) => c.sizeRatio))];
  const policies = options.policies ?? (['leveling', 'tiering'] as const);
  const maxBits = requireNumber('options.maxBitsPerEntry', options.maxBitsPerEntry ?? Infinity, 0, Infinity);
  const designs: Design[] = holistic.design.filterBitsPerEntry <= maxBits ? [holistic.design] : [];
  const minBuffer = dataset.pageBytes;
  for (const policy of policies) {
    for (const sizeRatio of ratios) {
      for (let k = 0; k < splits; k++) {
        const filterBytes = Math.min(((memoryBytes - minBuffer) * k) / (splits - 1), (maxBits * dataset.entries) / 8);
        const bufferBytes = memoryBytes - filterBytes;
        // A buffer that leaves no level below it is outside Monkey's model.
        if (monkeyLevelsUnchecked(dataset.entries, dataset.entryBytes, bufferBytes, sizeRatio) < 1) continue;
        designs.push({ policy, sizeRatio, bufferBytes, filterBitsPerEntry: (filterBytes * 8) / dataset.entries, allocation: 'monkey' });
      }
    }
  }
  for (const d of options.extraCandidates ?? []) if (d.filterBitsPerEntry <= maxBits) designs.push(d);
  const accepted = options.accept ? designs.filter(options.accept) : designs;
  if (accepted.length === 0) throw new ModelInputError('memoryBytes', 'leaves no design in the model’s ranges');
  const tuned = accepted.flatMap((design): TunedDesign[] => {
    let k;
    try {
      k = costs(dataset, design, workload, hardware);
    } catch (err) {
      if (err instanceof ModelInputError) return []; // outside the model's ranges (e.g. T above its limit)
      throw err;
    }
    const classCosts: [number, number, number, number] = [k.zeroResultLookup, k.nonZeroResultLookup, k.rangeLookup, k.update];
    const worst = worstCase(classCosts, w, rho);
    return [{ design, classCosts, nominalCost: worst.nominal, worstCost: worst.cost, worstWorkload: worst.workload }];
  });
  const argmin = (key: (t: TunedDesign) => number) => tuned.reduce((best, t) => (key(t) < key(best) ? t : best));
  const nominal = argmin((t) => t.nominalCost);
  const robust = rho === 0 ? nominal : argmin((t) => t.worstCost);
  return { rho, nominal, robust, expectedLoss: robust.nominalCost / nominal.nominalCost - 1, candidates: tuned.length };
}

/**
 * `count` workloads from the ρ-neighbourhood of `w` (KL(w' ‖ w) ≤ ρ), for the distribution chart:
 * random directions from w, each scaled by a random fraction of the way to the KL boundary.
 * Deterministic for a seed (`mulberry32`).
 */
export function sampleNeighbourhood(w: ClassMix, rho: number, count: number, seed = 1): ClassMix[] {
  checkMix('w', w);
  requireNumber('rho', rho, 0, Infinity, { exclusiveMax: true });
  requireNumber('count', count, 1, 1_000_000, { integer: true });
  const random = mulberry32(seed);
  const out: ClassMix[] = [];
  for (let n = 0; n < count; n++) {
    // A random point of the simplex, then the segment from w towards it up to the KL ball's edge.
    const e = [0, 1, 2, 3].map(() => -Math.log(1 - random()));
    const s = e.reduce((a, b) => a + b, 0);
    const target = e.map((x) => x / s);
    const at = (t: number) => w.map((wi, i) => (1 - t) * wi + t * target[i]);
    let lo = 0;
    let hi = 1;
    if (klDivergence(at(1), w) > rho) {
      for (let k = 0; k < 60; k++) {
        const mid = (lo + hi) / 2;
        if (klDivergence(at(mid), w) <= rho) lo = mid;
        else hi = mid;
      }
    } else {
      lo = 1;
    }
    out.push(at(lo * random()) as unknown as ClassMix);
  }
  return out;
}

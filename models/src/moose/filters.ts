/** Moose filter memory: the generalised Monkey split of Bloom-filter bits over levels (Eq.10). */
import { LN2_SQ, bitsPerKeyFromFpr } from '../bloom';
import type { Dataset } from '../types';
import { ModelInputError, requireNumber } from '../validate';
import { geometry } from './capacities';
import { MAX_LEVELS, MAX_MEMORY_BITS_PER_ENTRY, checkEnv, checkMemoryBits } from './checks';
import type { MooseOptions, MooseShapeLevel } from './types';

// ---------------------------------------------------------------------------------------------
// Filters: the generalised Monkey split (reference §2.6)

/**
 * FPRs p_i minimising Σ n_i p_i for `memoryBits` of filter memory spread over levels with
 * `capacities` (entries; any unit works, the split is scale-free) and `runs` (> 0, real values
 * allowed for the continuous analysis). Optimum p_i = λ·N_i/n_i (Eq.10); levels whose p would
 * reach 1 — the largest runs — get no filter and λ is re-solved over the rest (§2.6 clamping).
 */
export function mooseOptimalFprs(capacities: readonly number[], runs: readonly number[], memoryBits: number): number[] {
  const L = capacities.length;
  if (L < 1 || L > MAX_LEVELS) {
    throw new ModelInputError('capacities', `must list between 1 and ${MAX_LEVELS} levels, got ${L}`);
  }
  if (runs.length !== L) throw new ModelInputError('runs', `must have one entry per level (${L}), got ${runs.length}`);
  let total = 0;
  for (let i = 0; i < L; i++) {
    total += requireNumber(`capacities[${i}]`, capacities[i], 0, Infinity, { exclusiveMin: true });
    requireNumber(`runs[${i}]`, runs[i], 0, Infinity, { exclusiveMin: true });
  }
  requireNumber('memoryBits', memoryBits, 0, MAX_MEMORY_BITS_PER_ENTRY * total);
  return optimalFprs(capacities, runs, memoryBits);
}

export function optimalFprs(caps: readonly number[], runs: readonly number[], memoryBits: number): number[] {
  const L = caps.length;
  const lnRunSize = caps.map((c, i) => Math.log(c / runs[i]));
  const active = new Array<boolean>(L).fill(true);
  const p = new Array<number>(L).fill(1);
  for (;;) {
    let W = 0;
    let S = 0;
    for (let i = 0; i < L; i++) {
      if (active[i]) {
        W += caps[i];
        S += caps[i] * lnRunSize[i];
      }
    }
    if (W === 0) return p.fill(1);
    const lnLambda = -(memoryBits * LN2_SQ + S) / W;
    let worst = -1;
    for (let i = 0; i < L; i++) {
      if (!active[i]) continue;
      p[i] = Math.exp(lnLambda + lnRunSize[i]);
      if (p[i] >= 1 && (worst < 0 || lnRunSize[i] > lnRunSize[worst])) worst = i;
    }
    if (worst < 0) return p;
    active[worst] = false;
    p[worst] = 1;
  }
}

export function bitsFromFpr(p: number): number {
  return p >= 1 ? 0 : bitsPerKeyFromFpr(p);
}

/**
 * The optimal bits per entry of each level of a layout for a total filter budget of
 * `memoryBytes` (≥ 0, at most 64 bytes per entry). Uses the levels' actual contents (the last
 * level holds the remainder) and run counts; levels that get no filter return 0.
 */
export function mooseOptimalBitsPerEntry(
  dataset: Dataset,
  levels: readonly MooseShapeLevel[],
  memoryBytes: number,
  options: MooseOptions = {},
): number[] {
  const env = checkEnv(dataset, options);
  const g = geometry(env, levels);
  const bits = checkMemoryBits('memoryBytes', memoryBytes, env.entries);
  return optimalFprs(g.entries, g.runs, bits).map(bitsFromFpr);
}

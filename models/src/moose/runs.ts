/** Moose run counts n_i = k·√r_i: the rounding rule, the k breakpoints and the distinct run vectors. */
import { requireNumber } from '../validate';
import { EPS, MAX_RATIO, POSITIVE, checkVectors, floorRatio } from './checks';

// ---------------------------------------------------------------------------------------------
// Run counts n_i = k·√r_i

/** n_i = round-half-up(k·√r_i) clamped to [1, floor(r_i)] (reference §3.3 rounding rule). */
export function mooseRuns(sizeRatios: readonly number[], k: number): number[] {
  checkVectors({ sizeRatios }, { sizeRatios: POSITIVE });
  requireNumber('k', k, 0, Infinity);
  return sizeRatios.map((r) => runsFor(r, k));
}

export function runsFor(r: number, k: number): number {
  const n = Math.floor(k * Math.sqrt(r) + 0.5);
  return Math.max(1, Math.min(n, floorRatio(r)));
}

/** Every k at which some round(k·√r_i) changes: (m + ½)/√r_i for m = 0..floor(r_i), sorted. */
export function mooseKBreakpoints(sizeRatios: readonly number[]): number[] {
  checkVectors({ sizeRatios }, { sizeRatios: [0, MAX_RATIO, true] });
  const ks = new Set<number>();
  for (const r of sizeRatios) {
    const top = Math.floor(r + EPS);
    for (let m = 0; m <= top; m++) ks.add((m + 0.5) / Math.sqrt(r));
  }
  return [...ks].sort((a, b) => a - b);
}

/**
 * The distinct run vectors along the RU-curve of fixed ratios, in increasing k: each with the
 * smallest k that produces it (k → 0 gives all ones, the largest k gives n_i = floor(r_i)).
 */
export function mooseRunVectors(sizeRatios: readonly number[]): { k: number; runs: number[] }[] {
  const out: { k: number; runs: number[] }[] = [];
  const seen = new Set<string>();
  for (const kb of [1e-9, ...mooseKBreakpoints(sizeRatios).map((b) => b * (1 + 1e-9))]) {
    const runs = sizeRatios.map((r) => runsFor(r, kb));
    const key = runs.join(',');
    if (!seen.has(key)) {
      seen.add(key);
      out.push({ k: kb, runs });
    }
  }
  return out;
}

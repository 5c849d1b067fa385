/** Shared distributions and tolerance helpers of the MSLS tests. */
import { expect } from 'vitest';
import type { MslsDistribution, MslsLevelParams } from '../src/msls';

// Vectors: msls.md §5–§6 and msls-vectors.py (the reference implementation), copied here.
export const U: MslsDistribution = { kind: 'uniform' };
export const zipf = (theta: number): MslsDistribution => ({ kind: 'zipf', theta });
export const Z99 = zipf(0.99);
export const MiB = 2 ** 20;
export const N20 = 2 ** 20;

/** |actual − expected| ≤ abs. */
export function near(actual: number, expected: number, abs: number): void {
  expect(Math.abs(actual - expected), `${actual} vs ${expected} (abs ${abs})`).toBeLessThanOrEqual(abs);
}
/** |actual/expected − 1| ≤ rel. */
export function rel(actual: number, expected: number, tol: number): void {
  expect(Math.abs(actual / expected - 1), `${actual} vs ${expected} (rel ${tol})`).toBeLessThanOrEqual(tol);
}

export const DEFAULT_1E8: MslsLevelParams = { keySpace: 1e8 };

/** Shared data sets, designs and tolerance helpers of the Monkey tests. */
import { expect } from 'vitest';
import type { MonkeyRun } from '../src/monkey';
import type { MonkeyShape } from '../src/monkey-closed-form';
import type { Dataset, Design, Hardware, Policy, Workload } from '../src/types';

// Vectors: reference monkey.md §6 (monkey-vectors.py prints 6 significant digits, "%.6g"). Unless a
// test says otherwise, printed values are checked with relative tolerance 6e-6 (half a unit in the
// sixth digit, at most 5e-6 of the value) — `sig6`.

export const SIG6 = 6e-6;
const rel = (a: number, b: number): number => (b === 0 ? Math.abs(a) : Math.abs(a - b) / Math.abs(b));
export function near(actual: number, expected: number, tol = SIG6, what = ''): void {
  expect(rel(actual, expected), `${what} actual ${actual} expected ${expected}`).toBeLessThanOrEqual(tol);
}
export function nearAll(actual: readonly number[], expected: readonly number[], tol = SIG6, what = ''): void {
  expect(actual.length, what).toBe(expected.length);
  actual.forEach((a, i) => near(a, expected[i], tol, `${what}[${i}]`));
}
export const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

export const MIB = 2 ** 20;
export const GIB = 2 ** 30;
export const N20 = 2 ** 20;
export const N35 = 2 ** 35;
/** The paper's experimental data: 2^20 entries of 1 KiB, 16 KiB pages (B = 16), 1 MiB buffer. */
export const DS20: Dataset = { entries: N20, entryBytes: 1024, pageBytes: 16384 };
/** Fig 7's data set: 2^35 entries of 16 B; 4 KiB pages (B = 256) where a page size is needed. */
export const DS35: Dataset = { entries: N35, entryBytes: 16, pageBytes: 4096 };
export const HW: Hardware = { writeReadCostRatio: 1, pageReadSeconds: 1e-4 };
export const ZERO_ONLY: Workload = { pointLookups: 1, nonZeroFraction: 0, rangeLookups: 0, updates: 0, rangeSelectivity: 0 };

export function design(policy: Policy, sizeRatio: number, bufferBytes: number, bits: number, allocation: 'monkey' | 'uniform' = 'monkey'): Design {
  return { policy, sizeRatio, bufferBytes, filterBitsPerEntry: bits, allocation };
}
export const shape = (policy: Policy, sizeRatio: number, levels: number): MonkeyShape => ({ policy, sizeRatio, levels });
/** Paper level sizes n_i = N(T−1)/T^(L−i+1) as allocator runs. */
export function levelRuns(n: number, t: number, l: number, weights?: number[]): MonkeyRun[] {
  return Array.from({ length: l }, (_, k) => ({ entries: (n * (t - 1)) / Math.pow(t, l - k), weight: weights?.[k] ?? 1 }));
}

/** Shared vectors and helpers of the Moose and Smoose tests. */
import { expect } from 'vitest';
import type { Dataset, Workload } from '../src/types';
import type { MooseLevel } from '../src/moose';

// ─────────────────────────────────────────────────────────────────────────── vectors
// test/vectors/moose.json holds the output of the reference python of moose.md §7.1/§7.2
// (worked_examples.py, plus dp_exact / dp_weighted on extra cases), in full precision. The
// reference prints them rounded (§7.3); closed-form values are compared at rel 1e-9, DP outputs
// (capacities, run counts) exactly.
interface Full {
  capsOverF: number[];
  ratios: number[];
  runs: number[];
  fprs: number[];
  bitsPerEntry: number[];
  Z0: number;
  Z0uniform: number;
  Z1worst: number;
  R: number;
  U: number;
  RU: number;
  A: number;
  RUbound: number;
  SA: number;
}
interface Vectors {
  E1: { leveling10: Full; tiering4: Full; lazyLeveling10: Full };
  E2: { moose: Full & { dpA: number }; literal: Full & { reported: number } };
  E3: { k: number; runs: number[]; R: number; U: number; RU: number; Z0: number; SA: number }[];
  E4: Record<
    string,
    {
      mix: number[];
      sumSqrt: { NL: number; capsOverF: number[]; runs: number[]; R: number; U: number; Z0: number; J: number };
      wa: { NL: number; capsOverF: number[]; runs: number[]; J: number };
    }
  >;
  E4continuous: Record<string, { NL: number; k: number; J: number; ratios: number[]; A: number; Z1: number }>;
  E5: { k: number; numeric: number; eq11: number; R: number; U: number }[];
  E6: {
    frac: number;
    NL: number;
    caps: number[];
    ratios: number[];
    runs: number[];
    R: number;
    U: number;
    Z0: number;
    A: number;
    J: Record<string, number>;
  }[];
  dp: {
    sqrt256: { NL: number; caps: number[]; A: number }[];
    sqrt12000: { NL: number; caps: number[]; A: number }[];
    wa12000: { w: string; k: number; NL: number; caps: number[]; cost: number }[];
  };
}
// A non-literal specifier keeps tsc from needing resolveJsonModule; Vitest resolves it relative to this file.
const vectorsPath = './vectors/moose.json';
export const V = ((await import(vectorsPath)) as { default: Vectors }).default;

// ─────────────────────────────────────────────────────────────────────────── helpers
export const N = 2 ** 24;
export const F = 2 ** 16;
/** The reference's setting: N = 2^24, F = 2^16, B = 4 (1 KiB entries, 4 KiB pages), 10 bits/key. */
export const DS: Dataset = { entries: N, entryBytes: 1024, pageBytes: 4096 };
export const OPT = { bufferBytes: F * 1024 };
export const MEM10 = (10 * N) / 8;
/** Paper scale (E6, §6.1): N/F = 12 000, B = 4, 5 bits/key. */
export const DS12K: Dataset = { entries: 12_000_000, entryBytes: 1, pageBytes: 4 };
export const OPT12K = { bufferBytes: 1000 };
export const MEM12K = (5 * 12_000_000) / 8;

export const MIXES: Record<string, [number, number, number]> = {
  A: [98, 1, 1],
  B: [1, 98, 1],
  C: [1, 1, 98],
  D: [49, 2, 49],
  E: [2, 49, 49],
  F: [49, 49, 2],
  G: [40, 40, 20],
  H: [40, 20, 40],
  I: [20, 40, 40],
  J: [33, 33, 33],
};
/**
 * Workload of a (range, update, point) mix in %. The reference's J is 33/33/33 (sums to 0.99); we
 * use thirds and compare J_ref = 0.99 · J (the argmin is unchanged by the scale).
 */
export function mix(name: string, nonZeroFraction = 0): { w: Workload; scale: number } {
  const [s, u, z] = MIXES[name];
  const total = s + u + z;
  return {
    w: { pointLookups: z / total, rangeLookups: s / total, updates: u / total, nonZeroFraction, rangeSelectivity: 0 },
    scale: total / 100,
  };
}
export const POINTS: Workload = { pointLookups: 1, nonZeroFraction: 0, rangeLookups: 0, updates: 0, rangeSelectivity: 0 };

function rel(a: number, b: number): number {
  return Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);
}
export function expectRel(actual: number, expected: number, tol: number): void {
  expect(rel(actual, expected), `${actual} vs ${expected}`).toBeLessThanOrEqual(tol);
}
export function expectAllRel(actual: readonly number[], expected: readonly number[], tol: number): void {
  expect(actual.length).toBe(expected.length);
  actual.forEach((a, i) => expectRel(a, expected[i], tol));
}
export function layoutFrom(ratios: readonly number[], runs: readonly number[], bits: readonly number[]): MooseLevel[] {
  return ratios.map((r, i) => ({ sizeRatio: r, runs: runs[i], bitsPerEntry: bits[i] }));
}

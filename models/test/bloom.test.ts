import { describe, expect, it } from 'vitest';
import {
  bitsPerKeyFromFpr,
  filterFpr,
  fprFromBitsPerKey,
  fprWithHashes,
  ModelInputError,
  optimalHashCount,
} from '../src';

// Vector: mnemosyne-shamba.md §0, eps(b) for b = 1..12, printed to 6 decimals.
const EPS_TABLE = [
  0.618503, 0.382546, 0.236606, 0.146342, 0.090513, 0.055982, 0.034625, 0.021416, 0.013246, 0.008193,
  0.005067, 0.003134,
];

describe('bloom', () => {
  it('ideal-k FPR matches the reference table (abs tol 5e-7, the print precision)', () => {
    EPS_TABLE.forEach((eps, i) => expect(Math.abs(fprFromBitsPerKey(i + 1) - eps)).toBeLessThan(5e-7));
  });

  it('bits per key is the inverse of FPR (rel tol 1e-12)', () => {
    for (const b of [0.5, 1, 5, 10, 23.7]) {
      expect(bitsPerKeyFromFpr(fprFromBitsPerKey(b))).toBeCloseTo(b, 10);
    }
  });

  it('integer hash count rounds b·ln2 (b = 10 → 7, as SHaMBa states)', () => {
    expect(optimalHashCount(10)).toBe(7);
    expect(optimalHashCount(5)).toBe(3);
    expect(optimalHashCount(2)).toBe(1);
    expect(optimalHashCount(0)).toBe(0);
  });

  it('integer-k FPR is slightly above ideal-k FPR and equals the concrete-filter formula', () => {
    expect(fprWithHashes(10, 7)).toBeCloseTo(0.008194, 6);
    expect(fprWithHashes(10, 7)).toBeGreaterThanOrEqual(fprFromBitsPerKey(10));
    expect(filterFpr(1_000_000, 7, 100_000)).toBeCloseTo(fprWithHashes(10, 7), 12);
  });

  it('rejects bad input naming the field and range', () => {
    expect(() => fprFromBitsPerKey(-1)).toThrow(ModelInputError);
    expect(() => fprFromBitsPerKey(Number.NaN)).toThrow('bitsPerKey: must be a number in [0, ∞), got NaN');
    expect(() => bitsPerKeyFromFpr(0)).toThrow('fpr: must be a number in (0, 1], got 0');
  });
});

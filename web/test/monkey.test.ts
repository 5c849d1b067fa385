import { describe, expect, it } from 'vitest';
import { costs, filterFprs, memoryThresholdBitsPerEntry } from '@lsm/models';
import { runSweep } from '../src/compute/sweeps';
import {
  argMin,
  bufferSweep,
  closedFormDiffers,
  currentView,
  DATA_SIZE_GRID,
  dataSizeSweep,
  memorySweep,
  mixSweep,
  UNIT_HARDWARE,
  ZERO_RESULT_WORKLOAD,
  type MonkeyPageDesign,
} from '../src/compute/sweeps/monkey';
import { datasetProblem } from '../src/documents/params/dataset';
import { monkeyPageHash, monkeyUrl } from '../src/documents/urls/monkey';
import { decodeQuery } from '../src/documents/url/codec';

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;
/** Monkey Fig 7's data set (reference V4). */
const FIG7 = { entries: 2 ** 35, entryBytes: 16, pageBytes: 4096 };
const fig7Shape = { policy: 'leveling' as const, sizeRatio: 4, bufferBytes: 2 * MIB };

describe('Fig 7 sweep (reference V4)', () => {
  const lev = memorySweep({ dataset: FIG7, design: fig7Shape, maxBitsPerEntry: 10, points: 41 });
  const tier = memorySweep({ dataset: FIG7, design: { ...fig7Shape, policy: 'tiering' }, maxBitsPerEntry: 10, points: 41 });
  const at = (bits: number) => lev.bits.indexOf(bits);

  it('starts at L runs (L·(T−1) with tiering) for both allocations', () => {
    expect(lev.levels[0]).toBe(9);
    expect([lev.monkey[0], lev.uniform[0], lev.monkeyEq7[0]]).toEqual([9, 9, 9]);
    expect([tier.monkey[0], tier.uniform[0]]).toEqual([27, 27]);
  });

  it('matches Eq 56 and Eq 7 at 1, 2.5 and 5 bits per entry', () => {
    expect(lev.uniform[at(1)]).toBeCloseTo(5.56653, 4);
    expect(lev.monkeyEq7[at(1)]).toBeCloseTo(1.30908, 4);
    expect(lev.uniform[at(2.5)]).toBeCloseTo(2.70768, 4);
    expect(lev.monkeyEq7[at(5)]).toBeCloseTo(0.191573, 5);
    expect(tier.uniform[at(5)]).toBeCloseTo(2.44384, 4);
    expect(tier.monkeyEq7[at(5)]).toBeCloseTo(0.57472, 4);
  });

  it('is the exact model point by point, and flags only the closed form that differs', () => {
    const d = { ...fig7Shape, filterBitsPerEntry: 5 };
    expect(lev.monkey[at(5)]).toBe(costs(FIG7, { ...d, allocation: 'monkey' }, ZERO_RESULT_WORKLOAD, UNIT_HARDWARE).zeroResultLookup);
    expect(lev.uniform[at(5)]).toBe(costs(FIG7, { ...d, allocation: 'uniform' }, ZERO_RESULT_WORKLOAD, UNIT_HARDWARE).zeroResultLookup);
    // At L = 9 the exact optimum sits within 0.1% of the infinite-level Eq 7.
    expect(Math.abs(lev.monkey[at(5)] / lev.monkeyEq7[at(5)] - 1)).toBeLessThan(1e-3);
    expect(lev.monkeyDiffers).toBe(true);
    expect(lev.uniformDiffers).toBe(false);
  });

  it('is registered for the worker', () => {
    expect(runSweep('monkey.memory', { dataset: FIG7, design: fig7Shape, maxBitsPerEntry: 10, points: 41 })).toEqual(lev);
  });
});

describe('data-size sweep (reference V15, Fig 12(A))', () => {
  const design: MonkeyPageDesign = { policy: 'leveling', sizeRatio: 2, bufferBytes: MIB, filterBitsPerEntry: 5 };
  const r = dataSizeSweep({ dataset: { entryBytes: 1024, pageBytes: 4096 }, design });
  const at = (n: number) => r.entries.indexOf(n);

  it('doubles N every two points, exactly through the powers of two', () => {
    expect(r.entries).toEqual([...DATA_SIZE_GRID]);
    expect(at(2 ** 12)).toBeGreaterThan(0);
    expect(at(2 ** 20)).toBeGreaterThan(0);
  });

  it('grows the baseline with L and keeps Monkey flat', () => {
    expect(r.levels[at(2 ** 12)]).toBe(1);
    expect(r.levels[at(2 ** 20)]).toBe(9);
    expect(r.uniform[at(2 ** 12)]).toBeCloseTo(0.0905127, 6);
    expect(r.uniform[at(2 ** 20)]).toBeCloseTo(0.814614, 5);
    expect(r.uniform[at(2 ** 22)]).toBeCloseTo(0.99564, 5);
    expect(r.monkey[at(2 ** 12)]).toBeCloseTo(0.0905127, 6);
    expect(r.monkey[at(2 ** 20)]).toBeCloseTo(0.356959, 5);
    expect(r.monkeyEq7[at(2 ** 14)]).toBeCloseTo(0.362051, 5);
    expect(r.monkeyEq7[at(2 ** 22)]).toBeCloseTo(0.362051, 5);
  });
});

describe('buffer sweep at fixed memory (Fig 9, reference V16)', () => {
  const design: MonkeyPageDesign = { ...fig7Shape, filterBitsPerEntry: 5 };
  const r = bufferSweep({ dataset: FIG7, design, points: 81 });

  it('runs from one page to all of the memory and passes through the current buffer', () => {
    expect(r.totalBytes).toBe(2 * MIB + 20 * GIB);
    expect(r.buffer[0]).toBe(4096);
    expect(r.buffer[r.buffer.length - 1]).toBeCloseTo(r.totalBytes, 0);
    expect(r.buffer).toContain(2 * MIB);
    expect(r.filterBitsPerEntry[r.buffer.indexOf(2 * MIB)]).toBeCloseTo(5, 12);
  });

  it('puts the baseline’s sweet spot near 1 GiB and leaves Monkey best with the smallest buffer', () => {
    expect(r.levels[0]).toBe(14);
    expect(r.uniformEq56[0]).toBeCloseTo(1.2672, 2);
    expect(r.monkeyEq7[0]).toBeCloseTo(0.1916, 3);
    expect(r.buffer[r.uniformBest]).toBeGreaterThan(256 * MIB);
    expect(r.buffer[r.uniformBest]).toBeLessThan(4 * GIB);
    expect(r.monkeyBest).toBe(0);
    expect(r.update[0]).toBeGreaterThan(r.update[r.update.length - 1]);
  });

  it('refuses a memory smaller than one page', () => {
    expect(() => bufferSweep({ dataset: FIG7, design: { ...design, bufferBytes: 100, filterBitsPerEntry: 0 }, points: 5 })).toThrow(/one page/);
  });
});

describe('lookup-mix sweep (Sec 4.4, reference V6)', () => {
  // T = 2, L = 10: N·E/Mbuf = 2^11.
  const dataset = { entries: 2 ** 20, entryBytes: 1024, pageBytes: 4096 };
  const design: MonkeyPageDesign = { policy: 'leveling', sizeRatio: 2, bufferBytes: 512 * 1024, filterBitsPerEntry: 5 };
  const r = mixSweep({ dataset, design, points: 101 });

  it('reproduces the paper’s closed forms at v = 1', () => {
    expect(r.share[50]).toBe(0.5);
    expect(r.uniformEq[50]).toBeCloseTo(1.35987, 5);
    expect(r.zeroEq[50]).toBeCloseTo(0.771538, 5);
    expect(r.generalEq[50]).toBeCloseTo(0.756009, 5);
  });

  it('evaluates each allocation on the exact tree; tuning for the mix never loses', () => {
    const fprs = filterFprs(dataset, { ...design, allocation: 'monkey' });
    expect(r.zero[0]).toBeCloseTo(fprs.reduce((a, b) => a + b, 0), 14);
    expect(r.general[0]).toBeCloseTo(r.zero[0], 14);
    r.share.forEach((_, i) => expect(r.general[i]).toBeLessThanOrEqual(r.zero[i] + 1e-12));
    r.share.forEach((_, i) => expect(r.zero[i]).toBeLessThan(r.uniform[i]));
    expect(r.uniformDiffers).toBe(false);
  });
});

describe('current setting (reference V1)', () => {
  const v = currentView({
    dataset: { entries: 2 ** 20, entryBytes: 1024, pageBytes: 16384 },
    design: { policy: 'leveling', sizeRatio: 10, bufferBytes: MIB, filterBitsPerEntry: 10 },
    nonZeroFraction: 0,
  });

  it('has three levels, the closed forms of V1 and the threshold of Eq 8', () => {
    expect(v.levels).toBe(3);
    expect(v.closedForm.monkeyR).toBeCloseTo(0.0117568, 7);
    expect(v.closedForm.uniformR).toBeCloseTo(0.0245776, 7);
    expect(v.exact.uniformR).toBeCloseTo(0.0245776, 7);
    expect(v.thresholdBitsPerEntry).toBe(memoryThresholdBitsPerEntry(10));
    expect(v.thresholdBitsPerEntry).toBeCloseTo(0.532503, 6);
    expect(v.closedForm.unfilteredLevels).toBe(0);
    expect(v.exact.unfilteredLevels).toBe(0);
  });

  it('spends the same bits in both allocations, Monkey’s on the small levels', () => {
    const stored = v.rows.reduce((a, r) => a + r.entries, 0);
    const avg = (k: 'uniformBits' | 'monkeyBits') => v.rows.reduce((a, r) => a + r.entries * r[k], 0) / stored;
    expect(avg('uniformBits')).toBeCloseTo(10, 10);
    expect(avg('monkeyBits')).toBeCloseTo(10, 10);
    expect(v.rows[0].monkeyBits).toBeGreaterThan(v.rows[2].monkeyBits);
    // Each level's FPR is T times the one above.
    expect(v.rows[1].monkeyFpr / v.rows[0].monkeyFpr).toBeCloseTo(10, 10);
    // Eq 5 at Eq 7's R (V1: 1.05811e-4, 1.05811e-3, 1.05811e-2).
    expect(v.rows.map((r) => r.closedFormFpr)).toEqual([
      expect.closeTo(1.05811e-4, 9),
      expect.closeTo(1.05811e-3, 8),
      expect.closeTo(1.05811e-2, 7),
    ]);
  });
});

describe('page helpers', () => {
  it('explains a page smaller than an entry', () => {
    expect(datasetProblem({ entries: 1e6, entryBytes: 8192, pageBytes: 4096 })).toMatch(/at least the entry size \(8192 bytes\)/);
    expect(datasetProblem({ entries: 1e6, entryBytes: 16, pageBytes: 4096 })).toBeNull();
  });

  it('finds minima and real differences', () => {
    expect(argMin([3, 1, 2, 1])).toBe(1);
    expect(closedFormDiffers([1, 2], [1, 2 + 1e-12])).toBe(false);
    expect(closedFormDiffers([1, 2], [1, 2.001])).toBe(true);
  });

  it('links to an exact state, non-integer size ratios included', () => {
    const state = { entries: 2 ** 35, entryBytes: 16, pageBytes: 4096, sizeRatio: 6.4987, policy: 'tier' as const, bits: 4.8216, bufferMiB: 722.1953125, nonZeroPercent: 20 };
    const hash = monkeyPageHash(state);
    expect(hash).toBe('#/monkey?v=1&N=34359738368&E=16&pg=4096&T=6.4987&pol=tier&b=4.8216&buf=722.1953125&nz=20');
    const back = decodeQuery(monkeyUrl, hash.split('?')[1]);
    expect(back.notices).toEqual([]);
    expect(back.state).toEqual(state);
  });
});

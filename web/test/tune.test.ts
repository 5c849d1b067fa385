import { describe, expect, it } from 'vitest';
import { NEIGHBOUR_SAMPLES, tuneRecommend } from '../src/compute/sweeps/tune';

// RocksDB-like current design (leveling T = 10, 10 bits/key, 64 MiB buffer) on 10M records of 1 KiB, YCSB B.
const args = {
  dataset: { entries: 10_000_000, entryBytes: 1023, pageBytes: 4096 },
  workload: { pointLookups: 0.95, nonZeroFraction: 1, rangeLookups: 0, updates: 0.05, rangeSelectivity: 0 },
  memoryBytes: 64 * 2 ** 20 + (10 * 10_000_000) / 8,
  current: { policy: 'leveling' as const, sizeRatio: 10, bufferBytes: 64 * 2 ** 20, filterBitsPerEntry: 10, allocation: 'uniform' as const },
};

describe('the Tune page’s recommendation', () => {
  it('is never predicted worse than the current design, and ρ = 0 gives the nominal design', () => {
    const v = tuneRecommend({ ...args, rho: 0 });
    expect(v.nominal.expected).toBeLessThanOrEqual(v.current.expected);
    expect(v.robust).toEqual(v.nominal);
    expect(v.sampled.current).toHaveLength(NEIGHBOUR_SAMPLES);
    expect(v.nominal.design.filterBitsPerEntry).toBeLessThanOrEqual(64);
  });

  it('robust: a worst case within ρ no higher than the nominal design’s, over sorted samples that stay below it', () => {
    const v = tuneRecommend({ ...args, rho: 1 });
    expect(v.robust.worst).toBeLessThanOrEqual(v.nominal.worst + 1e-12);
    const robust = v.sampled.robust;
    expect(robust.every((x, i) => i === 0 || robust[i - 1] <= x)).toBe(true);
    expect(robust[robust.length - 1]).toBeLessThanOrEqual(v.robust.worst + 1e-9);
  });
});

describe('which designs the tuner may recommend', () => {
  it('counts levels as the engine builds them, and keeps to designs Monkey’s count agrees with', async () => {
    const { engineLevelCount, priceable } = await import('../src/compute/sweeps/tune');
    const ds = { entries: 200_000, entryBytes: 1023, pageBytes: 4096 };
    // 195 MiB of data over a 64 MiB buffer: T = 2 needs 128 + 256 MiB, two levels; T = 10 one.
    expect(engineLevelCount(ds, 64 * 2 ** 20, 2)).toBe(2);
    expect(engineLevelCount(ds, 64 * 2 ** 20, 10)).toBe(1);
    // Monkey counts one level at T = 2 here, so that design is not priced (and not recommended).
    const d = { policy: 'leveling' as const, sizeRatio: 2, bufferBytes: 64 * 2 ** 20, filterBitsPerEntry: 0, allocation: 'monkey' as const };
    expect(priceable(ds, d)).toBe(false);
    expect(priceable(ds, { ...d, sizeRatio: 10 })).toBe(true);
    expect(priceable(ds, { ...d, sizeRatio: 5000 })).toBe(false);
    const v = tuneRecommend({ dataset: ds, workload: args.workload, memoryBytes: 64 * 2 ** 20 + 250_000, rho: 0, current: { ...d, sizeRatio: 10, filterBitsPerEntry: 10, allocation: 'uniform' } });
    expect(v.nominal.design === v.current.design || priceable(ds, v.nominal.design)).toBe(true);
  });
});

// MSLS: the level-size optimiser.
import { describe, expect, it } from 'vitest';
import { type MslsLevelParams, mslsOptimizeLevelSizes, mslsWriteAmplification } from '../src/msls';
import { DEFAULT_1E8, MiB, near, rel, Z99, zipf } from './msls-fixtures';

// ────────────────────────────────────────────────────────────────────────── optimiser

describe('level-size optimisation (§4, §6.5; WA tolerance 1e-3 as the reference suggests)', () => {
  it('Table 1 "Analysis, Opt": uniform N = 10⁸ 25.835 → 23.6714, per source 1/1/3.854/4.850/4.824/4.650/3.494', () => {
    const o = mslsOptimizeLevelSizes(DEFAULT_1E8);
    near(o.optimized.total, 23.6714, 1e-4);
    [1, 1, 3.854, 4.85, 4.824, 4.65, 3.494].forEach((v, i) => near([o.optimized.log, ...o.optimized.perLevel][i], v, 6e-4));
    near(o.baseline.total, 25.8346, 6e-5);
    near(o.gain, 0.0837, 1e-3);
    // Sizes are flat near the optimum; the reference's scipy sizes agree to 0.1 %.
    [47891, 321368, 2158783, 14603820].forEach((v, i) => rel(o.levelItems[i], v, 1e-3));
    expect(o.levelBytes[0]).toBeCloseTo(o.levelItems[0] * 1000, 6);
    expect(o.activeConstraints).toEqual([]);
    expect(o.evaluations).toBeLessThan(1000); // the browser budget: uniform evaluations cost µs
    // Feeding the sizes back through levelBytes gives the same model.
    near(mslsWriteAmplification({ keySpace: 1e8, levelBytes: o.levelBytes }).total, o.optimized.total, 1e-9);
  });

  it('Zipf 0.99, N = 10⁸: 12.684 → 11.7630, per source 1/0.728/2.454/2.672/2.201/1.675/1.033', () => {
    const o = mslsOptimizeLevelSizes({ ...DEFAULT_1E8, distribution: Z99 });
    near(o.optimized.total, 11.763, 2e-4);
    [1, 0.728, 2.454, 2.672, 2.201, 1.675, 1.033].forEach((v, i) => near([o.optimized.log, ...o.optimized.perLevel][i], v, 1.1e-3));
    [32164, 214844, 1507540, 11435675].forEach((v, i) => rel(o.levelItems[i], v, 1e-3));
  });

  it('§4.3: optimum against skew, N = 10⁸ (3 decimals)', () => {
    const table: [number, number, number][] = [
      [0.5, 25.281, 23.087],
      [0.8, 21.179, 19.256],
      [0.9, 17.296, 15.808],
      [1.1, 7.39, 7.069],
      [1.2, 4.312, 4.214],
    ];
    for (const [s, before, after] of table) {
      const o = mslsOptimizeLevelSizes({ ...DEFAULT_1E8, distribution: zipf(s) });
      near(o.baseline.total, before, 6e-4);
      near(o.optimized.total, after, 1e-3);
    }
  });

  it('§4.3: optimum against unique-key count (3 decimals)', () => {
    const table: [number, number, number, number, number][] = [
      [1e6, 12.902, 11.598, 6.526, 6.032],
      [3.3e6, 15.905, 14.513, 7.86, 7.135],
      [1e7, 19.343, 17.54, 9.498, 8.777],
      [3.3e7, 22.378, 20.305, 10.977, 9.926],
      [3.3e8, 28.875, 26.272, 14.257, 12.925],
      [1e9, 32.334, 29.908, 16.009, 14.91],
    ];
    for (const [n, , uniformOpt, , zipfOpt] of table) {
      near(mslsOptimizeLevelSizes({ keySpace: n }).optimized.total, uniformOpt, 1e-3);
      near(mslsOptimizeLevelSizes({ keySpace: n, distribution: Z99 }).optimized.total, zipfOpt, 1e-3);
    }
  });

  it('§4.4: large write buffers, N = 10⁷, ρ_min = 2 (the bound becomes active)', () => {
    const table: [number, number, number][] = [
      [1e4, 15.112, 7.226],
      [3e4, 12.542, 5.682],
      [1e5, 10.039, 4.371],
      [3e5, 8.125, 3.429],
      [1e6, 6.544, 2.684],
    ];
    for (const [wal, wu, wz] of table) {
      const p = { keySpace: 1e7, writeBufferBytes: wal * 1000 };
      near(mslsOptimizeLevelSizes(p).optimized.total, wu, 1e-3);
      near(mslsOptimizeLevelSizes({ ...p, distribution: Z99 }).optimized.total, wz, 1e-3);
    }
    const atBound = mslsOptimizeLevelSizes({ keySpace: 1e7, writeBufferBytes: 3e8 });
    [1.25e6, 2.5e6, 5e6].forEach((v, i) => rel(atBound.levelItems[i], v, 1e-6));
    expect(atBound.activeConstraints).toEqual(['Size(2)/Size(1) ≥ 2', 'Size(3)/Size(2) ≥ 2', 'Size(4)/Size(3) ≥ 2']);
  });

  it('Fig. 15 proxy: WA against level count, Size(1) = 10 MiB, r = (N/Size(1))^(1/(L−1)), N = 10⁸', () => {
    const table: [number, number, number, number, number][] = [
      [2, 2653.6, 112.34, 2041.0, 72.18],
      [3, 81.35, 38.85, 43.32, 21.48],
      [4, 33.95, 26.88, 17.01, 13.88],
      [6, 23.88, 22.98, 11.5, 11.11],
      [7, 23.76, 23.22, 11.23, 10.98],
    ];
    for (const [levels, fixedU, optU, fixedZ, optZ] of table) {
      const growthFactor = (1e8 / ((10 * MiB) / 1000)) ** (1 / (levels - 1));
      const p = { keySpace: 1e8, levels, growthFactor };
      const ou = mslsOptimizeLevelSizes(p);
      const oz = mslsOptimizeLevelSizes({ ...p, distribution: Z99 });
      near(ou.baseline.total, fixedU, levels === 2 ? 0.06 : 6e-3);
      near(ou.optimized.total, optU, 6e-3);
      near(oz.baseline.total, fixedZ, levels === 2 ? 0.06 : 6e-3);
      near(oz.optimized.total, optZ, 6e-3);
      if (levels === 7) expect(ou.activeConstraints).toEqual(['Size(7)/Size(6) ≥ 2']);
    }
  });

  it('is never worse than the baseline sizes, and is a local minimum when no constraint binds', () => {
    const cases: MslsLevelParams[] = [
      { keySpace: 1.1e6 }, // last level barely above Size(3): the baseline violates ρ_min = 2
      { keySpace: 5e4, entryBytes: 1, writeBufferBytes: 4096, level1Bytes: 10240 },
      { keySpace: 2e6, distribution: zipf(1.4), growthFactor: 4 },
      { keySpace: 1e7, writeBufferBytes: 2e9 },
      { keySpace: 1e6, levelBytes: [2e8, 5e8] },
      { keySpace: 3e7, distribution: zipf(0.6), tableSelection: 'no-density-gradient' },
    ];
    for (const p of cases) {
      const o = mslsOptimizeLevelSizes(p);
      expect(o.optimized.total).toBeLessThanOrEqual(o.baseline.total);
      expect(o.gain).toBeGreaterThanOrEqual(0);
      for (let l = 1; l < o.levelItems.length; l++) {
        expect(o.levelItems[l] / o.levelItems[l - 1]).toBeGreaterThanOrEqual(o.constraints.minGrowthFactor * (1 - 1e-9));
      }
      if (o.activeConstraints.length > 0) continue;
      const levelBytes = o.levelBytes;
      for (let j = 0; j < levelBytes.length; j++) {
        for (const f of [0.98, 1.02]) {
          const moved = levelBytes.map((b, i) => (i === j ? b * f : b));
          const wa = mslsWriteAmplification({ ...p, levelBytes: moved, levels: undefined }).total;
          expect(wa).toBeGreaterThanOrEqual(o.optimized.total - 1e-9);
        }
      }
    }
  });

  it('relaxes default bounds to the baseline, enforces explicit ones and reports them', () => {
    const o = mslsOptimizeLevelSizes({ keySpace: 1.1e6 });
    rel(o.constraints.minGrowthFactor, 1.1e6 / 1048576, 1e-12);
    expect(o.baselineFeasible).toBe(true);
    const strict = mslsOptimizeLevelSizes({ keySpace: 1e8 }, { minGrowthFactor: 6, minLevel1Bytes: 60e6 });
    expect(strict.levelItems[0]).toBeGreaterThanOrEqual(60e3 * (1 - 1e-9));
    for (let l = 1; l < 5; l++) expect(strict.levelItems[l] / strict.levelItems[l - 1]).toBeGreaterThanOrEqual(6 * (1 - 1e-9));
    expect(strict.optimized.total).toBeGreaterThan(23.6714 + 1e-3);
    expect(strict.baselineFeasible).toBe(false); // default Size(1) = 10 MiB < 60 MB
    expect(strict.activeConstraints).toContain('Size(1) ≥ 60000 items');
    expect(strict.optimized.total).toBeLessThan(strict.baseline.total);
  });

  it('with a single level, or when the constraints pin the baseline, there is nothing to optimise', () => {
    const o = mslsOptimizeLevelSizes({ keySpace: 1e4 });
    expect(o.levelItems).toEqual([1e4]);
    expect(o.gain).toBe(0);
    const pinned = mslsOptimizeLevelSizes({ keySpace: 1e6, levelBytes: [2.5e8, 5e8] }, { minLevel1Bytes: 2.5e8 });
    expect(pinned.levelItems).toEqual([2.5e5, 5e5, 1e6]);
    expect(pinned.gain).toBe(0);
  });
});

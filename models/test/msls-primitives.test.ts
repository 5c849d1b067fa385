// MSLS: the primitives (Unique, Unique⁻¹, Merge, DInterval) and input validation.
import { describe, expect, it } from 'vitest';
import {
  type MslsDistribution,
  mslsColaWriteAmplification,
  mslsDInterval,
  mslsDensityProfile,
  mslsMerge,
  mslsOptimizeLevelSizes,
  mslsReadAmplification,
  mslsResolveLevelParams,
  mslsUniversalWriteAmplification,
  mslsWriteAmplification,
  unique,
  uniqueInverse,
  uniqueWeighted,
} from '../src/msls';
import { ModelInputError } from '../src/validate';
import { MiB, N20, near, rel, U, Z99, zipf } from './msls-fixtures';

describe('msls primitives: uniform closed forms, N = 2^20 (§6.2; printed to 6 decimals → abs 2e-6)', () => {
  it('Unique, Unique⁻¹, Merge, DInterval', () => {
    near(unique(1e6, N20, U), 644536.13006, 2e-6);
    near(uniqueInverse(644536.13006, N20, U), 1e6, 2e-6);
    near(uniqueInverse(N20 / 2, N20, U), 726817.151429, 2e-6);
    expect(mslsMerge([N20 / 4, N20 / 4], N20, U)).toBeCloseTo((7 * N20) / 16, 6);
    near(mslsMerge([1e5, 3e5], N20, U), 371389.770508, 2e-6);
    near(mslsDInterval(N20 / 10, N20, U), 224978.116188, 2e-6);
    near(uniqueInverse(N20 / 10, N20, U), 110478.455386, 2e-6);
  });

  it('Merge equals u + v − uv/N for uniform keys (rel 1e-12)', () => {
    for (const [u, v] of [
      [1, 2],
      [1e3, 5e5],
      [9e5, 1e6],
    ]) {
      rel(mslsMerge([u, v], N20, U), u + v - (u * v) / N20, 1e-12);
    }
  });
});

describe('msls primitives: Zipf 0.99, N = 2^20 (§6.3)', () => {
  const exact = { exactRanks: N20 };
  it('exact distribution (no grouping) matches to the printed 6 decimals (abs 2e-6)', () => {
    near(unique(1e6, N20, Z99, exact), 228684.158276, 2e-6);
    near(uniqueInverse(5e5, N20, Z99, exact), 3482626.397689, 2e-6);
    near(mslsMerge([2e5, 3e5], N20, Z99, exact), 395811.036899, 2e-6);
    near(mslsDInterval(N20 / 10, N20, Z99, exact), 733226.240799, 2e-6);
  });

  it('default head + geometric-tail grouping is within rel 1e-7 of the exact values', () => {
    rel(unique(1e6, N20, Z99), 228684.158276, 1e-7);
    rel(uniqueInverse(5e5, N20, Z99), 3482626.397689, 1e-7);
    rel(mslsMerge([2e5, 3e5], N20, Z99), 395811.036899, 1e-7);
    rel(mslsDInterval(N20 / 10, N20, Z99), 733226.240799, 1e-7);
  });
});

describe('msls primitives at N = 10⁸ (§6.3; 7 significant digits → rel 1e-6)', () => {
  it('Zipf 0.99: the paper example Merge(10⁷, 9·10⁷) ≈ 9.03·10⁷ and friends', () => {
    rel(mslsMerge([1e7, 9e7], 1e8, Z99), 9.033778e7, 1e-6);
    rel(mslsMerge([1e7, 9e7], 1e8, U), 9.1e7, 1e-12);
    rel(uniqueInverse(1e7, 1e8, Z99), 4.23172e7, 1e-6);
    rel(uniqueInverse(9e7, 1e8, Z99), 2.213479e9, 1e-6);
    const zipfU = [4.414115e5, 3.159587e6, 1.889143e7, 7.119143e7];
    const unifU = [9.950166e5, 9.516258e6, 6.321206e7, 9.999546e7];
    [1e6, 1e7, 1e8, 1e9].forEach((p, i) => {
      rel(unique(p, 1e8, Z99), zipfU[i], 1e-6);
      rel(unique(p, 1e8, U), unifU[i], 1e-6);
    });
  });

  it('uniform: Unique⁻¹(10 Mi) = 1.11·10⁷ and DInterval(10 Mi) = 2.26·10⁷ (paper §4)', () => {
    rel(uniqueInverse(10 * MiB, 1e8, U), 1.107725e7, 1e-6);
    rel(mslsDInterval(10 * MiB, 1e8, U), 2.257916e7, 1e-6);
  });

  it('Fig. 4: Unique(p)/N for several skews (printed to 5 decimals → abs 6e-6)', () => {
    const table: [number, number[]][] = [
      [0.5, [0.00985, 0.09017, 0.55682, 0.99825, 1.0, 1.0]],
      [0.8, [0.0081, 0.06471, 0.38236, 0.95827, 1.0, 1.0]],
      [0.9, [0.00637, 0.04805, 0.28519, 0.87655, 1.0, 1.0]],
      [0.99, [0.00441, 0.0316, 0.18891, 0.71191, 0.99959, 1.0]],
      [1.2, [0.00112, 0.00691, 0.03977, 0.19838, 0.68382, 0.99864]],
    ];
    for (const [s, row] of table) {
      row.forEach((v, i) => near(unique(10 ** (6 + i), 1e8, zipf(s)) / 1e8, v, 6e-6));
    }
  });
});

describe('msls primitive properties', () => {
  const dists: [string, number, MslsDistribution][] = [
    ['uniform 1e6', 1e6, U],
    ['zipf 0.5 1e6', 1e6, zipf(0.5)],
    ['zipf 0.99 1e8', 1e8, Z99],
    ['zipf 1.5 1e5', 1e5, zipf(1.5)],
    ['zipf 5 1e6', 1e6, zipf(5)],
  ];

  it('Unique(0) = 0, Unique(∞) = N, Unique is increasing, concave and ≤ min(p, N)', () => {
    for (const [, n, d] of dists) {
      expect(unique(0, n, d)).toBe(0);
      expect(unique(Infinity, n, d)).toBe(n);
      let prev = 0;
      let prevSlope = Infinity;
      for (let p = 1; p <= 1e12; p *= 1.5) {
        const u = unique(p, n, d);
        expect(u).toBeLessThanOrEqual(Math.min(p, n) * (1 + 1e-12));
        expect(u).toBeGreaterThanOrEqual(prev);
        const slope = (unique(p * 1.01, n, d) - u) / (0.01 * p);
        if (u < 0.999 * n) {
          expect(u).toBeGreaterThan(prev);
          expect(slope).toBeLessThanOrEqual(prevSlope * (1 + 1e-6));
        }
        prev = u;
        prevSlope = slope;
      }
    }
  });

  it('uniqueInverse ∘ unique = identity (rel 1e-9) while Unique is not saturated', () => {
    for (const [, n, d] of dists) {
      for (let p = 0.5; p < 1e13; p *= 3.7) {
        const u = unique(p, n, d);
        if (n - u < 1e-4 * n) continue; // Unique⁻¹ is ill-conditioned at saturation
        rel(uniqueInverse(u, n, d), p, 1e-9);
      }
      for (const frac of [1e-6, 0.01, 0.3, 0.5, 0.9, 0.999]) rel(unique(uniqueInverse(frac * n, n, d), n, d), frac * n, 1e-11);
      // Below one request Unique(p) > p under skew (Unique'(0) = Σλ > 1): the inverse must still hold.
      for (const u of [1e-3, 0.5]) rel(unique(uniqueInverse(u, n, d), n, d), u, 1e-11);
      expect(uniqueInverse(0, n, d)).toBe(0);
      expect(uniqueInverse(n, n, d)).toBe(Infinity);
    }
  });

  it('Merge: identities, symmetry, associativity and bounds', () => {
    for (const [, n, d] of dists) {
      const [a, b, c] = [0.01 * n, 0.2 * n, 0.55 * n];
      rel(mslsMerge([a, 0], n, d), a, 1e-12);
      expect(mslsMerge([a, n], n, d)).toBe(n);
      rel(mslsMerge([a, b], n, d), mslsMerge([b, a], n, d), 1e-12);
      rel(mslsMerge([mslsMerge([a, b], n, d), c], n, d), mslsMerge([a, mslsMerge([b, c], n, d)], n, d), 1e-9);
      rel(mslsMerge([a, b, c], n, d), mslsMerge([mslsMerge([a, b], n, d), c], n, d), 1e-9);
      const m = mslsMerge([b, c], n, d);
      expect(m).toBeGreaterThanOrEqual(c);
      expect(m).toBeLessThanOrEqual(Math.min(b + c, n));
    }
    // Skew makes merges collapse more duplicates: Zipf ≤ uniform.
    expect(mslsMerge([2e5, 3e5], N20, Z99)).toBeLessThan(mslsMerge([2e5, 3e5], N20, U));
  });

  it('Zipf θ → 0 approaches uniform (θ = 0 is uniform to rounding)', () => {
    for (const p of [1e3, 1e6, 3e7]) {
      rel(unique(p, 1e7, zipf(0)), unique(p, 1e7, U), 1e-12);
      rel(unique(p, 1e7, zipf(1e-6)), unique(p, 1e7, U), 1e-5);
      const gap = (t: number) => Math.abs(unique(p, 1e7, zipf(t)) / unique(p, 1e7, U) - 1);
      expect(gap(0.01)).toBeLessThan(gap(0.1));
      expect(gap(0.1)).toBeLessThan(gap(0.3));
    }
    rel(mslsWriteAmplification({ keySpace: 1e7, distribution: zipf(1e-6) }).total, mslsWriteAmplification({ keySpace: 1e7 }).total, 1e-6);
  });

  it('DInterval exceeds Unique⁻¹(size) and solves Lemma 2 (mean density = Size/N)', () => {
    for (const [, n, d] of dists.slice(0, 3)) {
      const size = 0.1 * n;
      expect(mslsDInterval(size, n, d)).toBeGreaterThan(uniqueInverse(size, n, d));
      const profile = mslsDensityProfile(size, n, d, 1000);
      const mean = profile.reduce((acc, x) => acc + x.density, 0) / profile.length;
      rel(mean, size / n, 1e-4); // midpoint rule vs the discrete sum
      for (const tiny of [1e-3, 0.5, 3]) {
        const dTiny = mslsDInterval(tiny, n, d);
        const back = mslsDensityProfile(tiny, n, d, 200).reduce((acc, x) => acc + x.density, 0) / 200;
        expect(dTiny).toBeGreaterThan(0);
        rel(back, tiny / n, 1e-3);
      }
      for (let i = 1; i < profile.length; i++) expect(profile[i].density).toBeGreaterThan(profile[i - 1].density);
    }
  });

  it('weighted Unique: uniform weighting is Unique/N; popularity weighting favours present (hot) keys', () => {
    rel(uniqueWeighted(3e5, 1e6, Z99, 'uniform'), unique(3e5, 1e6, Z99) / 1e6, 1e-12);
    expect(uniqueWeighted(3e5, 1e6, Z99, 'popularity')).toBeGreaterThan(uniqueWeighted(3e5, 1e6, Z99, 'uniform'));
    expect(uniqueWeighted(Infinity, 1e6, Z99, 'popularity')).toBeCloseTo(1, 12);
    expect(uniqueWeighted(0, 1e6, Z99, 'popularity')).toBe(0);
  });
});

// ────────────────────────────────────────────────────────────────────────── validation

describe('invalid input names the field and the allowed range', () => {
  const cases: [string, () => unknown, string][] = [
    ['keySpace 1', () => unique(5, 1, U), 'keySpace: must be an integer in [2, 1000000000000], got 1'],
    ['keySpace fractional', () => unique(5, 10.5, U), 'keySpace: must be an integer'],
    ['keySpace NaN', () => mslsWriteAmplification({ keySpace: Number.NaN }), 'keySpace: must be an integer in [2, 1000000000000], got NaN'],
    ['requests < 0', () => unique(-1, 100, U), 'requests: must be a number in [0, ∞), got -1'],
    ['theta < 0', () => unique(5, 100, zipf(-0.1)), 'distribution.theta: must be a number in [0, 5], got -0.1'],
    ['theta > 5', () => unique(5, 100, zipf(6)), 'distribution.theta: must be a number in [0, 5], got 6'],
    ['bad kind', () => unique(5, 100, { kind: 'pareto' } as unknown as MslsDistribution), 'distribution.kind: must be one of "uniform", "zipf"'],
    ['uniqueKeys > N', () => uniqueInverse(101, 100, U), 'uniqueKeys: must be a number in [0, 100], got 101'],
    ['merge size > N', () => mslsMerge([5, 101], 100, U), 'sizes[1]: must be a number in [0, 100], got 101'],
    ['DInterval size ≥ N − 1', () => mslsDInterval(99, 100, U), 'sizeItems: must be a number in [0, 99), got 99'],
    ['groupRatio 1', () => unique(5, 1e6, Z99, { groupRatio: 1 }), 'grouping.groupRatio: must be a number in (1, 2], got 1'],
    ['weighting', () => uniqueWeighted(5, 100, U, 'zipf' as unknown as 'uniform'), 'weighting: must be one of'],
    ['level0Trigger 0', () => mslsWriteAmplification({ keySpace: 1e6, level0Trigger: 0 }), 'level0Trigger: must be an integer in [1, 1000], got 0'],
    ['growthFactor 1', () => mslsWriteAmplification({ keySpace: 1e6, growthFactor: 1 }), 'growthFactor: must be a number in (1, 1000000], got 1'],
    ['entryBytes 0', () => mslsWriteAmplification({ keySpace: 1e6, entryBytes: 0 }), 'entryBytes: must be a number in (0, 1000000000], got 0'],
    ['buffer < entry', () => mslsWriteAmplification({ keySpace: 1e6, writeBufferBytes: 10 }), 'writeBufferBytes: must be a number in [1000,'],
    ['too many levels', () => mslsWriteAmplification({ keySpace: 1e6, levels: 5 }), 'levels: must be an integer in [1, 3]'],
    ['levels 0', () => mslsWriteAmplification({ keySpace: 1e6, levels: 0 }), 'levels: must be an integer in [1, 64], got 0'],
    ['levelBytes ≥ N', () => mslsWriteAmplification({ keySpace: 1e6, levelBytes: [1e7, 2e9] }), 'levelBytes[1]: must be a number in (0, 999999000), got 2000000000'],
    ['levelBytes vs levels', () => mslsWriteAmplification({ keySpace: 1e6, levelBytes: [1e7], levels: 3 }), 'levels: must equal levelBytes.length + 1 = 2, got 3'],
    ['tableSelection', () => mslsWriteAmplification({ keySpace: 1e6, tableSelection: 'largest' as unknown as 'round-robin' }), 'tableSelection: must be one of'],
    ['minGrowthFactor 1', () => mslsOptimizeLevelSizes({ keySpace: 1e6 }, { minGrowthFactor: 1 }), 'minGrowthFactor: must be a number in [1.01, 1000], got 1'],
    ['minLevel1Bytes < entry', () => mslsOptimizeLevelSizes({ keySpace: 1e6 }, { minLevel1Bytes: 10 }), 'minLevel1Bytes: must be a number in [1000,'],
    ['infeasible bounds', () => mslsOptimizeLevelSizes({ keySpace: 1e7, writeBufferBytes: 1e9 }, { minGrowthFactor: 4, minLevel1Bytes: 4e9 }), 'minGrowthFactor: leaves no feasible level sizes'],
    ['cola r 2.5', () => mslsColaWriteAmplification({ keySpace: 1e6, growthFactor: 2.5 }), 'growthFactor: must be an integer in [2, 1000], got 2.5'],
    ['universal stop < trigger', () => mslsUniversalWriteAmplification({ keySpace: 1e6, stopWritesTrigger: 4 }), 'stopWritesTrigger: must be an integer in [12, 100000], got 4'],
    ['read filter bits', () => mslsReadAmplification({ keySpace: 1e6 }, { filterBitsPerKey: -1 }), 'filterBitsPerKey: must be a number in [0, 64], got -1'],
  ];
  for (const [name, fn, message] of cases) {
    it(name, () => {
      expect(fn).toThrow(ModelInputError);
      expect(fn).toThrow(message);
    });
  }

  it('resolves LevelDB defaults in items', () => {
    const r = mslsResolveLevelParams({ keySpace: 1e7 });
    expect(r).toMatchObject({ walItems: 4194.304, level0Trigger: 4, levels: 4, entryBytes: 1000, tableSelection: 'round-robin' });
    expect(r.levelItems).toEqual([10485.76, 104857.6, 1048576, 1e7]);
  });
});

import { describe, expect, it } from 'vitest';
import {
  type MslsDistribution,
  type MslsLevelParams,
  mslsColaWriteAmplification,
  mslsDInterval,
  mslsDensityProfile,
  mslsMerge,
  mslsOptimizeLevelSizes,
  mslsReadAmplification,
  mslsResolveLevelParams,
  mslsSamtWriteAmplification,
  mslsUniversalWriteAmplification,
  mslsWriteAmplification,
  unique,
  uniqueInverse,
  uniqueWeighted,
  worstCaseWriteAmplification,
} from '../src/msls';
import { ModelInputError } from '../src/validate';

// Vectors: msls.md §5–§6 and msls-vectors.py (the reference implementation), copied here.
const U: MslsDistribution = { kind: 'uniform' };
const zipf = (theta: number): MslsDistribution => ({ kind: 'zipf', theta });
const Z99 = zipf(0.99);
const MiB = 2 ** 20;
const N20 = 2 ** 20;

/** |actual − expected| ≤ abs. */
function near(actual: number, expected: number, abs: number): void {
  expect(Math.abs(actual - expected), `${actual} vs ${expected} (abs ${abs})`).toBeLessThanOrEqual(abs);
}
/** |actual/expected − 1| ≤ rel. */
function rel(actual: number, expected: number, tol: number): void {
  expect(Math.abs(actual / expected - 1), `${actual} vs ${expected} (rel ${tol})`).toBeLessThanOrEqual(tol);
}

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

// ────────────────────────────────────────────────────────────────────────── leveled model

const DEFAULT_1E8: MslsLevelParams = { keySpace: 1e8 };

describe('LevelDB write amplification, defaults, N = 10⁸ (§6.4 headline; 4 decimals → abs 6e-5)', () => {
  it('uniform: 25.8346 with per-source breakdown, Interval and Write (7 digits → rel 1e-6)', () => {
    const r = mslsWriteAmplification(DEFAULT_1E8);
    expect(r.resolved.levels).toBe(5);
    expect(r.resolved.levelItems).toEqual([10485.76, 104857.6, 1048576, 10485760, 1e8]);
    near(r.total, 25.8346, 6e-5);
    [1.0, 1.0, 1.6248, 4.7762, 6.2218, 6.3169, 4.8949].forEach((v, i) => near([r.log, ...r.perLevel][i], v, 6e-5));
    [1.677722e4, 3.77502e4, 2.476121e5, 2.359554e6, 2.493872e7].forEach((v, i) => rel(r.compactions[i].intervalRequests, v, 1e-6));
    [2.725981e4, 1.803042e5, 1.540594e6, 1.490511e7, 1.220722e8].forEach((v, i) => rel(r.compactions[i].writeItems, v, 1e-6));
    rel(r.compactions[4].sweepRequests ?? NaN, 2.257916e7, 1e-6); // DInterval(4) = DInterval(10 Mi)
    expect(r.compactions[0].falseOverlapItems).toBe(0);
    near(r.log + r.perLevel.reduce((a, b) => a + b, 0), r.total, 1e-12);
  });

  it('Zipf 0.99: 12.6843 with per-source breakdown, Interval and Write', () => {
    const r = mslsWriteAmplification({ ...DEFAULT_1E8, distribution: Z99 });
    near(r.total, 12.6843, 6e-5);
    [1.0, 0.7284, 1.2123, 3.2065, 3.1157, 2.2521, 1.1693].forEach((v, i) => near([r.log, ...r.perLevel][i], v, 6e-5));
    [1.677722e4, 4.908181e4, 4.552402e5, 6.045459e6, 1.018983e8].forEach((v, i) => rel(r.compactions[i].intervalRequests, v, 1e-6));
    [2.033914e4, 1.573808e5, 1.418395e6, 1.361528e7, 1.19145e8].forEach((v, i) => rel(r.compactions[i].writeItems, v, 1e-6));
  });

  it('worst case (no redundancy, [UNCERTAIN] reconstruction): 47.1617 = 1 + 1 + 1.625 + 11 + 11 + 11 + 10.537', () => {
    const w = worstCaseWriteAmplification(DEFAULT_1E8);
    near(w.total, 47.1617, 6e-5);
    [1, 1, 1.625, 11, 11, 11, 10.537].forEach((v, i) => near([w.log, ...w.perLevel][i], v, 6e-4));
    rel(w.total / mslsWriteAmplification(DEFAULT_1E8).total, 1.83, 3e-3);
    rel(w.total / mslsWriteAmplification({ ...DEFAULT_1E8, distribution: Z99 }).total, 3.72, 2e-3);
  });

  it('1 KiB items instead of 1000 B: 25.9444 / 12.7444 / worst 47.3906', () => {
    const p = { ...DEFAULT_1E8, entryBytes: 1024 };
    near(mslsWriteAmplification(p).total, 25.9444, 6e-5);
    near(mslsWriteAmplification({ ...p, distribution: Z99 }).total, 12.7444, 6e-5);
    near(worstCaseWriteAmplification(p).total, 47.3906, 6e-5);
  });
});

describe('LevelDB write amplification against unique-key count (Fig. 9; script output, 4 decimals)', () => {
  // [N, L, uniform, uniform per source (3 dec.), zipf, zipf per source, worst]
  const rows: [number, number, number, number[], number, number[], number][] = [
    [1e6, 3, 12.9022, [1, 0.998, 1.606, 4.627, 4.671], 6.5256, [1, 0.612, 1.032, 2.394, 1.487], 25.1617],
    [3.3e6, 4, 15.9048, [1, 0.999, 1.619, 4.732, 5.779, 1.775], 7.8605, [1, 0.65, 1.091, 2.673, 2.087, 0.36], 29.7721],
    [1e7, 4, 19.3425, [1, 1.0, 1.623, 4.762, 6.084, 4.874], 9.4984, [1, 0.679, 1.137, 2.88, 2.489, 1.314], 36.1617],
    [3.3e7, 5, 22.378, [1, 1.0, 1.624, 4.773, 6.19, 6.009, 1.781], 10.9767, [1, 0.706, 1.179, 3.063, 2.842, 1.869, 0.317], 40.7721],
    [3.3e8, 6, 28.8747, [1, 1.0, 1.625, 4.777, 6.233, 6.425, 6.033, 1.782], 14.2569, [1, 0.749, 1.244, 3.338, 3.368, 2.597, 1.677, 0.284], 51.7721],
    [1e9, 6, 32.3337, [1, 1.0, 1.625, 4.778, 6.236, 6.457, 6.342, 4.897], 16.0087, [1, 0.766, 1.269, 3.443, 3.57, 2.87, 2.035, 1.055], 58.1617],
  ];
  for (const [n, levels, wu, pu, wz, pz, wc] of rows) {
    it(`N = ${n}: L = ${levels}, uniform ${wu}, Zipf ${wz}, worst ${wc}`, () => {
      const ru = mslsWriteAmplification({ keySpace: n });
      const rz = mslsWriteAmplification({ keySpace: n, distribution: Z99 });
      expect(ru.resolved.levels).toBe(levels);
      near(ru.total, wu, 6e-5);
      near(rz.total, wz, 6e-5);
      near(worstCaseWriteAmplification({ keySpace: n }).total, wc, 6e-5);
      pu.forEach((v, i) => near([ru.log, ...ru.perLevel][i], v, 6e-4));
      pz.forEach((v, i) => near([rz.log, ...rz.perLevel][i], v, 6e-4));
    });
  }
});

describe('other leveled-model vectors', () => {
  it('Fig. 8: WA against Zipf skew, N = 10⁸ (4 decimals)', () => {
    const table: [number, number][] = [
      [0.2, 25.8007],
      [0.4, 25.5844],
      [0.6, 24.6739],
      [0.8, 21.1793],
      [0.9, 17.2962],
      [0.95, 14.8016],
      [1.1, 7.3902],
      [1.2, 4.3123],
    ];
    for (const [s, wa] of table) near(mslsWriteAmplification({ ...DEFAULT_1E8, distribution: zipf(s) }).total, wa, 6e-5);
  });

  it('Fig. 10: WA against write-buffer size, N = 10⁷ (3 decimals)', () => {
    const table: [number, number, number][] = [
      [1e4, 17.519, 8.351],
      [3e4, 15.349, 7.07],
      [1e5, 13.021, 5.823],
      [3e5, 10.938, 4.772],
      [1e6, 8.511, 3.76],
    ];
    for (const [wal, wu, wz] of table) {
      const p = { keySpace: 1e7, writeBufferBytes: wal * 1000 };
      near(mslsWriteAmplification(p).total, wu, 6e-4);
      near(mslsWriteAmplification({ ...p, distribution: Z99 }).total, wz, 6e-4);
    }
  });

  it('browser-scale config in items (wal 4096, Size(1) 10 240, r 10)', () => {
    const items = { entryBytes: 1, writeBufferBytes: 4096, level1Bytes: 10240 };
    const small = mslsWriteAmplification({ keySpace: 1e5, ...items });
    expect(small.resolved.levels).toBe(2);
    near(small.total, 6.8677, 6e-5);
    [1, 0.9798, 1.4529, 3.435].forEach((v, i) => near([small.log, ...small.perLevel][i], v, 6e-5));
    near(mslsWriteAmplification({ keySpace: 1e5, ...items, distribution: Z99 }).total, 3.9603, 6e-5);
    near(worstCaseWriteAmplification({ keySpace: 1e5, ...items }).total, 14.3906, 6e-5);
    const big = mslsWriteAmplification({ keySpace: 1e6, ...items });
    expect(big.resolved.levels).toBe(3);
    near(big.total, 13.0061, 6e-5);
    [1, 0.998, 1.6067, 4.6301, 4.7713].forEach((v, i) => near([big.log, ...big.perLevel][i], v, 6e-5));
    near(big.compactions[1].sweepRequests ?? NaN, 20621.0, 0.06);
    near(big.compactions[2].sweepRequests ?? NaN, 220096.9, 0.06);
    near(mslsWriteAmplification({ keySpace: 1e6, ...items, distribution: Z99 }).total, 6.58, 6e-5);
    near(worstCaseWriteAmplification({ keySpace: 1e6, ...items }).total, 25.3906, 6e-5);
  });

  it('ablation DInterval → Unique⁻¹(Size) ("no-density-gradient", §6.5; 3 decimals)', () => {
    const table: [number, number, number][] = [
      [1e6, 17.488, 8.987],
      [1e7, 28.243, 13.822],
      [1e8, 39.209, 19.071],
    ];
    for (const [n, wu, wz] of table) {
      const p: MslsLevelParams = { keySpace: n, tableSelection: 'no-density-gradient' };
      near(mslsWriteAmplification(p).total, wu, 6e-4);
      near(mslsWriteAmplification({ ...p, distribution: Z99 }).total, wz, 6e-4);
    }
  });

  it('MSLS WA never exceeds the no-redundancy worst case', () => {
    for (const n of [1e4, 1e5, 3e6, 1e8])
      for (const d of [U, zipf(0.7), Z99, zipf(1.3)])
        for (const wal of [4 * MiB, 64 * MiB])
          for (const growthFactor of [3, 10, 30]) {
            const p = { keySpace: n, distribution: d, writeBufferBytes: wal, growthFactor };
            expect(mslsWriteAmplification(p).total).toBeLessThanOrEqual(worstCaseWriteAmplification(p).total);
          }
  });

  it('explicit levelBytes reproduce the geometric defaults; one level is the L0 → L1 step only', () => {
    const geo = mslsWriteAmplification(DEFAULT_1E8);
    const explicit = mslsWriteAmplification({ keySpace: 1e8, levelBytes: [10, 100, 1000, 10000].map((m) => m * MiB) });
    near(explicit.total, geo.total, 1e-12);
    const one = mslsWriteAmplification({ keySpace: 1e5, levels: 1 });
    expect(one.compactions).toHaveLength(1);
    near(one.total, 2 + 1e5 / (4 * 4194.304) - (1 - one.flush), 1e-9);
  });

  it('warns where the model is known to be less accurate (Size(1) below the write buffer)', () => {
    expect(mslsWriteAmplification(DEFAULT_1E8).warnings).toEqual([]);
    expect(mslsWriteAmplification({ keySpace: 1e7, writeBufferBytes: 3e7 }).warnings).toHaveLength(1);
  });
});

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

// ────────────────────────────────────────────────────────────────────────── other designs

describe('COLA, SAMT and RocksDB universal compaction (§6.5)', () => {
  it('COLA / SAMT, N = 10⁶, wal = 4 MiB (4 decimals)', () => {
    const table: [MslsDistribution, number, number, number][] = [
      [U, 2, 5.6926, 9.4539],
      [U, 4, 7.4053, 5.7651],
      [Z99, 2, 3.6988, 5.4663],
      [Z99, 4, 4.3989, 3.7966],
    ];
    for (const [d, growthFactor, cola, samt] of table) {
      near(mslsColaWriteAmplification({ keySpace: 1e6, distribution: d, growthFactor }), cola, 6e-5);
      near(mslsSamtWriteAmplification({ keySpace: 1e6, distribution: d, growthFactor }), samt, 6e-5);
    }
  });

  it('COLA / SAMT, N = 10⁸ (3 decimals)', () => {
    const table: [MslsDistribution, number, number, number][] = [
      [U, 2, 8.93, 16.132],
      [U, 4, 12.275, 8.978],
      [Z99, 2, 5.272, 8.816],
      [Z99, 4, 6.53, 5.142],
    ];
    for (const [d, growthFactor, cola, samt] of table) {
      near(mslsColaWriteAmplification({ keySpace: 1e8, distribution: d, growthFactor }), cola, 6e-4);
      near(mslsSamtWriteAmplification({ keySpace: 1e8, distribution: d, growthFactor }), samt, 6e-4);
    }
  });

  it('universal compaction table-level simulation (trigger 12, stop 24, 200 %, 1 %)', () => {
    near(mslsUniversalWriteAmplification({ keySpace: 1e6 }), 4.5167, 6e-5);
    near(mslsUniversalWriteAmplification({ keySpace: 1e7 }), 6.1858, 6e-5);
    near(mslsUniversalWriteAmplification({ keySpace: 1e6, distribution: Z99 }), 2.94, 6e-5);
    near(mslsUniversalWriteAmplification({ keySpace: 3.3e6 }), 5.381, 6e-4);
    near(mslsUniversalWriteAmplification({ keySpace: 3.3e6, distribution: Z99 }), 3.421, 6e-4);
  });
});

// ────────────────────────────────────────────────────────────────────────── read amplification

describe('read amplification heuristic (§3.7, Theorem 4)', () => {
  it('matches a hand computation for one level (uniform, N = 1000, wal 10, c0 2, no filters)', () => {
    const r = mslsReadAmplification({ keySpace: 1000, entryBytes: 1, writeBufferBytes: 10, level0Trigger: 2 }, { queries: 'uniform' });
    const q = 1 - 1 / 1000;
    expect(r.components.map((c) => c.name)).toEqual(['memtable', 'L0', 'L1']);
    const expected = 0 * (1 - q ** 5) + 1.25 * (q ** 5 - q ** 20) + 2.5 * q ** 20;
    near(r.total, expected, 1e-12);
  });

  it('probabilities sum to 1; filters and skewed queries lower the cost', () => {
    const base = { keySpace: 1e7, distribution: Z99 };
    const plain = mslsReadAmplification(base);
    near(
      plain.components.reduce((a, c) => a + c.probability, 0),
      1,
      1e-12,
    );
    expect(mslsReadAmplification(base, { filterBitsPerKey: 10 }).total).toBeLessThan(plain.total);
    expect(plain.total).toBeLessThan(mslsReadAmplification(base, { queries: 'uniform' }).total);
    // No filters, c0 = 4 → n0 = 3.5 L0 tables: c(L0) = 1 + 2.5/2, c(l) = 1 + 3.5 + (l − 1).
    const uniformQueries = mslsReadAmplification({ keySpace: 1e7 }, { queries: 'uniform' });
    expect(uniformQueries.components.map((c) => c.cost)).toEqual([0, 2.25, 4.5, 5.5, 6.5, 7.5]);
    expect(uniformQueries.total).toBeGreaterThan(6.5); // most keys live only in the last level
    expect(uniformQueries.total).toBeLessThan(7.5);
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

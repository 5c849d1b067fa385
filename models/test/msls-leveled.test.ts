// MSLS: the leveled (LevelDB) write-amplification model, the other designs and read amplification.
import { describe, expect, it } from 'vitest';
import {
  type MslsDistribution,
  type MslsLevelParams,
  mslsColaWriteAmplification,
  mslsReadAmplification,
  mslsSamtWriteAmplification,
  mslsUniversalWriteAmplification,
  mslsWriteAmplification,
  worstCaseWriteAmplification,
} from '../src/msls';
import { DEFAULT_1E8, MiB, near, rel, U, Z99, zipf } from './msls-fixtures';

// ────────────────────────────────────────────────────────────────────────── leveled model


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

  it("LevelDB's flush writes every version (flushKeepsVersions): WA_flush = 1, the merges unchanged", () => {
    const paper = mslsWriteAmplification({ ...DEFAULT_1E8, distribution: Z99 });
    const leveldb = mslsWriteAmplification({ ...DEFAULT_1E8, distribution: Z99, flushKeepsVersions: true });
    expect(leveldb.flush).toBe(1);
    near(leveldb.total, 12.6843 + (1 - 0.7284), 6e-5);
    expect(leveldb.perLevel.slice(1)).toEqual(paper.perLevel.slice(1));
    // Uniform keys at N = 10⁸: almost no duplicates in a buffer, so almost no difference.
    near(mslsWriteAmplification({ ...DEFAULT_1E8, flushKeepsVersions: true }).total, 25.8346, 1e-4);
    expect(() => mslsWriteAmplification({ ...DEFAULT_1E8, flushKeepsVersions: 'yes' as unknown as boolean })).toThrow(/flushKeepsVersions/);
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

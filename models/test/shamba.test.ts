import { describe, expect, it } from 'vitest';
import { fprFromBitsPerKey, fprWithHashes, optimalHashCount } from '../src/bloom';
import {
  mbfAnalyze,
  mbfEqualModules,
  mbfExpectedBitProbes,
  mbfExpectedModules,
  mbfModuleFpr,
  mbfSplitHashes,
  modularBloom,
  shambaBlendStats,
  shambaBlockPriority,
  shambaCacheBudgetBytes,
  shambaCacheGet,
  shambaCacheNew,
  shambaCachePut,
  shambaDefaultThresholds,
  shambaEqualSplit,
  shambaExpectedIo,
  shambaFilterPages,
  shambaInheritedStats,
  shambaLookupIo,
  shambaMaxModules,
  shambaMeasuredStats,
  shambaMinFileBytes,
  shambaModulesToUse,
  shambaPerAccessIo,
  shambaProportionalSplit,
  shambaSstMetadata,
  shambaUtility,
} from '../src/shamba';
import { ModelInputError } from '../src/validate';

const expectClose = (actual: readonly number[], expected: readonly number[], tol: number): void => {
  expect(actual.length).toBe(expected.length);
  actual.forEach((v, i) => expect(Math.abs(v - expected[i]), `index ${i}: ${v} vs ${expected[i]}`).toBeLessThanOrEqual(tol));
};

// ───────────────────────────────────────────── §B.7 S1

describe('S1 MBF at 10 bits/key, equal modules, integer probes (Table 3 split)', () => {
  // f_d, E and cumulative printed to 4 decimals (abs 5e-5); FP printed as a percentage to 4 decimals (abs 5e-7).
  const rows = [
    { D: 1, probes: [7], f: [0.0082], fp: 0.008194, E: 1.0, cum: [1.0] },
    { D: 2, probes: [3, 4], f: [0.0918, 0.092], fp: 0.008446, E: 1.0918, cum: [0.9082, 1.0] },
    { D: 3, probes: [2, 2, 3], f: [0.2036, 0.2036, 0.209], fp: 0.00866, E: 1.245, cum: [0.7964, 0.9586, 1.0] },
    { D: 7, probes: [1, 1, 1, 1, 1, 1, 1], f: new Array<number>(7).fill(0.5034), fp: 0.008194, E: 1.9973, cum: [0.4966, 0.7466, 0.8724, 0.9358, 0.9677, 0.9837, 1.0] },
  ];
  for (const r of rows) {
    it(`D=${r.D} probes {${r.probes.join(',')}}`, () => {
      expect(mbfSplitHashes(optimalHashCount(10), r.D)).toEqual(r.probes);
      const f = mbfEqualModules(10, r.D, r.probes).map(mbfModuleFpr);
      expectClose(f, r.f, 5e-5);
      const a = mbfAnalyze(f);
      expect(Math.abs(a.fpr - r.fp)).toBeLessThan(5e-7);
      expect(Math.abs(a.expectedModulesEmpty - r.E)).toBeLessThan(5e-5);
      expectClose(a.cumulativeTermination, r.cum, 5e-5);
      expect(a.terminationProbabilities.reduce((x, y) => x + y, 0)).toBeCloseTo(1, 12);
    });
  }

  it('ideal-k theoretical FP at 10 bpk is 0.8193 % for every D (abs 5e-7)', () => {
    for (const D of [1, 2, 3, 4, 7]) expect(Math.abs(modularBloom(10, D).fpr - 0.008193)).toBeLessThan(5e-7);
  });

  it('ideal-k equal modules: f_sm, E[modules|empty] and share of filter touched (abs 5e-5 / 5e-6 for f_sm)', () => {
    const table: Record<number, [number, number, number, number][]> = {
      10: [
        [1, 0.00819, 1.0, 1.0],
        [2, 0.09051, 1.0905, 0.5453],
        [3, 0.20159, 1.2422, 0.4141],
        [4, 0.30085, 1.4186, 0.3546],
        [7, 0.5034, 1.9972, 0.2853],
      ],
      5: [
        [1, 0.09051, 1.0, 1.0],
        [2, 0.30085, 1.3009, 0.6504],
        [3, 0.44899, 1.6506, 0.5502],
        [4, 0.5485, 2.0144, 0.5036],
        [7, 0.70951, 3.1309, 0.4473],
      ],
    };
    for (const [b, rows] of Object.entries(table)) {
      for (const [D, fsm, E, share] of rows) {
        const m = modularBloom(Number(b), D);
        expect(Math.abs(fprFromBitsPerKey(Number(b) / D) - fsm)).toBeLessThan(5e-6);
        expect(Math.abs(m.expectedModuleAccesses - E)).toBeLessThan(5e-5);
        expect(Math.abs(m.expectedModuleAccesses / D - share)).toBeLessThan(5e-5);
        expect(m.fpr).toBeCloseTo(fprFromBitsPerKey(Number(b)), 14);
      }
    }
  });

  it('Eq 6 probes_empty(k = 1..7) and the real fill at k = 7 (abs 5e-5)', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((k) => mbfExpectedBitProbes(k))).toEqual([1, 1.5, 1.75, 1.875, 1.9375, 1.96875, 1.984375]);
    expect(Math.abs(mbfExpectedBitProbes(7, 1 - Math.exp(-0.7)) - 1.9973)).toBeLessThan(5e-5);
  });

  it('share of empty lookups ended within 3 ideal probes is 0.875; a zero-bit MBF reads every module', () => {
    expect(mbfAnalyze([0.5, 0.5, 0.5]).cumulativeTermination[1]).toBeCloseTo(0.75, 14);
    expect(1 - Math.pow(0.5, 3)).toBe(0.875);
    expect(modularBloom(0, 3)).toEqual({ fpr: 1, expectedModuleAccesses: 3 });
  });

  it('mixed lookups: E[modules] = α·D + (1−α)·Σ R_d', () => {
    const f = [0.09051, 0.09051];
    expect(mbfExpectedModules(f, 0)).toBeCloseTo(1.09051, 12);
    expect(mbfExpectedModules(f, 1)).toBe(2);
    expect(mbfExpectedModules(f, 0.5)).toBeCloseTo(0.5 * 2 + 0.5 * 1.09051, 12);
  });
});

// ───────────────────────────────────────────── §B.7 S2

describe('S2 utilities and skip decisions (D=2, 5+5 bits/key, θ_1 = 0.2 for F, θ_2 = 0.1, skip when u ≤ θ)', () => {
  const fs = fprFromBitsPerKey(5);
  const f = [fs, fs];
  // expIO and u printed to 4 decimals: abs 5e-5. "uses" = modules read: P always m1; F none when u1 ≤ 0.2.
  const rows = [
    { a: 0.0, b: 0.9, io: [0.9, 0.0815, 0.0074], u: [0.8185, 0.0741], P: 1, F: 1 },
    { a: 0.0, b: 0.3, io: [0.3, 0.0272, 0.0025], u: [0.2728, 0.0247], P: 1, F: 1 },
    { a: 0.5, b: 0.5, io: [0.5, 0.2726, 0.252], u: [0.2274, 0.0206], P: 1, F: 1 },
    { a: 0.2, b: 0.25, io: [0.25, 0.0681, 0.0516], u: [0.1819, 0.0165], P: 1, F: 0 },
    { a: 0.9, b: 0.8, io: [0.8, 0.7272, 0.7207], u: [0.0728, 0.0066], P: 1, F: 0 },
    { a: 0.0, b: 0.15, io: [0.15, 0.0136, 0.0012], u: [0.1364, 0.0123], P: 1, F: 0 },
  ];
  for (const r of rows) {
    it(`α=${r.a} β=${r.b}`, () => {
      const stats = { existingRatio: r.a, accessFrequency: r.b };
      expectClose([0, 1, 2].map((d) => shambaExpectedIo(stats, f, d)), r.io, 5e-5);
      expectClose([1, 2].map((d) => shambaUtility(stats, f, d)), r.u, 5e-5);
      expect(shambaModulesToUse(stats, f, 'partial')).toBe(r.P);
      expect(shambaModulesToUse(stats, f, 'full')).toBe(r.F);
      expect(shambaModulesToUse(stats, f, 'none')).toBe(2);
      // The sign fix: utility is the positive saving expIO_{d−1} − expIO_d.
      expect(shambaUtility(stats, f, 1)).toBeCloseTo(shambaExpectedIo(stats, f, 0) - shambaExpectedIo(stats, f, 1), 14);
    });
  }

  it('exact-k {3,4} modules, α=0, β=0.3: u1 = 0.2724, u2 = 0.0250 (abs 5e-5)', () => {
    const fk = [fprWithHashes(5, 3), fprWithHashes(5, 4)];
    expectClose(fk, [0.09185, 0.09195], 5e-6);
    const stats = { existingRatio: 0, accessFrequency: 0.3 };
    expectClose([shambaUtility(stats, fk, 1), shambaUtility(stats, fk, 2)], [0.2724, 0.025], 5e-5);
  });

  it('with β ≤ 1, u_2 ≤ f_sm(1 − f_sm) < 0.1 — module 2 is always skipped under P (pitfall P-B3)', () => {
    for (const a of [0, 0.3, 0.7]) {
      for (const b of [0.1, 0.5, 1]) expect(shambaModulesToUse({ existingRatio: a, accessFrequency: b }, f, 'partial')).toBe(1);
    }
    // With β > 1 (emulator normalization) and the same thresholds module 2 can be used.
    expect(shambaModulesToUse({ existingRatio: 0, accessFrequency: 2 }, f, 'partial')).toBe(2);
  });

  it('skipping is sequential: skipping slot 1 under F skips every later module (3 modules)', () => {
    const f3 = [0.2, 0.2, 0.2];
    expect(shambaModulesToUse({ existingRatio: 0, accessFrequency: 0.1 }, f3, 'full', [0.2, 0, 0])).toBe(0);
    expect(shambaModulesToUse({ existingRatio: 0, accessFrequency: 1 }, f3, 'full', [0.2, 0.1, 0.1])).toBe(2);
    expect(shambaDefaultThresholds(3)).toEqual([0.2, 0.1, 0.1]);
  });
});

// ───────────────────────────────────────────── §B.7 S3

describe('S3 per-access expected I/O (α=0.2, two modules of 10 pages, h_2 = 0.3, index cached, 1-page data block)', () => {
  const fs = fprFromBitsPerKey(5);
  // Printed to 4 decimals: abs 5e-5.
  const rows: { h1: number; used: number; filter: number; data: number; total: number }[] = [
    { h1: 1.0, used: 2, filter: 1.9069, data: 0.2066, total: 2.1134 },
    { h1: 1.0, used: 1, filter: 0, data: 0.2724, total: 0.2724 },
    { h1: 1.0, used: 0, filter: 0, data: 1.0, total: 1.0 },
    { h1: 0.5, used: 2, filter: 6.9069, data: 0.2066, total: 7.1134 },
    { h1: 0.5, used: 1, filter: 5.0, data: 0.2724, total: 5.2724 },
    { h1: 0.5, used: 0, filter: 0, data: 1.0, total: 1.0 },
  ];
  for (const r of rows) {
    it(`h1=${r.h1} modules used=${r.used}`, () => {
      const io = shambaPerAccessIo({ existingRatio: 0.2, moduleFprs: [fs, fs], modulePages: [10, 10], moduleHitRates: [r.h1, 0.3], modulesUsed: r.used });
      expectClose([io.filter, io.index, io.data, io.total], [r.filter, 0, r.data, r.total], 5e-5);
    });
  }

  it('per-lookup total weights each file by β and counts index misses', () => {
    const base = { existingRatio: 0, moduleFprs: [0.5], modulePages: [1], moduleHitRates: [1], modulesUsed: 1, indexPages: 2, indexHitRate: 0.5 };
    // proceed = 0.5 → index 0.5·0.5·2 = 0.5, data 0.5 → 1.0 per access.
    expect(shambaPerAccessIo(base).total).toBeCloseTo(1, 14);
    expect(shambaLookupIo([{ ...base, accessFrequency: 0.25 }, { ...base, accessFrequency: 0.5 }])).toBeCloseTo(0.75, 14);
  });
});

// ───────────────────────────────────────────── §B.7 S4 sizes

describe('S4 sizes', () => {
  it('Eq 11: smallest file for 2 modules, 4 KiB pages, 256 B entries, 10 bpk = 1,677,721.6 B', () => {
    expect(shambaMinFileBytes(2, 4096, 256, 10)).toBeCloseTo(1677721.6, 6);
    expect(shambaFilterPages(1677721.6, 256, 10, 4096)).toBeCloseTo(2, 12);
  });

  it('Table 2: index/filter ratio for a 4 MB SST, 1024 pages of 4 KiB, 10 bpk (printed to 1 decimal; abs 0.05)', () => {
    const table: Record<number, { filter: number; ratios: (number | null)[] }> = {
      64: { filter: 81920, ratios: [0.1, 0.4, null, null, null, null] },
      128: { filter: 40960, ratios: [0.2, 0.8, 1.6, 2.4, null, null] },
      256: { filter: 20480, ratios: [0.4, 1.6, 3.2, 4.8, 6.4, null] },
      512: { filter: 10240, ratios: [0.8, 3.2, 6.4, 9.6, 12.8, 25.6] },
      1024: { filter: 5120, ratios: [1.6, 6.4, 12.8, 19.2, 25.6, 51.2] },
    };
    const keys = [8, 32, 64, 96, 128, 256];
    for (const [E, row] of Object.entries(table)) {
      keys.forEach((K, i) => {
        const expected = row.ratios[i];
        const input = { dataBlocks: 1024, keyBytes: K, entryBytes: Number(E), pageBytes: 4096, bitsPerKey: 10 };
        if (expected === null) {
          expect(() => shambaSstMetadata(input)).toThrow(/entryBytes/);
          return;
        }
        const m = shambaSstMetadata(input);
        expect(m.filterBytes).toBe(row.filter);
        expect(Math.abs(m.indexToFilterRatio - expected)).toBeLessThan(0.05);
      });
    }
  });

  it('Table 5: S_I = 32 KiB, S_F = 80 KiB = 20 pages; 256 files → 20 MiB filters + 8 MiB index; partition = 2.5 pages', () => {
    const m = shambaSstMetadata({ dataBlocks: 1024, keyBytes: 32, entryBytes: 64, pageBytes: 4096, bitsPerKey: 10 });
    expect([m.indexBytes, m.filterBytes]).toEqual([32768, 81920]);
    expect(256 * m.filterBytes).toBe(20 * 1024 * 1024);
    expect(256 * m.indexBytes).toBe(8 * 1024 * 1024);
    const fileBytes = 4 * 1024 * 1024;
    expect(shambaFilterPages(fileBytes, 64, 10, 4096)).toBe(20);
    expect(shambaFilterPages(fileBytes / 8, 64, 10, 4096)).toBe(2.5);
    // 20 pages would allow 20 modules, but k = 7 probes allow at most 7 (P-B6).
    expect(shambaMaxModules(fileBytes, 64, 10, 4096)).toBe(7);
    expect(shambaMaxModules(fileBytes / 32, 64, 10, 4096)).toBe(0);
    expect(shambaCacheBudgetBytes(0.5, 8 * 1024 * 1024, 20 * 1024 * 1024)).toBe(14 * 1024 * 1024);
  });

  it('Fig 15 setting (E=128, 10 bpk, 4 KiB): ratio = 0.025·K → 0.2 at K=8, 3.1 at K=124', () => {
    const r = (K: number): number => shambaSstMetadata({ dataBlocks: 1024, keyBytes: K, entryBytes: 128, pageBytes: 4096, bitsPerKey: 10 }).indexToFilterRatio;
    expect(r(8)).toBeCloseTo(0.2, 12);
    expect(r(124)).toBeCloseTo(3.1, 12);
  });
});

// ───────────────────────────────────────────── module sizing and statistics

describe('module sizing and statistics', () => {
  it('SHaMBa-prop: 70 % budget → 7 + 3 bits; ≥ 100 % → one module; SHaMBa-eq: b/D each', () => {
    expect(shambaProportionalSplit(10, 0.7)).toEqual([7, 3]);
    expect(shambaProportionalSplit(10, 0.25)).toEqual([2, 8]);
    expect(shambaProportionalSplit(10, 1.5)).toEqual([10]);
    expect(shambaEqualSplit(10, 2)).toEqual([5, 5]);
  });

  it('emulator stats, inheritance from the last level (α / T per level) and the w(t) blend', () => {
    expect(shambaMeasuredStats(10, 4, 19)).toEqual({ existingRatio: 0.4, accessFrequency: 0.5 });
    expect(shambaMeasuredStats(0, 0, 5)).toEqual({ existingRatio: 0, accessFrequency: 0 });
    const inh = shambaInheritedStats({ existingRatio: 0.8, accessFrequency: 0.3 }, 4, 2, 4);
    expect(inh.existingRatio).toBeCloseTo(0.05, 14);
    expect(inh.accessFrequency).toBe(0.3);
    const measured = { existingRatio: 0.4, accessFrequency: 0.1 };
    expect(shambaBlendStats(measured, inh, 0, 100)).toEqual(inh);
    expect(shambaBlendStats(measured, inh, 250, 100)).toEqual(measured);
    const half = shambaBlendStats(measured, inh, 50, 100);
    expect(half.existingRatio).toBeCloseTo(0.225, 14);
    expect(half.accessFrequency).toBeCloseTo(0.2, 14);
  });
});

// ───────────────────────────────────────────── two-priority cache

describe('two-priority block cache with demotion (§B.4.3)', () => {
  it('places module 1 and index blocks high, later modules and data low', () => {
    expect(shambaBlockPriority('filter', 1)).toBe('high');
    expect(shambaBlockPriority('filter', 2)).toBe('low');
    expect(shambaBlockPriority('index')).toBe('high');
    expect(shambaBlockPriority('data')).toBe('low');
  });

  it('demotes high-pool overflow to the low pool, evicts low LRU, and a hit refreshes recency', () => {
    const blk = (key: string) => ({ key, bytes: 1 });
    let c = shambaCacheNew(4, 0.5);
    c = shambaCachePut(c, blk('f1'), 'high');
    c = shambaCachePut(c, blk('f2'), 'high');
    c = shambaCachePut(c, blk('f3'), 'high');
    expect(c.high.map((b) => b.key)).toEqual(['f2', 'f3']);
    expect(c.low.map((b) => b.key)).toEqual(['f1']); // demoted, not dropped
    c = shambaCachePut(c, blk('d1'), 'low');
    expect(shambaCacheGet(c, 'f1').hit).toBe(true);
    c = shambaCachePut(c, blk('d2'), 'low'); // 5 blocks > 4: the low pool's LRU (f1) goes
    expect(shambaCacheGet(c, 'f1').hit).toBe(false);
    const g = shambaCacheGet(c, 'd1');
    expect(g.hit).toBe(true);
    c = shambaCachePut(g.state, blk('d3'), 'low'); // d1 was refreshed, so d2 is evicted
    expect(c.low.map((b) => b.key)).toEqual(['d1', 'd3']);
    expect(c.high.map((b) => b.key)).toEqual(['f2', 'f3']);
  });
});

// ───────────────────────────────────────────── validation

describe('invalid input throws naming the field and range', () => {
  it('rejects bad MBF parameters', () => {
    expect(() => modularBloom(-1, 2)).toThrow(ModelInputError);
    expect(() => modularBloom(-1, 2)).toThrow('bitsPerKey: must be a number in [0, 1000], got -1');
    expect(() => modularBloom(10, 0)).toThrow('modules: must be an integer in [1, 64], got 0');
    expect(() => modularBloom(10, 2.5)).toThrow(/modules: must be an integer/);
    expect(() => mbfAnalyze([0.5, 1.2])).toThrow('moduleFprs[1]: must be a number in [0, 1], got 1.2');
    expect(() => mbfAnalyze([])).toThrow(/moduleFprs/);
    expect(() => mbfSplitHashes(2, 3)).toThrow(/totalHashes: must be an integer in \[3,/);
    expect(() => mbfModuleFpr({ bitsPerKey: 5, hashes: 0 })).toThrow(/module\.hashes/);
  });

  it('rejects bad statistics and skip settings', () => {
    const f = [0.1, 0.1];
    expect(() => shambaUtility({ existingRatio: 1.5, accessFrequency: 0.2 }, f, 1)).toThrow('existingRatio: must be a number in [0, 1], got 1.5');
    expect(() => shambaUtility({ existingRatio: 0.5, accessFrequency: -1 }, f, 1)).toThrow(/accessFrequency: must be a number in \[0, ∞\)/);
    expect(() => shambaUtility({ existingRatio: 0.5, accessFrequency: 0.2 }, f, 3)).toThrow('module: must be an integer in [1, 2], got 3');
    expect(() => shambaModulesToUse({ existingRatio: 0, accessFrequency: 1 }, f, 'sometimes' as 'none')).toThrow(/policy: must be one of/);
    expect(() => shambaModulesToUse({ existingRatio: 0, accessFrequency: 1 }, f, 'full', [0.2])).toThrow(/thresholds/);
    expect(() => shambaPerAccessIo({ existingRatio: 0, moduleFprs: f, modulePages: [1], moduleHitRates: [1, 1], modulesUsed: 1 })).toThrow(/modulePages/);
    expect(() => shambaPerAccessIo({ existingRatio: 0, moduleFprs: f, modulePages: [1, 1], moduleHitRates: [1, 2], modulesUsed: 1 })).toThrow('moduleHitRates[1]: must be a number in [0, 1], got 2');
    expect(() => shambaCacheNew(100, 1.5)).toThrow('highRatio: must be a number in [0, 1], got 1.5');
    expect(() => shambaInheritedStats({ existingRatio: 0.5, accessFrequency: 1 }, 4, 5, 4)).toThrow('level: must be an integer in [1, 4], got 5');
    expect(() => shambaBlendStats({ existingRatio: 0.5, accessFrequency: 1 }, { existingRatio: 0.5, accessFrequency: 1 }, 1, 0)).toThrow(/tau/);
  });
});

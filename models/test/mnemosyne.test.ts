import { describe, expect, it } from 'vitest';
import { fprFromBitsPerKey } from '../src/bloom';
import {
  type MnemosyneFile,
  merlinEstimate,
  merlinFlushPrior,
  merlinInherit,
  merlinNewFile,
  merlinRecordProbe,
  type MerlinCompactionOutput,
  type MerlinState,
  mnemosyneAllocation,
  mnemosyneBinarySearch,
  mnemosyneBuildBitsPerKey,
  mnemosyneEstimatorAccuracy,
  mnemosyneExpectedCost,
  mnemosyneGradientDescent,
  mnemosyneLookupCost,
  mnemosyneMonkeyClosedForm,
  mnemosyneMonkeyPlusAllocation,
  mnemosyneNaiveInherit,
  mnemosyneNaiveRecordProbe,
  mnemosyneSizeNewFiles,
  mnemosyneSkipFilter,
  mnemosyneSortAndSearch,
  mnemosyneUniformAllocation,
  mnemosyneWaterFilling,
} from '../src/mnemosyne';
import { ModelInputError } from '../src/validate';
import { mulberry32 } from '../src/random';

const randInt = (r: () => number, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));

const files = (n: readonly number[], z: readonly number[]): MnemosyneFile[] => n.map((entries, i) => ({ entries, emptyProbes: z[i] }));
const expectClose = (actual: readonly number[], expected: readonly number[], tol: number): void => {
  expect(actual.length).toBe(expected.length);
  actual.forEach((v, i) => expect(Math.abs(v - expected[i]), `index ${i}: ${v} vs ${expected[i]}`).toBeLessThanOrEqual(tol));
};

// ───────────────────────────────────────────── shared vectors (also used by the Rust engine)

interface VectorCase {
  name: string;
  files: MnemosyneFile[];
  filterBits: number;
  bitsPerKey: number[];
  logC: number | null;
  bitsPerKeyMinOne: number[];
  logCMinOne: number | null;
}

async function loadVectors(): Promise<VectorCase[]> {
  // A non-literal specifier keeps tsc from needing resolveJsonModule; Vitest resolves it relative to this file.
  const path = './vectors/mnemosyne-allocation.json';
  const mod = (await import(path)) as { default: { cases: VectorCase[] } };
  return mod.default.cases;
}

describe('mnemosyne-allocation.json (values printed by the reference python at full precision)', () => {
  it('has the ~10+ cases the engine is tested against', async () => {
    const cases = await loadVectors();
    expect(cases.length).toBeGreaterThanOrEqual(10);
    expect(cases.some((c) => c.files.every((f) => f.emptyProbes === 0))).toBe(true);
    expect(cases.some((c) => c.filterBits === 0)).toBe(true);
  });

  it('mnemosyneAllocation reproduces every case (abs 1e-9 bits/key; python prints 17 digits)', async () => {
    for (const c of await loadVectors()) {
      expectClose(mnemosyneAllocation(c.files, c.filterBits), c.bitsPerKey, 1e-9);
    }
  });

  it('the RocksDB variant and C match too (abs 1e-9)', async () => {
    for (const c of await loadVectors()) {
      expectClose(mnemosyneAllocation(c.files, c.filterBits, { minBitsPerKey: 1 }), c.bitsPerKeyMinOne, 1e-9);
      const s = mnemosyneSortAndSearch(c.files, c.filterBits);
      if (c.logC === null) expect(s.logC, c.name).toBeNull();
      else expect(Math.abs((s.logC ?? NaN) - c.logC), c.name).toBeLessThan(1e-9);
      const r = mnemosyneSortAndSearch(c.files, c.filterBits, { minBitsPerKey: 1 });
      if (c.logCMinOne === null) expect(r.logC, c.name).toBeNull();
      else expect(Math.abs((r.logC ?? NaN) - c.logCMinOne), c.name).toBeLessThan(1e-9);
    }
  });

  it('binary search and water-filling agree with the vectors (abs 1e-9)', async () => {
    for (const c of await loadVectors()) {
      expectClose(mnemosyneBinarySearch(c.files, c.filterBits).bitsPerKey, c.bitsPerKey, 1e-9);
      expectClose(mnemosyneWaterFilling(c.files, c.filterBits).bitsPerKey, c.bitsPerKey, 1e-9);
    }
  });
});

// ───────────────────────────────────────────── §A.7 M1

describe('M1 hand-checkable instance n=[100,200,400], z=[50,10,1]', () => {
  const f = files([100, 200, 400], [50, 10, 1]);
  // Reference prints C and bpk to 6 decimals and costs to 6 decimals: abs 5e-7 (rounding of the print).
  const rows = [
    { M: 350, C: -2.374733, bpk: [3.5, 0, 0], cost: 20.303935, C1: -2.374733, bpk1: [3.5, 0, 0], cost1: 20.303935, uni: 47.973432 },
    { M: 700, C: -3.349261, bpk: [5.528353, 0.735824, 0], cost: 11.533088, C1: -4.056318, bpk1: [7.0, 0, 0], cost1: 12.731264, uni: 37.728691 },
    { M: 1400, C: -4.470318, bpk: [7.861686, 3.069157, 0], cost: 4.433103, C1: -4.470318, bpk1: [7.861686, 3.069157, 0], cost1: 4.433103, uni: 23.335314 },
    { M: 2800, C: -6.300451, bpk: [11.670867, 6.878338, 0.643114], cost: 1.284834, C1: -6.712432, bpk1: [12.528353, 7.735824, 0], cost1: 1.364711, uni: 8.926834 },
  ];
  for (const r of rows) {
    it(`M=${r.M}: exact and min-1 variant, cost, uniform cost (abs 5e-7)`, () => {
      const e = mnemosyneSortAndSearch(f, r.M);
      expect(Math.abs((e.logC ?? NaN) - r.C)).toBeLessThan(5e-7);
      expectClose(e.bitsPerKey, r.bpk, 5e-7);
      expect(Math.abs(mnemosyneExpectedCost(f, e.bitsPerKey) - r.cost)).toBeLessThan(5e-7);
      const m1 = mnemosyneSortAndSearch(f, r.M, { minBitsPerKey: 1 });
      expect(Math.abs((m1.logC ?? NaN) - r.C1)).toBeLessThan(5e-7);
      expectClose(m1.bitsPerKey, r.bpk1, 5e-7);
      expect(Math.abs(mnemosyneExpectedCost(f, m1.bitsPerKey) - r.cost1)).toBeLessThan(5e-7);
      expect(Math.abs(mnemosyneExpectedCost(f, mnemosyneUniformAllocation(f, r.M)) - r.uni)).toBeLessThan(5e-7);
    });
  }

  it('hand trace at avg bpk 2: file 3 is dropped, budget 786.17 + 613.83 = 1400 (rel 1e-12)', () => {
    const s = mnemosyneSortAndSearch(f, 1400);
    expect(s.activeFiles).toBe(2);
    expect(s.bitsPerKey[0] * 100 + s.bitsPerKey[1] * 200).toBeCloseTo(1400, 9);
  });
});

// ───────────────────────────────────────────── §A.7 M2 Example A

const nA = [1000, 2000, 2000, 4000, 4000, 4000, 4000];
const levelOf = [0, 1, 1, 2, 2, 2, 2];
const zHalf = [9762, 7048, 1762, 2500, 1500, 750, 250];
const xHalf = [238, 762, 190, 1905, 1143, 571, 190];
const zZero = [9524, 6095, 1524, 0, 0, 0, 0];
const xZero = [476, 1524, 381, 3810, 2286, 1143, 381];
const Q = 10000;

function monkeyPlusPerFile(avgBpk: number): number[] {
  const perLevel = mnemosyneMonkeyPlusAllocation([1000, 4000, 16000], avgBpk * 21000);
  return levelOf.map((l) => perLevel[l]);
}

describe('M2 Example A (3 levels, 7 files, skewed lookups)', () => {
  // bpk printed to 4 decimals (abs 5e-5), C to 6 (abs 5e-7), per-lookup costs to 5 (abs 5e-6).
  const cases = [
    { z: zHalf, x: xHalf, b: 2, C: -1.649082, mn: [8.1747, 6.054, 3.1686, 2.4541, 1.3909, 0, 0], unn: [0.90174, 0.44412, 0.34989], tot: [1.40164, 0.94402, 0.84979] },
    { z: zHalf, x: xHalf, b: 5, C: -3.309184, mn: [11.63, 9.5093, 6.6239, 5.9094, 4.8462, 3.4035, 1.1169], unn: [0.21336, 0.10508, 0.07675], tot: [0.71326, 0.60498, 0.57665] },
    { z: zHalf, x: xHalf, b: 8, C: -4.750543, mn: [14.63, 12.5093, 9.6239, 8.9094, 7.8462, 6.4035, 4.1169], unn: [0.05048, 0.02486, 0.01816], tot: [0.55038, 0.52476, 0.51806] },
    { z: zZero, x: xZero, b: 2, C: -3.248037, mn: [11.4514, 9.0797, 6.1946, 0, 0, 0, 0], unn: [0.6558, 0.14212, 0.01943], tot: [1.6559, 1.14222, 1.01953] },
    { z: zZero, x: xZero, b: 5, C: -9.301745, mn: [24.0514, 21.6797, 18.7946, 0, 0, 0, 0], unn: [0.15517, 0.03363, 0.00005], tot: [1.15527, 1.03373, 1.00015] },
    { z: zZero, x: xZero, b: 8, C: -15.355453, mn: [36.6514, 34.2797, 31.3946, 0, 0, 0, 0], unn: [0.03671, 0.00796, 0.0], tot: [1.03681, 1.00806, 1.0001] },
  ];
  for (const c of cases) {
    it(`Z=${c.z === zHalf ? 0.5 : 0} bpk=${c.b}: Mnemosyne bpk, C, and uniform / Monkey+ / Mnemosyne costs`, () => {
      const f = c.z.map((z, i) => ({ entries: nA[i], emptyProbes: z, foundProbes: c.x[i] }));
      const M = c.b * 21000;
      const s = mnemosyneSortAndSearch(f, M);
      expect(Math.abs((s.logC ?? NaN) - c.C)).toBeLessThan(5e-7);
      expectClose(s.bitsPerKey, c.mn, 5e-5);
      const plans = [mnemosyneUniformAllocation(f, M), monkeyPlusPerFile(c.b), s.bitsPerKey];
      plans.forEach((bpk, k) => {
        const cost = mnemosyneLookupCost(f, bpk, Q);
        expect(Math.abs(cost.unnecessaryReadsPerLookup - c.unn[k])).toBeLessThan(5e-6);
        expect(Math.abs(cost.dataReadsPerLookup - c.tot[k])).toBeLessThan(5e-6);
      });
    });
  }

  it('Monkey+ per-level bpk (abs 5e-5): [6.9464, 4.0610, 1.1756] at bpk 2', () => {
    expectClose(mnemosyneMonkeyPlusAllocation([1000, 4000, 16000], 42000), [6.9464, 4.061, 1.1756], 5e-5);
  });

  it('Z=0.5 curve bpk 2..11: uniform / Monkey+ / Mnemosyne unnecessary reads per lookup (abs 5e-6)', () => {
    const curve = [
      [0.90174, 0.44412, 0.34989], [0.55773, 0.27469, 0.20446], [0.34496, 0.1699, 0.12408], [0.21336, 0.10508, 0.07675],
      [0.13196, 0.06499, 0.04747], [0.08162, 0.0402, 0.02936], [0.05048, 0.02486, 0.01816], [0.03122, 0.01538, 0.01123],
      [0.01931, 0.00951, 0.00695], [0.01194, 0.00588, 0.0043],
    ];
    const f = files(nA, zHalf);
    curve.forEach((row, k) => {
      const b = k + 2;
      const M = b * 21000;
      const got = [mnemosyneUniformAllocation(f, M), monkeyPlusPerFile(b), mnemosyneAllocation(f, M)].map((bpk) => mnemosyneExpectedCost(f, bpk) / Q);
      expectClose(got, row, 5e-6);
      expect(got[2]).toBeLessThanOrEqual(got[1]);
      expect(got[1]).toBeLessThanOrEqual(got[0]);
    });
  });

  it('query-time skip rule at bpk 2, Z=0.5: only f6 and f7 skip (e^(−C) = 5.2022)', () => {
    const f = files(nA, zHalf);
    const { logC } = mnemosyneSortAndSearch(f, 42000);
    expect(Math.exp(-(logC ?? NaN))).toBeCloseTo(5.2022, 4);
    expect(f.map((file) => mnemosyneSkipFilter(file, logC))).toEqual([false, false, false, false, false, true, true]);
    expect(mnemosyneSkipFilter(f[0], null)).toBe(false);
    expect(mnemosyneSkipFilter({ entries: 10, emptyProbes: 0 }, logC)).toBe(true);
  });

  it('scale test: z×37 leaves bpk unchanged (abs 1e-9) and moves C by ln 37 = 3.610918 (abs 5e-7)', () => {
    const a = mnemosyneSortAndSearch(files(nA, zHalf), 42000);
    const b = mnemosyneSortAndSearch(files(nA, zHalf.map((z) => z * 37)), 42000);
    expectClose(b.bitsPerKey, a.bitsPerKey, 1e-9);
    expect(Math.abs((b.logC ?? NaN) - (a.logC ?? NaN) - 3.610918)).toBeLessThan(5e-7);
  });

  it('the min-1 variant gives the same answers in Example A (no file lands in (0, 1))', () => {
    for (const b of [2, 5, 8]) {
      expectClose(mnemosyneAllocation(files(nA, zHalf), b * 21000, { minBitsPerKey: 1 }), mnemosyneAllocation(files(nA, zHalf), b * 21000), 1e-12);
    }
  });
});

// ───────────────────────────────────────────── §A.7 M3 Monkey closed form vs exact

describe('M3 Monkey closed form (ceiling Y) vs exact finite-L optimum', () => {
  // ε printed to 6 decimals (abs 5e-7), Cost_min to 6, exact bpk to 4 (abs 5e-5).
  const rows = [
    { T: 4, L: 3, b: 5, Y: 0, R: 0.191573, closed: [0.00898, 0.03592, 0.14368], exact: [9.9464, 7.061, 4.1756] },
    { T: 4, L: 3, b: 2, Y: 0, R: 0.809672, closed: [0.037953, 0.151814, 0.607254], exact: [6.9464, 4.061, 1.1756] },
    { T: 4, L: 3, b: 0.5, Y: 1, R: 1.809672, closed: [0.151814, 0.607254, 1], exact: [4.4083, 1.5229, 0] },
    { T: 10, L: 5, b: 10, Y: 0, R: 0.011757, closed: [0.000001, 0.000011, 0.000106, 0.001058, 0.010581], exact: [28.6379, 23.8453, 19.0528, 14.2603, 9.4677] },
    { T: 4, L: 5, b: 10, Y: 0, R: 0.01734, closed: [0.000051, 0.000203, 0.000813, 0.003251, 0.013005], exact: [20.5939, 17.7085, 14.8231, 11.9377, 9.0523] },
  ];
  for (const r of rows) {
    it(`T=${r.T} L=${r.L} bpk=${r.b}`, () => {
      const c = mnemosyneMonkeyClosedForm(r.T, r.L, r.b);
      expect(c.levelsWithoutFilter).toBe(r.Y);
      expect(Math.abs(c.expectedCost - r.R)).toBeLessThan(5e-7);
      expectClose(c.fprs, r.closed, 5e-7);
      const nj = Array.from({ length: r.L }, (_, j) => Math.pow(r.T, j));
      const total = nj.reduce((a, b) => a + b, 0);
      expectClose(mnemosyneMonkeyPlusAllocation(nj, r.b * total), r.exact, 5e-5);
    });
  }

  it('neighbouring filtered levels differ by ln T / ln²2 bits (property 4; abs 1e-9)', () => {
    const bpk = mnemosyneMonkeyPlusAllocation([1, 4, 16, 64], 10 * 85);
    for (let j = 0; j < 3; j++) expect(bpk[j] - bpk[j + 1]).toBeCloseTo(Math.log(4) / (Math.LN2 * Math.LN2), 9);
  });
});

// ───────────────────────────────────────────── §A.3.6 properties on random instances

function randomInstance(r: () => number): { f: MnemosyneFile[]; M: number } {
  const F = randInt(r, 1, 40);
  const n = Array.from({ length: F }, () => randInt(r, 1, 10000));
  const z = n.map(() => [0, randInt(r, 1, 5000), randInt(r, 1, 50)][randInt(r, 0, 2)]);
  const avg = [0.5, 1, 2, 5, 10][randInt(r, 0, 4)];
  return { f: files(n, z), M: avg * n.reduce((a, b) => a + b, 0) };
}

describe('properties (§A.3.6, seeded PRNG, 2000 instances)', () => {
  it('linear, binary and water-filling solvers agree (max abs bpk difference < 1e-9; python saw 1.6e-14)', () => {
    const r = mulberry32(1);
    let worst = 0;
    let checked = 0;
    for (let t = 0; t < 2000; t++) {
      const { f, M } = randomInstance(r);
      if (f.every((x) => x.emptyProbes === 0)) continue;
      const a = mnemosyneSortAndSearch(f, M).bitsPerKey;
      const b = mnemosyneBinarySearch(f, M).bitsPerKey;
      const c = mnemosyneWaterFilling(f, M).bitsPerKey;
      a.forEach((v, i) => (worst = Math.max(worst, Math.abs(v - b[i]), Math.abs(v - c[i]))));
      const a1 = mnemosyneSortAndSearch(f, M, { minBitsPerKey: 1 }).bitsPerKey;
      const b1 = mnemosyneBinarySearch(f, M, { minBitsPerKey: 1 }).bitsPerKey;
      a1.forEach((v, i) => (worst = Math.max(worst, Math.abs(v - b1[i]))));
      checked++;
    }
    expect(checked).toBeGreaterThan(1500);
    expect(worst).toBeLessThan(1e-9);
  });

  it('budget is spent exactly (rel 1e-10), bpk ∈ {0} ∪ [1, ∞) in the min-1 variant, ordering by z/n holds', () => {
    const r = mulberry32(2);
    for (let t = 0; t < 500; t++) {
      const { f, M } = randomInstance(r);
      if (f.every((x) => x.emptyProbes === 0)) continue;
      for (const minBitsPerKey of [0, 1]) {
        const s = mnemosyneSortAndSearch(f, M, { minBitsPerKey });
        if (s.logC === null) continue;
        const spent = f.reduce((acc, x, i) => acc + x.entries * s.bitsPerKey[i], 0);
        expect(Math.abs(spent - M) / M).toBeLessThan(1e-10);
        if (minBitsPerKey === 1) s.bitsPerKey.forEach((b) => expect(b === 0 || b >= 1 - 1e-9).toBe(true));
        const order = f.map((x, i) => ({ ratio: x.emptyProbes / x.entries, b: s.bitsPerKey[i] })).sort((p, q) => q.ratio - p.ratio);
        for (let i = 1; i < order.length; i++) expect(order[i].b).toBeLessThanOrEqual(order[i - 1].b + 1e-9);
      }
    }
  });

  it('scale invariance on random instances: z×s leaves bpk unchanged (abs 1e-9), C moves by ln s (abs 1e-9)', () => {
    const r = mulberry32(3);
    for (let t = 0; t < 200; t++) {
      const { f, M } = randomInstance(r);
      if (f.every((x) => x.emptyProbes === 0)) continue;
      const s = 0.01 + r() * 100;
      const a = mnemosyneSortAndSearch(f, M);
      const b = mnemosyneSortAndSearch(f.map((x) => ({ ...x, emptyProbes: x.emptyProbes * s })), M);
      expectClose(b.bitsPerKey, a.bitsPerKey, 1e-9);
      expect(Math.abs((b.logC ?? NaN) - (a.logC ?? NaN) - Math.log(s))).toBeLessThan(1e-9);
    }
  });

  it('Mnemosyne ≤ Monkey+ ≤ uniform cost under skewed all-empty lookups, same budget (200 random trees)', () => {
    const r = mulberry32(4);
    for (let t = 0; t < 200; t++) {
      const T = randInt(r, 2, 10);
      const L = randInt(r, 2, 5);
      const lookups = 10000;
      const perFile: MnemosyneFile[] = [];
      const levelEntries: number[] = [];
      const fileLevel: number[] = [];
      for (let l = 0; l < L; l++) {
        const count = Math.min(64, Math.pow(T, l));
        const entries = 1000 * Math.pow(T, l);
        levelEntries.push(entries);
        // Zipf-like skew over the level's files: every empty lookup probes exactly one file per level.
        const w = Array.from({ length: count }, (_, i) => 1 / Math.pow(i + 1, 1.2));
        const sum = w.reduce((a, b) => a + b, 0);
        w.forEach((wi) => {
          perFile.push({ entries: entries / count, emptyProbes: (lookups * wi) / sum });
          fileLevel.push(l);
        });
      }
      const M = [1, 2, 4, 8][randInt(r, 0, 3)] * levelEntries.reduce((a, b) => a + b, 0);
      const perLevel = mnemosyneMonkeyPlusAllocation(levelEntries, M);
      const costs = [mnemosyneAllocation(perFile, M), fileLevel.map((l) => perLevel[l]), mnemosyneUniformAllocation(perFile, M)].map((b) =>
        mnemosyneExpectedCost(perFile, b),
      );
      expect(costs[0]).toBeLessThanOrEqual(costs[1] * (1 + 1e-12));
      expect(costs[1]).toBeLessThanOrEqual(costs[2] * (1 + 1e-12));
    }
  });

  it('single active file takes the whole budget (property 7): bpk = M/n, also when huge (503 bpk case)', () => {
    const f = files([10, 1000, 5000], [3, 0, 0]);
    expect(mnemosyneAllocation(f, 5030)).toEqual([503, 0, 0]);
  });

  it('gradient descent reaches the same cost within 1e-4 relative (1-bit granularity)', () => {
    const r = mulberry32(7);
    for (const F of [10, 30]) {
      const f = Array.from({ length: F }, () => ({ entries: randInt(r, 1000, 100000), emptyProbes: randInt(r, 1, 5000) }));
      const M = 5 * f.reduce((a, x) => a + x.entries, 0);
      const exact = mnemosyneExpectedCost(f, mnemosyneAllocation(f, M));
      const gd = mnemosyneExpectedCost(f, mnemosyneGradientDescent(f, M));
      expect(gd).toBeGreaterThanOrEqual(exact * (1 - 1e-12));
      expect((gd - exact) / exact).toBeLessThan(1e-4);
    }
  });
});

// ───────────────────────────────────────────── rounding, control loop

describe('RocksDB build rounding and the flush/compaction control loop', () => {
  it('bpk < 0.5 → 0, [0.5, 1) → 1, otherwise kept, capped', () => {
    expect([0, 0.49, 0.5, 0.99, 1, 3.7, 100].map((b) => mnemosyneBuildBitsPerKey(b, 30))).toEqual([0, 0, 1, 1, 1, 3.7, 30]);
  });

  it('sizes only the new files from the RocksDB-variant C over live ∪ new files', () => {
    const live = files([100, 200], [50, 10]);
    const fresh = files([400], [1]);
    const { bitsPerKey, logC } = mnemosyneSizeNewFiles({ liveFiles: live, newFiles: fresh, averageBitsPerKey: 4 });
    // M1 at avg bpk 4, min-1 variant: C = −6.712432. The solver dropped file 3 (its test ran with the C of all
    // three files), but the reference's control loop re-applies the formula with the final C:
    // −(ln 400 + C)/ln²2 = 1.500599 ≥ 0.5, so the new file is built with 1.5 bits (abs 5e-6).
    expect(Math.abs((logC ?? NaN) + 6.712432)).toBeLessThan(5e-7);
    expect(Math.abs(bitsPerKey[0] - 1.500599)).toBeLessThan(5e-6);
    expect(mnemosyneSkipFilter(fresh[0], logC)).toBe(false);
    // A cold new file (z/n far below e^C) gets no filter and would be skipped.
    const cold = mnemosyneSizeNewFiles({ liveFiles: live, newFiles: files([400], [0.001]), averageBitsPerKey: 4 });
    expect(cold.bitsPerKey).toEqual([0]);
    expect(mnemosyneSkipFilter({ entries: 400, emptyProbes: 0.001 }, cold.logC)).toBe(true);
    const hot = mnemosyneSizeNewFiles({ liveFiles: live, newFiles: files([400], [300]), averageBitsPerKey: 4, maxBitsPerKey: 10 });
    expect(hot.bitsPerKey[0]).toBeGreaterThan(1);
    expect(hot.bitsPerKey[0]).toBeLessThanOrEqual(10);
  });
});

// ───────────────────────────────────────────── §A.7 M5 Merlin

function trace(probes: readonly [number, boolean][], w: number): MerlinState {
  return probes.reduce((s, [seq, found]) => merlinRecordProbe(s, seq, found, w), merlinNewFile(0));
}

describe('M5 Merlin estimator (w = 4, β = 0.8)', () => {
  const s = trace(
    [
      [3, true],
      [7, false],
      [8, false],
      [15, true],
      [20, false],
      [26, false],
      [30, true],
    ],
    4,
  );

  it('window, bitmap, q and x after the trace', () => {
    expect(s.window.map((p) => p.seq)).toEqual([30, 26, 20, 15]);
    expect(s.window.map((p) => (p.found ? 1 : 0))).toEqual([1, 0, 0, 1]);
    expect([s.olderProbes, s.olderFound]).toEqual([3, 1]);
  });

  it('paper estimate at D=40: q=8.4211 x=3.9298 z=4.4912 (abs 5e-5)', () => {
    const e = merlinEstimate(s, 40, { windowSize: 4, beta: 0.8 });
    expect(Math.abs(e.probes - 8.4211)).toBeLessThan(5e-5);
    expect(Math.abs(e.found - 3.9298)).toBeLessThan(5e-5);
    expect(Math.abs(e.empty - 4.4912)).toBeLessThan(5e-5);
  });

  it('code-variant estimate at D=40: (7, 3) exactly', () => {
    const e = merlinEstimate(s, 40, { windowSize: 4, beta: 0.8, variant: 'code' });
    expect([e.probes, e.found]).toEqual([7, 3]);
  });

  it('steady file (w=64, every 10th lookup, half found): (200, 100) at D=2000; cold until 4000: paper (400, 200), code (200, 100)', () => {
    const probes: [number, boolean][] = Array.from({ length: 200 }, (_, i) => [10 * (i + 1), (i + 1) % 2 === 0]);
    const t = trace(probes, 64);
    const at2000 = merlinEstimate(t, 2000, { beta: 0.8 });
    expect(at2000.probes).toBeCloseTo(200, 9);
    expect(at2000.found).toBeCloseTo(100, 9);
    const paper = merlinEstimate(t, 4000, { beta: 0.8 });
    expect(paper.probes).toBeCloseTo(400, 9);
    expect(paper.found).toBeCloseTo(200, 9);
    const code = merlinEstimate(t, 4000, { beta: 0.8, variant: 'code' });
    expect([code.probes, code.found]).toEqual([200, 100]);
  });

  it('edge cases: empty window returns the inherited (q\', x\'); one probe uses Δ_old alone; q\'=0 uses the window ratio', () => {
    const inherited = merlinNewFile(100, { probes: 12, found: 5 });
    expect(merlinEstimate(inherited, 150)).toEqual({ probes: 12, found: 5, empty: 7 });
    const one = merlinRecordProbe(merlinNewFile(0), 20, true, 64);
    // Δ_old = 20 / (0 + 1); q = 40 / 20 = 2; x = 1·q.
    expect(merlinEstimate(one, 40)).toEqual({ probes: 2, found: 2, empty: 0 });
  });

  it('flush prior credits probes since time 0 at the L0 rate (P-A11)', () => {
    expect(merlinFlushPrior(1000, 0.3, 0.1)).toEqual({ probes: 300, found: 100 });
  });
});

describe('M5 inheritance at compaction', () => {
  const shallow = [{ id: 'A', probes: 100, found: 20 }];
  const deep = [
    { id: 'B', probes: 60, found: 30 },
    { id: 'C', probes: 50, found: 10 },
  ];
  const outputs: MerlinCompactionOutput[] = [{ fractions: { A: 0.6, B: 1 } }, { fractions: { A: 0.4, C: 1 } }];

  it('Eq 13: P = (72, 42, 30), Q = (58, 18, 40) (abs 1e-9)', () => {
    const [p, q] = merlinInherit(shallow, deep, outputs);
    expectClose([p.probes, p.found, p.empty, q.probes, q.found, q.empty], [72, 42, 30, 58, 18, 40], 1e-9);
  });

  it('corner case active (q_A = 300 → x̃_A = 190): P = (174, 42, 132), Q = (126, 18, 108)', () => {
    const [p, q] = merlinInherit([{ id: 'A', probes: 300, found: 20 }], deep, outputs);
    expectClose([p.probes, p.found, p.empty, q.probes, q.found, q.empty], [174, 42, 132, 126, 18, 108], 1e-9);
  });

  it('naive inheritance gives every output the mean: q = 70, x = 20', () => {
    const out = mnemosyneNaiveInherit([{ probes: 100, found: 20 }, { probes: 60, found: 30 }, { probes: 50, found: 10 }], 2);
    expect(out).toEqual([
      { probes: 70, found: 20 },
      { probes: 70, found: 20 },
    ]);
    expect(mnemosyneNaiveRecordProbe({ probes: 70, found: 20 }, true)).toEqual({ probes: 71, found: 21 });
  });

  it('inherited stats seed a new Merlin file', () => {
    const [p] = merlinInherit(shallow, deep, outputs);
    const st = merlinNewFile(500, p);
    expect([st.olderProbes, st.olderFound, st.window.length]).toEqual([72, 42, 0]);
  });

  it('rejects fractions that are out of range, over-allocated or name no input', () => {
    expect(() => merlinInherit(shallow, deep, [{ fractions: { A: 1.5 } }])).toThrow(/outputs\[0\]\.fractions\.A.*\[0, 1\]/);
    expect(() => merlinInherit(shallow, deep, [{ fractions: { A: 0.7 } }, { fractions: { A: 0.7 } }])).toThrow(/at most 1/);
    expect(() => merlinInherit(shallow, deep, [{ fractions: { Z: 0.1 } }])).toThrow(/names no compaction input/);
  });
});

describe('estimator accuracy metrics (Fig 10)', () => {
  it('Euclidean distance and cosine similarity', () => {
    const a = mnemosyneEstimatorAccuracy([3, 4], [0, 0]);
    expect(a.euclidean).toBe(5);
    expect(a.cosine).toBe(0);
    const b = mnemosyneEstimatorAccuracy([1, 2, 3], [2, 4, 6]);
    expect(b.cosine).toBeCloseTo(1, 12);
  });
});

// ───────────────────────────────────────────── validation

describe('invalid input throws naming the field and range', () => {
  it('solver inputs', () => {
    expect(() => mnemosyneAllocation([{ entries: -1, emptyProbes: 1 }], 10)).toThrow(ModelInputError);
    expect(() => mnemosyneAllocation([{ entries: -1, emptyProbes: 1 }], 10)).toThrow('files[0].entries: must be a number in [0, ∞), got -1');
    expect(() => mnemosyneAllocation([{ entries: 1, emptyProbes: Number.NaN }], 10)).toThrow('files[0].emptyProbes: must be a number in [0, ∞), got NaN');
    expect(() => mnemosyneAllocation([{ entries: 1, emptyProbes: 1 }], -5)).toThrow('filterBits: must be a number in [0, ∞), got -5');
    expect(() => mnemosyneAllocation([{ entries: 1, emptyProbes: 1 }], Infinity)).toThrow(/filterBits/);
    expect(() => mnemosyneAllocation([{ entries: 1, emptyProbes: 1 }], 10, { minBitsPerKey: -1 })).toThrow(/minBitsPerKey/);
    expect(() => mnemosyneMonkeyClosedForm(1.5, 3, 5)).toThrow('sizeRatio: must be a number in [2, 1000000], got 1.5');
    expect(() => mnemosyneMonkeyClosedForm(4, 2.5, 5)).toThrow(/levels: must be an integer/);
    expect(() => mnemosyneExpectedCost(files([1, 2], [1, 1]), [1])).toThrow(/bitsPerKey/);
    expect(() => mnemosyneLookupCost(files([1], [1]), [1], 0)).toThrow(/lookups: must be a number in \(0, ∞\)/);
  });

  it('Merlin inputs', () => {
    const s = merlinRecordProbe(merlinNewFile(0), 10, false);
    expect(() => merlinRecordProbe(s, 10, false)).toThrow(/seq: must be an integer in \[11/);
    expect(() => merlinRecordProbe(s, 11, false, 65)).toThrow('windowSize: must be an integer in [1, 64], got 65');
    expect(() => merlinEstimate(s, 5)).toThrow(/now: must be a number in \[10/);
    expect(() => merlinEstimate(s, 20, { beta: 1.2 })).toThrow('beta: must be a number in [0, 1], got 1.2');
    expect(() => merlinEstimate(s, 20, { variant: 'fast' as 'paper' })).toThrow(/variant: must be one of "paper", "code"/);
    expect(() => merlinNewFile(0, { probes: 5, found: 6 })).toThrow(/inherited\.found/);
  });

  it('results are never NaN for degenerate but valid input', () => {
    expect(mnemosyneAllocation([], 100)).toEqual([]);
    expect(mnemosyneAllocation(files([0, 0], [0, 0]), 100)).toEqual([0, 0]);
    expect(mnemosyneUniformAllocation(files([0], [1]), 100)).toEqual([0]);
    expect(mnemosyneExpectedCost(files([10], [4]), [0])).toBe(4 * fprFromBitsPerKey(0));
  });
});

describe('mnemosyneGradientDescent termination', () => {
  it('terminates on ties (equal files) and on huge files, matching the exact solver', () => {
    const cases = [
      [{ entries: 1000, emptyProbes: 50 }, { entries: 1000, emptyProbes: 50 }, { entries: 4000, emptyProbes: 5 }],
      [{ entries: 1e7, emptyProbes: 3e5 }, { entries: 1e7, emptyProbes: 3e5 }],
    ];
    for (const files of cases) {
      const budget = 6 * files.reduce((n, f) => n + f.entries, 0);
      const gd = mnemosyneGradientDescent(files, budget);
      const exact = mnemosyneAllocation(files, budget);
      const cost = (b: number[]) => mnemosyneExpectedCost(files, b);
      expect(Math.abs(cost(gd) - cost(exact)) / cost(exact)).toBeLessThan(1e-4);
    }
  });
});

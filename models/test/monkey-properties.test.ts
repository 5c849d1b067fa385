// Monkey: the allocation vectors shared with the Rust allocator, property tests and input validation.
import { describe, expect, it } from 'vitest';
import { bitsPerKeyFromFpr } from '../src/bloom';
import {
  costs,
  exactAllocation,
  filterFprs,
  levelCount,
  monkeyAutotuneFilters,
  type MonkeyRun,
  monkeySweepValues,
  monkeyWhatIf,
} from '../src/monkey';
import {
  monkeyFprsForZeroResultCost,
  monkeyNonZeroResultCost,
  monkeyPointLookupCostClosedForm,
  monkeyZeroResultCostClosedForm,
  uniformZeroResultCost,
} from '../src/monkey-closed-form';
import { holisticDesign, monkeyHolisticObjective } from '../src/monkey-holistic';
import type { Dataset, Policy, Workload } from '../src/types';
import { ModelInputError } from '../src/validate';
import { mulberry32 } from '../src/random';
import { design, DS20, GIB, HW, levelRuns, MIB, N20, near, nearAll, shape, sum, ZERO_ONLY } from './monkey-fixtures';

// ------------------------------------------------------------------ allocation vectors (JSON)

interface AllocationCase {
  name: string;
  runs: MonkeyRun[];
  filterBits: number;
  fprs: number[];
}

async function loadAllocationVectors(): Promise<AllocationCase[]> {
  // A non-literal specifier keeps tsc from needing resolveJsonModule; Vitest resolves it relative to this file.
  const path = './vectors/monkey-allocation.json';
  const mod = (await import(path)) as { default: AllocationCase[] };
  return mod.default;
}

// `optimal_fprs_waterfill` of the reference monkey-vectors.py on the same cases (python repr, full
// precision); for the case with an empty and a weight-0 run, on the other runs, with 0 and 1 put back.
const PYTHON_WATERFILL: number[][] = [
  [0.0021001332920133555, 0.0063003998760400625, 0.018901199628120213, 0.0567035988843606, 0.0567035988843606, 0.1701107966530817],
  [0.03618621425409394, 0.10855864276228178, 0.3256759282868457, 0.9770277848605365, 0.9770277848605365, 1.0],
  [1.0, 1.0, 1.0],
  [0.05146722355001164, 0.514672235500117, 1.0, 1.0],
  [0.021415847120683743, 0.021415847120683743, 0.021415847120683743, 0.021415847120683743],
  [5.6006742879753866e-5, 0.0005600674287975393, 0.011201348575950778],
  [
    0.0007606062164242997, 0.0007606062164242997, 0.0007606062164242997, 0.003042904138675413, 0.003042904138675413,
    0.003042904138675413, 0.012171616554701654, 0.012171616554701654, 0.012171616554701654,
  ],
  [0.11564239594337301, 0.0009251391675469846, 0.03237987086414444, 0.003083797225156615],
  [0.0009701549970157362, 0.0, 1.0, 0.0970154997015735],
  [
    1.984253594437191e-7, 7.937014377748765e-7, 3.1748057510995063e-6, 1.269922300439805e-5, 5.079689201759221e-5,
    0.00020318756807036816, 0.0008127502722814728, 0.003251001089125892, 0.01300400435650357,
  ],
  [0.008192549468178968],
  [3.1088413047011565e-12, 3.1088413047011596e-11, 3.108841304701163e-10, 6.2176826094023225e-9],
];

describe('monkey-allocation.json (shared with the Rust allocator)', () => {
  it('has the edge cases: zero budget, largest runs at FPR 1, equal runs, weights ≠ 1, empty and weight-0 runs', async () => {
    const cases = await loadAllocationVectors();
    expect(cases.length).toBe(PYTHON_WATERFILL.length);
    expect(cases.some((c) => c.filterBits === 0)).toBe(true);
    expect(cases.some((c) => c.filterBits > 0 && c.fprs.filter((p) => p === 1).length >= 2)).toBe(true);
    expect(cases.some((c) => c.runs.every((r) => r.entries === c.runs[0].entries))).toBe(true);
    expect(cases.some((c) => c.runs.some((r) => r.weight !== 1 && r.weight > 0))).toBe(true);
    expect(cases.some((c) => c.runs.some((r) => r.entries === 0))).toBe(true);
  });

  it('the file matches the reference python to 1e-13 relative (float summation order only)', async () => {
    const cases = await loadAllocationVectors();
    cases.forEach((c, i) => nearAll(c.fprs, PYTHON_WATERFILL[i], 1e-13, c.name));
  });

  it('exactAllocation reproduces the file exactly and spends exactly the budget', async () => {
    const cases = await loadAllocationVectors();
    for (const c of cases) {
      const p = exactAllocation(c.runs, c.filterBits);
      expect(p, c.name).toEqual(c.fprs);
      const spent = sum(c.runs.map((r, j) => (r.entries === 0 || p[j] === 1 ? 0 : r.entries * bitsPerKeyFromFpr(p[j]))));
      const anyFilterable = c.runs.some((r) => r.entries > 0 && r.weight > 0);
      near(spent, anyFilterable ? c.filterBits : 0, 1e-9, `${c.name}: bits spent`);
    }
  });
});

// ------------------------------------------------------------------ properties

describe('properties', () => {
  it("Monkey's R ≤ uniform R for every memory budget (0..20 b/e), policy, T and buffer; equal at L = 1", () => {
    for (const policy of ['leveling', 'tiering'] as const) {
      for (const t of [2, 3, 4, 10, 50]) {
        for (const buffer of [64 * 1024, MIB, 256 * MIB]) {
          for (let bpe = 0; bpe <= 20; bpe += 0.25) {
            const m = costs(DS20, design(policy, t, buffer, bpe), ZERO_ONLY, HW);
            const u = costs(DS20, design(policy, t, buffer, bpe, 'uniform'), ZERO_ONLY, HW);
            expect(m.zeroResultLookup).toBeLessThanOrEqual(u.zeroResultLookup * (1 + 1e-12));
            if (m.levels === 1) near(m.zeroResultLookup, u.zeroResultLookup, 1e-12);
          }
        }
      }
    }
  });

  it('Monkey_general (weights from the mix) beats both Monkey_zero and uniform on Z', () => {
    const wl: Workload = { pointLookups: 1, nonZeroFraction: 0.8, rangeLookups: 0, updates: 0, rangeSelectivity: 0 };
    for (const policy of ['leveling', 'tiering'] as const) {
      for (const bpe of [0.5, 1, 2, 5, 10]) {
        const d = design(policy, 4, MIB, bpe);
        const general = costs(DS20, d, wl, HW);
        const zeroTunedFprs = filterFprs(DS20, d);
        const r = policy === 'leveling' ? 1 : 3;
        const zeroR = r * sum(zeroTunedFprs);
        const zeroTuned = 0.2 * zeroR + 0.8 * monkeyNonZeroResultCost(policy, 4, zeroR, zeroTunedFprs[zeroTunedFprs.length - 1]);
        expect(general.pointLookup).toBeLessThanOrEqual(zeroTuned * (1 + 1e-12));
        expect(general.pointLookup).toBeLessThanOrEqual(costs(DS20, { ...d, allocation: 'uniform' }, wl, HW).pointLookup);
      }
    }
  });

  it('with only non-zero-result leveled lookups (f = 1) the last level gets no filter (P9)', () => {
    const wl: Workload = { pointLookups: 1, nonZeroFraction: 1, rangeLookups: 0, updates: 0, rangeSelectivity: 0 };
    const p = filterFprs(DS20, design('leveling', 10, MIB, 10), wl);
    expect(p[2]).toBe(1);
    expect(p[0]).toBeLessThan(1e-3);
  });

  it('tiering equals leveling at T = 2 (exact model, closed forms, holistic objective)', () => {
    const wl: Workload = { pointLookups: 0.5, nonZeroFraction: 0.4, rangeLookups: 0.2, updates: 0.3, rangeSelectivity: 1e-4 };
    for (const bpe of [0, 0.3, 1, 2, 5, 12]) {
      const lev = costs(DS20, design('leveling', 2, MIB, bpe), wl, HW);
      const tier = costs(DS20, design('tiering', 2, MIB, bpe), wl, HW);
      expect(tier).toEqual(lev);
      const ul = costs(DS20, design('leveling', 2, MIB, bpe, 'uniform'), wl, HW);
      expect(costs(DS20, design('tiering', 2, MIB, bpe, 'uniform'), wl, HW)).toEqual(ul);
      for (const l of [1, 3, 9]) {
        expect(monkeyZeroResultCostClosedForm(shape('tiering', 2, l), bpe)).toEqual(monkeyZeroResultCostClosedForm(shape('leveling', 2, l), bpe));
        expect(monkeyPointLookupCostClosedForm(shape('tiering', 2, l), bpe, 0.4)).toEqual(monkeyPointLookupCostClosedForm(shape('leveling', 2, l), bpe, 0.4));
      }
      const oneGib = GIB / 8;
      expect(monkeyHolisticObjective(DS20, wl, HW, oneGib, 'tiering', 2, 1000)).toEqual(monkeyHolisticObjective(DS20, wl, HW, oneGib, 'leveling', 2, 1000));
    }
  });

  it('the exact allocator reproduces Eq 30–33 on perfectly shaped trees (rel 1e-9), in every Lu regime', () => {
    for (const policy of ['leveling', 'tiering'] as const) {
      for (const t of [2, 3, 4, 10]) {
        for (const l of [1, 2, 3, 5, 8]) {
          for (const bpe of [0.01, 0.1, 0.5, 1, 2, 5, 10]) {
            const p = exactAllocation(levelRuns(N20, t, l), bpe * N20);
            const r = (policy === 'leveling' ? 1 : t - 1) * sum(p);
            nearAll(monkeyFprsForZeroResultCost(shape(policy, t, l), r, 'finite-L'), p, 1e-9, `${policy} T=${t} L=${l} bpe=${bpe}`);
          }
        }
      }
    }
  });

  it('the exact allocator agrees with Algorithm 2 on random runs and weights (cost rel 1e-6) and is never worse', () => {
    const rand = mulberry32(20180101);
    for (let trial = 0; trial < 25; trial++) {
      const count = 2 + Math.floor(rand() * 6);
      const runs = Array.from({ length: count }, () => ({
        entries: Math.round(100 * Math.pow(1000, rand())),
        weight: trial % 2 === 0 ? 1 : 0.2 + 2.8 * rand(),
      }));
      const budget = Math.round((0.2 + 11.8 * rand()) * sum(runs.map((r) => r.entries)));
      const p = exactAllocation(runs, budget);
      const exactCost = sum(p.map((x, j) => x * runs[j].weight));
      const alg2 = monkeyAutotuneFilters(runs, budget);
      expect(alg2.cost).toBeGreaterThanOrEqual(exactCost * (1 - 1e-12));
      near(alg2.cost, exactCost, 1e-6, `trial ${trial}`);
      expect(sum(alg2.bits)).toBeCloseTo(budget, 3);
    }
  });

  it('holistic design is never worse than any design it searches (brute-force grid over every candidate and split)', () => {
    const cases: [Dataset, Workload, number][] = [
      [DS20, { pointLookups: 0.5, nonZeroFraction: 0.3, rangeLookups: 0.1, updates: 0.4, rangeSelectivity: 1e-5 }, (10 * N20 + 8 * MIB) / 8],
      [DS20, { pointLookups: 0.1, nonZeroFraction: 0, rangeLookups: 0, updates: 0.9, rangeSelectivity: 0 }, 200_000],
      [DS20, { pointLookups: 0.9, nonZeroFraction: 0.9, rangeLookups: 0, updates: 0.1, rangeSelectivity: 0 }, 50_000],
      [{ entries: 1e6, entryBytes: 100, pageBytes: 4096 }, { pointLookups: 0.3, nonZeroFraction: 0.5, rangeLookups: 0.3, updates: 0.4, rangeSelectivity: 1e-6 }, 3e6],
    ];
    for (const [ds, wl, mem] of cases) {
      const r = holisticDesign(ds, wl, HW, mem);
      const page = Math.floor(ds.pageBytes / ds.entryBytes) * ds.entryBytes;
      for (const cand of r.candidates) {
        expect(r.objective).toBeLessThanOrEqual(cand.cost);
        const hi = Math.max(0, mem - page);
        for (let k = 0; k <= 400; k++) {
          const o = monkeyHolisticObjective(ds, wl, HW, mem, cand.policy, cand.sizeRatio, (hi * k) / 400);
          expect(o.cost, `${cand.policy} T=${cand.sizeRatio} x=${(hi * k) / 400}`).toBeGreaterThanOrEqual(cand.cost * (1 - 1e-9));
        }
      }
    }
  });

  it('holistic design beats a brute-force grid on random data, workloads and memory, with and without an SLA (seeded)', () => {
    const rand = mulberry32(4242);
    for (let trial = 0; trial < 12; trial++) {
      const entryBytes = Math.round(16 * Math.pow(64, rand()));
      const ds: Dataset = { entries: Math.round(1e4 * Math.pow(1e6, rand())), entryBytes, pageBytes: Math.max(entryBytes, 4096) };
      const [a, b, c] = [rand(), trial % 3 === 0 ? 0 : 0.3 * rand(), rand()];
      const wl: Workload = { pointLookups: a / (a + b + c), nonZeroFraction: rand(), rangeLookups: b / (a + b + c), updates: 0, rangeSelectivity: 1e-4 * rand() };
      wl.updates = 1 - wl.pointLookups - wl.rangeLookups;
      // 1e-4× to 30× the data size: every regime, including more memory than 1000 bits per entry.
      const mem = ds.entries * entryBytes * Math.pow(10, -4 + 5.5 * rand());
      const free = holisticDesign(ds, wl, HW, mem);
      expect(free.filterBitsPerEntry).toBeLessThanOrEqual(1000);
      const freeChoice = free.candidates.find((k) => k.policy === free.policy && k.sizeRatio === free.sizeRatio);
      const bound = trial % 2 === 0 ? Infinity : (freeChoice?.pointLookup ?? 1) * (0.3 + rand());
      const sla = bound === Infinity ? {} : { maxLookupCost: bound };
      const r = trial % 2 === 0 ? free : holisticDesign(ds, wl, HW, mem, sla);
      const hi = Math.max(0, Math.min(mem - Math.floor(ds.pageBytes / entryBytes) * entryBytes, (1000 * ds.entries) / 8));
      for (const k of r.candidates) {
        for (let g = 0; g <= 150; g++) {
          const o = monkeyHolisticObjective(ds, wl, HW, mem, k.policy, k.sizeRatio, (hi * g) / 150);
          if (o.pointLookup > bound) continue;
          expect(r.feasible, `trial ${trial}: a feasible split exists`).toBe(true);
          expect(r.objective, `trial ${trial} ${k.policy} T=${k.sizeRatio}`).toBeLessThanOrEqual(o.cost * (1 + 1e-9));
        }
      }
    }
  });

  it('holistic design meets an SLA when it can, and says so when it cannot', () => {
    const wl: Workload = { pointLookups: 0.5, nonZeroFraction: 0, rangeLookups: 0, updates: 0.5, rangeSelectivity: 0 };
    const mem = (10 * N20 + 8 * MIB) / 8;
    const free = holisticDesign(DS20, wl, HW, mem);
    const chosen = free.candidates.find((c) => c.policy === free.policy && c.sizeRatio === free.sizeRatio);
    const bound = (chosen?.pointLookup ?? 0) / 4;
    const slow = holisticDesign(DS20, wl, HW, mem, { maxLookupCost: bound });
    expect(slow.feasible).toBe(true);
    expect(slow.candidates.find((c) => c.policy === slow.policy && c.sizeRatio === slow.sizeRatio)?.pointLookup).toBeLessThanOrEqual(bound);
    expect(slow.objective).toBeGreaterThanOrEqual(free.objective);
    // Brute force over feasible splits of every candidate.
    const page = 16384;
    for (const cand of slow.candidates) {
      for (let k = 0; k <= 300; k++) {
        const o = monkeyHolisticObjective(DS20, wl, HW, mem, cand.policy, cand.sizeRatio, ((mem - page) * k) / 300);
        if (o.pointLookup <= bound) expect(o.cost).toBeGreaterThanOrEqual(slow.objective * (1 - 1e-9));
      }
    }
    // Read-mostly: the free optimum (tiering, T ≈ 40) updates at W ≈ 0.308; bound W by 0.308/1.5.
    const readMostly: Workload = { pointLookups: 0.9, nonZeroFraction: 0, rangeLookups: 0, updates: 0.1, rangeSelectivity: 0 };
    const freeRead = holisticDesign(DS20, readMostly, HW, mem);
    const freeW = freeRead.candidates.find((c) => c.policy === freeRead.policy && c.sizeRatio === freeRead.sizeRatio)?.update ?? 0;
    near(freeW, 0.308027);
    const upd = holisticDesign(DS20, readMostly, HW, mem, { maxUpdateCost: freeW / 1.5 });
    expect(upd.feasible).toBe(true);
    expect(upd.candidates.find((c) => c.policy === upd.policy && c.sizeRatio === upd.sizeRatio)?.update).toBeLessThanOrEqual(freeW / 1.5);
    expect(upd.objective).toBeGreaterThan(freeRead.objective);
    // W ≥ (1+φ)/(2B) = 1/16 per level and L ≥ 1, so W < 1/16 is out of reach.
    expect(holisticDesign(DS20, wl, HW, mem, { maxUpdateCost: 0.05 }).feasible).toBe(false);
    const impossible = holisticDesign(DS20, wl, HW, mem, { maxLookupCost: 1e-9, maxUpdateCost: 1e-9 });
    expect(impossible.feasible).toBe(false);
  });

  it('what-if curves: one point per value, both allocations, closed forms alongside', () => {
    const wl: Workload = { pointLookups: 0.6, nonZeroFraction: 0.5, rangeLookups: 0.1, updates: 0.3, rangeSelectivity: 1e-5 };
    const d = design('leveling', 4, MIB, 8);
    const ratios = monkeySweepValues(2, 64, 20, 'log');
    near(ratios[0], 2, 1e-15);
    near(ratios[19], 64, 1e-12);
    const pts = monkeyWhatIf(DS20, d, wl, HW, 'sizeRatio', ratios);
    expect(pts).toHaveLength(20);
    for (const p of pts) {
      expect(p.monkey).toEqual(costs(DS20, { ...d, sizeRatio: p.x }, wl, HW));
      expect(p.uniform.pointLookup).toBeGreaterThanOrEqual(p.monkey.pointLookup);
    }
    const byV = monkeyWhatIf(DS20, d, wl, HW, 'nonZeroFraction', [0, 0.5, 1]);
    expect(byV.map((p) => p.monkey.pointLookup)[2]).toBeGreaterThan(byV[0].monkey.pointLookup);
    const bySize = monkeyWhatIf(DS20, d, wl, HW, 'entries', [2 ** 12, 2 ** 16, 2 ** 20]);
    // N·E/Mbuf·3/4 = 3, 48, 768 → log4: 0.79, 2.79, 4.79.
    expect(bySize.map((p) => p.levels)).toEqual([1, 3, 5]);
    expect(monkeyWhatIf(DS20, d, wl, HW, 'entryBytes', [256, 1024]).map((p) => p.levels)).toEqual([4, 5]);
  });

  it('Eq 1 rounding: exact powers of T do not gain a level (P3)', () => {
    // N·E/Mbuf·(T−1)/T = 512 = 2^9 at T = 2; 125 = 5^3 at T = 5; 1000 at T = 10 (N·E/Mbuf = 1000·10/9).
    expect(levelCount(DS20, { sizeRatio: 2, bufferBytes: MIB })).toBe(9);
    expect(levelCount({ entries: 625, entryBytes: 1, pageBytes: 1 }, { sizeRatio: 5, bufferBytes: 4 })).toBe(3);
    expect(levelCount({ entries: 1e4, entryBytes: 1, pageBytes: 1 }, { sizeRatio: 10, bufferBytes: 9 })).toBe(3);
    expect(levelCount({ entries: 8 ** 7 * 8, entryBytes: 7, pageBytes: 7 }, { sizeRatio: 8, bufferBytes: 8 * 7 })).toBe(7);
    expect(levelCount(DS20, { sizeRatio: 2, bufferBytes: 2 * GIB })).toBe(1); // buffer larger than the data
  });
});

describe('invalid input throws naming the field and the range', () => {
  const d = design('leveling', 10, MIB, 10);
  const wl: Workload = { pointLookups: 0.5, nonZeroFraction: 0, rangeLookups: 0.2, updates: 0.3, rangeSelectivity: 0 };
  it.each([
    ['T < 2', () => costs(DS20, { ...d, sizeRatio: 1.5 }, wl, HW), 'design.sizeRatio: must be a number in [2, ∞), got 1.5'],
    ['negative buffer', () => costs(DS20, { ...d, bufferBytes: -1 }, wl, HW), 'design.bufferBytes: must be a number in (0, ∞), got -1'],
    ['negative filter memory', () => filterFprs(DS20, { ...d, filterBitsPerEntry: -2 }), 'design.filterBitsPerEntry: must be a number in [0, 1000], got -2'],
    ['negative memory (holistic)', () => holisticDesign(DS20, wl, HW, -5), 'memoryBytes: must be a number in (0, ∞), got -5'],
    ['fractions not summing to 1', () => costs(DS20, d, { ...wl, updates: 0.5 }, HW), 'workload: pointLookups + rangeLookups + updates must sum to 1, got 1.2'],
    ['NaN entries', () => levelCount({ ...DS20, entries: Number.NaN }, d), 'dataset.entries: must be a number in [1, ∞), got NaN'],
    ['NaN fraction', () => costs(DS20, d, { ...wl, nonZeroFraction: Number.NaN }, HW), 'workload.nonZeroFraction: must be a number in [0, 1], got NaN'],
    ['page smaller than an entry', () => costs({ ...DS20, pageBytes: 512 }, d, wl, HW), 'dataset.pageBytes: must be a number in [1024, ∞), got 512'],
    ['unknown policy', () => costs(DS20, { ...d, policy: 'lazy' as Policy }, wl, HW), 'design.policy: must be one of "leveling", "tiering", got lazy'],
    ['negative run entries', () => exactAllocation([{ entries: -1, weight: 1 }], 10), 'runs[0].entries: must be a number in [0, ∞), got -1'],
    ['negative filter bits', () => exactAllocation([{ entries: 1, weight: 1 }], -1), 'filterBits: must be a number in [0, ∞), got -1'],
    ['Infinity filter bits', () => exactAllocation([{ entries: 1, weight: 1 }], Infinity), 'filterBits: must be a number in [0, ∞), got Infinity'],
    ['NaN weight', () => exactAllocation([{ entries: 1, weight: Number.NaN }], 1), 'runs[0].weight: must be a number in [0, ∞), got NaN'],
    ['R beyond r·L', () => monkeyFprsForZeroResultCost(shape('leveling', 10, 3), 4, 'finite-L'), 'zeroResultCost: must be a number in (0, 3], got 4'],
    ['non-integer L', () => uniformZeroResultCost(shape('leveling', 10, 2.5), 1), 'shape.levels: must be an integer in [1, 10000], got 2.5'],
    ['negative φ', () => costs(DS20, d, wl, { ...HW, writeReadCostRatio: -1 }), 'hardware.writeReadCostRatio: must be a number in [0, ∞), got -1'],
    ['SLA bound ≤ 0', () => holisticDesign(DS20, wl, HW, 1e6, { maxLookupCost: 0 }), 'sla.maxLookupCost: must be a number in (0, ∞), got 0'],
    ['candidate T < 2', () => holisticDesign(DS20, wl, HW, 1e6, {}, { sizeRatios: [1] }), 'options.sizeRatios[0]: must be a number in [2, ∞), got 1'],
    ['what-if buffer beyond the memory', () => monkeyWhatIf(DS20, d, wl, HW, 'bufferBytesAtFixedMemory', [1e12]), 'values[0]: must be a number in (0, '],
  ])('%s', (_name, fn, message) => {
    expect(fn).toThrow(ModelInputError);
    expect(fn).toThrow(message);
  });
});

import { describe, expect, it } from 'vitest';
import { fprFromBitsPerKey } from '../src/bloom';
import type { Dataset, Workload } from '../src/types';
import { ModelInputError } from '../src/validate';
import {
  MOOSE_OPTIMAL_EQUAL_RATIO,
  type MooseLevel,
  mooseCapacitiesFromRatios,
  mooseCapacitiesFromShape,
  mooseCosts,
  mooseDp,
  mooseDpLiteral,
  mooseEq11PointCost,
  mooseEqualRatioRuBound,
  mooseFixedRatioCapacities,
  mooseKBreakpoints,
  mooseLastLevelSweep,
  mooseLayout,
  mooseLemma32Factor,
  mooseLevelCapacities,
  mooseNonZeroResultPointCost,
  mooseOptimalBitsPerEntry,
  mooseOptimalFprs,
  moosePresetLayouts,
  mooseRuCurve,
  mooseRuns,
  mooseShortRangeCost,
  mooseSpaceAmplification,
  mooseSpaceAmplificationBound,
  mooseSqrtLevelCost,
  mooseStructure,
  mooseToEngineLevels,
  mooseTradeoffCurves,
  mooseUpdateCostPaper,
  mooseUpdateCostRefined,
  mooseZeroResultPointCost,
  smoose,
  smooseContinuous,
  smooseWorkloadLevelCost,
} from '../src/moose';

// ─────────────────────────────────────────────────────────────────────────── vectors
// test/vectors/moose.json holds the output of the reference python of moose.md §7.1/§7.2
// (worked_examples.py, plus dp_exact / dp_weighted on extra cases), in full precision. The
// reference prints them rounded (§7.3); closed-form values are compared at rel 1e-9, DP outputs
// (capacities, run counts) exactly.
interface Full {
  capsOverF: number[];
  ratios: number[];
  runs: number[];
  fprs: number[];
  bitsPerEntry: number[];
  Z0: number;
  Z0uniform: number;
  Z1worst: number;
  R: number;
  U: number;
  RU: number;
  A: number;
  RUbound: number;
  SA: number;
}
interface Vectors {
  E1: { leveling10: Full; tiering4: Full; lazyLeveling10: Full };
  E2: { moose: Full & { dpA: number }; literal: Full & { reported: number } };
  E3: { k: number; runs: number[]; R: number; U: number; RU: number; Z0: number; SA: number }[];
  E4: Record<
    string,
    {
      mix: number[];
      sumSqrt: { NL: number; capsOverF: number[]; runs: number[]; R: number; U: number; Z0: number; J: number };
      wa: { NL: number; capsOverF: number[]; runs: number[]; J: number };
    }
  >;
  E4continuous: Record<string, { NL: number; k: number; J: number; ratios: number[]; A: number; Z1: number }>;
  E5: { k: number; numeric: number; eq11: number; R: number; U: number }[];
  E6: {
    frac: number;
    NL: number;
    caps: number[];
    ratios: number[];
    runs: number[];
    R: number;
    U: number;
    Z0: number;
    A: number;
    J: Record<string, number>;
  }[];
  dp: {
    sqrt256: { NL: number; caps: number[]; A: number }[];
    sqrt12000: { NL: number; caps: number[]; A: number }[];
    wa12000: { w: string; k: number; NL: number; caps: number[]; cost: number }[];
  };
}
// A non-literal specifier keeps tsc from needing resolveJsonModule; Vitest resolves it relative to this file.
const vectorsPath = './vectors/moose.json';
const V = ((await import(vectorsPath)) as { default: Vectors }).default;

// ─────────────────────────────────────────────────────────────────────────── helpers
const N = 2 ** 24;
const F = 2 ** 16;
/** The reference's setting: N = 2^24, F = 2^16, B = 4 (1 KiB entries, 4 KiB pages), 10 bits/key. */
const DS: Dataset = { entries: N, entryBytes: 1024, pageBytes: 4096 };
const OPT = { bufferBytes: F * 1024 };
const MEM10 = (10 * N) / 8;
/** Paper scale (E6, §6.1): N/F = 12 000, B = 4, 5 bits/key. */
const DS12K: Dataset = { entries: 12_000_000, entryBytes: 1, pageBytes: 4 };
const OPT12K = { bufferBytes: 1000 };
const MEM12K = (5 * 12_000_000) / 8;

const MIXES: Record<string, [number, number, number]> = {
  A: [98, 1, 1],
  B: [1, 98, 1],
  C: [1, 1, 98],
  D: [49, 2, 49],
  E: [2, 49, 49],
  F: [49, 49, 2],
  G: [40, 40, 20],
  H: [40, 20, 40],
  I: [20, 40, 40],
  J: [33, 33, 33],
};
/**
 * Workload of a (range, update, point) mix in %. The reference's J is 33/33/33 (sums to 0.99); we
 * use thirds and compare J_ref = 0.99 · J (the argmin is unchanged by the scale).
 */
function mix(name: string, nonZeroFraction = 0): { w: Workload; scale: number } {
  const [s, u, z] = MIXES[name];
  const total = s + u + z;
  return {
    w: { pointLookups: z / total, rangeLookups: s / total, updates: u / total, nonZeroFraction, rangeSelectivity: 0 },
    scale: total / 100,
  };
}
const POINTS: Workload = { pointLookups: 1, nonZeroFraction: 0, rangeLookups: 0, updates: 0, rangeSelectivity: 0 };

function rel(a: number, b: number): number {
  return Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);
}
function expectRel(actual: number, expected: number, tol: number): void {
  expect(rel(actual, expected), `${actual} vs ${expected}`).toBeLessThanOrEqual(tol);
}
function expectAllRel(actual: readonly number[], expected: readonly number[], tol: number): void {
  expect(actual.length).toBe(expected.length);
  actual.forEach((a, i) => expectRel(a, expected[i], tol));
}
function layoutFrom(ratios: readonly number[], runs: readonly number[], bits: readonly number[]): MooseLevel[] {
  return ratios.map((r, i) => ({ sizeRatio: r, runs: runs[i], bitsPerEntry: bits[i] }));
}
/** Deterministic pseudo-random numbers for property tests (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ─────────────────────────────────────────────────────────────────────────── structure
describe('generalised LSM-tree geometry', () => {
  it('Eq.1 / Fig.1: n = {4,3,2}, s = {1,2,1.5} gives capacities {4,24,72}F, ratios {4,6,3}, run capacities {1,8,36}F', () => {
    const caps = mooseCapacitiesFromShape(1, [4, 3, 2], [1, 2, 1.5]);
    expectAllRel(caps, [4, 24, 72], 1e-15);
    const g = mooseLevelCapacities({ entries: 100, entryBytes: 1, pageBytes: 4 }, [
      { sizeRatio: 4, runs: 4 },
      { sizeRatio: 6, runs: 3 },
      { sizeRatio: 3, runs: 2 },
    ], { bufferBytes: 1 });
    expectAllRel(g.sizeRatios, [4, 6, 3], 1e-15);
    expectAllRel(g.entries.map((e, i) => e / g.runs[i]), [1, 8, 36], 1e-15);
  });

  it('levels 1..L−1 are full, the last holds the remainder and caps its runs at floor(effective ratio)', () => {
    // N/F = 100: levels 10F, 40F (ratio 4), last holds 50F of a 160F capacity (effective ratio 1.25)
    const g = mooseLevelCapacities({ entries: 100, entryBytes: 1, pageBytes: 4 }, [
      { sizeRatio: 10, runs: 3 },
      { sizeRatio: 4, runs: 2 },
      { sizeRatio: 4, runs: 4 },
    ], { bufferBytes: 1 });
    expect(g.capacityEntries).toEqual([10, 40, 160]);
    expect(g.entries).toEqual([10, 40, 50]);
    expectAllRel(g.sizeRatios, [10, 4, 1.25], 1e-15);
    expect(g.runs).toEqual([3, 2, 1]);
  });

  it('§7.3 E7: ratio lists of the paper map to N_L/N, N/F and n_i(k = 1)', () => {
    const cases: [number[], number, number, number[]][] = [
      [[20, 26, 19], 0.9482, 10420, [4, 5, 4]],
      [[7, 7, 7, 6, 5], 0.8072, 12747, [3, 3, 3, 2, 2]],
      [[12, 17, 18, 2], 0.6538, 11232, [3, 4, 4, 1]],
      [[9, 6, 5], 0.8108, 333, [3, 2, 2]],
    ];
    for (const [ratios, fraction, total, runs] of cases) {
      const caps = mooseCapacitiesFromRatios(1, ratios);
      const sum = caps.reduce((a, c) => a + c, 0);
      expect(sum).toBe(total);
      expect(Math.abs(caps[caps.length - 1] / sum - fraction)).toBeLessThan(5e-5); // printed to 4 decimals
      expect(mooseRuns(ratios, 1)).toEqual(runs);
    }
  });

  it('rounds n = k√r half up and clamps to [1, floor r] (√7 → 3, √6 → 2, √2 → 1, √9 → 3)', () => {
    expect(mooseRuns([7, 6, 5, 12, 17, 18, 2, 9], 1)).toEqual([3, 2, 2, 3, 4, 4, 1, 3]);
    expect(mooseRuns([4, 3.5], 10)).toEqual([4, 3]);
    expect(mooseRuns([100], 0)).toEqual([1]);
  });
});

// ─────────────────────────────────────────────────────────────────────────── E1 baselines
describe('E1: fixed-ratio baselines (geometric full tree, rel 1e-9 against the reference python)', () => {
  const e = V.E1.leveling10;
  it('the leveling T=10 preset is the reference tree with the optimal split and its costs', () => {
    const layout = moosePresetLayouts(DS, { sizeRatio: 10, bufferBytes: OPT.bufferBytes, bitsPerEntry: 10 }).leveling;
    expectAllRel(layout.map((l) => l.sizeRatio), e.ratios, 1e-12);
    expect(layout.map((l) => l.runs)).toEqual(e.runs);
    expectAllRel(layout.map((l) => l.bitsPerEntry), e.bitsPerEntry, 1e-9);
    const c = mooseCosts(DS, layout, POINTS, OPT);
    expectAllRel(c.levels.map((l) => l.capacityEntries / F), e.capsOverF, 1e-12);
    expectAllRel(c.levels.map((l) => l.fpr), e.fprs, 1e-9);
    expectRel(c.zeroResultPoint, e.Z0, 1e-9);
    expectRel(c.nonZeroResultPointWorst, e.Z1worst, 1e-9);
    expect(c.shortRange).toBe(e.R);
    expectRel(c.updatePaper, e.U, 1e-12);
    expectRel(c.shortRange * c.updatePaper, e.RU, 1e-12);
    expectRel(c.spaceAmplification, e.SA, 1e-12);
    expectRel(c.filterBits, 10 * N, 1e-9); // the split spends exactly the budget
    // uniform 10 bits per key everywhere (the state of the art)
    const uniform = mooseCosts(DS, layout.map((l) => ({ ...l, bitsPerEntry: 10 })), POINTS, OPT);
    expectRel(uniform.zeroResultPoint, e.Z0uniform, 1e-9);
  });

  it('tiering T=4 and lazy leveling T=10 as printed put more runs on level 1 than its ratio: rejected, but their filters match', () => {
    for (const v of [V.E1.tiering4, V.E1.lazyLeveling10]) {
      const layout = layoutFrom(v.ratios, v.runs, v.bitsPerEntry);
      expect(() => mooseCosts(DS, layout, POINTS, OPT)).toThrow(/levels\[0\]\.runs: must be an integer in \[1, [23]\]/);
      const caps = v.capsOverF.map((c) => c * F);
      const p = mooseOptimalFprs(caps, v.runs, 10 * N);
      expectAllRel(p, v.fprs, 1e-9);
      expectRel(mooseZeroResultPointCost(v.runs, p), v.Z0, 1e-9);
      expectRel(mooseZeroResultPointCost(v.runs, caps.map(() => fprFromBitsPerKey(10))), v.Z0uniform, 1e-9);
      expectRel(mooseNonZeroResultPointCost(v.runs, p, 'worst'), v.Z1worst, 1e-9);
      expect(mooseShortRangeCost(v.runs)).toBe(v.R);
      expectRel(mooseUpdateCostPaper(v.ratios, v.runs, 4), v.U, 1e-12);
      expectRel(mooseSpaceAmplification(caps, v.runs), v.SA, 1e-12);
    }
  });

  it('the tiering preset clamps level 1 to floor(3.01) = 3 runs (Moose convention n_i = T elsewhere)', () => {
    const t = moosePresetLayouts(DS, { sizeRatio: 4, bufferBytes: OPT.bufferBytes, bitsPerEntry: 10 }).tiering;
    expect(t.map((l) => l.runs)).toEqual([3, 4, 4, 4]);
    const c = mooseCosts(DS, t, POINTS, OPT);
    expect(c.shortRange).toBe(15);
  });

  it('a first level below two buffers is folded into the next (N/F = 12 000, T = 10 would give r_1 = 1.08)', () => {
    const caps = mooseFixedRatioCapacities(12000, 10);
    expect(caps.length).toBe(4);
    expectRel(caps[0], 10.8, 1e-3);
    expectAllRel(caps.slice(1).map((c, i) => c / caps[i]), [10, 10, 10], 1e-12);
    expectRel(caps.reduce((a, c) => a + c, 0), 12000, 1e-12);
  });
});

// ─────────────────────────────────────────────────────────────────────────── §2.9 special cases
describe('§2.9: named designs as points of the generalised space (N/F = 1110 = 10 + 100 + 1000, exact)', () => {
  const ds: Dataset = { entries: 1110, entryBytes: 1, pageBytes: 8 }; // B = 8
  const opt = { bufferBytes: 1 };
  const p = moosePresetLayouts(ds, { sizeRatio: 10, bufferBytes: 1, bitsPerEntry: 8 });
  const L = 3;
  const T = 10;
  const B = 8;
  const cost = (layout: MooseLevel[]) => mooseCosts(ds, layout, POINTS, opt);

  it('every ratio is T and the levels hold 10, 100, 1000 entries', () => {
    expectAllRel(p.leveling.map((l) => l.sizeRatio), [10, 10, 10], 1e-12);
    expectAllRel(cost(p.leveling).levels.map((l) => l.entries), [10, 100, 1000], 1e-12);
  });
  it('leveling: R = L, U = L·T/B, refined U = L(T+1)/(2B), SA = N/N_L', () => {
    const c = cost(p.leveling);
    expect(c.shortRange).toBe(L);
    expectRel(c.updatePaper, (L * T) / B, 1e-12);
    expectRel(c.updateRefined, (L * (T + 1)) / (2 * B), 1e-12);
    expectRel(c.spaceAmplification, 1110 / 1000, 1e-12);
  });
  it('tiering (n = T): R = L·T, U = L/B, refined U = L/B (each entry written once per level)', () => {
    const c = cost(p.tiering);
    expect(c.shortRange).toBe(L * T);
    expectRel(c.updatePaper, L / B, 1e-12);
    expectRel(c.updateRefined, L / B, 1e-12);
  });
  it('lazy leveling: R = (L−1)T + 1, U = (L−1+T)/B, and its R·U is above L²T/B', () => {
    const c = cost(p.lazyLeveling);
    expect(c.shortRange).toBe((L - 1) * T + 1);
    expectRel(c.updatePaper, (L - 1 + T) / B, 1e-12);
    expect(c.shortRange * c.updatePaper).toBeGreaterThan((L * L * T) / B);
  });
  it('leveling (k = 1/√T) and tiering (k = √T) sit on the same hyperbola R·U = L²T/B (Eq.8 with equal ratios)', () => {
    const bound = mooseEqualRatioRuBound(1000, L, B).product;
    expectRel(bound, (L * L * T) / B, 1e-12);
    for (const layout of [p.leveling, p.tiering]) {
      const c = cost(layout);
      expectRel(c.shortRange * c.updatePaper, bound, 1e-12);
    }
    expect(mooseRuns([10, 10, 10], 1 / Math.sqrt(10))).toEqual([1, 1, 1]);
    expect(mooseRuns([10, 10, 10], Math.sqrt(10))).toEqual([10, 10, 10]);
  });
  it('with n_L = 1 the non-zero-result cost is Monkey\'s 1 + Z − p_L', () => {
    const c = cost(p.leveling);
    expectRel(c.nonZeroResultPoint, 1 + c.zeroResultPoint - c.levels[2].fpr, 1e-12);
    expectRel(c.nonZeroResultPointWorst, c.nonZeroResultPoint, 1e-12);
  });
});

// ─────────────────────────────────────────────────────────────────────────── E2 Moose
describe('E2: default Moose (N_L = 205F, k = 1) and the literal Eq.12 DP', () => {
  it('the exact DP builds {7, 44, 205}F with runs {3, 3, 2} and A = 7.3114 (rel 1e-12)', () => {
    const s = mooseStructure(DS, {}, OPT);
    expectAllRel(s.capacities.map((c) => c / F), V.E2.moose.capsOverF, 1e-15);
    expect(s.runs).toEqual(V.E2.moose.runs);
    expectRel(s.sumSqrtRatios, V.E2.moose.dpA, 1e-12);
    expect(s.exact).toBe(true);
  });

  it('its layout and costs match the reference (rel 1e-9): Z0 0.03169, R 8, U 1.6895, SA 2.4976', () => {
    const e = V.E2.moose;
    const layout = mooseLayout(DS, { bitsPerEntry: 10 }, OPT);
    expectAllRel(layout.map((l) => l.bitsPerEntry), e.bitsPerEntry, 1e-9);
    const c = mooseCosts(DS, layout, POINTS, OPT);
    expectRel(c.zeroResultPoint, e.Z0, 1e-9);
    expectRel(c.nonZeroResultPointWorst, e.Z1worst, 1e-9);
    expect(c.shortRange).toBe(e.R);
    expectRel(c.updatePaper, e.U, 1e-12);
    expectRel(c.spaceAmplification, e.SA, 1e-12);
    expectRel(e.RUbound, (e.A * e.A) / 4, 1e-12);
    // R·U 13.52 sits 1.1% above the Cauchy–Schwarz floor A²/B = 13.36 (rounding of n_i)
    expect(c.shortRange * c.updatePaper).toBeGreaterThan(e.RUbound);
    expect(c.shortRange * c.updatePaper).toBeLessThan(e.RUbound * 1.012);
    const uniform = mooseCosts(DS, layout.map((l) => ({ ...l, bitsPerEntry: 10 })), POINTS, OPT);
    expectRel(uniform.zeroResultPoint, e.Z0uniform, 1e-9);
  });

  it('the literal Eq.12 builds {4, 47, 205}F while reporting 6.0885; its real A is 7.5163 > 7.3114', () => {
    const lit = mooseDpLiteral(256, 205);
    expect(lit.capacities).toEqual(V.E2.literal.capsOverF);
    expectRel(lit.reportedCost, V.E2.literal.reported, 1e-12);
    const s = mooseStructure(DS, { dp: 'literal' }, OPT);
    expectRel(s.sumSqrtRatios, V.E2.literal.A, 1e-12);
    expect(s.runs).toEqual(V.E2.literal.runs);
    expect(s.sumSqrtRatios).toBeGreaterThan(mooseStructure(DS, {}, OPT).sumSqrtRatios);
  });
});

// ─────────────────────────────────────────────────────────────────────────── exact DP
describe('the inner-level DP returns exactly the reference DP\'s structures', () => {
  it('Σ√r DP at N/F = 256 for every N_L = 128..254 (capacities exact, A rel 1e-12)', () => {
    const cost = mooseSqrtLevelCost(512);
    for (const v of V.dp.sqrt256) {
      const r = mooseDp(256, v.NL, cost);
      expect(r.capacities, `N_L = ${v.NL}`).toEqual(v.caps);
      expectRel(r.cost, v.A, 1e-12);
      expect(r.exact).toBe(true);
    }
  });

  it('Σ√r DP at N/F = 12 000 (paper scale) for N_L from 0.5N to 0.9998N', () => {
    const cost = mooseSqrtLevelCost(24000);
    for (const v of V.dp.sqrt12000) {
      const r = mooseDp(12000, v.NL, cost);
      expect(r.capacities, `N_L = ${v.NL}`).toEqual(v.caps);
      expectRel(r.cost, v.A, 1e-12);
    }
  });

  it('workload-aware DP (§4.6) at N/F = 12 000 for 6 mixes × 5 k × 3 N_L', () => {
    for (const v of V.dp.wa12000) {
      const [s, u] = MIXES[v.w];
      const r = mooseDp(12000, v.NL, smooseWorkloadLevelCost(s / 100, u / 100, 4, v.k, 24000));
      expect(r.capacities, `${v.w} k=${v.k} N_L=${v.NL}`).toEqual(v.caps);
      expectRel(r.cost, v.cost, 1e-12);
    }
  });

  it('with a node budget it returns the best structure found and says it is not proven optimal', () => {
    const full = mooseDp(12000, 6000, mooseSqrtLevelCost(24000));
    const cut = mooseDp(12000, 6000, mooseSqrtLevelCost(24000), { maxNodes: 20 });
    expect(cut.exact).toBe(false);
    expect(cut.cost).toBeGreaterThanOrEqual(full.cost);
    expectRel(cut.capacities.reduce((a, c) => a + c, 0), 12000, 1e-12);
    expect(cut.capacities[cut.capacities.length - 1]).toBe(6000);
  });

  it('N − N_L < 2F leaves a single level', () => {
    expect(mooseDp(256, 255).capacities).toEqual([256]);
  });
});

// ─────────────────────────────────────────────────────────────────────────── E3 RU curve
describe('E3: the RU-curve of capacities {7, 44, 205}F over k', () => {
  const ratios = [7, 44 / 7, 205 / 44];
  const curve = mooseRuCurve(DS, ratios, MEM10, OPT);

  it('A = 7.311377 and A²/B = 13.364057 (rel 1e-9)', () => {
    expectRel(curve.sumSqrtRatios, 7.311377, 1e-7);
    expectRel(curve.productBound, 13.364057, 1e-7);
  });

  it('the first ten distinct run vectors and their R, U, R·U, Z0, SA match (rel 1e-9)', () => {
    const pts = curve.points.slice(0, V.E3.length);
    V.E3.forEach((e, i) => {
      const p = pts[i];
      expect(p.runs).toEqual(e.runs);
      if (i > 0) expectRel(p.k, e.k, 1e-6); // the reference lists the breakpoint × (1 + 1e-9)
      expect(p.shortRange).toBe(e.R);
      expectRel(p.updatePaper, e.U, 1e-12);
      expectRel(p.product, e.RU, 1e-12);
      expectRel(p.zeroResultPoint, e.Z0, 1e-9);
      expectRel(p.spaceAmplification, e.SA, 1e-12);
    });
  });

  it('every integer point is on or above the hyperbola R·U = A²/B; the listed ones within ≈ 8% of it', () => {
    for (const p of curve.points) expect(p.product).toBeGreaterThanOrEqual(curve.productBound * (1 - 1e-12));
    for (const p of curve.points.slice(0, V.E3.length)) expect(p.product).toBeLessThan(curve.productBound * 1.081);
    // R·U touches 13.459 whenever all n_i are equal
    expect(curve.points.filter((p) => new Set(p.runs).size === 1).map((p) => p.product.toFixed(3))).toEqual(
      ['13.459', '13.459', '13.459', '13.459'],
    );
    // the last point is full tiering n_i = floor(r_i)
    expect(curve.points[curve.points.length - 1].runs).toEqual([7, 6, 4]);
  });

  it('k breakpoints are (m + ½)/√r_i (0.5669 for r = 7 with m = 1)', () => {
    const ks = mooseKBreakpoints([7]);
    expect(ks.length).toBe(8);
    expectRel(ks[1], 1.5 / Math.sqrt(7), 1e-15);
  });
});

// ─────────────────────────────────────────────────────────────────────────── RU identity
describe('Insight 1 (Eq.6–8): n_i ∝ √r_i minimises R·U', () => {
  const rand = rng(42);
  it('n_i = k√r_i gives R = kA, U = A/(kB) and R·U = A²/B exactly (rel 1e-12), for random ratios and k', () => {
    for (let t = 0; t < 200; t++) {
      const L = 1 + Math.floor(rand() * 6);
      const ratios = Array.from({ length: L }, () => 2 + rand() * 30);
      const k = 0.1 + rand() * 5;
      const B = 1 + Math.floor(rand() * 64);
      const n = ratios.map((r) => k * Math.sqrt(r));
      const A = ratios.reduce((a, r) => a + Math.sqrt(r), 0);
      const R = mooseShortRangeCost(n);
      const U = mooseUpdateCostPaper(ratios, n, B);
      expectRel(R, k * A, 1e-12);
      expectRel(U, A / (k * B), 1e-12);
      expectRel(R * U, (A * A) / B, 1e-12);
    }
  });

  it('any other run counts give a larger R·U (Cauchy–Schwarz), for 500 random structures', () => {
    for (let t = 0; t < 500; t++) {
      const L = 2 + Math.floor(rand() * 5);
      const ratios = Array.from({ length: L }, () => 2 + rand() * 30);
      const n = ratios.map((r) => 1 + rand() * (r - 1));
      const A = ratios.reduce((a, r) => a + Math.sqrt(r), 0);
      const RU = mooseShortRangeCost(n) * mooseUpdateCostPaper(ratios, n, 4);
      expect(RU).toBeGreaterThanOrEqual(((A * A) / 4) * (1 - 1e-12));
    }
  });

  it('for a fixed product of ratios, equal ratios minimise Σ√r (Eq.8) and the best common ratio is e²', () => {
    const X = 5000;
    for (let L = 2; L <= 8; L++) {
      const eq = L * Math.pow(X, 1 / (2 * L));
      const b = mooseEqualRatioRuBound(X, L, 1);
      expectRel(b.product, eq * eq, 1e-12);
      // a skewed split of the same product costs more
      const skew = Math.sqrt(Math.pow(X, 1 / L) * 2) + Math.sqrt(Math.pow(X, 1 / L) / 2) + (L - 2) * Math.pow(X, 1 / (2 * L));
      expect(skew).toBeGreaterThan(eq);
      expect(b.bestProduct).toBeLessThanOrEqual(b.product * (1 + 1e-12));
    }
    expectRel(mooseEqualRatioRuBound(X, 4, 1).bestLevels, Math.log(X) / 2, 1e-15);
    expectRel(MOOSE_OPTIMAL_EQUAL_RATIO, 7.3890560989306495, 1e-15);
  });
});

// ─────────────────────────────────────────────────────────────────────────── filters
describe('the generalised Monkey filter split (§2.6)', () => {
  const rand = rng(7);
  it('p_i ∝ N_i/n_i while unclamped, spends exactly M, and beats uniform bits at equal memory', () => {
    for (let t = 0; t < 200; t++) {
      const L = 1 + Math.floor(rand() * 6);
      const caps = Array.from({ length: L }, (_, i) => Math.pow(3 + rand() * 8, i + 1));
      const runs = caps.map(() => 1 + Math.floor(rand() * 6));
      const total = caps.reduce((a, c) => a + c, 0);
      const bpk = 4 + rand() * 12;
      const p = mooseOptimalFprs(caps, runs, bpk * total);
      const zOpt = mooseZeroResultPointCost(runs, p);
      const zUni = mooseZeroResultPointCost(runs, caps.map(() => fprFromBitsPerKey(bpk)));
      expect(zOpt).toBeLessThanOrEqual(zUni * (1 + 1e-12));
      if (p.every((x) => x < 1)) {
        const lambda = p[0] / (caps[0] / runs[0]);
        p.forEach((x, i) => expectRel(x / (caps[i] / runs[i]), lambda, 1e-9));
        const spent = p.reduce((a, x, i) => a + (caps[i] * -Math.log(x)) / (Math.LN2 * Math.LN2), 0);
        expectRel(spent, bpk * total, 1e-9);
      }
    }
  });

  it('is a minimum: moving memory between two levels never lowers Σ n_i p_i', () => {
    const caps = [7, 44, 205];
    const runs = [3, 3, 2];
    const M = 10 * 256;
    const p = mooseOptimalFprs(caps, runs, M);
    const bits = p.map((x, i) => (caps[i] * -Math.log(x)) / (Math.LN2 * Math.LN2));
    const z = mooseZeroResultPointCost(runs, p);
    for (const [i, j] of [[0, 1], [1, 2], [0, 2], [2, 0]]) {
      for (const d of [1, 10, 100]) {
        const b2 = bits.slice();
        b2[i] -= d;
        b2[j] += d;
        const p2 = b2.map((b, l) => fprFromBitsPerKey(b / caps[l]));
        expect(mooseZeroResultPointCost(runs, p2)).toBeGreaterThan(z);
      }
    }
  });

  it('with little memory the largest-run level gets no filter (p = 1) and the rest share M', () => {
    const caps = [7, 44, 205];
    const p = mooseOptimalFprs(caps, [3, 3, 2], 0.5 * 256);
    expect(p[2]).toBe(1);
    expect(p[0]).toBeLessThan(1);
    const spent = p.reduce((a, x, i) => a + (x < 1 ? (caps[i] * -Math.log(x)) / (Math.LN2 * Math.LN2) : 0), 0);
    expectRel(spent, 0.5 * 256, 1e-9);
    expect(mooseOptimalFprs(caps, [3, 3, 2], 0)).toEqual([1, 1, 1]);
  });

  it('§2.6 illustration: 1 vs 5 bits/key differ 6.83× in FPR (E7)', () => {
    expectRel(fprFromBitsPerKey(1) / fprFromBitsPerKey(5), 6.83332963101078, 1e-12);
  });

  it('mooseOptimalBitsPerEntry fills a layout whose Z equals the optimal split (rel 1e-12)', () => {
    const shape = [{ sizeRatio: 7, runs: 3 }, { sizeRatio: 44 / 7, runs: 3 }, { sizeRatio: 205 / 44, runs: 2 }];
    const bits = mooseOptimalBitsPerEntry(DS, shape, MEM10, OPT);
    expectAllRel(bits, V.E2.moose.bitsPerEntry, 1e-9);
    const c = mooseCosts(DS, shape.map((s, i) => ({ ...s, bitsPerEntry: bits[i] })), POINTS, OPT);
    expectRel(c.filterBits, 10 * N, 1e-9);
    expectRel(c.zeroResultPoint, V.E2.moose.Z0, 1e-9);
  });
});

// ─────────────────────────────────────────────────────────────────────────── E5, E7
describe('E5: Eq.11 closed form equals the numeric optimum and is linear in k', () => {
  const caps = [7 * F, 44 * F, 205 * F];
  const ratios = [7, 44 / 7, 205 / 44];
  for (const e of V.E5) {
    it(`k = ${e.k}: Z = ${e.eq11.toFixed(10)} both ways (rel 1e-9), R = kA, U = A/(kB)`, () => {
      const n = ratios.map((r) => e.k * Math.sqrt(r));
      const numeric = mooseZeroResultPointCost(n, mooseOptimalFprs(caps, n, 10 * N));
      expectRel(numeric, e.numeric, 1e-9);
      expectRel(mooseEq11PointCost(caps, F, e.k, 10 * N), e.eq11, 1e-9);
      expectRel(numeric, mooseEq11PointCost(caps, F, e.k, 10 * N), 1e-9);
      expectRel(mooseShortRangeCost(n), e.R, 1e-12);
      expectRel(mooseUpdateCostPaper(ratios, n, 4), e.U, 1e-12);
    });
  }
});

describe('E7: spot checks of constants quoted in the paper', () => {
  it('Fig.6: SA = 2.625 for capacities {1,4,16}, runs {1,2,2} (Eq.15 long form = n_L·N/N_L)', () => {
    expectRel(mooseSpaceAmplification([1, 4, 16], [1, 2, 2]), 2.625, 1e-15);
  });
  it('Eq.15 long form equals n_L·ΣN_i/N_L for random structures with non-decreasing run sizes', () => {
    const rand = rng(3);
    for (let t = 0; t < 100; t++) {
      const runs = Array.from({ length: 1 + Math.floor(rand() * 6) }, () => 1 + Math.floor(rand() * 5));
      let run = 1;
      const caps = runs.map((n) => (run *= 1 + rand() * 5) * n);
      const sum = caps.reduce((a, c) => a + c, 0);
      expectRel(mooseSpaceAmplification(caps, runs), (runs[runs.length - 1] * sum) / caps[caps.length - 1], 1e-12);
    }
  });
  it('Eq.16 at N_L = 0.8N, k = 1: printed bound 2.5, valid bound 3.5355; Lemma 3.2 factor 1.3195', () => {
    const b = mooseSpaceAmplificationBound(1, 0.8);
    expectRel(b.printed, 2.5, 1e-12);
    expectRel(b.valid, 3.5355339059327378, 1e-12);
    expectRel(mooseLemma32Factor(0.8), 1.3195079107728942, 1e-12);
  });
});

// ─────────────────────────────────────────────────────────────────────────── E6
describe('E6: Moose at paper scale (N/F = 12 000, 5 bits/key, B = 4, k = 1) as N_L varies', () => {
  const sweep = mooseLastLevelSweep(DS12K, mix('D').w, MEM12K, { fractions: V.E6.map((e) => e.frac) }, OPT12K);
  V.E6.forEach((e, i) => {
    it(`N_L = ${e.frac}N: ratios ${e.ratios.map((r) => r.toFixed(2)).join(',')}, runs ${e.runs.join(',')}`, () => {
      const s = sweep[i];
      expect(s.lastLevelEntries).toBe(e.NL * 1000);
      expectAllRel(s.sizeRatios, e.ratios, 1e-12);
      expect(s.runs).toEqual(e.runs);
      expect(s.shortRange).toBe(e.R);
      expectRel(s.updatePaper, e.U, 1e-12);
      expectRel(s.zeroResultPoint, e.Z0, 1e-9);
      expectRel(s.sumSqrtRatios, e.A, 1e-12);
      for (const name of ['D', 'E', 'F', 'J']) {
        const { w, scale } = mix(name);
        const c = mooseCosts(DS12K, layoutFrom(s.sizeRatios, s.runs, mooseOptimalBitsPerEntry(DS12K, s.sizeRatios.map((r, j) => ({ sizeRatio: r, runs: s.runs[j] })), MEM12K, OPT12K)), w, OPT12K);
        expectRel(c.weighted * scale, e.J[name], 1e-9);
      }
    });
  });
  it('N_L = 0.8N gives the paper\'s default Moose {7,7,7,6,5}/{3,3,3,2,2} and the least A (12.543)', () => {
    const s = mooseStructure(DS12K, {}, OPT12K);
    expect(s.runs).toEqual([3, 3, 3, 2, 2]);
    expect(s.sizeRatios.map(Math.round)).toEqual([7, 7, 7, 6, 5]);
    const As = sweep.map((x) => x.sumSqrtRatios);
    expect(Math.min(...As)).toBe(sweep[5].sumSqrtRatios);
  });
});

// ─────────────────────────────────────────────────────────────────────────── E4 Smoose
describe('E4: Smoose at N = 2^24, F = 2^16, B = 4, 10 bits/key (exhaustive N_L scan, as the reference)', () => {
  for (const [name, e] of Object.entries(V.E4)) {
    it(`${name} (${e.mix.join('/')}): Σ√r → N_L ${e.sumSqrt.NL}F runs ${e.sumSqrt.runs.join(',')}; WA → N_L ${e.wa.NL}F runs ${e.wa.runs.join(',')}`, () => {
      const { w, scale } = mix(name);
      const a = smoose(DS, w, MEM10, { ...OPT, variant: 'sum-sqrt' });
      expect(a.variant).toBe('sum-sqrt');
      expect(a.lastLevelEntries).toBe(e.sumSqrt.NL * F);
      expectAllRel(a.capacities.map((c) => c / F), e.sumSqrt.capsOverF, 1e-12);
      expect(a.levels.map((l) => l.runs)).toEqual(e.sumSqrt.runs);
      expect(a.costs.shortRange).toBe(e.sumSqrt.R);
      expectRel(a.costs.updatePaper, e.sumSqrt.U, 1e-12);
      expectRel(a.costs.zeroResultPoint, e.sumSqrt.Z0, 1e-9);
      expectRel(a.objective * scale, e.sumSqrt.J, 1e-9);
      expect(a.exact).toBe(true);
      const b = smoose(DS, w, MEM10, { ...OPT, variant: 'workload-aware' });
      expect(b.lastLevelEntries).toBe(e.wa.NL * F);
      expectAllRel(b.capacities.map((c) => c / F), e.wa.capsOverF, 1e-12);
      expect(b.levels.map((l) => l.runs)).toEqual(e.wa.runs);
      expectRel(b.objective * scale, e.wa.J, 1e-9);
    });
  }

  for (const [name, e] of Object.entries(V.E4continuous)) {
    it(`continuous Smoose (§4.5) ${name}: N_L ${e.NL}F, k* ${e.k.toFixed(4)}, J ${e.J.toFixed(5)} (rel 1e-9)`, () => {
      const { w, scale } = mix(name);
      const c = smooseContinuous(DS, w, MEM10, OPT);
      expect(c.lastLevelEntries).toBe(e.NL * F);
      expectRel(c.k, e.k, 1e-9);
      expectRel(c.objective * scale, e.J, 1e-9);
      expectAllRel(c.sizeRatios, e.ratios, 1e-12);
      expectRel(c.sumSqrtRatios, e.A, 1e-12);
      expectRel(c.z1, e.Z1, 1e-9);
    });
  }
});

describe('§7.5 / §6.1: paper-scale structures (N/F = 12 000, 5 bits/key, B = 4) and their cost 𝓛', () => {
  /** Layout of capacities given in buffers (F = 1000 entries). */
  const layoutOf = (caps: number[], runs: number[]): MooseLevel[] => {
    const ratios = caps.map((c, i) => c / (i === 0 ? 1 : caps[i - 1]));
    const bits = mooseOptimalBitsPerEntry(DS12K, ratios.map((r, i) => ({ sizeRatio: r, runs: runs[i] })), MEM12K, OPT12K);
    return layoutFrom(ratios, runs, bits);
  };
  // §7.5 workload-aware column: capacities (in buffers) rebuilt from the printed ratios and N_L/N
  const rows: [string, number[], number[], number][] = [
    ['A', [24, 576, 11400], [1, 1, 1], 3.1106],
    ['B', [10, 110, 1320, 10560], [10, 11, 12, 8], 1.4014],
    ['C', [5, 25, 125, 805, 11040], [1, 1, 1, 1, 1], 0.2602],
    ['D', [21, 459, 11520], [1, 1, 1], 1.8626],
    ['E', [7, 49, 441, 3223, 8280], [6, 6, 7, 6, 2], 1.5573],
    ['F', [11, 66, 396, 2167, 9360], [2, 1, 1, 1, 1], 6.2867],
    ['G', [11, 66, 396, 2167, 9360], [2, 1, 1, 1, 1], 5.1639],
    ['H', [7, 49, 294, 1810, 9840], [1, 1, 1, 1, 1], 3.6434],
    ['I', [8, 56, 392, 2904, 8640], [2, 2, 2, 2, 1], 3.6584],
    ['J', [11, 66, 396, 2047, 9480], [2, 1, 1, 1, 1], 4.2887],
  ];
  it('the workload-aware structures of §7.5 cost what the reference prints (abs 5e-5, 4 decimals)', () => {
    for (const [name, capsB, runs, L] of rows) {
      const { w, scale } = mix(name);
      const c = mooseCosts(DS12K, layoutOf(capsB, runs), w, OPT12K);
      expect(Math.abs(c.weighted * scale - L), name).toBeLessThan(5e-5);
    }
  });
  it('default Moose costs what §6.1 prints for every mix (half a unit of the last printed digit)', () => {
    const printed: Record<string, number> = { A: 12.77, B: 3.151, C: 0.49, D: 6.596, E: 1.933, F: 7.885, G: 6.499, H: 5.95, I: 3.966, J: 5.417 };
    const layout = mooseLayout(DS12K, { bitsPerEntry: 5 }, OPT12K);
    for (const [name, v] of Object.entries(printed)) {
      const { w, scale } = mix(name);
      const digits = v >= 10 ? 2 : 3;
      expect(Math.abs(mooseCosts(DS12K, layout, w, OPT12K).weighted * scale - v), name).toBeLessThanOrEqual(0.5 * 10 ** -digits + 1e-12);
    }
  });
});

describe('Smoose: properties of the search', () => {
  it('is never worse than leveling, tiering, lazy leveling (T = 2..20) or default Moose for its own workload', () => {
    for (const [ds, opt, T] of [
      [DS, OPT, [2, 3, 4, 5, 6, 8, 10, 12, 16, 20]],
      [DS12K, OPT12K, [4, 6, 8, 10, 12]],
    ] as const) {
      for (const bpk of [2, 10]) {
        const mem = (bpk * ds.entries) / 8;
        for (const name of Object.keys(MIXES)) {
          const { w } = mix(name, 0.3);
          const best = smoose(ds, w, mem, opt);
          for (const t of T) {
            const presets = moosePresetLayouts(ds, { sizeRatio: t, bufferBytes: opt.bufferBytes, bitsPerEntry: bpk });
            for (const [design, layout] of Object.entries(presets)) {
              const c = mooseCosts(ds, layout, w, opt).weighted;
              expect(best.objective, `${name} ${bpk} bpk vs ${design} T=${t}`).toBeLessThanOrEqual(c * (1 + 1e-12));
            }
          }
        }
      }
    }
  });

  it('its objective is the weighted cost of the layout it returns, and the layout is valid for the engine', () => {
    const { w } = mix('G');
    const r = smoose(DS12K, w, MEM12K, OPT12K);
    expectRel(mooseCosts(DS12K, r.levels, w, OPT12K).weighted, r.objective, 1e-12);
    expectRel(r.capacities.reduce((a, c) => a + c, 0), DS12K.entries, 1e-12);
    expect(r.lastLevelFraction).toBeGreaterThanOrEqual(0.5);
    expect(() => mooseToEngineLevels(r.levels)).not.toThrow();
  });

  it('coarse-to-fine lands within 1% of the exhaustive scan (N/F = 256)', () => {
    for (const name of Object.keys(MIXES)) {
      const { w } = mix(name);
      const ex = smoose(DS, w, MEM10, { ...OPT, search: 'exhaustive' });
      const cf = smoose(DS, w, MEM10, { ...OPT, search: 'coarse-to-fine' });
      expect(cf.objective, name).toBeLessThanOrEqual(ex.objective * 1.01);
    }
  });

  it('at paper scale it is within 1% of the reference\'s best model Smoose (§6.1 table; its grids were coarser)', () => {
    // min(Smoose Σ√r, Smoose WA) of §6.1, which used N_L steps of 30F / 120F
    const ref: Record<string, number> = { A: 3.033, B: 1.401, C: 0.26, D: 1.863, E: 1.55, F: 6.287, G: 5.164, H: 3.643, I: 3.658, J: 4.289 };
    for (const name of Object.keys(MIXES)) {
      const { w, scale } = mix(name);
      const r = smoose(DS12K, w, MEM12K, OPT12K);
      expect(r.objective * scale, name).toBeLessThanOrEqual(ref[name] * 1.01);
    }
  });

  it('stays bounded at N/F = 1e5 (deterministic work counts, not wall time)', () => {
    const ds: Dataset = { entries: 1e8, entryBytes: 1, pageBytes: 4 };
    const { w } = mix('J');
    const r = smoose(ds, w, 5e8 / 8, { bufferBytes: 1000 });
    expect(r.evaluated).toBeLessThan(20000);
    expect(r.levels.length).toBeGreaterThanOrEqual(3);
    expectRel(r.capacities.reduce((a, c) => a + c, 0), 1e8, 1e-12);
  });

  it('picks leveling-like runs for range-heavy and tiering-like runs for update-heavy mixes', () => {
    const a = smoose(DS12K, mix('A').w, MEM12K, OPT12K);
    expect(a.levels.every((l) => l.runs === 1)).toBe(true);
    const b = smoose(DS12K, mix('B').w, MEM12K, OPT12K);
    expect(b.levels.every((l) => l.runs >= Math.floor(l.sizeRatio) - 1)).toBe(true);
  });

  it('with only point lookups it skips the (degenerate) workload-aware DP', () => {
    const r = smoose(DS, POINTS, MEM10, { ...OPT, baselines: false });
    expect(r.variant).toBe('sum-sqrt');
  });
});

// ─────────────────────────────────────────────────────────────────────────── mooseCosts
describe('mooseCosts: the workload-weighted cost and the extensions', () => {
  const layout = mooseLayout(DS, { bitsPerEntry: 10 }, OPT);
  it('weighted = z((1−v)Z + v·Z_hit) + q(R + σN/B) + w·U', () => {
    const w: Workload = { pointLookups: 0.5, nonZeroFraction: 0.4, rangeLookups: 0.2, updates: 0.3, rangeSelectivity: 1e-4 };
    const c = mooseCosts(DS, layout, w, OPT);
    expectRel(c.range, c.shortRange + (1e-4 * N) / 4, 1e-15);
    const expected = 0.5 * (0.6 * c.zeroResultPoint + 0.4 * c.nonZeroResultPoint) + 0.2 * c.range + 0.3 * c.updatePaper;
    expectRel(c.weighted, expected, 1e-15);
    const refined = mooseCosts(DS, layout, w, { ...OPT, updateModel: 'refined' });
    expect(refined.update).toBe(refined.updateRefined);
    expectRel(refined.weighted - c.weighted, 0.3 * (refined.updateRefined - c.updatePaper), 1e-12);
  });
  it('the refined update cost is (1/B)Σ(s_i + 1)/2 with run magnification s_i = r_i/n_i', () => {
    const c = mooseCosts(DS, layout, POINTS, OPT);
    const s = c.levels.map((l) => l.runMagnification);
    expectRel(c.updateRefined, s.reduce((a, x) => a + (x + 1) / 2, 0) / 4, 1e-15);
    expectRel(mooseUpdateCostRefined([10, 10], [1, 10], 1), 5.5 + 1, 1e-15);
  });
  it('the average hit probes half the extra runs of the last level, the worst case all of them', () => {
    expectRel(mooseNonZeroResultPointCost([2, 3], [0.1, 0.2], 'average'), 1 + 0.2 + 1 * 0.2, 1e-15);
    expectRel(mooseNonZeroResultPointCost([2, 3], [0.1, 0.2], 'worst'), 1 + 0.2 + 2 * 0.2, 1e-15);
  });
});

// ─────────────────────────────────────────────────────────────────────────── curves
describe('trade-off curves (§5.1)', () => {
  const curves = mooseTradeoffCurves(DS, { memoryBytes: MEM10 }, OPT);
  it('draws one point per T for the fixed-ratio designs and one per k breakpoint for Moose', () => {
    expect(curves.leveling.map((p) => p.parameter)).toEqual([2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 32, 64]);
    expect(curves.tiering.length).toBe(12);
    expect(curves.lazyLeveling.length).toBe(12);
    // Moose at N/F = 256 is {7,44,205}F: its curve is E3's
    V.E3.forEach((e, i) => {
      expect(curves.moose[i].runs).toEqual(e.runs);
      expectRel(curves.moose[i].zeroResultPoint, e.Z0, 1e-9);
    });
  });
  it('along Moose\'s curve range cost rises and update cost falls with k', () => {
    for (let i = 1; i < curves.moose.length; i++) {
      expect(curves.moose[i].shortRange).toBeGreaterThan(curves.moose[i - 1].shortRange);
      expect(curves.moose[i].updatePaper).toBeLessThan(curves.moose[i - 1].updatePaper);
    }
  });
  it('leveling has the cheapest range lookups and tiering the cheapest updates at every T', () => {
    curves.leveling.forEach((l, i) => {
      expect(l.shortRange).toBeLessThanOrEqual(curves.tiering[i].shortRange);
      expect(curves.tiering[i].updatePaper).toBeLessThanOrEqual(l.updatePaper);
      expect(curves.lazyLeveling[i].updatePaper).toBeLessThanOrEqual(l.updatePaper);
    });
  });
});

// ─────────────────────────────────────────────────────────────────────────── engine export
describe('mooseToEngineLevels', () => {
  it('copies n_i as max_runs (Moose convention) in snake_case, bits per key as given (12 digits)', () => {
    const layout = mooseLayout(DS, { bitsPerEntry: 10 }, OPT);
    const e = mooseToEngineLevels(layout);
    expect(e.map((l) => l.max_runs)).toEqual([3, 3, 2]);
    expect(Object.keys(e[0]).sort()).toEqual(['bits_per_key', 'max_runs', 'size_ratio']);
    expectAllRel(e.map((l) => l.bits_per_key), layout.map((l) => l.bitsPerEntry), 1e-11);
  });
  it('raises a last level below 2 to the engine minimum of 2, caps bits at 64, rejects inner ratios below 2', () => {
    const e = mooseToEngineLevels([
      { sizeRatio: 9, runs: 3, bitsPerEntry: 80 },
      { sizeRatio: 1.42, runs: 1, bitsPerEntry: 5 },
    ]);
    expect(e[1].size_ratio).toBe(2);
    expect(e[0].bits_per_key).toBe(64);
    expect(() => mooseToEngineLevels([{ sizeRatio: 1.5, runs: 1, bitsPerEntry: 5 }, { sizeRatio: 4, runs: 1, bitsPerEntry: 5 }])).toThrow(
      'levels[0].sizeRatio: must be a number in [2, 1000], got 1.5',
    );
  });
});

// ─────────────────────────────────────────────────────────────────────────── invalid input
describe('invalid input throws a ModelInputError naming the field and range', () => {
  const ok: MooseLevel[] = [
    { sizeRatio: 7, runs: 3, bitsPerEntry: 10 },
    { sizeRatio: 44 / 7, runs: 3, bitsPerEntry: 10 },
    { sizeRatio: 205 / 44, runs: 2, bitsPerEntry: 10 },
  ];
  const bad = (i: number, patch: Partial<MooseLevel>): MooseLevel[] => ok.map((l, j) => (j === i ? { ...l, ...patch } : l));
  const cases: [string, () => unknown, string | RegExp][] = [
    ['ratio < 2 on an inner level', () => mooseCosts(DS, bad(0, { sizeRatio: 1.5 }), POINTS, OPT), 'levels[0].sizeRatio: must be a number in [2, 1000000000], got 1.5'],
    ['ratio < 1 on the last level', () => mooseCosts(DS, bad(2, { sizeRatio: 0.5 }), POINTS, OPT), /levels\[2\]\.sizeRatio: must be a number in \[1, /],
    ['runs > ratio', () => mooseCosts(DS, bad(1, { runs: 7 }), POINTS, OPT), 'levels[1].runs: must be an integer in [1, 6], got 7'],
    ['runs < 1', () => mooseCosts(DS, bad(0, { runs: 0 }), POINTS, OPT), 'levels[0].runs: must be an integer in [1, 7], got 0'],
    ['fractional runs', () => mooseCosts(DS, bad(0, { runs: 2.5 }), POINTS, OPT), /levels\[0\]\.runs: must be an integer/],
    ['NaN ratio', () => mooseCosts(DS, bad(1, { sizeRatio: Number.NaN }), POINTS, OPT), /levels\[1\]\.sizeRatio: .* got NaN/],
    ['NaN bits', () => mooseCosts(DS, bad(1, { bitsPerEntry: Number.NaN }), POINTS, OPT), /levels\[1\]\.bitsPerEntry: .* got NaN/],
    ['negative bits', () => mooseCosts(DS, bad(1, { bitsPerEntry: -1 }), POINTS, OPT), /levels\[1\]\.bitsPerEntry: must be a number in \[0, /],
    ['no levels', () => mooseCosts(DS, [], POINTS, OPT), /levels: must list between 1 and 64 levels/],
    ['fractions not summing to 1', () => mooseCosts(DS, ok, { ...POINTS, updates: 0.2 }, OPT), 'workload: pointLookups + rangeLookups + updates must sum to 1, got 1.2'],
    ['nonZeroFraction > 1', () => mooseCosts(DS, ok, { ...POINTS, nonZeroFraction: 2 }, OPT), /workload\.nonZeroFraction: must be a number in \[0, 1\]/],
    ['NaN entries', () => mooseCosts({ ...DS, entries: Number.NaN }, ok, POINTS, OPT), /dataset\.entries: .* got NaN/],
    ['page smaller than an entry', () => mooseCosts({ ...DS, pageBytes: 512 }, ok, POINTS, OPT), /dataset\.pageBytes: must be a number in \[1024, /],
    ['buffer smaller than an entry', () => mooseCosts(DS, ok, POINTS, { bufferBytes: 10 }), /options\.bufferBytes: must be a number in \[1024, /],
    ['layout larger than the data', () => mooseCosts(DS, [ok[0], { ...ok[1], sizeRatio: 100 }, ok[2]], POINTS, OPT), /levels: levels 1\.\.2 already hold/],
    ['last level too small', () => mooseCosts(DS, [ok[0], ok[1], { ...ok[2], sizeRatio: 2 }], POINTS, OPT), /levels\[2\]\.sizeRatio: must be a number in \[4\.659/],
    ['unknown update model', () => mooseCosts(DS, ok, POINTS, { ...OPT, updateModel: 'fast' as 'paper' }), /options\.updateModel: must be one of "paper", "refined"/],
    ['negative memory', () => smoose(DS, POINTS, -1, OPT), /memoryBytes: must be a number in \[0, /],
    ['dataset below two buffers', () => smoose({ ...DS, entries: F }, POINTS, 0, OPT), /dataset\.entries: must be between 2 and/],
    ['N_L below half', () => mooseStructure(DS, { lastLevelFraction: 0.3 }, OPT), 'lastLevelFraction: must be a number in [0.5, 1], got 0.3'],
    ['k = 0', () => mooseStructure(DS, { k: 0 }, OPT), /k: must be a number in \(0, /],
    ['preset T < 2', () => moosePresetLayouts(DS, { sizeRatio: 1, bitsPerEntry: 10 }), 'sizeRatio: must be a number in [2, 1000000000], got 1'],
    ['unknown Smoose variant', () => smoose(DS, POINTS, MEM10, { ...OPT, variant: 'x' as 'best' }), /options\.variant: must be one of/],
    ['empty k grid', () => smoose(DS, POINTS, MEM10, { ...OPT, kGrid: [] }), 'options.kGrid: must list at least one k'],
    ['mismatched runs', () => mooseOptimalFprs([1, 2], [1], 10), 'runs: must have one entry per level (2), got 1'],
    ['negative runs in a formula', () => mooseUpdateCostPaper([4, 4], [1, -1], 4), 'runs[1]: must be a number in (0, ∞), got -1'],
    ['FPR above 1', () => mooseZeroResultPointCost([1, 1], [0.1, 1.5]), 'fprs[1]: must be a number in [0, 1], got 1.5'],
    ['B below 1', () => mooseUpdateCostRefined([4], [1], 0.5), 'entriesPerPage: must be a number in [1, ∞), got 0.5'],
    ['vectors of different lengths', () => mooseSpaceAmplification([1, 2], [1]), 'runs: must have one entry per level (2), got 1'],
    ['DP cost table too small', () => mooseDp(5000, 4000, mooseSqrtLevelCost(100)), /levelCost: covers ratios up to/],
  ];
  for (const [what, f, message] of cases) {
    it(what, () => {
      expect(f).toThrow(ModelInputError);
      expect(f).toThrow(message);
    });
  }
});

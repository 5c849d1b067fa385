// Moose: level geometry, named designs, the filter split, the cost formulas, `mooseCosts`, the engine export and input validation.
import { describe, expect, it } from 'vitest';
import { fprFromBitsPerKey } from '../src/bloom';
import type { Dataset, Workload } from '../src/types';
import { ModelInputError } from '../src/validate';
import {
  type MooseLevel,
  mooseCapacitiesFromRatios,
  mooseCapacitiesFromShape,
  mooseCosts,
  mooseDp,
  mooseEq11PointCost,
  mooseEqualRatioRuBound,
  mooseFixedRatioCapacities,
  mooseLayout,
  mooseLemma32Factor,
  mooseLevelCapacities,
  mooseNonZeroResultPointCost,
  mooseOptimalBitsPerEntry,
  mooseOptimalFprs,
  moosePresetLayouts,
  mooseRuns,
  mooseShortRangeCost,
  mooseSpaceAmplification,
  mooseSpaceAmplificationBound,
  mooseSqrtLevelCost,
  mooseStructure,
  mooseToEngineLevels,
  mooseUpdateCostPaper,
  mooseUpdateCostRefined,
  mooseZeroResultPointCost,
  smoose,
} from '../src/moose';
import { mulberry32 } from '../src/random';
import { DS, expectAllRel, expectRel, F, layoutFrom, MEM10, N, OPT, POINTS, V } from './moose-fixtures';

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

// ─────────────────────────────────────────────────────────────────────────── filters
describe('the generalised Monkey filter split (§2.6)', () => {
  const rand = mulberry32(7);
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
    const rand = mulberry32(3);
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

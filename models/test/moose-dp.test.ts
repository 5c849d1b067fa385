// Moose: the inner-level DP, the structures it builds and the trade-off curves over them.
import { describe, expect, it } from 'vitest';
import {
  MOOSE_OPTIMAL_EQUAL_RATIO,
  mooseCosts,
  mooseDp,
  mooseDpLiteral,
  mooseEqualRatioRuBound,
  mooseKBreakpoints,
  mooseLastLevelSweep,
  mooseLayout,
  mooseOptimalBitsPerEntry,
  mooseRuCurve,
  mooseShortRangeCost,
  mooseSqrtLevelCost,
  mooseStructure,
  mooseTradeoffCurves,
  mooseUpdateCostPaper,
  smooseWorkloadLevelCost,
} from '../src/moose';
import { mulberry32 } from '../src/random';
import {
  DS,
  DS12K,
  expectAllRel,
  expectRel,
  F,
  layoutFrom,
  MEM10,
  MEM12K,
  mix,
  MIXES,
  OPT,
  OPT12K,
  POINTS,
  V,
} from './moose-fixtures';

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
  const rand = mulberry32(42);
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

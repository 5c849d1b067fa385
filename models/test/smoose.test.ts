// Smoose: the workload-optimal structure search against the reference vectors, and its properties.
import { describe, expect, it } from 'vitest';
import type { Dataset } from '../src/types';
import {
  type MooseLevel,
  mooseCosts,
  mooseLayout,
  mooseOptimalBitsPerEntry,
  moosePresetLayouts,
  mooseToEngineLevels,
  smoose,
  smooseContinuous,
} from '../src/moose';
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

// Endure's robust tuning: the KL dual against its primal, ρ = 0 is the nominal design, and the
// robust design's worst case over the ρ-neighbourhood is never above the nominal design's.
import { describe, expect, it } from 'vitest';
import {
  classMix,
  klDivergence,
  robustTuning,
  sampleNeighbourhood,
  worstCase,
  workloadOf,
  type ClassMix,
} from '../src/endure';
import { costs } from '../src/monkey';
import type { Dataset, Hardware, Workload } from '../src/types';

const DS: Dataset = { entries: 2 ** 30, entryBytes: 128, pageBytes: 4096 };
const HW: Hardware = { writeReadCostRatio: 1, pageReadSeconds: 1e-4 };
const MEMORY = 10 * 2 ** 30; // ~10 bits per entry of memory in all
// Endure's running example is read-heavy with some writes; this one: 60% point (half empty), 10% range, 30% update.
const WL: Workload = { pointLookups: 0.6, nonZeroFraction: 0.5, rangeLookups: 0.1, updates: 0.3, rangeSelectivity: 1e-7 };

describe('the worst case within ρ (KL dual)', () => {
  const c = [0.2, 1.3, 6, 0.4];
  const w: ClassMix = [0.3, 0.3, 0.1, 0.3];

  it('is the nominal cost at ρ = 0 and grows with ρ towards the costliest class', () => {
    expect(worstCase(c, w, 0).cost).toBe(0.3 * 0.2 + 0.3 * 1.3 + 0.1 * 6 + 0.3 * 0.4);
    let last = worstCase(c, w, 0).cost;
    for (const rho of [0.01, 0.1, 0.5, 1, 2, 5]) {
      const j = worstCase(c, w, rho).cost;
      expect(j).toBeGreaterThan(last);
      expect(j).toBeLessThanOrEqual(6);
      last = j;
    }
    expect(worstCase(c, w, 50).cost).toBeCloseTo(6, 6);
  });

  it('equals the primal: its worst workload lies on the KL ball’s edge and costs exactly J (strong duality)', () => {
    for (const rho of [0.05, 0.25, 1]) {
      const r = worstCase(c, w, rho);
      expect(r.workload.reduce((s, x) => s + x, 0)).toBeCloseTo(1, 12);
      expect(klDivergence(r.workload, w)).toBeCloseTo(rho, 6);
      const primal = r.workload.reduce((s, x, i) => s + x * c[i], 0);
      expect(primal).toBeCloseTo(r.cost, 6);
    }
  });

  it('is not beaten by any sampled workload inside the ball', () => {
    const rho = 0.3;
    const j = worstCase(c, w, rho).cost;
    const samples = sampleNeighbourhood(w, rho, 5_000, 7);
    let maxSeen = 0;
    for (const s of samples) {
      expect(klDivergence(s, w)).toBeLessThanOrEqual(rho + 1e-9);
      maxSeen = Math.max(maxSeen, s.reduce((acc, x, i) => acc + x * c[i], 0));
    }
    expect(maxSeen).toBeLessThanOrEqual(j + 1e-12);
    // …and the samples reach close to the edge (the chart's worst case is meaningful).
    expect(maxSeen).toBeGreaterThan(worstCase(c, w, 0).cost + 0.5 * (j - worstCase(c, w, 0).cost));
  });

  it('refuses bad input with the field and the range', () => {
    expect(() => worstCase(c, [0.5, 0.5, 0.5, 0], 0.1)).toThrow(/w: shares must sum to 1/);
    expect(() => worstCase(c, w, -1)).toThrow(/rho/);
  });
});

describe('robust tuning over Monkey’s design space', () => {
  it('class shares round-trip through a Monkey workload', () => {
    const m = classMix(WL);
    expect(m.reduce((s, x) => s + x, 0)).toBeCloseTo(1, 15);
    expect(workloadOf(m, WL)).toEqual(WL);
  });

  it('ρ = 0 gives the nominal design, at least as good as the holistic design on the exact model', () => {
    const t = robustTuning(DS, WL, HW, MEMORY, 0);
    expect(t.robust).toBe(t.nominal);
    expect(t.expectedLoss).toBe(0);
    expect(t.candidates).toBeGreaterThan(100);
    expect(t.nominal.nominalCost).toBeCloseTo(costs(DS, t.nominal.design, WL, HW).perOperation, 12);
  });

  it('for ρ ≥ 0.5 the robust design’s worst case is at most the nominal’s, measured on 1,000 drifted workloads too, at a small expected loss', () => {
    for (const rho of [0.5, 1, 2]) {
      const t = robustTuning(DS, WL, HW, MEMORY, rho);
      expect(t.robust.worstCost).toBeLessThanOrEqual(t.nominal.worstCost + 1e-12);
      expect(t.robust.nominalCost).toBeGreaterThanOrEqual(t.nominal.nominalCost - 1e-12);
      const drifted = sampleNeighbourhood(classMix(WL), rho, 1_000, 3);
      const costOf = (k: readonly number[], m: ClassMix) => m.reduce((s, x, i) => s + x * k[i], 0);
      const worstRobust = Math.max(...drifted.map((m) => costOf(t.robust.classCosts, m)));
      const worstNominal = Math.max(...drifted.map((m) => costOf(t.nominal.classCosts, m)));
      expect(worstRobust).toBeLessThanOrEqual(t.robust.worstCost + 1e-9);
      expect(worstRobust).toBeLessThanOrEqual(worstNominal * 1.0001);
      // Endure reports the price of robustness at the expected workload as small.
      expect(t.expectedLoss).toBeLessThan(0.5);
    }
  });
});

describe('what the target can express', () => {
  it('no candidate exceeds the most bits per entry the target takes', () => {
    // A memory budget far above the data: without the cap, filters would take hundreds of bits per entry.
    const small: Dataset = { entries: 200_000, entryBytes: 1024, pageBytes: 4096 };
    const read: Workload = { pointLookups: 0.95, nonZeroFraction: 1, rangeLookups: 0, updates: 0.05, rangeSelectivity: 0 };
    for (const rho of [0, 0.5]) {
      const t = robustTuning(small, read, HW, 64 * 2 ** 20 + 250_000, rho, { maxBitsPerEntry: 64 });
      expect(t.nominal.design.filterBitsPerEntry).toBeLessThanOrEqual(64);
      expect(t.robust.design.filterBitsPerEntry).toBeLessThanOrEqual(64);
    }
  });
});

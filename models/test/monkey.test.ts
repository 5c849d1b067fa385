import { describe, expect, it } from 'vitest';
import { bitsPerKeyFromFpr, fprFromBitsPerKey } from '../src/bloom';
import {
  costs,
  exactAllocation,
  filterFprs,
  levelCount,
  monkeyAutotuneFilters,
  monkeyEntriesPerPage,
  monkeyLevelCapacities,
  monkeyLevelEntries,
  monkeyLookupCostByTargetLevel,
  type MonkeyRun,
  monkeySizeRatioLimit,
  monkeySweepValues,
  monkeySystemDefaults,
  monkeySystemDesign,
  monkeyWhatIf,
} from '../src/monkey';
import {
  memoryThresholdBits,
  memoryThresholdBitsPerEntry,
  monkeyFilterBitsPerEntryForZeroResultCost,
  monkeyFilterBitsPerEntryFromFprs,
  monkeyFilteredCostConstant,
  monkeyFprsForZeroResultCost,
  monkeyGeneralFprsClosedForm,
  monkeyGeneralThresholdsBitsPerEntry,
  monkeyNonZeroResultCost,
  monkeyPointLookupCostClosedForm,
  monkeyRangeLookupCost,
  type MonkeyShape,
  monkeyUnfilteredLevels,
  monkeyUpdateCost,
  monkeyZeroResultCostClosedForm,
  monkeyZeroTunedPointLookupCost,
  uniformFilterBitsPerEntryForZeroResultCost,
  uniformPointLookupCost,
  uniformZeroResultCost,
  uniformZeroResultCostFiniteL,
} from '../src/monkey-closed-form';
import {
  holisticDesign,
  monkeyHolisticObjective,
  monkeyMemorySplitCoefficients,
  monkeyMemorySplitCost,
  monkeyOptimalFilterMemory,
} from '../src/monkey-holistic';
import type { Dataset, Design, Hardware, Policy, Workload } from '../src/types';
import { ModelInputError } from '../src/validate';

// Vectors: reference monkey.md §6 (monkey-vectors.py prints 6 significant digits, "%.6g"). Unless a
// test says otherwise, printed values are checked with relative tolerance 6e-6 (half a unit in the
// sixth digit, at most 5e-6 of the value) — `sig6`.

const SIG6 = 6e-6;
const rel = (a: number, b: number): number => (b === 0 ? Math.abs(a) : Math.abs(a - b) / Math.abs(b));
function near(actual: number, expected: number, tol = SIG6, what = ''): void {
  expect(rel(actual, expected), `${what} actual ${actual} expected ${expected}`).toBeLessThanOrEqual(tol);
}
function nearAll(actual: readonly number[], expected: readonly number[], tol = SIG6, what = ''): void {
  expect(actual.length, what).toBe(expected.length);
  actual.forEach((a, i) => near(a, expected[i], tol, `${what}[${i}]`));
}
const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

const MIB = 2 ** 20;
const GIB = 2 ** 30;
const N20 = 2 ** 20;
const N35 = 2 ** 35;
/** The paper's experimental data: 2^20 entries of 1 KiB, 16 KiB pages (B = 16), 1 MiB buffer. */
const DS20: Dataset = { entries: N20, entryBytes: 1024, pageBytes: 16384 };
/** Fig 7's data set: 2^35 entries of 16 B; 4 KiB pages (B = 256) where a page size is needed. */
const DS35: Dataset = { entries: N35, entryBytes: 16, pageBytes: 4096 };
const HW: Hardware = { writeReadCostRatio: 1, pageReadSeconds: 1e-4 };
const ZERO_ONLY: Workload = { pointLookups: 1, nonZeroFraction: 0, rangeLookups: 0, updates: 0, rangeSelectivity: 0 };

function design(policy: Policy, sizeRatio: number, bufferBytes: number, bits: number, allocation: 'monkey' | 'uniform' = 'monkey'): Design {
  return { policy, sizeRatio, bufferBytes, filterBitsPerEntry: bits, allocation };
}
const shape = (policy: Policy, sizeRatio: number, levels: number): MonkeyShape => ({ policy, sizeRatio, levels });
/** Paper level sizes n_i = N(T−1)/T^(L−i+1) as allocator runs. */
function levelRuns(n: number, t: number, l: number, weights?: number[]): MonkeyRun[] {
  return Array.from({ length: l }, (_, k) => ({ entries: (n * (t - 1)) / Math.pow(t, l - k), weight: weights?.[k] ?? 1 }));
}

// ------------------------------------------------------------------------------------------------

describe('V1: leveling T=10, N=2^20, E=1 KiB, Mbuf=1 MiB, 10 bits/entry', () => {
  const d = design('leveling', 10, MIB, 10);
  const sh = shape('leveling', 10, 3);

  it('tree shape: L = 3 and the paper level sizes; B = 16; Tlim = 1024; capacities B·P·T^i', () => {
    expect(levelCount(DS20, d)).toBe(3);
    nearAll(monkeyLevelEntries(DS20, d), [9437.18, 94371.8, 943718]);
    expect(monkeyEntriesPerPage(DS20)).toBe(16);
    expect(monkeySizeRatioLimit(DS20, MIB)).toBe(1024);
    expect(monkeyLevelCapacities(DS20, d)).toEqual([10240, 102400, 1024000]);
  });

  it('Mthreshold = 558370 bits (0.532503 bits/entry), so Lu = 0', () => {
    near(memoryThresholdBits(N20, 10), 558370);
    near(memoryThresholdBitsPerEntry(10), 0.532503);
    expect(monkeyUnfilteredLevels(sh, 10)).toBe(0);
  });

  it('uniform: Eq 56 p = 0.00819255, R = 0.0245776; exact finite L (Eq 55) p = 0.00815324, R = 0.0244597', () => {
    near(fprFromBitsPerKey(10), 0.00819255);
    near(uniformZeroResultCost(sh, 10), 0.0245776);
    near(uniformZeroResultCostFiniteL(sh, 10), 0.0244597);
    near(uniformZeroResultCostFiniteL(sh, 10) / 3, 0.00815324);
    // The exact model's uniform allocation is Eq 56 (bits per stored entry).
    near(costs(DS20, { ...d, allocation: 'uniform' }, ZERO_ONLY, HW).zeroResultLookup, 0.0245776);
  });

  it('Monkey Eq 7: R = 0.0117568; Eq 5 at that R: p = [1.05811e-4, 1.05811e-3, 1.05811e-2], sum 0.011745, Eq 4 memory 9.97562 b/e', () => {
    const r7 = monkeyZeroResultCostClosedForm(sh, 10);
    near(r7.cost, 0.0117568);
    expect(r7.unfilteredLevels).toBe(0);
    const p5 = monkeyFprsForZeroResultCost(sh, r7.cost, 'large-L');
    nearAll(p5, [0.000105811, 0.00105811, 0.0105811]);
    near(sum(p5), 0.011745);
    near(monkeyFilterBitsPerEntryFromFprs(10, p5), 9.97562);
  });

  it('exact optimum for 10·N bits: p = [1.04578e-4, 1.04578e-3, 1.04578e-2], R = 0.0116081, bits/level [19.077, 14.2844, 9.4919]; Eq 32 agrees', () => {
    const p = exactAllocation(levelRuns(N20, 10, 3), 10 * N20);
    nearAll(p, [0.000104578, 0.00104578, 0.0104578]);
    near(sum(p), 0.0116081);
    nearAll(p.map(bitsPerKeyFromFpr), [19.077, 14.2844, 9.4919]);
    near(monkeyFilterBitsPerEntryFromFprs(10, p), 10, 1e-12, 'Eq 4 memory of the exact optimum');
    nearAll(monkeyFprsForZeroResultCost(sh, sum(p), 'finite-L'), p, 1e-12, 'Eq 32');
  });

  it('V (Eq 9): uniform 1.01631, Monkey exact 1.00115; W = 1.6875 (B=16, φ=1); Q = 3.65536 (s=1e-5)', () => {
    const ru = uniformZeroResultCostFiniteL(sh, 10);
    near(monkeyNonZeroResultCost('leveling', 10, ru, ru / 3), 1.01631);
    const p = exactAllocation(levelRuns(N20, 10, 3), 10 * N20);
    near(monkeyNonZeroResultCost('leveling', 10, sum(p), p[2]), 1.00115);
    const wl: Workload = { pointLookups: 0, nonZeroFraction: 0, rangeLookups: 0.5, updates: 0.5, rangeSelectivity: 1e-5 };
    const c = costs(DS20, d, wl, HW);
    expect(c.update).toBe(1.6875);
    near(c.rangeLookup, 3.65536);
    expect(monkeyUpdateCost('leveling', 10, 3, 16, 1)).toBe(1.6875);
    near(monkeyRangeLookupCost('leveling', 10, 3, N20, 16, 1e-5), 3.65536);
  });
});

describe('V2: tiering T=4, same data, 10 bits/entry', () => {
  const d = design('tiering', 4, MIB, 10);
  const sh = shape('tiering', 4, 5);
  it('L = 5, level sizes, 3 runs per level', () => {
    expect(levelCount(DS20, d)).toBe(5);
    nearAll(monkeyLevelEntries(DS20, d), [3072, 12288, 49152, 196608, 786432], 1e-12);
  });
  it('uniform: exact p = 0.00815416, R = 0.122312; Eq 56 R = 0.122888', () => {
    near(uniformZeroResultCostFiniteL(sh, 10), 0.122312);
    near(uniformZeroResultCostFiniteL(sh, 10) / 15, 0.00815416);
    near(uniformZeroResultCost(sh, 10), 0.122888);
  });
  it('Monkey: Eq 7 R = 0.0520194 (Lu = 0); exact p and R = 0.0513759; Eq 6 p at Eq 7 R', () => {
    const r7 = monkeyZeroResultCostClosedForm(sh, 10);
    near(r7.cost, 0.0520194);
    expect(r7.unfilteredLevels).toBe(0);
    const p = exactAllocation(levelRuns(N20, 4, 5), 10 * N20);
    nearAll(p, [5.02208e-5, 0.000200883, 0.000803533, 0.00321413, 0.0128565]);
    near(3 * sum(p), 0.0513759);
    nearAll(monkeyFprsForZeroResultCost(sh, r7.cost, 'large-L'), [5.08002e-5, 0.000203201, 0.000812804, 0.00325122, 0.0130049]);
  });
  it('W (B=16, φ=1): tiering 0.46875, leveling at the same T 0.9375', () => {
    expect(costs(DS20, d, ZERO_ONLY, HW).update).toBe(0.46875);
    expect(costs(DS20, { ...d, policy: 'leveling' }, ZERO_ONLY, HW).update).toBe(0.9375);
  });
});

describe('V3: Eq 7/8 across memory (leveling T=10, N=2^20, L=3)', () => {
  // [bits/entry, Lu, R Eq 7, R exact (bpe·N bits over the paper levels), R_art Eq 56]
  const rows: [number, number, number, number, number][] = [
    [0, 3, 3, 3, 3],
    [0.05, 2, 2.12989, 2.06394, 2.92879],
    [0.1, 1, 1.88759, 1.83471, 2.85927],
    [0.2, 1, 1.54897, 1.51377, 2.72515],
    [0.25, 1, 1.43174, 1.40308, 2.66046],
    [0.5, 1, 1.12989, 1.1198, 2.35935],
    [1, 0, 0.887586, 0.880165, 1.85551],
    [2, 0, 0.548975, 0.544123, 1.14764],
    [5, 0, 0.129891, 0.128557, 0.271538],
    [10, 0, 0.0117568, 0.0116081, 0.0245776],
    [20, 0, 9.63178e-5, 9.46437e-5, 0.000201354],
  ];
  const sh = shape('leveling', 10, 3);
  it.each(rows)('bpe %s: Lu %s, Eq 7 %s, exact %s, art %s', (bpe, lu, r7, rx, ra) => {
    const c = monkeyZeroResultCostClosedForm(sh, bpe);
    expect(c.unfilteredLevels).toBe(lu);
    near(c.cost, r7);
    near(sum(exactAllocation(levelRuns(N20, 10, 3), bpe * N20)), rx);
    near(uniformZeroResultCost(sh, bpe), ra);
  });
});

describe('V4: Fig 7 data set (N=2^35, E=16 B, T=4, Mbuf=2 MiB)', () => {
  it('L = 9; Mthreshold = 3.30471e10 bits = 3.84719 GiB (0.961797 b/e); Mth/T^L = 0.0150281 MiB', () => {
    expect(levelCount(DS35, design('leveling', 4, 2 * MIB, 0))).toBe(9);
    near(memoryThresholdBits(N35, 4), 3.30471e10);
    near(memoryThresholdBits(N35, 4) / (8 * GIB), 3.84719);
    near(memoryThresholdBits(N35, 4) / 4 ** 9 / (8 * MIB), 0.0150281);
  });
  // [Mfilt GiB, lev Monkey, Lu, lev art, tier Monkey, tier art]
  const rows: [number, number, number, number, number, number][] = [
    [0, 9, 9, 9, 27, 27],
    [0.001, 7.29408, 6, 8.99892, 21.8822, 26.9968],
    [0.01, 5.61867, 5, 8.9892, 16.856, 26.9676],
    [0.1, 3.98123, 3, 8.89254, 11.9437, 26.6776],
    [0.5, 2.80967, 2, 8.4754, 8.42902, 25.4262],
    [1, 2.30908, 1, 7.98138, 6.92725, 23.9441],
    [2, 1.80967, 1, 7.07805, 5.42902, 21.2341],
    [4, 1.30908, 0, 5.56653, 3.92725, 16.6996],
    [5, 1.16092, 0, 4.93651, 3.48276, 14.8095],
    [10, 0.636766, 0, 2.70768, 1.9103, 8.12304],
    [20, 0.191573, 0, 0.814614, 0.57472, 2.44384],
    [35, 0.0316131, 0, 0.134426, 0.0948393, 0.403279],
  ];
  it.each(rows)('Mfilt %s GiB: leveling Monkey %s (Lu %s) art %s | tiering Monkey %s art %s', (gib, lm, lu, la, tm, ta) => {
    const bpe = (gib * 8 * GIB) / N35;
    const lev = monkeyZeroResultCostClosedForm(shape('leveling', 4, 9), bpe);
    const tier = monkeyZeroResultCostClosedForm(shape('tiering', 4, 9), bpe);
    near(lev.cost, lm);
    expect(lev.unfilteredLevels).toBe(lu);
    expect(tier.unfilteredLevels).toBe(lu);
    near(uniformZeroResultCost(shape('leveling', 4, 9), bpe), la);
    near(tier.cost, tm);
    near(uniformZeroResultCost(shape('tiering', 4, 9), bpe), ta);
  });
});

describe('V5: Monkey_general thresholds, Z, Lu and FPRs (Eq 14-20), N = 2^20', () => {
  // [T, L, policy, v, M^L_thr/N, M^(L-1)_thr/N, per bpe 1/5/10: [Z, Lu, pL, pL-1, Eq 4 memory/N]]
  type Row = [number, number, Policy, number, number, number, [number, number, number, number, number][]];
  const t2: [number, number, number, number, number][] = [
    [2.53018, 1, 1, 0.765092, 0.985367],
  ];
  const rows: Row[] = [];
  for (const policy of ['leveling', 'tiering'] as const) {
    rows.push([2, 10, policy, 0, 1.4427, 0.721348, [...t2, [0.362051, 0, 0.181025, 0.0905127, 4.98103], [0.0327702, 0, 0.0163851, 0.00819255, 9.97615]]]);
    rows.push([2, 10, policy, 1, 2.16404, 0.721348, [...t2, [0.756009, 0, 0.256009, 0.0640021, 4.98032], [0.523172, 0, 0.023172, 0.00579301, 9.97544]]]);
    rows.push([2, 10, policy, 9, 3.83896, 0.721348, [...t2, [1.01449, 0, 0.572453, 0.0286226, 4.97869], [0.910363, 0, 0.0518142, 0.00259071, 9.97381]]]);
  }
  rows.push(
    [10, 3, 'leveling', 0, 0.532503, 0.0532503, [[0.887586, 0, 0.798828, 0.0798828, 0.984622], [0.129891, 0, 0.116902, 0.0116902, 4.98062], [0.0117568, 0, 0.0105811, 0.00105811, 9.97562]]],
    [10, 3, 'leveling', 1, 0.676773, 0.0532503, [[0.975646, 0, 0.856162, 0.0428081, 0.983324], [0.569607, 0, 0.125292, 0.0062646, 4.97932], [0.5063, 0, 0.0113405, 0.000567026, 9.97432]]],
    [10, 3, 'leveling', 9, 1.01176, 0.0532503, [[1.01176, 1, 1, 0.0105811, 0.980415], [0.916352, 0, 0.14717, 0.0014717, 4.97631], [0.90148, 0, 0.0133208, 0.000133208, 9.97131]]],
    [10, 3, 'tiering', 0, 0.532503, 0.0532503, [[7.98828, 0, 0.798828, 0.0798828, 0.984622], [1.16902, 0, 0.116902, 0.0116902, 4.98062], [0.105811, 0, 0.0105811, 0.00105811, 9.97562]]],
    [10, 3, 'tiering', 1, 0.600236, 0.0532503, [[6.46014, 0, 0.825251, 0.0596014, 0.984013], [1.37222, 0, 0.120768, 0.00872217, 4.98001], [0.578947, 0, 0.0109311, 0.000789467, 9.97501]]],
    [10, 3, 'tiering', 9, 0.676773, 0.0532503, [[5.18081, 0, 0.856162, 0.0428081, 0.983324], [1.52646, 0, 0.125292, 0.0062646, 4.97932], [0.956703, 0, 0.0113405, 0.000567026, 9.97432]]],
  );
  it.each(rows)('T=%s L=%s %s v=%s', (t, l, policy, v, mL, mL1, perBits) => {
    const f = v / (v + 1);
    const th = monkeyGeneralThresholdsBitsPerEntry(policy, t, f);
    near(th.lastLevel, mL);
    near(th.secondLastLevel, mL1);
    [1, 5, 10].forEach((bpe, k) => {
      const [z, lu, pL, pL1, mem] = perBits[k];
      const c = monkeyPointLookupCostClosedForm(shape(policy, t, l), bpe, f);
      near(c.cost, z, SIG6, `Z at ${bpe}`);
      expect(c.unfilteredLevels).toBe(lu);
      const p = monkeyGeneralFprsClosedForm(shape(policy, t, l), c.cost, f, c.unfilteredLevels);
      near(p[l - 1], pL, SIG6, `pL at ${bpe}`);
      near(p[l - 2], pL1, SIG6, `pL-1 at ${bpe}`);
      near(monkeyFilterBitsPerEntryFromFprs(t, p), mem, SIG6, `Eq 4 at ${bpe}`);
    });
  });
});

describe('V6: Monkey_zero vs Monkey_general vs state of the art (Eq 13), T=2, L=10', () => {
  // [v, bpe, Z_art, Z_monkey_zero, Z_monkey_general]
  const rows: [number, number, number, number, number][] = [
    [1, 1, 6.37578, 2.53018, 2.53018],
    [1, 2, 4.13419, 1.64764, 1.58537],
    [1, 5, 1.35987, 0.771538, 0.756009],
    [1, 10, 0.577829, 0.524578, 0.523172],
    [9, 1, 6.52838, 2.53018, 2.53018],
    [9, 2, 4.38117, 1.7416, 1.58537],
    [9, 5, 1.72367, 1.09913, 1.01449],
    [9, 10, 0.974552, 0.918024, 0.910363],
  ];
  it.each(rows)('v=%s bpe=%s: art %s zero %s general %s', (v, bpe, art, zero, general) => {
    const f = v / (v + 1);
    const sh = shape('leveling', 2, 10);
    near(uniformPointLookupCost(sh, bpe, f), art);
    near(monkeyZeroTunedPointLookupCost(sh, bpe, f), zero);
    near(monkeyPointLookupCostClosedForm(sh, bpe, f).cost, general);
  });
});

describe('V7/V13: Algorithm 5 memory split (N=2^20, E=8192 bits, B=16, φ=1, M̂ = 10·N + 1 MiB bits)', () => {
  const memoryBytes = (10 * N20 + 8 * MIB) / 8;
  // [z, q, w, v, s, T, policy, alpha, gamma, delta, C, gamma/(alpha beta), Mfilt* bits, b/e, iterations, cost]
  type Row = [number, number, number, number, number, number, Policy, number, number, number, number, number, number, number, number, number];
  const rows: Row[] = [
    [0.5, 0, 0.5, 0, 0, 10, 'leveling', 0.717528, 0.122145, 7.73094e9, 0, 371524, 7.47259e6, 7.12642, 5, 0.819672],
    [0.5, 0, 0.5, 0, 0, 4, 'tiering', 3.1748, 0.0338132, 6.44245e9, 0, 23244.4, 1.23148e7, 11.7444, 5, 0.244214],
    [0.9, 0, 0.1, 1, 0, 10, 'leveling', 0.692124, 0.0244291, 7.73094e9, 0.45, 77032.1, 1.02876e7, 9.81106, 5, 0.622394],
    [0.9, 0, 0.1, 1, 0, 4, 'tiering', 4.2162, 0.00676263, 6.44245e9, 0.45, 3500.61, 1.51894e7, 14.4857, 4, 0.504495],
    [0.1, 0, 0.9, 0, 0, 10, 'leveling', 0.143506, 0.219862, 7.73094e9, 0, 3.34372e6, 3.35071e6, 3.19549, 5, 1.39639],
    [0.1, 0, 0.9, 0, 0, 4, 'tiering', 0.63496, 0.0608637, 6.44245e9, 0, 209200, 8.51648e6, 8.12195, 5, 0.404355],
    [0.3, 0.2, 0.5, 0, 1e-5, 10, 'leveling', 0.430517, 0.209004, 7.73094e9, 0.131072, 1.05953e6, 5.52896e6, 5.27283, 5, 1.4949],
    [0.3, 0.2, 0.5, 0, 1e-5, 4, 'tiering', 1.90488, 0.466622, 6.44245e9, 0.131072, 534621, 6.80287e6, 6.48772, 5, 3.14573],
  ];
  it.each(rows)('z=%s q=%s w=%s v=%s s=%s T=%s %s', (z, q, w, v, s, t, policy, alpha, gamma, delta, c, ratio, mfilt, bpe, iters, cost) => {
    const wl: Workload = { pointLookups: z, nonZeroFraction: v / (v + 1), rangeLookups: q, updates: w, rangeSelectivity: s };
    const co = monkeyMemorySplitCoefficients(DS20, wl, HW, policy, t);
    near(co.alpha, alpha);
    near(co.beta, 4.58196e-7);
    near(co.gamma, gamma);
    near(co.delta, delta);
    near(co.c, c);
    near(co.gamma / (co.alpha * co.beta), ratio);
    const r = monkeyOptimalFilterMemory(DS20, wl, HW, memoryBytes, policy, t);
    near(r.filterBytes * 8, mfilt);
    near(r.filterBitsPerEntry, bpe);
    expect(r.iterations).toBe(iters);
    near(r.bufferBytes + r.filterBytes, memoryBytes, 1e-15);
    near(monkeyMemorySplitCost(co, memoryBytes, r.filterBytes), cost);
  });

  it('Newton lands on the minimum of Eq 25 within one page (V13: a 200000-point grid agrees)', () => {
    const wl: Workload = { pointLookups: 0.9, nonZeroFraction: 0.5, rangeLookups: 0, updates: 0.1, rangeSelectivity: 0 };
    const co = monkeyMemorySplitCoefficients(DS20, wl, HW, 'tiering', 4);
    const r = monkeyOptimalFilterMemory(DS20, wl, HW, memoryBytes, 'tiering', 4);
    let best = Infinity;
    let bestX = 0;
    for (let k = 0; k < 200_000; k++) {
      const x = (memoryBytes * k) / 200_000;
      const cst = monkeyMemorySplitCost(co, memoryBytes, x);
      if (cst < best) [best, bestX] = [cst, x];
    }
    expect(Math.abs(bestX - r.filterBytes)).toBeLessThan(16384); // one page, in bytes
    near(monkeyMemorySplitCost(co, memoryBytes, r.filterBytes), best, 1e-8);
    near(r.filterBytes * 8, 1.51894e7);
  });

  it('guards: no point lookups → no filters; no range lookups or updates → all but one page to filters', () => {
    const noLookups: Workload = { pointLookups: 0, nonZeroFraction: 0, rangeLookups: 0.5, updates: 0.5, rangeSelectivity: 1e-6 };
    expect(monkeyOptimalFilterMemory(DS20, noLookups, HW, memoryBytes, 'leveling', 10).filterBytes).toBe(0);
    const r = monkeyOptimalFilterMemory(DS20, ZERO_ONLY, HW, memoryBytes, 'leveling', 10);
    expect(r.filterBytes).toBe(memoryBytes - 16384);
    expect(monkeyOptimalFilterMemory(DS20, ZERO_ONLY, HW, 10_000, 'leveling', 10).filterBytes).toBe(0);
  });
});

describe('V8: holistic design (Algorithm 1) regression values, N=2^20, E=1 KiB, B=16, φ=1, M̂ = 10 b/e + 1 MiB', () => {
  const memoryBytes = (10 * N20 + 8 * MIB) / 8;
  // [z, w, rule, cost, policy, T, Mfilt b/e, Mbuf MiB]. The reference stops Newton at one page; this
  // implementation polishes the root, so the split may move by < one page (0.125 b/e) and the cost can
  // only drop: cost within 6e-6 relative and not above the reference, b/e within 0.02.
  const rows: [number, number, 'paper' | 'pages', number, Policy, number, number, number][] = [
    [0.5, 0.5, 'paper', 0.134292, 'tiering', 101.594, 16.5278, 0.184027],
    [0.5, 0.5, 'pages', 0.137247, 'tiering', 256, 17.2843, 0.0894597],
    [0.9, 0.1, 'paper', 0.0404422, 'tiering', 32, 17.154, 0.105749],
    [0.9, 0.1, 'pages', 0.0405965, 'tiering', 40.3175, 17.3034, 0.0870714],
    [0.1, 0.9, 'paper', 0.175231, 'tiering', 1024, 16.9002, 0.137478],
    [0.1, 0.9, 'pages', 0.178718, 'tiering', 256, 15.3884, 0.326445],
  ];
  it.each(rows)('z=%s w=%s T rule %s', (z, w, rule, cost, policy, t, bpe, mbufMiB) => {
    const wl: Workload = { pointLookups: z, nonZeroFraction: 0, rangeLookups: 0, updates: w, rangeSelectivity: 0 };
    const r = holisticDesign(DS20, wl, HW, memoryBytes, {}, { sizeRatioRule: rule });
    near(r.objective, cost);
    expect(r.objective).toBeLessThanOrEqual(cost * (1 + SIG6));
    expect(r.policy).toBe(policy);
    near(r.sizeRatio, t);
    expect(Math.abs(r.filterBitsPerEntry - bpe)).toBeLessThan(0.02);
    expect(Math.abs(r.bufferBytes / MIB - mbufMiB)).toBeLessThan(0.003);
    expect(r.design).toEqual({ policy, sizeRatio: r.sizeRatio, bufferBytes: r.bufferBytes, filterBitsPerEntry: r.filterBitsPerEntry, allocation: 'monkey' });
    expect(r.costs).toEqual(costs(DS20, r.design, wl, HW));
    expect(r.throughput).toBe(r.costs.throughput);
    expect(r.feasible).toBe(true);
  });
});

describe('V9: arbitrary runs (App B)', () => {
  const runs = [1000, 3000, 9000, 27000, 27000, 81000].map((entries) => ({ entries, weight: 1 }));
  it('exact: p = [...], R = 0.31082; Algorithm 2 reaches the same R; uniform 5 b/e R = 0.543076', () => {
    const p = exactAllocation(runs, 740_000);
    nearAll(p, [0.00210013, 0.0063004, 0.0189012, 0.0567036, 0.0567036, 0.170111]);
    near(sum(p), 0.31082);
    const alg2 = monkeyAutotuneFilters(runs, 740_000);
    near(alg2.cost, 0.31082);
    nearAll(alg2.bits.map((b, j) => b / runs[j].entries), [12.8328, 10.5467, 8.26005, 5.97336, 5.97336, 3.68673], 1e-4);
    near(6 * fprFromBitsPerKey(5), 0.543076);
  });
  it('0.3 b/e: p = [0.0361862, 0.108559, 0.325676, 0.977028, 0.977028, 1], R = 3.42448 (Algorithm 2 too)', () => {
    const p = exactAllocation(runs, 0.3 * 148_000);
    nearAll(p, [0.0361862, 0.108559, 0.325676, 0.977028, 0.977028, 1]);
    near(sum(p), 3.42448);
    near(monkeyAutotuneFilters(runs, 0.3 * 148_000).cost, 3.42448);
  });
  it('third-party check: tiering T=4, runs 3×1587, 3×6349, 3×25396, 1e6 bits → [0.00076, 0.00304, 0.01217], R = 0.0479254', () => {
    const sizes = [1587, 1587, 1587, 6349, 6349, 6349, 25396, 25396, 25396];
    const p = exactAllocation(sizes.map((entries) => ({ entries, weight: 1 })), 1e6);
    nearAll([p[0], p[3], p[6]], [0.00076, 0.00304, 0.01217], 0.005); // published with 2-3 digits
    near(sum(p), 0.0479254);
  });
});

describe('V11: the exact optimum converges to Eq 7 and Eq 19/20 as L grows (T = 4, N = 2^20)', () => {
  const rows: [Policy, number, number][] = [
    ['leveling', 3, 0.169928],
    ['leveling', 6, 0.191026],
    ['leveling', 12, 0.191573],
    ['leveling', 24, 0.191573],
    ['tiering', 3, 0.509785],
    ['tiering', 6, 0.573077],
    ['tiering', 12, 0.574719],
    ['tiering', 24, 0.57472],
  ];
  it.each(rows)('%s L=%s at 5 b/e: R_exact %s (Eq 7: 0.191573 / 0.57472)', (policy, l, rx) => {
    const r = policy === 'leveling' ? 1 : 3;
    near(r * sum(exactAllocation(levelRuns(N20, 4, l), 5 * N20)), rx);
    near(monkeyZeroResultCostClosedForm(shape(policy, 4, l), 5).cost, policy === 'leveling' ? 0.191573 : 0.57472);
  });
  // [T, policy, v, bpe, Z, Lu]
  const general: [number, Policy, number, number, number, number][] = [
    [4, 'leveling', 1, 0.5, 1.80967, 1],
    [4, 'leveling', 1, 2, 0.981434, 0],
    [4, 'leveling', 1, 5, 0.61391, 0],
    [4, 'tiering', 1, 0.5, 4.92902, 1],
    [4, 'tiering', 1, 2, 2.2921, 0],
    [4, 'tiering', 1, 5, 0.924021, 0],
    [10, 'leveling', 9, 0.5, 1.12989, 1],
    [10, 'leveling', 9, 2, 0.969112, 0],
    [10, 'leveling', 9, 5, 0.916352, 0],
  ];
  it.each(general)('T=%s %s v=%s bpe=%s: weighted exact optimum at L=24 = Eq 19/20 = %s (Lu %s)', (t, policy, v, bpe, z, lu) => {
    const f = v / (v + 1);
    const r = policy === 'leveling' ? 1 : t - 1;
    const weights = [...new Array<number>(23).fill(r), r - f * (policy === 'leveling' ? 1 : t / 2)];
    const p = exactAllocation(levelRuns(N20, t, 24, weights), bpe * N20);
    near(f + sum(p.map((x, i) => x * weights[i])), z);
    const c = monkeyPointLookupCostClosedForm(shape(policy, t, 24), bpe, f);
    near(c.cost, z);
    expect(c.unfilteredLevels).toBe(lu);
  });
});

describe('V12: the corrected Lu rule of Eq 5/6 keeps every FPR ≤ 1', () => {
  // [policy, T, R, corrected Lu, p of the top filtered level, r·Σp]
  const rows: [Policy, number, number, number, number, number][] = [
    ['leveling', 10, 0.5, 0, 0.45, 0.499999],
    ['leveling', 10, 1.05, 0, 0.945, 1.05],
    ['leveling', 10, 1.2, 1, 0.18, 1.2], // the paper's floor(R−1) gives Lu = 0, p = 1.08
    ['leveling', 10, 1.5, 1, 0.45, 1.49999], // paper: p = 1.35
    ['leveling', 10, 2.5, 2, 0.45, 2.49995],
    ['tiering', 4, 2.0, 0, 0.5, 1.99951],
    ['tiering', 4, 3.9, 0, 0.975, 3.89905],
    ['tiering', 4, 4.5, 1, 0.375, 4.49854],
    ['tiering', 4, 7.5, 2, 0.375, 7.49414],
  ];
  it.each(rows)('%s T=%s R=%s: Lu %s, p_top %s, total %s', (policy, t, rr, lu, pTop, total) => {
    const p = monkeyFprsForZeroResultCost(shape(policy, t, 6), rr, 'large-L');
    expect(p.filter((x) => x === 1).length).toBe(lu);
    near(p[6 - lu - 1], pTop);
    near((policy === 'leveling' ? 1 : t - 1) * sum(p), total);
    expect(Math.max(...p)).toBeLessThanOrEqual(1);
  });
});

describe('V14: Table 4 systems on the Fig 7 data set (N=2^35, E=16 B)', () => {
  // [name, L, R_art, R_monkey (Eq 7), W·B/(1+φ)]
  const rows: [string, number, number, number, number][] = [
    ['LevelDB', 6, 0.0491553, 0.0117568, 27],
    ['RocksDB', 4, 0.0327702, 0.0117568, 18],
    ['HBase', 11, 0.090118, 0.0327702, 5.5],
    ['Accumulo', 5, 0.0253356, 0.0107247, 7.5],
    ['Cassandra', 7, 0.172044, 0.0520194, 5.25],
  ];
  it('Table 4 as data', () => {
    expect(monkeySystemDefaults.map((s) => [s.name, s.policy, s.sizeRatio, s.filterBitsPerEntry, s.bufferBytes / MIB])).toEqual([
      ['LevelDB', 'leveling', 10, 10, 2],
      ['RocksDB', 'leveling', 10, 10, 64],
      ['Cassandra', 'tiering', 4, 10, 64],
      ['HBase', 'leveling', 2, 10, 128],
      ['Accumulo', 'leveling', 4, 11, 1024],
    ]);
    expect(monkeySystemDefaults.find((s) => s.name === 'Cassandra')?.bufferAssumed).toBe(true);
  });
  it.each(rows)('%s: L %s, R_art %s, R_monkey %s, W·B/(1+φ) %s', (name, l, ra, rm, wb) => {
    const sys = monkeySystemDefaults.find((s) => s.name === name);
    if (!sys) throw new Error(name);
    const d = monkeySystemDesign(sys);
    expect(levelCount(DS35, d)).toBe(l);
    const sh = shape(sys.policy, sys.sizeRatio, l);
    near(uniformZeroResultCost(sh, sys.filterBitsPerEntry), ra);
    near(monkeyZeroResultCostClosedForm(sh, sys.filterBitsPerEntry).cost, rm);
    const c = costs(DS35, d, ZERO_ONLY, HW);
    near(c.zeroResultLookup, ra);
    near((c.update * 256) / 2, wb, 1e-12);
    // Monkey's allocation of the same memory is cheaper (Fig 1).
    expect(costs(DS35, monkeySystemDesign(sys, 'monkey'), ZERO_ONLY, HW).zeroResultLookup).toBeLessThan(c.zeroResultLookup);
  });
});

describe('V15: the paper\'s experimental defaults (N=2^20 × 1 KiB, T=2, Mbuf = 1 MiB)', () => {
  const lev = design('leveling', 2, MIB, 5);
  it('L = 9; R_art 0.814614, R_monkey Eq 7 0.362051, exact (5 bits per stored entry) 0.356959 with p_i as printed', () => {
    const c = costs(DS20, lev, ZERO_ONLY, HW);
    expect(c.levels).toBe(9);
    near(c.zeroResultLookup, 0.356959);
    nearAll(c.fprs, [0.00069855, 0.0013971, 0.0027942, 0.0055884, 0.0111768, 0.0223536, 0.0447072, 0.0894144, 0.178829]);
    near(costs(DS20, { ...lev, allocation: 'uniform' }, ZERO_ONLY, HW).zeroResultLookup, 0.814614);
    near(monkeyZeroResultCostClosedForm(shape('leveling', 2, 9), 5).cost, 0.362051);
  });
  it('latency at 290 µs per I/O: art 236.238 µs, Monkey Eq 7 104.995 µs (via throughput)', () => {
    const hw = { writeReadCostRatio: 1, pageReadSeconds: 290e-6 };
    near(1e6 / costs(DS20, { ...lev, allocation: 'uniform' }, ZERO_ONLY, hw).throughput, 236.238);
    near(monkeyZeroResultCostClosedForm(shape('leveling', 2, 9), 5).cost * 290, 104.995);
  });
  it('Monkey needs 8.31216 b/e (Eq 34) for R_art(10 b/e) = 0.0737329; Monkey_general needs 4.27865 b/e for V_art(10) = 1.06554', () => {
    const sh = shape('leveling', 2, 9);
    const ra10 = uniformZeroResultCost(sh, 10);
    near(ra10, 0.0737329);
    near(monkeyFilterBitsPerEntryForZeroResultCost('leveling', 2, ra10), 8.31216);
    near(uniformFilterBitsPerEntryForZeroResultCost(sh, ra10), 10, 1e-12);
    const vArt = monkeyNonZeroResultCost('leveling', 2, ra10, ra10 / 9);
    near(vArt, 1.06554);
    // Invert Eq 19 (f = 1) by bisection: Z is decreasing in memory.
    let lo = 0;
    let hi = 20;
    for (let i = 0; i < 100; i++) {
      const mid = (lo + hi) / 2;
      if (monkeyPointLookupCostClosedForm(sh, mid, 1).cost > vArt) lo = mid;
      else hi = mid;
    }
    near(lo, 4.27865);
  });
  // Fig 12(A): [log2 N, L, art, Eq 7, exact]
  const fig12a: [number, number, number, number][] = [
    [12, 1, 0.0905127, 0.0905127],
    [13, 2, 0.181025, 0.171058],
    [14, 3, 0.271538, 0.235377],
    [15, 4, 0.362051, 0.282141],
    [16, 5, 0.452564, 0.313638],
    [17, 6, 0.543076, 0.333627],
    [18, 7, 0.633589, 0.345757],
    [19, 8, 0.724102, 0.352879],
    [20, 9, 0.814614, 0.356959],
    [21, 10, 0.905127, 0.359255],
    [22, 11, 0.99564, 0.360529],
  ];
  it.each(fig12a)('Fig 12(A) N = 2^%s: L %s, art %s, Monkey exact %s (Eq 7 flat at 0.362051)', (lg, l, art, exact) => {
    const ds = { ...DS20, entries: 2 ** lg };
    const m = costs(ds, lev, ZERO_ONLY, HW);
    expect(m.levels).toBe(l);
    near(costs(ds, { ...lev, allocation: 'uniform' }, ZERO_ONLY, HW).zeroResultLookup, art);
    near(m.zeroResultLookup, exact);
    near(monkeyZeroResultCostClosedForm(shape('leveling', 2, l), 5).cost, 0.362051);
  });
  // Fig 12(C)/(E): [bpe, R_art, R_monkey Eq 7, V_art, V_monkey_zero, Z_general (v → ∞)]
  const fig12c: [number, number, number, number, number, number][] = [
    [0, 9, 9, 9, 9, 9],
    [1, 5.56653, 2.53018, 5.94803, 2.53018, 2.53018],
    [2, 3.44292, 1.53018, 4.06037, 1.76509, 1.58537],
    [3, 2.12945, 0.946424, 2.89285, 1.47321, 1.22393],
    [4, 1.31707, 0.585366, 2.17073, 1.29268, 1.08566],
    [5, 0.814614, 0.362051, 1.7241, 1.18103, 1.03277],
    [6, 0.503842, 0.22393, 1.44786, 1.11196, 1.01254],
    [8, 0.192743, 0.0856634, 1.17133, 1.04283, 1.00183],
    [10, 0.0737329, 0.0327702, 1.06554, 1.01639, 1.00027],
  ];
  it.each(fig12c)('Fig 12(C)/(E) at %s b/e: R_art %s, R_monkey %s, V_art %s, V_zero %s, Z_general %s', (bpe, ra, rm, va, vz, zg) => {
    const sh = shape('leveling', 2, 9);
    near(uniformZeroResultCost(sh, bpe), ra);
    near(monkeyZeroResultCostClosedForm(sh, bpe).cost, rm);
    near(monkeyNonZeroResultCost('leveling', 2, ra, ra / 9), va);
    const pL = bpe === 0 ? 1 : monkeyFprsForZeroResultCost(sh, rm, 'large-L')[8];
    near(monkeyNonZeroResultCost('leveling', 2, rm, pL), vz);
    near(monkeyPointLookupCostClosedForm(sh, bpe, 1).cost, zg); // v = 1e12 in the script: f = 1 to 1e-12
  });
  it('Fig 13(B): cost of a lookup targeting level j = 1 + Σ_{i<j} p_i', () => {
    const art = monkeyLookupCostByTargetLevel('leveling', 2, new Array<number>(9).fill(fprFromBitsPerKey(5)));
    nearAll(art, Array.from({ length: 9 }, (_, j) => 1 + j * 0.0905127));
    const m = monkeyLookupCostByTargetLevel('leveling', 2, costs(DS20, lev, ZERO_ONLY, HW).fprs);
    nearAll(m, [1, 1.0007, 1.0021, 1.00489, 1.01048, 1.02166, 1.04401, 1.08872, 1.17813]);
  });
});

describe('V16: Fig 9 sweep at fixed M̂ = 20 GiB (Fig 7 data set, T=4, 4 KiB pages, φ=1)', () => {
  // [Mbuf MiB, L, Mfilt/N, lev R_monkey, lev R_art, lev W, tier R_monkey, tier R_art, tier W]
  const rows: [number, number, number, number, number, number, number, number, number][] = [
    [0.00390625, 14, 5, 0.191573, 1.26718, 0.164062, 0.57472, 3.80154, 0.0820312],
    [1, 10, 4.99976, 0.191596, 0.905233, 0.117188, 0.574787, 2.7157, 0.0585938],
    [64, 7, 4.98438, 0.193017, 0.638363, 0.0820312, 0.579051, 1.91509, 0.0410156],
    [1024, 5, 4.75, 0.216023, 0.510322, 0.0585938, 0.648068, 1.53097, 0.0292969],
    [4096, 4, 4, 0.309737, 0.585366, 0.046875, 0.929211, 1.7561, 0.0234375],
    [10240, 3, 2.5, 0.636766, 0.90256, 0.0351562, 1.9103, 2.70768, 0.0175781],
    [16384, 3, 1, 1.30908, 1.85551, 0.0351562, 3.92725, 5.56653, 0.0175781],
    [19456, 3, 0.25, 2.30908, 2.66046, 0.0351562, 6.92725, 7.98138, 0.0175781],
    [20480, 3, 0, 3, 3, 0.0351562, 9, 9, 0.0175781],
  ];
  const total = 20 * GIB;
  const base = (policy: Policy): Design => design(policy, 4, MIB, ((total - MIB) * 8) / N35);
  const lev = monkeyWhatIf(DS35, base('leveling'), ZERO_ONLY, HW, 'bufferBytesAtFixedMemory', rows.map((r) => r[0] * MIB));
  const tier = monkeyWhatIf(DS35, base('tiering'), ZERO_ONLY, HW, 'bufferBytesAtFixedMemory', rows.map((r) => r[0] * MIB));
  it.each(rows.map((r, i) => [i, ...r] as const))('row %s: Mbuf %s MiB', (i, mib, l, bpe, lm, la, lw, tm, ta, tw) => {
    for (const [pts, m, a, w] of [[lev, lm, la, lw], [tier, tm, ta, tw]] as const) {
      const p = pts[i];
      expect(p.x).toBe(mib * MIB);
      expect(p.levels).toBe(l);
      near(p.filterBitsPerEntry, bpe);
      near(p.closedForm.monkeyZeroResult, m);
      near(p.closedForm.uniformZeroResult, a);
      near(p.monkey.update, w);
    }
  });
  it('SOTA has its sweet spot near 1 GiB while Monkey is flattest at small buffers (P22)', () => {
    const art = lev.map((p) => p.closedForm.uniformZeroResult);
    expect(art.indexOf(Math.min(...art))).toBe(3);
  });
});

describe('V10: constants', () => {
  it.each([
    [2, 1.4427, 4, 4],
    [3, 1.14331, 2.59808, 5.19615],
    [4, 0.961797, 2.11653, 6.3496],
    [10, 0.532503, 1.43506, 12.9155],
  ])('T=%s: Mthreshold/N %s, T^(T/(T-1))/(T-1) %s, T^(T/(T-1)) %s', (t, mth, kl, kt) => {
    near(memoryThresholdBitsPerEntry(t), mth);
    near(monkeyFilteredCostConstant('leveling', t), kl);
    near(monkeyFilteredCostConstant('tiering', t), kt);
  });
});

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

/** Deterministic PRNG (mulberry32) so property tests are reproducible. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
    const rand = prng(20180101);
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
    const rand = prng(4242);
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

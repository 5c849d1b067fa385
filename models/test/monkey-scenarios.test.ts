// Monkey: the reference vectors V9–V16 (arbitrary runs, limits in L, the Lu rule, Table 4 systems, the paper's experiments) and constants.
import { describe, expect, it } from 'vitest';
import { fprFromBitsPerKey } from '../src/bloom';
import {
  costs,
  exactAllocation,
  levelCount,
  monkeyAutotuneFilters,
  monkeyLookupCostByTargetLevel,
  monkeySystemDefaults,
  monkeySystemDesign,
  monkeyWhatIf,
} from '../src/monkey';
import {
  memoryThresholdBitsPerEntry,
  monkeyFilterBitsPerEntryForZeroResultCost,
  monkeyFilteredCostConstant,
  monkeyFprsForZeroResultCost,
  monkeyNonZeroResultCost,
  monkeyPointLookupCostClosedForm,
  monkeyZeroResultCostClosedForm,
  uniformFilterBitsPerEntryForZeroResultCost,
  uniformZeroResultCost,
} from '../src/monkey-closed-form';
import type { Design, Policy } from '../src/types';
import {
  design,
  DS20,
  DS35,
  GIB,
  HW,
  levelRuns,
  MIB,
  N20,
  N35,
  near,
  nearAll,
  shape,
  sum,
  ZERO_ONLY,
} from './monkey-fixtures';

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

import { fprFromBitsPerKey, mnemosyneSortAndSearch } from '@lsm/models';
import { describe, expect, it } from 'vitest';
import { runSweep } from '../src/compute/sweeps';
import { compareAllocations, fileGroups, mnemosyneBudgetSweep, mnemosyneSolverTiming, mnemosyneView } from '../src/compute/sweeps/memoryMnemosyne';
import { accessCost, cacheHitRates, integerSplit, mbfByModules, shambaBudgetCurves, SST, utilityTable } from '../src/compute/sweeps/memoryShamba';
import { LOOKUPS, probeCounts, syntheticTree, treeProblems, zipfRanges, type MnemosyneTreeInput, type SyntheticFile } from '../src/compute/sweeps/memoryTree';

/** Example A of the Mnemosyne reference (§A.7, M2): 3 levels, 7 files, quarters A–D at .50/.30/.15/.05. */
const EXAMPLE_A = [
  { files: 1, entriesPerFile: 1000 },
  { files: 2, entriesPerFile: 2000 },
  { files: 4, entriesPerFile: 4000 },
];
const QUARTERS = [0.5, 0.3, 0.15, 0.05];
const BY_SIZE = [1 / 21, 4 / 21, 16 / 21];

const TREE: MnemosyneTreeInput = {
  sizeRatio: 4,
  levels: 3,
  filesInFirstLevel: 1,
  entriesPerFile: 8192,
  skew: 1,
  emptyFraction: 0.5,
  foundAt: 'size',
  hotLevel: 1,
  seed: 0,
};

describe('synthetic tree and probe counts', () => {
  it('reproduces Example A’s z and x (Z = 0.5 and Z = 0)', () => {
    const half = probeCounts(EXAMPLE_A, QUARTERS, 0.5, BY_SIZE, 10_000);
    expect(half.map((f) => Math.round(f.emptyProbes))).toEqual([9762, 7048, 1762, 2500, 1500, 750, 250]);
    expect(half.map((f) => Math.round(f.foundProbes))).toEqual([238, 762, 190, 1905, 1143, 571, 190]);
    const none = probeCounts(EXAMPLE_A, QUARTERS, 0, BY_SIZE, 10_000);
    expect(none.map((f) => Math.round(f.emptyProbes))).toEqual([9524, 6095, 1524, 0, 0, 0, 0]);
    expect(half.map((f) => f.id)).toEqual(['L1·1', 'L2·1', 'L2·2', 'L3·1', 'L3·2', 'L3·3', 'L3·4']);
  });

  it('draws Zipf key ranges deterministically from the seed', () => {
    const sorted = zipfRanges(16, 1, 0);
    expect(sorted.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(sorted[0] / sorted[1]).toBeCloseTo(2, 12);
    expect(zipfRanges(5, 0, 0)).toEqual([0.2, 0.2, 0.2, 0.2, 0.2]);
    const shuffled = zipfRanges(16, 1, 7);
    expect(shuffled).toEqual(zipfRanges(16, 1, 7));
    expect(shuffled).not.toEqual(sorted);
    expect([...shuffled].sort((a, b) => b - a)).toEqual(sorted);
  });

  it('builds f₁·T^(j−1) files per level; every lookup probes level 1; found probes are (1 − Z)·Q', () => {
    const files = syntheticTree(TREE);
    expect(files).toHaveLength(21);
    const l1 = files.filter((f) => f.level === 1);
    expect(l1.reduce((s, f) => s + f.emptyProbes + f.foundProbes, 0)).toBeCloseTo(LOOKUPS, 6);
    expect(files.reduce((s, f) => s + f.foundProbes, 0)).toBeCloseTo(0.5 * LOOKUPS, 6);
    const hot = syntheticTree({ ...TREE, foundAt: 'hot', hotLevel: 2 });
    expect(hot.filter((f) => f.level !== 2).every((f) => f.foundProbes === 0)).toBe(true);
    // With every existing key in L2, an L3 probe is always an empty lookup's.
    expect(hot.filter((f) => f.level === 3).reduce((s, f) => s + f.emptyProbes, 0)).toBeCloseTo(0.5 * LOOKUPS, 6);
  });

  it('names impossible control combinations', () => {
    expect(treeProblems(TREE)).toEqual({});
    expect(treeProblems({ ...TREE, sizeRatio: 10, levels: 5 }).files).toContain('11,111 files');
    expect(treeProblems({ ...TREE, foundAt: 'hot', hotLevel: 4 }).hotLevel).toBe('hot level must be at most the number of levels (3)');
    expect(() => syntheticTree({ ...TREE, sizeRatio: 10, levels: 5 })).toThrow(/at most 1,500/);
  });
});

describe('Mnemosyne vs Monkey+ vs uniform', () => {
  const rounded = (Z: number): SyntheticFile[] =>
    probeCounts(EXAMPLE_A, QUARTERS, Z, BY_SIZE, 10_000).map((f) => ({ ...f, emptyProbes: Math.round(f.emptyProbes), foundProbes: Math.round(f.foundProbes) }));

  it('matches Example A’s reads per lookup (§A.7 M2)', () => {
    const c = compareAllocations(rounded(0.5), 42_000, 10_000);
    expect(c.cost.uniform.unnecessaryReadsPerLookup).toBeCloseTo(0.90174, 5);
    expect(c.cost.monkey.unnecessaryReadsPerLookup).toBeCloseTo(0.44412, 5);
    expect(c.cost.mnemosyne.unnecessaryReadsPerLookup).toBeCloseTo(0.34989, 5);
    expect(c.cost.mnemosyne.dataReadsPerLookup).toBeCloseTo(0.84979, 5);
    expect(c.bitsPerKey.monkey.map((b) => Number(b.toFixed(4)))).toEqual([6.9464, 4.061, 4.061, 1.1756, 1.1756, 1.1756, 1.1756]);
    expect(c.bitsPerKey.mnemosyne.map((b) => Number(b.toFixed(4)))).toEqual([8.1747, 6.054, 3.1686, 2.4541, 1.3909, 0, 0]);
    expect(c.logC).toBeCloseTo(-1.649082, 6);
    expect(c.activeFiles).toBe(5);
    const z0 = compareAllocations(rounded(0), 42_000, 10_000);
    expect(z0.cost.monkey.unnecessaryReadsPerLookup).toBeCloseTo(0.14212, 5);
    expect(z0.cost.mnemosyne.unnecessaryReadsPerLookup).toBeCloseTo(0.01943, 5);
  });

  it('groups files for display without changing the filter bits', () => {
    const view = mnemosyneView({ tree: TREE, bitsPerKey: 3 });
    expect(view.groups).toHaveLength(21);
    const big = mnemosyneView({ tree: { ...TREE, filesInFirstLevel: 12 }, bitsPerKey: 3 });
    expect(big.files).toHaveLength(252);
    expect(big.groups).toHaveLength(24);
    expect(big.groups[8].label).toBe('L2·1–6');
    for (const s of ['uniform', 'monkey', 'mnemosyne'] as const) {
      const bits = big.groups.reduce((a, g) => a + g.entries * g[s], 0);
      expect(bits / (3 * big.totalEntries)).toBeCloseTo(1, 10);
    }
    const direct = fileGroups(big.files, big.comparison.bitsPerKey);
    expect(direct).toEqual(big.groups);
  });

  it('sweeps the budget: Mnemosyne is never worse than the other two', () => {
    const rows = mnemosyneBudgetSweep({ tree: TREE, maxBitsPerKey: 16, step: 0.25 });
    expect(rows).toHaveLength(65);
    expect(rows[8].bits).toBe(2);
    for (const r of rows) {
      expect(r.unnecessary.mnemosyne).toBeLessThanOrEqual(r.unnecessary.monkey + 1e-12);
      expect(r.unnecessary.mnemosyne).toBeLessThanOrEqual(r.unnecessary.uniform + 1e-12);
      expect(r.total.uniform - r.unnecessary.uniform).toBeCloseTo(0.5, 9);
    }
    // No filter memory: every empty probe reads a block.
    const files = syntheticTree(TREE);
    expect(rows[0].unnecessary.uniform).toBeCloseTo(files.reduce((s, f) => s + f.emptyProbes, 0) / LOOKUPS, 9);
  });

  it('times the solvers and checks gradient descent lands near the exact optimum', () => {
    const t = mnemosyneSolverTiming({ tree: TREE, bitsPerKey: 3, minMs: 1 });
    expect(t.current.files).toBe(21);
    expect(t.ladder.map((r) => r.files)).toEqual([10, 21, 30, 100, 300]);
    expect(t.current.sortAndSearchMs).toBeGreaterThan(0);
    expect(t.speedup).toBeGreaterThan(1);
    expect(t.costGradient / t.costExact).toBeGreaterThanOrEqual(1 - 1e-9);
    expect(t.costGradient / t.costExact).toBeLessThan(1.01);
    const files = syntheticTree(TREE);
    const N = files.reduce((s, f) => s + f.entries, 0);
    expect(t.costExact).toBeCloseTo(compareAllocations(files, 3 * N, LOOKUPS).cost.mnemosyne.unnecessaryReadsPerLookup, 12);
    expect(mnemosyneSortAndSearch(files, 3 * N).activeFiles).toBeGreaterThan(0);
  });

  it('times gradient descent on trees of identical files (θ = 0) without hanging', () => {
    // Without breaking exact ties these trade bits back and forth forever.
    for (const tree of [
      { ...TREE, skew: 0 },
      { ...TREE, sizeRatio: 2, levels: 1, filesInFirstLevel: 3, skew: 0 },
      { ...TREE, sizeRatio: 2, levels: 3, entriesPerFile: 131_072, skew: 0 },
    ]) {
      const t = mnemosyneSolverTiming({ tree, bitsPerKey: 0.25, minMs: 0 });
      expect(t.costGradient / t.costExact).toBeLessThan(1.01);
    }
  });
});

describe('SHaMBa: modules, utilities, and I/O against the cache budget', () => {
  const base = {
    bitsPerKey: 10,
    modules: 2,
    existingRatio: 0,
    accessFrequency: 0.5,
    policy: 'none' as const,
    thresholdWhole: 0.2,
    thresholdLater: 0.1,
  };
  const f10 = fprFromBitsPerKey(10);
  const fsm = fprFromBitsPerKey(5);

  it('reproduces Table 3’s integer-k split (§B.7 S1)', () => {
    const rows = mbfByModules(10, 0);
    expect(rows.map((r) => r.integer?.hashes ?? null).slice(0, 8)).toEqual([[7], [3, 4], [2, 2, 3], [1, 2, 2, 2], [1, 1, 1, 2, 2], [1, 1, 1, 1, 1, 2], [1, 1, 1, 1, 1, 1, 1], null]);
    expect(integerSplit(10, 2).fpr).toBeCloseTo(0.008446, 6);
    expect(integerSplit(10, 3).fpr).toBeCloseTo(0.00866, 5);
    expect(integerSplit(10, 7).expectedEmpty).toBeCloseTo(1.9973, 4);
    expect(integerSplit(10, 2).expectedEmpty).toBeCloseTo(1.0918, 4);
    expect(integerSplit(10, 2).stopAfterFirst).toBeCloseTo(0.9082, 4);
    expect(rows[1].idealFpr).toBeCloseTo(f10, 15);
    expect(rows[1].idealEmpty).toBeCloseTo(1.0905, 4);
    expect(mbfByModules(10, 1)[2].idealMix).toBe(3);
  });

  it('reproduces the utilities and skip decisions of §B.7 S2', () => {
    const rows = utilityTable({ ...base, accessFrequency: 0.3, budgetFraction: 0.5 });
    const eq = rows.filter((r) => r.filter === 'SHaMBa-eq');
    expect(eq.map((r) => Number(r.utility.toFixed(4)))).toEqual([0.2728, 0.0247]);
    expect(eq.map((r) => [r.partial, r.full])).toEqual([['use', 'use'], ['skip', 'skip']]);
    const low = utilityTable({ ...base, existingRatio: 0.2, accessFrequency: 0.25, budgetFraction: 0.5 }).filter((r) => r.filter === 'SHaMBa-eq');
    expect(low.map((r) => [r.partial, r.full])).toEqual([['use', 'skip'], ['skip', 'skip']]);
    const prop = rows.filter((r) => r.filter === 'SHaMBa-prop');
    expect(prop.map((r) => r.bits)).toEqual([5, 5]);
  });

  it('fills the cache by priority, then by reads per byte', () => {
    const hits = cacheHitRates(
      [
        { id: 'index', high: true, bytes: 100, reads: 0.1 },
        { id: 0, high: true, bytes: 100, reads: 1 },
        { id: 1, high: false, bytes: 100, reads: 0.5 },
        { id: 'data', high: false, bytes: 1000, reads: 0.1 },
      ],
      250,
    );
    expect(Object.fromEntries(hits)).toEqual({ 0: 1, index: 1, 1: 0.5, data: 0 });
  });

  it('prices one access as §B.3.9 with those hit rates', () => {
    const { indexBytes, filterBytes } = { indexBytes: SST.dataBlocks * SST.keyBytes, filterBytes: (65536 * 10) / 8 };
    // 100 %: all metadata fits, only the data block is read.
    expect(accessCost({ ...base, layout: 'mono', budgetFraction: 1 }).io.total).toBeCloseTo(f10, 12);
    expect(accessCost({ ...base, layout: 'eq', budgetFraction: 1 }).io.total).toBeCloseTo(f10, 12);
    // Nothing cached: the whole filter (20 pages), plus index (8 pages) and data for what passes.
    expect(accessCost({ ...base, layout: 'mono', budgetFraction: 0 }).io.total).toBeCloseTo(20 + 9 * f10, 12);
    // 10 %: module 1 (10 pages) gets the whole cache share; module 2 and the index get nothing.
    const h1 = (0.1 * (indexBytes + filterBytes)) / (filterBytes / 2);
    const eq10 = accessCost({ ...base, layout: 'eq', budgetFraction: 0.1 });
    expect(eq10.moduleHitRates[0]).toBeCloseTo(h1, 12);
    expect(eq10.io.total).toBeCloseTo((1 - h1) * 10 + fsm * 10 + 9 * f10, 12);
    // Partial skipping (u₂ < θ₂) stops after module 1: the index and data see f_sm.
    const p10 = accessCost({ ...base, layout: 'eq', budgetFraction: 0.1, policy: 'partial' });
    expect(p10.modulesUsed).toBe(1);
    expect(p10.io.total).toBeCloseTo((1 - h1) * 10 + 9 * fsm, 12);
    // SHaMBa-prop falls back to one filter at ≥ 100 %.
    expect(accessCost({ ...base, layout: 'prop', budgetFraction: 1.2 }).io.total).toBeCloseTo(accessCost({ ...base, layout: 'mono', budgetFraction: 1.2 }).io.total, 15);
  });

  it('draws five curves with skipping and three without, all decreasing in the budget', () => {
    const budgets = [10, 40, 70, 100, 150];
    const skip = shambaBudgetCurves({ ...base, policy: 'full', budgetsPercent: budgets });
    expect(skip.map((c) => c.id)).toEqual(['mono', 'eq', 'prop', 'eq-none', 'prop-none']);
    const none = shambaBudgetCurves({ ...base, budgetsPercent: budgets });
    expect(none.map((c) => c.id)).toEqual(['mono', 'eq', 'prop']);
    for (const c of none) {
      for (let i = 1; i < c.points.length; i++) expect(c.points[i].io).toBeLessThanOrEqual(c.points[i - 1].io + 1e-12);
    }
    expect(runSweep('memory.shambaBudget', { ...base, budgetsPercent: budgets })).toEqual(none);
  });
});

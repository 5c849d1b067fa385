import { describe, expect, it } from 'vitest';
import { type Stats, type TreeShape, type WriteCounters, ZERO_WRITES } from '../src/documents/engine';
import { countersOnScreen } from '../src/pages/teaching/teach';
import { benchWeights, type StoreSummary } from '../src/pages/bench/storageBench';

const writes = (flushes: number, compactions: number): WriteCounters => ({ ...ZERO_WRITES, flushes, compactions });
const stats = (levels: [number, number][]) => ({ levels: levels.map(([f, c]) => ({ writes: writes(f, c) })) }) as unknown as Stats;
const tree = (merging: number | null) => ({ merging_level: merging }) as unknown as TreeShape;

describe('the teaching counters count what the tree draws', () => {
  it('a merge under way is counted from its first page, and once when it is installed', () => {
    expect(countersOnScreen(tree(null), stats([[3, 0]]))).toEqual({ flushes: 3, merges: 0, flushUnderWay: false, mergeUnderWay: false });
    expect(countersOnScreen(tree(1), stats([[3, 0]]))).toEqual({ flushes: 3, merges: 1, flushUnderWay: false, mergeUnderWay: true });
    expect(countersOnScreen(tree(null), stats([[3, 0], [0, 1]]))).toEqual({ flushes: 3, merges: 1, flushUnderWay: false, mergeUnderWay: false });
  });
  it('a paced flush under way (merging level 0) is a flush, not a merge', () => {
    expect(countersOnScreen(tree(0), stats([[2, 1]]))).toEqual({ flushes: 3, merges: 1, flushUnderWay: true, mergeUnderWay: false });
    expect(countersOnScreen(null, null)).toEqual({ flushes: 0, merges: 0, flushUnderWay: false, mergeUnderWay: false });
  });
});

describe('the benchmark bar weighs its stores by their expected time', () => {
  it('from an earlier run’s rates where it has them', () => {
    const prior = [{ id: 'engine-memory', inserts: { median: 100_000, min: 0, max: 0 }, lookups: { median: 50_000, min: 0, max: 0 } }] as StoreSummary[];
    const w = benchWeights(100_000, prior);
    expect(w.map((x) => x.id)).toEqual(['engine-memory', 'engine-opfs', 'engine-idb', 'plain-idb']);
    expect(w[0]).toMatchObject({ insert: 1, lookup: 2, memory: 0 });
    // IndexedDB, without an earlier rate, is expected slower than the engine on memory.
    expect(w[2].insert + w[2].lookup).toBeGreaterThan(w[1].insert + w[1].lookup);
    // Above 1,000,000 entries only OPFS runs, and the browser's memory measure is part of the wait.
    const big = benchWeights(2_000_000, null);
    expect(big.map((x) => x.id)).toEqual(['engine-opfs']);
    expect(big[0].memory).toBeGreaterThan(0);
  });
});

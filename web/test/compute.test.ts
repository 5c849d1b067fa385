import { describe, expect, it } from 'vitest';
import type { SweepRequest, SweepResponse } from '../src/compute/protocol';
import { SweepScheduler, type Outcome } from '../src/compute/scheduler';
import { isSweepName, runSweep } from '../src/compute/sweeps';
import { memorySweep, monkeyAllocation, sizeRatioSweep, treeShape, uniformAllocation } from '../src/compute/sweeps/learn';

/** A worker stand-in that answers only when told to. */
function fakeTransport() {
  const sent: SweepRequest[] = [];
  let handler: (r: SweepResponse) => void = () => undefined;
  return {
    sent,
    transport: { post: (r: SweepRequest) => sent.push(r), listen: (h: (r: SweepResponse) => void) => (handler = h) },
    answer: (id: number, result: unknown) => handler({ id, ok: true, result, ms: 1 }),
    fail: (id: number, error: string) => handler({ id, ok: false, error }),
  };
}

describe('sweep scheduler', () => {
  it('runs one request per channel, keeps only the newest waiting one, and marks superseded results stale', async () => {
    const fake = fakeTransport();
    const s = new SweepScheduler(fake.transport);
    const outcomes: Outcome<unknown>[] = [];
    const track = (p: Promise<Outcome<unknown>>) => p.then((o) => outcomes.push(o));

    const a = track(s.run('chart', 'sweep', 1));
    const b = track(s.run('chart', 'sweep', 2));
    const c = track(s.run('chart', 'sweep', 3));
    expect(fake.sent.map((r) => r.args)).toEqual([1]); // 2 and 3 wait; 3 replaced 2
    await b;
    expect(outcomes).toEqual([{ status: 'stale' }]);

    fake.answer(fake.sent[0].id, 'one');
    await a;
    expect(outcomes[1]).toEqual({ status: 'stale' }); // 1 finished after being superseded
    expect(fake.sent.map((r) => r.args)).toEqual([1, 3]);

    fake.answer(fake.sent[1].id, 'three');
    await c;
    expect(outcomes[2]).toEqual({ status: 'done', result: 'three', ms: 1 });
    expect(s.inFlight).toBe(0);
  });

  it('keeps channels independent and reports model errors', async () => {
    const fake = fakeTransport();
    const s = new SweepScheduler(fake.transport);
    const x = s.run('x', 'sweep', 'x');
    const y = s.run('y', 'sweep', 'y');
    expect(fake.sent).toHaveLength(2);
    fake.fail(fake.sent[0].id, 'sizeRatio: must be a number in [2, ∞), got 1');
    fake.answer(fake.sent[1].id, 42);
    await expect(x).rejects.toThrow('sizeRatio: must be');
    await expect(y).resolves.toEqual({ status: 'done', result: 42, ms: 1 });
  });

  it('fails everything in flight when the worker dies', async () => {
    const fake = fakeTransport();
    const s = new SweepScheduler(fake.transport);
    const p = s.run('x', 'sweep', 1);
    const q = s.run('x', 'sweep', 2);
    s.failAll(new Error('model worker failed'));
    await expect(p).rejects.toThrow('model worker failed');
    await expect(q).rejects.toThrow('model worker failed');
  });
});

// Monkey reference §6.1 V1/V2: N = 2^20 entries of 1 KiB, 1 MiB buffer, 10 bits per entry.
const V1 = { entries: 2 ** 20, entryBytes: 1024, bufferBytes: 2 ** 20, sizeRatio: 10, policy: 'leveling' as const };
const V2 = { ...V1, sizeRatio: 4, policy: 'tiering' as const };

describe('Learn page models', () => {
  it('shape the tree as Eq 1 says (V1: L = 3, levels 9437.18, 94371.8, 943718)', () => {
    const { levels, bufferEntries } = treeShape(V1);
    expect(bufferEntries).toBe(1024);
    expect(levels.map((l) => l.entries)).toEqual([
      expect.closeTo(9437.184, 3),
      expect.closeTo(94371.84, 2),
      expect.closeTo(943718.4, 1),
    ]);
    expect(treeShape(V2).levels.map((l) => [Math.round(l.entries), l.runs])).toEqual([
      [3072, 3],
      [12288, 3],
      [49152, 3],
      [196608, 3],
      [786432, 3],
    ]);
  });

  it('allocate filters like the reference vectors (V1 leveling T=10)', () => {
    const { levels } = treeShape(V1);
    const uniform = uniformAllocation(levels, 10 * V1.entries);
    expect(uniform.fpr[0]).toBeCloseTo(0.00815324, 7);
    expect(uniform.lookupCost).toBeCloseTo(0.0244597, 6);
    const monkey = monkeyAllocation(levels, 10 * V1.entries);
    expect(monkey.fpr[0] / 1.04578e-4).toBeCloseTo(1, 4);
    expect(monkey.fpr[1] / 1.04578e-3).toBeCloseTo(1, 4);
    expect(monkey.fpr[2] / 1.04578e-2).toBeCloseTo(1, 4);
    expect(monkey.lookupCost).toBeCloseTo(0.0116081, 6);
    expect(monkey.bitsPerEntry.map((b) => Number(b.toFixed(2)))).toEqual([19.08, 14.28, 9.49]);
  });

  it('allocate filters like the reference vectors (V2 tiering T=4)', () => {
    const { levels } = treeShape(V2);
    expect(uniformAllocation(levels, 10 * V2.entries).lookupCost).toBeCloseTo(0.122312, 5);
    const monkey = monkeyAllocation(levels, 10 * V2.entries);
    expect(monkey.lookupCost).toBeCloseTo(0.0513759, 6);
    expect(monkey.fpr[0] / 5.02208e-5).toBeCloseTo(1, 4);
  });

  it('leave the largest levels unfiltered when memory is scarce, and all of them at zero memory', () => {
    const { levels } = treeShape(V1);
    // V3: at 0.1 bits/entry Lu = 1, exact R = 1.83471; at 0.05, 2.06394; at 0, R = L = 3.
    expect(monkeyAllocation(levels, 0.1 * V1.entries).lookupCost).toBeCloseTo(1.83471, 4);
    expect(monkeyAllocation(levels, 0.05 * V1.entries).lookupCost).toBeCloseTo(2.06394, 4);
    expect(monkeyAllocation(levels, 0).lookupCost).toBe(3);
    expect(monkeyAllocation(levels, 0.1 * V1.entries).fpr[2]).toBe(1);
  });

  it('sweep memory and size ratio with consistent endpoints', () => {
    const m = memorySweep({ tree: V1, maxBitsPerEntry: 20, points: 5 });
    expect(m.bits).toEqual([0, 5, 10, 15, 20]);
    expect(m.uniform[0]).toBe(3);
    expect(m.monkey[2]).toBeCloseTo(0.0116081, 6);
    const rows = sizeRatioSweep({ entries: V1.entries, entryBytes: 1024, bufferBytes: 2 ** 20, pageBytes: 16 * 1024, bitsPerEntry: 10, maxSizeRatio: 10 });
    expect(rows.map((r) => r.T)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // At T = 2 the policies coincide; at T = 10 W matches V1 (B = 16, φ = 1): 1.6875.
    expect(rows[0].updateLev).toBeCloseTo(rows[0].updateTier, 12);
    expect(rows[0].lookupLev).toBeCloseTo(rows[0].lookupTier, 12);
    expect(rows[8].updateLev).toBeCloseTo(1.6875, 10);
  });

  it('are reachable through the registry by name', () => {
    expect(isSweepName('learn.memory')).toBe(true);
    expect(isSweepName('nope')).toBe(false);
    expect(runSweep('learn.overview', { tree: V1, bitsPerEntry: 10 }).monkey.lookupCost).toBeCloseTo(0.0116081, 6);
    expect(() => runSweep('learn.overview', { tree: { ...V1, sizeRatio: 1 }, bitsPerEntry: 10 })).toThrow(/sizeRatio/);
  });
});

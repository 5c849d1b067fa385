import { describe, expect, it } from 'vitest';
import {
  mslsOptimizeLevelSizes,
  mslsWriteAmplification,
  unique,
  worstCaseWriteAmplification,
  type MslsLevelParams,
} from '@lsm/models';
import { runSweep } from '../src/compute/sweeps';
import {
  current,
  keysSweep,
  levelSweep,
  logGrid,
  MIB,
  optimize,
  primitives,
  skewSweep,
  sourceLabels,
  SWEEP_GROUPING,
} from '../src/compute/sweeps/msls';
import { breakdownRows } from '../src/pages/msls/Breakdown';
import { optimizeRows } from '../src/pages/msls/Optimize';
import { controlOfError, levelParams, mslsParams, mslsUrl, type MslsState } from '../src/documents/urls/msls';
import { decodeQuery, encodeQuery } from '../src/documents/url/codec';
import { defaultsOf } from '../src/documents/url/params';

const DEFAULTS: MslsState = defaultsOf(mslsParams);
const LEVELDB: MslsLevelParams = levelParams(DEFAULTS);

describe('msls page state', () => {
  it('defaults are the paper’s LevelDB setting (Table 1) and map to bytes at the model API', () => {
    expect(LEVELDB).toEqual({
      keySpace: 1e8,
      distribution: { kind: 'uniform' },
      entryBytes: 1000,
      writeBufferBytes: 4 * MIB,
      level0Trigger: 4,
      level1Bytes: 10 * MIB,
      growthFactor: 10,
    });
    expect(levelParams({ ...DEFAULTS, levels: 3, dist: 'z', theta: 0.8 })).toMatchObject({
      levels: 3,
      distribution: { kind: 'zipf', theta: 0.8 },
    });
  });

  it('round-trips through the URL and names the control a model error is about', () => {
    const s: MslsState = { ...DEFAULTS, keys: 3_300_000, dist: 'z', theta: 1.1, bufferMiB: 0.5, levels: 4, sweepAxis: 'r' };
    const q = encodeQuery(mslsUrl, s);
    expect(q).toBe('v=1&N=3300000&E=1000&d=z&th=1.1&buf=0.5&c0=4&l1=10&r=10&L=4&x=r');
    expect(decodeQuery(mslsUrl, q)).toEqual({ state: s, notices: [] });
    let message = '';
    try {
      mslsWriteAmplification(levelParams({ ...DEFAULTS, levels: 9 }));
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/^levels: must be an integer in \[1, 5\]/);
    expect(controlOfError(message)).toBe('levels');
    expect(controlOfError('writeBufferBytes: must be …')).toBe('bufferMiB');
    expect(controlOfError(null)).toBeNull();
  });

  it('every preset is a valid design', () => {
    for (const preset of mslsUrl.presets ?? []) {
      const s = { ...DEFAULTS, ...preset.values };
      expect(() => current({ params: levelParams(s) }), preset.id).not.toThrow();
    }
  });
});

describe('msls sweeps', () => {
  it('logGrid spans lo..hi, includes the extra values exactly, sorted and unique', () => {
    const g = logGrid(1e3, 1e6, 2, [12345], true);
    expect(g[0]).toBe(1e3);
    expect(g.at(-1)).toBe(1e6);
    expect(g).toContain(12345);
    expect(g).toEqual([...g].sort((a, b) => a - b));
    expect(new Set(g).size).toBe(g.length);
    expect(g).toHaveLength(8);
  });

  it('the current design matches the paper’s Table 1 analysis and the worst case (reference §6.4)', () => {
    const { msls, worst } = current({ params: LEVELDB });
    expect(msls.total).toBeCloseTo(25.8346, 3);
    expect(worst.total).toBeCloseTo(47.1617, 3);
    const rows = breakdownRows({ msls, worst });
    expect(rows.map((r) => r.source)).toEqual([...sourceLabels(5), 'Total']);
    expect(rows.map((r) => Number(r.msls.toFixed(3)))).toEqual([1, 1, 1.625, 4.776, 6.222, 6.317, 4.895, 25.835]);
    expect(rows.map((r) => Number(r.worst.toFixed(3)))).toEqual([1, 1, 1.625, 11, 11, 11, 10.537, 47.162]);
  });

  it('WA against N reproduces Fig 9’s model values and includes the current N', () => {
    const d = keysSweep({ params: LEVELDB, theta: 0.99 });
    expect(d.x[0]).toBe(1e5);
    expect(d.x.at(-1)).toBe(1e10);
    const at = (n: number) => d.x.indexOf(n);
    expect(d.uniform[at(1e8)]).toBeCloseTo(25.835, 3);
    expect(d.zipf[at(1e8)]).toBeCloseTo(12.684, 3);
    expect(d.worst[at(1e8)]).toBeCloseTo(47.162, 3);
    expect(d.uniform[at(1e6)]).toBeCloseTo(12.902, 3);
    expect(d.worst[at(1e6)]).toBeCloseTo(25.162, 3);
    const odd = keysSweep({ params: { ...LEVELDB, keySpace: 3_300_000 }, theta: 0.99 });
    expect(odd.x).toContain(3_300_000);
  });

  it('a fixed L that does not fit a smaller N leaves those points out (NaN) instead of failing', () => {
    const d = keysSweep({ params: { ...LEVELDB, levels: 5 }, theta: 0.99 });
    const small = d.x.findIndex((n) => n === 1e5);
    expect(d.uniform[small]).toBeNaN();
    expect(d.uniform[d.x.indexOf(1e8)]).toBeCloseTo(25.835, 3);
  });

  it('WA against skew reproduces Fig 8 and the flat worst case', () => {
    const d = skewSweep({ params: LEVELDB, theta: 0.99 });
    const at = (t: number) => d.msls[d.theta.indexOf(t)];
    expect(at(0)).toBeCloseTo(25.835, 3);
    expect(at(0.8)).toBeCloseTo(21.179, 3);
    expect(at(0.99)).toBeCloseTo(12.684, 3);
    expect(at(1.2)).toBeCloseTo(4.312, 3);
    expect(new Set(d.worst).size).toBe(1);
    expect(d.worst[0]).toBeCloseTo(47.162, 3);
  });

  it('WA against the write buffer reproduces Fig 10 (N = 10⁷) and each axis contains its current value', () => {
    const params = { ...LEVELDB, keySpace: 1e7 };
    const d = levelSweep({ params, theta: 0.99, axis: 'buf' });
    expect(d.axis).toBe('buf');
    expect(d.uniform[d.x.indexOf(4)]).toBeCloseTo(19.343, 3);
    expect(d.zipf[d.x.indexOf(4)]).toBeCloseTo(9.498, 3);
    // 10⁶ items of 1000 B, in MiB.
    const big = mslsWriteAmplification({ ...params, writeBufferBytes: 1e9 }).total;
    expect(big).toBeCloseTo(8.511, 3);
    expect(levelSweep({ params, theta: 0.99, axis: 'l1' }).x).toContain(10);
    const r = levelSweep({ params: { ...params, growthFactor: 7.5 }, theta: 0.5, axis: 'r' });
    expect(r.x).toContain(7.5);
    expect(r.zipf[r.x.indexOf(7.5)]).toBe(
      mslsWriteAmplification({ ...params, growthFactor: 7.5, distribution: { kind: 'zipf', theta: 0.5 }, grouping: SWEEP_GROUPING }).total,
    );
    expect(r.worst[r.x.indexOf(7.5)]).toBe(worstCaseWriteAmplification({ ...params, growthFactor: 7.5 }).total);
  });

  it('the coarser Zipf grouping of the swept curves stays within 5e-6 of the default', () => {
    for (const keySpace of [1e6, 1e8, 1e10]) {
      for (const theta of [0.5, 0.99, 1.2, 2]) {
        const params = { ...LEVELDB, keySpace, distribution: { kind: 'zipf', theta } } as const;
        const exact = mslsWriteAmplification(params).total;
        const coarse = mslsWriteAmplification({ ...params, grouping: SWEEP_GROUPING }).total;
        expect(Math.abs(coarse / exact - 1)).toBeLessThan(5e-6);
      }
    }
  });

  it('the optimiser result is the model’s, and reproduces Table 1 “Analysis, opt” (reference §4.3)', () => {
    const o = optimize({ params: LEVELDB });
    const direct = mslsOptimizeLevelSizes(LEVELDB);
    expect(o.optimizedTotal).toBe(direct.optimized.total);
    expect(o.gain).toBe(direct.gain);
    expect(o.optimizedTotal).toBeCloseTo(23.671, 2);
    expect(o.baselineTotal).toBeCloseTo(25.835, 3);
    expect(o.activeConstraints).toEqual([]);
    const rows = optimizeRows(o, 1000);
    expect(rows).toHaveLength(5);
    expect(rows[0].currentMiB).toBeCloseTo(10, 9);
    expect(rows.map((r) => Number(r.optimizedWa.toFixed(2)))).toEqual([3.85, 4.85, 4.82, 4.65, 3.49]);
    // The optimised sizes are a valid design the model re-evaluates to the same WA.
    expect(mslsWriteAmplification({ ...LEVELDB, levelBytes: o.levelBytes }).total).toBeCloseTo(o.optimizedTotal, 9);
  });

  it('primitives: Unique/N as in Fig 4’s table and a density profile per upper level', () => {
    const levelItems = current({ params: LEVELDB }).msls.resolved.levelItems.slice(0, -1);
    const d = primitives({ keySpace: 1e8, theta: 0.99, distribution: { kind: 'uniform' }, levelItems });
    const at = (p: number) => d.requests.indexOf(p);
    expect(d.uniform[at(1e8)]).toBeCloseTo(0.63212, 5);
    expect(d.zipf[at(1e9)]).toBeCloseTo(0.71191, 5);
    expect(d.zipf[at(1e7)]).toBe(unique(1e7, 1e8, { kind: 'zipf', theta: 0.99 }) / 1e8);
    expect(d.density).toHaveLength(4);
    // Density rises from the just-compacted end to the end compacted next.
    for (const profile of d.density) expect(profile[0].density).toBeLessThan(profile.at(-1)?.density ?? 0);
  });

  it('is registered for the worker', () => {
    expect(runSweep('msls.current', { params: LEVELDB }).msls.total).toBeCloseTo(25.8346, 3);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { costs, holisticDesign, monkeySizeRatioLimit, type Workload } from '@lsm/models';
import { runSweep } from '../src/compute/sweeps';
import { designLabel, holistic, memoryStepsSweep, ruleOfThumbDesign, sizeRatioGrid, tradeoffCurves } from '../src/compute/sweeps/tradeoffs';
import { monkeyDesignToEngineConfig } from '../src/documents/designs/tradeoffs';
import { tradeoffUrl } from '../src/documents/urls/tradeoffs';
import { mixProblem, workloadOf } from '../src/documents/params/workloadMix';
import { defaultsOf } from '../src/documents/url/params';

const MIB = 1024 * 1024;
const FIG7 = { entries: 2 ** 35, entryBytes: 16, pageBytes: 4096 };
const HW = { writeReadCostRatio: 1, pageReadSeconds: 1e-4 };
const BALANCED: Workload = { pointLookups: 0.5, nonZeroFraction: 0.2, rangeLookups: 0, updates: 0.5, rangeSelectivity: 1e-7 };
const ZERO: Workload = { pointLookups: 1, nonZeroFraction: 0, rangeLookups: 0, updates: 0, rangeSelectivity: 0 };

describe('monkeyDesignToEngineConfig', () => {
  it('writes leveling as one run per level, like public/examples/leveling-monkey.json', () => {
    const example = JSON.parse(fs.readFileSync(path.join(__dirname, '../../public/examples/leveling-monkey.json'), 'utf8'));
    const config = monkeyDesignToEngineConfig(
      { entries: 1e6, entryBytes: 128, pageBytes: 4096 },
      { policy: 'leveling', sizeRatio: 10, bufferBytes: MIB, filterBitsPerEntry: 10, allocation: 'monkey' },
    );
    // The designs agree in everything but their names.
    expect({ ...config, name: '' }).toEqual({ ...example, name: '' });
  });

  it('writes tiering as T−1 runs, rounded to whole runs, and whole buffer bytes', () => {
    const tier = (t: number) =>
      monkeyDesignToEngineConfig(FIG7, { policy: 'tiering', sizeRatio: t, bufferBytes: 1234.6, filterBitsPerEntry: 4.5, allocation: 'uniform' });
    expect(tier(4).levels).toEqual([{ size_ratio: 4, max_runs: 3 }]);
    expect(tier(5.6).levels).toEqual([{ size_ratio: 5.6, max_runs: 5 }]);
    expect(tier(2).levels).toEqual([{ size_ratio: 2, max_runs: 1 }]);
    expect(tier(4)).toMatchObject({
      kind: 'lsm-navigator/engine-config',
      version: 1,
      page_bytes: 4096,
      buffer_bytes: 1235,
      filter: { allocation: 'uniform', bits_per_key: 4.5 },
    });
  });
});

describe('workload mix', () => {
  it('must add up to 100% and says by how much it misses', () => {
    expect(mixProblem({ zeroResult: 40, nonZeroResult: 10, range: 0, update: 50 })).toBeNull();
    expect(mixProblem({ zeroResult: 33.3, nonZeroResult: 33.3, range: 0, update: 33.4 })).toBeNull();
    expect(mixProblem({ zeroResult: 40, nonZeroResult: 10, range: 0, update: 40 })).toBe(
      'The operation mix adds up to 90%, not 100%: raise one of the four shares by 10 points.',
    );
    expect(mixProblem({ zeroResult: 40, nonZeroResult: 20, range: 0, update: 50 })).toMatch(/110%.*lower one/);
  });

  it('becomes the models’ fractions, v from the two lookup shares', () => {
    expect(workloadOf({ zeroResult: 40, nonZeroResult: 10, range: 5, update: 45 }, 1e-6)).toEqual({
      pointLookups: 0.5,
      nonZeroFraction: 0.2,
      rangeLookups: 0.05,
      updates: 0.45,
      rangeSelectivity: 1e-6,
    });
    expect(workloadOf({ zeroResult: 0, nonZeroResult: 0, range: 50, update: 50 }, 1e-5).nonZeroFraction).toBe(0);
  });

  it('has defaults and presets that add up', () => {
    const d = defaultsOf(tradeoffUrl.params);
    expect(mixProblem(d)).toBeNull();
    for (const p of tradeoffUrl.presets ?? []) expect(mixProblem({ ...d, ...p.values })).toBeNull();
  });
});

describe('trade-off curves (Fig 4 / Fig 8, reference V14)', () => {
  const r = tradeoffCurves({ dataset: FIG7, workload: ZERO, hardware: HW, bufferBytes: 2 * MIB, filterBitsPerEntry: 5 });

  it('sweeps T from 2 to Tlim', () => {
    const grid = sizeRatioGrid(FIG7, 2 * MIB);
    expect(grid[0]).toBe(2);
    expect(grid.slice(0, 15)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
    expect(grid[grid.length - 1]).toBe(monkeySizeRatioLimit(FIG7, 2 * MIB));
    expect(r.sizeRatioLimit).toBe(262144);
    expect(r.curves.map((c) => `${c.allocation} ${c.policy}`)).toEqual(['monkey leveling', 'uniform leveling', 'monkey tiering', 'uniform tiering']);
  });

  it('meets at T = 2 and is the exact model everywhere', () => {
    const [ml, ul, mt, ut] = r.curves.map((c) => c.points[0]);
    expect(mt).toEqual(ml);
    expect(ut).toEqual(ul);
    const p = r.curves[2].points[5];
    const c = costs(FIG7, { policy: 'tiering', sizeRatio: p.sizeRatio, bufferBytes: 2 * MIB, filterBitsPerEntry: 5, allocation: 'monkey' }, ZERO, HW);
    expect(p).toEqual({ sizeRatio: 7, levels: c.levels, update: c.update, lookup: c.zeroResultLookup });
  });

  it('places the Table 4 systems as in V14', () => {
    const by = Object.fromEntries(r.systems.map((s) => [s.name, s]));
    expect(by.RocksDB.levels).toBe(4);
    expect(by.RocksDB.lookup).toBeCloseTo(0.03277, 5);
    expect(by.RocksDB.update).toBeCloseTo((18 * 2) / 256, 12);
    expect(by.LevelDB.levels).toBe(6);
    expect(by.HBase.lookup).toBeCloseTo(0.09012, 5);
    expect(by.Accumulo.lookup).toBeCloseTo(0.02534, 5);
    expect(by.Cassandra).toMatchObject({ levels: 7, policy: 'tiering', bufferAssumed: true });
    expect(by.Cassandra.lookup).toBeCloseTo(0.17204, 5);
  });
});

describe('holistic design', () => {
  it('is holisticDesign’s answer, with the chosen candidate ranked first', () => {
    const memoryBytes = 2 * MIB + (5 * FIG7.entries) / 8;
    const view = holistic({ dataset: FIG7, workload: BALANCED, hardware: HW, memoryBytes, sla: {} });
    const direct = holisticDesign(FIG7, BALANCED, HW, memoryBytes);
    expect(view.design).toEqual(direct.design);
    expect(view.throughput).toBe(direct.throughput);
    expect(view.ranked[0]).toMatchObject({ policy: direct.policy, sizeRatio: direct.sizeRatio });
    expect(view.ranked).toHaveLength(direct.candidates.length);
    expect(runSweep('tradeoffs.holistic', { dataset: FIG7, workload: BALANCED, hardware: HW, memoryBytes, sla: {} }).design).toEqual(direct.design);
  });

  it('honours an update-cost bound', () => {
    const memoryBytes = 2 * MIB + (5 * FIG7.entries) / 8;
    const free = holistic({ dataset: FIG7, workload: BALANCED, hardware: HW, memoryBytes, sla: {} });
    const bound = free.costs.update / 2;
    const view = holistic({ dataset: FIG7, workload: BALANCED, hardware: HW, memoryBytes, sla: { maxUpdateCost: bound } });
    expect(view.feasible).toBe(true);
    expect(view.ranked[0].update).toBeLessThanOrEqual(bound * (1 + 1e-9));
  });
});

describe('Fig 11 steps', () => {
  const r = memoryStepsSweep({ dataset: FIG7, workload: BALANCED, hardware: HW, bitsPerEntry: [0.5, 5, 20] });

  it('computes each step from the models', () => {
    const m = (5 * FIG7.entries) / 8;
    const row = r.rows[1];
    expect(row.sota).toBe(costs(FIG7, ruleOfThumbDesign(FIG7, m, 'leveling', 10, 'uniform'), BALANCED, HW).throughput);
    expect(row.monkey).toBe(costs(FIG7, ruleOfThumbDesign(FIG7, m, 'leveling', 10, 'monkey'), BALANCED, HW).throughput);
    expect(row.holistic).toBe(holisticDesign(FIG7, BALANCED, HW, m).throughput);
    expect(row.split).toBe(holisticDesign(FIG7, BALANCED, HW, m, {}, { sizeRatios: [10], policies: ['leveling'] }).throughput);
  });

  it('never loses throughput by adding Monkey’s allocation, and the holistic design beats the baseline', () => {
    for (const row of r.rows) {
      expect(row.monkey).toBeGreaterThanOrEqual(row.sota);
      expect(row.holistic).toBeGreaterThan(row.sota);
      expect(row.hybrid).toBeGreaterThanOrEqual(row.monkey);
    }
  });

  it('labels designs as Fig 11 does', () => {
    expect(designLabel('leveling', 4, 0)).toBe('L4 0%');
    expect(designLabel('tiering', 13.4567, 0.936)).toBe('T13 94%');
    expect(designLabel('leveling', 262144, 0.95)).toBe('L262144 95%');
  });
});

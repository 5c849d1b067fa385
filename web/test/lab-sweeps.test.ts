/**
 * Sweeps and the allocation comparison: which runs they make (every document valid for the
 * engine), the model curves drawn under the measured points, and what is kept and exported.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { mslsWriteAmplification, uniformZeroResultCost } from '@lsm/models';
import { initSync, validate_config, validate_workload, WasmEngine } from '../src/wasm/pkg/lsm_engine.js';
import type { Report } from '../src/documents/engine';
import {
  closedFormZero,
  defaultSpec,
  measurePoint,
  modelLevels,
  mslsParams,
  sweepCurves,
  sweepPoints,
  type SweepPointResult,
} from '../src/pages/lab/sweeps';
import { pointModel, sweepCsv } from '../src/pages/lab/sweepCsv';
import { lookupSweepChart, mslsLevelChart, pow2Label, slopePerDoubling, tradeoffChart } from '../src/pages/lab/sweepCharts';
import { COMPARE_ALLOCATIONS, compareConfig, compareCsv, compareRow, compareWorkload, DEFAULT_COMPARE, savingVsUniform } from '../src/pages/lab/mnemosyne';

const root = path.resolve(__dirname, '../..');

beforeAll(() => {
  initSync({ module: fs.readFileSync(path.join(root, 'web/src/wasm/pkg/lsm_engine_bg.wasm')) });
});

function run(config: unknown, workload: unknown): Report {
  const engine = new WasmEngine(JSON.stringify(config));
  engine.start_workload(JSON.stringify(workload));
  while (JSON.parse(engine.run_steps(100_000)).phase !== 'done');
  const report = JSON.parse(engine.report_json(0, 0)) as Report;
  engine.free();
  return report;
}

describe('sweep plans', () => {
  it('Fig 12 A: 2^12 … 2^19 entries, uniform and Monkey at each size; every document is valid', () => {
    const points = sweepPoints(defaultSpec('size'));
    expect(points).toHaveLength(16);
    expect(points.map((p) => p.param)).toEqual([12, 13, 14, 15, 16, 17, 18, 19].flatMap((k) => [2 ** k, 2 ** k]));
    for (const p of points) {
      expect(() => validate_config(JSON.stringify(p.config))).not.toThrow();
      expect(() => validate_workload(JSON.stringify(p.workload))).not.toThrow();
      expect(p.config.levels).toEqual([{ size_ratio: 2, max_runs: 1 }]);
      expect(p.config.filter.bits_per_key).toBe(5);
      expect(p.workload.preload.key_space).toBe(p.param * 100);
      expect(p.workload.mix).toEqual({ get_missing: 1 });
    }
  });

  it('the other sweeps: bits per key, (T, policy) designs, MSLS data sizes', () => {
    expect(sweepPoints(defaultSpec('bits'))).toHaveLength(18);
    const trade = sweepPoints(defaultSpec('tradeoff'));
    // Leveling at T = 2, 3, 4, 6, 8, 10 and tiering at 3 … 10 (at T = 2 they coincide), two allocations each.
    expect(trade).toHaveLength(22);
    expect(trade.find((p) => p.id === 'tiering-monkey-8')?.config.levels).toEqual([{ size_ratio: 8, max_runs: 7 }]);
    const msls = sweepPoints({ ...defaultSpec('msls'), log2: 16 });
    expect(msls.map((p) => p.param)).toEqual([8192, 16384, 32768, 65536]);
    for (const p of [...trade, ...msls]) {
      expect(() => validate_config(JSON.stringify(p.config))).not.toThrow();
      expect(() => validate_workload(JSON.stringify(p.workload))).not.toThrow();
    }
    expect(msls[0].workload.mix).toEqual({ update: 1 });
    expect(msls[0].workload.operations).toBe(2 * 8192);
  });

  it('Moose: leveling, tiering, lazy leveling at T = 4 and 8 and Moose’s structure; measured points get Moose’s model beside them', () => {
    const spec = { ...defaultSpec('moose'), log2: 16, lookups: 2_000 };
    const plan = sweepPoints(spec);
    expect(plan.map((p) => p.id)).toEqual(['leveling-4', 'tiering-4', 'lazy-4', 'leveling-8', 'tiering-8', 'lazy-8', 'moose']);
    for (const p of plan) {
      expect(() => validate_config(JSON.stringify(p.config)), p.id).not.toThrow();
      expect(() => validate_workload(JSON.stringify(p.workload))).not.toThrow();
      expect(p.config.filter.allocation).toBe('explicit');
    }
    expect(plan[0].config.levels.every((l) => l.max_runs === 1)).toBe(true);
    const points = plan.map((p) => measurePoint(p, run(p.config, p.workload), 1));
    const lev = points[0];
    const tier = points[1];
    // Tiering: cheaper updates, more runs for a range to seek — measured and modelled alike.
    expect(tier.runPagesPerUpdate ?? 0).toBeLessThan(lev.runPagesPerUpdate ?? 0);
    expect(tier.rangeIo ?? 0).toBeGreaterThan(lev.rangeIo ?? 0);
    const lm = pointModel(spec, lev);
    const tm = pointModel(spec, tier);
    expect(tm.update ?? 0).toBeLessThan(lm.update ?? 0);
    expect(tm.range ?? 0).toBeGreaterThan(lm.range ?? 0);
    const csv = sweepCsv(spec, points).trim().split('\n');
    expect(csv).toHaveLength(8);
  });

  it('the paper’s curves: Eq 56 grows with L, Eq 7 stays flat (Fig 12 A)', () => {
    const [uniform, monkey] = sweepCurves(defaultSpec('size'));
    expect(uniform.id).toBe('model-uniform');
    const at = (c: typeof uniform, n: number) => c.points.find((p) => Math.abs(p.x - n) / n < 1e-9)?.y ?? NaN;
    expect(at(uniform, 2 ** 19)).toBeCloseTo(uniformZeroResultCost({ policy: 'leveling', sizeRatio: 2, levels: modelLevels(2 ** 19, 2) }, 5), 12);
    expect(modelLevels(2 ** 12, 2)).toBe(1);
    expect(modelLevels(2 ** 19, 2)).toBe(8);
    expect(at(uniform, 2 ** 19)).toBeGreaterThan(at(uniform, 2 ** 14) * 2);
    expect(at(monkey, 2 ** 19)).toBeCloseTo(at(monkey, 2 ** 14), 6);
    expect(closedFormZero('monkey', 'leveling', 2, 8, 5)).toBeLessThan(closedFormZero('uniform', 'leveling', 2, 8, 5));
  });

  it('MSLS curve is the model’s per-level sum for each N', () => {
    const [model] = sweepCurves({ ...defaultSpec('msls'), log2: 15 });
    const p = model.points.find((q) => q.x === 16384);
    const per = mslsWriteAmplification(mslsParams(16384)).perLevel;
    expect(p?.y).toBeCloseTo(per.reduce((a, b) => a + b, 0), 12);
  });
});

describe('measured points', () => {
  it('a real run becomes a point; the chart draws it over the curves and the CSV lists it', () => {
    const spec = { ...defaultSpec('size'), log2: 13, lookups: 5_000 };
    const plan = sweepPoints(spec);
    const points: SweepPointResult[] = plan.map((p) => measurePoint(p, run(p.config, p.workload), 10));
    const m = points.find((p) => p.id === 'monkey-8192');
    expect(m?.zeroIo).toBeGreaterThan(0);
    expect(m?.treeZeroIo).toBeGreaterThan(0);
    expect(m?.bitsPerKey).toBeGreaterThan(4);
    const chart = lookupSweepChart(spec, points);
    expect(chart.series.map((s) => s.id)).toEqual(['model-uniform', 'tree-uniform', 'measured-uniform', 'model-monkey', 'tree-monkey', 'measured-monkey']);
    expect(chart.series.find((s) => s.id === 'measured-monkey')?.points).toEqual([
      { x: 4096, y: points[1].zeroIo },
      { x: 8192, y: points[3].zeroIo },
    ]);
    const csv = sweepCsv(spec, points).trim().split('\n');
    expect(csv).toHaveLength(5);
    expect(csv[0].split(',').slice(0, 6)).toEqual([
      'sweep',
      'series',
      'label',
      'entries',
      'measured zero-result I/O per lookup',
      'predicted from tree (sum of run FPRs)',
    ]);
    expect(csv[4].startsWith(`size,monkey,"monkey, 2^13 entries",8192,${m?.zeroIo},`)).toBe(true);
  });

  it('slope per doubling and the axis labels', () => {
    const pt = (series: string, param: number, zeroIo: number): SweepPointResult => ({
      id: `${series}-${param}`,
      series,
      param,
      label: '',
      zeroIo,
      treeZeroIo: zeroIo,
      loadPagesPerInsert: 0,
      writeAmp: null,
      bitsPerKey: 5,
      levels: 1,
      runs: 1,
      millis: 0,
    });
    const pts = [pt('uniform', 1024, 0.1), pt('uniform', 2048, 0.2), pt('uniform', 4096, 0.3), pt('monkey', 1024, 0.3), pt('monkey', 4096, 0.31)];
    expect(slopePerDoubling(pts, 'uniform')).toBeCloseTo(0.1, 12);
    expect(slopePerDoubling(pts, 'monkey')).toBeCloseTo(0.005, 12);
    expect(slopePerDoubling(pts, 'nothing')).toBeNull();
    expect(pow2Label(2 ** 19)).toBe('2¹⁹');
    const trade = tradeoffChart(defaultSpec('tradeoff'), []);
    expect(trade.series.every((s) => s.id.startsWith('model-'))).toBe(true);
    expect(trade.series[0].points).toHaveLength(6);
    expect(mslsLevelChart({ ...pt('measured', 16384, 0), writeAmp: [1, 2, 3] })?.categories[0]).toBe('level 0 (flush)');
  });
});

describe('Mnemosyne comparison', () => {
  it('three allocations, the same design and budget; rows from real runs', () => {
    const settings = { ...DEFAULT_COMPARE, preload: 8_000, operations: 40_000 };
    const w = compareWorkload(settings);
    expect(() => validate_workload(JSON.stringify(w))).not.toThrow();
    expect(w.distribution).toEqual({ kind: 'hotspot', hot_fraction: 0.05, hot_probability: 0.95 });
    const rows = COMPARE_ALLOCATIONS.map((a) => {
      const config = compareConfig(a, settings.bits);
      expect(() => validate_config(JSON.stringify(config))).not.toThrow();
      return compareRow(a, run(config, w), 1);
    });
    for (const r of rows) {
      expect(r.zeroLookups).toBeGreaterThan(15_000);
      expect(r.files).toBeGreaterThan(5);
      expect(r.fileStats).toHaveLength(r.files);
      expect(r.bitsPerKey).toBeLessThanOrEqual(settings.bits + 1e-9);
    }
    expect(savingVsUniform(rows, rows[0])).toBe(0);
    const csv = compareCsv(rows).trim().split('\n');
    expect(csv).toHaveLength(4);
    expect(csv[1].startsWith('uniform,')).toBe(true);
  });
});

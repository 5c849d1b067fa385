/**
 * The workload lab's pure parts: controls ⇄ EngineConfig / Workload (checked by the engine's own
 * validator, built for wasm here), the predictions drawn next to measurements, and a real report
 * from the wasm engine to check them against.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { monkeyZeroResultCostClosedForm, uniformZeroResultCost } from '@lsm/models';
import { initSync, validate_config, validate_workload, WasmEngine } from '../src/wasm/pkg/lsm_engine.js';
import { decodeQuery } from '../src/documents/url/codec';
import { defaultsOf } from '../src/documents/url/params';
import type { EngineConfig, Report, TreeShape, Workload } from '../src/documents/engine';
import { configToState, labLink, labProblems, stateToConfig, stateToWorkload, workloadToState } from '../src/documents/urls/labDocuments';
import { labParams, labUrl, type LabState } from '../src/documents/urls/lab';
import {
  bitsSpentPerKey,
  levelOverlay,
  measuredWriteAmplification,
  modelCosts,
  nonZeroFromTree,
  overlay,
  rangeFromTree,
  zeroResultFromTree,
} from '../src/pages/lab/predict';
import { counterRows, overlayCsv, resultCsv, rocksdbRows } from '../src/pages/lab/reportTables';
import { reportToResult } from '../src/pages/lab/DocumentImport';

const root = path.resolve(__dirname, '../..');
const defaults = (): LabState => defaultsOf(labParams);

beforeAll(() => {
  initSync({ module: fs.readFileSync(path.join(root, 'web/src/wasm/pkg/lsm_engine_bg.wasm')) });
});

function run(config: EngineConfig, workload: Workload): Report {
  const engine = new WasmEngine(JSON.stringify(config));
  engine.start_workload(JSON.stringify(workload));
  for (;;) {
    const p = JSON.parse(engine.run_steps(50_000));
    if (p.phase === 'done') break;
  }
  const report = JSON.parse(engine.report_json(0, 0)) as Report;
  engine.free();
  return report;
}

describe('lab controls → documents', () => {
  it('the default controls are the default lab experiment, and the engine accepts them', () => {
    const s = defaults();
    const config = stateToConfig(s);
    expect(config).toEqual({
      kind: 'lsm-navigator/engine-config',
      version: 1,
      name: 'leveling, T = 4, monkey 5 bits/key',
      page_bytes: 4096,
      buffer_bytes: 65536,
      levels: [{ size_ratio: 4, max_runs: 1 }],
      filter: { allocation: 'monkey', bits_per_key: 5 },
    });
    const w = stateToWorkload(s);
    expect(w.preload).toEqual({ entries: 100_000, key_space: 10_000_000, key_bytes: 16, value_bytes: 48 });
    expect(w.operations).toBe(200_000);
    expect(w.mix).toEqual({ get_missing: 1 });
    expect(w.distribution).toEqual({ kind: 'uniform' });
    expect(() => validate_config(JSON.stringify(config))).not.toThrow();
    expect(() => validate_workload(JSON.stringify(w))).not.toThrow();
    expect(labProblems(s)).toEqual([]);
  });

  it('every field reaches the config: per-level lists, explicit bits, modular filters, merges by file, cache, window', () => {
    const s: LabState = {
      ...defaults(),
      sizeRatios: [7, 7, 5.83],
      maxRuns: [3, 1],
      allocation: 'explicit',
      levelBits: [12, 8],
      filterKind: 'modular',
      modules: 4,
      skip: 'partial',
      granularity: 'file',
      fileKiB: 256,
      cacheKiB: 1024,
      cacheMeta: true,
      highPriority: 0.5,
      window: 32,
    };
    const c = stateToConfig(s);
    expect(c.levels).toEqual([
      { size_ratio: 7, max_runs: 3, bits_per_key: 12 },
      { size_ratio: 7, max_runs: 1, bits_per_key: 8 },
      { size_ratio: 5.83, max_runs: 1, bits_per_key: 8 },
    ]);
    expect(c.filter).toEqual({ allocation: 'explicit', bits_per_key: 5, kind: 'modular', modules: 4, skip: 'partial' });
    expect(c.compaction).toEqual({ granularity: 'file', target_file_bytes: 262_144 });
    expect(c.block_cache).toEqual({ bytes: 1_048_576, cache_index_and_filter_blocks: true, high_priority_ratio: 0.5 });
    expect(c.statistics_window).toBe(32);
    expect(() => validate_config(JSON.stringify(c))).not.toThrow();
    // And back: the controls that describe this config give the same config.
    expect(stateToConfig({ ...defaults(), ...configToState(c) })).toEqual({ ...c, name: expect.any(String) });
  });

  it('every preset in public/presets loads into the controls and comes back as the same design', () => {
    const dir = path.join(root, 'public/presets');
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'index.json');
    expect(files.length).toBeGreaterThan(5);
    for (const f of files) {
      const preset = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as EngineConfig;
      const back = stateToConfig({ ...defaults(), ...configToState(preset) });
      expect(back.page_bytes, f).toBe(preset.page_bytes);
      expect(back.buffer_bytes, f).toBe(preset.buffer_bytes);
      expect(back.levels, f).toEqual(preset.levels);
      expect(back.filter.allocation, f).toBe(preset.filter.allocation);
      expect(back.filter.bits_per_key, f).toBe(preset.filter.bits_per_key);
      expect(back.compaction?.granularity ?? 'level', f).toBe(preset.compaction?.granularity ?? 'level');
      expect(() => validate_config(JSON.stringify(back)), f).not.toThrow();
    }
  });

  it('the example workloads round-trip through the controls exactly', () => {
    for (const f of ['mixed.json', 'zero-result-lookups.json', 'bench-workload.json']) {
      const w = JSON.parse(fs.readFileSync(path.join(root, 'public/examples', f), 'utf8')) as Workload;
      const back = stateToWorkload({ ...defaults(), ...workloadToState(w) }, w.name);
      expect(back, f).toEqual(w);
    }
    const hot: Workload = {
      kind: 'lsm-navigator/workload',
      version: 1,
      name: 'hot',
      seed: 3,
      preload: { entries: 10, key_space: 0, key_bytes: 8, value_bytes: 0 },
      operations: 5,
      mix: { insert: 0.5, get_missing: 0.5 },
      distribution: { kind: 'hotspot', hot_fraction: 0.1, hot_probability: 0.9 },
    };
    expect(stateToWorkload({ ...defaults(), ...workloadToState(hot) }, 'hot')).toEqual(hot);
  });

  it('problems the controls cannot catch alone name the control', () => {
    expect(labProblems({ ...defaults(), getMissing: 0.5 })).toEqual(['the operation mix must sum to 100%; it sums to 50%']);
    expect(labProblems({ ...defaults(), keySpace: 1000 })[0]).toMatch(/^key space must be 0 \(automatic\) or larger than the preload/);
    expect(labProblems({ ...defaults(), pageBytes: 3000 })).toContain('page size must be a power of two; got 3000 B');
    expect(labProblems({ ...defaults(), getMissing: 0, range: 1, selectivity: 0 })).toContain(
      'range selectivity must be above 0 when the mix has range lookups',
    );
  });

  it('a "Run in the lab" link carries the design and workload', () => {
    const preset = JSON.parse(fs.readFileSync(path.join(root, 'public/presets/moose.json'), 'utf8')) as EngineConfig;
    const link = labLink(preset);
    expect(link.startsWith('#/lab?v=1&')).toBe(true);
    const decoded = decodeQuery(labUrl, link.slice('#/lab?'.length));
    expect(decoded.notices).toEqual([]);
    expect(stateToConfig(decoded.state).levels).toEqual(preset.levels);
    expect(decoded.state.tab).toBe('run');
  });
});

/** A tree with a buffer and two levels: three runs with known FPRs. */
function tree(): TreeShape {
  const run = (id: number, entries: number, fpr: number, bits: number, pages: number) => ({
    id,
    entries,
    entry_bytes: entries * 64,
    file_bytes: entries * 70,
    data_pages: pages,
    filter_bits: bits * entries,
    bits_per_key: bits,
    filter_fpr: fpr,
    filter_rebuild_pages: 0,
    tables: [],
  });
  return {
    buffer_entries: 100,
    buffer_bytes: 6400,
    buffer_capacity_bytes: 65536,
    levels: [
      { level: 1, capacity_bytes: 262144, max_runs: 1, runs: [run(9, 900, 0.01, 9, 15)] },
      { level: 2, capacity_bytes: 1048576, max_runs: 2, runs: [run(7, 3000, 0.05, 6, 50), run(5, 6000, 0.1, 4, 100)] },
    ],
    merging_level: null,
    merge_progress: null,
    cache_bytes: 0,
    mnemosyne_log_c: null,
  };
}

describe('predictions from the tree', () => {
  it('zero-result: Σ of run FPRs; non-zero: 1 + FPRs above the key’s run, weighted by entries', () => {
    const t = tree();
    expect(zeroResultFromTree(t)).toBeCloseTo(0.16, 12);
    // N = 10,000 (100 in the buffer cost 0): 0.09·1 + 0.3·(1 + 0.01) + 0.6·(1 + 0.06).
    expect(nonZeroFromTree(t)).toBeCloseTo(0.09 + 0.3 * 1.01 + 0.6 * 1.06, 12);
    // s = 0.01: Σ (s·pages + 1) = 0.15 + 1 + 0.5 + 1 + 1 + 1.
    expect(rangeFromTree(t, 0.01)).toBeCloseTo(4.65, 12);
    expect(bitsSpentPerKey(t)).toBeCloseTo((9 * 900 + 6 * 3000 + 4 * 6000) / 9900, 12);
  });

  it('on a real wasm run: the engine’s prediction is Σ FPRs, and measured zero-result I/O is within 5% of it', () => {
    const s: LabState = { ...defaults(), preload: 20_000, keySpace: 2_000_000, operations: 60_000 };
    const report = run(stateToConfig(s), stateToWorkload(s));
    expect(zeroResultFromTree(report.tree)).toBeCloseTo(report.predicted.zero_result_lookup_io, 9);
    const rows = overlay(report);
    const zero = rows.find((r) => r.cls === 'zero');
    expect(zero?.count).toBe(60_000);
    expect(zero?.measured).toBe(report.summary.find((c) => c.class === 'get_zero_result')?.io_per_op);
    expect(Math.abs(zero?.errorTree ?? 1)).toBeLessThan(0.05);
    // Only zero-result lookups ran: the other classes have nothing measured.
    expect(rows.filter((r) => r.measured !== null).map((r) => r.cls)).toEqual(['zero']);
    // Per level, measured I/O adds up to the total, and so do the FPRs.
    const levels = levelOverlay(report);
    expect(levels.reduce((a, l) => a + l.measuredIo, 0)).toBeCloseTo(zero?.measured ?? 0, 9);
    expect(levels.reduce((a, l) => a + l.predictedIo, 0)).toBeCloseTo(report.predicted.zero_result_lookup_io, 9);
    // The paper's model for this design is Eq 7 (Monkey) on the tree's level count.
    const model = modelCosts(report, 0);
    expect(model?.zeroClosedForm).toBeCloseTo(
      monkeyZeroResultCostClosedForm({ policy: 'leveling', sizeRatio: 4, levels: model?.levels ?? 0 }, 5).cost,
      12,
    );
    const uniform = run({ ...stateToConfig(s), filter: { allocation: 'uniform', bits_per_key: 5 } }, stateToWorkload(s));
    expect(modelCosts(uniform, 0)?.zeroClosedForm).toBeCloseTo(
      uniformZeroResultCost({ policy: 'leveling', sizeRatio: 4, levels: modelCosts(uniform, 0)?.levels ?? 0 }, 5),
      12,
    );
  });

  it('updates: pages written per update and write amplification per level from the report', () => {
    const s: LabState = { ...defaults(), preload: 5_000, keySpace: 0, operations: 10_000, getMissing: 0, update: 1 };
    const report = run(stateToConfig(s), stateToWorkload(s));
    const upd = overlay(report).find((r) => r.cls === 'update');
    expect(upd?.count).toBe(10_000);
    expect(upd?.measured).toBe(report.writes.pages_written_per_update);
    const wa = measuredWriteAmplification(report);
    expect(wa?.length).toBe(report.writes.bytes_written_per_level.length);
    expect(wa?.[0]).toBeCloseTo(report.writes.bytes_written_per_level[0] / (10_000 * 64), 12);
  });

  it('report tables and CSV carry the counters', () => {
    const s: LabState = { ...defaults(), preload: 5_000, keySpace: 500_000, operations: 5_000 };
    const report = run(stateToConfig(s), stateToWorkload(s));
    const rows = counterRows(report);
    expect(rows.find((r) => r.counter === 'point lookups: missing keys')?.value).toBe(5_000);
    expect(rocksdbRows(report).map((r) => r.counter)).toContain('rocksdb.bloom.filter.useful');
    const csv = overlayCsv(report).split('\n');
    expect(csv[0]).toBe('operation,count,measured (I/O per op),predicted from the tree,paper model,error vs tree');
    expect(csv[1].startsWith('zero-result lookup,5000,')).toBe(true);
    const stored = resultCsv(reportToResult(report, 'test'));
    expect(stored).toContain('class,count,page I/Os,I/O per op');
  });
});

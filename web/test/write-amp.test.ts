/**
 * Write amplification measured by destination level: the windows taken from a run's checkpoints
 * (compute/writeAmp.ts), LevelDB's design in the engine's units (documents/writeAmp.ts), and the
 * MSLS page's design measured on the engine built for wasm — the page's own path — against the
 * model.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { mslsWriteAmplification, type MslsLevelParams } from '@lsm/models';
import { initSync, validate_config, WasmWriteAmp } from '../src/wasm/pkg/lsm_engine.js';
import { fromEmptySeries, runAgainstGrowthModel, steadyStateWindow } from '../src/compute/writeAmp';
import { mslsEngineRunSpec, mslsGrowthParams } from '../src/documents/designs/msls';
import { leveldbCalibration, leveldbEngineConfig, leveldbMslsParams } from '../src/documents/designs/leveldb';
import type { WriteAmpResult, WriteCheckpoint } from '../src/documents/writeAmp';

beforeAll(() => {
  initSync({ module: fs.readFileSync(path.resolve(__dirname, '../src/wasm/pkg/lsm_engine_bg.wasm')) });
});

const point = (inserts: number, flushEntries: number, into: number[], l0Merges: number): WriteCheckpoint => ({
  inserts,
  flushes: 0,
  flush_entries: flushEntries,
  flush_bytes: 0,
  entries_into: into,
  bytes_into: into.map((e) => e * 122),
  compactions: [0, l0Merges, 0],
  log_bytes: 0,
});

const run = (checkpoints: WriteCheckpoint[]): WriteAmpResult => ({ key_bytes: 16, value_bytes: 100, checkpoints, inserts: checkpoints.at(-1)?.inserts ?? 0, inserts_per_flush: 100 });

describe('windows over measured checkpoints', () => {
  const r = run([
    point(0, 0, [0, 0, 0], 0),
    point(400, 400, [0, 0, 0], 0),
    point(1000, 1000, [0, 900, 0], 1), // before the warm-up ends
    point(2000, 2000, [0, 2000, 1000], 2),
    point(2500, 2400, [0, 2000, 1500], 2),
    point(3000, 2800, [0, 3200, 2600], 3),
    point(4000, 3600, [0, 4400, 4000], 4),
  ]);

  it('steady state: whole level-0 cycles from the first merge after the warm-up to the last', () => {
    const w = steadyStateWindow(r, 'engine', 1500);
    expect([w.from, w.to, w.cycles]).toEqual([2000, 4000, 2]);
    expect(w.flush).toBeCloseTo(0.8, 12);
    expect(w.levels).toEqual([1.2, 1.5]);
    expect(w.total).toBeCloseTo(3.5, 12);
  });

  it('LevelDB counts level-0 merges by source level', () => {
    const leveldb = run(r.checkpoints.map((c) => ({ ...c, compactions: [c.compactions[1] ?? 0, 0] })));
    expect(steadyStateWindow(leveldb, 'leveldb', 1500)).toEqual(steadyStateWindow(r, 'engine', 1500));
  });

  it('too few merges after the warm-up is an error that says what to do', () => {
    expect(() => steadyStateWindow(r, 'engine', 3500)).toThrow(/1 level-0 merge after the warm-up; a window needs two: write more/);
  });

  it('from empty: cumulative entries written per write at each checkpoint', () => {
    expect(fromEmptySeries(r).map((p) => Number(p.total.toFixed(4)))).toEqual([1, 1.9, 2.5, 2.36, 2.8667, 3]);
  });
});

describe("LevelDB's design in the engine's units", () => {
  const leveldb = run([point(0, 0, [0, 0, 0], 0), { ...point(100_000, 100_000, [0, 150_000, 200_000], 5), bytes_into: [0, 150_000 * 122.5, 200_000 * 122.5] }]);
  leveldb.inserts_per_flush = 28_221;
  const c = leveldbCalibration(leveldb);

  it('calibrates on the tables its merges wrote', () => {
    expect(c).toEqual({ insertsPerFlush: 28_221, tableBytesPerEntry: 122.5, keyBytes: 16, valueBytes: 100 });
  });

  it('the same writes per flush, 10 MiB of LevelDB tables in level 1, 2 MiB files, in entry bytes; the engine accepts it', () => {
    const config = leveldbEngineConfig(c);
    expect(config.buffer_bytes).toBe(28_221 * 116);
    expect(config.buffer_trigger).toBe('logged');
    const level1Entries = (10 * 2 ** 20) / 122.5;
    expect(config.levels[0]?.size_ratio).toBeCloseTo((level1Entries * 116) / (28_221 * 116), 5);
    expect(config.levels[0]?.max_runs).toBe(3);
    expect(config.levels[1]).toEqual({ size_ratio: 10, max_runs: 1 });
    expect(config.compaction).toEqual({ granularity: 'file', target_file_bytes: Math.round(((2 * 2 ** 20) / 122.5) * 116) });
    expect(() => validate_config(JSON.stringify(config))).not.toThrow();
    const m = mslsWriteAmplification(leveldbMslsParams(c, 1_000_000, 0.99));
    expect(m.resolved.walItems).toBeCloseTo(28_221, 6);
    expect(m.resolved.levelItems[0]).toBeCloseTo(level1Entries, 6);
    expect(m.flush).toBe(1);
  });

  it('a run that merged nothing cannot calibrate', () => {
    expect(() => leveldbCalibration(run([point(0, 0, [0], 0), point(10, 10, [0], 0)]))).toThrow(/merged nothing/);
  });
});

describe('the MSLS page’s design measured on the engine (wasm), against the model', () => {
  // A small LevelDB-shaped design: 116 B entries, 64 KiB buffer, level 0 at 4 files, 256 KiB level 1, ×10.
  const design = (theta: number): MslsLevelParams => ({
    keySpace: 100_000,
    distribution: theta > 0 ? { kind: 'zipf', theta } : { kind: 'uniform' },
    entryBytes: 116,
    writeBufferBytes: 64 * 1024,
    level0Trigger: 4,
    level1Bytes: 256 * 1024,
    growthFactor: 10,
  });

  for (const theta of [0, 0.99]) {
    it(`${theta > 0 ? 'Zipf 0.99' : 'uniform'}: the flush is the model's Unique(wal)/wal and the total within 15%`, () => {
      const { spec, warmup } = mslsEngineRunSpec(design(theta));
      // The page's engine design is the model's wal: a flush every wal writes.
      expect(spec.config.buffer_trigger).toBe('logged');
      const w = new WasmWriteAmp(JSON.stringify(spec));
      try {
        while (JSON.parse(w.step(100_000)).done < spec.workload.preload.entries + spec.workload.operations);
        const result = JSON.parse(w.result_json()) as WriteAmpResult;
        const model = mslsWriteAmplification(design(theta));
        expect(result.inserts_per_flush).toBeCloseTo(model.resolved.walItems, -1);
        const window = steadyStateWindow(result, 'engine', warmup);
        expect(window.cycles).toBeGreaterThanOrEqual(12);
        expect(Math.abs(window.flush / model.flush - 1)).toBeLessThan(0.02);
        expect(Math.abs(window.total / (model.total - model.log) - 1)).toBeLessThan(0.15);
        if (theta > 0) return; // the N first writes are the same keys under either distribution
        // From empty (the N first writes): the growth model of the same design on the engine's
        // flush cadence, at every flush from the first level-0 merge on.
        const agreement = runAgainstGrowthModel(mslsGrowthParams(design(theta)), result);
        expect(agreement).not.toBeNull();
        const { points, worst } = agreement ?? { points: [], worst: NaN };
        console.log(`from empty, ${points.length} flushes: worst ${(worst * 100).toFixed(1)}%, at N ${points.at(-1)?.measured.toFixed(3)} vs model ${points.at(-1)?.model.toFixed(3)}`);
        expect(points.length).toBeGreaterThan(100);
        // A tree this small (2 MiB files against a 256 KiB level 1) makes few, large merges: one run
        // is one draw from a wide band (32 realisations of the model span 8.24–9.40 at N).
        expect(worst).toBeLessThan(0.08);
      } finally {
        w.free();
      }
    });
  }
});

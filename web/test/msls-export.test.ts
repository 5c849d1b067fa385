/**
 * The MSLS page's designs as EngineConfigs (documents/designs/msls.ts) and as the export panel's
 * designs (documents/designs/exportDesigns.ts): exact configs for the default state and for one other, the
 * optimiser's level sizes, what the engine cannot build, and every config through the engine's own
 * validator (built for wasm).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { mslsOptimizeLevelSizes } from '@lsm/models';
import { initSync, validate_config } from '../src/wasm/pkg/lsm_engine.js';
import type { EngineConfig } from '../src/documents/engine';
import { mslsPageDesigns } from '../src/documents/designs/exportDesigns';
import { mslsToEngineConfig } from '../src/documents/designs/msls';
import { levelParams, mslsParams, mslsUrl } from '../src/documents/urls/msls';
import { decodeQuery } from '../src/documents/url/codec';
import { defaultsOf } from '../src/documents/url/params';

const MIB = 1024 * 1024;

beforeAll(() => {
  initSync({ module: fs.readFileSync(path.resolve(__dirname, '../src/wasm/pkg/lsm_engine_bg.wasm')) });
});

const engineAccepts = (config: EngineConfig) => expect(() => validate_config(JSON.stringify(config))).not.toThrow();

const COMMON = {
  kind: 'lsm-navigator/engine-config',
  version: 1,
  page_bytes: 4096,
  buffer_trigger: 'logged',
  filter: { allocation: 'uniform', bits_per_key: 10 },
  compaction: { granularity: 'file', target_file_bytes: 2 * MIB },
} as const;

describe('MSLS page → EngineConfig, default state (LevelDB, 10⁸ keys of 1000 B)', () => {
  const params = levelParams(defaultsOf(mslsParams));

  it('your level sizes: level 0 of 3 + 1 files, 10 MiB level 1 (2.5 buffers), ×10, a last level that holds N', () => {
    // Size(4) = 10,000 MiB; N·E = 10¹¹ B = 9.54 × Size(4); with 25 % headroom 11.92 > r = 10.
    expect(mslsToEngineConfig(params)).toEqual({
      ...COMMON,
      name: 'MSLS design, Size(1) = 10 MiB, growth ×10; level 0 compacts at 4 files; 5 levels, the last holding 100,000,000 keys of 1,000 B; merges by file',
      buffer_bytes: 4 * MIB,
      levels: [
        { size_ratio: 2.5, max_runs: 3 },
        { size_ratio: 10, max_runs: 1 },
        { size_ratio: 10, max_runs: 1 },
        { size_ratio: 10, max_runs: 1 },
        { size_ratio: 11.921, max_runs: 1 },
      ],
    });
  });

  it('the optimiser’s level sizes, as per-level ratios', () => {
    const opt = mslsOptimizeLevelSizes(params);
    const config = mslsToEngineConfig(params, 'optimized', opt.levelItems);
    const bytes = opt.levelItems.map((s) => s * 1000);
    const sig6 = (v: number) => Number(v.toPrecision(6));
    const inner = [sig6(bytes[0] / (4 * MIB))];
    let above = 4 * MIB * inner[0];
    for (let l = 1; l < 4; l++) {
      inner.push(sig6(bytes[l] / above));
      above *= inner[l];
    }
    expect(config.levels.slice(0, 4)).toEqual(inner.map((size_ratio, i) => ({ size_ratio, max_runs: i === 0 ? 3 : 1 })));
    expect(config.levels).toHaveLength(5);
    const last = config.levels[4].size_ratio;
    expect(last).toBeGreaterThanOrEqual(Math.max(10, (1.25 * 1e11) / above));
    expect(last).toBeLessThan(Math.max(10, (1.25 * 1e11) / above) * (1 + 1e-5));
    expect(config.name).toMatch(/^MSLS-optimized level sizes [\d.]+ MiB, [\d.]+ MiB, [\d.]+ MiB, [\d.]+ MiB; level 0 compacts at 4 files; 5 levels/);
    engineAccepts(config);
  });

  it('the panel’s designs, pending and ready', () => {
    const pending = mslsPageDesigns(params, undefined);
    expect(pending.map((d) => [d.id, d.slug, d.config === null, d.problem])).toEqual([
      ['yours', 'msls-c0-4-l1-10mib-r10', false, undefined],
      ['optimized', 'msls-optimized', true, 'MSLS-optimized level sizes: still computing…'],
    ]);
    const opt = mslsOptimizeLevelSizes(params);
    const ready = mslsPageDesigns(params, { params, levelItems: opt.levelItems });
    expect(ready[1].slug).toBe('msls-optimized-c0-4-l5');
    for (const d of ready) {
      expect(d.problem).toBeUndefined();
      if (d.config) engineAccepts(d.config);
    }
  });
});

describe('MSLS page → EngineConfig, another state', () => {
  // 10⁷ keys, c0 = 1, a 2 MiB level 1 below the 4 MiB buffer, growth 8.
  const s = decodeQuery(mslsUrl, 'v=1&N=10000000&E=1000&d=z&th=0.99&buf=4&c0=1&l1=2&r=8&L=0&x=r').state;
  const params = levelParams(s);

  it('raises level 1 to the buffer, keeps one level-0 file, and Size(l+1)/Size(l) below', () => {
    // Sizes 2, 16, 128, 1024, 8192 MiB, then N·E = 9,537 MiB (≤ 8 × 8,192 MiB even with headroom).
    expect(mslsToEngineConfig(params)).toEqual({
      ...COMMON,
      name: 'MSLS design, Size(1) = 2 MiB, growth ×8; level 0 compacts at 1 file; 6 levels, the last holding 10,000,000 keys of 1,000 B; merges by file (Size(1) raised to the write buffer: the engine’s levels are at least as large as the one above)',
      buffer_bytes: 4 * MIB,
      levels: [
        { size_ratio: 1, max_runs: 1 },
        { size_ratio: 4, max_runs: 1 },
        { size_ratio: 8, max_runs: 1 },
        { size_ratio: 8, max_runs: 1 },
        { size_ratio: 8, max_runs: 1 },
        { size_ratio: 8, max_runs: 1 },
      ],
    });
  });

  it('every design passes the engine’s validation', () => {
    const opt = mslsOptimizeLevelSizes(params);
    const designs = mslsPageDesigns(params, { params, levelItems: opt.levelItems });
    expect(designs.map((d) => d.slug)).toEqual(['msls-c0-1-l1-2mib-r8', 'msls-optimized-c0-1-l6']);
    for (const d of designs) {
      expect(d.problem).toBeUndefined();
      if (d.config) engineAccepts(d.config);
    }
  });
});

describe('MSLS designs the engine cannot build, and the presets', () => {
  it('one level holding everything: the deeper levels grow by r', () => {
    const config = mslsToEngineConfig({ ...levelParams(defaultsOf(mslsParams)), keySpace: 5000, levels: 1 });
    expect(config.levels).toEqual([
      { size_ratio: 10, max_runs: 3 },
      { size_ratio: 10, max_runs: 1 },
    ]);
    engineAccepts(config);
  });

  it('a last level over 1,000 times the one above, or a buffer over 4 GiB, is a problem, not a config', () => {
    const params = levelParams(defaultsOf(mslsParams));
    expect(() => mslsToEngineConfig({ ...params, levels: 3 })).toThrow('Level 3 would be 1,192 times level 2; the engine’s size ratios go up to 1,000.');
    const [bigBuffer] = mslsPageDesigns({ ...params, writeBufferBytes: 8192 * MIB }, undefined);
    expect(bigBuffer).toMatchObject({ config: null, problem: 'The engine needs a write buffer between one page (4 KiB) and 4 GiB; this design uses 8192 MiB.' });
    const [invalid] = mslsPageDesigns({ ...params, levels: 9 }, undefined);
    expect(invalid.problem).toMatch(/^levels: must be an integer in \[1, 5\]/);
  });

  it('every preset’s designs pass the engine’s validation', () => {
    expect(mslsUrl.presets).toHaveLength(4);
    for (const preset of mslsUrl.presets ?? []) {
      const params = levelParams({ ...defaultsOf(mslsParams), ...preset.values });
      const opt = mslsOptimizeLevelSizes(params);
      for (const d of mslsPageDesigns(params, { params, levelItems: opt.levelItems })) {
        expect(d.problem, `${preset.id} ${d.id}`).toBeUndefined();
        if (d.config) engineAccepts(d.config);
      }
    }
  });
});

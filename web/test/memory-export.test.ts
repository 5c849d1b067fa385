/**
 * The Memory-pressure page's designs as EngineConfigs (documents/designs/memory.ts) and as the
 * export panel's designs (documents/designs/exportDesigns.ts): exact configs for the default state and for one
 * other, each accepted by the engine's own validator (built for wasm).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { initSync, validate_config } from '../src/wasm/pkg/lsm_engine.js';
import type { EngineConfig } from '../src/documents/engine';
import { memoryPageDesigns } from '../src/documents/designs/exportDesigns';
import { ENGINE_SKIP_THRESHOLDS, shambaCache, shambaToEngineConfig, treeFiles, treeToEngineConfig, type MemoryTree, type ShambaChoice } from '../src/documents/designs/memory';
import { memoryParams, memoryUrl } from '../src/documents/urls/memory';
import { decodeQuery } from '../src/documents/url/codec';
import { defaultsOf, type StateOf } from '../src/documents/url/params';

type MemoryState = StateOf<typeof memoryParams>;

beforeAll(() => {
  initSync({ module: fs.readFileSync(path.resolve(__dirname, '../src/wasm/pkg/lsm_engine_bg.wasm')) });
});

/** What MemoryPage hands the converters for a (valid) state. */
function inputs(s: MemoryState): { tree: MemoryTree; bits: number; shamba: ShambaChoice } {
  return {
    tree: { sizeRatio: s.sizeRatio, levels: s.levels, filesInFirstLevel: s.filesL1, entriesPerFile: s.entriesPerFile },
    bits: s.bits,
    shamba: { bitsPerKey: s.shambaBits, modules: s.modules, skip: s.skip, budgetPercent: s.budget },
  };
}

const engineAccepts = (config: EngineConfig) => expect(() => validate_config(JSON.stringify(config))).not.toThrow();

/** SHaMBa Table 5's SST: 1,024 index entries of 32 B, 65,536 keys. */
const INDEX_BYTES = 1024 * 32;
const filterBytes = (bitsPerKey: number) => (65_536 * bitsPerKey) / 8;

describe('memory page → EngineConfig, default state', () => {
  const s = defaultsOf(memoryParams);
  const { tree, bits, shamba } = inputs(s);

  it('section A’s tree: 4 MB files of 512 B entries, one-file level 0, T = 4 below, merges by file', () => {
    expect(treeToEngineConfig(tree, 'mnemosyne', bits)).toEqual({
      kind: 'lsm-navigator/engine-config',
      version: 1,
      name: 'Mnemosyne filters at 3 bits/key: T = 4, 3 levels of 8,192-entry files (1 in level 1, 21 in all), merges by file',
      page_bytes: 4096,
      buffer_bytes: 4_194_304,
      levels: [
        { size_ratio: 1, max_runs: 1 },
        { size_ratio: 4, max_runs: 1 },
      ],
      filter: { allocation: 'mnemosyne', bits_per_key: 3 },
      compaction: { granularity: 'file', target_file_bytes: 4_194_304 },
    });
    expect(treeToEngineConfig(tree, 'monkey', bits).filter).toEqual({ allocation: 'monkey', bits_per_key: 3 });
    expect(treeToEngineConfig(tree, 'uniform', bits).name).toMatch(/^uniform filters at 3 bits\/key: /);
  });

  it('SHaMBa: 2 modules, full skipping, a cache of half the index and filter bytes of 21 files', () => {
    const perFile = 0.5 * (INDEX_BYTES + filterBytes(10));
    expect(perFile).toBe(57_344);
    expect(shambaToEngineConfig(tree, shamba)).toEqual({
      kind: 'lsm-navigator/engine-config',
      version: 1,
      name: 'SHaMBa: 10 bits/key in 2 modules, full skipping, cache 50% of index + filter; T = 4, 3 levels of 65,536-entry files (1 in level 1, 21 in all), merges by file',
      page_bytes: 4096,
      buffer_bytes: 4_194_304,
      levels: [
        { size_ratio: 1, max_runs: 1 },
        { size_ratio: 4, max_runs: 1 },
      ],
      filter: { allocation: 'uniform', bits_per_key: 10, kind: 'modular', modules: 2, skip: 'full' },
      compaction: { granularity: 'file', target_file_bytes: 4_194_304 },
      // Index + module 1 (73,728 B a file) need more than the cache: all of it is high priority.
      block_cache: { bytes: 21 * 57_344, cache_index_and_filter_blocks: true, high_priority_ratio: 1 },
    });
  });

  it('the panel’s designs: Mnemosyne, Monkey+, uniform, SHaMBa, with their file names', () => {
    const designs = memoryPageDesigns(tree, bits, shamba);
    expect(designs.map((d) => [d.id, d.slug, d.config?.filter.allocation])).toEqual([
      ['mnemosyne', 'mnemosyne-t4-l3-3bpk', 'mnemosyne'],
      ['monkey', 'monkey-t4-l3-3bpk', 'monkey'],
      ['uniform', 'uniform-t4-l3-3bpk', 'uniform'],
      ['shamba', 'shamba-d2-skip-full-10bpk-cache50pct-t4-l3', 'uniform'],
    ]);
    for (const d of designs) {
      expect(d.problem).toBeUndefined();
      if (d.config) engineAccepts(d.config);
    }
  });
});

describe('memory page → EngineConfig, another state', () => {
  const q = 'v=1&T=5&L=2&f1=2&nf=16384&b=4.5&th=0.5&Z=0.2&at=hot&hl=1&seed=3&D=3&sb=10&skip=partial&bud=70&a=0.5&be=1&t1=0.3&t2=0.1';
  const s = decodeQuery(memoryUrl, q).state;
  const { tree, bits, shamba } = inputs(s);

  it('reads the link as the page does', () => {
    expect(s).toMatchObject({ sizeRatio: 5, levels: 2, filesL1: 2, entriesPerFile: 16_384, bits: 4.5, modules: 3, skip: 'partial', budget: 70 });
    expect(treeFiles(tree)).toBe(2 + 10);
  });

  it('section A’s tree: 8 MB files, level 1 of two files, T = 5', () => {
    expect(treeToEngineConfig(tree, 'monkey', bits)).toEqual({
      kind: 'lsm-navigator/engine-config',
      version: 1,
      name: 'Monkey filters at 4.5 bits/key: T = 5, 2 levels of 16,384-entry files (2 in level 1, 12 in all), merges by file',
      page_bytes: 4096,
      buffer_bytes: 8_388_608,
      levels: [
        { size_ratio: 2, max_runs: 1 },
        { size_ratio: 5, max_runs: 1 },
      ],
      filter: { allocation: 'monkey', bits_per_key: 4.5 },
      compaction: { granularity: 'file', target_file_bytes: 8_388_608 },
    });
  });

  it('SHaMBa: 3 modules, partial skipping, 70 % cache; the high pool holds index + module 1', () => {
    const perFile = 0.7 * (INDEX_BYTES + filterBytes(10));
    const high = (INDEX_BYTES + filterBytes(10) / 3) / perFile;
    expect(high).toBeCloseTo(0.7483, 4);
    expect(shambaCache(tree, shamba)).toEqual({ bytes: Math.round(12 * perFile), highPriorityRatio: 0.7483 });
    const config = shambaToEngineConfig(tree, shamba);
    expect(config).toEqual({
      kind: 'lsm-navigator/engine-config',
      version: 1,
      name: 'SHaMBa: 10 bits/key in 3 modules, partial skipping, cache 70% of index + filter; T = 5, 2 levels of 65,536-entry files (2 in level 1, 12 in all), merges by file',
      page_bytes: 4096,
      buffer_bytes: 4_194_304,
      levels: [
        { size_ratio: 2, max_runs: 1 },
        { size_ratio: 5, max_runs: 1 },
      ],
      filter: { allocation: 'uniform', bits_per_key: 10, kind: 'modular', modules: 3, skip: 'partial' },
      compaction: { granularity: 'file', target_file_bytes: 4_194_304 },
      block_cache: { bytes: 963_379, cache_index_and_filter_blocks: true, high_priority_ratio: 0.7483 },
    });
  });

  it('every design passes the engine’s validation', () => {
    const designs = memoryPageDesigns(tree, bits, shamba);
    expect(designs.map((d) => d.slug)).toEqual([
      'mnemosyne-t5-l2-4.5bpk',
      'monkey-t5-l2-4.5bpk',
      'uniform-t5-l2-4.5bpk',
      'shamba-d3-skip-partial-10bpk-cache70pct-t5-l2',
    ]);
    for (const d of designs) {
      expect(d.config).not.toBeNull();
      if (d.config) engineAccepts(d.config);
    }
  });
});

describe('memory page → EngineConfig, the controls’ extremes', () => {
  it('names the engine’s own skip thresholds (wasm-engine/crates/lsm-engine/src/lookup.rs)', () => {
    const rust = fs.readFileSync(path.resolve(__dirname, '../../wasm-engine/crates/lsm-engine/src/lookup.rs'), 'utf8');
    expect(rust).toContain(`const THETA_FIRST: f64 = ${ENGINE_SKIP_THRESHOLDS.whole};`);
    expect(rust).toContain(`const THETA_LATER: f64 = ${ENGINE_SKIP_THRESHOLDS.later};`);
  });

  it('every combination of the ranges’ ends is a config the engine takes', () => {
    const p = memoryParams;
    for (const sizeRatio of [p.sizeRatio.min, p.sizeRatio.max]) {
      for (const filesInFirstLevel of [p.filesL1.min, p.filesL1.max]) {
        for (const entriesPerFile of [p.entriesPerFile.min, p.entriesPerFile.max]) {
          const tree = { sizeRatio, levels: 2, filesInFirstLevel, entriesPerFile };
          for (const bits of [p.bits.min, p.bits.max]) engineAccepts(treeToEngineConfig(tree, 'mnemosyne', bits));
          for (const modules of [p.modules.min, p.modules.max]) {
            for (const budgetPercent of [p.budget.min, p.budget.max]) {
              for (const bitsPerKey of [p.shambaBits.min, p.shambaBits.max]) {
                engineAccepts(shambaToEngineConfig(tree, { bitsPerKey, modules, skip: 'none', budgetPercent }));
              }
            }
          }
        }
      }
    }
  });
});

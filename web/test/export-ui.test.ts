/**
 * The export UI's pure helpers: file names, the panel's per-format state, the import-kind guess,
 * the export page's URL state (built from public/presets/index.json), opening an engine design on
 * the Moose page, and the designs the explorer pages hand to the panel.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mooseLevelCapacities } from '@lsm/models';
import type { EngineConfig, Workload } from '../src/documents/engine';
import { holisticDesign, monkeyPageDesigns, mooseDesign } from '../src/documents/designs/exportDesigns';
import { designFileName, designSlug, EXPORT_FORMATS, formatInfo } from '../src/documents/exportFormats';
import { detectImportKind } from '../src/documents/importKind';
import { mooseDatasetFor, mooseLinkFor } from '../src/documents/urls/mooseLink';
import {
  formatsToRequest,
  pendingResults,
  requestKey,
  settle,
  tabBadge,
  warningCounts,
  warningHeadline,
} from '../src/ui/export/panelState';
import type { PresetIndex } from '../src/documents/sources';
import { CUSTOM_DESIGN, exportUrlSpec } from '../src/documents/urls/export';
import { mooseUrl } from '../src/documents/urls/moose';
import { decodeQuery, encodeQuery } from '../src/documents/url/codec';
import { defaultsOf } from '../src/documents/url/params';

const root = path.resolve(__dirname, '../..');
const readJson = <T>(rel: string): T => JSON.parse(fs.readFileSync(path.join(root, rel), 'utf8')) as T;
const INDEX = readJson<PresetIndex>('public/presets/index.json');
const preset = (id: string) => readJson<EngineConfig>(`public/presets/${id}.json`);
const MIXED = readJson<Workload>('public/examples/mixed.json');
const MIB = 1024 * 1024;

describe('file names', () => {
  it('name each format after the design', () => {
    expect(EXPORT_FORMATS.map((f) => designFileName(f.format, 'rocksdb'))).toEqual([
      'lsm-rocksdb.json',
      'OPTIONS-rocksdb.ini',
      'rocksdb-filter-policy.cc',
      'db_bench-rocksdb.sh',
    ]);
  });

  it('slug design names: lower case, one hyphen per gap, never empty, cut at a hyphen', () => {
    expect(designSlug('Holistic', 'leveling', 'T7.389')).toBe('holistic-leveling-t7.389');
    expect(designSlug('  RocksDB defaults — Monkey Table 4 ')).toBe('rocksdb-defaults-monkey-table-4');
    expect(designSlug('', '—')).toBe('design');
    const long = designSlug('Imported from a RocksDB OPTIONS file with a really quite long name that goes on');
    expect(long.length).toBeLessThanOrEqual(64);
    expect(long).toBe('imported-from-a-rocksdb-options-file-with-a-really-quite-long');
  });

  it('only db_bench needs a workload', () => {
    expect(EXPORT_FORMATS.filter((f) => f.needsWorkload).map((f) => f.format)).toEqual(['db_bench']);
    expect(formatInfo('rocksdb').target).toBe('RocksDB');
    expect(() => formatInfo('nope' as never)).toThrow('unknown export format');
  });
});

describe('panel state', () => {
  it('asks for every format, db_bench only with a workload', () => {
    const without = pendingResults(false);
    expect(without.db_bench).toEqual({ status: 'needs-workload' });
    expect(formatsToRequest(without)).toEqual(['engine', 'rocksdb', 'rocksdb-cpp']);
    expect(formatsToRequest(pendingResults(true))).toEqual(['engine', 'rocksdb', 'rocksdb-cpp', 'db_bench']);
  });

  it('settles worker answers into files or messages', () => {
    const warnings = [{ field: 'buffer_bytes', kind: 'approximated' as const, message: 'm' }];
    expect(settle({ status: 'fulfilled', value: { text: 'x', warnings } })).toEqual({ status: 'ready', text: 'x', warnings });
    expect(settle({ status: 'rejected', reason: new Error('levels[0].size_ratio must be at least 2') })).toEqual({
      status: 'failed',
      message: 'levels[0].size_ratio must be at least 2',
    });
    expect(settle({ status: 'rejected', reason: 'boom' })).toEqual({ status: 'failed', message: 'boom' });
  });

  it('summarises warnings by kind, in the words of the target', () => {
    const w = [
      { field: 'a', kind: 'dropped' as const, message: '' },
      { field: 'b', kind: 'approximated' as const, message: '' },
      { field: 'c', kind: 'approximated' as const, message: '' },
    ];
    expect(warningCounts(w)).toEqual({ dropped: 1, rounded: 0, approximated: 2 });
    expect(warningHeadline('rocksdb', w)).toBe('3 settings RocksDB cannot express exactly: 1 dropped, 2 approximated.');
    expect(warningHeadline('db_bench', w.slice(0, 1))).toBe('1 setting db_bench cannot express exactly: 1 dropped.');
    expect(warningHeadline('engine', [])).toBe('Lossless: the native engine reads every setting of this design as it is.');
    expect(tabBadge({ status: 'ready', text: '', warnings: w })).toBe('3');
    expect(tabBadge({ status: 'ready', text: '', warnings: [] })).toBeNull();
    expect(tabBadge({ status: 'failed', message: 'x' })).toBe('!');
    expect(tabBadge({ status: 'pending' })).toBeNull();
  });

  it('keys a request by content, not identity', () => {
    const c = preset('rocksdb');
    expect(requestKey(c, null)).toBe(requestKey(structuredClone(c), null));
    expect(requestKey(c, null)).not.toBe(requestKey(c, MIXED));
  });
});

describe('import kind', () => {
  it('guesses from the file name, then from the text', () => {
    expect(detectImportKind('[Version]\n', 'lsm-x.json')).toBe('engine');
    expect(detectImportKind('{}', 'OPTIONS-000007')).toBe('rocksdb');
    expect(detectImportKind('{}', 'options.ini')).toBe('rocksdb');
    expect(detectImportKind('  \n{ "kind": "lsm-navigator/engine-config" }')).toBe('engine');
    expect(detectImportKind('# RocksDB\n[CFOptions "default"]')).toBe('rocksdb');
  });
});

describe('export page URL state', () => {
  const spec = exportUrlSpec(INDEX);

  it('offers every preset of the index, plus a custom design, and defaults to RocksDB', () => {
    const ids = spec.params.design.options.map((o) => o.value);
    expect(ids).toEqual([...INDEX.presets.map((p) => p.id), CUSTOM_DESIGN]);
    expect(spec.params.design.default).toBe('rocksdb');
    expect(spec.presets?.map((p) => p.id)).toEqual(INDEX.presets.map((p) => p.id));
    expect(exportUrlSpec(INDEX)).toBe(spec);
  });

  it('round-trips through the link, and a bad value falls back with a notice', () => {
    const state = { ...defaultsOf(spec.params), design: 'moose', workload: 'mixed' as const, format: 'db_bench' as const };
    const q = encodeQuery(spec, state);
    expect(q).toBe('v=1&d=moose&w=mixed&f=db_bench');
    expect(decodeQuery(spec, q)).toEqual({ state, notices: [] });
    const bad = decodeQuery(spec, 'v=1&d=nosuchdb&f=engine');
    expect(bad.state.design).toBe('rocksdb');
    expect(bad.state.format).toBe('engine');
    expect(bad.notices).toHaveLength(1);
  });
});

describe('opening an engine design on the Moose page', () => {
  it('unrolls LevelDB’s two level specs over the Moose page’s data set', () => {
    const leveldb = preset('leveldb');
    const dataset = mooseDatasetFor(leveldb, null);
    expect(dataset).toEqual({ entries: 24_576_000, entryBytes: 1024, pageBytes: 4096 });
    const link = mooseLinkFor(leveldb, dataset);
    if ('problem' in link) throw new Error(link.problem);
    // 2 MiB / 1 KiB = 2048 entries; ×5 = 10,240; then ×10 per level: 102,400, 1,024,000,
    // 10,240,000 (11,376,640 so far), and a fifth level for the remaining 13,199,360.
    expect(link.state.ratios).toEqual([5, 10, 10, 10, 10]);
    expect(link.state.runs).toEqual([3, 1, 1, 1, 1]);
    expect(link.state.bits).toEqual([10, 10, 10, 10, 10]);
    expect(link.state.optimalFilters).toBe(false);
    expect(link.state.memoryBits).toBe(10);
    expect(link.state.bufferMiB).toBe(2);
    expect(link.notes).toEqual(['Moose merges whole levels; the design’s file-by-file compaction is not part of its model.']);
    // The Moose page reads the link without a notice, and the model accepts the table.
    const decoded = decodeQuery(mooseUrl, link.hash.replace(/^#\/moose\?/, ''));
    expect(decoded.notices).toEqual([]);
    expect(decoded.state).toEqual(link.state);
    const levels = link.state.ratios.map((r, i) => ({ sizeRatio: r, runs: link.state.runs[i] }));
    const entries = mooseLevelCapacities(dataset, levels, { bufferBytes: 2 * MIB }).entries;
    expect(entries[4]).toBe(24_576_000 - 11_376_640);
  });

  it('keeps Monkey’s allocation as the optimal split of the same bits per key', () => {
    const moose = preset('moose');
    const link = mooseLinkFor(moose, mooseDatasetFor(moose, null));
    if ('problem' in link) throw new Error(link.problem);
    // F = 1024; capacities 7168, 50176, 351232, 2047682.56, 9828876.3 (12,285,134.8 in all):
    // a sixth level, with the last spec (4.8, 2 runs), holds the remaining 12.29 M.
    expect(link.state.ratios).toEqual([7, 7, 7, 5.83, 4.8, 4.8]);
    expect(link.state.runs).toEqual([3, 3, 3, 2, 2, 2]);
    expect(link.state.optimalFilters).toBe(true);
    expect(link.state.memoryBits).toBe(10);
    expect(link.notes).toEqual([]);
  });

  it('uses the workload’s preload as the data set, and says when nothing reaches a level', () => {
    const leveldb = preset('leveldb');
    const dataset = mooseDatasetFor(leveldb, MIXED);
    expect(dataset).toEqual({ entries: 50_000, entryBytes: 80, pageBytes: 4096 });
    const link = mooseLinkFor(leveldb, dataset);
    if ('problem' in link) throw new Error(link.problem);
    // 2 MiB / 80 B = 26,214 entries; level 1 (×5) already holds all 50,000.
    expect(link.state.ratios).toEqual([5]);
    expect(link.state.runs).toEqual([3]);
    const rocks = preset('rocksdb');
    const fits = mooseLinkFor(rocks, mooseDatasetFor(rocks, MIXED));
    expect(fits).toEqual({ problem: 'The data set (50000 entries) fits in the write buffer, so the tree has no levels to show.' });
  });
});

describe('designs the pages export', () => {
  const ds = { entries: 2 ** 20, entryBytes: 1024, pageBytes: 4096 };

  it('the Monkey page: Monkey’s allocation and the uniform baseline', () => {
    const designs = monkeyPageDesigns(ds, { policy: 'leveling', sizeRatio: 4, bufferBytes: MIB, filterBitsPerEntry: 5 });
    expect(designs.map((d) => [d.id, d.slug, d.config?.filter])).toEqual([
      ['monkey', 'monkey-leveling-t4-5bpk', { allocation: 'monkey', bits_per_key: 5 }],
      ['uniform', 'uniform-leveling-t4-5bpk', { allocation: 'uniform', bits_per_key: 5 }],
    ]);
  });

  it('the holistic design', () => {
    const d = holisticDesign(ds, { policy: 'tiering', sizeRatio: 7.38905609893, bufferBytes: 3 * MIB, filterBitsPerEntry: 6.123456, allocation: 'monkey' });
    expect(d.slug).toBe('holistic-tiering-t7.389-6.123bpk');
    expect(d.config?.levels).toEqual([{ size_ratio: 7.38905609893, max_runs: 6 }]);
  });

  it('a Moose layout, a pending one, and one the engine cannot take', () => {
    const levels = [
      { sizeRatio: 10, runs: 1, bitsPerEntry: 8 },
      { sizeRatio: 10, runs: 2, bitsPerEntry: 4 },
    ];
    const small = { entries: 100_000, entryBytes: 100, pageBytes: 4096 };
    const d = mooseDesign('yours', 'Your layout', small, levels, 100_000);
    expect(d.slug).toBe('moose-10x1-10x2');
    expect(d.config?.levels.map((l) => l.max_runs)).toEqual([1, 2]);
    expect(mooseDesign('smoose', 'Smoose’s choice', small, undefined, 100_000)).toMatchObject({ config: null, problem: 'Smoose’s choice: still computing…' });
    const bad = mooseDesign('yours', 'Your layout', { ...small, pageBytes: 3000 }, levels, 100_000);
    expect(bad.config).toBeNull();
    expect(bad.problem).toMatch(/power of two/);
  });
});

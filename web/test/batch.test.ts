import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BatchWriter } from '../src/engine/batch';
import { initSync, WasmEngine } from '../src/wasm/pkg/lsm_engine.js';
import { CHECK_CONFIG, checkKey } from '../src/pages/lab/engineCheck';
import type { BatchResult, Stats, TreeShape } from '../src/documents/engine';

beforeAll(() => {
  const wasm = fs.readFileSync(path.resolve(__dirname, '../src/wasm/pkg/lsm_engine_bg.wasm'));
  initSync({ module: wasm });
});

describe('operation batches', () => {
  it('encode exactly the documented byte layout', () => {
    const bytes = new BatchWriter(4).put('ab', 'xyz').get('ab').delete('c').scan('a', 'b').finish();
    expect([...bytes]).toEqual([
      1, 2, 0, 97, 98, 3, 0, 0, 0, 120, 121, 122, // put "ab" = "xyz"
      3, 2, 0, 97, 98, // get "ab"
      2, 1, 0, 99, // delete "c"
      4, 1, 0, 97, 1, 0, 98, // scan ["a", "b"]
    ]);
  });

  it('drive the wasm engine: puts, gets, deletes and a scan give the expected results', () => {
    const engine = new WasmEngine(JSON.stringify({ ...CHECK_CONFIG, buffer_bytes: 4096 }));
    const load = new BatchWriter();
    for (let i = 0; i < 2_000; i++) load.put(checkKey(i), `value-${i}`);
    for (let i = 0; i < 2_000; i += 4) load.delete(checkKey(i));
    const loaded: BatchResult = JSON.parse(engine.apply(load.finish()));
    expect(loaded.puts).toBe(2_000);
    expect(loaded.deletes).toBe(500);

    const reads = new BatchWriter();
    for (let i = 0; i < 2_000; i++) reads.get(checkKey(i));
    reads.get('missing').scan(checkKey(100), checkKey(199));
    const r: BatchResult = JSON.parse(engine.apply(reads.finish()));
    expect(r.gets).toBe(2_001);
    expect(r.gets_found).toBe(1_500);
    expect(r.scanned_entries).toBe(75);

    const stats: Stats = JSON.parse(engine.stats_json());
    const tree: TreeShape = JSON.parse(engine.tree_json());
    expect(stats.ops[0]).toBe(2_000);
    expect(tree.levels.length).toBeGreaterThan(1);
    expect(new TextDecoder().decode(engine.get(new TextEncoder().encode(checkKey(7))))).toBe('value-7');
    engine.free();
  });

  it('reject a bad config naming the field and range', () => {
    expect(() => new WasmEngine(JSON.stringify({ ...CHECK_CONFIG, page_bytes: 1000 }))).toThrow(
      'page_bytes: must be a power of two in [256, 65536], got 1000',
    );
  });
});

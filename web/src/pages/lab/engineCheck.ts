/**
 * The end-to-end check of the stack: load N keys into a fresh engine in the worker, then run
 * lookups of which exactly half hit existing keys. Keys are even numbers, misses odd ones, so
 * the expected outcome is known exactly.
 */
import { BatchWriter } from '../../engine/batch';
import type { Snapshot } from '../../engine/protocol';
import type { BatchResult, EngineConfig } from '../../documents/engine';
import { withTask } from '../../engine/session';

export const CHECK_CONFIG: EngineConfig = {
  kind: 'lsm-navigator/engine-config',
  version: 1,
  name: 'engine check: leveling, T = 10, Monkey 10 bits/key',
  page_bytes: 4096,
  buffer_bytes: 1 << 20,
  levels: [{ size_ratio: 10, max_runs: 1 }],
  filter: { allocation: 'monkey', bits_per_key: 10 },
};

export function checkKey(i: number): string {
  return `key${String(i).padStart(10, '0')}`;
}

function value(i: number): Uint8Array {
  const v = new Uint8Array(100);
  for (let j = 0; j < v.length; j++) v[j] = (i * 31 + j) & 0xff;
  return v;
}

export interface CheckResult {
  keys: number;
  load: BatchResult;
  loadMillis: number;
  lookups: BatchResult;
  lookupMillis: number;
  after: Snapshot;
}

export function runEngineCheck(keys: number, lookups: number): Promise<CheckResult> {
  return withTask('engine check', async (client) => {
    await client.open('engine-check', 'memory', CHECK_CONFIG, true);
    const load = new BatchWriter(keys * 120);
    for (let i = 0; i < keys; i++) load.put(checkKey(i * 2), value(i));
    const loadBytes = load.finish();
    const loaded = await client.call('apply', { batch: loadBytes }, { transfer: [loadBytes.buffer] });
    const reads = new BatchWriter(lookups * 16);
    for (let j = 0; j < lookups; j++) {
      // Even j: an existing key spread over the key space; odd j: a key never written.
      const i = (j * 7919) % keys;
      reads.get(checkKey(j % 2 === 0 ? i * 2 : i * 2 + 1));
    }
    const readBytes = reads.finish();
    const looked = await client.call('apply', { batch: readBytes }, { transfer: [readBytes.buffer] });
    return {
      keys,
      load: loaded.result,
      loadMillis: loaded.millis,
      lookups: looked.result,
      lookupMillis: looked.millis,
      after: { stats: looked.stats, tree: looked.tree, stall: looked.stall },
    };
  });
}

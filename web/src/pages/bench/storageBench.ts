/**
 * The browser storage benchmark: the engine loading and reading N entries on memory, OPFS and
 * IndexedDB, against a plain `idb` key-value store doing the same puts and gets. Same key and
 * value sizes everywhere (16 B keys, 100 B values).
 */
import { engineClient } from '../../engine/client';
import { plainKvBenchmark } from '../../engine/idbStore';
import type { Backend } from '../../engine/protocol';
import type { PhysicalCalls } from '../../engine/opfsPool';
import type { EngineConfig, Workload } from '../../documents/engine';

export interface BenchRow {
  id: string;
  label: string;
  inserts: number;
  insertsPerSecond: number;
  lookups: number;
  lookupsPerSecond: number;
  /** OPFS rows: the file calls behind the figures (both phases). */
  physical?: PhysicalCalls;
}

async function fetchJson<T>(url: string): Promise<T> {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return (await r.json()) as T;
}

async function engineRow(backend: Backend, n: number, config: EngineConfig, workload: Workload): Promise<BenchRow> {
  const client = engineClient();
  const name = `bench-${backend}`;
  for (const d of await client.call('list', {})) if (d.name === name) await client.call('remove', { key: d.key });
  await client.call('open', { name, backend, config, create: true });
  const w: Workload = { ...workload, preload: { ...workload.preload, entries: n }, operations: n };
  const { report, physical } = await client.call('run', { workload: w, label: 'storage benchmark', timed: false });
  await client.call('close', {});
  const t = report.timings ?? { preload_ms: NaN, run_ms: NaN };
  const labels: Record<Backend, string> = { memory: 'engine, memory', opfs: 'engine, OPFS', idb: 'engine, IndexedDB' };
  return {
    id: `engine-${backend}`,
    label: labels[backend],
    inserts: n,
    insertsPerSecond: (n / t.preload_ms) * 1000,
    lookups: n,
    lookupsPerSecond: (n / t.run_ms) * 1000,
    physical,
  };
}

/** 16-byte pseudo-random keys (xorshift), the same for every run of a given n. */
export function benchKeys(n: number): Uint8Array<ArrayBuffer>[] {
  let s = 0x9e3779b97f4a7c15n;
  const keys: Uint8Array<ArrayBuffer>[] = [];
  for (let i = 0; i < n; i++) {
    const k = new Uint8Array(16);
    const v = new DataView(k.buffer);
    for (let j = 0; j < 2; j++) {
      s ^= s << 13n;
      s ^= s >> 7n;
      s ^= s << 17n;
      s &= 0xffffffffffffffffn;
      v.setBigUint64(j * 8, s);
    }
    keys.push(k);
  }
  return keys;
}

export async function runStorageBenchmark(n: number, onRow: (row: BenchRow) => void): Promise<BenchRow[]> {
  const config = await fetchJson<EngineConfig>('/examples/bench-config.json');
  const workload = await fetchJson<Workload>('/examples/bench-workload.json');
  const rows: BenchRow[] = [];
  for (const backend of ['memory', 'opfs', 'idb'] as const) {
    const row = await engineRow(backend, n, config, workload);
    rows.push(row);
    onRow(row);
  }
  const value = new Uint8Array(100).fill(0x61);
  const plain = await plainKvBenchmark(benchKeys(n), value, 10_000);
  const row: BenchRow = {
    id: 'plain-idb',
    label: 'plain idb key-value store',
    inserts: n,
    insertsPerSecond: (n / plain.putMillis) * 1000,
    lookups: n,
    lookupsPerSecond: (n / plain.getMillis) * 1000,
  };
  rows.push(row);
  onRow(row);
  return rows;
}

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
  /** Which run of the stores this row comes from (0 for the first). */
  repeat: number;
  inserts: number;
  insertsPerSecond: number;
  lookups: number;
  lookupsPerSecond: number;
  /** OPFS rows: the file calls behind the figures (both phases). */
  physical?: PhysicalCalls;
  /** Engine rows: the worker's memory (wasm, the OPFS chunk cache's peak, the two together at their peak, and — at scale — its whole heap as the browser measures it at the end). */
  memory?: { wasmBytes: number; cachePeakBytes: number; peakBytes: number; workerBytes: number | null };
  /** Engine rows: I/O per zero-result lookup, counted and predicted from the tree's filters (Σ FPR). */
  zeroResult?: { lookups: number; measured: number; predicted: number };
}

/** Up to this many entries every store runs; above it only the engine on OPFS (memory would hold the whole database in the worker, and IndexedDB takes many minutes). */
export const ALL_STORES_MAX_ENTRIES = 1_000_000;

/**
 * The lookups after the load: one per entry, half on missing keys, up to ALL_STORES_MAX_ENTRIES;
 * beyond it 4,000,000, 90% on missing keys — enough zero-result lookups (3.6M) that the ~2.5%
 * of them the filters let through is measured to ±0.35% (one standard error), while the existing
 * keys, each a page read from OPFS, stay few.
 */
export function benchLookups(n: number): { count: number; missingShare: number } {
  return n <= ALL_STORES_MAX_ENTRIES ? { count: n, missingShare: 0.5 } : { count: 4_000_000, missingShare: 0.9 };
}

/**
 * Storage a run needs at its peak, about: the entries with their filters and fences (16 B keys +
 * 100 B values, about 122 B stored), twice over while a merge still holds the runs it replaces.
 */
export const peakStoredBytes = (n: number) => 2 * n * 122;

type MeasureMemory = () => Promise<{ breakdown: { bytes: number; attribution: { scope?: string; url?: string }[] }[] }>;

/**
 * The engine worker's memory as the browser measures it (`measureUserAgentSpecificMemory`, in a
 * cross-origin isolated Chromium): everything its scope holds, wasm memory included. It waits for
 * a garbage collection, up to about 20 s, so only the large runs ask for it. Null where unavailable.
 */
async function engineWorkerBytes(): Promise<number | null> {
  const measure = (performance as Performance & { measureUserAgentSpecificMemory?: MeasureMemory }).measureUserAgentSpecificMemory;
  if (!measure || !crossOriginIsolated) return null;
  const m = await measure.call(performance);
  const mine = m.breakdown.filter((b) => b.attribution.some((a) => a.scope === 'DedicatedWorkerGlobalScope' && (a.url ?? '').includes('engine')));
  return mine.length > 0 ? mine.reduce((sum, b) => sum + b.bytes, 0) : null;
}

async function fetchJson<T>(url: string): Promise<T> {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return (await r.json()) as T;
}

/** Where a benchmark run stands: the store of how many, the phase, and the fraction of the whole run done (weighted by each phase's expected time). */
export interface BenchProgress {
  store: number;
  stores: number;
  label: string;
  phase: 'insert' | 'lookup' | 'memory';
  fraction: number;
}

/** Rates (ops/s) to weigh the stores by when no earlier run says better: what headless Chromium did here. */
const FALLBACK_RATES: Record<string, { inserts: number; lookups: number }> = {
  'engine-memory': { inserts: 400_000, lookups: 300_000 },
  'engine-opfs': { inserts: 200_000, lookups: 120_000 },
  'engine-idb': { inserts: 80_000, lookups: 80_000 },
  'plain-idb': { inserts: 40_000, lookups: 60_000 },
};

/** The stores a run of n entries measures, in order. */
export function benchStores(n: number): { id: string; label: string }[] {
  const engine = [
    { id: 'engine-memory', label: 'engine, memory' },
    { id: 'engine-opfs', label: 'engine, OPFS' },
    { id: 'engine-idb', label: 'engine, IndexedDB' },
  ];
  return n <= ALL_STORES_MAX_ENTRIES ? [...engine, { id: 'plain-idb', label: 'plain idb key-value store' }] : [engine[1]!];
}

/**
 * The expected seconds of each store's two phases (and, above ALL_STORES_MAX_ENTRIES, the worker's
 * memory measurement), from the rates of an earlier run (`prior`, the stored result) where it has
 * the store, else FALLBACK_RATES: the weights the progress bar moves by. Pure.
 */
export function benchWeights(n: number, prior: readonly StoreSummary[] | null): { id: string; label: string; insert: number; lookup: number; memory: number }[] {
  const lookups = benchLookups(n).count;
  return benchStores(n).map((s) => {
    const p = prior?.find((x) => x.id === s.id);
    const rates = p && p.inserts.median > 0 && p.lookups.median > 0 ? { inserts: p.inserts.median, lookups: p.lookups.median } : FALLBACK_RATES[s.id]!;
    return { ...s, insert: n / rates.inserts, lookup: lookups / rates.lookups, memory: n > ALL_STORES_MAX_ENTRIES ? 10 : 0 };
  });
}

async function engineRow(
  backend: Backend,
  n: number,
  config: EngineConfig,
  workload: Workload,
  repeat: number,
  onPhase: (phase: 'insert' | 'lookup' | 'memory', fraction: number) => void = () => undefined,
): Promise<BenchRow> {
  const client = engineClient();
  const name = `bench-${backend}`;
  for (const d of await client.call('list', {})) if (d.name === name) await client.call('remove', { key: d.key });
  await client.call('open', { name, backend, config, create: true });
  const { count: lookups, missingShare } = benchLookups(n);
  const w: Workload = {
    ...workload,
    preload: { ...workload.preload, entries: n },
    operations: lookups,
    mix: { get_existing: 1 - missingShare, get_missing: missingShare },
  };
  const { report, physical, memory } = await client.call(
    'run',
    { workload: w, label: 'storage benchmark', timed: false },
    { onProgress: (p) => p.total && onPhase(p.phase === 'preload' ? 'insert' : 'lookup', Math.min(1, p.done / p.total)) },
  );
  onPhase('lookup', 1);
  let workerBytes: number | null = null;
  if (n > ALL_STORES_MAX_ENTRIES) {
    onPhase('memory', 0);
    workerBytes = await engineWorkerBytes();
  }
  await client.call('close', {});
  const zero = report.summary.find((c) => c.class === 'get_zero_result');
  const t = report.timings ?? { preload_ms: NaN, run_ms: NaN };
  const labels: Record<Backend, string> = { memory: 'engine, memory', opfs: 'engine, OPFS', idb: 'engine, IndexedDB' };
  return {
    id: `engine-${backend}`,
    label: labels[backend],
    repeat,
    inserts: n,
    insertsPerSecond: (n / t.preload_ms) * 1000,
    lookups,
    lookupsPerSecond: (lookups / t.run_ms) * 1000,
    physical,
    memory: { ...memory, workerBytes },
    zeroResult: zero && zero.count > 0 ? { lookups: zero.count, measured: zero.io_per_op, predicted: report.predicted.zero_result_lookup_io } : undefined,
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

/** Every store `repeats` times, in turn (memory, OPFS, IndexedDB, plain idb, then again), so a slow spell of the machine touches all of them alike. */
export async function runStorageBenchmark(
  n: number,
  repeats: number,
  onRow: (row: BenchRow) => void,
  onProgress: (p: BenchProgress) => void = () => undefined,
  prior: readonly StoreSummary[] | null = null,
): Promise<BenchRow[]> {
  const config = await fetchJson<EngineConfig>('/examples/bench-config.json');
  const workload = await fetchJson<Workload>('/examples/bench-workload.json');
  const rows: BenchRow[] = [];
  const keys = n <= ALL_STORES_MAX_ENTRIES ? benchKeys(n) : [];
  const everyStore = n <= ALL_STORES_MAX_ENTRIES;
  // The progress of the whole run: every phase of every store of every repeat, weighted by its expected time.
  const weights = benchWeights(n, prior);
  const perRepeat = weights.reduce((t, w) => t + w.insert + w.lookup + w.memory, 0);
  const total = perRepeat * repeats;
  const report = (repeat: number, store: number, phase: BenchProgress['phase'], f: number) => {
    const w = weights[store]!;
    const before = repeat * perRepeat + weights.slice(0, store).reduce((t, x) => t + x.insert + x.lookup + x.memory, 0);
    const within = phase === 'insert' ? w.insert * f : phase === 'lookup' ? w.insert + w.lookup * f : w.insert + w.lookup + w.memory * f;
    onProgress({ store: repeat * weights.length + store + 1, stores: weights.length * repeats, label: w.label, phase, fraction: Math.min(1, (before + within) / total) });
  };
  for (let repeat = 0; repeat < repeats; repeat++) {
    const backends = everyStore ? (['memory', 'opfs', 'idb'] as const) : (['opfs'] as const);
    for (const [i, backend] of backends.entries()) {
      const store = everyStore ? i : 0;
      report(repeat, store, 'insert', 0);
      const row = await engineRow(backend, n, config, workload, repeat, (phase, f) => report(repeat, store, phase, f));
      rows.push(row);
      onRow(row);
    }
    if (!everyStore) continue;
    const value = new Uint8Array(100).fill(0x61);
    report(repeat, 3, 'insert', 0);
    const plain = await plainKvBenchmark(keys, value, 10_000, (phase, done) => report(repeat, 3, phase === 'put' ? 'insert' : 'lookup', done / n));
    const row: BenchRow = {
      id: 'plain-idb',
      label: 'plain idb key-value store',
      repeat,
      inserts: n,
      insertsPerSecond: (n / plain.putMillis) * 1000,
      lookups: n,
      lookupsPerSecond: (n / plain.getMillis) * 1000,
    };
    rows.push(row);
    onRow(row);
  }
  return rows;
}

/** A store's rates over the repeats: median and range, and the median ratio to the plain store. */
export interface StoreSummary {
  id: string;
  label: string;
  runs: number;
  inserts: { median: number; min: number; max: number };
  lookups: { median: number; min: number; max: number };
  /** Median over repeats of (this store ÷ plain idb, same repeat); null without a plain row. */
  insertsVsPlain: number | null;
  lookupsVsPlain: number | null;
  /** The OPFS file calls of the last repeat. */
  physical?: PhysicalCalls;
  /** Engine stores: the most memory any repeat used. */
  memory?: { wasmBytes: number; cachePeakBytes: number; peakBytes: number; workerBytes: number | null };
  /** Engine stores: zero-result lookup I/O of the last repeat. */
  zeroResult?: BenchRow['zeroResult'];
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const spread = (xs: number[]) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs) });

function peakMemory(rows: readonly BenchRow[]): StoreSummary['memory'] {
  const ms = rows.flatMap((r) => (r.memory ? [r.memory] : []));
  if (ms.length === 0) return undefined;
  const known = ms.flatMap((m) => (m.workerBytes === null ? [] : [m.workerBytes]));
  return {
    wasmBytes: Math.max(...ms.map((m) => m.wasmBytes)),
    cachePeakBytes: Math.max(...ms.map((m) => m.cachePeakBytes)),
    peakBytes: Math.max(...ms.map((m) => m.peakBytes)),
    workerBytes: known.length > 0 ? Math.max(...known) : null,
  };
}

/** The rows of every repeat, per store in the order first seen. Pure. */
export function summarizeBench(rows: readonly BenchRow[]): StoreSummary[] {
  const ids = [...new Set(rows.map((r) => r.id))];
  const plainOf = (repeat: number) => rows.find((r) => r.id === 'plain-idb' && r.repeat === repeat);
  return ids.map((id) => {
    const mine = rows.filter((r) => r.id === id);
    const ratios = (pick: (r: BenchRow) => number) => {
      const rs = mine.flatMap((r) => {
        const p = plainOf(r.repeat);
        return p ? [pick(r) / pick(p)] : [];
      });
      return rs.length > 0 ? median(rs) : null;
    };
    return {
      id,
      label: mine[0].label,
      runs: mine.length,
      inserts: spread(mine.map((r) => r.insertsPerSecond)),
      lookups: spread(mine.map((r) => r.lookupsPerSecond)),
      insertsVsPlain: ratios((r) => r.insertsPerSecond),
      lookupsVsPlain: ratios((r) => r.lookupsPerSecond),
      physical: mine.at(-1)?.physical,
      memory: peakMemory(mine),
      zeroResult: mine.at(-1)?.zeroResult,
    };
  });
}

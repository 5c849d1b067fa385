/// <reference lib="webworker" />
/**
 * The engine worker: owns the wasm LSM engine and its storage so the page's main thread never
 * runs either. Storage is memory, OPFS (sync access handles, only available in a dedicated
 * worker) or IndexedDB (the engine journals its file changes; after every engine call they are
 * written in one transaction, and only then is the call's work acknowledged).
 */
import init, {
  export_design,
  export_ycsb,
  fit_trace,
  fit_rocksdb_log,
  import_ycsb,
  import_db_bench,
  ycsb_core_workload,
  import_config,
  tune_with,
  tune_bundle,
  calibrate,
  time_cost,
  drifted_workload,
  validate_config,
  validate_workload,
  WasmEngine,
  WasmGrowth,
  WasmWriteAmp,
} from '../wasm/pkg/lsm_engine.js';
import wasmUrl from '../wasm/pkg/lsm_engine_bg.wasm?url';
import {
  type Backend,
  type Change,
  type DatabaseInfo,
  type RunState,
  deleteIdbFiles,
  fileSizes,
  forgetDatabase,
  getDatabase,
  listDatabases,
  loadFiles,
  persistJournal,
  saveDatabase,
} from './idbStore';
import { acquireDatabaseLock, databasesInUse, inUseMessage, type HeldLock } from './dbLock';
import { deleteOpfsDatabase, opfsDatabaseBytes, OpfsPool, type PhysicalCalls } from './opfsPool';
import { probeOpfs } from './opfsProbe';
import type { Kind, Progress, RequestMessage, Requests, Responses, ResponseMessage, Session, Snapshot } from './protocol';
import type { EngineConfig, Recovery, Report, RunProgress, RunRecord } from '../documents/engine';

declare const self: DedicatedWorkerGlobalScope;

const ready = init({ module_or_path: wasmUrl });
/**
 * The worker's memory budget: the engine's wasm memory plus the OPFS chunk cache, which gives way
 * as the database (its filters and fence pointers) makes the wasm memory grow.
 */
const MEMORY_BUDGET_BYTES = 256 * 1024 * 1024;

/** Free OPFS slots kept open between engine calls. */
const SPARE_SLOTS = 48;
/** Aim for engine calls of about this long, so progress is smooth and a cancel is quick. */
const STEP_TARGET_MS = 80;
/**
 * How often a run on OPFS mirrors the database's record of it into the list's registry (an
 * IndexedDB put, off the OPFS path). On IndexedDB the registry goes in every step's transaction.
 */
const MIRROR_MS = 250;

interface Open {
  name: string;
  backend: Backend;
  engine: WasmEngine;
  pool: OpfsPool | null;
  nextSeq: Map<string, number> | null;
  /** IndexedDB: each file's bytes, kept with the journal (the listed size). */
  sizes: Map<string, number> | null;
  info: DatabaseInfo | null;
  /** When the registry last got the run's record (performance.now()). */
  mirroredAt: number;
  /** This tab's hold on a stored database (dbLock.ts); null in memory. */
  lock: HeldLock | null;
  /** The most the wasm memory and the OPFS chunk cache held together, at the end of a step. */
  peakBytes: number;
}

let db: Open | null = null;
let running = false;
let cancelRequested = false;
/** Set while an open waits for another tab to let go of its database; a cancel aborts it. */
let waiting: AbortController | null = null;

function current(): Open {
  if (!db) throw new Error('no database is open: open or create one first');
  return db;
}

function snapshot(e: WasmEngine): Snapshot {
  return { stats: JSON.parse(e.stats_json()), tree: JSON.parse(e.tree_json()), stall: JSON.parse(e.write_stall_json()) };
}

function notWhileRunning(what: string): void {
  if (running) throw new Error(`${what} is not possible while a workload is running; cancel it first`);
}

/**
 * Make the last engine call's changes durable (IndexedDB, with the registry entry in the same
 * transaction), and keep OPFS slots available.
 */
async function persist(o: Open): Promise<void> {
  if (o.backend === 'idb' && o.nextSeq) {
    const journal = o.engine.take_journal() as Change[];
    try {
      const info = o.info ? { ...o.info, run: runState(o) ?? o.info.run } : undefined;
      const stored = await persistJournal(o.name, journal, o.nextSeq, o.sizes ?? undefined, info);
      if (stored) o.info = stored;
    } catch (err) {
      // The stored copy is still the last committed state; the engine in memory is ahead of it
      // and can no longer be persisted consistently, so it is closed.
      await closeCurrent();
      const why = err instanceof DOMException && err.name === 'QuotaExceededError' ? 'the storage quota is full' : String(err);
      throw new Error(`IndexedDB write failed (${why}); "${o.name}" keeps its state as of the last completed step — reopen it`, { cause: err });
    }
  }
  const wasmBytes = (await ready).memory.buffer.byteLength;
  o.peakBytes = Math.max(o.peakBytes, wasmBytes + (o.pool?.cacheBytes ?? 0));
  if (o.pool) await o.pool.reserve(SPARE_SLOTS);
}

/** Bytes the database's files hold: the pool's slots (OPFS) or the stored chunks (IndexedDB). */
function storedBytes(o: Open): number {
  if (o.pool) return o.pool.bytes();
  return [...(o.sizes?.values() ?? [])].reduce((n, b) => n + b, 0);
}

/** The engine's own record of the run in progress or last run, as the registry keeps it. */
function runState(o: Open): RunState | null {
  const rec = JSON.parse(o.engine.last_run_json()) as RunRecord | null;
  if (!rec) return null;
  return {
    label: rec.start.label,
    planned: rec.start.planned_operations ?? null,
    acknowledged: rec.acknowledged.operations,
    writes: rec.acknowledged.writes,
    state: rec.end ? rec.end.outcome : 'running',
    result: rec.end?.result ?? null,
    recovered: null,
  };
}

/** Store the registry entry with the true size now (and the patch). */
async function touch(o: Open, patch: Partial<DatabaseInfo> = {}): Promise<void> {
  if (!o.info) return;
  o.info = { ...o.info, ...patch, lastUsed: Date.now(), bytes: storedBytes(o) };
  o.mirroredAt = performance.now();
  await saveDatabase(o.info);
}

/** Call the engine; if OPFS ran out of open slots, open more and try again. */
async function withSlots<T>(o: Open, call: () => T): Promise<T> {
  for (;;) {
    try {
      return call();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (!o.pool || !message.includes('no free OPFS file slot')) throw err;
      await o.pool.reserve(o.pool.freeSlots + SPARE_SLOTS);
    }
  }
}

async function closeCurrent(): Promise<void> {
  if (!db) return;
  const o = db;
  db = null;
  o.engine.free();
  o.pool?.close();
  o.lock?.release();
}

/** Take a stored database's lock, or say it is open in another tab (or wait for it, if asked). */
async function lockFor(key: string, name: string, wait: boolean): Promise<HeldLock> {
  if (!wait) {
    const lock = await acquireDatabaseLock(key);
    if (!lock) throw new Error(inUseMessage(name));
    return lock;
  }
  waiting = new AbortController();
  try {
    const lock = await acquireDatabaseLock(key, waiting.signal);
    if (!lock) throw new Error(inUseMessage(name));
    return lock;
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw new Error(`stopped waiting for "${name}"`, { cause: err });
    throw err;
  } finally {
    waiting = null;
  }
}

async function open({ name, backend, config, create, wait }: Requests['open']): Promise<Session> {
  notWhileRunning('opening a database');
  await closeCurrent();
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(name)) {
    throw new Error(`name: use 1 to 64 letters, digits, '.', '_' or '-', got "${name}"`);
  }
  const key = `${backend}/${name}`;
  const known = backend === 'memory' ? undefined : await getDatabase(key);
  if (create && known) throw new Error(`name: a ${backend === 'opfs' ? 'OPFS' : 'IndexedDB'} database "${name}" already exists`);
  if (!create && backend !== 'memory' && !known) throw new Error(`no ${backend} database named "${name}"`);
  const configJson = create && config ? JSON.stringify(config) : undefined;
  if (create && !config) throw new Error('config: a new database needs an EngineConfig');
  let engine: WasmEngine;
  let pool: OpfsPool | null = null;
  let nextSeq: Map<string, number> | null = null;
  let sizes: Map<string, number> | null = null;
  const lock = backend === 'memory' ? null : await lockFor(key, name, wait ?? false);
  try {
    if (backend === 'memory') {
      engine = new WasmEngine(JSON.stringify(config));
    } else if (backend === 'opfs') {
      pool = await OpfsPool.open(name, create);
      const { memory } = await ready;
      pool.shareMemory(MEMORY_BUDGET_BYTES, () => memory.buffer.byteLength);
      try {
        engine = WasmEngine.open_opfs(pool, configJson);
      } catch (err) {
        pool.close();
        throw err;
      }
    } else {
      const files = await loadFiles(name);
      nextSeq = files.nextSeq;
      sizes = fileSizes(files);
      engine = WasmEngine.open_journaled(files.names, files.contents, configJson);
    }
  } catch (err) {
    lock?.release();
    throw err;
  }
  const stored: EngineConfig = JSON.parse(engine.config_json());
  const now = Date.now();
  const info: DatabaseInfo | null =
    backend === 'memory'
      ? null
      : known ?? { key, name, backend, created: now, lastUsed: now, lastRun: null, bytes: 0, configName: stored.name ?? '' };
  const o: Open = { name, backend, engine, pool, nextSeq, sizes, info, lock, peakBytes: 0, mirroredAt: 0 };
  db = o;
  const recovery = JSON.parse(engine.recovery_json()) as Recovery;
  await persist(o); // opening may have cut a torn log tail or created the first files
  // The database's own record replaces the registry's mirror of it.
  await touch(o, recordedRun(recovery, info));
  const s = snapshot(engine);
  return { ...s, name, backend, config: stored, recovered: s.stats.wal_records_replayed, recovery };
}

/** The registry's view of the run a reopened database recorded: interrupted, with what was recovered. */
function recordedRun(recovery: Recovery, info: DatabaseInfo | null): Partial<DatabaseInfo> {
  const rec = recovery.run;
  if (!rec) return {};
  const interrupted = rec.end === null || rec.end === undefined;
  const run: RunState = {
    label: rec.start.label,
    planned: rec.start.planned_operations ?? null,
    acknowledged: rec.acknowledged.operations,
    writes: rec.acknowledged.writes,
    state: interrupted ? 'interrupted' : (rec.end?.outcome ?? 'finished'),
    result: rec.end?.result ?? null,
    recovered: interrupted
      ? {
          entries: recovery.entries,
          logRecords: recovery.log_records_replayed,
          logBytesCut: recovery.log_bytes_cut,
          orphanTables: recovery.orphan_tables,
          orphanBytes: recovery.orphan_bytes,
        }
      : null,
  };
  // Keep what an earlier open found: a second open of the same interrupted database replays nothing more.
  if (interrupted && info?.run?.state === 'interrupted' && info.run.recovered && info.run.label === run.label) run.recovered = info.run.recovered;
  return { run, lastRun: interrupted ? `${rec.start.label} (interrupted)` : (info?.lastRun ?? rec.start.label) };
}

/** The stored databases, each marked if another tab has it open. */
async function listed(): Promise<Responses['list']> {
  const [all, inUse] = await Promise.all([listDatabases(), databasesInUse()]);
  const mine = db ? `${db.backend}/${db.name}` : null;
  return Promise.all(
    all.map(async (d) => {
      // The size as the files hold it now: the registry's figure is only the last one written.
      const measured = d.key === mine && db ? storedBytes(db) : d.backend === 'opfs' ? await opfsDatabaseBytes(d.name) : null;
      return { ...d, bytes: measured ?? d.bytes, openElsewhere: d.key !== mine && inUse.has(d.key) };
    }),
  );
}

function progressOf(p: RunProgress, opsPerSecond: number): Progress {
  const preload = p.phase === 'preload';
  const done = preload ? p.preload_done : p.run_done;
  const total = preload ? p.preload_total : p.run_total;
  const left = total === null ? null : Math.max(0, total - done) + (preload ? (p.run_total ?? 0) : 0);
  return {
    phase: p.phase,
    done,
    total,
    opsPerSecond,
    etaSeconds: left === null || opsPerSecond <= 0 ? null : left / opsPerSecond,
    raw: p,
  };
}

/** The calls made since `before` (the pool's tallies only grow). */
function callsSince(now: PhysicalCalls, before: PhysicalCalls): PhysicalCalls {
  const diff = (k: keyof PhysicalCalls) => ({ count: now[k].count - before[k].count, ms: now[k].ms - before[k].ms });
  return { read: diff('read'), write: diff('write'), flush: diff('flush'), truncate: diff('truncate') };
}

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The engine's one long task: call `step(chunk)` until it reports the end or a cancel arrives,
 * sizing chunks so each call takes about STEP_TARGET_MS and posting progress after each.
 * `measured` gets each step's progress and time. Returns whether the task was cancelled.
 */
async function stepped(
  id: number,
  firstChunk: number,
  step: (chunk: number) => Promise<RunProgress>,
  measured: (p: RunProgress, elapsed: number) => void = () => {},
): Promise<boolean> {
  running = true;
  cancelRequested = false;
  let chunk = firstChunk;
  let rate = 0;
  try {
    for (;;) {
      if (cancelRequested) return true;
      const t0 = performance.now();
      const p = await step(chunk);
      const elapsed = Math.max(performance.now() - t0, 0.01);
      measured(p, elapsed);
      const opsPerSecond = (chunk / elapsed) * 1000;
      rate = rate === 0 ? opsPerSecond : 0.7 * rate + 0.3 * opsPerSecond;
      chunk = Math.round(Math.min(500_000, Math.max(200, (chunk * STEP_TARGET_MS) / elapsed)));
      self.postMessage({ id, type: 'progress', progress: progressOf(p, rate) } satisfies ResponseMessage);
      if (p.phase === 'done') return false;
      await nextTask(); // let a cancel message in
    }
  } finally {
    running = false;
  }
}

async function run(req: Requests['run'], id: number): Promise<Responses['run']> {
  notWhileRunning('starting a workload');
  const o = current();
  if (req.workload) o.engine.start_workload(JSON.stringify(req.workload));
  else if (req.trace) o.engine.start_trace(req.trace.name, req.trace.text, req.trace.keyBytes);
  else throw new Error('run: give a workload or a trace');
  // Set for every run: a reused database must not keep the mode of the run before.
  o.engine.set_merges(req.merges ?? 'paced');
  if (req.timed !== false) o.engine.time_operations();
  // A stored database records the run in its own files (every step acknowledges what it did),
  // so a reopen after the page or browser died can say it was interrupted, and where.
  const recorded = o.backend !== 'memory';
  if (recorded) {
    await withSlots(o, () => o.engine.begin_run(req.label));
    await persist(o);
    await touch(o, { run: runState(o) });
  }
  const started = performance.now();
  const callsBefore = o.pool ? structuredClone(o.pool.calls) : null;
  const ms = { preload: 0, run: 0 };
  let preloadDone = 0;
  const cancelled = await stepped(
    id,
    2_000,
    async (chunk) => {
      const p: RunProgress = JSON.parse(await withSlots(o, () => o.engine.run_steps(chunk)));
      await persist(o);
      if (recorded && o.backend === 'opfs' && performance.now() - o.mirroredAt >= MIRROR_MS) await touch(o, { run: runState(o) });
      return p;
    },
    (p, elapsed) => {
      // A step never spans both phases (the engine stops at the preload's end), so its time
      // belongs to the phase whose count it advanced.
      ms[p.preload_done > preloadDone ? 'preload' : 'run'] += elapsed;
      preloadDone = p.preload_done;
    },
  );
  const report: Report = JSON.parse(o.engine.report_json(ms.preload, ms.run));
  if (recorded) {
    const seconds = (performance.now() - started) / 1000;
    const ops = report.preload_operations + Object.values(report.operations).reduce((n, c) => n + c, 0);
    await withSlots(o, () => o.engine.end_run(cancelled, `${ops.toLocaleString('en-US')} operations in ${seconds.toFixed(1)} s`));
    await persist(o);
  }
  await touch(o, { lastRun: `${req.label}${cancelled ? ' (cancelled)' : ''}`, ...(recorded ? { run: runState(o) } : {}) });
  const physical = o.pool && callsBefore ? callsSince(o.pool.calls, callsBefore) : undefined;
  const memory = { wasmBytes: (await ready).memory.buffer.byteLength, cachePeakBytes: o.pool?.peakCachedBytes ?? 0, peakBytes: o.peakBytes };
  return { report, cancelled, millis: performance.now() - started, physical, memory, ...snapshot(o.engine) };
}

/** A steppable measurement in wasm (`step(n)` → {done, total, finished}, `result_json()`). */
interface Experiment {
  step(maxOps: number): string;
  result_json(): string;
  free(): void;
}

/** Step an experiment like a run, so progress flows and a cancel stops it; a cancel keeps what it measured so far. */
async function experiment<R>(exp: Experiment, id: number, firstChunk: number): Promise<{ result: R; cancelled: boolean; millis: number }> {
  const started = performance.now();
  try {
    const cancelled = await stepped(id, firstChunk, async (chunk) => {
      const p: { done: number; total: number; finished: boolean } = JSON.parse(exp.step(chunk));
      return { phase: p.finished ? 'done' : 'run', preload_done: 0, preload_total: 0, run_done: p.done, run_total: p.total };
    });
    return { result: JSON.parse(exp.result_json()) as R, cancelled, millis: performance.now() - started };
  } finally {
    exp.free();
  }
}

/** Monkey's Fig 12A on in-memory engines. */
async function growth(req: Requests['growth'], id: number): Promise<Responses['growth']> {
  notWhileRunning('measuring filter growth');
  return experiment(new WasmGrowth(JSON.stringify(req.spec)), id, 5_000);
}

/** Write amplification by destination level on an in-memory engine. */
async function writes(req: Requests['writes'], id: number): Promise<Responses['writes']> {
  notWhileRunning('measuring write amplification');
  return experiment(new WasmWriteAmp(JSON.stringify(req.spec)), id, 20_000);
}

type Handlers = { [K in Kind]: (payload: Requests[K], id: number) => Promise<Responses[K]> | Responses[K] };

const handlers: Handlers = {
  open,
  async close() {
    notWhileRunning('closing the database');
    await closeCurrent();
    return {};
  },
  async apply({ batch }) {
    notWhileRunning('applying operations');
    const o = current();
    const start = performance.now();
    const result = JSON.parse(await withSlots(o, () => o.engine.apply(batch)));
    await persist(o);
    return { result, millis: performance.now() - start, ...snapshot(o.engine) };
  },
  run,
  growth,
  writes,
  cancel() {
    cancelRequested = running;
    const stopWaiting = waiting !== null;
    waiting?.abort();
    return { cancelling: running || stopWaiting };
  },
  async step({ pages }) {
    notWhileRunning('stepping merges');
    const o = current();
    const more = await withSlots(o, () => o.engine.step(pages));
    await persist(o);
    return { more, ...snapshot(o.engine) };
  },
  async flush() {
    notWhileRunning('flushing');
    const o = current();
    await withSlots(o, () => o.engine.flush());
    await persist(o);
    return snapshot(o.engine);
  },
  get({ key }) {
    notWhileRunning('reading a key');
    const value = current().engine.get(new TextEncoder().encode(key));
    return { value: value === undefined ? null : new TextDecoder().decode(value) };
  },
  setAutoCompact({ on }) {
    const o = current();
    o.engine.auto_compact = on;
    return snapshot(o.engine);
  },
  snapshot() {
    return snapshot(current().engine);
  },
  list() {
    return listed();
  },
  async remove({ key }) {
    notWhileRunning('deleting a database');
    const info = await getDatabase(key);
    if (!info) throw new Error(`no database ${key}`);
    if (db && `${db.backend}/${db.name}` === key) await closeCurrent();
    const lock = await acquireDatabaseLock(key);
    if (!lock) throw new Error(`${inUseMessage(info.name)} It was not deleted.`);
    try {
      if (info.backend === 'opfs') await deleteOpfsDatabase(info.name);
      else await deleteIdbFiles(info.name);
      await forgetDatabase(key);
    } finally {
      lock.release();
    }
    return listed();
  },
  async estimate() {
    const e = await navigator.storage.estimate();
    return { usage: e.usage ?? 0, quota: e.quota ?? 0 };
  },
  export({ config, format, workload }) {
    return JSON.parse(export_design(JSON.stringify(config), format, workload ? JSON.stringify(workload) : ''));
  },
  import({ text, kind }) {
    return JSON.parse(import_config(text, kind));
  },
  validate({ config, workload }) {
    if (config) validate_config(JSON.stringify(config));
    if (workload) validate_workload(JSON.stringify(workload));
    return { ok: true };
  },
  ycsbImport({ text, file }) {
    return JSON.parse(import_ycsb(text, file));
  },
  dbBenchImport({ text }) {
    return JSON.parse(import_db_bench(text));
  },
  ycsbCore({ letter, records, operations }) {
    return { text: ycsb_core_workload(letter, records, operations) };
  },
  ycsbExport({ workload }) {
    return JSON.parse(export_ycsb(JSON.stringify(workload)));
  },
  fitTrace({ name, text, keyBytes }) {
    return JSON.parse(fit_trace(name, text, keyBytes));
  },
  fitRocksdbLog({ name, log, options }) {
    return JSON.parse(fit_rocksdb_log(name, log, options));
  },
  tune({ config, workload, options }) {
    const started = performance.now();
    const result = JSON.parse(tune_with(JSON.stringify(config), JSON.stringify(workload), JSON.stringify(options)));
    return { result, millis: performance.now() - started };
  },
  drifted({ workload, mix }) {
    return { workload: JSON.parse(drifted_workload(JSON.stringify(workload), JSON.stringify(mix))) };
  },
  async calibrate({ config }) {
    const device = await probeOpfs(config.page_bytes);
    return { calibration: JSON.parse(calibrate(JSON.stringify(config), JSON.stringify(device))) };
  },
  timeCost({ io, mix, calibration }) {
    return JSON.parse(time_cost(JSON.stringify(io), JSON.stringify(mix), JSON.stringify(calibration)));
  },
  tuneBundle({ result, proof, optionsText }) {
    return { files: JSON.parse(tune_bundle(JSON.stringify(result), proof ? JSON.stringify(proof) : '', optionsText ?? '')) };
  },
};

self.onmessage = async (event: MessageEvent<RequestMessage>) => {
  const { id, kind, payload } = event.data;
  let reply: ResponseMessage;
  try {
    await ready;
    const handler = handlers[kind] as (p: typeof payload, id: number) => Promise<Responses[Kind]> | Responses[Kind];
    reply = { id, type: 'result', ok: true, result: await handler(payload, id) };
  } catch (err) {
    reply = { id, type: 'result', ok: false, error: err instanceof Error ? err.message : String(err) };
  }
  self.postMessage(reply);
};

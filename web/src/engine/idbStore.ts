/**
 * IndexedDB persistence (through `idb`) for the engine's journaled backend, and the registry of
 * stored databases for both persistent backends.
 *
 * A database's files are stored as chunks keyed [database, file, seq]; a file is its chunks in
 * seq order. The engine keeps the files in memory and journals every change; after each engine
 * call the worker writes the whole journal in ONE readwrite transaction, so the stored copy moves
 * atomically from one consistent state to the next (tables are immutable: a new table is one
 * chunk, a log grows by one chunk per step).
 */
import { type DBSchema, type IDBPDatabase, openDB } from 'idb';

export type Backend = 'memory' | 'opfs' | 'idb';

/**
 * The database's last run as the list shows it. While a run goes on, the worker mirrors the
 * engine's own record of it (the database's run log, lsm-engine's `run_log`) here every quarter
 * second, so the list can say a run was cut off without opening the database; opening it
 * replaces this with the engine's record and what recovery found.
 */
export interface RunState {
  label: string;
  /** Operations the run planned (preload and run), when known. */
  planned: number | null;
  /** Operations acknowledged (done, their writes durable): as last mirrored while `running`, as the database recorded them otherwise. */
  acknowledged: number;
  /** Of those, the writes. */
  writes: number;
  /**
   * `running`: begun and not ended — if no tab has the database open, it was interrupted (the list
   * says so) and the figures may lag the database's own record by up to a quarter second.
   * `interrupted`: the database itself said so when it was opened (the figures are its record's).
   */
  state: 'running' | 'finished' | 'cancelled' | 'interrupted';
  /** Finished or cancelled: the result in a line. */
  result: string | null;
  /** Interrupted and then opened: what the reopen recovered. */
  recovered: { entries: number; logRecords: number; logBytesCut: number; orphanTables: number; orphanBytes: number } | null;
}

export interface DatabaseInfo {
  /** `${backend}/${name}` */
  key: string;
  name: string;
  backend: Exclude<Backend, 'memory'>;
  created: number;
  lastUsed: number;
  /** Description of the last workload run on it, if any. */
  lastRun: string | null;
  /** The last run's record (absent in entries stored before runs were recorded). */
  run?: RunState | null;
  /**
   * Bytes the database's files hold on storage. The list measures OPFS databases' files when it
   * is drawn; IndexedDB keeps this in the same transaction as the files' chunks.
   */
  bytes: number;
  configName: string;
}

interface Chunk {
  db: string;
  file: string;
  seq: number;
  bytes: Uint8Array;
}

interface Schema extends DBSchema {
  chunks: { key: [string, string, number]; value: Chunk };
  databases: { key: string; value: DatabaseInfo };
}

export type Change =
  | { op: 'append'; file: string; bytes: Uint8Array }
  | { op: 'truncate'; file: string; len: number }
  | { op: 'delete'; file: string };

let connection: Promise<IDBPDatabase<Schema>> | null = null;

function idb(): Promise<IDBPDatabase<Schema>> {
  connection ??= openDB<Schema>('lsm-navigator', 1, {
    upgrade(db) {
      db.createObjectStore('chunks', { keyPath: ['db', 'file', 'seq'] });
      db.createObjectStore('databases', { keyPath: 'key' });
    },
  });
  return connection;
}

const fileRange = (db: string, file: string) => IDBKeyRange.bound([db, file, 0], [db, file, Infinity]);
const dbRange = (db: string) => IDBKeyRange.bound([db, '', 0], [db, '\uffff', Infinity]);

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The files of one stored database, plus the next chunk number of each. */
export interface StoredFiles {
  names: string[];
  contents: Uint8Array[];
  nextSeq: Map<string, number>;
}

export async function loadFiles(db: string): Promise<StoredFiles> {
  const chunks = await (await idb()).getAll('chunks', dbRange(db));
  const byFile = new Map<string, Chunk[]>();
  for (const c of chunks) {
    const list = byFile.get(c.file) ?? [];
    list.push(c);
    byFile.set(c.file, list);
  }
  const names: string[] = [];
  const contents: Uint8Array[] = [];
  const nextSeq = new Map<string, number>();
  for (const [file, list] of byFile) {
    list.sort((a, b) => a.seq - b.seq);
    names.push(file);
    contents.push(concat(list.map((c) => c.bytes)));
    nextSeq.set(file, list[list.length - 1].seq + 1);
  }
  return { names, contents, nextSeq };
}

/** Bytes of each file, from the stored files; `persistJournal` keeps it up to date. */
export function fileSizes(files: StoredFiles): Map<string, number> {
  return new Map(files.names.map((n, i) => [n, files.contents[i].length]));
}

/**
 * Write one journal atomically. `nextSeq` and `sizes` are updated in place; `info`, if given, is
 * stored in the same transaction with `bytes` set from `sizes` (so the listed size never lags the files).
 */
export async function persistJournal(
  db: string,
  journal: Change[],
  nextSeq: Map<string, number>,
  sizes?: Map<string, number>,
  info?: DatabaseInfo,
): Promise<DatabaseInfo | undefined> {
  if (journal.length === 0 && !info) return undefined;
  const tx = (await idb()).transaction(['chunks', 'databases'], 'readwrite');
  const store = tx.objectStore('chunks');
  const pending: Promise<unknown>[] = [];
  for (const change of journal) {
    if (change.op === 'append') {
      const seq = nextSeq.get(change.file) ?? 0;
      nextSeq.set(change.file, seq + 1);
      pending.push(store.put({ db, file: change.file, seq, bytes: change.bytes }));
      sizes?.set(change.file, (sizes.get(change.file) ?? 0) + change.bytes.length);
    } else if (change.op === 'delete') {
      nextSeq.delete(change.file);
      sizes?.delete(change.file);
      pending.push(store.delete(fileRange(db, change.file)));
    } else {
      // Rare (cutting a torn log tail at open): rewrite the file as one chunk.
      const parts = (await store.getAll(fileRange(db, change.file))).sort((a, b) => a.seq - b.seq);
      const bytes = concat(parts.map((c) => c.bytes)).slice(0, change.len);
      await store.delete(fileRange(db, change.file));
      pending.push(store.put({ db, file: change.file, seq: 0, bytes }));
      nextSeq.set(change.file, 1);
      sizes?.set(change.file, bytes.length);
    }
  }
  const stored = info && sizes ? { ...info, bytes: [...sizes.values()].reduce((n, b) => n + b, 0) } : info;
  if (stored) pending.push(tx.objectStore('databases').put(stored));
  await Promise.all(pending);
  await tx.done;
  return stored;
}

export async function deleteIdbFiles(db: string): Promise<void> {
  const tx = (await idb()).transaction('chunks', 'readwrite');
  await tx.store.delete(dbRange(db));
  await tx.done;
}

export async function listDatabases(): Promise<DatabaseInfo[]> {
  const all = await (await idb()).getAll('databases');
  return all.sort((a, b) => b.lastUsed - a.lastUsed);
}

export async function getDatabase(key: string): Promise<DatabaseInfo | undefined> {
  return (await idb()).get('databases', key);
}

export async function saveDatabase(info: DatabaseInfo): Promise<void> {
  await (await idb()).put('databases', info);
}

export async function forgetDatabase(key: string): Promise<void> {
  await (await idb()).delete('databases', key);
}

/** Plain IndexedDB key-value puts and gets: the baseline the benchmark compares the engine with. */
export async function plainKvBenchmark(
  keys: Uint8Array<ArrayBuffer>[],
  value: Uint8Array,
  batch: number,
  /** After each transaction: the phase and the keys done in it. */
  onProgress?: (phase: 'put' | 'get', done: number) => void,
): Promise<{ putMillis: number; getMillis: number }> {
  const name = 'lsm-navigator-bench-plain';
  await new Promise<void>((resolve) => {
    const r = indexedDB.deleteDatabase(name);
    r.onsuccess = r.onerror = r.onblocked = () => resolve();
  });
  const db = await openDB(name, 1, { upgrade: (d) => void d.createObjectStore('kv') });
  const start = performance.now();
  for (let i = 0; i < keys.length; i += batch) {
    const tx = db.transaction('kv', 'readwrite');
    for (const k of keys.slice(i, i + batch)) void tx.store.put(value, k);
    await tx.done;
    onProgress?.('put', Math.min(keys.length, i + batch));
  }
  const putMillis = performance.now() - start;
  const readStart = performance.now();
  for (let i = 0; i < keys.length; i += batch) {
    const tx = db.transaction('kv', 'readonly');
    await Promise.all(keys.slice(i, i + batch).map((k) => tx.store.get(k)));
    await tx.done;
    onProgress?.('get', Math.min(keys.length, i + batch));
  }
  const getMillis = performance.now() - readStart;
  db.close();
  return { putMillis, getMillis };
}

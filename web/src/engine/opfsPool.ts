/// <reference lib="webworker" />
/**
 * A pool of OPFS sync access handles for one database, used by the engine (wasm) through
 * synchronous calls. Opening a handle is asynchronous, so the pool keeps spare slot files open
 * and maps each logical file (a table, a log, the manifest) onto one; between engine calls the
 * worker tops the spares up (`reserve`).
 *
 * Slot file layout: a 4 KiB header `[magic "LSMS"][u32 name length][name, UTF-8]`, then the
 * logical file's bytes. A slot of size 0 is free.
 *
 * Physical I/O is batched: the engine appends runs in ≥ 1 MiB chunks, and reads go through a
 * chunk cache (64 KiB chunks, LRU by bytes) that appends also fill (write-through), so merges
 * re-reading freshly written runs and point lookups rarely cost an OPFS call, and large reads
 * that miss go to OPFS in one call. The engine's logical I/O counters are unaffected: they are
 * counted before the storage layer.
 */

const HEADER = 4096;
const MAGIC = 0x534d534c; // "LSMS" little-endian
const CHUNK = 64 * 1024;
/** The chunk cache's size while the engine leaves it room; it yields as the wasm memory grows (`shareMemory`), down to the floor. */
const CACHE_BYTES = 256 * 1024 * 1024;
const CACHE_FLOOR_BYTES = 32 * 1024 * 1024;
const ROOT = 'lsm-navigator';

/** Thrown when no free slot is left; the engine maps it to "storage full" and the worker retries. */
class NoFreeSlotError extends Error {
  constructor() {
    super('no free OPFS file slot: the worker opens more between steps');
    this.name = 'NoFreeSlotError';
  }
}

/** Synchronous OPFS calls of one kind: how many, and their total time. */
export interface CallTally {
  count: number;
  ms: number;
}

export interface PhysicalCalls {
  read: CallTally;
  write: CallTally;
  flush: CallTally;
  truncate: CallTally;
}

interface Slot {
  index: number;
  handle: FileSystemSyncAccessHandle;
  /** The file's size in bytes, header included. Tracked here because getSize() is a synchronous
   * call into the browser costing ~0.4 ms — more than the cached read it would guard. */
  size: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

async function databaseDirectory(db: string, create: boolean): Promise<FileSystemDirectoryHandle> {
  const root = await navigator.storage.getDirectory();
  const app = await root.getDirectoryHandle(ROOT, { create: true });
  return app.getDirectoryHandle(db, { create });
}

/** Remove a database's OPFS directory (its handles must be closed). */
export async function deleteOpfsDatabase(db: string): Promise<void> {
  const root = await navigator.storage.getDirectory();
  const app = await root.getDirectoryHandle(ROOT, { create: true });
  await app.removeEntry(db, { recursive: true }).catch((e: unknown) => {
    if (!(e instanceof DOMException && e.name === 'NotFoundError')) throw e;
  });
}

/**
 * Bytes a database's files hold in OPFS, measured from the files themselves (slot headers and
 * free slots included: what the storage meter counts for it). Null when a file cannot be read —
 * another tab's sync access handle may hold it — or the directory is gone.
 */
export async function opfsDatabaseBytes(db: string): Promise<number | null> {
  try {
    const dir = await databaseDirectory(db, false);
    let total = 0;
    const entries = (dir as unknown as { values(): AsyncIterable<FileSystemHandle> }).values();
    for await (const h of entries) if (h.kind === 'file') total += (await (h as FileSystemFileHandle).getFile()).size;
    return total;
  } catch {
    return null;
  }
}

/** Names of the databases stored in OPFS. */
export async function opfsDatabaseNames(): Promise<string[]> {
  const root = await navigator.storage.getDirectory();
  const app = await root.getDirectoryHandle(ROOT, { create: true });
  const names: string[] = [];
  // The async iterator is typed loosely across TS lib versions; values() is standard.
  const entries = (app as unknown as { values(): AsyncIterable<FileSystemHandle> }).values();
  for await (const h of entries) if (h.kind === 'directory') names.push(h.name);
  return names.sort();
}

export class OpfsPool {
  private dir: FileSystemDirectoryHandle;
  private slots: Slot[] = [];
  private free: Slot[] = [];
  private files = new Map<string, Slot>();
  private cache = new Map<string, Uint8Array>(); // key `${slot}:${chunk}`, insertion order = LRU
  private cachedBytes = 0;
  private budget: { total: number; others: () => number } | null = null;
  /** The most bytes the chunk cache has held (it is the worker's largest JavaScript allocation). */
  peakCachedBytes = 0;
  /** Physical calls made and the time they took, for the benchmark and the UI. */
  readonly calls: PhysicalCalls = { read: { count: 0, ms: 0 }, write: { count: 0, ms: 0 }, flush: { count: 0, ms: 0 }, truncate: { count: 0, ms: 0 } };

  /** Make one synchronous OPFS call, counting it and its time. */
  private timed<T>(kind: keyof PhysicalCalls, call: () => T): T {
    const t0 = performance.now();
    try {
      return call();
    } finally {
      this.calls[kind].count += 1;
      this.calls[kind].ms += performance.now() - t0;
    }
  }

  private constructor(dir: FileSystemDirectoryHandle) {
    this.dir = dir;
  }

  /** Open every slot of database `db` (creating the directory if asked). */
  static async open(db: string, create: boolean): Promise<OpfsPool> {
    const pool = new OpfsPool(await databaseDirectory(db, create));
    const names: string[] = [];
    const entries = (pool.dir as unknown as { values(): AsyncIterable<FileSystemHandle> }).values();
    for await (const h of entries) if (h.kind === 'file' && h.name.startsWith('slot-')) names.push(h.name);
    names.sort();
    for (const name of names) {
      const index = Number(name.slice(5));
      const file = await pool.dir.getFileHandle(name);
      const handle = await file.createSyncAccessHandle();
      const slot = { index, handle, size: handle.getSize() };
      pool.slots.push(slot);
      const logical = pool.readHeader(handle);
      if (logical === null) pool.free.push(slot);
      else pool.files.set(logical, slot);
    }
    await pool.reserve(16);
    return pool;
  }

  private readHeader(handle: FileSystemSyncAccessHandle): string | null {
    if (handle.getSize() < HEADER) return null;
    const head = new Uint8Array(HEADER);
    handle.read(head, { at: 0 });
    const view = new DataView(head.buffer);
    if (view.getUint32(0, true) !== MAGIC) return null;
    const len = view.getUint32(4, true);
    if (len === 0 || len > HEADER - 8) return null;
    return decoder.decode(head.subarray(8, 8 + len));
  }

  /** Keep at least `spares` free slots open (asynchronous: call between engine calls). */
  async reserve(spares: number): Promise<void> {
    let next = this.slots.reduce((m, s) => Math.max(m, s.index + 1), 0);
    while (this.free.length < spares) {
      const name = `slot-${String(next).padStart(6, '0')}`;
      const file = await this.dir.getFileHandle(name, { create: true });
      const handle = await file.createSyncAccessHandle();
      handle.truncate(0);
      const slot = { index: next, handle, size: 0 };
      this.slots.push(slot);
      this.free.push(slot);
      next += 1;
    }
  }

  get freeSlots(): number {
    return this.free.length;
  }

  private slot(file: string): Slot {
    const s = this.files.get(file);
    if (!s) throw Object.assign(new Error(`no such file ${file}`), { name: 'NotFoundError' });
    return s;
  }

  private forget(slot: Slot): void {
    for (const key of [...this.cache.keys()]) {
      if (key.startsWith(`${slot.index}:`)) {
        this.cachedBytes -= this.cache.get(key)?.length ?? 0;
        this.cache.delete(key);
      }
    }
  }

  // ---- the synchronous interface the engine calls (wasm-engine/crates/lsm-wasm/src/opfs.rs) ----

  append(file: string, bytes: Uint8Array): void {
    let slot = this.files.get(file);
    if (!slot) {
      slot = this.free.pop();
      if (!slot) throw new NoFreeSlotError();
      const head = new Uint8Array(HEADER);
      const name = encoder.encode(file);
      const view = new DataView(head.buffer);
      view.setUint32(0, MAGIC, true);
      view.setUint32(4, name.length, true);
      head.set(name, 8);
      // Free slots are empty (see `remove` and `reserve`) unless found with leftovers at open.
      const fresh = slot;
      if (fresh.size > 0) this.timed('truncate', () => fresh.handle.truncate(0));
      fresh.size = 0;
      try {
        this.write(fresh, head, 0);
      } catch (err) {
        this.free.push(fresh); // still empty: free for the next file
        throw err;
      }
      this.files.set(file, slot);
    }
    if (bytes.length === 0) return;
    const at = slot.size;
    this.write(slot, bytes, at);
    this.cacheWritten(slot, at - HEADER, bytes);
  }

  /** Write-through: the appended bytes become (or extend) cached chunks. */
  private cacheWritten(slot: Slot, offset: number, bytes: Uint8Array): void {
    let pos = offset;
    let done = 0;
    while (done < bytes.length) {
      const chunk = Math.floor(pos / CHUNK);
      const within = pos - chunk * CHUNK;
      const n = Math.min(CHUNK - within, bytes.length - done);
      const key = `${slot.index}:${chunk}`;
      const old = this.cache.get(key);
      if (old) {
        this.cache.delete(key);
        this.cachedBytes -= old.length;
      }
      if (within === 0 || old?.length === within) {
        const data = new Uint8Array(within + n);
        if (old) data.set(old);
        data.set(bytes.subarray(done, done + n), within);
        this.remember(key, data);
      }
      pos += n;
      done += n;
    }
  }

  private remember(key: string, data: Uint8Array): void {
    this.cache.set(key, data);
    this.cachedBytes += data.length;
    this.evict();
    this.peakCachedBytes = Math.max(this.peakCachedBytes, this.cachedBytes);
  }

  /** Bytes the chunk cache holds now. */
  get cacheBytes(): number {
    return this.cachedBytes;
  }

  /**
   * Keep the chunk cache and `others()` (the engine's wasm memory) within `total` bytes together:
   * at every insertion the cache may hold `total − others()` (within its floor and CACHE_BYTES),
   * so it gives way as the engine's filters and fence pointers grow.
   */
  shareMemory(total: number, others: () => number): void {
    this.budget = { total, others };
    this.evict();
  }

  private evict(): void {
    const limit = this.budget ? Math.max(CACHE_FLOOR_BYTES, Math.min(CACHE_BYTES, this.budget.total - this.budget.others())) : CACHE_BYTES;
    for (const [k, v] of this.cache) {
      if (this.cachedBytes <= limit) break;
      this.cache.delete(k);
      this.cachedBytes -= v.length;
    }
  }

  private write(slot: Slot, bytes: Uint8Array, at: number): void {
    let done = 0;
    while (done < bytes.length) {
      const asked = bytes.length - done;
      const n = this.timed('write', () => slot.handle.write(bytes.subarray(done), { at: at + done }));
      // Over the quota, Chromium's write does not throw: it returns an error code read as an
      // unsigned count (4294967288 for −8). A count beyond what was asked, like none at all, is a
      // failed write, and the append fails whole: the file keeps its size.
      if (!(n > 0) || n > asked) {
        // Cut off whatever part of it did land, so the file on disk ends where its data does.
        this.timed('truncate', () => slot.handle.truncate(slot.size));
        throw Object.assign(new Error(`OPFS refused the write (${n} for ${asked} bytes): the storage quota is full`), { name: 'QuotaExceededError' });
      }
      done += n;
    }
    slot.size = Math.max(slot.size, at + bytes.length);
  }

  read(file: string, offset: number, out: Uint8Array): void {
    const slot = this.slot(file);
    const size = slot.size - HEADER;
    if (out.length >= CHUNK && !this.cache.has(`${slot.index}:${Math.floor(offset / CHUNK)}`)) {
      // A large sequential read (a merge reading ahead) that misses: one OPFS call.
      this.timed('read', () => slot.handle.read(out, { at: HEADER + offset }));
      return;
    }
    let pos = offset;
    let written = 0;
    while (written < out.length) {
      const chunk = Math.floor(pos / CHUNK);
      const data = this.chunk(slot, chunk, size);
      const from = pos - chunk * CHUNK;
      const n = Math.min(out.length - written, data.length - from);
      if (n <= 0) throw new Error(`read past the end of ${file} at ${pos}`);
      out.set(data.subarray(from, from + n), written);
      written += n;
      pos += n;
    }
  }

  private chunk(slot: Slot, chunk: number, size: number): Uint8Array {
    const key = `${slot.index}:${chunk}`;
    const hit = this.cache.get(key);
    if (hit) {
      this.cache.delete(key);
      this.cache.set(key, hit); // most recently used
      return hit;
    }
    const len = Math.max(0, Math.min(CHUNK, size - chunk * CHUNK));
    const data = new Uint8Array(len);
    this.timed('read', () => slot.handle.read(data, { at: HEADER + chunk * CHUNK }));
    this.remember(key, data);
    return data;
  }

  size(file: string): number {
    return this.slot(file).size - HEADER;
  }

  flush(file: string): void {
    const slot = this.files.get(file);
    if (slot) {
      this.timed('flush', () => slot.handle.flush());
    }
  }

  truncate(file: string, len: number): void {
    const slot = this.slot(file);
    this.forget(slot);
    this.timed('truncate', () => slot.handle.truncate(HEADER + len));
    slot.size = HEADER + len;
    this.timed('flush', () => slot.handle.flush());
  }

  remove(file: string): void {
    const slot = this.files.get(file);
    if (!slot) return;
    this.forget(slot);
    this.timed('truncate', () => slot.handle.truncate(0));
    slot.size = 0;
    this.timed('flush', () => slot.handle.flush());
    this.files.delete(file);
    this.free.push(slot);
  }

  has(file: string): boolean {
    return this.files.has(file);
  }

  names(): string[] {
    return [...this.files.keys()];
  }

  /** Bytes the database occupies (logical files, headers included). */
  bytes(): number {
    let total = 0;
    for (const s of this.files.values()) total += s.size;
    return total;
  }

  close(): void {
    for (const s of this.slots) s.handle.close();
    this.slots = [];
    this.free = [];
    this.files.clear();
    this.cache.clear();
    this.cachedBytes = 0;
  }
}

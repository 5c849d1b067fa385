/**
 * What a page costs on this browser's Origin Private File System, timed in the engine worker: the
 * device half of a calibration (`lsm calibrate` times files natively). A probe file is written in
 * 1 MiB batches and flushed (µs per page written), then read one page at a time at random page
 * offsets (µs per page read: what a miss in the engine's page cache pays, one sync-handle call).
 * The browser offers no O_DIRECT: the OS may serve reads from its cache, and the figure says what
 * this engine pays here, not the disk.
 */
import type { DevicePrices } from '../documents/engine';

// lsm-runner's `DevicePrices`, which the wasm API's `calibrate` reads.
export type { DevicePrices };

const PROBE = 'lsm-calibrate.probe';
const CHUNK = 1 << 20;

export async function probeOpfs(pageBytes: number, probeMiB = 16, reads = 400): Promise<DevicePrices> {
  const root = await navigator.storage.getDirectory();
  const file = await root.getFileHandle(PROBE, { create: true });
  const handle = await file.createSyncAccessHandle();
  try {
    handle.truncate(0);
    const chunk = new Uint8Array(CHUNK);
    crypto.getRandomValues(chunk.subarray(0, 65_536));
    for (let i = 1; i < CHUNK / 65_536; i++) chunk.copyWithin(i * 65_536, 0, 65_536);
    const started = performance.now();
    for (let i = 0; i < probeMiB; i++) handle.write(chunk, { at: i * CHUNK });
    handle.flush();
    const pages = (probeMiB * CHUNK) / pageBytes;
    const pageWriteUs = ((performance.now() - started) * 1000) / pages;
    const page = new Uint8Array(pageBytes);
    const readStarted = performance.now();
    for (let i = 0; i < reads; i++) handle.read(page, { at: Math.floor(Math.random() * pages) * pageBytes });
    const pageReadUs = ((performance.now() - readStarted) * 1000) / reads;
    return { device: 'OPFS (sync access handles)', direct_reads: false, page_read_us: pageReadUs, page_write_us: pageWriteUs };
  } finally {
    handle.close();
    await root.removeEntry(PROBE).catch(() => {});
  }
}

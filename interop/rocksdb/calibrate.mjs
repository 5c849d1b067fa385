/**
 * A calibration (lsm_core::calibration) for RocksDB: the device's page prices from `lsm calibrate`
 * on the directory RocksDB will use, and RocksDB's own CPU per operation class from a short run
 * through the referee.
 *
 * RocksDB's CPU: 20,000 records of 1,000 B, then 20,000 operations, a quarter of each class
 * (missing-key lookups, existing-key lookups, scans of YCSB's mean 50 entries, updates), with the
 * design's own options and a cache that holds the data. Each class's mean latency minus the
 * blocks it read from storage at the device's page price is its CPU. A write's pages are priced
 * as the device's write plus the engine's merge CPU per page (the referee times the call, not the
 * background compaction it causes): said in the notes.
 *
 * The page read price is RocksDB's own: a second short run (TIMED_RECORDS records, more than a
 * memtable holds, then TIMED_LOOKUPS lookups through a 1 MiB cache) turns on its block-read timers
 * (perf context block_read_time + checksum + decompression, `--time-block-reads on`), so a storage
 * read costs what it costs RocksDB (a 4 KiB block plus its trailer is two aligned pages under direct
 * reads, and it is decompressed), not the device's bare 4 KiB read. Too few storage reads to time
 * (fewer than MIN_TIMED_READS) keep the device's price, and the notes say which was used.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { LAB_MODE, LSM, playOnRocksdb } from './referee.mjs';

const RECORDS = 20_000;
const OPERATIONS = 20_000;
const CACHE_BYTES = 256 << 20;
const TIMED_RECORDS = 100_000;
const TIMED_LOOKUPS = 4_000;
const TIMED_CACHE_BYTES = 1 << 20;
/** Storage block reads below which RocksDB's own timing is too thin to price a read. */
export const MIN_TIMED_READS = 200;

/** A Workload JSON of uniform keys and 1,000-byte values: what both timing workloads share. */
function uniformWorkload({ name, seed, entries, operations, mix, rangeSelectivity }) {
  return {
    kind: 'lsm-navigator/workload',
    version: 1,
    name,
    seed,
    preload: { entries, key_space: 0, key_bytes: 16, value_bytes: 1000 },
    operations,
    mix,
    distribution: { kind: 'uniform' },
    range_selectivity: rangeSelectivity,
  };
}

/** The calibration workload (Workload JSON): the four classes in equal shares. */
export function calibrationWorkload() {
  return uniformWorkload({
    name: 'calibration',
    seed: 7,
    entries: RECORDS,
    operations: OPERATIONS,
    mix: { insert: 0, update: 0.25, delete: 0, get_existing: 0.25, get_missing: 0.25, range: 0.25 },
    rangeSelectivity: 50 / RECORDS,
  });
}

/** The block-read timing workload: existing-key lookups, uniform, over data mostly in table files. */
export function blockReadWorkload() {
  return uniformWorkload({
    name: 'block-read timing',
    seed: 11,
    entries: TIMED_RECORDS,
    operations: TIMED_LOOKUPS,
    mix: { insert: 0, update: 0, delete: 0, get_existing: 1, get_missing: 0, range: 0 },
    rangeSelectivity: 0,
  });
}

/**
 * CPU microseconds per class from a referee run: mean latency minus storage reads at
 * `pageReadUs`. Classes in the calibration's order: zero-result, non-zero-result, range, write.
 */
export function rocksdbCpu(run, pageReadUs) {
  const cls = [run.lookups.missing, run.lookups.existing, run.scans, run.writes];
  return cls.map((c) => {
    if (!c || !c.latency_ns || !(c.count > 0)) return 0;
    const reads = (c.data_block_reads ?? 0) + (c.index_block_reads ?? 0) + (c.filter_block_reads ?? 0) + (c.block_reads ?? 0);
    return Math.max(0, c.latency_ns.mean / 1000 - (reads / c.count) * pageReadUs);
  });
}

/**
 * RocksDB's microseconds per block read from storage in a timed run (`--time-block-reads on`):
 * { us, reads }, or null when it read fewer than MIN_TIMED_READS blocks or was not timed.
 */
export function rocksdbBlockReadUs(run) {
  const cls = [run.lookups?.missing, run.lookups?.existing, run.lookups?.unknown, run.scans, run.writes].filter(Boolean);
  const reads = cls.reduce((s, c) => s + (c.block_reads ?? 0), 0);
  const ns = cls.reduce((s, c) => s + (c.block_read_ns ?? 0), 0);
  if (reads < MIN_TIMED_READS || !(ns > 0)) return null;
  return { us: ns / reads / 1000, reads };
}

/** The device under `dir` (`lsm calibrate`), then RocksDB's CPU on `optionsFile` (see the module docs). */
export async function calibrateRocksdb({ driver, dir, optionsFile, lsm = LSM }) {
  fs.mkdirSync(dir, { recursive: true });
  const device = JSON.parse(execFileSync(lsm, ['calibrate', '--dir', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  const workload = path.join(dir, 'calibration.workload.json');
  fs.writeFileSync(workload, `${JSON.stringify(calibrationWorkload())}\n`);
  // The lab mode: the CPU per call is measured on records held in the cache, so the run must
  // begin on the load's settled tree, in its process (its cache warm), with no compaction
  // rewriting cached files under it. With background compactions (in the load's process) on
  // 2026-12-01, lookups read so many blocks from storage that their CPU came out at 0 µs.
  const report = await playOnRocksdb({ driver, workload, optionsFile, blockCacheBytes: CACHE_BYTES, dbDir: path.join(dir, 'calibration-db'), extraArgs: [...LAB_MODE] });
  fs.rmSync(path.join(dir, 'calibration-db'), { recursive: true, force: true });
  const timing = path.join(dir, 'block-read.workload.json');
  fs.writeFileSync(timing, `${JSON.stringify(blockReadWorkload())}\n`);
  const timedReport = await playOnRocksdb({
    driver,
    workload: timing,
    optionsFile,
    blockCacheBytes: TIMED_CACHE_BYTES,
    dbDir: path.join(dir, 'block-read-db'),
    extraArgs: ['--time-block-reads', 'on'],
  });
  fs.rmSync(path.join(dir, 'block-read-db'), { recursive: true, force: true });
  const timed = rocksdbBlockReadUs(timedReport.run);
  const pageReadUs = timed ? timed.us : device.page_read_us;
  const readNote = timed
    ? `page_read_us: RocksDB's own ${timed.us.toFixed(1)} µs per block read from storage (perf context read + checksum + decompression, ${timed.reads.toLocaleString('en-US')} reads timed); the device's bare 4 KiB read measured ${device.page_read_us.toFixed(1)} µs`
    : `page_read_us: the device's 4 KiB read (RocksDB read too few blocks from storage to time: fewer than ${MIN_TIMED_READS})`;
  return {
    ...device,
    page_read_us: pageReadUs,
    store: `rocksdb ${report.rocksdb_version ?? ''}`.trim(),
    cpu_us: rocksdbCpu(report.run, pageReadUs),
    notes: [
      ...device.notes,
      readNote,
      `cpu_us: RocksDB's mean call time per class on ${RECORDS.toLocaleString('en-US')} cached records, less its storage reads at ${pageReadUs.toFixed(1)} µs`,
      "a write's pages are priced at the device's write plus lsm-engine's merge CPU per page: RocksDB's compaction CPU is not timed by the call",
    ],
  };
}

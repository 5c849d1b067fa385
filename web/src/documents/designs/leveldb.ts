/**
 * LevelDB's own design (its defaults: MSLS_LEVELDB_DEFAULTS, with 2 MiB files) as the engine and
 * the MSLS model take it, in entries, calibrated on a LevelDB run: LevelDB counts its thresholds
 * in bytes of its own formats. Pure; interop/leveldb uses it to put all three on the same footing.
 */
import { MSLS_LEVELDB_DEFAULTS, type LeveledGrowthParams, type MslsLevelParams } from '@lsm/models';
import type { EngineConfig } from '../engine';
import type { LeveldbCalibration, WriteAmpResult } from '../writeAmp';
import { MSLS_FILE_BYTES, MSLS_FILTER_BITS, MSLS_PAGE_BYTES } from './msls';

/**
 * The calibration a LevelDB run measured: its flush cadence, and the bytes per entry of the
 * tables its merges wrote (one version per key, as the levels hold them).
 */
export function leveldbCalibration(r: WriteAmpResult): LeveldbCalibration {
  const last = r.checkpoints[r.checkpoints.length - 1];
  const entries = (last?.entries_into ?? []).reduce((a, b) => a + b, 0);
  const bytes = (last?.bytes_into ?? []).reduce((a, b) => a + b, 0);
  if (!(r.inserts_per_flush > 0) || !(entries > 0)) throw new Error('the LevelDB run merged nothing: too few writes to calibrate');
  return { insertsPerFlush: r.inserts_per_flush, tableBytesPerEntry: bytes / entries, keyBytes: r.key_bytes, valueBytes: r.value_bytes };
}

/**
 * LevelDB's design as an EngineConfig, in the engine's units (entry bytes = key + value): the
 * same writes per flush (a log-size trigger), level 0 merged at 4 files, level 1 of 10 MiB of
 * LevelDB's tables and ×10 below, 2 MiB files, merges by file (round robin, widened and cut as
 * LevelDB does), 4 KiB pages and 10 bits/key filters (which the writes do not depend on).
 */
export function leveldbEngineConfig(c: LeveldbCalibration): EngineConfig {
  const entryBytes = c.keyBytes + c.valueBytes;
  const inEntryBytes = (leveldbBytes: number) => (leveldbBytes / c.tableBytesPerEntry) * entryBytes;
  const buffer = Math.round(c.insertsPerFlush * entryBytes);
  return {
    kind: 'lsm-navigator/engine-config',
    version: 1,
    name: `LevelDB 1.23's design in entries: a flush every ${Math.round(c.insertsPerFlush).toLocaleString('en-US')} writes, level 0 merged at 4 files, level 1 = 10 MiB of LevelDB tables (${c.tableBytesPerEntry.toFixed(1)} B per entry), ×10 below, 2 MiB files`,
    page_bytes: MSLS_PAGE_BYTES,
    buffer_bytes: buffer,
    buffer_trigger: 'logged',
    levels: [
      { size_ratio: Number((inEntryBytes(MSLS_LEVELDB_DEFAULTS.level1Bytes) / buffer).toPrecision(7)), max_runs: MSLS_LEVELDB_DEFAULTS.level0Trigger - 1 },
      { size_ratio: MSLS_LEVELDB_DEFAULTS.growthFactor, max_runs: 1 },
    ],
    filter: { allocation: 'uniform', bits_per_key: MSLS_FILTER_BITS },
    compaction: { granularity: 'file', target_file_bytes: Math.round(inEntryBytes(MSLS_FILE_BYTES)) },
  };
}

/**
 * The MSLS model's parameters for the same design and N keys, in LevelDB's table bytes (the model
 * counts items, so only ratios matter), with LevelDB's flush, which writes every version.
 */
export function leveldbMslsParams(c: LeveldbCalibration, keySpace: number, theta: number): MslsLevelParams {
  return {
    keySpace,
    distribution: theta > 0 ? { kind: 'zipf', theta } : { kind: 'uniform' },
    entryBytes: c.tableBytesPerEntry,
    writeBufferBytes: c.insertsPerFlush * c.tableBytesPerEntry,
    level0Trigger: MSLS_LEVELDB_DEFAULTS.level0Trigger,
    level1Bytes: MSLS_LEVELDB_DEFAULTS.level1Bytes,
    growthFactor: MSLS_LEVELDB_DEFAULTS.growthFactor,
    flushKeepsVersions: true,
  };
}

/**
 * The from-empty model's parameters for the same design filling with N keys, in entries (the
 * calibration's table bytes per entry), by the engine's rules or with LevelDB's young-tree
 * shortcuts (a flush placed below level 0, trivial moves).
 */
export function leveldbGrowthParams(c: LeveldbCalibration, keys: number, leveldbShortcuts: boolean): LeveledGrowthParams {
  return {
    keys,
    bufferEntries: c.insertsPerFlush,
    level0Trigger: MSLS_LEVELDB_DEFAULTS.level0Trigger,
    levelEntries: [MSLS_LEVELDB_DEFAULTS.level1Bytes / c.tableBytesPerEntry],
    growthFactor: MSLS_LEVELDB_DEFAULTS.growthFactor,
    fileEntries: MSLS_FILE_BYTES / c.tableBytesPerEntry,
    leveldbShortcuts,
  };
}

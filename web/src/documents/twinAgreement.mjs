/**
 * The RocksDB twin's figure table and its agreement rule, in one place for the two that read them:
 * interop/rocksdb/twin.mjs (which measures the twin and counts its agreement, under Node with no
 * TypeScript step, hence plain JavaScript) and the MSLS page's card (web/src/compute/rocksdbTwin.ts,
 * which draws it). twinAgreement.d.mts gives TypeScript its types.
 */

/** Figures held to a relative bar agree within this share of RocksDB's value. */
export const RELATIVE_BAR = 0.1;
/** Below this (both figures), the relative bar is too strict: figures are compared in absolute terms. */
export const ABSOLUTE_BELOW = 0.2;
/** The absolute bar: figures below ABSOLUTE_BELOW agree within this much. */
export const ABSOLUTE_BAR = 0.02;

/** Which bar two figures are held to: within 10%, or within 0.02 where both are below 0.2. */
export function agreementBar(engine, rocksdb) {
  return Math.max(Math.abs(engine), Math.abs(rocksdb)) < ABSOLUTE_BELOW ? 'absolute' : 'relative';
}

/** Whether two figures agree by their bar. */
export function figuresAgree(engine, rocksdb) {
  if (agreementBar(engine, rocksdb) === 'absolute') return Math.abs(engine - rocksdb) <= ABSOLUTE_BAR;
  return Math.abs(engine - rocksdb) <= RELATIVE_BAR * Math.max(Math.abs(rocksdb), 1e-12);
}

/** The figures compared, with how the table names each. */
export const TWIN_FIGURES = [
  ['dataBlocksPerLookup', 'data blocks read per point lookup'],
  ['dataBlocksPerScan', 'data blocks read per scan'],
  ['filtersPerLookup', 'filters probed per point lookup'],
  ['metadataBlocksPerLookup', 'index + filter blocks read per point lookup'],
  ['cacheHitRate', 'block cache data hit rate'],
  ['bytesWrittenPerUserByte', 'bytes written by flush + compaction per user byte'],
  ['entriesWrittenPerWrite', 'entries written by flush + compaction per user write'],
];

/** The figures a load phase has (it only writes). */
export const WRITE_FIGURES = ['bytesWrittenPerUserByte', 'entriesWrittenPerWrite'];

/**
 * Whether the table lists figure `key` of `phase` for these two sides' figures: a load only its
 * writes; a lookup figure only where a side looked up, a scan figure only where one scanned, the
 * hit rate only where one read, writes only where one wrote; index + filter blocks only where
 * they went through the cache (pinned ones are never read, so both are 0).
 */
export function figureListed(key, phase, engine, rocksdb) {
  if (phase === 'load' && !WRITE_FIGURES.includes(key)) return false;
  if ((key === 'dataBlocksPerLookup' || key === 'filtersPerLookup') && rocksdb.lookups === 0 && engine.lookups === 0) return false;
  if (key === 'dataBlocksPerScan' && rocksdb.scans === 0 && engine.scans === 0) return false;
  if (key === 'metadataBlocksPerLookup' && !(engine[key] || rocksdb[key])) return false;
  if (key === 'cacheHitRate' && rocksdb.lookups + rocksdb.scans === 0 && engine.lookups + engine.scans === 0) return false;
  if (WRITE_FIGURES.includes(key) && rocksdb.writes === 0 && engine.writes === 0) return false;
  return true;
}

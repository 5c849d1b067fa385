/**
 * The RocksDB twin, measured: one case = one RocksDB shape (an OPTIONS file, as a user has one)
 * and one workload. RocksDB plays the engine's own operation stream through the referee
 * (referee.cc); the engine runs the design `lsm import --rocksdb` makes of the same OPTIONS file,
 * on the same stream (`lsm run`, in memory, same seed); both are reduced to the same figures:
 * data blocks read per point lookup and per scan, filters probed per lookup, the block cache's
 * data hit rate, and the bytes and entries flushes and compactions wrote per user write, level by
 * level. Used by `npm run rocksdb-twin` (the whole table at 1,000,000 records) and by the rocksdb
 * suite's twin.test.mjs (a scaled-down table whose agreement it asserts).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { TWIN_FIGURES, WRITE_FIGURES, figureListed, figuresAgree } from '../../web/src/documents/twinAgreement.mjs';
import { LAB_MODE, LSM, playOnRocksdb } from './referee.mjs';

const MIB = 1 << 20;

/**
 * The shapes the issue names, each as the OPTIONS lines that differ from RocksDB 7.8's defaults.
 * `sized` options are byte sizes that scale with the case (so a small CI table keeps the shape's
 * proportions: data ≥ 10× the memtable, the same number of levels).
 */
export const SHAPES = [
  { id: 'defaults', label: "RocksDB 7.8's defaults (no filter, 8 MiB block cache)", cf: {}, table: {} },
  { id: 'bloom10', label: 'defaults + Bloom 10 bits/key', cf: {}, table: { filter_policy: 'bloomfilter:10:false' } },
  {
    id: 'l0-2-x4',
    label: 'L0 trigger 2, multiplier 4, Bloom 10',
    cf: { level0_file_num_compaction_trigger: 2, max_bytes_for_level_multiplier: 4 },
    table: { filter_policy: 'bloomfilter:10:false' },
  },
  { id: 'dynamic', label: 'dynamic level bytes, Bloom 10', cf: { level_compaction_dynamic_level_bytes: true }, table: { filter_policy: 'bloomfilter:10:false' } },
  {
    id: 'cached-meta',
    label: 'Bloom 10, index and filter blocks in the block cache',
    cf: {},
    table: { filter_policy: 'bloomfilter:10:false', cache_index_and_filter_blocks: true },
  },
  {
    id: 'pinned-l0',
    label: "Bloom 10, index and filter blocks in the cache, level 0's pinned",
    cf: {},
    table: { filter_policy: 'bloomfilter:10:false', cache_index_and_filter_blocks: true, pin_l0_filter_and_index_blocks_in_cache: true },
  },
  {
    id: 'partitioned',
    label: 'Bloom 10, partitioned filters and a two-level index, in the block cache (top level pinned)',
    cf: {},
    table: {
      filter_policy: 'bloomfilter:10:false',
      cache_index_and_filter_blocks: true,
      index_type: 'kTwoLevelIndexSearch',
      partition_filters: true,
      metadata_block_size: 4096,
      pin_top_level_index_and_filter: true,
    },
  },
  { id: 'universal', label: 'universal compaction, Bloom 10', cf: { compaction_style: 'kCompactionStyleUniversal' }, table: { filter_policy: 'bloomfilter:10:false' } },
];

/** RocksDB 7.8's defaults for the sized options, at scale 1. */
const SIZED = { write_buffer_size: 64 * MIB, max_bytes_for_level_base: 256 * MIB, target_file_size_base: 64 * MIB };
/** RocksDB 7.8's internal block cache when none is configured (table.h: "an 8MB internal cache"). */
export const DEFAULT_BLOCK_CACHE = 8 * MIB;

/** An OPTIONS file for `shape` with every size multiplied by `scale` (1 = RocksDB's own sizes). */
export function optionsText(shape, scale = 1) {
  const cf = { ...Object.fromEntries(Object.entries(SIZED).map(([k, v]) => [k, Math.round(v * scale)])), ...shape.cf };
  const lines = ['[Version]', '  rocksdb_version=7.8.3', '  options_file_version=1.1', '[DBOptions]', '  create_if_missing=true', '[CFOptions "default"]'];
  for (const [k, v] of Object.entries(cf)) lines.push(`  ${k}=${v}`);
  lines.push('[TableOptions/BlockBasedTable "default"]');
  for (const [k, v] of Object.entries(shape.table)) lines.push(`  ${k}=${v}`);
  return `${lines.join('\n')}\n`;
}

const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const ratio = (a, b) => (b > 0 ? a / b : 0);

/** The figures of one RocksDB phase (the referee's `load` or `run`). */
export function rocksdbFigures(phase) {
  const lookups = Object.values(phase.lookups);
  const count = sum(lookups.map((l) => l.count));
  const dataReads = sum(lookups.map((l) => l.data_block_reads));
  const scans = phase.scans;
  // A scan's iterator reads ahead: blocks served from its prefetch buffer are not in perf
  // context's block_read_count, but each is a block cache miss (RocksDB's per-level
  // block_cache_miss_count, which sums to the block.cache.data.miss ticker). The engine counts
  // every block a scan decodes, read ahead or not; so do these.
  const levelSum = (c, field) => sum((c.by_level ?? []).map((l) => l[field] ?? 0));
  // The per-level misses count index and filter blocks too when they live in the cache
  // (cache_index_and_filter_blocks); perf context's reads of those are exactly their misses.
  const scanMisses = levelSum(scans, 'block_cache_misses') - scans.index_block_reads - scans.filter_block_reads;
  const scanReads = scanMisses > 0 ? scanMisses : scans.data_block_reads;
  // Data blocks only, as the engine's figure: hits less index and filter hits, misses = reads.
  const hits = sum(lookups.map((l) => l.data_cache_hits)) + scans.data_cache_hits;
  const misses = dataReads + scanReads;
  const userBytes = phase.writes.key_bytes + phase.writes.value_bytes;
  const levels = phase.compactions.by_output_level ?? [];
  const perLevel = [];
  perLevel[0] = phase.flush.bytes;
  for (const l of levels) perLevel[l.level] = (perLevel[l.level] ?? 0) + l.output_bytes;
  return {
    lookups: count,
    dataBlocksPerLookup: ratio(dataReads, count),
    filtersPerLookup: ratio(sum(lookups.map((l) => l.filters_probed)), count),
    // Non-zero only when index and filter blocks live in the block cache (misses read them).
    metadataBlocksPerLookup: ratio(sum(lookups.map((l) => l.index_block_reads + l.filter_block_reads)), count),
    indexBlocksPerLookup: ratio(sum(lookups.map((l) => l.index_block_reads)), count),
    filterBlocksPerLookup: ratio(sum(lookups.map((l) => l.filter_block_reads)), count),
    scans: scans.count,
    dataBlocksPerScan: ratio(scanReads, scans.count),
    cacheHitRate: ratio(hits, hits + misses),
    writes: phase.writes.count,
    bytesWrittenPerUserByte: ratio(phase.flush.bytes + sum(levels.map((l) => l.output_bytes)), userBytes),
    entriesWrittenPerWrite: ratio(phase.flush.entries + sum(levels.map((l) => l.output_records)), phase.writes.count),
    bytesPerLevel: Array.from(perLevel, (b) => ratio(b ?? 0, userBytes)),
    trivialMoves: phase.compactions.trivial_moves,
  };
}

const CLASSES = ['put', 'delete', 'get_zero_result', 'get_non_zero_result', 'get_tombstone', 'scan'];
const GETS = ['get_zero_result', 'get_non_zero_result', 'get_tombstone'];

/** The same figures from the engine's Report: `phase` 'run' (report.run, writes) or 'load' (report.preload, load_writes). */
export function engineFigures(report, phase) {
  const stats = phase === 'run' ? report.run : report.preload;
  const writes = phase === 'run' ? report.writes : report.load_writes;
  const reads = (cls) => stats.levels.map((l) => l.reads[CLASSES.indexOf(cls)]);
  const total = (cls, field) => sum(reads(cls).map((r) => r[field]));
  const count = sum(GETS.map((c) => stats.ops[CLASSES.indexOf(c)]));
  const scans = stats.ops[CLASSES.indexOf('scan')];
  const hits = sum([...GETS, 'scan'].map((c) => total(c, 'data_cache_hits')));
  const misses = sum([...GETS, 'scan'].map((c) => total(c, 'data_pages_read')));
  const userWrites = stats.ops[CLASSES.indexOf('put')] + stats.ops[CLASSES.indexOf('delete')];
  const perLevel = writes.bytes_written_per_level ?? [];
  return {
    lookups: count,
    dataBlocksPerLookup: ratio(sum(GETS.map((c) => total(c, 'data_pages_read'))), count),
    filtersPerLookup: ratio(sum(GETS.map((c) => total(c, 'filter_probes'))), count),
    metadataBlocksPerLookup: ratio(sum(GETS.map((c) => total(c, 'index_block_reads') + total(c, 'filter_block_reads'))), count),
    indexBlocksPerLookup: ratio(sum(GETS.map((c) => total(c, 'index_block_reads'))), count),
    filterBlocksPerLookup: ratio(sum(GETS.map((c) => total(c, 'filter_block_reads'))), count),
    scans,
    dataBlocksPerScan: ratio(total('scan', 'data_pages_read'), scans),
    cacheHitRate: ratio(hits, hits + misses),
    writes: userWrites,
    bytesWrittenPerUserByte: ratio(writes.totals.bytes_written, writes.user_bytes),
    entriesWrittenPerWrite: ratio(writes.totals.entries_written, userWrites),
    bytesPerLevel: perLevel.map((b) => ratio(b, writes.user_bytes)),
    trivialMoves: writes.totals.moves ?? 0,
  };
}

/**
 * The same figures from `lsm predict` (its `twin` section, for a RocksDB-shaped design: RocksDB's
 * blocks, merges by file): 'run' or 'load' (the load has only its writes). Entries written are
 * not predicted (null). A design priced by whole levels (not RocksDB-shaped: fixed pages, or
 * merges of whole levels) has no twin section: its data blocks per lookup and per scan come from
 * the class costs (no block cache model), the rest is null.
 */
export function predictedFigures(prediction, phase) {
  const t = prediction.twin;
  if (!t) {
    const [zero, existing, range] = prediction.mix;
    const [zeroCost, existingCost, rangeCost] = prediction.class_costs;
    const lookups = zero + existing;
    const run = phase === 'run';
    return {
      dataBlocksPerLookup: run && lookups > 0 ? (zero * zeroCost + existing * existingCost) / lookups : null,
      dataBlocksPerScan: run && range > 0 ? rangeCost : null,
      filtersPerLookup: null,
      cacheHitRate: null,
      bytesWrittenPerUserByte: null,
      entriesWrittenPerWrite: null,
      filesPerLevel: null,
    };
  }
  if (phase === 'load') {
    return { dataBlocksPerLookup: null, dataBlocksPerScan: null, filtersPerLookup: null, cacheHitRate: null, bytesWrittenPerUserByte: t.load_bytes_written_per_user_byte, entriesWrittenPerWrite: null, filesPerLevel: t.files_after_load };
  }
  return {
    dataBlocksPerLookup: t.data_blocks_per_lookup,
    dataBlocksPerScan: t.data_blocks_per_scan,
    filtersPerLookup: t.filters_per_lookup,
    metadataBlocksPerLookup: t.metadata_blocks_per_lookup ?? null,
    cacheHitRate: t.cache_hit_rate,
    bytesWrittenPerUserByte: t.run_bytes_written_per_user_byte,
    entriesWrittenPerWrite: null,
    filesPerLevel: t.files_after_run,
  };
}

/** The figures the predictor is held to (entries written per write is not predicted). */
export const PREDICTED = ['dataBlocksPerLookup', 'dataBlocksPerScan', 'filtersPerLookup', 'cacheHitRate', 'bytesWrittenPerUserByte'];

/**
 * Figures only shapes with index and filter blocks in the cache have apart: the index and the
 * filter blocks (or partitions) read per point lookup, each.
 */
export const METADATA_FIGURES = [
  ['indexBlocksPerLookup', 'index blocks (partitions) read per point lookup'],
  ['filterBlocksPerLookup', 'filter blocks (partitions) read per point lookup'],
];

/**
 * Agreement over a table's cases, counted as the Write amplification page lists the figures (a
 * lookup figure only where the run looked up, a scan figure only where it scanned, index + filter
 * blocks only where non-zero, writes only where the phase wrote): { engine: [agree, of],
 * predicted: [agree, of], misses: lines naming each figure that does not agree }.
 */
export function agreementCounts(cases) {
  const engine = [0, 0];
  const predicted = [0, 0];
  const misses = [];
  for (const c of cases) {
    for (const phase of ['run', 'load']) {
      const { engine: e, rocksdb: r, predicted: p } = c[phase];
      for (const [key] of TWIN_FIGURES) {
        if (!figureListed(key, phase, e, r)) continue;
        const [ev, rv] = [e[key] ?? 0, r[key] ?? 0];
        engine[1] += 1;
        if (figuresAgree(ev, rv)) engine[0] += 1;
        else misses.push(`engine    ${c.shape} · ${c.workload} ${phase} ${key}: ${fmt(ev)} against RocksDB ${fmt(rv)}`);
        const pv = p?.[key];
        if (typeof pv !== 'number') continue;
        predicted[1] += 1;
        if (figuresAgree(pv, rv)) predicted[0] += 1;
        else misses.push(`predicted ${c.shape} · ${c.workload} ${phase} ${key}: ${fmt(pv)} against RocksDB ${fmt(rv)} (engine ${fmt(ev)})`);
      }
    }
  }
  return { engine, predicted, misses };
}

/**
 * The OPTIONS file of `shape` at `scale` and the design `lsm import --rocksdb` makes of it with a
 * block cache of `cache` bytes, both written under `dir`; with the import's notes (its stderr).
 */
function importShape({ dir, shape, scale, cache }) {
  fs.mkdirSync(dir, { recursive: true });
  const optionsFile = path.join(dir, 'OPTIONS.ini');
  fs.writeFileSync(optionsFile, optionsText(shape, scale));
  const imported = spawnSync(LSM, ['import', '--rocksdb', optionsFile], { encoding: 'utf8' });
  if (imported.status !== 0) throw new Error(`lsm import --rocksdb ${optionsFile}: ${imported.stderr}`);
  const config = JSON.parse(imported.stdout);
  config.block_cache = { ...(config.block_cache ?? {}), bytes: cache };
  const configFile = path.join(dir, 'engine.json');
  fs.writeFileSync(configFile, `${JSON.stringify(config, null, 2)}\n`);
  return { optionsFile, configFile, imported };
}

/** `lsm predict` on a design file and workload, parsed. */
function predictWith(configFile, workload, records, operations) {
  return JSON.parse(
    execFileSync(LSM, ['predict', '--config', configFile, '--workload', workload, '--records', String(records), '--operations', String(operations)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}

/**
 * A stored case with its `predicted` figures made again by today's `lsm predict` (same shape,
 * scale, cache, workload and sizes); the measured engine and RocksDB figures are kept as stored.
 * For a predictor change, without the hours of measuring again.
 */
export function repredictCase(c, dir) {
  const shape = SHAPES.find((s) => s.id === c.shape);
  if (!shape) throw new Error(`stored case names shape "${c.shape}", which SHAPES does not have`);
  const { configFile } = importShape({ dir, shape, scale: c.scale, cache: c.blockCacheBytes });
  const predicted = predictWith(configFile, c.workload, c.records, c.operations);
  return {
    ...c,
    run: { ...c.run, predicted: predictedFigures(predicted, 'run') },
    load: { ...c.load, predicted: predictedFigures(predicted, 'load') },
  };
}

/** The engine run as `configFile` on the workload (merges inline, in memory): its Report. */
function runEngine(configFile, workload, records, operations, dir) {
  const reportFile = path.join(dir, 'report.json');
  // Merges inline: RocksDB's driver waits for compactions after every write that seals a memtable
  // (--sync-compactions on), so both trees have every merge installed when a lookup comes.
  execFileSync(LSM, ['run', '--config', configFile, '--workload', workload, '--records', String(records), '--operations', String(operations), '--merges', 'inline', '--report', reportFile], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return JSON.parse(fs.readFileSync(reportFile, 'utf8'));
}

/**
 * A stored case with the engine run again and `lsm predict` made again (same shape, scale, cache,
 * workload and sizes); RocksDB's figures and tree are kept as stored. For an engine change: the
 * engine's side takes minutes where RocksDB's takes many.
 */
export function rerunEngineCase(c, dir) {
  const shape = SHAPES.find((s) => s.id === c.shape);
  if (!shape) throw new Error(`stored case names shape "${c.shape}", which SHAPES does not have`);
  const { configFile } = importShape({ dir, shape, scale: c.scale, cache: c.blockCacheBytes });
  const report = runEngine(configFile, c.workload, c.records, c.operations, dir);
  const predicted = predictWith(configFile, c.workload, c.records, c.operations);
  return {
    ...c,
    run: { ...c.run, engine: engineFigures(report, 'run'), predicted: predictedFigures(predicted, 'run') },
    load: { ...c.load, engine: engineFigures(report, 'load'), predicted: predictedFigures(predicted, 'load') },
    trees: { ...c.trees, engine: engineTree(report.tree) },
    engineMeasured: new Date().toISOString(),
  };
}

/**
 * One case: shape × workload at `records` / `operations`, sizes scaled by `scale`, a block cache
 * of `blockCacheBytes` (scaled default). Writes its files under `dir`; resolves to both sides'
 * figures for the run phase and the load's writes, the trees, and the import's notes.
 */
export async function runCase({ driver, dir, shape, workload, records, operations, scale = 1, blockCacheBytes }) {
  const cache = blockCacheBytes ?? Math.round(DEFAULT_BLOCK_CACHE * scale);
  const { optionsFile, configFile, imported } = importShape({ dir, shape, scale, cache });
  const report = runEngine(configFile, workload, records, operations, dir);
  const predicted = predictWith(configFile, workload, records, operations);
  // The lab mode: the engine runs every merge to completion before the next write, in one
  // process; compared counter for counter, RocksDB must be played the same way.
  const rocks = await playOnRocksdb({ driver, workload, records, operations, optionsFile, blockCacheBytes: cache, dbDir: path.join(dir, 'db'), extraArgs: [...LAB_MODE] });
  fs.rmSync(path.join(dir, 'db'), { recursive: true, force: true });
  return {
    shape: shape.id,
    label: shape.label,
    workload,
    records,
    operations,
    scale,
    blockCacheBytes: cache,
    importNotes: imported.stderr.trim().split('\n').filter(Boolean),
    run: { engine: engineFigures(report, 'run'), rocksdb: rocksdbFigures(rocks.run), predicted: predictedFigures(predicted, 'run') },
    load: { engine: engineFigures(report, 'load'), rocksdb: rocksdbFigures(rocks.load), predicted: predictedFigures(predicted, 'load') },
    trees: { engine: engineTree(report.tree), rocksdb: rocks.tree_after_run },
    rocksdbNotes: rocks.notes ?? [],
    directReads: rocks.direct_reads,
  };
}

/** The engine's tree as the referee describes RocksDB's: files per level with key ranges (hex). */
export function engineTree(tree) {
  return (tree?.levels ?? []).map((l) => ({
    level: l.level - 1,
    files: l.runs.flatMap((r) => r.tables.map((t) => ({ id: t.id, entries: t.entries, bytes: t.file_bytes, smallest_key_hex: t.min_key_hex, largest_key_hex: t.max_key_hex }))),
  }));
}

const pct = (e, r) => (r !== 0 ? `${(100 * (e / r - 1)).toFixed(1)}%` : e === 0 ? '0' : '—');
const fmt = (x) => (Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(4));

/**
 * The table lines of one case: each figure, engine against RocksDB, and whether they agree; then
 * the prediction and whether it agrees with RocksDB (and with the engine), where it is predicted.
 */
export function caseLines(c) {
  const lines = [`${c.label} · ${c.workload} · ${c.records.toLocaleString('en-US')} records, ${c.operations.toLocaleString('en-US')} operations`];
  for (const [phase, figures] of [['run', TWIN_FIGURES], ['load', TWIN_FIGURES.filter(([key]) => WRITE_FIGURES.includes(key))]]) {
    for (const [key, name] of figures) {
      const e = c[phase].engine[key];
      const r = c[phase].rocksdb[key];
      const relevant = !(key === 'dataBlocksPerScan' && c[phase].rocksdb.scans === 0) && !(key.startsWith('data') && key.endsWith('Lookup') && c[phase].rocksdb.lookups === 0);
      if (!relevant) continue;
      const p = c[phase].predicted?.[key];
      const predicted = p == null ? '' : `  predicted ${fmt(p).padStart(9)} ${pct(p, r).padStart(8)} ${figuresAgree(p, r) ? 'agrees' : 'DIFFERS'}${figuresAgree(p, e) ? '' : ' (not with the engine)'}`;
      lines.push(`  ${phase.padEnd(4)} ${name.padEnd(52)} engine ${fmt(e).padStart(9)}  RocksDB ${fmt(r).padStart(9)}  ${pct(e, r).padStart(8)}  ${figuresAgree(e, r) ? 'agrees' : 'DIFFERS'}${predicted}`);
    }
  }
  return lines;
}

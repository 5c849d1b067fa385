/**
 * The RocksDB twin at CI scale (sizes of RocksDB's defaults × 1/64: a 1 MiB memtable, 4 MiB
 * level 1, 1 MiB files, a 128 KiB block cache; YCSB B, 20,000 records of 1,000 B = 19× the
 * memtable, 10,000 operations): the engine runs the design `lsm import --rocksdb` makes of each
 * OPTIONS file, RocksDB plays the same stream through the referee. Asserted: every figure
 * agrees (10%, or 0.02 below 0.2) for the issue's five shapes, index and filter blocks in the
 * cache (whole, level 0's pinned, or partitioned with a two-level index) on YCSB B, C and E (universal
 * compaction on YCSB A as well): data blocks per point lookup and per scan, filters probed per
 * lookup, the block cache's hit rate, bytes and entries written per user write in the run and in
 * the load. And `lsm predict` on the same design and workload agrees with RocksDB on the figures
 * it predicts (all but entries written; universal compaction too, replayed with the engine's
 * picker). `npm run rocksdb-twin` prints the whole table at 1,000,000 records.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { buildReferee } from './referee.mjs';
import { TWIN_FIGURES, WRITE_FIGURES, figuresAgree } from '../../web/src/documents/twinAgreement.mjs';
import { METADATA_FIGURES, PREDICTED, SHAPES, caseLines, runCase } from './twin.mjs';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lsm-twin-'));
let driver;
before(() => {
  driver = buildReferee(work);
});
after(() => fs.rmSync(work, { recursive: true, force: true }));

const SCALE = 1 / 64;

/**
 * Figures that still differ at this scale, by case, with what was measured (2026-11-26). The
 * test asserts they differ, so a change that closes one fails here until it is removed.
 * - (closed) defaults · C, block cache hit rate, was engine 0.2951 against RocksDB 0.2566: the
 *   engine moved one file per trivial move where RocksDB moves up to 4, so its tree differed.
 *   Now 0.2573 against 0.2566.
 * - cached-meta · B and C, index + filter blocks read per point lookup: engine 0.2820 and 0.3660,
 *   RocksDB 0.3352 and 0.4270 (a 128 KiB cache holding 4.6 KB index blocks). The engine's index
 *   block is now RocksDB's size (separators); what is left is likely RocksDB's charge per cache
 *   entry (its handle and block object, kFullChargeCacheMetadata), which the engine does not add:
 *   charging 100 B more per entry brought them to −10.9% and −8.8%. pinned-l0 · B and C (level
 *   0's metadata pinned): 0.2657 and 0.3660 against 0.3170 and 0.4271, the same gap.
 * - (closed) dynamic · E, block cache hit rate, was engine 0.0054 against RocksDB 0.0309: a
 *   RocksDB scan positions every level on the first file whose largest key is at least its start
 *   and reads that file's first block even when it begins past the scan's end (no upper bound),
 *   so scans starting before or between a level's files hit that one block again and again. The
 *   engine scans RocksDB-shaped designs the same way (Run::reached): now 0.0302 against 0.0309.
 */
/* - partitioned · B and C (partitioned filters, two-level index, metadata in the cache, top
 *   level pinned), index and filter partitions read per point lookup: engine 0.1779 and 0.1835
 *   (B), 0.2321 and 0.2461 (C) against RocksDB's 0.2280 and 0.2422, 0.2910 and 0.3190: the
 *   same gap as cached-meta's whole blocks. Run with 90% of the cache (117,964 B), the engine
 *   gives 0.2738 and 0.2991 on C, with data blocks 0.8539 (RocksDB 0.8513) and hit rate 0.1494
 *   (0.1484): every figure within the bar, which points at RocksDB's per-entry charge again.
 *   Data blocks per lookup, filters probed, the hit rate and writes agree.
 */
const KNOWN = {
  'partitioned · ycsb:b': ['run metadataBlocksPerLookup', 'run indexBlocksPerLookup', 'run filterBlocksPerLookup'],
  'partitioned · ycsb:c': ['run metadataBlocksPerLookup', 'run indexBlocksPerLookup', 'run filterBlocksPerLookup'],
  'cached-meta · ycsb:b': ['run metadataBlocksPerLookup'],
  'cached-meta · ycsb:c': ['run metadataBlocksPerLookup'],
  'pinned-l0 · ycsb:b': ['run metadataBlocksPerLookup'],
  'pinned-l0 · ycsb:c': ['run metadataBlocksPerLookup'],
};

/** Every figure of a case agrees (the bar) but the known ones; the message lists those that do not. */
function assertAgrees(id, c) {
  const off = [];
  const lines = [];
  for (const phase of ['run', 'load']) {
    // Index and filter blocks apart, where partitions put them in the cache.
    const figures = id === 'partitioned' ? [...TWIN_FIGURES, ...METADATA_FIGURES] : TWIN_FIGURES;
    for (const [key, name] of figures.filter(([key]) => phase === 'run' || WRITE_FIGURES.includes(key))) {
      const [e, r] = [c[phase].engine[key], c[phase].rocksdb[key]];
      if (!figuresAgree(e, r)) {
        off.push(`${phase} ${key}`);
        lines.push(`${phase} ${name}: engine ${e.toFixed(4)}, RocksDB ${r.toFixed(4)}`);
      }
    }
  }
  assert.deepEqual(off, KNOWN[`${id} · ${c.workload}`] ?? [], `${c.label} · ${c.workload}: ${lines.join('; ')}`);
}

/**
 * Predicted figures that still differ from RocksDB at this scale, by case, with what was measured
 * (2026-11-26); asserted to differ, like KNOWN.
 * - (closed) dynamic · E, block cache hit rate, was predicted 0.0076 against RocksDB 0.0309: the
 *   prediction now prices the first block a scan reads of a level's file past a gap
 *   (first_block_reads): 0.0327.
 * - defaults, bloom10 · E, block cache hit rate: predicted 0.0355, RocksDB 0.0138, the engine
 *   0.0132; cached-meta, pinned-l0, partitioned · E: predicted 0.0296, 0.0297, 0.0316 against
 *   RocksDB 0.0046, 0.0048, 0.0063 (engine 0.0039, 0.0029, 0.0053). Those scan hits are the
 *   first block of level 1's first file, read by every scan starting before it; both real trees
 *   have level 1 over about [0.13, 0.71] of the key space, the predictor's replay leaves it over
 *   [0, 0.27] and [0.71, 1], a 0.44 gap, so it prices three times the scans landing in a gap. At
 *   1,000,000 records its trees line up and it agrees (defaults 0.0183 against 0.0182).
 * - bloom10, l0-2-x4 · B, block cache hit rate (2026-11-27): predicted 0.1244 and 0.1245 against
 *   RocksDB 0.1038 and 0.1015 (engine 0.1028, 0.1030), 0.021 and 0.023 apart. Since the cache
 *   model prices a block of many keys by its hottest key (a mixture, checked against a simulated
 *   LRU; it brought the 1M defaults · A and F to agree: 0.039 → 0.067 against 0.080, 0.044 →
 *   0.072 against 0.085), B's hit rate at this scale rose from about 0.10 past the bar; dynamic
 *   and universal · B (0.1244, 0.1253 against 0.1053) stay just inside it. Not yet found.
 * - partitioned · C, block cache hit rate: predicted 0.1695, RocksDB 0.1487, the engine 0.1667
 *   (0.0208 apart, just past the 0.02 bar): the cache model counts partitions' requests as
 *   evenly split, so it leaves them cached less than they are and the data blocks more room.
 */
const KNOWN_PREDICTED = {
  'partitioned · ycsb:c': ['run cacheHitRate'],
  'bloom10 · ycsb:b': ['run cacheHitRate'],
  'l0-2-x4 · ycsb:b': ['run cacheHitRate'],
  ...Object.fromEntries(['defaults', 'bloom10', 'cached-meta', 'pinned-l0', 'partitioned'].map((id) => [`${id} · ycsb:e`, ['run cacheHitRate']])),
};

/** Every predicted figure agrees with RocksDB's (the bar) but the known ones. */
function assertPredictionAgrees(id, c) {
  const off = [];
  const lines = [];
  for (const phase of ['run', 'load']) {
    for (const key of PREDICTED) {
      const [p, r] = [c[phase].predicted[key], c[phase].rocksdb[key]];
      if (p == null) continue;
      if (!figuresAgree(p, r)) {
        off.push(`${phase} ${key}`);
        lines.push(`${phase} ${key}: predicted ${p.toFixed(4)}, RocksDB ${r.toFixed(4)}, engine ${c[phase].engine[key].toFixed(4)}`);
      }
    }
  }
  assert.deepEqual(off, KNOWN_PREDICTED[`${id} · ${c.workload}`] ?? [], `${c.label} · ${c.workload}, lsm predict: ${lines.join('; ')}`);
}

// The issue's five shapes, and index and filter blocks in the cache (level 0's pinned or not), on a
// read-mostly, a read-only
// and a scan workload; universal compaction on the update-heavy YCSB A too (its merges are chosen
// by the runs' sizes, which updates change).
const CASES = [
  ...['defaults', 'bloom10', 'l0-2-x4', 'dynamic', 'cached-meta', 'pinned-l0', 'partitioned'].flatMap((id) => ['ycsb:b', 'ycsb:c', 'ycsb:e'].map((w) => [id, w])),
  ...['ycsb:a', 'ycsb:b', 'ycsb:c', 'ycsb:e'].map((w) => ['universal', w]),
];
for (const [id, workload] of CASES) {
  test(`${id} · ${workload}: the engine and RocksDB agree on every figure`, async () => {
    const shape = SHAPES.find((s) => s.id === id);
    const c = await runCase({ driver, dir: path.join(work, `${id}-${workload.slice(5)}`), shape, workload, records: 20_000, operations: 10_000, scale: SCALE });
    console.log(caseLines(c).join('\n'));
    assert.equal(c.run.engine.lookups, c.run.rocksdb.lookups, 'the same lookups on both sides');
    assert.equal(c.run.engine.scans, c.run.rocksdb.scans, 'the same scans on both sides');
    assertAgrees(id, c);
    assertPredictionAgrees(id, c);
    if (id === 'partitioned' && workload !== 'ycsb:e') {
      // Partitions are read per lookup on both sides, index and filter about alike (aligned cuts).
      for (const side of ['engine', 'rocksdb']) {
        const { indexBlocksPerLookup: i, filterBlocksPerLookup: f } = c.run[side];
        assert.ok(i > 0.1 && f > 0.1 && Math.abs(i / f - 1) < 0.15, `${side}: index ${i}, filter ${f}`);
      }
      assert.ok(c.importNotes.every((n) => !/index_type|partition_filters|metadata_block_size|pin_top_level/.test(n)), c.importNotes.join('\n'));
    }
    if (id === 'bloom10') assert.ok(c.load.rocksdb.trivialMoves > 0 && c.load.engine.trivialMoves > 0, 'both moved files trivially');
    if (id === 'universal') {
      // Universal compaction, not tiering: imported as the mechanism, and both trees use the
      // last level (L6) for the oldest run; neither moves a file (allow_trivial_move is off).
      assert.ok(!c.importNotes.some((n) => n.includes('tiering')), c.importNotes.join('\n'));
      assert.ok(c.load.engine.bytesPerLevel[6] > 0 && c.load.rocksdb.bytesPerLevel[6] > 0, 'both wrote L6');
      assert.equal(c.load.engine.trivialMoves + c.load.rocksdb.trivialMoves, 0);
    }
  });
}

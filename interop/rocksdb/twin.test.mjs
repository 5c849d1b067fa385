/**
 * The RocksDB twin at CI scale (sizes of RocksDB's defaults × 1/64: a 1 MiB memtable, 4 MiB
 * level 1, 1 MiB files, a 128 KiB block cache; YCSB B, 20,000 records of 1,000 B = 19× the
 * memtable, 10,000 operations): the engine runs the design `lsm import --rocksdb` makes of each
 * OPTIONS file, RocksDB plays the same stream through the referee. Asserted: the figures the
 * engine reproduces today (data blocks per point lookup with a filter, entries written per user
 * write in the run). The whole table is printed, the figures that still differ included;
 * `npm run rocksdb-twin` prints it at 1,000,000 records.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { buildReferee } from './referee.mjs';
import { SHAPES, agree, caseLines, runCase } from './twin.mjs';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lsm-twin-'));
let driver;
before(() => {
  driver = buildReferee(work);
});
after(() => fs.rmSync(work, { recursive: true, force: true }));

const SCALE = 1 / 64;

for (const id of ['bloom10', 'l0-2-x4']) {
  test(`${id}: the engine reads as many data blocks per lookup as RocksDB, and writes as many entries`, async () => {
    const shape = SHAPES.find((s) => s.id === id);
    const c = await runCase({ driver, dir: path.join(work, id), shape, workload: 'ycsb:b', records: 20_000, operations: 10_000, scale: SCALE });
    console.log(caseLines(c).join('\n'));
    assert.ok(c.run.rocksdb.lookups >= 9_000 && c.run.engine.lookups === c.run.rocksdb.lookups, 'the same lookups on both sides');
    const { engine, rocksdb } = c.run;
    assert.ok(agree(engine.dataBlocksPerLookup, rocksdb.dataBlocksPerLookup), `data blocks per lookup: engine ${engine.dataBlocksPerLookup}, RocksDB ${rocksdb.dataBlocksPerLookup}`);
    assert.ok(agree(engine.entriesWrittenPerWrite, rocksdb.entriesWrittenPerWrite), `entries written per write: engine ${engine.entriesWrittenPerWrite}, RocksDB ${rocksdb.entriesWrittenPerWrite}`);
    assert.ok(rocksdb.trivialMoves + c.load.rocksdb.trivialMoves > 0, 'RocksDB moved files trivially');
  });
}

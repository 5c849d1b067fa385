/**
 * Write amplification held against a real LevelDB (Debian's libleveldb 1.23), side by side in one
 * run: the same stream of writes (the engine's own key stream) into LevelDB, into the engine
 * configured as LevelDB's design, and through the MSLS model of that design (measure.ts).
 *
 * Steady state (N keys written once, a warm-up of updates, then whole level-0 cycles), uniform
 * and Zipf 0.99 updates, two key-space sizes with 100 B values and one with 1000 B values:
 * - what the merges write (everything but the flush): engine within 10% of LevelDB;
 * - everything the tables take (flushes + merges): MSLS within 15% of LevelDB, the engine within
 *   10% under uniform updates. Under skew LevelDB's flush writes every version its memtable holds
 *   (WA_flush = 1) while the engine's buffer keeps one per key (Unique(wal)/wal, as the paper's
 *   model assumes); that difference is asserted as measured, and the MSLS model is given
 *   LevelDB's flush (`flushKeepsVersions`).
 * From empty (a new database filling with N keys): the engine writes more than LevelDB, which
 * skips writes a young tree allows (see the test), by less than 20%; the from-empty model
 * (models/src/leveled-growth.ts) follows each at every flush, LevelDB with its shortcuts.
 *
 * Run with `npm test -- leveldb` (needs `apt-get install libleveldb-dev g++`).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { leveledGrowthWriteAmplification } from '@lsm/models';
import { compareGrowth } from '../../web/src/compute/writeAmp';
import { leveldbGrowthParams } from '../../web/src/documents/designs/leveldb';
import type { LeveldbCaseResult } from '../../web/src/documents/writeAmp';
import { CASES, buildDriver, formatResults, measureAll } from './measure';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lsm-leveldb-'));
after(() => fs.rmSync(work, { recursive: true, force: true }));

let results: LeveldbCaseResult[] = [];

/** The from-empty point at N keys (the end of the N inserts). */
const atKeys = (r: LeveldbCaseResult, side: 'leveldb' | 'engine') => r[side].fromEmpty.filter((p) => p.inserts <= r.case.keys).at(-1);
before(async () => {
  results = await measureAll(CASES, buildDriver(work), work);
  console.log(`\nWrite amplification, entries written per write by destination (the log apart), steady state:\n${formatResults(results)}\n`);
  for (const r of results) {
    const l = atKeys(r, 'leveldb');
    const e = atKeys(r, 'engine');
    const gl = growthAgreement(r, 'leveldb');
    const ge = growthAgreement(r, 'engine');
    const f = (g: ReturnType<typeof growthAgreement>) => `${g.points.at(-1)?.model.toFixed(3)} (worst ${(g.worst * 100).toFixed(1)}% over ${g.points.length} flushes)`;
    const a = r.leveldb.accounting;
    if (a) console.log(`${r.case.id}: LevelDB's tables took ${a.logMiB.toFixed(1)} MiB by its info log, ${a.statsMiB} MB by leveldb.stats`);
    console.log(
      `${r.case.id}: from empty to ${r.case.keys.toLocaleString('en-US')} keys: LevelDB ${l?.total.toFixed(3)}, model with its shortcuts ${f(gl)}; engine ${e?.total.toFixed(3)}, model by its rules ${f(ge)}`,
    );
  }
});

/**
 * The from-empty model against one side's series, on that side's flush cadence, at every flush
 * from the first level-0 merge on (before it, both write each entry once).
 */
function growthAgreement(r: LeveldbCaseResult, side: 'leveldb' | 'engine') {
  const params = { ...leveldbGrowthParams(r.calibration, r.case.keys, side === 'leveldb'), bufferEntries: r[side].insertsPerFlush };
  const model = leveledGrowthWriteAmplification(params);
  const measured = r[side].fromEmpty.filter((p) => p.inserts <= r.case.keys);
  return compareGrowth(measured, model.points, params);
}

const within = (measured: number, reference: number, tolerance: number, what: string) => {
  const ratio = measured / reference;
  assert.ok(Math.abs(ratio - 1) <= tolerance, `${what}: ${measured.toFixed(3)} vs LevelDB ${reference.toFixed(3)} (${((ratio - 1) * 100).toFixed(1)}%, allowed ±${tolerance * 100}%)`);
};

const merges = (levels: number[]) => levels.reduce((a, b) => a + b, 0);

test("the driver's counts from LevelDB's info log add up to what its own leveldb.stats reports", () => {
  for (const r of results) {
    const a = r.leveldb.accounting;
    assert.ok(a && a.statsLevels >= 2, `${r.case.id}: leveldb.stats read`);
    // leveldb.stats rounds each level to a whole MB.
    const slack = 0.5 * a.statsLevels + 0.002 * a.logMiB;
    assert.ok(Math.abs(a.logMiB - a.statsMiB) <= slack, `${r.case.id}: info log ${a.logMiB.toFixed(1)} MiB vs leveldb.stats ${a.statsMiB} MB`);
  }
});

for (const c of CASES) {
  test(`${c.id}: the engine's merges write within 10% of LevelDB's; MSLS within 15% of everything LevelDB's tables take`, () => {
    const r = results.find((x) => x.case.id === c.id);
    assert.ok(r, 'measured');
    const ldb = r.leveldb.steady;
    const eng = r.engine.steady;
    assert.ok(ldb.cycles >= 8 && eng.cycles >= 8, `whole level-0 cycles in the windows: LevelDB ${ldb.cycles}, engine ${eng.cycles}`);
    // Both took the same writes at the same cadence.
    assert.equal(r.engine.insertsPerFlush, r.leveldb.insertsPerFlush);
    within(merges(eng.levels), merges(ldb.levels), 0.1, 'engine, merges');
    within(r.msls.total, ldb.total, 0.15, 'MSLS, flushes + merges');
    // LevelDB flushes every version; the engine flushes one per key, as the paper's Unique(wal)/wal.
    assert.ok(Math.abs(ldb.flush - 1) < 0.01, `LevelDB's flush writes every version: ${ldb.flush}`);
    assert.equal(r.msls.flush, 1);
    within(eng.flush, r.msls.paperFlush, 0.02, "engine's flush vs the paper's Unique(wal)/wal");
    if (c.theta === 0) within(eng.total, ldb.total, 0.1, 'engine, flushes + merges');
  });
}

test('from empty: filling a new database with N keys, the engine writes more than LevelDB, by less than 20%', () => {
  // LevelDB places a flush that overlaps nothing below level 0 (its first flushes go to level 2)
  // and moves a file that overlaps nothing in the level below without rewriting it; the engine
  // does neither, so a young database costs it more (12–14% at 100K–2M keys, 2026-11-25).
  for (const r of results) {
    const l = atKeys(r, 'leveldb');
    const e = atKeys(r, 'engine');
    assert.ok(l && e, `${r.case.id}: from-empty series`);
    assert.ok(e.total >= l.total, `${r.case.id}: engine ${e.total.toFixed(3)} vs LevelDB ${l.total.toFixed(3)}`);
    within(e.total, l.total, 0.2, `${r.case.id}, from empty`);
  }
});

test('from empty: the growth model within 6% of LevelDB (with its shortcuts) and of the engine (by its rules), at every flush', () => {
  for (const r of results) {
    for (const side of ['leveldb', 'engine'] as const) {
      const g = growthAgreement(r, side);
      assert.ok(g.points.length >= 10, `${r.case.id}, ${side}: ${g.points.length} flushes compared`);
      const worst = g.points.reduce((w, p) => (Math.abs(p.difference) > Math.abs(w.difference) ? p : w));
      assert.ok(
        g.worst <= 0.06,
        `${r.case.id}, ${side}: model ${worst.model.toFixed(3)} vs measured ${worst.measured.toFixed(3)} at ${worst.inserts} writes (${(worst.difference * 100).toFixed(1)}%)`,
      );
    }
  }
});

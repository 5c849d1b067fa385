/**
 * Tune's proof on RocksDB at CI scale (`npm run tune-proof -- --target rocksdb` prints it at
 * 1,000,000 records): from RocksDB 7.8's true defaults (the OPTIONS file Options() writes) with
 * every size × 1/50 (a 1.3 MiB memtable, 5.4 MiB level 1, 1.3 MiB files, a 164 KiB block cache:
 * 20,000 records of 1,000 B make a three-level tree, as 1,000,000 do at RocksDB's own sizes),
 * YCSB A and B with 10,000 operations: `lsm tune --target rocksdb` recommends, the recommended
 * OPTIONS file is the current one with the tuned options changed, and both are played on RocksDB
 * through the referee twice, alternating: YCSB A as users run RocksDB (background compactions, a
 * restart between the load and the run), YCSB B in the referee's lab mode. Asserted: the measured
 * figures are sane (every operation played, blocks read ≥ data blocks read, a tree of at least 3
 * levels, latency percentiles ordered, memory adding up; in the lab mode repeats of the same
 * design reading the same blocks, in the user mode the process model and the run's starting tree
 * recorded, the spread's median inside its range), and both the predicted and the measured gain
 * are reported. Not asserted: that they agree (that is
 * what the proof measures; see public/measured/tune-proof-rocksdb.json).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { buildReferee } from './referee.mjs';
import { DEFAULT_BLOCK_CACHE } from './twin.mjs';
import { defaultOptionsText, gainOf, median, modeArgs, parseOptions, proofLines, recommendedOptions, runProof, scaleOptions, setOption, spread, PROOF_MODES } from './proof.mjs';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lsm-proof-'));
let driver;
let defaults;
before(() => {
  driver = buildReferee(work);
  defaults = defaultOptionsText(path.join(work, 'defaults'));
});
after(() => fs.rmSync(work, { recursive: true, force: true }));

const SCALE = 1 / 50;
const CF = 'CFOptions "default"';
const TABLE = 'TableOptions/BlockBasedTable "default"';

test("the true defaults are the OPTIONS file RocksDB 7.8 writes for Options()", () => {
  const o = parseOptions(defaults);
  assert.equal(o.get('Version').get('rocksdb_version'), '7.8.3');
  assert.equal(o.get(CF).get('write_buffer_size'), String(64 << 20));
  assert.equal(o.get(CF).get('max_write_buffer_number'), '2');
  assert.equal(o.get(CF).get('compression'), 'kSnappyCompression');
  assert.equal(o.get(TABLE).get('filter_policy'), 'nullptr');
  assert.equal(o.get(TABLE).get('block_size'), '4096');
  const scaled = parseOptions(scaleOptions(defaults, SCALE)).get(CF);
  assert.equal(scaled.get('write_buffer_size'), String(Math.round((64 << 20) * SCALE)));
  assert.equal(scaled.get('max_bytes_for_level_base'), String(Math.round((256 << 20) * SCALE)));
  assert.equal(scaled.get('target_file_size_base'), String(Math.round((64 << 20) * SCALE)));
  assert.equal(scaled.get('compression'), 'kSnappyCompression', 'only the sizes change');
});

test('the recommended OPTIONS change exactly what the export writes differently, nothing else', () => {
  const current = '[Version]\n  rocksdb_version=7.8.3\n[CFOptions "default"]\n  write_buffer_size=100\n  compression=kSnappyCompression\n  max_open_files=7\n[TableOptions/BlockBasedTable "default"]\n  filter_policy=nullptr\n';
  const exportedCurrent = '# x\n[Version]\n  rocksdb_version=7.0.0\n[CFOptions "default"]\n  write_buffer_size=100\n  compression=kNoCompression\n  num_levels=7\n[TableOptions/BlockBasedTable "default"]\n  filter_policy=nullptr\n';
  const exportedRecommended =
    '[Version]\n  rocksdb_version=7.0.0\n[CFOptions "default"]\n  write_buffer_size=90\n  compression=kNoCompression\n  max_bytes_for_level_multiplier=4\n[TableOptions/BlockBasedTable "default"]\n  filter_policy=bloomfilter:10:false\n';
  const r = recommendedOptions(current, exportedCurrent, exportedRecommended);
  assert.deepEqual(
    r.changes.map((c) => `${c.key}: ${c.from} → ${c.to}`),
    ['write_buffer_size: 100 → 90', 'max_bytes_for_level_multiplier: (default) → 4', 'filter_policy: nullptr → bloomfilter:10:false'],
  );
  const o = parseOptions(r.text);
  assert.equal(o.get(CF).get('compression'), 'kSnappyCompression', "an option the tune did not change keeps the user's value");
  assert.equal(o.get(CF).get('max_open_files'), '7');
  assert.equal(o.get(CF).get('max_bytes_for_level_multiplier'), '4');
  assert.equal(o.get('Version').get('rocksdb_version'), '7.8.3');
  assert.deepEqual(r.notes, ['num_levels (CFOptions "default"): the export writes it for the current design only; left as the current file has it']);
  assert.equal(setOption('[A]\n  k=1\n', 'B', 'k', '2'), '[A]\n  k=1\n[B]\n  k=2\n');
});

test('a gain inside the runs’ spread is "no change"; per pair, its median and range', () => {
  assert.deepEqual(gainOf([2, 2], [1, 1]), { gain: 0.5, lo: 0.5, hi: 0.5, change: true, pairs: { values: [0.5, 0.5], median: 0.5, min: 0.5, max: 0.5 } });
  // Three pairs: 1 - 1/2, 1 - 1/4, 1 - 3/4.
  const p = gainOf([2, 4, 4], [1, 1, 3]).pairs;
  assert.deepEqual(p.values, [0.5, 0.75, 0.25]);
  assert.deepEqual([p.median, p.min, p.max], [0.5, 0.25, 0.75]);
  assert.equal(median([3, 1, 2, 10]), 2.5);
  assert.deepEqual(spread([0.95, 2.39, 1.2]), { min: 0.95, max: 2.39, mean: (0.95 + 2.39 + 1.2) / 3, median: 1.2 });
  const noisy = gainOf([100, 110], [108, 95], false);
  assert.equal(noisy.change, false);
  assert.ok(noisy.lo < 0 && noisy.hi > 0);
  assert.ok(gainOf([100, 101], [150, 151], false).change);
});

test('the proof modes: user (the default) adds no flag, lab is the referee\'s lab switch, threads only as users run it', () => {
  assert.deepEqual(modeArgs('user'), []);
  assert.deepEqual(modeArgs('user', 4), ['--threads', '4']);
  assert.deepEqual(modeArgs('lab'), ['--sync-compactions', 'on', '--between', 'continue']);
  assert.throws(() => modeArgs('lab', 2), /the lab mode plays one client/);
  assert.throws(() => modeArgs('fast'), /mode must be one of user, lab, got "fast"/);
  assert.throws(() => modeArgs('user', 0), /threads must be a whole number in \[1, 64\]/);
});

for (const [letter, mode] of [['a', 'user'], ['b', 'lab']]) {
  test(`YCSB ${letter.toUpperCase()} from the true defaults in the ${mode} mode: tuned, exported and played on RocksDB, both gains reported`, async () => {
    const c = await runProof({
      mode,
      driver,
      dir: path.join(work, letter),
      currentText: scaleOptions(defaults, SCALE),
      blockCacheBytes: Math.round(DEFAULT_BLOCK_CACHE * SCALE),
      workload: `ycsb:${letter}`,
      records: 20_000,
      operations: 10_000,
      repeats: 2,
    });
    const lines = proofLines(c);
    console.log(lines.join('\n'));
    assert.ok(Number.isFinite(c.predicted.gain) && c.predicted.gain >= 0, `predicted gain ${c.predicted.gain}`);
    for (const key of ['ioPerOp', 'blocksPerOp', 'dataBlocksPerOp', 'writtenPerUserByte', 'opsPerSecond']) {
      const g = c.gains[key];
      assert.ok(Number.isFinite(g.gain) && g.lo <= g.gain + 1e-12 && g.gain <= g.hi + 1e-12, `${key}: ${JSON.stringify(g)}`);
    }
    assert.match(lines.at(-1), /gain: predicted [+-]\d+\.\d% · measured I\/O per op [+-]\d+\.\d%/);
    // The recommended file is what RocksDB opened: every change in it, the rest as it was.
    const rec = parseOptions(c.files.recommendedText);
    for (const ch of c.changes.filter((x) => x.section !== 'block cache')) assert.equal(rec.get(ch.section).get(ch.key), ch.to, ch.key);
    assert.equal(rec.get(CF).get('compression'), 'kSnappyCompression');
    for (const design of ['current', 'recommended']) {
      const runs = c.runs[design];
      assert.equal(runs.length, 2);
      for (const r of runs) {
        assert.equal(r.ops, 10_000, `${design}: every operation played`);
        assert.equal(typeof r.directReads, 'boolean');
        // The defaults' tree has L0 and two levels; a recommendation may hold the data in one
        // level below L0 (a larger max_bytes_for_level_base writes less).
        assert.ok(r.levels.length >= (design === 'current' ? 3 : 2), `${design}: a tree of ${r.levels.length} levels`);
        assert.ok(r.blocksPerOp >= r.dataBlocksPerOp && r.dataBlocksPerOp > 0, `${design}: blocks ${r.blocksPerOp}, data ${r.dataBlocksPerOp}`);
        assert.ok(r.dataBlocksPerLookup < 10, `${design}: ${r.dataBlocksPerLookup} data blocks per lookup`);
        assert.ok(r.ioPerOp >= r.blocksPerOp);
        assert.ok(r.writtenPerUserByte > 0.1 && r.writtenPerUserByte < 50, `${design}: ${r.writtenPerUserByte} written per user byte`);
        assert.ok(r.opsPerSecond > 0);
        assert.deepEqual(Object.keys(r.latency).sort(), ['get', 'write'], 'YCSB A and B: reads and updates');
        for (const [cls, l] of Object.entries(r.latency)) {
          assert.ok(l.p50 > 0 && l.p50 <= l.p99 && l.p99 <= l.max, `${design} ${cls}: ${JSON.stringify(l)}`);
        }
        assert.equal(r.latency.get.count + r.latency.write.count, 10_000);
        const m = r.memory;
        assert.equal(m.memtables, 2 * Number(parseOptions(design === 'current' ? scaleOptions(defaults, SCALE) : c.files.recommendedText).get(CF).get('write_buffer_size')));
        assert.equal(m.total, m.memtables + m.blockCache + m.tableReaders);
        assert.ok(m.tableReaders > 0, 'index blocks live outside the cache');
      }
      const s = c.blocksPerOp[design];
      assert.deepEqual(s, spread(runs.map((r) => r.blocksPerOp)));
      assert.ok(s.min <= s.median && s.median <= s.max);
      for (const r of runs) {
        assert.deepEqual(r.process, mode === 'lab' ? { compactions: 'synchronous (lab mode: waited after every write that sealed a memtable)', between: 'continue', threads: 1 } : { compactions: 'background', between: 'restart', threads: 1 });
        assert.ok(Number.isInteger(r.runStart.level0_files) && r.runStart.level0_files >= 0, `${design}: ${r.runStart.level0_files} L0 files as the run began`);
      }
      if (mode === 'lab') {
        // Same stream, same options, compactions waited for: the same blocks read, run after run.
        const [x, y] = runs.map((r) => r.blocksPerOp);
        assert.ok(Math.abs(x - y) <= 0.01 * Math.max(x, y), `${design}: ${x} and ${y} blocks per operation`);
        // ... and the run begins on the tree the load left with every merge done: level 0 below its trigger (4).
        for (const r of runs) assert.ok(r.runStart.level0_files < 4, `${design}: ${r.runStart.level0_files} L0 files`);
      }
    }
    assert.deepEqual(c.process, { compactions: PROOF_MODES[mode].compactions, between: PROOF_MODES[mode].between, threads: 1 });
    assert.match(lines[0], new RegExp(`${mode} mode: ${PROOF_MODES[mode].compactions} compactions, ${PROOF_MODES[mode].between} between load and run, 1 client thread`));
    assert.match(lines.join('\n'), /gain per pair \(current i against recommended i\): median [+-]\d+\.\d% \[[+-]\d+\.\d%…[+-]\d+\.\d%\] over 2 pairs/);
  });
}

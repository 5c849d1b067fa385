/**
 * The RocksDB referee (referee.cc, played through referee.mjs) checked against what the stream
 * itself says: the engine's operation stream (`lsm ops`) is parsed here too and replayed on a
 * plain model (a set of live keys), so every count the driver reports (operations per tag, lookups
 * found, keys scanned, entries in the tree) has an independent expected value; and against
 * RocksDB's own accounting (tickers, cfstats), which the driver's listener-based counts must match.
 *
 * Small scales (20,000 records of 1,000 bytes, 1 MiB memtables and files, a 4 MiB level 1), so
 * the suite stays well under a minute on two cores. Run with `npm test -- rocksdb`
 * (needs `apt-get install librocksdb-dev g++` and the lsm CLI built).
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { rocksdbBlockReadUs } from './calibrate.mjs';
import { LAB_MODE, LSM, buildReferee, playOnRocksdb, playStream } from './referee.mjs';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lsm-referee-test-'));
after(() => fs.rmSync(work, { recursive: true, force: true }));

let driver;
before(() => {
  assert.ok(fs.existsSync(LSM), `${LSM} is missing: cargo build --release --bin lsm --manifest-path wasm-engine/Cargo.toml`);
  driver = buildReferee(work);
});

/** A RocksDB OPTIONS file with small memtables, files and levels; `filter` is the table's filter_policy line, if any. */
function optionsFile(name, filter) {
  const file = path.join(work, `${name}.ini`);
  fs.writeFileSync(
    file,
    [
      '[Version]',
      '  rocksdb_version=7.8.3',
      '  options_file_version=1.1',
      '',
      '[DBOptions]',
      '  create_if_missing=true',
      '',
      '[CFOptions "default"]',
      '  write_buffer_size=1048576',
      '  target_file_size_base=1048576',
      '  max_bytes_for_level_base=4194304',
      '  max_bytes_for_level_multiplier=10',
      '  level0_file_num_compaction_trigger=4',
      '  compression=kNoCompression',
      '  table_factory=BlockBasedTable',
      '',
      '[TableOptions/BlockBasedTable "default"]',
      '  block_size=4096',
      ...(filter ? [`  filter_policy=${filter}`] : []),
      '',
    ].join('\n'),
  );
  return file;
}

const BLOOM = () => optionsFile('bloom', 'bloomfilter:10:false');
const NO_FILTER = () => optionsFile('no-filter', null);

/** A workload as Workload JSON in the scratch directory. */
function workloadFile(name, doc) {
  const file = path.join(work, `${name}.json`);
  fs.writeFileSync(file, JSON.stringify({ kind: 'lsm-navigator/workload', version: 1, name, seed: 11, ...doc }));
  return file;
}

// ---------------------------------------------------------------------------------------------
// The stream, read here independently of the driver.

const TAGS = ['I', 'U', 'D', 'G', 'M', 'Q', 'S'];

/** Index of the first element of sorted `a` that is >= `k` (keys are latin1 strings: bytewise order). */
function lowerBound(a, k) {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] < k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Parse an LSMOPS1 stream and replay it on a model: per phase the operations by tag, the bytes
 * written, and what every lookup and scan must return (found counts by tag, keys scanned). Keys
 * are latin1 strings, whose order is the bytewise order RocksDB's default comparator uses.
 */
function replay(buf) {
  assert.equal(buf.subarray(0, 8).toString('latin1'), 'LSMOPS1\n');
  const fresh = () => ({ ops: Object.fromEntries(TAGS.map((t) => [t, 0])), found: { G: 0, M: 0, Q: 0 }, scanKeys: 0, keyBytes: 0, valueBytes: 0, puts: 0 });
  const phases = { load: fresh(), run: fresh() };
  let phase = phases.load;
  const live = new Set();
  const sorted = []; // the live keys in order, kept only while the stream has scans
  const hasScans = buf.includes(0x53); // cheap over-approximation: an 'S' byte anywhere
  let i = 8;
  const bytes = () => {
    const n = buf.readUInt32LE(i);
    const s = buf.toString('latin1', i + 4, i + 4 + n);
    i += 4 + n;
    return s;
  };
  let liveAfterLoad = 0;
  while (i < buf.length) {
    const tag = String.fromCharCode(buf[i++]);
    if (tag === 'L') continue;
    if (tag === 'R') {
      liveAfterLoad = live.size;
      phase = phases.run;
      continue;
    }
    assert.ok(TAGS.includes(tag), `unknown tag ${tag} at ${i - 1}`);
    phase.ops[tag] += 1;
    if (tag === 'I' || tag === 'U') {
      const key = bytes();
      const value = bytes();
      phase.keyBytes += key.length;
      phase.valueBytes += value.length;
      phase.puts += 1;
      if (!live.has(key)) {
        live.add(key);
        if (hasScans) sorted.splice(lowerBound(sorted, key), 0, key);
      }
    } else if (tag === 'D') {
      const key = bytes();
      phase.keyBytes += key.length;
      if (live.delete(key) && hasScans) sorted.splice(lowerBound(sorted, key), 1);
    } else if (tag === 'S') {
      const start = bytes();
      const end = bytes();
      phase.scanKeys += Math.max(0, lowerBound(sorted, `${end}\0`) - lowerBound(sorted, start));
    } else {
      if (live.has(bytes())) phase.found[tag] += 1;
    }
  }
  if (phase === phases.load) liveAfterLoad = live.size;
  return { phases, liveAfterLoad, liveAfterRun: live.size };
}

/** The stream `lsm ops` prints for W (the same bytes playOnRocksdb pipes into the driver: the generator is seeded). */
function opsStream(workload, records, operations) {
  const args = ['ops', '--workload', workload];
  if (records !== undefined) args.push('--records', String(records), '--operations', String(operations));
  return execFileSync(LSM, args, { maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] });
}

// ---------------------------------------------------------------------------------------------
// Checks shared by the runs.

/** The driver's op counts and lookup / scan results equal the model's, phase by phase. */
function assertMatchesStream(r, expected) {
  for (const name of ['load', 'run']) {
    const want = expected.phases[name];
    const got = r[name];
    for (const t of TAGS) assert.equal(got.ops[t], want.ops[t], `${name}: ${t} operations`);
    assert.equal(got.ops.total, TAGS.reduce((n, t) => n + want.ops[t], 0), `${name}: total operations`);
    assert.equal(got.lookups.existing.count, want.ops.G, `${name}: existing-key lookups`);
    assert.equal(got.lookups.missing.count, want.ops.M, `${name}: missing-key lookups`);
    assert.equal(got.lookups.unknown.count, want.ops.Q, `${name}: unknown lookups`);
    assert.equal(got.lookups.existing.found, want.found.G, `${name}: existing-key lookups found`);
    assert.equal(got.lookups.missing.found, want.found.M, `${name}: missing-key lookups found`);
    assert.equal(got.lookups.unknown.found, want.found.Q, `${name}: unknown lookups found`);
    assert.equal(got.scans.count, want.ops.S, `${name}: scans`);
    assert.equal(got.scans.keys, want.scanKeys, `${name}: keys scanned`);
    assert.equal(got.writes.count, want.ops.I + want.ops.U + want.ops.D, `${name}: writes`);
    assert.equal(got.writes.key_bytes, want.keyBytes, `${name}: key bytes written`);
    assert.equal(got.writes.value_bytes, want.valueBytes, `${name}: value bytes written`);
  }
}

/** Every file's key range is ordered; levels 1+ hold disjoint files in key order; totals add up. */
function assertTreeWellFormed(tree, what) {
  let files = 0;
  let bytes = 0;
  let entries = 0;
  for (const level of tree.levels) {
    assert.equal(level.file_count, level.files.length, `${what}: L${level.level} file count`);
    assert.equal(level.bytes, level.files.reduce((n, f) => n + f.size, 0), `${what}: L${level.level} bytes`);
    assert.equal(level.entries, level.files.reduce((n, f) => n + f.entries, 0), `${what}: L${level.level} entries`);
    for (const f of level.files) {
      assert.equal(f.level, level.level);
      assert.ok(f.size > 0 && f.entries > 0, `${what}: ${f.name} is empty`);
      // Hex of bytes compares as the bytes do (two digits per byte, a prefix sorts first).
      assert.ok(f.smallest_key_hex <= f.largest_key_hex, `${what}: ${f.name} has smallest > largest`);
    }
    if (level.level > 0) {
      for (let k = 1; k < level.files.length; k++) {
        assert.ok(level.files[k - 1].largest_key_hex < level.files[k].smallest_key_hex, `${what}: L${level.level} files overlap`);
      }
    }
    files += level.file_count;
    bytes += level.bytes;
    entries += level.entries;
  }
  assert.equal(tree.file_count, files);
  assert.equal(tree.bytes, bytes);
  assert.equal(tree.entries, entries);
}

const levelsWithFiles = (tree) => tree.levels.filter((l) => l.file_count > 0).length;

/** `a` and `b` within `tolerance` (a share of `b`). */
function near(a, b, tolerance, what) {
  assert.ok(Math.abs(a - b) <= tolerance * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);
}

/**
 * The driver's flush and compaction counts against RocksDB's own: the bytes its listener counted
 * against the flush / compaction write tickers, and the trivial moves it recognised (by file
 * numbers) against cfstats' MovedGB per level, which RocksDB keeps itself.
 */
function assertAccounting(r) {
  let moved = 0;
  const movedByLevel = new Map();
  for (const name of ['load', 'run']) {
    const p = r[name];
    // Background compactions and no wait at the load's end: RocksDB's tickers count a job's bytes
    // at other moments than its listener calls (a compaction's as it goes), so the load's end
    // cuts the two at different points of the work in flight. The run's end is always waited for.
    if (!(name === 'load' && r.process.compactions === 'background')) {
      near(p.flush.bytes, p.tickers['rocksdb.flush.write.bytes'], 0.01, `${name}: flush bytes vs FLUSH_WRITE_BYTES`);
      near(p.compactions.output_bytes, p.tickers['rocksdb.compact.write.bytes'], 0.01, `${name}: compaction bytes vs COMPACT_WRITE_BYTES`);
      // COMPACT_READ_BYTES is what the compaction threads read from files, which is a little more
      // than the input files' sizes (measured: up to ~1% at 400-byte values; table blocks read
      // again, beyond the merge's one pass).
      const read = p.tickers['rocksdb.compact.read.bytes'];
      assert.ok(p.compactions.input_bytes <= read && read <= 1.05 * p.compactions.input_bytes, `${name}: compaction input ${p.compactions.input_bytes} vs COMPACT_READ_BYTES ${read}`);
    }
    let count = 0;
    for (const l of p.compactions.by_output_level) {
      count += l.count;
      moved += l.moved_bytes;
      movedByLevel.set(l.level, (movedByLevel.get(l.level) ?? 0) + l.moved_bytes);
      // Compactions into level L read from L-1 and L only (leveled compaction, no intra-L0 here).
      for (const from of Object.keys(l.input_bytes_by_level)) assert.ok([l.level - 1, l.level].includes(Number(from)), `L${from} into L${l.level}`);
    }
    assert.equal(p.compactions.count, count);
  }
  // cfstats is cumulative over the process and in GiB with 6 decimals (about 1 KiB): with a
  // restart between the load and the run, the run's process holds the run's compactions only.
  if (r.process.between === 'restart') {
    moved = 0;
    movedByLevel.clear();
    for (const l of r.run.compactions.by_output_level) {
      moved += l.moved_bytes;
      movedByLevel.set(l.level, (movedByLevel.get(l.level) ?? 0) + l.moved_bytes);
    }
  }
  const cf = r.run.cfstats;
  assert.ok(Math.abs(moved - cf['compaction.Sum.MovedGB'] * 2 ** 30) <= 2 ** 30 * 1e-6, `moved ${moved} bytes vs cfstats MovedGB`);
  for (const [level, bytes] of movedByLevel) {
    assert.ok(Math.abs(bytes - cf[`compaction.L${level}.MovedGB`] * 2 ** 30) <= 2 ** 30 * 1e-6, `L${level} moved bytes vs cfstats`);
  }
}

// ---------------------------------------------------------------------------------------------

test('invalid arguments: exit 2 with the flag and what it takes', () => {
  const run = (...args) => spawnSync(driver, args, { input: '', encoding: 'utf8' });
  const cases = [
    [['--db', path.join(work, 'x'), '--options', BLOOM(), '--wal', 'maybe'], /--wal must be on or off, got "maybe"/],
    [['--db', path.join(work, 'x'), '--options', BLOOM(), '--direct-reads', 'yes'], /--direct-reads must be auto, on or off/],
    [['--db', path.join(work, 'x'), '--options', BLOOM(), '--sync-compactions', '1'], /--sync-compactions must be on or off/],
    [['--db', path.join(work, 'x'), '--options', BLOOM(), '--block-cache-bytes', '-1'], /--block-cache-bytes must be an integer in \[0, 2\^50\]/],
    [['--options', BLOOM()], /--db DIR is required/],
    [['--db', path.join(work, 'x')], /--options OPTIONS_FILE is required/],
    [['--db', path.join(work, 'x'), '--options', path.join(work, 'none.ini')], /--options .*none\.ini: RocksDB cannot load it/],
    [['--db', work, '--options', BLOOM()], /is not empty/],
    [['--db', path.join(work, 'x'), '--bogus', '1'], /unknown flag --bogus/],
    [['--db', path.join(work, 'x'), '--options', BLOOM(), '--between', 'reopen'], /--between must be restart or continue, got "reopen"/],
    [['--db', path.join(work, 'x'), '--options', BLOOM(), '--threads', '0'], /--threads must be an integer in \[1, 64\], got "0"/],
    [['--db', path.join(work, 'x'), '--options', BLOOM(), '--threads', '2x'], /--threads must be an integer in \[1, 64\]/],
    [['--db', path.join(work, 'x'), '--options', BLOOM(), '--threads', '2', '--sync-compactions', 'on'], /--threads 2 needs --sync-compactions off/],
  ];
  for (const [args, message] of cases) {
    const r = run(...args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
  }
  assert.ok(!fs.existsSync(path.join(work, 'x')), 'nothing is created for invalid arguments');
});

/** A stream written by hand: `records` as [tag, ...byte strings]. */
function handStream(records) {
  const parts = [Buffer.from('LSMOPS1\n', 'latin1')];
  for (const [tag, ...fields] of records) {
    parts.push(Buffer.from(tag, 'latin1'));
    for (const f of fields) {
      const b = Buffer.from(f, 'latin1');
      const n = Buffer.alloc(4);
      n.writeUInt32LE(b.length);
      parts.push(n, b);
    }
  }
  return Buffer.concat(parts);
}

test('a hand-written stream: every kind of record, played as written', async () => {
  const input = handStream([
    ['L'],
    ['I', 'a', 'one'],
    ['I', 'b', 'two'],
    ['I', 'c', 'three'],
    ['I', '\u00ff', 'high byte: sorts after every ASCII key'],
    ['U', 'a', 'uno'],
    ['D', 'b'],
    ['R'],
    ['G', 'a'],
    ['G', 'b'], // deleted: not found
    ['M', 'zz'],
    ['Q', 'c'],
    ['Q', 'x'],
    ['S', 'a', 'c'], // a, c (b deleted)
    ['S', 'b', 'b'], // nothing
    ['S', 'c', '\u00ff'], // c and the high key: bytewise order
    ['I', 'd', 'four'],
  ]);
  // The run in the load's process: the memtable carries over.
  const r = await playStream({ driver, input, optionsFile: BLOOM(), blockCacheBytes: 0, extraArgs: ['--between', 'continue'] });
  assertMatchesStream(r, replay(input));
  assert.deepEqual(r.load.ops, { I: 4, U: 1, D: 1, G: 0, M: 0, Q: 0, S: 0, total: 6 });
  assert.equal(r.run.lookups.existing.found, 1);
  assert.equal(r.run.lookups.unknown.found, 1);
  assert.equal(r.run.scans.keys, 4);
  // Nothing was flushed (1 MiB memtable): every entry, the tombstone too, is in the memtable.
  assert.equal(r.tree_after_load.file_count, 0);
  assert.deepEqual([r.load.memtable.entries, r.load.memtable.deletions], [6, 1]);
  assert.deepEqual([r.run.memtable.entries, r.run.memtable.deletions], [7, 1]);
  assert.equal(r.process.between, 'continue');
  assert.equal(r.between, null);
  assert.deepEqual(r.run_start.files_by_level.slice(0, 2), [0, 0]);

  // The default: a restart at the run marker. Close flushed the memtable (the WAL is off) into one
  // level-0 table: 'a' once (its update shadows the insert), the tombstone of 'b', 'c' and the high key.
  const restarted = await playStream({ driver, input, optionsFile: BLOOM(), blockCacheBytes: 0 });
  assertMatchesStream(restarted, replay(input));
  assert.equal(restarted.process.between, 'restart');
  assert.equal(restarted.process.compactions, 'background');
  assert.equal(restarted.process.threads, 1);
  assert.deepEqual(restarted.between.flush, { count: 1, bytes: restarted.between.flush.bytes, entries: 4 });
  assert.equal(restarted.run_start.level0_files, 1);
  assert.deepEqual([restarted.run.memtable.entries, restarted.run.memtable.deletions], [1, 0], "the run's memtable holds the run's insert only");
  assert.equal(restarted.run.flush.count, 0, 'the flush at Close is not the run\'s');
  assert.equal(restarted.tree_after_run.levels[0].entries, 4);
  assert.deepEqual([restarted.run.lookups.existing.found, restarted.run.lookups.unknown.found, restarted.run.scans.keys], [1, 1, 4], 'the reopened database holds what the load wrote');
  assert.equal(r.rocksdb_version.split('.').slice(0, 2).join('.'), '7.8');
  assert.equal(r.wal, false);
  assert.equal(r.block_cache_bytes, 0);
  assert.equal(r.options.no_block_cache, true);
  assert.equal(r.options.filter_policy_id, 'bloomfilter:10:false');
  assert.equal(r.options.bits_per_key, 10);
  assert.equal(r.options.write_buffer_size, 1048576);

  // A generated stream read through a 16-byte buffer: every record straddles a refill, and the
  // keys and values must still reach RocksDB intact (a corrupted key would be found missing).
  const ycsbA = opsStream('ycsb:a', 3000, 3000);
  const tiny = await playStream({ driver, input: ycsbA, optionsFile: BLOOM(), env: { REFEREE_READ_BUFFER_BYTES: '16' } });
  assertMatchesStream(tiny, replay(ycsbA));
  assert.equal(tiny.run.lookups.existing.found, tiny.run.lookups.existing.count);
  assert.equal(tiny.tree_after_run.entries + tiny.run.memtable.entries >= 3000, true);

  // A cut stream and a wrong header: exit 1, saying where.
  await assert.rejects(playStream({ driver, input: input.subarray(0, 20), optionsFile: BLOOM() }), /exited with 1: referee: stream: truncated value/);
  await assert.rejects(playStream({ driver, input: Buffer.from('LSMOPS2\n'), optionsFile: BLOOM() }), /not an LSMOPS1 stream/);
});

// YCSB B (95% reads, 5% updates) at a small scale: ~20 MB loaded into 1 MiB memtables.
const YCSB_B = { workload: 'ycsb:b', records: 20000, operations: 20000 };
let ycsbFirst;

test('ycsb:b: operations, lookups, the tree and the write volume match the stream and RocksDB\'s own counters', async () => {
  const expected = replay(opsStream(YCSB_B.workload, YCSB_B.records, YCSB_B.operations));
  // The lab mode: this test counts one wait per memtable switch, and the next compares trees file by file.
  const r = await playOnRocksdb({ ...YCSB_B, driver, optionsFile: BLOOM(), blockCacheBytes: 0, extraArgs: [...LAB_MODE] });
  ycsbFirst = r;
  assertMatchesStream(r, expected);
  // Every existing-key lookup is found (YCSB B deletes nothing).
  assert.equal(r.run.lookups.existing.found, r.run.lookups.existing.count);
  assert.ok(r.run.lookups.existing.count > 15000);

  for (const name of ['load', 'run']) assertTreeWellFormed(r[`tree_after_${name}`], `tree after ${name}`);
  // The load inserts distinct keys and nothing drops them: the tree plus the memtable (not
  // flushed at the phase's end) hold exactly the records; the flushes wrote the tree's entries.
  assert.equal(r.tree_after_load.entries + r.load.memtable.entries, YCSB_B.records);
  assert.equal(r.load.flush.entries, r.tree_after_load.entries);
  assert.ok(levelsWithFiles(r.tree_after_load) >= 2, 'the load builds more than one level');
  // After the updates every key still has at least one entry, and no more entries than puts.
  const afterRun = r.tree_after_run.entries + r.run.memtable.entries;
  assert.ok(afterRun >= expected.liveAfterRun && afterRun <= YCSB_B.records + expected.phases.run.puts, `entries after run ${afterRun}`);

  // Flushes plus compactions write more than the user did once levels merge.
  const user = r.load.writes.key_bytes + r.load.writes.value_bytes;
  const tables = r.load.flush.bytes + r.load.compactions.output_bytes;
  assert.ok(tables > 1.5 * user, `tables took ${tables} bytes for ${user} written`);
  assert.ok(r.load.compactions.count > 0);
  assertAccounting(r);

  // Synchronous compactions: one wait per memtable switch, never a stall.
  assert.equal(r.sync_compactions, true);
  assert.equal(r.load.waits_after_writes, r.load.flush.count);
  assert.equal(r.load.stalls.count, 0);
  assert.equal(r.direct_reads, r.options.use_direct_reads);
});

test('the same stream twice with synchronous compactions: the same trees, file by file', async () => {
  assert.ok(ycsbFirst, 'needs the ycsb:b run above');
  const again = await playOnRocksdb({ ...YCSB_B, driver, optionsFile: BLOOM(), blockCacheBytes: 0, extraArgs: [...LAB_MODE] });
  assert.deepEqual(again.tree_after_load, ycsbFirst.tree_after_load);
  assert.deepEqual(again.tree_after_run, ycsbFirst.tree_after_run);
  assert.deepEqual(again.load.flush, ycsbFirst.load.flush);
  assert.deepEqual(again.load.compactions, ycsbFirst.load.compactions);
  assert.deepEqual(again.run.compactions, ycsbFirst.run.compactions);
});

test('zero-result lookups: a 10 bits/key Bloom filter skips ~99% of data blocks, no filter reads one per level', async (t) => {
  const workload = workloadFile('lookups', {
    preload: { entries: 20000, key_space: 0, key_bytes: 16, value_bytes: 1000 },
    operations: 8000,
    mix: { get_existing: 0.5, get_missing: 0.5 },
    distribution: { kind: 'uniform' },
  });
  const expected = replay(opsStream(workload));
  // The lab mode: the bounds below count the files of the tree the load left, which is then the run's.
  const bloom = await playOnRocksdb({ workload, driver, optionsFile: BLOOM(), blockCacheBytes: 0, extraArgs: [...LAB_MODE] });
  const none = await playOnRocksdb({ workload, driver, optionsFile: NO_FILTER(), blockCacheBytes: 0, extraArgs: [...LAB_MODE] });
  assert.equal(none.options.filter_policy, 'none');
  assert.equal(none.options.bits_per_key, null);
  for (const r of [bloom, none]) {
    assertMatchesStream(r, expected);
    assert.equal(r.run.lookups.missing.found, 0);
    assert.equal(r.run.lookups.existing.found, r.run.lookups.existing.count);
    assert.equal(r.run.lookups.missing.block_cache_hits, 0, 'no block cache');
  }
  const m = bloom.run.lookups.missing;
  const e = bloom.run.lookups.existing;
  const mn = none.run.lookups.missing;
  const perLookup = (p, field) => p[field] / p.count;
  t.diagnostic(
    `data blocks per lookup: Bloom ${perLookup(m, 'data_block_reads').toFixed(4)} zero-result, ${perLookup(e, 'data_block_reads').toFixed(3)} existing ` +
      `(filter negatives ${(m.filter_negatives / m.filters_probed).toFixed(4)} of ${perLookup(m, 'filters_probed').toFixed(2)} probes per lookup); ` +
      `no filter ${perLookup(mn, 'data_block_reads').toFixed(3)} zero-result over ${levelsWithFiles(none.tree_after_load)} levels`,
  );
  assert.ok(m.count > 3000);
  assert.ok(perLookup(m, 'data_block_reads') <= 0.05, `Bloom: ${perLookup(m, 'data_block_reads')} data blocks per zero-result lookup`);
  assert.ok(m.filters_probed >= m.count, 'every zero-result lookup probes at least one filter');
  assert.ok(m.filter_negatives / m.filters_probed >= 0.95, `filter negatives ${m.filter_negatives} of ${m.filters_probed}`);
  // The per-level counters agree with the totals.
  assert.equal(m.by_level.reduce((n, l) => n + l.filter_useful, 0), m.filter_negatives);
  assert.equal(m.by_level.reduce((n, l) => n + l.filter_useful + l.filter_positive, 0), m.filters_probed);
  // An existing key costs about one data block (the level holding it), filters and index held in memory.
  const existingReads = perLookup(e, 'data_block_reads');
  assert.ok(existingReads >= 0.85 && existingReads <= 1.15, `Bloom: ${existingReads} data blocks per existing-key lookup`);
  assert.equal(e.index_block_reads + e.filter_block_reads, 0, 'index and filter blocks live in the table readers');
  assert.ok(e.bytes_read >= e.block_reads * 4096 * 0.9, 'a data block read is about block_size bytes');

  assert.ok(levelsWithFiles(none.tree_after_load) > 1);
  assert.equal(mn.filters_probed, 0);
  assert.ok(perLookup(mn, 'data_block_reads') >= 1, `no filter: ${perLookup(mn, 'data_block_reads')} data blocks per zero-result lookup`);
  // At most one data block per file a lookup can reach: every L0 file and one file per deeper level.
  const l0 = none.tree_after_load.levels[0].file_count;
  assert.ok(perLookup(mn, 'data_block_reads') <= l0 + levelsWithFiles(none.tree_after_load) + 0.01);
});

test('--time-block-reads on: RocksDB times its storage reads, counting exactly what an untimed run counts', async (t) => {
  const workload = workloadFile('timed-lookups', {
    preload: { entries: 20000, key_space: 0, key_bytes: 16, value_bytes: 1000 },
    operations: 2000,
    mix: { get_existing: 1 },
    distribution: { kind: 'uniform' },
  });
  // The lab mode: the two runs must build the same tree for their counts to be compared exactly.
  const untimed = await playOnRocksdb({ workload, driver, optionsFile: BLOOM(), blockCacheBytes: 0, extraArgs: [...LAB_MODE] });
  const timed = await playOnRocksdb({ workload, driver, optionsFile: BLOOM(), blockCacheBytes: 0, extraArgs: [...LAB_MODE, '--time-block-reads', 'on'] });
  assert.equal(untimed.time_block_reads, false);
  assert.equal(timed.time_block_reads, true);
  const u = untimed.run.lookups.existing;
  const e = timed.run.lookups.existing;
  assert.equal(u.block_read_ns, undefined, 'an untimed run reports no read time');
  assert.equal(e.block_reads, u.block_reads, 'timers change no count');
  assert.equal(e.data_block_reads, u.data_block_reads);
  assert.ok(e.block_reads >= 1500, `${e.block_reads} storage reads`);
  const priced = rocksdbBlockReadUs(timed.run);
  assert.equal(priced.reads, e.block_reads);
  t.diagnostic(`RocksDB's own price of a storage block read: ${priced.us.toFixed(1)} µs over ${priced.reads} reads`);
  // A storage read (direct where allowed) costs at least a microsecond and well under a lookup's
  // whole mean latency times the reads it made.
  assert.ok(priced.us >= 1 && priced.us < 100_000, `${priced.us} µs per read`);
  assert.ok((priced.us * e.block_reads) / e.count <= e.latency_ns.mean / 1000 + 1e-9, 'read time is part of the call time');
  assert.equal(rocksdbBlockReadUs(untimed.run), null, 'untimed: no price');
});

test('deletes, inserts and scans under Zipf keys, background compactions and the default block cache', async () => {
  const workload = workloadFile('mixed', {
    preload: { entries: 20000, key_space: 0, key_bytes: 16, value_bytes: 400 },
    operations: 20000,
    mix: { insert: 0.1, update: 0.2, delete: 0.1, get_existing: 0.25, get_missing: 0.2, range: 0.15 },
    distribution: { kind: 'zipf', theta: 0.9 },
    range_selectivity: 0.0005,
  });
  const expected = replay(opsStream(workload));
  assert.ok(expected.phases.run.ops.D > 0 && expected.phases.run.ops.S > 0);
  // As users run RocksDB (the driver's default): background compactions, a restart between the load and the run.
  const r = await playOnRocksdb({ workload, driver, optionsFile: BLOOM() });
  // Lookups and scans return what the model of the stream holds: deleted keys are gone.
  assertMatchesStream(r, expected);
  assert.ok(r.run.scans.keys > r.run.scans.count, 'scans return several keys each');
  assert.equal(r.sync_compactions, false);
  assert.equal(r.process.between, 'restart');
  assert.equal(r.run_start.block_cache_usage <= 4096, true, `a cold block cache at the run's start: ${r.run_start.block_cache_usage} bytes in use`);
  assert.ok(r.between.flush.count >= 1, 'Close flushed the memtable the load left');
  assert.equal(r.block_cache_bytes, 8 << 20, "RocksDB's default block cache");
  assert.equal(r.load.waits_after_writes, 0);
  assert.ok(r.run.lookups.existing.block_cache_hits > 0);
  assert.ok(r.run.tickers['rocksdb.number.db.seek'] === r.run.scans.count);
  for (const name of ['load', 'run']) assertTreeWellFormed(r[`tree_after_${name}`], `tree after ${name}`);
  const afterRun = r.tree_after_run.entries + r.run.memtable.entries;
  assert.ok(afterRun >= expected.liveAfterRun, `entries after run ${afterRun} < live keys ${expected.liveAfterRun}`);
  assertAccounting(r);
});

test('--threads 3: the run dealt to three clients, every operation played once, the perf context of each summed', async () => {
  const workload = workloadFile('threads', {
    preload: { entries: 10000, key_space: 0, key_bytes: 24, value_bytes: 300 },
    operations: 9000,
    mix: { update: 0.2, get_existing: 0.5, get_missing: 0.3 },
    distribution: { kind: 'uniform' },
  });
  const expected = replay(opsStream(workload));
  const one = await playOnRocksdb({ workload, driver, optionsFile: BLOOM(), blockCacheBytes: 0 });
  const three = await playOnRocksdb({ workload, driver, optionsFile: BLOOM(), blockCacheBytes: 0, extraArgs: ['--threads', '3'] });
  // Updates of loaded keys and lookups of loaded or never-written keys: no order between the
  // clients changes what is found, so the counts are the stream's.
  assertMatchesStream(three, expected);
  assert.equal(three.process.threads, 3);
  assert.match(three.process.dealing, /thread i mod threads/);
  assert.equal(one.process.threads, 1);
  const e = three.run.lookups.existing;
  assert.equal(e.found, e.count);
  assert.equal(three.run.lookups.missing.found, 0);
  assert.equal(e.latency_ns.count + three.run.lookups.missing.latency_ns.count + three.run.writes.latency_ns.count, 9000);
  assert.equal(three.run.writes.key_bytes, one.run.writes.key_bytes);
  assert.equal(three.run.writes.value_bytes, one.run.writes.value_bytes);
  // Each existing-key lookup reads about one data block with no cache (filters and index held by
  // the table readers), whichever thread made it: the per-thread perf contexts were all summed.
  for (const r of [one, three]) {
    const perLookup = r.run.lookups.existing.data_block_reads / r.run.lookups.existing.count;
    assert.ok(perLookup >= 0.85 && perLookup <= 1.6, `${r.process.threads} threads: ${perLookup} data blocks per existing-key lookup`);
  }
  assert.ok(three.run.seconds > 0 && three.process.run_buffer_seconds >= 0);
});

/**
 * RocksDB's own query traces, end to end: db_bench 7.8 records a trace (`--trace_file`) of
 * `mixgraph` (gets, puts and seeks) and of `readrandomwriterandom` at 20,000 operations; `lsm fit
 * --rocksdb-trace` fits it and the referee replays it record by record (`lsm ops --rocksdb-trace`
 * piped into the driver). The counts are checked against db_bench's own: the operations it
 * printed it had done, the trace's records as the fit counted them, and the operations RocksDB
 * executed on the replay must be the same numbers.
 *
 * Run with `npm test -- rocksdb` (needs db_bench, librocksdb-dev, g++ and the lsm CLI built).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { LSM, buildReferee, playOnRocksdb } from './referee.mjs';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lsm-rocksdb-trace-'));
after(() => fs.rmSync(work, { recursive: true, force: true }));

const OPERATIONS = 20_000;

let driver;
before(() => {
  assert.ok(fs.existsSync(LSM), `${LSM} is missing: cargo build --release --bin lsm --manifest-path wasm-engine/Cargo.toml`);
  driver = buildReferee(work);
});

/** A small OPTIONS file: 1 MiB memtables and files, so the replay flushes and compacts. */
function optionsFile() {
  const file = path.join(work, 'small.ini');
  fs.writeFileSync(
    file,
    [
      '[Version]',
      '  rocksdb_version=7.8.3',
      '  options_file_version=1.1',
      '[DBOptions]',
      '  create_if_missing=true',
      '[CFOptions "default"]',
      '  write_buffer_size=1048576',
      '  target_file_size_base=1048576',
      '  max_bytes_for_level_base=4194304',
      '  compression=kNoCompression',
      '  table_factory=BlockBasedTable',
      '[TableOptions/BlockBasedTable "default"]',
      '  filter_policy=bloomfilter:10:false',
      '',
    ].join('\n'),
  );
  return file;
}

/**
 * Run db_bench with a trace file (fillrandom first, untraced in effect: db_bench starts the trace
 * file again for each benchmark, so the file holds the last one); returns the trace's path and
 * db_bench's report line of the last benchmark.
 */
function record(name, benchmark, flags) {
  const trace = path.join(work, `${name}.trace`);
  const out = execFileSync(
    'db_bench',
    [
      `--db=${path.join(work, `${name}-db`)}`,
      `--benchmarks=fillrandom,${benchmark}`,
      `--num=${OPERATIONS}`,
      `--reads=${OPERATIONS}`,
      '--key_size=16',
      '--value_size=100',
      '--compression_type=none',
      '--threads=1',
      '--seed=11',
      `--trace_file=${trace}`,
      ...flags,
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const line = out.split('\n').find((l) => l.startsWith(`${benchmark} `));
  assert.ok(line, `db_bench printed no ${benchmark} line:\n${out}`);
  return { trace, line };
}

/** `lsm fit --rocksdb-trace`: the fit (JSON) and its notes (stderr). */
function fit(trace) {
  return JSON.parse(execFileSync(LSM, ['fit', '--rocksdb-trace', trace], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
}

/** The replay's operations by tag, both phases added (the whole trace is the run). */
async function replay(trace) {
  const r = await playOnRocksdb({ driver, rocksdbTrace: trace, optionsFile: optionsFile(), blockCacheBytes: 8 << 20 });
  assert.equal(r.load.ops.total, 0, 'a trace has no load phase');
  return r.run.ops;
}

test('a mixgraph trace: the fit and the replay count the gets, puts and seeks db_bench did', async (t) => {
  const { trace, line } = record('mixgraph', 'mixgraph', ['--mix_get_ratio=0.8', '--mix_put_ratio=0.15', '--mix_seek_ratio=0.05']);
  // "( Gets:15971 Puts:2961 Seek:1068, reads …": db_bench's own count of what it did.
  const m = /Gets:(\d+) Puts:(\d+) Seek:(\d+)/.exec(line);
  assert.ok(m, line);
  const [gets, puts, seeks] = m.slice(1).map(Number);
  assert.equal(gets + puts + seeks, OPERATIONS);
  assert.ok(seeks > 500 && puts > 2000, line);

  const f = fit(trace);
  assert.equal(f.preload_operations + f.run_operations, OPERATIONS);
  const c = f.counts;
  assert.equal(c.get_existing + c.get_missing, gets);
  assert.equal(c.insert + c.update + f.preload_operations, puts);
  assert.equal(c.range, seeks);
  assert.equal(c.delete, 0);
  const w = f.workload;
  assert.equal(w.operations, f.run_operations);
  assert.equal(Math.round((w.mix.get_existing + w.mix.get_missing) * w.operations), gets);
  assert.equal(Math.round(w.mix.range * w.operations), seeks);
  assert.equal(Math.round((w.mix.insert + w.mix.update) * w.operations) + w.preload.entries, puts);
  assert.equal(w.preload.key_bytes, 16);
  assert.ok(f.notes.some((n) => n.startsWith(`${seeks} seeks replayed as seeks`)), f.notes.join('\n'));

  const ops = await replay(trace);
  assert.equal(ops.Q, gets, 'Gets played');
  assert.equal(ops.I + ops.U, puts, 'Puts played');
  assert.equal(ops.S, seeks, 'Seeks played');
  assert.equal(ops.total, OPERATIONS);
  assert.equal(ops.I, c.insert + f.preload_operations, 'first writes of a key are inserts, in the fit and the stream alike');
  t.diagnostic(`db_bench: gets ${gets} puts ${puts} seeks ${seeks}; replayed Q ${ops.Q} I ${ops.I} U ${ops.U} S ${ops.S}; fitted θ ${f.popularity.theta.toFixed(3)} (${f.popularity.distribution})`);
});

test('a readrandomwriterandom trace: reads and writes as db_bench counted them', async (t) => {
  const { trace, line } = record('rrwr', 'readrandomwriterandom', ['--readwritepercent=80']);
  // "( reads:16000 writes:4000 total:20000 found:…)"
  const m = /reads:(\d+) writes:(\d+) total:(\d+)/.exec(line);
  assert.ok(m, line);
  const [reads, writes, total] = m.slice(1).map(Number);
  assert.equal(total, OPERATIONS);
  assert.ok(reads > 15_000 && writes > 3_500, line);

  const f = fit(trace);
  assert.equal(f.counts.get_existing + f.counts.get_missing, reads);
  assert.equal(f.counts.insert + f.counts.update + f.preload_operations, writes);
  assert.equal(f.counts.range, 0);

  const ops = await replay(trace);
  assert.deepEqual([ops.Q, ops.I + ops.U, ops.S, ops.D, ops.total], [reads, writes, 0, 0, OPERATIONS]);
  t.diagnostic(`db_bench: reads ${reads} writes ${writes}; replayed Q ${ops.Q} I ${ops.I} U ${ops.U}`);
});

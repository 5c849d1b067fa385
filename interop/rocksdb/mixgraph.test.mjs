/**
 * A db_bench command line as a workload, checked against the real db_bench 7.8: the same file run
 * by `db_bench --benchmarks=fillrandom,mixgraph --statistics` and played by `lsm ops` gives the same
 * operations. The Workload's generator draws as db_bench does — its thread seeds, its Random64, its
 * key ranges, power law and Pareto sizes — so with `--seed` the counts by type are db_bench's own
 * (asserted equal, and at least within the 2% the format promises), and so is the mean value size
 * (within 5%). The referee then plays the stream on RocksDB: its tickers (keys read and written,
 * seeks, nexts) equal the ones db_bench's run counted.
 *
 * Run with `npm test -- rocksdb` (needs db_bench: `apt-get install rocksdb-tools librocksdb-dev g++`).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';

import { LSM, buildReferee, playOnRocksdb } from './referee.mjs';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lsm-mixgraph-'));
after(() => fs.rmSync(work, { recursive: true, force: true }));

/** The ZippyDB fit (Cao et al., FAST'20; issue 48) in db_bench's four key modes. */
const KEYS = '-key_dist_a=0.002312 -key_dist_b=0.3467';
const RANGES = '-keyrange_dist_a=14.18 -keyrange_dist_b=-2.917 -keyrange_dist_c=0.0164 -keyrange_dist_d=-0.08082 -keyrange_num=30';
const REST = '-value_k=0.2615 -value_sigma=25.45 -iter_k=2.517 -iter_sigma=14.236 -mix_get_ratio=0.83 -mix_put_ratio=0.14 -mix_seek_ratio=0.03';
const MODES = { all_random: '', all_dist: KEYS, prefix_random: RANGES, prefix_dist: `${KEYS} ${RANGES}` };

const line = (mode, num) =>
  `db_bench --benchmarks=fillrandom,mixgraph --num=${num} --key_size=48 --seed=7 ${MODES[mode]} ${REST} -sine_a=1000`;

/** db_bench's own run: mixgraph's message and the statistics tickers. */
function dbBench(text, dir) {
  const args = text.split(/\s+/).slice(1);
  const out = execFileSync('db_bench', [`--db=${dir}`, '--statistics', '--threads=1', ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 1 << 26,
  });
  const m = /Gets:(\d+) Puts:(\d+) Seek:(\d+),.*avg size: ([\d.]+) value, ([\d.]+) scan/.exec(out);
  assert.ok(m, `db_bench printed no mixgraph summary:\n${out.slice(-2000)}`);
  const ticker = (name) => {
    const t = new RegExp(`^${name.replaceAll('.', '\\.')} COUNT : (\\d+)$`, 'm').exec(out);
    assert.ok(t, `db_bench printed no ${name}`);
    return Number(t[1]);
  };
  return {
    gets: Number(m[1]),
    puts: Number(m[2]),
    seeks: Number(m[3]),
    meanValue: Number(m[4]),
    keysRead: ticker('rocksdb.number.keys.read'),
    keysWritten: ticker('rocksdb.number.keys.written'),
    dbSeeks: ticker('rocksdb.number.db.seek'),
    dbNexts: ticker('rocksdb.number.db.next'),
  };
}

/** `lsm ops` on the file, counted by phase and record type (the LSMOPS1 format, `lsm ops --help`). */
function lsmOps(file) {
  const buf = execFileSync(LSM, ['ops', '--workload', file], { maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] });
  assert.equal(buf.subarray(0, 8).toString(), 'LSMOPS1\n');
  const counts = { L: {}, R: {} };
  let [i, phase, valueBytes, puts] = [8, null, 0, 0];
  const skip = () => {
    const n = buf.readUInt32LE(i);
    i += 4 + n;
    return n;
  };
  while (i < buf.length) {
    const t = String.fromCharCode(buf[i++]);
    if (t === 'L' || t === 'R') {
      phase = t;
      continue;
    }
    counts[phase][t] = (counts[phase][t] ?? 0) + 1;
    skip();
    if (t === 'I' || t === 'U' || t === 'S') {
      const v = skip();
      if (phase === 'R' && t !== 'S') [valueBytes, puts] = [valueBytes + v, puts + 1];
    }
  }
  const n = (p, ...types) => types.reduce((s, t) => s + (counts[p][t] ?? 0), 0);
  return { fill: n('L', 'I', 'U'), gets: n('R', 'G', 'M', 'Q'), puts: n('R', 'I', 'U'), seeks: n('R', 'S'), meanValue: valueBytes / puts };
}

const within = (got, want, share, what) =>
  assert.ok(Math.abs(got - want) <= share * want, `${what}: ${got} vs db_bench's ${want} (more than ${share * 100}% apart)`);

for (const mode of Object.keys(MODES)) {
  test(`mixgraph ${mode} (ZippyDB flags, 50,000 keys and operations): lsm ops plays db_bench's own counts and value sizes`, () => {
    const file = path.join(work, `${mode}.sh`);
    fs.writeFileSync(file, `${line(mode, 50_000)}\n`);
    const real = dbBench(line(mode, 50_000), path.join(work, `db-${mode}`));
    const ours = lsmOps(file);
    assert.equal(ours.fill, 50_000);
    assert.equal(real.keysWritten, 50_000 + real.puts);
    assert.equal(real.keysRead, real.gets);
    assert.equal(real.dbSeeks, real.seeks);
    for (const kind of ['gets', 'puts', 'seeks']) within(ours[kind], real[kind], 0.02, kind);
    within(ours.meanValue, real.meanValue, 0.05, 'mean value size');
    // The same draws: equal counts, and the mean db_bench prints to one decimal.
    assert.deepEqual([ours.gets, ours.puts, ours.seeks], [real.gets, real.puts, real.seeks]);
    assert.ok(Math.abs(ours.meanValue - real.meanValue) <= 0.05, `${ours.meanValue} vs ${real.meanValue}`);
  });
}

test('the referee playing the ZippyDB stream on RocksDB counts what db_bench counted: keys read and written, seeks, nexts', async () => {
  const file = path.join(work, 'referee.sh');
  fs.writeFileSync(file, `${line('prefix_dist', 50_000)}\n`);
  const real = dbBench(line('prefix_dist', 50_000), path.join(work, 'db-referee'));
  const options = path.join(work, 'OPTIONS.ini');
  fs.writeFileSync(
    options,
    execFileSync(LSM, ['export', '--design', path.resolve(path.dirname(LSM), '../../../public/presets/rocksdb.json'), '--format', 'rocksdb'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  );
  const driver = buildReferee(path.join(work, 'referee'));
  const r = await playOnRocksdb({ driver, workload: file, optionsFile: options });
  const t = (phase, name) => r[phase].tickers[`rocksdb.number.${name}`];
  assert.equal(t('load', 'keys.written') + t('run', 'keys.written'), real.keysWritten);
  assert.equal(t('run', 'keys.read'), real.keysRead);
  assert.equal(t('run', 'db.seek'), real.dbSeeks);
  // Seek then up to N Nexts: the same keys in the database give the same Nexts.
  assert.equal(t('run', 'db.next'), real.dbNexts);
});

/**
 * RocksDB's filter kinds, side by side: for `bloomfilter:N:false` (FastLocalBloom, format_version
 * 5) and `ribbonfilter:N:0` (Standard128Ribbon below the flushes) at 5, 10 and 16 bits/key, the
 * engine runs the design `lsm import --rocksdb` makes of the OPTIONS file and RocksDB plays the
 * same operation stream through the referee: 100,000 records of 16 + 100 B (11.6 MB, a 1 MiB
 * memtable, 1 MiB files, 4 MiB level 1), then 100,000 lookups of missing keys, uniform. The
 * false-positive rate of each is measured from its own counters: RocksDB's perf context
 * (bloom_filter_full_positive − full_true_positive over useful + that), the engine's Report
 * (filter positives − true positives over negatives + that), over every filter probed.
 *
 * Asserted: the two agree within 3 standard deviations of the difference of two binomial
 * estimates plus 6% of the rate (the engine's filter hash is not RocksDB's, and its files are not
 * cut at exactly the same keys, so their filter sizes differ a little); and each is within the
 * same bar of the engine's own expected FPR (lsm-core's formulas, weighted over its tables). About
 * a minute on two cores.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { LAB_MODE, LSM, buildReferee, playOnRocksdb } from './referee.mjs';
import { optionsText as twinOptionsText } from './twin.mjs';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lsm-filters-'));
let driver;
before(() => {
  driver = buildReferee(work);
});
after(() => fs.rmSync(work, { recursive: true, force: true }));

const RECORDS = 100_000;
const LOOKUPS = 100_000;

const workload = {
  kind: 'lsm-navigator/workload',
  version: 1,
  name: 'filters: 100,000 records, then 100,000 lookups of missing keys',
  seed: 11,
  preload: { entries: RECORDS, key_space: 0, key_bytes: 16, value_bytes: 100 },
  operations: LOOKUPS,
  mix: { get_missing: 1 },
  distribution: { kind: 'uniform' },
};

/** The OPTIONS file of one filter policy: RocksDB's sizes at 1/64 (1 MiB buffers, 4 MiB level base). */
const optionsText = (policy) => twinOptionsText({ cf: {}, table: { filter_policy: policy, format_version: 5 } }, 1 / 64);

const sum = (xs) => xs.reduce((a, b) => a + b, 0);

/** False positives and probes from RocksDB's per-level perf context of the missing-key lookups. */
function rocksdbFilter(run) {
  const levels = run.lookups.missing.by_level ?? [];
  const useful = sum(levels.map((l) => l.filter_useful));
  const fp = sum(levels.map((l) => l.filter_positive - l.filter_true_positive));
  return { probes: useful + fp, fp };
}

const CLASSES = ['put', 'delete', 'get_zero_result', 'get_non_zero_result', 'get_tombstone', 'scan'];

/** The same from the engine's Report (zero-result lookups), and its own expected FPR per probe. */
function engineFilter(report) {
  const reads = report.run.levels.map((l) => l.reads[CLASSES.indexOf('get_zero_result')]);
  const negatives = sum(reads.map((r) => r.filter_negatives));
  const fp = sum(reads.map((r) => r.filter_positives - r.filter_true_positives));
  const runs = report.tree.levels.flatMap((l) => l.runs);
  const entries = sum(runs.map((r) => r.entries));
  const expected = sum(runs.map((r) => r.filter_fpr * r.entries)) / entries;
  const bitsPerKey = sum(runs.map((r) => r.filter_bits)) / entries;
  return { probes: negatives + fp, fp, expected, bitsPerKey };
}

/** 3σ of the difference of two binomial rates, plus 6% of their mean. */
function tolerance(p, n1, n2) {
  return 3 * Math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2)) + 0.06 * p;
}

async function measure(policy) {
  const dir = path.join(work, policy.replace(/[:.]/g, '_'));
  fs.mkdirSync(dir, { recursive: true });
  const optionsFile = path.join(dir, 'OPTIONS.ini');
  fs.writeFileSync(optionsFile, optionsText(policy));
  const workloadFile = path.join(dir, 'workload.json');
  fs.writeFileSync(workloadFile, `${JSON.stringify(workload)}\n`);
  const imported = spawnSync(LSM, ['import', '--rocksdb', optionsFile], { encoding: 'utf8' });
  assert.equal(imported.status, 0, imported.stderr);
  const config = JSON.parse(imported.stdout);
  const configFile = path.join(dir, 'engine.json');
  fs.writeFileSync(configFile, `${JSON.stringify(config, null, 2)}\n`);
  const reportFile = path.join(dir, 'report.json');
  execFileSync(LSM, ['run', '--config', configFile, '--workload', workloadFile, '--report', reportFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  const engine = engineFilter(JSON.parse(fs.readFileSync(reportFile, 'utf8')));
  // The lab mode: set against the engine's own run, RocksDB builds its tree as the engine does
  // (every flush and merge finished before the next write, one process).
  const rocks = await playOnRocksdb({ driver, workload: workloadFile, optionsFile, blockCacheBytes: 0, dbDir: path.join(dir, 'db'), extraArgs: [...LAB_MODE] });
  fs.rmSync(path.join(dir, 'db'), { recursive: true, force: true });
  return { config, engine, rocksdb: rocksdbFilter(rocks.run) };
}

const CASES = [
  ['bloomfilter:5:false', 'fast_local_bloom'],
  ['bloomfilter:10:false', 'fast_local_bloom'],
  ['bloomfilter:16:false', 'fast_local_bloom'],
  ['ribbonfilter:5:0', 'ribbon'],
  ['ribbonfilter:10:0', 'ribbon'],
  ['ribbonfilter:16:0', 'ribbon'],
];

for (const [policy, kind] of CASES) {
  test(`${policy}: the engine's ${kind} filters give RocksDB's false-positive rate on missing keys`, async () => {
    const { config, engine, rocksdb } = await measure(policy);
    assert.equal(config.filter.kind, kind);
    const e = engine.fp / engine.probes;
    const r = rocksdb.fp / rocksdb.probes;
    console.log(
      `  ${policy}: RocksDB ${(100 * r).toFixed(3)}% of ${rocksdb.probes} probes; engine ${(100 * e).toFixed(3)}% of ` +
        `${engine.probes} probes (expected ${(100 * engine.expected).toFixed(3)}%, ${engine.bitsPerKey.toFixed(2)} filter bits/key)`,
    );
    // Every lookup probes at least one filter on each side.
    assert.ok(rocksdb.probes >= LOOKUPS && engine.probes >= LOOKUPS, `${rocksdb.probes} / ${engine.probes} probes`);
    const bar = tolerance((e + r) / 2, engine.probes, rocksdb.probes);
    assert.ok(Math.abs(e - r) <= bar, `engine ${e} vs RocksDB ${r} (bar ${bar})`);
    for (const [who, rate, n] of [['engine', e, engine.probes], ['RocksDB', r, rocksdb.probes]]) {
      const b = 3 * Math.sqrt((engine.expected * (1 - engine.expected)) / n) + 0.06 * engine.expected;
      assert.ok(Math.abs(rate - engine.expected) <= b, `${who} ${rate} vs expected ${engine.expected} (bar ${b})`);
    }
  });
}

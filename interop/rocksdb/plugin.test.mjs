/**
 * The per-level filter plugin, end to end on real RocksDB: `lsm tune --target rocksdb --plugin
 * per-level-filters` recommends a design whose filter bits differ by level (Monkey's split),
 * the recommendation says the plugin is required, its C++ policy (`lsm export --format
 * rocksdb-cpp`, policy.h) is compiled into the referee (`buildReferee(dir, { policyDir })`),
 * which installs it as the table's filter_policy (--filter-plugin on), and the workload's exact
 * operations are played on RocksDB 7.8 with the recommended OPTIONS.
 *
 * The case: 200,000 records of 16 + 100 B (23 MB) under a 2 MiB memtable, an 8 MiB level base and
 * 4 bits/key of Bloom filter, a 256 KiB block cache, in the memory those use; then 100,000 lookups,
 * half of keys that exist and half of keys never written, uniform. The existing-key lookups make
 * the last level's filter worth little and the zero-result ones make the upper levels' worth
 * much: the split the search finds gives the upper levels more bits.
 *
 * Asserted, from RocksDB's own counters:
 *   - the tables carry the bits the policy gives their level (filter bytes × 8 over entries, from
 *     the table properties: at or above the exported bits, by at most FastLocalBloom's rounding
 *     to 64-byte lines), for every level holding 10,000 entries or more;
 *   - data blocks read per zero-result lookup (the filters' false positives: metadata stays out
 *     of the cache) match the tune's prediction within 3 binomial standard deviations of the
 *     measured count plus 15% of the prediction (the twin's stated read error is 5% at 1M
 *     records; tiny level-0 files and trivially moved files, which keep the bits they were built
 *     with, make the FPR less regular at this scale);
 *   - filters probed per lookup (both classes) match the prediction within 5%;
 *   - the same OPTIONS file without the plugin, its filter_policy set to the split's mean bits
 *     (the same filter memory, uniform): its zero-result blocks match its own prediction within
 *     the same bar, and it measures no fewer false positives per lookup (both classes, what the
 *     split minimises) than the plugin design, beyond 3 standard deviations of the two counts.
 * About a minute on two cores.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { setOption } from './proof.mjs';
import { LAB_MODE, LSM, buildReferee, playOnRocksdb } from './referee.mjs';
import { optionsText } from './twin.mjs';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lsm-plugin-'));
after(() => fs.rmSync(work, { recursive: true, force: true }));

const CACHE = 256 * 1024;
// RocksDB's sizes at 1/32: 2 MiB buffers and files, an 8 MiB level base.
const OPTIONS = optionsText({ cf: {}, table: { filter_policy: 'bloomfilter:4:false', format_version: 5 } }, 1 / 32);
const WORKLOAD = {
  kind: 'lsm-navigator/workload',
  version: 1,
  name: 'plugin: 200,000 records, then 100,000 lookups, half of missing keys',
  seed: 7,
  preload: { entries: 200_000, key_space: 0, key_bytes: 16, value_bytes: 100 },
  operations: 100_000,
  mix: { get_missing: 0.5, get_existing: 0.5 },
  distribution: { kind: 'uniform' },
};

function lsm(args) {
  const r = spawnSync(LSM, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.equal(r.status, 0, `lsm ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

const file = (name, text) => {
  const p = path.join(work, name);
  fs.writeFileSync(p, text);
  return p;
};

test('a per-level design from the tune, run with its C++ policy, builds its bits and reads the false positives predicted', async () => {
  const optionsFile = file('current.OPTIONS', OPTIONS);
  const workloadFile = file('workload.json', `${JSON.stringify(WORKLOAD)}\n`);
  const config = JSON.parse(lsm(['import', '--rocksdb', optionsFile]));
  config.block_cache = { ...config.block_cache, bytes: CACHE };
  const currentFile = file('current.engine.json', JSON.stringify(config));

  // Without the opt-in, no plugin: the result never names one.
  const plain = JSON.parse(lsm(['tune', '--config', currentFile, '--workload', workloadFile, '--target', 'rocksdb']));
  assert.equal(plain.plugin, undefined);
  assert.ok(!(plain.changes ?? []).some((c) => c.option.includes('plugin')), 'no plugin line without the opt-in');

  const t = JSON.parse(lsm(['tune', '--config', currentFile, '--workload', workloadFile, '--target', 'rocksdb', '--plugin', 'per-level-filters']));
  const rec = t[t.recommended];
  assert.equal(t.verdict.keep, false, t.verdict.words);
  assert.ok(t.plugin, `the recommendation needs no plugin: ${rec.summary}`);
  assert.equal(t.plugin.policy, 'lsm_navigator.PerLevelBloomPolicy');
  assert.match(t.verdict.words, /plugin required/);
  const line = t.changes.find((c) => c.option.includes('policy.h'));
  assert.ok(line && /plugin required/.test(line.reason), `the diff says the plugin is required: ${JSON.stringify(t.changes)}`);
  // Accepting the plugin never costs: the search without it is also run and the better kept.
  assert.ok(rec.steady.expected <= plain[plain.recommended].steady.expected + 1e-12);
  const bits = t.plugin.bits_by_level;
  assert.ok(new Set(bits).size > 1, `bits differ by level: ${bits}`);

  const recommendedFile = file('recommended.engine.json', JSON.stringify(rec.config));
  const recommendedOptions = file('recommended.OPTIONS', lsm(['export', '--design', recommendedFile, '--format', 'rocksdb', '--workload', workloadFile]));
  const policyDir = path.join(work, 'policy');
  fs.mkdirSync(policyDir);
  const policy = lsm(['export', '--design', recommendedFile, '--format', 'rocksdb-cpp', '--workload', workloadFile]);
  fs.writeFileSync(path.join(policyDir, 'policy.h'), policy);
  const exported = /kBitsPerKeyByLevel\[\] = \{([^}]*)\}/.exec(policy)[1].split(',').map(Number);
  assert.deepEqual(exported, bits, 'policy.h carries the bits the tune priced');

  const driver = buildReferee(path.join(work, 'referee'), { policyDir });
  const report = await playOnRocksdb({
    driver,
    workload: workloadFile,
    optionsFile: recommendedOptions,
    blockCacheBytes: rec.config.block_cache.bytes,
    filterPlugin: true,
    dbDir: path.join(work, 'db'),
    // The lab mode: the filters probed per lookup are set against the twin's prediction for the
    // tree the engine builds (every merge finished before the next write).
    extraArgs: [...LAB_MODE],
  });
  assert.equal(report.options.filter_policy, 'lsm_navigator.PerLevelBloomPolicy');

  // The bits RocksDB built, per level.
  for (const l of report.tree_after_run.levels.filter((x) => x.entries >= 10_000)) {
    const built = (8 * l.filter_bytes) / l.entries;
    const want = bits[Math.min(l.level, bits.length - 1)];
    console.log(`  L${l.level}: ${l.file_count} files, ${l.entries} entries, ${built.toFixed(3)} bits/key built, ${want} exported`);
    assert.ok(built >= want - 0.01 && built <= want + 0.01 + (552 * l.file_count) / l.entries, `L${l.level}: ${built} bits/key, want ${want}`);
  }

  // Zero-result lookups: the data blocks read are the filters' false positives.
  const missing = report.run.lookups.missing;
  const existing = report.run.lookups.existing;
  const measuredBlocks = missing.data_block_reads / missing.count;
  const predictedBlocks = rec.prediction.class_costs[0];
  const sigma = Math.sqrt(missing.data_block_reads) / missing.count;
  const bar = 3 * sigma + 0.15 * predictedBlocks;
  const measuredProbes = (missing.filters_probed + existing.filters_probed) / (missing.count + existing.count);
  const predictedProbes = rec.prediction.twin.filters_per_lookup;
  console.log(
    `  zero-result lookups: ${measuredBlocks.toFixed(5)} data blocks each measured (${missing.data_block_reads} of ${missing.count}), ` +
      `${predictedBlocks.toFixed(5)} predicted (bar ±${bar.toFixed(5)}); filters probed per lookup ${measuredProbes.toFixed(4)} measured, ${predictedProbes.toFixed(4)} predicted`,
  );
  assert.equal(missing.index_block_reads + missing.filter_block_reads, 0, 'metadata stays out of the cache');
  assert.ok(Math.abs(measuredBlocks - predictedBlocks) <= bar, `zero-result blocks ${measuredBlocks} vs predicted ${predictedBlocks} (bar ${bar})`);
  assert.ok(Math.abs(measuredProbes / predictedProbes - 1) <= 0.05, `filters probed ${measuredProbes} vs predicted ${predictedProbes}`);

  // The same OPTIONS, no plugin: the split's mean bits (its filter memory) on every level, as
  // the tune prices that design (uniform allocation, the same shape, cache and memtable).
  const mean = rec.config.filter.bits_per_key;
  const uniformOptions = file(
    'uniform.OPTIONS',
    setOption(fs.readFileSync(recommendedOptions, 'utf8'), 'TableOptions/BlockBasedTable "default"', 'filter_policy', `bloomfilter:${mean}:false`),
  );
  const uniformConfig = structuredClone(rec.config);
  uniformConfig.filter.allocation = 'uniform';
  uniformConfig.levels = uniformConfig.levels.slice(0, 2).map((l) => ({ ...l, bits_per_key: undefined }));
  const uniformPredicted = JSON.parse(lsm(['predict', '--config', file('uniform.engine.json', JSON.stringify(uniformConfig)), '--workload', workloadFile]));
  const uniform = await playOnRocksdb({
    driver,
    workload: workloadFile,
    optionsFile: uniformOptions,
    blockCacheBytes: rec.config.block_cache.bytes,
    dbDir: path.join(work, 'db-uniform'),
    extraArgs: [...LAB_MODE],  // the same tree as the plugin's run, for the false positives' comparison
  });
  // False positives per lookup, both classes: what the split minimises.
  const falsePositives = (run) => {
    const levels = [...run.lookups.missing.by_level, ...run.lookups.existing.by_level];
    return levels.reduce((a, l) => a + l.filter_positive - l.filter_true_positive, 0);
  };
  const lookups = missing.count + existing.count;
  const fp = { plugin: falsePositives(report.run), uniform: falsePositives(uniform.run) };
  const u = uniform.run.lookups.missing;
  const uniformBlocks = u.data_block_reads / u.count;
  const uniformBar = 3 * Math.sqrt(u.data_block_reads) / u.count + 0.15 * uniformPredicted.class_costs[0];
  console.log(
    `  without the plugin (bloomfilter:${mean} on every level): ${uniformBlocks.toFixed(5)} data blocks per zero-result lookup measured, ` +
      `${uniformPredicted.class_costs[0].toFixed(5)} predicted; false positives per lookup (both classes) ${(fp.uniform / lookups).toFixed(5)} ` +
      `without the plugin, ${(fp.plugin / lookups).toFixed(5)} with it (${(100 * (1 - fp.plugin / fp.uniform)).toFixed(1)}% fewer)`,
  );
  assert.ok(Math.abs(uniformBlocks - uniformPredicted.class_costs[0]) <= uniformBar, `uniform zero-result blocks ${uniformBlocks} vs predicted ${uniformPredicted.class_costs[0]}`);
  // The plugin never measures more false positives than its uniform twin beyond 3σ of the two counts.
  assert.ok(fp.plugin <= fp.uniform + 3 * Math.sqrt(fp.plugin + fp.uniform), `false positives ${fp.plugin} with the plugin, ${fp.uniform} without`);
});

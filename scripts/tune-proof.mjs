#!/usr/bin/env node
/**
 * `npm run tune-proof`: Tune's promise measured, printed (not asserted — `wasm-engine/crates/lsm-tune/tests/tune.rs`
 * asserts it at a small scale in `npm test`, interop/rocksdb/proof.test.mjs the RocksDB mode).
 *
 * --target engine (the default): from RocksDB as Monkey's Table 4 describes it
 * (public/presets/rocksdb-monkey-table4.json), for YCSB A–F at --records (default 1,000,000) and
 * --operations (default 500,000): `lsm tune` recommends a design; both run natively in memory
 * with the same workload and seed; the table gives each design's predicted and measured I/O per
 * operation and the gain predicted against measured.
 *
 * --target rocksdb: from RocksDB 7.8's true defaults (the OPTIONS file RocksDB writes for
 * `Options()`, interop/rocksdb/default_options.cc) or the user's own OPTIONS file (--options), for
 * the same workloads: `lsm tune --target rocksdb` recommends, the recommendation becomes an
 * OPTIONS file (the current one with the tuned options changed), and both are played on real
 * RocksDB 7.8 through the referee (interop/rocksdb/referee.cc: the engine's exact operation
 * stream, direct reads; as users run RocksDB: background compactions, a restart between the load
 * and the run), --repeats times each, alternating. Prints per workload and design the
 * predicted and measured I/O per operation, blocks read from storage per operation, bytes written
 * per user byte, ops/s, latency per class and memory; the gains with the runs' spread as noise.
 * Writes public/measured/tune-proof-rocksdb.json (or --out). See interop/rocksdb/proof.mjs.
 *
 * Options: --records N, --operations N, --robust ρ (default 0, engine target), --target engine|rocksdb, --only abc,
 *          and for --target rocksdb: --options FILE, --scale F (sizes of the OPTIONS × F, e.g. 1/5; the
 *          block cache too), --repeats N (default 3), --out FILE, --plugin per-level-filters (the tune may give
 *          each level its own filter bits through the shipped C++ policy; the proof then builds the referee with it),
 *          --mode user|lab|both (default user: RocksDB as its users run it — background flushes and compactions,
 *          a restart between the load and the run; lab: the referee's synchronous lab mode; both: each workload
 *          both ways, side by side), --threads N (default 1: the run's client threads, user mode),
 *          --ycsb-client engine|cpp|java (default engine: who plays the YCSB workloads; cpp and java play
 *          YCSB's CoreWorkload exactly as YCSB-cpp or YCSB's Java client does)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { env, root, setup } from './setup.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const records = option('--records', '1000000');
const operations = option('--operations', '500000');
const rho = option('--robust', '0');
const target = option('--target', 'engine');
const letters = option('--only', 'abcdef');
const ycsbClient = option('--ycsb-client', 'engine');
function fail(message) {
  console.error(`tune-proof: ${message}`);
  process.exit(2);
}
if (!['engine', 'rocksdb'].includes(target)) fail(`--target must be engine or rocksdb, got "${target}"`);
if (!/^[a-f]+$/.test(letters)) fail(`--only must be letters from abcdef, got "${letters}"`);
for (const [name, v] of [['--records', records], ['--operations', operations]]) {
  if (!(Number.isInteger(Number(v)) && Number(v) >= 1)) fail(`${name} must be a whole number of at least 1, got "${v}"`);
}

// The RocksDB mode needs the CLI only (no web app, no wasm).
if (target !== 'rocksdb') setup();
const built = spawnSync('cargo', ['build', '--release', '--bin', 'lsm', '--manifest-path', path.join(root, 'wasm-engine/Cargo.toml')], { stdio: 'inherit', env });
if (built.status !== 0) process.exit(1);
const lsm = path.join(root, 'wasm-engine/target/release/lsm');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tune-proof-'));
if (target === 'rocksdb') {
  const { proveOnRocksdb } = await import('./tune-proof-rocksdb.mjs');
  try {
    await proveOnRocksdb({ work, records: Number(records), operations: Number(operations), letters, option, fail });
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  process.exit(0);
}

function lsmJson(cmdArgs) {
  const r = spawnSync(lsm, cmdArgs, { encoding: 'utf8', maxBuffer: 256 << 20 });
  if (r.status !== 0) throw new Error(`lsm ${cmdArgs.join(' ')} failed:\n${r.stderr}`);
  return { out: r.stdout, err: r.stderr };
}

/** Measured I/O per operation: pages read by the run's operations and written by its merges, per operation. */
function measure(config, workload) {
  const report = path.join(work, 'report.json');
  lsmJson(['run', '--config', config, '--workload', workload, '--report', report]);
  const r = JSON.parse(fs.readFileSync(report, 'utf8'));
  const ops = Object.values(r.operations).reduce((a, b) => a + b, 0);
  const reads = r.summary.reduce((a, c) => a + c.page_ios, 0);
  const t = r.writes.totals;
  return (reads + t.data_pages_written + t.meta_pages_written) / ops;
}

console.log(`== tune from RocksDB as Monkey's Table 4 describes it: YCSB at ${Number(records).toLocaleString('en-US')} records, ${Number(operations).toLocaleString('en-US')} operations, ρ = ${rho}, for ${target} ==`);
console.log('workload  recommended design                                                    current pred/meas     recommended pred/meas   gain pred / meas   relative error');
try {
  for (const letter of letters) {
    const { out, err } = lsmJson(['tune', '--config', path.join(root, 'public/presets/rocksdb-monkey-table4.json'), '--workload', `ycsb:${letter}`, '--records', records, '--operations', operations, '--robust', rho, '--target', target, '--ycsb-client', ycsbClient]);
    const t = JSON.parse(out);
    const rec = t[t.recommended];
    const files = {};
    for (const [name, doc] of [['current', t.current.config], ['recommended', rec.config], ['workload', t.workload]]) {
      files[name] = path.join(work, `${name}.json`);
      fs.writeFileSync(files[name], JSON.stringify(doc));
    }
    const mc = measure(files.current, files.workload);
    const mr = measure(files.recommended, files.workload);
    const pc = t.current.prediction.expected;
    const pr = rec.prediction.expected;
    // An all-in-buffer run costs nothing either way: no gain to speak of.
    const gm = mc > 0 ? 1 - mr / mc : 0;
    const gp = pc > 0 ? 1 - pr / pc : 0;
    const millis = /tuned in ([0-9.]+) ms/.exec(err)?.[1];
    console.log(
      `YCSB ${letter.toUpperCase()}    ${rec.summary.padEnd(68)} ${pc.toFixed(4)} / ${mc.toFixed(4)}     ${pr.toFixed(4)} / ${mr.toFixed(4)}      ${(100 * gp).toFixed(2)}% / ${(100 * gm).toFixed(2)}%   ${gm !== 0 ? `${(100 * (gp / gm - 1)).toFixed(1)}%` : '—'}   (tuned in ${millis} ms)`,
    );
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}

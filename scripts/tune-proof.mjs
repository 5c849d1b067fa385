#!/usr/bin/env node
/**
 * `npm run tune-proof`: Tune's promise measured, printed (not asserted — `wasm-engine/crates/lsm-tune/tests/tune.rs`
 * asserts it at a small scale in `npm test`). From RocksDB as Monkey's Table 4 describes it (public/presets/rocksdb-monkey-table4.json), for YCSB A–F at
 * --records (default 1,000,000) and --operations (default 500,000): `lsm tune` recommends a
 * design; both run natively in memory with the same workload and seed; the table gives each
 * design's predicted and measured I/O per operation and the gain predicted against measured.
 *
 * Options: --records N, --operations N, --robust ρ (default 0), --target engine|rocksdb, --only abc
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

setup();
const built = spawnSync('cargo', ['build', '--release', '--bin', 'lsm', '--manifest-path', path.join(root, 'wasm-engine/Cargo.toml')], { stdio: 'inherit', env });
if (built.status !== 0) process.exit(1);
const lsm = path.join(root, 'wasm-engine/target/release/lsm');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tune-proof-'));

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
    const { out, err } = lsmJson(['tune', '--config', path.join(root, 'public/presets/rocksdb-monkey-table4.json'), '--workload', `ycsb:${letter}`, '--records', records, '--operations', operations, '--robust', rho, '--target', target]);
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

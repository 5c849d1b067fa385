#!/usr/bin/env node
/**
 * `npm run rocksdb-twin`: the RocksDB twin's whole table. For each shape (RocksDB 7.8's defaults,
 * + Bloom 10, L0 trigger 2 with multiplier 4, dynamic level bytes, universal) and YCSB A–F at
 * --records (default 1,000,000 of 1,000 B) and --operations (default 500,000): the engine runs
 * what `lsm import --rocksdb` makes of the OPTIONS file, real RocksDB plays the same stream through
 * the referee (interop/rocksdb/referee.cc, direct reads), and each figure is printed side by side
 * with whether they agree (10%, or 0.02 below 0.2). Writes public/measured/rocksdb-twin.json.
 *
 * Options: --records N, --operations N, --scale F (sizes × F; default 1), --only shape,shape,
 * --workloads abcdef, --out FILE
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { env, root, setup } from './setup.mjs';
import { buildReferee } from '../interop/rocksdb/referee.mjs';
import { SHAPES, caseLines, runCase } from '../interop/rocksdb/twin.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const records = Number(option('--records', '1000000'));
const operations = Number(option('--operations', '500000'));
const scale = Number(option('--scale', '1'));
const only = option('--only', SHAPES.map((s) => s.id).join(',')).split(',');
const letters = option('--workloads', 'abcdef');
const out = option('--out', path.join(root, 'public/measured/rocksdb-twin.json'));

setup();
const built = spawnSync('cargo', ['build', '--release', '--bin', 'lsm', '--manifest-path', path.join(root, 'wasm-engine/Cargo.toml')], { stdio: 'inherit', env });
if (built.status !== 0) process.exit(1);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'rocksdb-twin-'));
try {
  const driver = buildReferee(work);
  const cases = [];
  for (const shape of SHAPES.filter((s) => only.includes(s.id))) {
    for (const letter of letters) {
      const t0 = Date.now();
      const c = await runCase({ driver, dir: path.join(work, `${shape.id}-${letter}`), shape, workload: `ycsb:${letter}`, records, operations, scale });
      console.log(`${caseLines(c).join('\n')}\n  (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
      cases.push(c);
    }
  }
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify({ kind: 'lsm-navigator/rocksdb-twin', version: 1, measured: new Date().toISOString(), records, operations, scale, cases }, null, 1)}\n`);
  console.log(`\nwrote ${path.relative(root, out)}`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}

#!/usr/bin/env node
/**
 * `npm run rocksdb-twin`: the RocksDB twin's whole table. For each shape (RocksDB 7.8's defaults,
 * + Bloom 10, L0 trigger 2 with multiplier 4, dynamic level bytes, universal) and YCSB A–F at
 * --records (default 1,000,000 of 1,000 B) and --operations (default 500,000): the engine runs
 * what `lsm import --rocksdb` makes of the OPTIONS file, real RocksDB plays the same stream through
 * the referee (interop/rocksdb/referee.cc, direct reads), and each figure is printed side by side
 * with whether they agree (10%, or 0.02 below 0.2). Writes public/measured/rocksdb-twin.json.
 *
 * Options: see `--help`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { env, root, setup } from './setup.mjs';
import { buildReferee } from '../interop/rocksdb/referee.mjs';
import { SHAPES, agreementCounts, caseLines, repredictCase, rerunEngineCase, runCase } from '../interop/rocksdb/twin.mjs';

const usage = `npm run rocksdb-twin -- [options]

  --records N      records loaded, 1,000 B values (default 1000000; at least 1000)
  --operations N   YCSB operations after the load (default 500000; at least 1)
  --scale F        every size option (memtable, level base, file target, cache) × F, in (0, 1];
                   a fraction such as 1/64 is accepted (default 1: RocksDB's own sizes)
  --only LIST      shapes, comma-separated, from: ${SHAPES.map((s) => s.id).join(', ')} (default all)
  --workloads L    YCSB workload letters from abcdef, run together or comma-separated (default abcdef)
  --out FILE       where the table is written (default public/measured/rocksdb-twin.json)
  --predict-only   measure nothing: make the predicted column of a stored table (--in) again with
                   today's \`lsm predict\`, keep its engine and RocksDB figures, write it to --out
                   (default: over --in); prints the agreement before and after
  --engine-again   run the engine again (and lsm predict) for the stored cases --only and
                   --workloads select, keep RocksDB's figures and every other case as stored,
                   write it to --out (default: over --in); prints the agreement before and after
  --in FILE        the stored table --predict-only or --engine-again reads (default public/measured/rocksdb-twin.json)
  --help           this text`;

function fail(message) {
  console.error(`rocksdb-twin: ${message}\n\n${usage}`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      records: { type: 'string', default: '1000000' },
      operations: { type: 'string', default: '500000' },
      scale: { type: 'string', default: '1' },
      only: { type: 'string', default: SHAPES.map((s) => s.id).join(',') },
      workloads: { type: 'string', default: 'abcdef' },
      out: { type: 'string' },
      'predict-only': { type: 'boolean', default: false },
      'engine-again': { type: 'boolean', default: false },
      in: { type: 'string', default: path.join(root, 'public/measured/rocksdb-twin.json') },
      help: { type: 'boolean', default: false },
    },
  }));
} catch (e) {
  fail(e.message);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const integer = (name, min) => {
  const n = Number(values[name]);
  if (!Number.isInteger(n) || n < min) fail(`--${name} must be a whole number of at least ${min}, got "${values[name]}"`);
  return n;
};
const records = integer('records', 1000);
const operations = integer('operations', 1);
const [num, den = '1'] = values.scale.split('/');
const scale = Number(num) / Number(den);
if (!(scale > 0 && scale <= 1)) fail(`--scale must be in (0, 1], e.g. 1/64, got "${values.scale}"`);
const only = values.only.split(',');
const unknownShape = only.find((id) => !SHAPES.some((s) => s.id === id));
if (unknownShape) fail(`--only: no shape "${unknownShape}"`);
const letters = values.workloads.replaceAll(',', '');
if (!/^[a-f]+$/.test(letters)) fail(`--workloads must be letters from abcdef, got "${letters}"`);
const fromStored = values['predict-only'] || values['engine-again'];
if (values['predict-only'] && values['engine-again']) fail('--predict-only and --engine-again: give one');
const out = values.out ?? (fromStored ? values.in : path.join(root, 'public/measured/rocksdb-twin.json'));

/** The agreement of a table, one line per side, then each figure that does not agree. */
function printAgreement(title, cases) {
  const { engine, predicted, misses } = agreementCounts(cases);
  console.log(`${title}: engine agrees with RocksDB on ${engine[0]} of ${engine[1]} figures, lsm predict on ${predicted[0]} of ${predicted[1]}`);
  for (const m of misses) console.log(`  ${m}`);
}

setup();
const built = spawnSync('cargo', ['build', '--release', '--bin', 'lsm', '--manifest-path', path.join(root, 'wasm-engine/Cargo.toml')], { stdio: 'inherit', env });
if (built.status !== 0) process.exit(1);
if (fromStored) {
  let table;
  try {
    table = JSON.parse(fs.readFileSync(values.in, 'utf8'));
  } catch (e) {
    fail(`--in: cannot read a twin table from ${values.in}: ${e.message}`);
  }
  if (table.kind !== 'lsm-navigator/rocksdb-twin' || !Array.isArray(table.cases)) fail(`--in: ${values.in} is not a twin table (kind lsm-navigator/rocksdb-twin)`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'rocksdb-twin-predict-'));
  try {
    printAgreement('stored', table.cases);
    const selected = (c) => only.includes(c.shape) && letters.includes(c.workload.replace(/^ycsb:/, ''));
    const cases = table.cases.map((c, i) => {
      const dir = path.join(work, String(i));
      if (!values['engine-again']) return repredictCase(c, dir);
      if (!selected(c)) return c;
      const t0 = Date.now();
      const again = rerunEngineCase(c, dir);
      console.log(`${caseLines(again).join('\n')}\n  (engine again in ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
      return again;
    });
    printAgreement(values['engine-again'] ? 'engine run again' : 'predicted again', cases);
    fs.writeFileSync(out, `${JSON.stringify({ ...table, predictedAt: new Date().toISOString(), cases }, null, 1)}\n`);
    console.log(`\nwrote ${path.relative(root, out)}`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  process.exit(0);
}
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
  printAgreement('\nagreement', cases);
  console.log(`\nwrote ${path.relative(root, out)}`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}

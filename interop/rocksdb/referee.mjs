/**
 * The RocksDB referee from Node: compile the driver (referee.cc, against Debian's librocksdb 7.8)
 * and play a workload's operation stream on it. The stream is the engine's own (`lsm ops`: every
 * operation, key and value byte for byte, with the load/run phase markers), piped into the
 * driver's stdin as it is generated, so a million 1 KB records never sit in memory; the driver
 * prints one JSON document (what RocksDB did, phase by phase; see referee.cc's header).
 *
 *   import { buildReferee, playOnRocksdb } from './referee.mjs';
 *   const driver = buildReferee(dir);
 *   const r = await playOnRocksdb({ driver, workload: 'ycsb:b', records: 20000, operations: 20000,
 *                                   optionsFile: 'OPTIONS.ini', blockCacheBytes: 0 });
 *
 * From a shell (compiles the driver into a temporary directory, prints the JSON):
 *   node interop/rocksdb/referee.mjs --workload ycsb:b --records 1000000 --operations 500000 \
 *       --options OPTIONS.ini [--policy DIR] [--block-cache-bytes N] [driver flags...]
 *
 * How RocksDB is played (the driver's process model, referee.cc's header; the JSON's `process`):
 * by default as its users run it — flushes and compactions in the background, the database
 * closed and reopened between the load and the run (`--between restart`: a cold block cache, the
 * run's counters the run's only), one client (`--threads N` for more). `LAB_MODE` is the
 * lab switch: every flush and compaction waited for after the write that caused it, load and run
 * in one process, so the tree after N writes depends on the writes alone — what a counter-for-
 * counter comparison with the engine (twin.mjs) needs. A caller that passes it says why.
 *
 * A design with per-level filter bits needs the C++ policy `lsm export --format rocksdb-cpp`
 * writes (`policy.h`, a plugin an OPTIONS file cannot name): `buildReferee(dir, { policyDir })`
 * compiles it into the driver, and `filterPlugin: true` (the driver's --filter-plugin on) installs
 * it as the table's filter_policy; from a shell, `--policy DIR` (DIR holding policy.h) does both.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const LSM = path.join(path.resolve(here, '../..'), 'wasm-engine/target/release/lsm');

/**
 * The driver's lab mode (extraArgs): synchronous flushes and compactions (the driver waits after
 * every write that sealed a memtable until RocksDB is idle) and the run in the load's process.
 * Deterministic trees, file by file; not how RocksDB runs for its users.
 */
export const LAB_MODE = Object.freeze(['--sync-compactions', 'on', '--between', 'continue']);

/** The driver's translation units: `main` (referee.cc) and its parts (referee_*.cc, each with its header). */
export const REFEREE_SOURCES = ['referee.cc', ...fs.readdirSync(here).filter((f) => /^referee_.+\.cc$/.test(f)).sort()];

/**
 * Compile the driver (referee.cc and its parts) into `dir` (g++ -std=c++17 -O2, -lrocksdb); returns the executable's path.
 * With `policyDir` (a directory holding an exported `policy.h`), the per-level filter policy is
 * compiled in, for runs with `filterPlugin: true`.
 */
export function buildReferee(dir, { policyDir } = {}) {
  const exe = path.join(dir, 'referee');
  fs.mkdirSync(dir, { recursive: true });
  const policy = [];
  if (policyDir) {
    if (!fs.existsSync(path.join(policyDir, 'policy.h'))) throw new Error(`buildReferee: ${policyDir} holds no policy.h (lsm export --format rocksdb-cpp writes it)`);
    policy.push('-DLSM_NAVIGATOR_POLICY', '-I', policyDir);
  }
  const objects = REFEREE_SOURCES.map((f) => path.join(dir, f.replace(/\.cc$/, '.o')));
  runAtOnce(REFEREE_SOURCES.map((f, i) => ['g++', ['-std=c++17', '-O2', ...policy, '-c', path.join(here, f), '-o', objects[i]]]));
  execFileSync('g++', [...objects, '-o', exe, '-lrocksdb', '-lpthread'], { stdio: ['ignore', 'inherit', 'inherit'] });
  return exe;
}

/**
 * Runs the commands a core's worth at a time (in a child Node process: buildReferee is
 * synchronous) and throws if any fails. Every part parses RocksDB's heavy headers, so compiled
 * one after another they take about twice as long as the driver did as one file; side by side on
 * two cores, about as long.
 */
function runAtOnce(commands) {
  const pool = `const { spawn } = require('node:child_process');
const jobs = JSON.parse(process.argv[1]);
let failed = false;
const next = () => {
  const job = jobs.shift();
  if (!job) return Promise.resolve();
  return new Promise((done) => spawn(job[0], job[1], { stdio: 'inherit' }).on('close', (code) => { failed ||= code !== 0; done(); })).then(next);
};
Promise.all(Array.from({ length: Math.max(1, require('node:os').availableParallelism()) }, next)).then(() => process.exit(failed ? 1 : 0));`;
  execFileSync(process.execPath, ['-e', pool, JSON.stringify(commands)], { stdio: ['ignore', 'inherit', 'inherit'] });
}

/** The driver's command line for these settings (everything after the executable). */
export function refereeArgs({ dbDir, optionsFile, blockCacheBytes, filterPlugin = false, extraArgs = [] }) {
  if (!dbDir) throw new Error('refereeArgs: dbDir is required');
  if (!optionsFile) throw new Error('refereeArgs: optionsFile is required (a RocksDB OPTIONS file)');
  const args = ['--db', dbDir, '--options', optionsFile];
  if (blockCacheBytes !== undefined && blockCacheBytes !== null) args.push('--block-cache-bytes', String(blockCacheBytes));
  if (filterPlugin) args.push('--filter-plugin', 'on');
  return [...args, ...extraArgs];
}

/**
 * A child's stdout as text once it exits with status 0 (unless `readStdout` is false: its stdout
 * is piped elsewhere); otherwise an Error with its status and stderr.
 */
function collect(child, what, readStdout = true) {
  const out = [];
  let err = '';
  if (readStdout) child.stdout.on('data', (d) => out.push(d));
  child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    child.on('error', (e) => reject(new Error(`${what}: ${e.message}`)));
    child.on('close', (code, signal) => {
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new Error(`${what} exited with ${code ?? signal}: ${err.trim()}`));
    });
  });
}

/** The JSON the driver printed, or an Error quoting the start of what it printed instead. */
function parseReport(text) {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`the referee printed no JSON (${e.message}): ${text.slice(0, 300)}`);
  }
}

/**
 * Play a stream already in hand (a Buffer: a hand-written LSMOPS1 stream) on the driver; resolves
 * to the parsed JSON. `env` adds environment variables (REFEREE_READ_BUFFER_BYTES, a test's knob). `dbDir` must not exist or be empty; without one a temporary directory is
 * used and removed afterwards.
 */
export async function playStream({ driver, input, optionsFile, blockCacheBytes, dbDir, extraArgs = [], env }) {
  return withDbDir(dbDir, async (db) => {
    const child = spawn(driver, refereeArgs({ dbDir: db, optionsFile, blockCacheBytes, extraArgs }), {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: env ? { ...process.env, ...env } : process.env,
    });
    // The driver may stop reading early (a bad stream); its exit status tells why, not EPIPE.
    child.stdin.on('error', () => {});
    child.stdin.end(input);
    return parseReport(await collect(child, 'the RocksDB referee'));
  });
}

/**
 * Play workload W on RocksDB: `lsm ops --workload W [--records N --operations N]` piped into the
 * driver; or a trace's operations, record by record: `trace` a KVBench trace (`lsm ops --trace`,
 * integer keys at `keyBytes`), `rocksdbTrace` a RocksDB query trace (`lsm ops --rocksdb-trace`).
 * Resolves to the driver's JSON; rejects with the failing side's status and stderr.
 */
export async function playOnRocksdb({ lsm = LSM, workload, trace, rocksdbTrace, keyBytes, records, operations, optionsFile, blockCacheBytes, filterPlugin = false, dbDir, driver, extraArgs = [] }) {
  if (!driver) throw new Error('playOnRocksdb: driver is required (buildReferee(dir) compiles it)');
  const inputs = [workload, trace, rocksdbTrace].filter((x) => x !== undefined);
  if (inputs.length !== 1) throw new Error('playOnRocksdb: give exactly one of workload (ycsb:a … ycsb:f, a YCSB properties file or Workload JSON), trace (KVBench) or rocksdbTrace');
  if (!fs.existsSync(lsm)) {
    throw new Error(`${lsm} does not exist: build it with cargo build --release --bin lsm --manifest-path wasm-engine/Cargo.toml`);
  }
  const opsArgs = workload !== undefined ? ['ops', '--workload', workload] : trace !== undefined ? ['ops', '--trace', trace] : ['ops', '--rocksdb-trace', rocksdbTrace];
  if (keyBytes !== undefined) opsArgs.push('--key-bytes', String(keyBytes));
  if (records !== undefined) opsArgs.push('--records', String(records));
  if (operations !== undefined) opsArgs.push('--operations', String(operations));
  return withDbDir(dbDir, async (db) => {
    const ops = spawn(lsm, opsArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
    const referee = spawn(driver, refereeArgs({ dbDir: db, optionsFile, blockCacheBytes, filterPlugin, extraArgs }), { stdio: ['pipe', 'pipe', 'pipe'] });
    referee.stdin.on('error', () => {});
    ops.stdout.pipe(referee.stdin);
    // A referee that dies early (RocksDB aborting on an option) must not leave lsm ops blocked
    // on a full pipe: drain the rest so both settle and the failure is reported.
    referee.on('close', () => {
      ops.stdout.unpipe(referee.stdin);
      ops.stdout.resume();
    });
    // Both must succeed; if one fails, say which (the other's failure usually follows from it).
    const [opsResult, refereeResult] = await Promise.allSettled([collect(ops, 'lsm ops', false), collect(referee, 'the RocksDB referee')]);
    if (opsResult.status === 'rejected') throw opsResult.reason;
    if (refereeResult.status === 'rejected') throw refereeResult.reason;
    return parseReport(refereeResult.value);
  });
}

/** Run `f` on `dbDir`, or on a fresh temporary directory removed afterwards. */
async function withDbDir(dbDir, f) {
  if (dbDir) return f(dbDir);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lsm-referee-db-'));
  try {
    return await f(path.join(tmp, 'db'));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** `node interop/rocksdb/referee.mjs --workload W [--records N] [--operations N] --options FILE [driver flags]`. */
async function main(argv) {
  const take = (flag) => {
    const i = argv.indexOf(flag);
    if (i < 0) return undefined;
    const v = argv[i + 1];
    if (v === undefined) throw new Error(`${flag} takes a value`);
    argv.splice(i, 2);
    return v;
  };
  const workload = take('--workload');
  const records = take('--records');
  const operations = take('--operations');
  const optionsFile = take('--options');
  const dbDir = take('--db');
  const policyDir = take('--policy');
  if (!workload || !optionsFile) {
    console.error('usage: node interop/rocksdb/referee.mjs --workload W [--records N] [--operations N] --options OPTIONS_FILE [--policy DIR] [--db DIR] [referee flags]');
    process.exit(2);
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lsm-referee-'));
  try {
    const driver = buildReferee(work, { policyDir });
    const t0 = Date.now();
    const report = await playOnRocksdb({ workload, records, operations, optionsFile, dbDir, driver, filterPlugin: Boolean(policyDir), extraArgs: argv });
    console.error(`referee: played in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((e) => {
    console.error(e.message);
    process.exit(1);
  });
}

#!/usr/bin/env node
/**
 * `npm run fuzz -- <target|all> [seconds]`: coverage-guided fuzzing (cargo-fuzz, libFuzzer) of the
 * engine's parsers and importers — RocksDB OPTIONS, EngineConfig JSON, Workload JSON, KVBench
 * traces, YCSB workload properties. Each target starts from a corpus seeded from public/ (presets, example configs and
 * workloads, their OPTIONS exports and traces) and kept in .cache/fuzz/corpus/<target>, so later
 * runs start where earlier ones stopped. Prints the cases run; exits non-zero on a crash, leaving
 * the input in wasm-engine/fuzz/artifacts/<target>/ (make it a regression test).
 *
 * Needs a nightly toolchain and cargo-fuzz; installs both if missing (`ensureFuzzTools`).
 * `npm test` runs every target for a few seconds (scripts/test.mjs).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { env, root } from './setup.mjs';

export const TARGETS = ['rocksdb_options', 'engine_config', 'workload', 'kvbench_trace', 'ycsb_properties', 'rocksdb_trace', 'rocksdb_log', 'db_bench_flags'];
const fuzzDir = path.join(root, 'wasm-engine', 'fuzz');
const corpusRoot = path.join(root, '.cache', 'fuzz', 'corpus');
const lsm = path.join(root, 'wasm-engine', 'target', 'release', 'lsm');

function run(cmd, args, options = {}) {
  return spawnSync(cmd, args, { cwd: root, env, encoding: 'utf8', maxBuffer: 256 << 20, ...options });
}

/**
 * Run a long command without blocking (other suites may be running in this process), its output
 * to `out`: 'inherit' (this terminal) or a file descriptor. Resolves to the exit status.
 */
function runLong(cmd, args, { cwd = root, out = 'inherit' } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', out, out] });
    child.on('error', () => resolve(127));
    child.on('close', (code) => resolve(code ?? 1));
  });
}

function say(out, line) {
  if (out === 'inherit') console.log(line);
  else fs.writeSync(out, `${line}\n`);
}

/** The nightly toolchain (cargo-fuzz needs its `-Z` flags) and cargo-fuzz itself. */
export async function ensureFuzzTools({ out = 'inherit' } = {}) {
  if (run('rustup', ['run', 'nightly', 'rustc', '--version']).status !== 0) {
    say(out, '[fuzz] installing the nightly Rust toolchain (cargo-fuzz needs it)');
    if ((await runLong('rustup', ['toolchain', 'install', 'nightly', '--profile', 'minimal'], { out })) !== 0) {
      throw new Error('could not install the nightly toolchain: rustup toolchain install nightly --profile minimal');
    }
  }
  if (run('cargo', ['fuzz', '--version']).status !== 0) {
    say(out, '[fuzz] installing cargo-fuzz');
    if ((await runLong('cargo', ['install', '--locked', 'cargo-fuzz@0.13.2'], { out })) !== 0) {
      throw new Error('could not install cargo-fuzz: cargo install --locked cargo-fuzz@0.13.2');
    }
  }
}

function jsonFiles(dir, skip = []) {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json') && !skip.includes(f))
    .map((f) => path.join(dir, f));
}

/** Seed a target's corpus from public/ (the native CLI writes the OPTIONS files and traces). */
function seed(target) {
  const dir = path.join(corpusRoot, target);
  fs.mkdirSync(dir, { recursive: true });
  const put = (name, bytes) => fs.writeFileSync(path.join(dir, `seed-${name}`), bytes);
  const presets = jsonFiles(path.join(root, 'public', 'presets'), ['index.json']);
  const configs = [...presets, ...jsonFiles(path.join(root, 'public', 'examples')).filter((f) => !/workload|mixed|lookups/.test(f))];
  const workloads = ['mixed.json', 'bench-workload.json', 'zero-result-lookups.json'].map((f) => path.join(root, 'public', 'examples', f));
  if (target === 'engine_config') for (const f of configs) put(path.basename(f), fs.readFileSync(f));
  if (target === 'workload') for (const f of workloads) put(path.basename(f), fs.readFileSync(f));
  if (target === 'rocksdb_options') {
    for (const f of presets) {
      const r = run(lsm, ['export', '--design', f, '--format', 'rocksdb']);
      if (r.status === 0) put(path.basename(f, '.json') + '.ini', r.stdout);
    }
  }
  if (target === 'ycsb_properties') {
    for (const letter of 'abcdef') {
      const r = run(lsm, ['ycsb', '--core', letter]);
      if (r.status === 0) put(`workload${letter}`, r.stdout);
    }
    const r = run(lsm, ['ycsb', '--workload', workloads[0]]);
    if (r.status === 0) put('mixed.properties', r.stdout);
  }
  if (target === 'kvbench_trace') {
    for (const f of workloads) {
      const r = run(lsm, ['trace', '--workload', f]);
      // The first byte picks the key length (16 bytes: (16 − 8) / 4 = 2); a few hundred lines each.
      if (r.status === 0) put(path.basename(f, '.json') + '.trace', Buffer.concat([Buffer.from([2]), Buffer.from(r.stdout.split('\n').slice(0, 400).join('\n'))]));
    }
  }
  if (target === 'rocksdb_trace') {
    // Traces db_bench recorded (the reader's own fixtures: writes, batches, seeks, MultiGets, merges, two column families).
    const fixtures = path.join(root, 'wasm-engine', 'crates', 'lsm-workload', 'tests', 'rocksdb-traces');
    for (const f of fs.readdirSync(fixtures).filter((n) => n.endsWith('.trace'))) put(f, fs.readFileSync(path.join(fixtures, f)));
  }
  if (target === 'rocksdb_log') {
    // LOGs real RocksDB 7.8.3 wrote (db_bench with and without statistics), kept as the reader's fixtures.
    const fixtures = path.join(root, 'wasm-engine', 'crates', 'lsm-export', 'tests', 'fixtures', 'rocksdb-log');
    for (const f of fs.readdirSync(fixtures).filter((n) => n.endsWith('.LOG'))) put(f, fs.readFileSync(path.join(fixtures, f)));
  }
  if (target === 'db_bench_flags') {
    // The ZippyDB fit (issue 48) in mixgraph's four key modes, and the plain benchmarks.
    const zippy = '-value_k=0.2615 -value_sigma=25.45 -iter_k=2.517 -iter_sigma=14.236 -mix_get_ratio=0.83 -mix_put_ratio=0.14 -mix_seek_ratio=0.03';
    const keys = '-key_dist_a=0.002312 -key_dist_b=0.3467';
    const ranges = '-keyrange_dist_a=14.18 -keyrange_dist_b=-2.917 -keyrange_dist_c=0.0164 -keyrange_dist_d=-0.08082 -keyrange_num=30';
    const lines = {
      'all_random.sh': `db_bench --benchmarks=fillrandom,mixgraph --num=2000 --key_size=48 ${zippy} -sine_a=1000`,
      'all_dist.sh': `./db_bench --benchmarks=fillrandom,mixgraph --num=2000 --key_size=48 ${keys} ${zippy}`,
      'prefix_random.sh': `db_bench --benchmarks=fillseq,mixgraph --num=3000 --reads=500 ${ranges} ${zippy} --write_buffer_size=1048576`,
      'prefix_dist.sh': `db_bench --benchmarks=fillrandom,mixgraph \\\n  --num=3000 --key_size=48 ${keys} ${ranges} ${zippy} --statistics`,
      'rrwr.sh': 'db_bench --benchmarks=fillrandom,readrandomwriterandom --num=1000 --readwritepercent=70 --keys_per_prefix=10 --prefix_size=8 --key_size=24',
      'seek.sh': 'db_bench --benchmarks=fillseq,seekrandom --num=1000 --writes=500 --seek_nexts=5 --threads=2',
      'update.sh': 'db_bench --benchmarks=fillrandom,updaterandom,stats --num 1000 --value_size 50 --seed=3',
    };
    for (const [name, text] of Object.entries(lines)) put(name, `${text}\n`);
  }
  writeDictionary(target, dir);
  return dir;
}

/**
 * A libFuzzer dictionary from the seeds: JSON keys and string values, OPTIONS names and section
 * headers, trace operation letters. Mutations then speak the format instead of only flipping bits.
 */
function writeDictionary(target, corpus) {
  const tokens = new Set();
  for (const f of fs.readdirSync(corpus).filter((n) => n.startsWith('seed-'))) {
    const text = fs.readFileSync(path.join(corpus, f), 'latin1');
    for (const m of text.matchAll(/"([A-Za-z_][A-Za-z0-9_./-]{0,40})"/g)) tokens.add(`"${m[1]}"`);
    for (const m of text.matchAll(/^\s*([A-Za-z_][A-Za-z0-9_.]{1,60})=/gm)) tokens.add(`${m[1]}=`);
    for (const m of text.matchAll(/^\[([^\]\n]{1,60})\]/gm)) tokens.add(`[${m[1]}]`);
    for (const m of text.matchAll(/=([A-Za-z][A-Za-z0-9_.]{1,60})$/gm)) tokens.add(m[1]);
  }
  if (target === 'kvbench_trace') for (const op of ['I ', 'U ', 'D ', 'Q ', 'S ', '# ']) tokens.add(`\n${op}`);
  if (target === 'rocksdb_trace') for (const t of ['feedcafedeadbeef\t', 'Trace Version: 0.2\t', 'Trace Version: 0.1\t', 'RocksDB Version: 7.8\t']) tokens.add(t);
  if (target === 'rocksdb_log') {
    for (const t of ['------- DUMPING STATS -------', '** Compaction Stats [default] **', 'Cumulative writes: ', 'Cumulative WAL: ',
      'Cumulative stall: ', 'Stalls(count): ', 'Block cache ', 'STATISTICS:', ' COUNT : ', ' SUM : ', ' P50 : ', ' KB', ' MB',
      '2026/12/02-03:17:41.364243 9631 ', '"table_file_creation"', 'EVENT_LOG_v1 ']) tokens.add(t);
  }
  if (target === 'db_bench_flags') {
    for (const f of fs.readdirSync(corpus).filter((n) => n.startsWith('seed-'))) {
      for (const m of fs.readFileSync(path.join(corpus, f), 'latin1').matchAll(/-{1,2}[a-z_]+=?/g)) tokens.add(m[0]);
    }
  }
  for (const t of ['true', 'false', 'null', '1e308', '-1', '4294967296', '18446744073709551615', 'NaN']) tokens.add(t);
  const quote = (t) => `"${[...Buffer.from(t, 'latin1')].map((b) => (b === 0x22 || b === 0x5c ? `\\${String.fromCharCode(b)}` : b < 0x20 || b > 0x7e ? `\\x${b.toString(16).padStart(2, '0')}` : String.fromCharCode(b))).join('')}"`;
  fs.writeFileSync(path.join(path.dirname(corpus), `${target}.dict`), [...tokens].map(quote).join('\n') + '\n');
}

/**
 * How the targets are built, the same for `fuzz build` and `fuzz run` (or the run rebuilds):
 * optimised, with debug assertions (integer overflow in a size read from the input panics, as it
 * should be found), without AddressSanitizer. The code under fuzz is safe Rust — bounds are checked
 * by the language, and the one `unsafe` on its path is a prefetch hint that reads nothing — so
 * ASan would find nothing those checks do not, while it doubles the build and slows every case.
 */
const BUILD_FLAGS = ['-O', '--debug-assertions', '--sanitizer', 'none'];

function fuzzArgs(target, seconds) {
  const corpus = seed(target);
  return ['+nightly', 'fuzz', 'run', ...BUILD_FLAGS, target, corpus, '--', `-dict=${path.join(corpusRoot, `${target}.dict`)}`, `-max_total_time=${seconds}`, '-rss_limit_mb=2048', '-max_len=65536', '-print_final_stats=1'];
}

function fuzzResult(target, seconds, status, output) {
  const runs = Number(/stat::number_of_executed_units:\s*(\d+)/.exec(output)?.[1] ?? /Done (\d+) runs/.exec(output)?.[1] ?? 0);
  const artifact = /Test unit written to (\S+)/.exec(output)?.[1] ?? null;
  return { target, runs, seconds, crashed: status !== 0, artifact, output };
}

/**
 * Fuzz one target for `seconds`. Resolves to { target, runs, seconds, crashed, artifact, output }.
 * Builds as BUILD_FLAGS says; libFuzzer's RSS limit
 * catches an allocation sized from an unchecked field. Does not block: several targets can run at
 * once (libFuzzer uses one core each).
 */
export function fuzz(target, seconds) {
  return new Promise((resolve) => {
    const child = spawn('cargo', fuzzArgs(target, seconds), { cwd: fuzzDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    child.on('error', (err) => resolve(fuzzResult(target, seconds, 1, err.message)));
    child.on('close', (code) => resolve(fuzzResult(target, seconds, code ?? 1, Buffer.concat(chunks).toString('utf8'))));
  });
}

/**
 * Build the CLI (for the seeds; `cli: false` when it is built already) and the fuzz targets (in
 * wasm-engine/fuzz/target, so this does not wait for other cargo commands on wasm-engine/target).
 */
export async function buildFuzzTargets({ out = 'inherit', cli = true } = {}) {
  if (cli && (await runLong('cargo', ['build', '--release', '--bin', 'lsm', '--manifest-path', 'wasm-engine/Cargo.toml'], { out })) !== 0) {
    throw new Error('the lsm CLI did not build');
  }
  if ((await runLong('cargo', ['+nightly', 'fuzz', 'build', ...BUILD_FLAGS], { cwd: fuzzDir, out })) !== 0) {
    throw new Error('the fuzz targets did not build');
  }
}

async function main() {
  const [which = 'all', secondsArg = '60'] = process.argv.slice(2);
  const targets = which === 'all' ? TARGETS : [which];
  for (const t of targets) {
    if (!TARGETS.includes(t)) {
      console.error(`unknown fuzz target "${t}"; choose from ${TARGETS.join(', ')} or all`);
      process.exit(2);
    }
  }
  const seconds = Number(secondsArg);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 86_400) {
    console.error(`seconds must be an integer in [1, 86400], got "${secondsArg}"`);
    process.exit(2);
  }
  await ensureFuzzTools();
  await buildFuzzTargets();
  let failed = false;
  for (const t of targets) {
    console.log(`[fuzz] ${t}: ${seconds} s`);
    const r = await fuzz(t, seconds);
    console.log(`[fuzz] ${t}: ${r.runs.toLocaleString('en-US')} cases in ${seconds} s, ${r.crashed ? `CRASH (input: ${r.artifact ?? 'see output'})` : '0 crashes'}`);
    if (r.crashed) {
      failed = true;
      console.log(r.output.split('\n').slice(-60).join('\n'));
    }
  }
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();

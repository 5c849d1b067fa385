#!/usr/bin/env node
/**
 * `npm test`: set up, then run every suite — Rust (cargo test, clippy, rustfmt), TypeScript
 * type checks, Vitest for models and web, Playwright end-to-end in Debian's Chromium — and end
 * with one line `N passed, N failed` over all of them. Every suite runs even if an earlier one
 * failed; the exit code is non-zero if anything failed.
 *
 * The `rocksdb` suite checks the exports against a real RocksDB (Debian's db_bench and librocksdb).
 *
 * The `leveldb` suite holds the engine's and the MSLS model's write amplification against a real
 * LevelDB (Debian's libleveldb), on the same writes.
 *
 * The `fuzz` suite runs each cargo-fuzz target of the engine's parsers for a few seconds.
 *
 * Run one suite alone: `node scripts/test.mjs rust|lint|models|web|e2e|rocksdb|leveldb|fuzz` (several may be given).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildFuzzTargets, ensureFuzzTools, fuzz, TARGETS as FUZZ_TARGETS } from './fuzz.mjs';
import { env, freePort, root, setup } from './setup.mjs';

export const CHROMIUM = '/usr/bin/chromium';
const resultsDir = path.join(root, '.cache', 'results');

function exec(cmd, args, options = {}) {
  console.log(`\n$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', ...options });
  if (r.stdout) process.stdout.write(r.stdout);
  if (r.error) console.error(`${cmd} could not be started: ${r.error.message}`);
  return { status: r.status ?? 1, stdout: r.stdout ?? '' };
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

function rust() {
  const r = exec('cargo', ['test', '--no-fail-fast', '--manifest-path', 'wasm-engine/Cargo.toml', '--', '--color', 'never'], {
    maxBuffer: 64 << 20,
  });
  let passed = 0;
  let failed = 0;
  for (const m of r.stdout.matchAll(/test result: \w+\. (\d+) passed; (\d+) failed/g)) {
    passed += Number(m[1]);
    failed += Number(m[2]);
  }
  if (r.status !== 0 && failed === 0) failed = 1; // did not compile, or a test binary crashed
  return { passed, failed };
}

/** Lints and the dependency check count as one test each: clean or not. */
function lint() {
  const checks = [
    ['cargo', ['clippy', '--manifest-path', 'wasm-engine/Cargo.toml', '--all-targets', '--', '-D', 'warnings']],
    ['cargo', ['clippy', '--manifest-path', 'wasm-engine/Cargo.toml', '--lib', '--target', 'wasm32-unknown-unknown', '--', '-D', 'warnings']],
    ['cargo', ['fmt', '--manifest-path', 'wasm-engine/Cargo.toml', '--check']],
    ['npx', ['tsc', '-p', 'models/tsconfig.json', '--noEmit']],
    ['npx', ['tsc', '-p', 'web/tsconfig.json', '--noEmit']],
    ['npx', ['tsc', '-p', 'e2e/tsconfig.json', '--noEmit']],
    // One-way layers and no import cycles (ARCHITECTURE.md); then proof that the rules catch a
    // deliberately added cycle or layer violation. The Rust side is wasm-engine/tests/module_cycles.rs.
    ['npx', ['depcruise', 'web/src', 'models/src', '--config', '.dependency-cruiser.cjs']],
    [process.execPath, ['--test', '--test-reporter=spec', 'scripts/dependency-rules.test.mjs']],
  ];
  let passed = 0;
  let failed = 0;
  for (const [cmd, args] of checks) {
    if (exec(cmd, args, { stdio: 'inherit' }).status === 0) passed += 1;
    else failed += 1;
  }
  return { passed, failed };
}

function vitest(workspace) {
  const out = path.join(resultsDir, `vitest-${workspace}.json`);
  fs.rmSync(out, { force: true });
  const r = exec(
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile=${out}`],
    { cwd: path.join(root, workspace), stdio: 'inherit' },
  );
  const json = readJson(out);
  if (!json) return { passed: 0, failed: 1 };
  const brokenFiles = (json.testResults ?? []).filter(
    (f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0,
  ).length;
  const failed = json.numFailedTests + brokenFiles;
  return { passed: json.numPassedTests, failed: failed === 0 && r.status !== 0 ? 1 : failed };
}

function e2e() {
  const out = path.join(resultsDir, 'playwright.json');
  fs.rmSync(out, { force: true });
  const build = exec('npm', ['run', 'build', '-w', 'web'], { stdio: 'inherit' });
  if (build.status !== 0) return { passed: 0, failed: 1 };
  const r = exec('npx', ['playwright', 'test', '--reporter=list,json'], {
    stdio: 'inherit',
    env: { ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: out, E2E_PORT: String(freePort()) },
  });
  const json = readJson(out);
  if (!json) return { passed: 0, failed: 1 };
  const s = json.stats ?? {};
  const failed = (s.unexpected ?? 0) + (json.errors?.length ?? 0);
  return { passed: (s.expected ?? 0) + (s.flaky ?? 0), failed: failed === 0 && r.status !== 0 ? 1 : failed };
}

/** Node's test runner over `files` (with `flags` before them), counted from its spec reporter's summary. */
function nodeTests(files, flags = []) {
  const r = exec(process.execPath, [...flags, '--test', '--test-reporter=spec', ...files], { maxBuffer: 16 << 20 });
  const count = (word) => Number(new RegExp(`^ℹ ${word} (\\d+)$`, 'm').exec(r.stdout)?.[1] ?? 0);
  const passed = count('pass');
  const failed = count('fail');
  return { passed, failed: failed === 0 && (r.status !== 0 || passed === 0) ? 1 : failed };
}

/** The exports against a real RocksDB: Node's test runner over interop/rocksdb. */
const rocksdb = () => nodeTests(['interop/rocksdb/']);

/** Write amplification against a real LevelDB: Node's test runner (with tsx, for the TypeScript models) over interop/leveldb. */
const leveldb = () => nodeTests(['interop/leveldb/leveldb.test.ts'], ['--import', 'tsx']);

/** Seconds each fuzz target runs in `npm test`: a smoke run; `npm run fuzz` runs long. */
const FUZZ_SECONDS = 15;

/** The engine's parsers and importers under coverage-guided fuzzing, briefly; each target is a test. */
function fuzzing() {
  try {
    ensureFuzzTools();
    buildFuzzTargets();
  } catch (err) {
    console.error(`[fuzz] ${err instanceof Error ? err.message : String(err)}`);
    return { passed: 0, failed: 1 };
  }
  let passed = 0;
  let failed = 0;
  for (const target of FUZZ_TARGETS) {
    const r = fuzz(target, FUZZ_SECONDS);
    console.log(`[fuzz] ${target}: ${r.runs.toLocaleString('en-US')} cases in ${FUZZ_SECONDS} s, ${r.crashed ? `CRASH (input: ${r.artifact ?? 'see below'})` : '0 crashes'}`);
    if (r.crashed || r.runs === 0) {
      failed += 1;
      console.log(r.output.split('\n').slice(-60).join('\n'));
    } else {
      passed += 1;
    }
  }
  return { passed, failed };
}

/** What a suite needs from Debian beyond Node and rustup, and the line that installs it. */
const SYSTEM_NEEDS = {
  e2e: { present: () => fs.existsSync(CHROMIUM), what: `Chromium at ${CHROMIUM}`, install: 'sudo apt-get install -y chromium' },
  rocksdb: {
    present: () => ['/usr/bin/db_bench', '/usr/include/rocksdb/db.h', '/usr/bin/g++'].every((f) => fs.existsSync(f)),
    what: "RocksDB's db_bench, its C++ headers and library, and g++",
    install: 'sudo apt-get install -y rocksdb-tools librocksdb-dev g++',
  },
  leveldb: {
    present: () => ['/usr/include/leveldb/db.h', '/usr/bin/g++'].every((f) => fs.existsSync(f)),
    what: "LevelDB's C++ headers and library, and g++",
    install: 'sudo apt-get install -y libleveldb-dev g++',
  },
};

/** The native `lsm` CLI, which the parity and export tests compare the browser against. */
function buildNativeCli() {
  return exec('cargo', ['build', '--release', '--bin', 'lsm', '--manifest-path', 'wasm-engine/Cargo.toml'], {
    stdio: 'inherit',
  }).status === 0;
}

const SUITES = { rust, lint, models: () => vitest('models'), web: () => vitest('web'), e2e, rocksdb, leveldb, fuzz: fuzzing };

function main() {
  const wanted = process.argv.slice(2);
  for (const w of wanted) {
    if (!(w in SUITES)) {
      console.error(`unknown suite "${w}"; choose from ${Object.keys(SUITES).join(', ')}`);
      process.exit(2);
    }
  }
  const names = wanted.length ? wanted : Object.keys(SUITES);
  for (const name of names) {
    const need = SYSTEM_NEEDS[name];
    if (need && !need.present()) {
      console.error(`The ${name} suite needs ${need.what}. Install it with:\n  ${need.install}`);
      process.exit(1);
    }
  }
  const started = Date.now();
  const timings = [];
  const timed = (fn) => {
    const t0 = Date.now();
    const r = fn();
    return [r, (Date.now() - t0) / 1000];
  };
  try {
    timings.push(['setup', timed(setup)[1]]);
  } catch (err) {
    console.error(`[setup] ${err instanceof Error ? err.message : String(err)}`);
    console.log('\n0 passed, 1 failed');
    process.exit(1);
  }
  fs.mkdirSync(resultsDir, { recursive: true });
  const rows = [];
  if (['web', 'e2e', 'rocksdb', 'leveldb'].some((n) => names.includes(n))) {
    const [ok, seconds] = timed(buildNativeCli);
    timings.push(['native', seconds]);
    if (!ok) rows.push(['native', { passed: 0, failed: 1 }, seconds]);
  }
  for (const name of names) {
    console.log(`\n===== ${name} =====`);
    const [r, seconds] = timed(SUITES[name]);
    rows.push([name, r, seconds]);
  }
  console.log('\n===== summary =====');
  const secs = (s) => `${Math.round(s).toString().padStart(5)} s`;
  for (const [name, seconds] of timings) {
    if (!rows.some(([n]) => n === name)) console.log(`${name.padEnd(8)} ${''.padEnd(26)}${secs(seconds)}`);
  }
  for (const [name, r, seconds] of rows) {
    console.log(`${name.padEnd(8)} ${`${r.passed} passed, ${r.failed} failed`.padEnd(26)}${secs(seconds)}`);
  }
  console.log(`${'total'.padEnd(8)} ${''.padEnd(26)}${secs((Date.now() - started) / 1000)}`);
  const passed = rows.reduce((n, [, r]) => n + r.passed, 0);
  const failed = rows.reduce((n, [, r]) => n + r.failed, 0);
  console.log(`\n${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

main();

#!/usr/bin/env node
/**
 * `npm test`: install what the suites need from Debian if it is missing, set up, then run every
 * suite — Rust (cargo test built through clippy-driver, so the lints come with the test build; rustfmt), TypeScript type checks and ESLint, Vitest for models and web,
 * Playwright end-to-end in Debian's Chromium, the interop suites against a real RocksDB and
 * LevelDB, and a fuzzing smoke run — and end with one line `N passed, N failed` over all of them.
 * The summary above it gives each suite's count and wall time (and setup's and the native build's).
 * Every suite runs even if an earlier one failed; the exit code is non-zero if anything failed.
 *
 * The `rocksdb` suite checks the exports against a real RocksDB (Debian's db_bench and librocksdb).
 * The `leveldb` suite holds the engine's and the MSLS model's write amplification against a real
 * LevelDB (Debian's libleveldb), on the same writes. The `fuzz` suite runs each cargo-fuzz target
 * of the engine's parsers for a few seconds.
 *
 * Run some suites alone: `node scripts/test.mjs <suite>...` with suites from SUITES below, or
 * `quick`: the Rust unit tests, the TypeScript and dependency checks, models and web — no browser,
 * no RocksDB or LevelDB, no wasm clippy, no fuzzing.
 *
 * Two suites run at a time (LANES below); the second lane's output goes to
 * .cache/results/<suite>.log and is printed at the end. LSM_TEST_SERIAL=1 runs them in turn.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildFuzzTargets, ensureFuzzTools, fuzz, TARGETS as FUZZ_TARGETS } from './fuzz.mjs';
import { cargoPackageArgs, env, freePort, root, setup } from './setup.mjs';
import { ensureSystemPackages } from './system.mjs';

export { CHROMIUM } from './system.mjs';
const resultsDir = path.join(root, '.cache', 'results');
const CORES = os.availableParallelism();
const MANIFEST = ['--manifest-path', 'wasm-engine/Cargo.toml'];

/**
 * Run a command. `out` is where its output goes: 'inherit' (this terminal), a file descriptor (a
 * suite running beside another) or an array collecting the chunks (a check printed when done).
 * With `capture`, stdout is also returned.
 */
function exec(cmd, args, { out = 'inherit', capture = false, captureStderr = false, cwd = root, env: childEnv = env } = {}) {
  const write = (chunk) => {
    if (out === 'inherit') process.stdout.write(chunk);
    else if (Array.isArray(out)) out.push(Buffer.from(chunk));
    else fs.writeSync(out, chunk);
  };
  write(`\n$ ${cmd} ${args.join(' ')}\n`);
  return new Promise((resolve) => {
    const piped = capture || captureStderr || Array.isArray(out);
    const stdio = piped ? ['ignore', 'pipe', captureStderr || Array.isArray(out) ? 'pipe' : out === 'inherit' ? 'inherit' : out] : ['ignore', out, out];
    const child = spawn(cmd, args, { cwd, env: childEnv, stdio });
    const chunks = [];
    const errChunks = [];
    child.stdout?.on('data', (chunk) => {
      if (capture) chunks.push(chunk);
      write(chunk);
    });
    child.stderr?.on('data', (chunk) => {
      if (captureStderr) errChunks.push(chunk);
      write(chunk);
    });
    child.on('error', (err) => {
      write(`${cmd} could not be started: ${err.message}\n`);
      resolve({ status: 1, stdout: '', stderr: '' });
    });
    child.on('close', (code) =>
      resolve({ status: code ?? 1, stdout: Buffer.concat(chunks).toString('utf8'), stderr: Buffer.concat(errChunks).toString('utf8') }),
    );
  });
}

/** Print what a suite running with `ctx` has to say. */
function say(ctx, line) {
  if (ctx.out === undefined || ctx.out === 'inherit') console.log(line);
  else if (Array.isArray(ctx.out)) ctx.out.push(Buffer.from(`${line}\n`));
  else fs.writeSync(ctx.out, `${line}\n`);
}

/** Run `jobs` (async functions), `atOnce` at a time; results in order. */
async function pool(jobs, atOnce) {
  const results = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, jobs.length) }, worker));
  return results;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** libtest's `test result:` lines, summed; a build or crash without them counts as one failure. */
function cargoTestCounts(r) {
  let passed = 0;
  let failed = 0;
  for (const m of r.stdout.matchAll(/test result: \w+\. (\d+) passed; (\d+) failed/g)) {
    passed += Number(m[1]);
    failed += Number(m[2]);
  }
  if (r.status !== 0 && failed === 0) failed = 1; // did not compile, or a test binary crashed
  return { passed, failed };
}

/**
 * The test build is also the clippy run: cargo compiles the workspace's own crates with
 * clippy-driver (rustc plus clippy's lints, as `cargo clippy` does, but with code generation), so
 * the lints cost no second compilation of the workspace in check mode. Dependencies are compiled
 * by rustc as always. Every build that shares wasm-engine/target's debug artifacts sets the same
 * wrapper, or cargo would rebuild the workspace's crates for the change.
 */
const clippyDriver = (() => {
  const r = spawnSync('rustc', ['--print', 'sysroot'], { env, encoding: 'utf8' });
  return r.status === 0 ? path.join(r.stdout.trim(), 'bin', 'clippy-driver') : null;
})();
// `--cap-lints=warn`: the workspace denies clippy::all, and a denied lint would stop the build
// before any test ran; as warnings they are all reported, the tests run, and clippyCounts fails the
// check on the first one (CLIPPY_ARGS is how cargo-clippy hands clippy-driver its arguments).
const clippyEnv =
  clippyDriver && fs.existsSync(clippyDriver) ? { ...env, RUSTC_WORKSPACE_WRAPPER: clippyDriver, CLIPPY_ARGS: '--cap-lints=warn' } : env;

/**
 * What the shared build said: a warning from rustc or clippy fails the check, as
 * `cargo clippy -- -D warnings` would (cargo replays a fresh crate's warnings, so a warm build
 * says them again). Counted as one test, beside the tests.
 */
function clippyCounts(r, ctx) {
  const warned = [...r.stderr.matchAll(/^warning: `([^`]+)` \(([^)]+)\) generated \d+ warnings?/gm)].map((m) => `${m[1]} (${m[2]})`);
  // A crate that did not compile says so; cargo's own "error: test failed" lines are the tests', not the lints'.
  const clean = clippyEnv !== env && warned.length === 0 && !/^error: could not compile/m.test(r.stderr);
  if (clippyEnv === env) say(ctx, '[rust] clippy-driver was not found next to rustc: the lints did not run');
  else if (!clean) say(ctx, `[rust] clippy: warnings in ${warned.join(', ') || 'the build (see above)'}`);
  return clean;
}

/**
 * Every Rust test of the workspace: unit, integration and doc tests, and every target (benches in
 * test mode) built through clippy; the lints count as one test.
 */
async function rust(ctx) {
  const build = await exec('cargo', ['test', '--workspace', '--all-targets', '--no-fail-fast', ...MANIFEST, '--', '--color', 'never'], {
    ...ctx,
    capture: true,
    captureStderr: true,
    env: clippyEnv,
  });
  const doc = await exec('cargo', ['test', '--workspace', '--doc', ...MANIFEST, '--', '--color', 'never'], { ...ctx, capture: true, env: clippyEnv });
  const tests = [cargoTestCounts(build), cargoTestCounts(doc)];
  const lints = clippyCounts(build, ctx);
  return { passed: tests[0].passed + tests[1].passed + (lints ? 1 : 0), failed: tests[0].failed + tests[1].failed + (lints ? 0 : 1) };
}

/** The Rust unit tests alone (the `quick` tier): each crate's own `#[cfg(test)]` modules, built as `rust` builds them. */
async function rustUnit(ctx) {
  return cargoTestCounts(await exec('cargo', ['test', '--workspace', '--lib', '--no-fail-fast', ...MANIFEST, '--', '--color', 'never'], { ...ctx, capture: true, env: clippyEnv }));
}

/** Lints and the dependency checks count as one test each: clean or not. */
const RUST_LINTS = [
  // Clippy on the native targets runs inside the `rust` suite's build (clippyEnv). For wasm,
  // in the release profile, as setup builds the wasm: the proc macros it compiled for that build
  // (wasm-bindgen's, serde's) are reused, instead of compiled again for this check (~4 min on a fresh clone).
  ['cargo', ['clippy', '--release', ...cargoPackageArgs('wasm'), ...MANIFEST, '--lib', '--target', 'wasm32-unknown-unknown', '--', '-D', 'warnings']],
  ['cargo', ['fmt', '--all', ...MANIFEST, '--check']],
];
const TS_LINTS = [
  ['npx', ['tsc', '-p', 'web/tsconfig.json', '--noEmit']],
  ['npx', ['tsc', '-p', 'models/tsconfig.json', '--noEmit']],
  ['npx', ['tsc', '-p', 'e2e/tsconfig.json', '--noEmit']],
  // One-way layers and no import cycles (ARCHITECTURE.md); then proof that the rules catch a
  // deliberately added cycle or layer violation. The Rust side is a test in wasm-engine.
  ['npx', ['depcruise', 'web/src', 'models/src', '--config', '.dependency-cruiser.cjs']],
  // typescript-eslint's recommended rules and React's rules of hooks (eslint.config.mjs), no warning allowed.
  ['npx', ['eslint', 'web/src', 'web/test', 'models/src', 'models/test', 'e2e', 'scripts', 'eslint.config.mjs', '--max-warnings', '0']],
  [process.execPath, ['--test', '--test-reporter=spec', 'scripts/dependency-rules.test.mjs', 'scripts/system.test.mjs', 'scripts/host-steal.test.mjs']],
];

/**
 * Each check is one test, clean or not. They run CORES at a time (tsc and dependency-cruiser use
 * one core each; cargo waits for its own lock), each one's output printed whole when it ends.
 */
async function checks(list, ctx) {
  const results = await pool(
    list.map(([cmd, args]) => async () => {
      const out = [];
      const r = await exec(cmd, args, { ...ctx, out });
      for (const chunk of out) {
        if (ctx.out === undefined || ctx.out === 'inherit') process.stdout.write(chunk);
        else if (Array.isArray(ctx.out)) ctx.out.push(chunk);
        else fs.writeSync(ctx.out, chunk);
      }
      return r.status === 0;
    }),
    CORES,
  );
  return { passed: results.filter(Boolean).length, failed: results.filter((ok) => !ok).length };
}

/** Rust's and TypeScript's checks alternate, so a cargo command (which waits for cargo's lock) runs beside a tsc. */
const lint = (ctx) => checks(RUST_LINTS.flatMap((r, i) => [r, TS_LINTS[i]]).concat(TS_LINTS.slice(RUST_LINTS.length)).filter(Boolean), ctx);
const lintTs = (ctx) => checks(TS_LINTS, ctx);

async function vitest(workspace, ctx) {
  const out = path.join(resultsDir, `vitest-${workspace}.json`);
  fs.rmSync(out, { force: true });
  // Vitest's default is one worker fewer than the cores: one, on a 2-core machine.
  const r = await exec('npx', ['vitest', 'run', `--maxWorkers=${CORES}`, '--reporter=default', '--reporter=json', `--outputFile=${out}`], {
    ...ctx,
    cwd: path.join(root, workspace),
  });
  const json = readJson(out);
  if (!json) return { passed: 0, failed: 1 };
  const brokenFiles = (json.testResults ?? []).filter(
    (f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0,
  ).length;
  const failed = json.numFailedTests + brokenFiles;
  return { passed: json.numPassedTests, failed: failed === 0 && r.status !== 0 ? 1 : failed };
}

async function e2e(ctx) {
  const out = path.join(resultsDir, 'playwright.json');
  fs.rmSync(out, { force: true });
  const build = await exec('npm', ['run', 'build', '-w', 'web'], ctx);
  if (build.status !== 0) return { passed: 0, failed: 1 };
  const r = await exec('npx', ['playwright', 'test', '--reporter=list,json'], {
    ...ctx,
    env: { ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: out, E2E_PORT: String(freePort()) },
  });
  const json = readJson(out);
  if (!json) return { passed: 0, failed: 1 };
  const s = json.stats ?? {};
  const failed = (s.unexpected ?? 0) + (json.errors?.length ?? 0);
  // A test that failed once and passed on its retry (CI only) counts as passed, by name here.
  const flaky = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      if ((spec.tests ?? []).some((t) => t.status === 'flaky')) flaky.push(`${spec.file}:${spec.line} ${spec.title}`);
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of json.suites ?? []) walk(suite);
  for (const name of flaky) console.log(`e2e: FLAKY (passed on its retry): ${name}`);
  return { passed: (s.expected ?? 0) + (s.flaky ?? 0), failed: failed === 0 && r.status !== 0 ? 1 : failed };
}

/** Node's test runner over `files` (with `flags` before them), counted from its spec reporter's summary. */
async function nodeTests(files, flags, ctx) {
  const r = await exec(process.execPath, [...flags, '--test', '--test-reporter=spec', ...files], { ...ctx, capture: true });
  const count = (word) => Number(new RegExp(`^ℹ ${word} (\\d+)$`, 'm').exec(r.stdout)?.[1] ?? 0);
  const passed = count('pass');
  const failed = count('fail');
  return { passed, failed: failed === 0 && (r.status !== 0 || passed === 0) ? 1 : failed };
}

/** The exports against a real RocksDB: Node's test runner over interop/rocksdb. */
const rocksdb = (ctx) => nodeTests(['interop/rocksdb/'], [], ctx);

/** Write amplification against a real LevelDB: Node's test runner (with tsx, for the TypeScript models) over interop/leveldb. */
const leveldb = (ctx) => nodeTests(['interop/leveldb/leveldb.test.ts'], ['--import', 'tsx'], ctx);

/**
 * Seconds each fuzz target runs in `npm test`, and how many run at once (libFuzzer takes one core
 * each): a smoke run from the kept corpus, which catches a parser that crashes on what earlier runs
 * found; `npm run fuzz` runs long.
 */
const FUZZ_SECONDS = 5;
const FUZZ_AT_ONCE = 2;

/** The engine's parsers and importers under coverage-guided fuzzing, briefly; each target is a test. */
async function fuzzing(ctx) {
  try {
    const out = ctx.out ?? 'inherit';
    await ensureFuzzTools({ out });
    await buildFuzzTargets({ out, cli: false }); // the CLI was built before the suites
  } catch (err) {
    say(ctx, `[fuzz] ${err instanceof Error ? err.message : String(err)}`);
    return { passed: 0, failed: 1 };
  }
  const ok = await pool(
    FUZZ_TARGETS.map((target) => async () => {
      const r = await fuzz(target, FUZZ_SECONDS);
      say(ctx, `[fuzz] ${target}: ${r.runs.toLocaleString('en-US')} cases in ${FUZZ_SECONDS} s, ${r.crashed ? `CRASH (input: ${r.artifact ?? 'see below'})` : '0 crashes'}`);
      if (r.crashed || r.runs === 0) say(ctx, r.output.split('\n').slice(-60).join('\n'));
      return !r.crashed && r.runs > 0;
    }),
    FUZZ_AT_ONCE,
  );
  return { passed: ok.filter(Boolean).length, failed: ok.filter((x) => !x).length };
}

/** The native `lsm` CLI, which the parity, export and interop tests compare against. */
async function buildNativeCli(ctx) {
  // The same command as fuzz.mjs's and package.json's, so that all build the same binary once.
  return (await exec('cargo', ['build', '--release', '--bin', 'lsm', ...MANIFEST], ctx)).status === 0;
}

const SUITES = {
  rust,
  lint,
  models: (ctx) => vitest('models', ctx),
  web: (ctx) => vitest('web', ctx),
  e2e,
  rocksdb,
  leveldb,
  fuzz: fuzzing,
  'rust-unit': rustUnit,
  'lint-ts': lintTs,
};
/** What `npm test` runs with no suite named. */
const ALL = ['rust', 'lint', 'models', 'web', 'e2e', 'rocksdb', 'leveldb', 'fuzz'];
const TIERS = { quick: ['rust-unit', 'lint-ts', 'models', 'web'] };
/** Suites that run the native `lsm` CLI (built once, before them). */
const NEEDS_CLI = ['web', 'e2e', 'rocksdb', 'leveldb', 'fuzz'];

/**
 * Two suites run at a time, on two lanes that take the next suite from one queue, longest first
 * (wall times of a warm run on the project's 2-core machine: e2e ~430 s, leveldb ~140, rust ~80
 * plus its build, web ~90, lint ~30, rocksdb ~25, fuzz ~20 plus its build, models ~10). The
 * end-to-end tests keep about one core busy (Chromium and the engine's worker: 415 s of CPU in
 * 600 s), so the other suites take turns beside them. The first lane's output shows as it comes;
 * the second lane's goes to .cache/results/<suite>.log and is printed at the end.
 * LSM_TEST_SERIAL=1 runs one suite at a time, in the order given.
 */
const LONGEST_FIRST = ['e2e', 'leveldb', 'web', 'rust', 'lint', 'lint-ts', 'rocksdb', 'fuzz', 'models', 'rust-unit'];
const LANES = 2;
/**
 * Suites that build in wasm-engine/target: cargo holds that directory's lock while it builds and
 * while the tests run, so two of them side by side would only wait for each other. A lane takes
 * the next suite that does not need it while another holds it.
 */
const CARGO_TARGET = ['rust', 'rust-unit', 'lint'];

function suitesFromArgs(args) {
  const names = [];
  for (const a of args) {
    const expanded = TIERS[a] ?? (a in SUITES ? [a] : null);
    if (!expanded) {
      console.error(`unknown suite "${a}"; choose from ${[...Object.keys(SUITES), ...Object.keys(TIERS)].join(', ')}`);
      process.exit(2);
    }
    for (const n of expanded) if (!names.includes(n)) names.push(n);
  }
  return names.length ? names : ALL;
}

const secs = (s) => `${Math.round(s).toString().padStart(5)} s`;

async function timed(fn) {
  const t0 = Date.now();
  const r = await fn();
  return [r, (Date.now() - t0) / 1000];
}

/** Run `name` with its output in .cache/results/<name>.log; resolves to its result and seconds. */
async function logged(name) {
  const logFile = path.join(resultsDir, `${name}.log`);
  const fd = fs.openSync(logFile, 'w');
  console.log(`\n[${name}] running beside the other suites; its output goes to ${path.relative(root, logFile)}`);
  const [r, seconds] = await timed(() => SUITES[name]({ out: fd }));
  fs.closeSync(fd);
  console.log(`\n[${name}] done in ${Math.round(seconds)} s: ${r.passed} passed, ${r.failed} failed`);
  return [r, seconds];
}

async function main() {
  const started = Date.now();
  const names = suitesFromArgs(process.argv.slice(2));
  const fail = (why) => {
    console.error(why);
    console.log('\n0 passed, 1 failed');
    process.exit(1);
  };
  const timings = [];

  const [present, systemSeconds] = await timed(() => ensureSystemPackages(names));
  if (systemSeconds >= 1) timings.push(['system', systemSeconds]);
  if (!present) fail('[system] the packages above are missing; nothing was run');
  try {
    timings.push(['setup', (await timed(async () => setup()))[1]]);
  } catch (err) {
    fail(`[setup] ${err instanceof Error ? err.message : String(err)}`);
  }
  fs.mkdirSync(resultsDir, { recursive: true });
  const rows = [];
  if (NEEDS_CLI.some((n) => names.includes(n))) {
    const [ok, seconds] = await timed(() => buildNativeCli({}));
    timings.push(['native', seconds]);
    if (!ok) rows.push(['native', { passed: 0, failed: 1 }, seconds]);
  }

  const serial = Boolean(process.env.LSM_TEST_SERIAL) || names.length === 1;
  const rank = (n) => (LONGEST_FIRST.includes(n) ? LONGEST_FIRST.indexOf(n) : LONGEST_FIRST.length);
  const queue = serial ? [...names] : [...names].sort((a, b) => rank(a) - rank(b));
  const results = new Map();
  const loggedNames = [];
  const running = new Set();
  const next = () => {
    const cargoBusy = [...running].some((n) => CARGO_TARGET.includes(n));
    const i = queue.findIndex((n) => !(cargoBusy && CARGO_TARGET.includes(n)));
    return queue.splice(Math.max(i, 0), 1)[0];
  };
  const lane = async (live) => {
    for (let name = next(); name; name = next()) {
      running.add(name);
      if (live) console.log(`\n===== ${name} =====`);
      else loggedNames.push(name);
      results.set(name, await (live ? timed(() => SUITES[name]({})) : logged(name)));
      running.delete(name);
    }
  };
  // The logged lane starts first, so it takes the longest suite.
  await Promise.all(serial ? [lane(true)] : [lane(false), ...Array.from({ length: LANES - 1 }, () => lane(true))]);
  for (const name of loggedNames) {
    console.log(`\n===== ${name} (ran beside the others; .cache/results/${name}.log) =====`);
    process.stdout.write(fs.readFileSync(path.join(resultsDir, `${name}.log`), 'utf8'));
  }
  for (const name of names) rows.push([name, ...results.get(name)]);

  console.log('\n===== summary =====');
  for (const [name, seconds] of timings) {
    if (!rows.some(([n]) => n === name)) console.log(`${name.padEnd(9)} ${''.padEnd(26)}${secs(seconds)}`);
  }
  for (const [name, r, seconds] of rows) {
    console.log(`${name.padEnd(9)} ${`${r.passed} passed, ${r.failed} failed`.padEnd(26)}${secs(seconds)}`);
  }
  console.log(`${'total'.padEnd(9)} ${''.padEnd(26)}${secs((Date.now() - started) / 1000)}`);
  const passed = rows.reduce((n, [, r]) => n + r.passed, 0);
  const failed = rows.reduce((n, [, r]) => n + r.failed, 0);
  console.log(`\n${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

main();

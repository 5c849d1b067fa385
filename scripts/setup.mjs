#!/usr/bin/env node
/**
 * Puts a fresh clone in working order, skipping every step whose inputs did not change:
 * npm dependencies, the wasm32 Rust target, wasm-bindgen-cli at exactly the version in
 * Cargo.lock, and the engine built to WebAssembly for the web app.
 *
 * Used by `npm start`, `npm test` and `npm run bench`. Only Node built-ins here: this runs
 * before node_modules exists.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const engineDir = path.join(root, 'wasm-engine');
const stampDir = path.join(root, '.cache', 'setup');
const wasmOut = path.join(root, 'web', 'src', 'wasm', 'pkg');
const cargoBin = path.join(process.env.CARGO_HOME ?? path.join(os.homedir(), '.cargo'), 'bin');

// ── Crate names: the only place the scripts name a crate of wasm-engine/ (a Cargo virtual
// workspace, crates under wasm-engine/crates/). Adjust here if a crate is renamed.
// The native CLI needs none: `--bin lsm` finds it in whichever crate holds it.
const CRATES = {
  /** The wasm-bindgen cdylib the web app loads: built for wasm32 here, linted for wasm32 by `npm test`. */
  wasm: 'lsm-wasm',
};

/** wasm-engine/Cargo.toml is a virtual workspace (no [package] of its own). */
const isWorkspace = () => !/^\[package\]/m.test(fs.readFileSync(path.join(engineDir, 'Cargo.toml'), 'utf8'));

/**
 * `-p <crate>` for one of CRATES in the workspace; nothing while wasm-engine/ is still one package
 * (which then holds everything).
 */
export function cargoPackageArgs(which) {
  return isWorkspace() ? ['-p', CRATES[which]] : [];
}

/** Child processes find cargo, rustup and wasm-bindgen even if ~/.cargo/bin is not on PATH. */
export const env = { ...process.env, PATH: `${cargoBin}${path.delimiter}${process.env.PATH ?? ''}` };

function log(message) {
  console.log(`[setup] ${message}`);
}

export function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, env, ...options });
  if (r.error) throw new Error(`${cmd} could not be started: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed with exit code ${r.status}`);
  return r;
}

function output(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, env, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

function hashOf(files, extra = '') {
  const h = createHash('sha256').update(extra);
  for (const f of [...files].sort()) {
    h.update(path.relative(root, f));
    h.update(fs.existsSync(f) ? fs.readFileSync(f) : Buffer.alloc(0));
  }
  return h.digest('hex');
}

function stamp(name) {
  const p = path.join(stampDir, name);
  return {
    current: fs.existsSync(p) ? fs.readFileSync(p, 'utf8') : null,
    write(value) {
      fs.mkdirSync(stampDir, { recursive: true });
      fs.writeFileSync(p, value);
    },
  };
}

function checkNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) {
    throw new Error(`Node ${process.versions.node} is too old: LSM Navigator needs Node 20.19 or newer`);
  }
}

function npmDependencies() {
  const manifests = ['package.json', 'package-lock.json', 'models/package.json', 'web/package.json'].map((f) =>
    path.join(root, f),
  );
  const key = hashOf(manifests);
  const s = stamp('npm');
  if (s.current === key && fs.existsSync(path.join(root, 'node_modules', '.package-lock.json'))) {
    log('npm dependencies are current');
    return;
  }
  const hasLock = fs.existsSync(path.join(root, 'package-lock.json'));
  log(hasLock ? 'installing npm dependencies (npm ci)' : 'installing npm dependencies (npm install)');
  run('npm', [hasLock ? 'ci' : 'install', '--no-audit', '--no-fund']);
  s.write(hashOf(manifests));
}

function rustToolchain() {
  if (!output('cargo', ['--version'])) {
    throw new Error('cargo was not found: install Rust with rustup (https://rustup.rs), then run this again');
  }
  const installed = output('rustup', ['target', 'list', '--installed']) ?? '';
  if (!installed.split('\n').includes('wasm32-unknown-unknown')) {
    log('adding the wasm32-unknown-unknown target');
    run('rustup', ['target', 'add', 'wasm32-unknown-unknown']);
  }
}

/** The wasm-bindgen version Cargo.lock pins; the CLI must match it exactly. */
export function lockedWasmBindgenVersion() {
  const lock = fs.readFileSync(path.join(engineDir, 'Cargo.lock'), 'utf8');
  const m = lock.match(/name = "wasm-bindgen"\nversion = "([^"]+)"/);
  if (!m) throw new Error('wasm-engine/Cargo.lock does not pin wasm-bindgen');
  return m[1];
}

function wasmBindgenCli() {
  const version = lockedWasmBindgenVersion();
  const have = output('wasm-bindgen', ['--version']);
  if (have === `wasm-bindgen ${version}`) {
    log(`wasm-bindgen ${version} is installed`);
    return;
  }
  log(`installing wasm-bindgen-cli ${version} (was: ${have ?? 'not installed'}); this compiles for a few minutes`);
  run('cargo', ['install', '--locked', '--version', version, 'wasm-bindgen-cli']);
}

/** Every file of wasm-engine/ a build reads: sources and manifests, not tests, fuzzing or target/. */
function engineInputs(dir = engineDir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (!e.isDirectory()) return [p];
    return ['target', 'fuzz', 'tests', 'benches', '.git'].includes(e.name) ? [] : engineInputs(p);
  });
}

function buildWasm() {
  const key = hashOf(engineInputs(), lockedWasmBindgenVersion());
  const s = stamp('wasm');
  const outputs = ['lsm_engine.js', 'lsm_engine_bg.wasm', 'lsm_engine.d.ts'].map((f) => path.join(wasmOut, f));
  if (s.current === key && outputs.every((f) => fs.existsSync(f))) {
    log('engine wasm build is current');
    return;
  }
  log('building the engine for wasm32 (release)');
  // Cargo names the .wasm it built in its JSON messages (the cdylib's file name follows its crate).
  const r = run(
    'cargo',
    ['build', '--release', ...cargoPackageArgs('wasm'), '--lib', '--target', 'wasm32-unknown-unknown', '--message-format=json-render-diagnostics'],
    { cwd: engineDir, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 64 << 20 },
  );
  const wasm = r.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line))
    .filter((m) => m.reason === 'compiler-artifact' && m.target?.kind?.includes('cdylib'))
    .flatMap((m) => m.filenames)
    .find((f) => f.endsWith('.wasm'));
  if (!wasm) throw new Error('cargo built no .wasm file for the web app');
  run('wasm-bindgen', ['--target', 'web', '--out-dir', wasmOut, '--out-name', 'lsm_engine', wasm]);
  s.write(key);
}

/** A free local port for a preview server (4173 unless something else holds it). */
export function freePort() {
  const script = `const net = require('node:net');
    (async () => { for (let p = 4173; p < 4300; p++) {
      const ok = await new Promise((r) => { const s = net.createServer().once('error', () => r(false))
        .once('listening', () => s.close(() => r(true))).listen(p, 'localhost'); });
      if (ok) { console.log(p); return; } } })();`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  return Number(r.stdout.trim()) || 4173;
}

export function setup() {
  checkNode();
  npmDependencies();
  rustToolchain();
  wasmBindgenCli();
  buildWasm();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    setup();
    log('ready');
  } catch (err) {
    console.error(`[setup] ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}

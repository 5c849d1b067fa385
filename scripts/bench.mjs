#!/usr/bin/env node
/**
 * `npm run bench`: measured figures and ratios, printed (never asserted — the machine is shared).
 *
 * 1. The engine natively and as wasm (in Node's V8), 1,000,000 inserts then 1,000,000 lookups
 *    (16 B keys, 100 B values, leveling T = 10, 10 bits/key, in memory), alternating runs so the
 *    wasm/native ratio is taken pair by pair.
 * 2. The models: holisticDesign, a 200-point curve, Mnemosyne's solver against gradient descent,
 *    Endure's robust tuning (the Tune page's recommendation).
 * 3. The tuner (`lsm tune`): YCSB A–F at 10M records from RocksDB's defaults, nominal and robust.
 * 4. In Chromium: the engine on OPFS and on IndexedDB against a plain `idb` key-value store.
 *
 * Options: --rounds N (default 3), --browser-entries 100000|200000|1000000 (default 1000000), --skip-engine, --skip-browser,
 * --skip-models, --skip-tune, --incognito (the browser part in a fresh in-memory context instead of an on-disk profile).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { env, freePort, root, setup } from './setup.mjs';

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};

function run(cmd, cmdArgs, options = {}) {
  const r = spawnSync(cmd, cmdArgs, { cwd: root, env, encoding: 'utf8', maxBuffer: 64 << 20, ...options });
  if (r.status !== 0) throw new Error(`${cmd} ${cmdArgs.join(' ')} failed:\n${r.stderr}`);
  return r.stdout;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n) => Math.round(n).toLocaleString('en-US');

function engineBench(rounds) {
  console.log('\n== engine: native vs wasm (1,000,000 inserts, then 1,000,000 lookups, half missing; in memory) ==');
  run('cargo', ['build', '--release', '--bin', 'lsm', '--manifest-path', 'wasm-engine/Cargo.toml'], { stdio: 'inherit' });
  const cli = path.join(root, 'wasm-engine/target/release/lsm');
  const native = [];
  const wasm = [];
  for (let i = 0; i < rounds; i++) {
    native.push(JSON.parse(run(cli, ['bench'])));
    wasm.push(JSON.parse(run('node', ['scripts/bench-wasm.mjs'])));
    const n = native.at(-1);
    const w = wasm.at(-1);
    console.log(
      `round ${i + 1}: native ${fmt(n.load_ops_per_sec)} inserts/s, ${fmt(n.run_ops_per_sec)} lookups/s | ` +
        `wasm ${fmt(w.load_ops_per_sec)} inserts/s, ${fmt(w.run_ops_per_sec)} lookups/s`,
    );
    if (n.run_page_ios !== w.run_page_ios || n.found !== w.found) {
      console.log(`  ! counters differ: native ${n.run_page_ios} page I/Os, wasm ${w.run_page_ios}`);
    }
  }
  const ratio = (phase) => median(native.map((n, i) => wasm[i][phase] / n[phase]));
  console.log('\nmedians over', rounds, 'alternating rounds:');
  console.log(`  native: ${fmt(median(native.map((n) => n.load_ops_per_sec)))} inserts/s, ${fmt(median(native.map((n) => n.run_ops_per_sec)))} lookups/s`);
  console.log(`  wasm:   ${fmt(median(wasm.map((w) => w.load_ops_per_sec)))} inserts/s, ${fmt(median(wasm.map((w) => w.run_ops_per_sec)))} lookups/s`);
  console.log(`  wasm/native (pairwise median): inserts ${ratio('load_ops_per_sec').toFixed(2)}, lookups ${ratio('run_ops_per_sec').toFixed(2)}   (aim ≥ 0.8)`);
  console.log(`  aim native ≥ 1,000,000 inserts/s and lookups/s on this 2-core machine`);
}

/**
 * The tuner (`lsm tune`, the same code the Tune page runs as wasm): from RocksDB's defaults, YCSB
 * A–F at 10,000,000 records (model only: no engine run), each design priced by replaying the
 * engine's merge policy on sizes, for both targets, nominal and robust. The native time is the
 * tuner's own (`tuned in … ms`); the wasm time is the same call in Node's V8; medians of rounds.
 */
function tuneBench(rounds) {
  console.log('\n== tune: RocksDB defaults, YCSB A–F at 10,000,000 records, 1,000,000 operations (target < 50 ms) ==');
  const lsm = path.join(root, 'wasm-engine/target/release/lsm');
  const preset = path.join(root, 'public/presets/rocksdb.json');
  const rows = [];
  for (const letter of 'abcdef') {
    for (const target of ['engine', 'rocksdb']) {
      for (const rho of [0, 0.5]) {
        const times = [];
        let result;
        for (let i = 0; i < rounds; i++) {
          const r = spawnSync(lsm, ['tune', '--config', preset, '--workload', `ycsb:${letter}`, '--records', '10000000', '--operations', '1000000', '--robust', String(rho), '--target', target], { encoding: 'utf8', maxBuffer: 64 << 20 });
          if (r.status !== 0) throw new Error(`lsm tune failed:\n${r.stderr}`);
          times.push(Number(/tuned in ([0-9.]+) ms/.exec(r.stderr)[1]));
          result = JSON.parse(r.stdout);
        }
        rows.push({ letter, target, rho, native: median(times), result });
      }
    }
  }
  const jobs = path.join(os.tmpdir(), `tune-bench-${process.pid}.json`);
  fs.writeFileSync(jobs, JSON.stringify(rows.map(({ result, rho, target }) => ({ workload: result.workload, rho, target }))));
  const wasm = JSON.parse(run('node', ['scripts/bench-tune-wasm.mjs', preset, jobs, String(rounds)]));
  fs.rmSync(jobs);
  console.log('  workload  target   ρ     native    wasm   designs  predicted gain  recommendation');
  rows.forEach(({ letter, target, rho, native, result }, i) => {
    const rec = result[result.recommended];
    console.log(
      `  YCSB ${letter.toUpperCase()}    ${target.padEnd(8)} ${String(rho).padEnd(4)} ${native.toFixed(1).padStart(6)} ms ${wasm[i].toFixed(1).padStart(6)} ms ${String(result.candidates).padStart(6)}   ${(100 * result.predicted_gain).toFixed(1).padStart(6)}%        ${rec.summary}`,
    );
  });
  const worst = (xs) => Math.max(...xs).toFixed(1);
  console.log(`  slowest: native ${worst(rows.map((r) => r.native))} ms, wasm ${worst(wasm)} ms (target < 50 ms)`);
}

function modelsBench() {
  console.log('\n== models ==');
  process.stdout.write(run('npm', ['run', 'bench', '-w', 'models', '--silent']));
}

async function browserBench(entries) {
  const incognito = flag('--incognito');
  const where = incognito ? 'a fresh in-memory context' : 'an on-disk profile, as a person\'s browser';
  console.log(`\n== browser (Debian Chromium, ${where}): ${fmt(entries)} inserts and lookups per store ==`);
  run('npm', ['run', 'build', '-w', 'web'], { stdio: 'inherit' });
  const port = freePort();
  const server = spawn('npx', ['vite', 'preview', '--port', String(port), '--strictPort'], {
    cwd: path.join(root, 'web'),
    env,
    stdio: 'ignore',
    detached: true,
  });
  let profile = null;
  try {
    const { chromium } = await import('@playwright/test');
    const flags = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
    // A persistent profile on disk, as a person's browser has: a fresh (incognito-like) context
    // keeps OPFS and IndexedDB in memory behind IPC, which is neither what users get nor as fast.
    // (--incognito measures that context instead, for comparison.)
    const launch = { executablePath: '/usr/bin/chromium', args: flags };
    if (!incognito) profile = fs.mkdtempSync(path.join(os.tmpdir(), 'lsm-bench-profile-'));
    const browser = incognito
      ? await (await chromium.launch(launch)).newContext()
      : await chromium.launchPersistentContext(profile, launch);
    const page = browser.pages()[0] ?? (await browser.newPage());
    for (let i = 0; ; i++) {
      try {
        await page.goto(`http://localhost:${port}/#/bench?n=${entries}`);
        break;
      } catch (err) {
        if (i > 40) throw err;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    await page.getByRole('button', { name: 'Run benchmark' }).click();
    await page.getByTestId('bench-done').waitFor({ timeout: 60 * 60 * 1000 });
    const physical = await page.$$eval('[data-testid="bench-physical"]', (ps) => ps.map((p) => p.textContent));
    const rows = await page.$$eval('[data-testid^="bench-"] ', (trs) =>
      trs
        .filter((tr) => tr.tagName === 'TR')
        .map((tr) => {
          const cells = [...tr.querySelectorAll('td')];
          return { id: tr.getAttribute('data-testid'), label: cells[0].textContent, ins: Number(cells[1].dataset.value), get: Number(cells[2].dataset.value) };
        }),
    );
    await browser.close();
    await browser.browser()?.close();
    const plain = rows.find((r) => r.id === 'bench-plain-idb');
    for (const r of rows) {
      const vs = plain ? `  ${(r.ins / plain.ins).toFixed(1)}× plain IndexedDB puts` : '';
      console.log(`  ${r.label.padEnd(28)} ${fmt(r.ins).padStart(12)} inserts/s ${fmt(r.get).padStart(12)} lookups/s${vs}`);
    }
    const opfs = rows.find((r) => r.id === 'bench-engine-opfs');
    if (opfs && plain) console.log(`  engine on OPFS / plain IndexedDB puts: ${(opfs.ins / plain.ins).toFixed(1)}×   (aim ≥ 10×)`);
    for (const line of physical) console.log(`  ${line}`);
  } finally {
    if (profile) fs.rmSync(profile, { recursive: true, force: true });
    try {
      process.kill(-server.pid);
    } catch {
      /* already gone */
    }
  }
}

// The sizes the benchmark page offers (web/src/pages/bench/BenchPage.tsx); it runs 1,000,000 for any other.
const BROWSER_SIZES = [100_000, 200_000, 1_000_000];
const browserEntries = option('--browser-entries', 1_000_000);
if (!BROWSER_SIZES.includes(browserEntries)) {
  console.error(`--browser-entries must be one of ${BROWSER_SIZES.map(fmt).join(', ')}`);
  process.exit(2);
}

setup();
if (!flag('--skip-engine')) engineBench(option('--rounds', 3));
if (!flag('--skip-models')) modelsBench();
if (!flag('--skip-tune')) tuneBench(option('--rounds', 3));
if (!flag('--skip-browser')) await browserBench(browserEntries);

#!/usr/bin/env node
/**
 * `npm run bench`: measured figures and ratios, printed (never asserted — the machine is shared).
 *
 * 1. The engine natively and as wasm (in Node's V8), 1,000,000 inserts then 1,000,000 lookups
 *    (16 B keys, 100 B values, leveling T = 10, 10 bits/key, in memory), alternating runs so the
 *    wasm/native ratio is taken pair by pair.
 * 2. The models: holisticDesign, a 200-point curve, Mnemosyne's solver against gradient descent,
 *    Endure's robust tuning (the Tune page's recommendation).
 * 3. The tuner (`lsm tune`): YCSB A–F at 10M records from RocksDB's defaults, nominal and robust;
 *    and the RocksDB search from RocksDB 7.8's true defaults, YCSB B at 1M records.
 * 4. In Chromium: the engine on OPFS and on IndexedDB against a plain `idb` key-value store.
 * 5. Phase by phase against RocksDB's own db_bench (Debian rocksdb-tools), the native engine on
 *    files: random load, point lookups (existing, then missing), short range scans, overwrites and
 *    a 50/50 read/update mix, each with its ratio; and the wasm engine against native, per phase.
 * 5b. Insert latency with merges inline, paced (the default) and background, rounds alternating, side by
 *    side: the load of 5 on files for the engine's leveling design and for RocksDB's shape (its
 *    defaults with db_bench's 4 MiB buffer, imported), p50/p99/p99.9/max insert latency, the
 *    ingest rate and the rate to quiescence, and the stalls (`--skip-latency` leaves it out).
 * 6. The hot paths' micro-benchmarks (scripts/bench-micro.mjs, which also runs alone): memtable
 *    insert, Bloom and modular filter build and probe, the k-way merge, a page search, a point
 *    lookup through the table reader, natively and as wasm with one timing loop, and their ratios.
 *
 * Options: --rounds N (default 3), --browser-entries 100000|200000|1000000 (default 1000000), --phase-entries N
 * (default 1000000), --skip-engine, --skip-browser, --skip-models, --skip-tune, --skip-tune-rocksdb, --skip-phases,
 * --skip-latency, --skip-micro, --incognito (the browser part in a fresh in-memory context instead of an on-disk profile).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { microBench } from './bench-micro.mjs';
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
  console.log('\n== tune: RocksDB as Monkey\'s Table 4 describes it, YCSB A–F at 10,000,000 records, 1,000,000 operations (target < 50 ms) ==');
  const lsm = path.join(root, 'wasm-engine/target/release/lsm');
  const preset = path.join(root, 'public/presets/rocksdb-monkey-table4.json');
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

/**
 * The RocksDB search (`tune_rocksdb`: RocksDB's own knobs in one memory budget, each design priced
 * with its block cache) from RocksDB 7.8's true defaults (public/presets/rocksdb.json, the Tune
 * page's landing design), YCSB B at 1,000,000 records and operations: the tuner's slowest path
 * (its block cache model), timed as above.
 */
function rocksdbTuneBench(rounds) {
  console.log("\n== tune --target rocksdb: RocksDB 7.8's true defaults, YCSB B at 1,000,000 records, 1,000,000 operations ==");
  const lsm = path.join(root, 'wasm-engine/target/release/lsm');
  const preset = path.join(root, 'public/presets/rocksdb.json');
  const times = [];
  let result;
  for (let i = 0; i < rounds; i++) {
    const r = spawnSync(lsm, ['tune', '--config', preset, '--workload', 'ycsb:b', '--records', '1000000', '--operations', '1000000', '--target', 'rocksdb'], { encoding: 'utf8', maxBuffer: 64 << 20 });
    if (r.status !== 0) throw new Error(`lsm tune failed:\n${r.stderr}`);
    times.push(Number(/tuned in ([0-9.]+) ms/.exec(r.stderr)[1]));
    result = JSON.parse(r.stdout);
  }
  const jobs = path.join(os.tmpdir(), `tune-bench-rocksdb-${process.pid}.json`);
  fs.writeFileSync(jobs, JSON.stringify([{ workload: result.workload, rho: 0, target: 'rocksdb' }]));
  const [wasm] = JSON.parse(run('node', ['scripts/bench-tune-wasm.mjs', preset, jobs, String(rounds)]));
  fs.rmSync(jobs);
  console.log(`  native ${median(times).toFixed(0)} ms, wasm ${wasm.toFixed(0)} ms over ${result.candidates} designs; recommendation: ${result[result.recommended].summary}`);
}

/**
 * Phase by phase, the same work on both: N distinct 16 B keys with 100 B values loaded in random
 * order, then N/2 operations of each phase. RocksDB runs its phases in one db_bench process on one
 * database (filluniquerandom first, then the rest with --use_existing_db); the engine runs each
 * phase after its own fresh load (`lsm bench` times the load and the phase apart), on files.
 */
const PHASES = [
  { id: 'load', label: 'random load (distinct keys)', rocksdb: 'filluniquerandom', mix: null },
  { id: 'get', label: 'point lookups, existing keys', rocksdb: 'readrandom', mix: { get_existing: 1 } },
  { id: 'missing', label: 'point lookups, missing keys', rocksdb: 'readmissing', mix: { get_missing: 1 } },
  { id: 'scan', label: 'short range scans (~10 entries)', rocksdb: 'seekrandom', mix: { range: 1 } },
  { id: 'overwrite', label: 'overwrites (random existing keys)', rocksdb: 'overwrite', mix: { update: 1 } },
  { id: 'mixed', label: '50/50 read/update mix', rocksdb: 'readrandomwriterandom', mix: { get_existing: 0.5, update: 0.5 } },
];

function phaseWorkload(n, mix) {
  return {
    kind: 'lsm-navigator/workload',
    version: 1,
    name: `phase benchmark: ${n} keys`,
    seed: 1,
    preload: { entries: n, key_space: 0, key_bytes: 16, value_bytes: 100 },
    operations: mix ? Math.floor(n / 2) : 0,
    mix: mix ?? { get_existing: 1 },
    distribution: { kind: 'uniform' },
    // A scan covers ~10 of the N keys (selectivity is a share of the key space, which holds N keys).
    ...(mix?.range ? { range_selectivity: 10 / n } : {}),
  };
}

function dbBenchRates(n, dir) {
  const args = [
    `--benchmarks=${PHASES.map((p) => p.rocksdb).join(',')}`,
    `--num=${n}`, `--reads=${Math.floor(n / 2)}`, `--writes=${Math.floor(n / 2)}`,
    '--key_size=16', '--value_size=100', '--write_buffer_size=4194304', '--max_bytes_for_level_multiplier=10',
    '--bloom_bits=10', '--compression_type=none', '--disable_wal=1', '--threads=1', '--seek_nexts=10',
    '--readwritepercent=50', `--db=${dir}`,
  ];
  const out = run('db_bench', args);
  const rates = {};
  for (const p of PHASES) {
    const m = new RegExp(`^${p.rocksdb}\\s*:\\s*[0-9.]+ micros/op (\\d+) ops/sec`, 'm').exec(out);
    if (!m) throw new Error(`db_bench printed no ${p.rocksdb} line:\n${out}`);
    rates[p.id] = Number(m[1]);
  }
  return rates;
}

/** What differs, RocksDB's side read from the OPTIONS file db_bench wrote for the run. */
function printRocksdbShape(db) {
  const file = fs.readdirSync(db).filter((f) => f.startsWith('OPTIONS-')).sort().at(-1);
  const text = file ? fs.readFileSync(path.join(db, file), 'utf8') : '';
  const get = (key) => new RegExp(`^\\s*${key}=(.*)$`, 'm').exec(text)?.[1] ?? '?';
  const mib = (key) => (Number.isFinite(Number(get(key))) ? `${Number(get(key)) / 1048576} MiB` : '?');
  console.log(`  differ: RocksDB (its ${file ?? 'OPTIONS file: not found'}) merges file by file in ${get('max_background_jobs')} background jobs: level 0 of`);
  console.log(`          ${get('level0_file_num_compaction_trigger')} files, ${mib('max_bytes_for_level_base')} level 1, ${mib('target_file_size_base')} files, an 8 MiB block cache (db_bench's --cache_size);`);
  console.log('          the engine merges whole levels inline on one thread (public/examples/bench-config.json), with no block cache,');
  console.log('          and syncs its tables, writes its manifest records and unlinks merged-away files on a second thread, in order.');
  console.log('          RocksDB runs its phases on one database in order (filluniquerandom, then --use_existing_db); the engine');
  console.log('          loads afresh before each phase. Both sync each table they write; neither writes a log.');
}

function enginePhaseRates(cli, n, work, { files, wasm }) {
  const rates = {};
  for (const p of PHASES) {
    const workload = path.join(work, `${p.id}.json`);
    fs.writeFileSync(workload, JSON.stringify(phaseWorkload(n, p.mix)));
    const config = path.join(root, 'public/examples/bench-config.json');
    let line;
    if (wasm) {
      line = JSON.parse(run('node', ['scripts/bench-wasm.mjs', config, workload]));
    } else {
      const args = ['bench', '--config', config, '--workload', workload, '--no-wal'];
      const dir = path.join(work, `db-${p.id}`);
      fs.rmSync(dir, { recursive: true, force: true });
      if (files) args.push('--dir', dir);
      line = JSON.parse(run(cli, args));
      fs.rmSync(dir, { recursive: true, force: true });
    }
    rates[p.id] = p.mix ? line.run_ops_per_sec : line.load_ops_per_sec;
  }
  return rates;
}

function phaseBench(rounds, n) {
  console.log(`\n== phases: the engine on files vs RocksDB ${run('db_bench', ['--version']).trim().replace(/^db_bench version /, '')} (db_bench), ${fmt(n)} keys, ${fmt(n / 2)} operations per phase ==`);
  console.log('  alike: 16 B keys, 100 B values, no compression, no write-ahead log (engine --no-wal, db_bench --disable_wal), 10 bits/key Bloom');
  console.log('         filters, 4 MiB write buffer, level ratio 10, files on the same disk, one client thread, median of rounds.');
  const cli = path.join(root, 'wasm-engine/target/release/lsm');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lsm-phases-'));
  const samples = { engine: [], rocksdb: [], native: [], wasm: [] };
  try {
    for (let i = 0; i < rounds; i++) {
      const db = path.join(work, 'rocksdb');
      fs.rmSync(db, { recursive: true, force: true });
      samples.rocksdb.push(dbBenchRates(n, db));
      if (i === 0) printRocksdbShape(db);
      samples.engine.push(enginePhaseRates(cli, n, work, { files: true }));
      samples.native.push(enginePhaseRates(cli, n, work, { files: false }));
      samples.wasm.push(enginePhaseRates(cli, n, work, { wasm: true }));
      console.log(`  round ${i + 1} of ${rounds} done`);
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  const med = (who, id) => median(samples[who].map((r) => r[id]));
  // Ratios pair by pair (same round), then the median: the machine is shared and noisy.
  const ratio = (a, b, id) => median(samples[a].map((r, i) => r[id] / samples[b][i][id]));
  console.log(`\n  ${'phase'.padEnd(36)} ${'engine/s'.padStart(12)} ${'RocksDB/s'.padStart(12)} ${'engine/RocksDB'.padStart(15)}   ${'native/s (mem)'.padStart(15)} ${'wasm/s (mem)'.padStart(13)} ${'wasm/native'.padStart(12)}`);
  for (const p of PHASES) {
    console.log(
      `  ${p.label.padEnd(36)} ${fmt(med('engine', p.id)).padStart(12)} ${fmt(med('rocksdb', p.id)).padStart(12)} ${`${ratio('engine', 'rocksdb', p.id).toFixed(2)}×`.padStart(15)}   ${fmt(med('native', p.id)).padStart(15)} ${fmt(med('wasm', p.id)).padStart(13)} ${ratio('wasm', 'native', p.id).toFixed(2).padStart(12)}`,
    );
  }
  console.log('  aims: engine/RocksDB ≥ 1.5 on the load, scans and overwrites; wasm/native ≥ 0.8 on inserts (issue 14)');
}

/** RocksDB 7.8's defaults with db_bench's settings above, as the engine imports them. */
function rocksdbShapeConfig(work) {
  const options = path.join(work, 'OPTIONS-bench');
  fs.writeFileSync(
    options,
    '[Version]\n  rocksdb_version=7.8.3\n  options_file_version=1.1\n[DBOptions]\n[CFOptions "default"]\n' +
      '  write_buffer_size=4194304\n  compression=kNoCompression\n[TableOptions/BlockBasedTable "default"]\n' +
      '  filter_policy=bloomfilter:10:false\n  no_block_cache=true\n',
  );
  const config = path.join(work, 'rocksdb-shape.json');
  fs.writeFileSync(config, run(path.join(root, 'wasm-engine/target/release/lsm'), ['import', '--rocksdb', options], { stdio: ['ignore', 'pipe', 'ignore'] }));
  return config;
}

function latencyBench(rounds, n) {
  console.log(`\n== insert latency: merges inline vs paced vs background, ${fmt(n)} random inserts on files (16 B keys, 100 B values, no log) ==`);
  const cli = path.join(root, 'wasm-engine/target/release/lsm');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lsm-latency-'));
  const designs = [
    { id: 'leveling', label: 'leveling T=10 (bench-config)', config: path.join(root, 'public/examples/bench-config.json') },
    { id: 'rocksdb', label: "RocksDB's shape (imported)", config: rocksdbShapeConfig(work) },
  ];
  const workload = path.join(work, 'load.json');
  fs.writeFileSync(workload, JSON.stringify(phaseWorkload(n, null)));
  const samples = {};
  try {
    for (let i = 0; i < rounds; i++) {
      for (const d of designs) {
        for (const merges of ['inline', 'paced', 'background']) {
          const dir = path.join(work, 'db');
          fs.rmSync(dir, { recursive: true, force: true });
          const line = JSON.parse(run(cli, ['bench', '--config', d.config, '--workload', workload, '--no-wal', '--dir', dir, '--latency', '--merges', merges]));
          fs.rmSync(dir, { recursive: true, force: true });
          (samples[`${d.id}/${merges}`] ??= []).push(line);
        }
      }
      console.log(`  round ${i + 1} of ${rounds} done`);
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  const us = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(1)} ms` : `${(ns / 1e3).toFixed(1)} µs`);
  console.log(`\n  ${'design'.padEnd(30)} ${'merges'.padEnd(10)} ${'p50'.padStart(9)} ${'p99'.padStart(9)} ${'p99.9'.padStart(9)} ${'max'.padStart(9)} ${'worst max'.padStart(10)} ${'ingest/s'.padStart(10)} ${'to quiet/s'.padStart(11)}  stalls (slowed/stopped/flush waits, time)`);
  for (const d of designs) {
    for (const merges of ['inline', 'paced', 'background']) {
      const xs = samples[`${d.id}/${merges}`];
      const lat = (k) => median(xs.map((x) => x.insert_latency_ns[k]));
      const st = xs.at(-1).load_stalls;
      console.log(
        `  ${d.label.padEnd(30)} ${merges.padEnd(10)} ${us(lat('p50')).padStart(9)} ${us(lat('p99')).padStart(9)} ${us(lat('p999')).padStart(9)} ${us(lat('max')).padStart(9)} ${us(Math.max(...xs.map((x) => x.insert_latency_ns.max))).padStart(10)} ${fmt(median(xs.map((x) => x.ingest_ops_per_sec))).padStart(10)} ${fmt(median(xs.map((x) => x.load_ops_per_sec))).padStart(11)}  ${st.slowdowns}/${st.stops}/${st.flush_waits}, ${us(median(xs.map((x) => x.load_stalls.stalled_ns)))}`,
      );
    }
  }
  console.log('  medians of rounds (worst max: the longest single insert of any round); stalls of the last round, time stalled its median');
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
    // The store table's rows only: the page's engine table (bench-engine-*) has other columns.
    const rows = await page.$$eval('[data-testid="bench-results"] tr[data-testid^="bench-"]', (trs) =>
      trs
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
if (!flag('--skip-tune-rocksdb')) rocksdbTuneBench(option('--rounds', 3));
if (!flag('--skip-phases')) phaseBench(option('--rounds', 3), option('--phase-entries', 1_000_000));
if (!flag('--skip-latency')) latencyBench(option('--rounds', 3), option('--phase-entries', 1_000_000));
if (!flag('--skip-browser')) await browserBench(browserEntries);
if (!flag('--skip-micro')) microBench({ rounds: option('--rounds', 3) });

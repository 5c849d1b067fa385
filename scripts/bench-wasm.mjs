#!/usr/bin/env node
/**
 * The engine compiled to wasm, run in Node (V8, the same engine as Chromium) on the benchmark
 * workload: prints one JSON line like `lsm bench` does natively.
 * Usage: node scripts/bench-wasm.mjs [config.json] [workload.json] [--no-wal]
 * --no-wal: writes are not logged ahead, as `lsm bench --no-wal` (what the phase benchmark compares).
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { root } from './setup.mjs';

const pkg = path.join(root, 'web/src/wasm/pkg');
const { initSync, WasmEngine } = await import(pathToFileURL(path.join(pkg, 'lsm_engine.js')).href);
initSync({ module: fs.readFileSync(path.join(pkg, 'lsm_engine_bg.wasm')) });

const args = process.argv.slice(2);
const noWal = args.includes('--no-wal');
const [configArg, workloadArg] = args.filter((a) => a !== '--no-wal');
const configPath = configArg ?? path.join(root, 'public/examples/bench-config.json');
const workloadPath = workloadArg ?? path.join(root, 'public/examples/bench-workload.json');
const config = fs.readFileSync(configPath, 'utf8');
const workloadText = fs.readFileSync(workloadPath, 'utf8');
const workload = JSON.parse(workloadText);

const engine = new WasmEngine(config);
if (noWal) engine.set_write_ahead_log(false);
engine.start_workload(workloadText);
// CPU seconds as well as wall seconds, as `lsm bench` gives them: on a shared machine the wall
// clock also counts the time other processes held the cores.
const cpuSince = (c) => {
  const d = process.cpuUsage(c);
  return (d.user + d.system) / 1e6;
};
let t = performance.now();
let cpu = process.cpuUsage();
engine.run_steps(workload.preload.entries);
const loadSeconds = (performance.now() - t) / 1000;
const loadCpuSeconds = cpuSince(cpu);
t = performance.now();
cpu = process.cpuUsage();
engine.run_steps(workload.operations + 1);
const runSeconds = (performance.now() - t) / 1000;
const runCpuSeconds = cpuSince(cpu);
const report = JSON.parse(engine.report_json(loadSeconds * 1000, runSeconds * 1000));
engine.free();
console.log(
  JSON.stringify({
    target: 'wasm',
    wal: !noWal,
    preload_ops: workload.preload.entries,
    run_ops: workload.operations,
    load_seconds: loadSeconds,
    run_seconds: runSeconds,
    load_cpu_seconds: loadCpuSeconds,
    run_cpu_seconds: runCpuSeconds,
    load_ops_per_sec: workload.preload.entries / loadSeconds,
    run_ops_per_sec: workload.operations / runSeconds,
    found: report.results.get_existing_found,
    run_page_ios: report.summary.reduce((n, c) => n + c.page_ios, 0),
    // The browser's mode (paced: the worker has no merge threads), as the Report records it.
    merges: report.merges,
  }),
);

#!/usr/bin/env node
/**
 * The tuner compiled to wasm, run in Node (V8, the engine Chromium runs the Tune page's worker
 * on): times `tune` for each job and prints one JSON array of medians (ms), in job order.
 * Usage: node scripts/bench-tune-wasm.mjs config.json jobs.json rounds
 * where jobs.json is `[{ "workload": <Workload>, "rho": 0.5, "target": "engine" }, …]`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { root } from './setup.mjs';

const pkg = path.join(root, 'web/src/wasm/pkg');
const { initSync, tune } = await import(pathToFileURL(path.join(pkg, 'lsm_engine.js')).href);
initSync({ module: fs.readFileSync(path.join(pkg, 'lsm_engine_bg.wasm')) });

const [configPath, jobsPath, roundsArg] = process.argv.slice(2);
const config = fs.readFileSync(configPath, 'utf8');
const jobs = JSON.parse(fs.readFileSync(jobsPath, 'utf8'));
const rounds = Number(roundsArg ?? 3);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const medians = jobs.map(({ workload, rho, target }) => {
  const text = JSON.stringify(workload);
  const times = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    tune(config, text, rho, target);
    times.push(performance.now() - t);
  }
  return median(times);
});
console.log(JSON.stringify(medians));

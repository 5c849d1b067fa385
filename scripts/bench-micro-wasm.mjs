#!/usr/bin/env node
/**
 * The hot paths' micro-benchmarks compiled to wasm, run in Node (V8, the engine Chromium runs the
 * app's worker on): `micro_bench` times lsm-bench's kernels with the same loop and clock as the
 * native `micro-bench`, and this prints its JSON array.
 * Usage: node scripts/bench-micro-wasm.mjs [only] [samples] [sample-ms]
 * (only: kernel names, comma-separated, empty for all; 0 for the defaults: 15 samples of 20 ms).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from './setup.mjs';

const pkg = path.join(root, 'web/src/wasm/pkg');
const { initSync, micro_bench } = await import(pathToFileURL(path.join(pkg, 'lsm_engine.js')).href);
initSync({ module: fs.readFileSync(path.join(pkg, 'lsm_engine_bg.wasm')) });

const [only = '', samples = '0', sampleMs = '0'] = process.argv.slice(2);
console.log(micro_bench(only, Number(samples), Number(sampleMs)));

#!/usr/bin/env node
/**
 * The hot paths' micro-benchmarks, natively and as wasm (in Node's V8), side by side: the kernels
 * of wasm-engine/crates/lsm-bench (memtable insert, Bloom and modular filter build and probe, the
 * k-way merge, a page search, a point lookup through the table reader), each timed by the same
 * loop and clock on both sides (`micro-bench` natively, `micro_bench` in wasm) in alternating
 * rounds. A run's figure is its fastest sample (15 samples of 20 ms by default): on a shared
 * machine the slower samples measure the other work more than the kernel. Ratios are taken pair
 * by pair (same round), then the median over rounds. `npm run bench` runs this as one of its
 * sections; criterion's own figures come from `cd wasm-engine && cargo bench -p lsm-bench`.
 *
 * Alone: node scripts/bench-micro.mjs [--rounds N] [--only name,name] [--samples N] [--sample-ms MS]
 * (it runs setup first, which rebuilds the wasm package if the Rust sources changed).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { env, root, setup } from './setup.mjs';

function run(cmd, cmdArgs, options = {}) {
  const r = spawnSync(cmd, cmdArgs, { cwd: root, env, encoding: 'utf8', maxBuffer: 64 << 20, ...options });
  if (r.status !== 0) throw new Error(`${cmd} ${cmdArgs.join(' ')} failed:\n${r.stderr}`);
  return r.stdout;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Native and wasm figures of each kernel over `rounds` alternating rounds, printed as a table. */
export function microBench({ rounds = 3, only = '', samples = 0, sampleMs = 0 } = {}) {
  const started = performance.now();
  console.log('\n== micro: the hot paths natively vs wasm (lsm-bench kernels, same timing loop and clock; ns per element) ==');
  run('cargo', ['build', '--release', '-p', 'lsm-bench', '--bin', 'micro-bench', '--manifest-path', 'wasm-engine/Cargo.toml'], { stdio: 'inherit' });
  const bin = path.join(root, 'wasm-engine/target/release/micro-bench');
  const native = [];
  const wasm = [];
  for (let i = 0; i < rounds; i++) {
    const args = ['--only', only, ...(samples ? ['--samples', String(samples)] : []), ...(sampleMs ? ['--sample-ms', String(sampleMs)] : [])];
    native.push(JSON.parse(run(bin, args)));
    wasm.push(JSON.parse(run('node', ['scripts/bench-micro-wasm.mjs', only, String(samples), String(sampleMs)])));
    console.log(`  round ${i + 1} of ${rounds} done`);
  }
  const names = native[0].map((m) => m.name);
  const at = (round, name) => round.find((m) => m.name === name);
  console.log(`\n  ${'kernel'.padEnd(16)} ${'per iteration'.padEnd(58)} ${'native ns'.padStart(10)} ${'wasm ns'.padStart(10)} ${'wasm/native'.padStart(12)}   ${'native M/s'.padStart(10)} ${'wasm M/s'.padStart(9)}`);
  const ns = (r, name) => at(r, name).best_ns_per_element;
  for (const name of names) {
    const n = median(native.map((r) => ns(r, name)));
    const w = median(wasm.map((r) => ns(r, name)));
    // Speed ratio, as the other sections give it: wasm throughput over native, pair by pair.
    const ratio = median(native.map((r, i) => ns(r, name) / ns(wasm[i], name)));
    const m = at(native[0], name);
    const differ = native.some((r, i) => at(r, name).check !== at(wasm[i], name).check) ? '  ! results differ' : '';
    console.log(
      `  ${name.padEnd(16)} ${m.what.padEnd(58)} ${n.toFixed(1).padStart(10)} ${w.toFixed(1).padStart(10)} ${ratio.toFixed(2).padStart(12)}   ${(1e3 / n).toFixed(1).padStart(10)} ${(1e3 / w).toFixed(1).padStart(9)}${differ}`,
    );
  }
  console.log(`  each run's fastest sample, median of ${rounds} rounds; wasm/native is wasm's speed over native's (1.00: as fast); ${((performance.now() - started) / 1000).toFixed(0)} s in all`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : fallback;
  };
  setup();
  microBench({
    rounds: Number(option('--rounds', 3)),
    only: option('--only', ''),
    samples: Number(option('--samples', 0)),
    sampleMs: Number(option('--sample-ms', 0)),
  });
}

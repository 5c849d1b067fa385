#!/usr/bin/env node
/**
 * `npm run soak [-- <ops per configuration> [seed]]`: the long oracle run (wasm-engine/crates/lsm-engine/tests/soak.rs),
 * optimised, printing per configuration and in total the operations checked, divergences and lost
 * acknowledged writes. Not part of `npm test` (minutes, not seconds).
 */
import { spawnSync } from 'node:child_process';
import { env, root } from './setup.mjs';

const [ops = '2000000', seed = '1'] = process.argv.slice(2);
for (const [name, v] of [['ops per configuration', ops], ['seed', seed]]) {
  if (!/^[0-9][0-9_]*$/.test(v)) {
    console.error(`${name} must be a whole number, got "${v}"`);
    process.exit(2);
  }
}
const r = spawnSync(
  'cargo',
  ['test', '--profile', 'soak', '--manifest-path', 'wasm-engine/Cargo.toml', '--test', 'soak', '--', '--ignored', '--nocapture'],
  { cwd: root, stdio: 'inherit', env: { ...env, SOAK_OPS_PER_CONFIG: ops, SOAK_SEED: seed } },
);
process.exit(r.status ?? 1);

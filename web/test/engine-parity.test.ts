/**
 * The same config, workload and seed give identical counters natively and in wasm: the native
 * `lsm` CLI's report equals the wasm engine's, field for field (timings aside).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { initSync, WasmEngine } from '../src/wasm/pkg/lsm_engine.js';

const root = path.resolve(__dirname, '../..');
const cli = path.join(root, 'wasm-engine/target/release/lsm');
const examples = path.join(root, 'public/examples');

beforeAll(() => {
  initSync({ module: fs.readFileSync(path.join(root, 'web/src/wasm/pkg/lsm_engine_bg.wasm')) });
  if (!fs.existsSync(cli)) {
    throw new Error(`native CLI missing at ${cli}: run \`npm test\` (it builds it) or \`cargo build --release --bin lsm\``);
  }
});

type Json = { [k: string]: unknown };

function wasmReport(config: string, workload: string, stepSizes: number[]): Json {
  const engine = new WasmEngine(config);
  engine.start_workload(workload);
  let i = 0;
  for (;;) {
    const p = JSON.parse(engine.run_steps(stepSizes[i++ % stepSizes.length]));
    if (p.phase === 'done') break;
  }
  const report = JSON.parse(engine.report_json(0, 0));
  engine.free();
  return report;
}

function nativeReport(configPath: string, workloadPath: string): Json {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lsm-parity-')), 'report.json');
  execFileSync(cli, ['run', '--config', configPath, '--workload', workloadPath, '--report', out], { stdio: 'pipe' });
  return JSON.parse(fs.readFileSync(out, 'utf8'));
}

/** What must match: everything but wall-clock time (timings, latencies, time spent stalled) and the number of syncs
 * (one per step, so it follows how the caller chops the run; the bytes logged do not). */
function withoutTimings(r: Json): Json {
  const strip = (stats: unknown) => {
    const s = stats as Json;
    return { ...s, wal_syncs: 0, stalls: { ...(s.stalls as Json), stalled_ns: 0 } };
  };
  const rocksdb = { ...(r.rocksdb_counters as Json), 'rocksdb.wal.synced': 0 };
  return { ...r, timings: null, latency: null, preload: strip(r.preload), run: strip(r.run), rocksdb_counters: rocksdb };
}

describe('native and wasm engines', () => {
  for (const [configFile, workloadFile] of [
    ['leveling-monkey.json', 'mixed.json'],
    ['bench-config.json', 'zero-result-lookups.json'],
    ['leveling-monkey-reoptimised.json', 'zero-result-lookups.json'],
    ['leveling-monkey-reoptimised.json', 'mixed.json'],
  ]) {
    it(`report identical counters for ${configFile} + ${workloadFile}`, () => {
      const configPath = path.join(examples, configFile);
      const workloadPath = path.join(examples, workloadFile);
      const config = fs.readFileSync(configPath, 'utf8');
      const workload = fs.readFileSync(workloadPath, 'utf8');
      const native = nativeReport(configPath, workloadPath);
      // Uneven step sizes: how a run is chopped must not change what it does.
      const wasm = wasmReport(config, workload, [9_999, 123, 50_000, 7]);
      expect(withoutTimings(wasm)).toEqual(withoutTimings(native));
      const run = native.run as { ops: number[]; levels: { filter_resizing?: { rebuilds: number } }[] };
      expect(run.ops.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      // Re-optimised Monkey rebuilt filters in the lookups (and both engines counted the same pages).
      if (configFile.includes('reoptimised') && workloadFile.includes('zero-result')) {
        expect(run.levels.reduce((a, l) => a + (l.filter_resizing?.rebuilds ?? 0), 0)).toBeGreaterThan(0);
      }
    });
  }
});

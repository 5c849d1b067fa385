/**
 * The write side held against a real LevelDB: one case = one stream of writes (the engine's own
 * key stream, `lsm keys`) put into Debian's LevelDB 1.23 by the driver `write_amp.cc` and into the
 * engine configured as LevelDB's design (`lsm writes`), next to the MSLS model for that design.
 * Used by the test (leveldb.test.ts) and by `npm run leveldb-write-amp`, which stores the results
 * the Write amplification page shows.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mslsWriteAmplification } from '@lsm/models';
import { leveldbCalibration, leveldbEngineConfig, leveldbMslsParams } from '../../web/src/documents/designs/leveldb';
import {
  LEVELDB_WRITE_AMP_KIND,
  steadyStateWorkload,
  type LeveldbCase,
  type LeveldbCaseResult,
  type LeveldbComparison,
  type WriteAmpResult,
} from '../../web/src/documents/writeAmp';
import { fromEmptySeries, steadyStateWindow } from '../../web/src/compute/writeAmp';

const here = path.dirname(fileURLToPath(import.meta.url));
const LSM = path.join(path.resolve(here, '../..'), 'wasm-engine/target/release/lsm');

/** Two key-space sizes per value size, uniform and Zipf 0.99: the matrix, sized to run in a few minutes on two cores. */
export const CASES: LeveldbCase[] = [
  { id: 'uniform-500K-100B', keys: 500_000, updates: 3_000_000, warmup: 500_000, theta: 0, valueBytes: 100 },
  { id: 'zipf-500K-100B', keys: 500_000, updates: 3_000_000, warmup: 500_000, theta: 0.99, valueBytes: 100 },
  { id: 'uniform-2M-100B', keys: 2_000_000, updates: 4_000_000, warmup: 1_000_000, theta: 0, valueBytes: 100 },
  { id: 'zipf-2M-100B', keys: 2_000_000, updates: 4_000_000, warmup: 1_000_000, theta: 0.99, valueBytes: 100 },
  { id: 'uniform-100K-1000B', keys: 100_000, updates: 400_000, warmup: 50_000, theta: 0, valueBytes: 1000 },
  { id: 'zipf-100K-1000B', keys: 100_000, updates: 400_000, warmup: 50_000, theta: 0.99, valueBytes: 1000 },
];

/** Compile the driver against Debian's libleveldb. */
export function buildDriver(dir: string): string {
  const exe = path.join(dir, 'write_amp');
  execFileSync('g++', ['-std=c++17', '-O2', path.join(here, 'write_amp.cc'), '-o', exe, '-lleveldb', '-lpthread'], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return exe;
}

/** A child's stdout as text (unless it is piped elsewhere: `readStdout` false) once it exits cleanly. */
function collect(child: ReturnType<typeof spawn>, what: string, readStdout = true): Promise<string> {
  let out = '';
  let err = '';
  if (readStdout) child.stdout?.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${what} exited with ${code}: ${err.trim()}`))));
  });
}

/** LevelDB: the workload's keys, in order, through the driver (compactions synchronous, a checkpoint at every flush). */
async function runLeveldb(driver: string, workloadFile: string, dbDir: string, valueBytes: number): Promise<WriteAmpResult> {
  const keys = spawn(LSM, ['keys', '--workload', workloadFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  const db = spawn(driver, ['--db', dbDir, '--value-bytes', String(valueBytes), '--checkpoint', 'flush'], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  keys.stdout.pipe(db.stdin);
  const [, text] = await Promise.all([collect(keys, 'lsm keys', false), collect(db, 'the LevelDB driver')]);
  return JSON.parse(text) as WriteAmpResult;
}

async function runEngine(configFile: string, workloadFile: string): Promise<WriteAmpResult> {
  const child = spawn(LSM, ['writes', '--config', configFile, '--workload', workloadFile, '--checkpoint', 'flush'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return JSON.parse(await collect(child, 'lsm writes')) as WriteAmpResult;
}

/** What LevelDB's tables took by the driver's info-log counts, next to its own "leveldb.stats". */
function accounting(r: WriteAmpResult): { logMiB: number; statsMiB: number; statsLevels: number } {
  const last = r.checkpoints[r.checkpoints.length - 1];
  const logBytes = (last?.flush_bytes ?? 0) + (last?.bytes_into ?? []).reduce((a, b) => a + b, 0);
  const stats = r.stats_write_mb ?? [];
  return { logMiB: logBytes / 2 ** 20, statsMiB: stats.reduce((a, [, mb]) => a + mb, 0), statsLevels: stats.length };
}

/** One case, end to end, in `work` (a scratch directory). */
export async function measureCase(c: LeveldbCase, driver: string, work: string): Promise<LeveldbCaseResult> {
  const dir = fs.mkdtempSync(path.join(work, `${c.id}-`));
  try {
    const workloadFile = path.join(dir, 'workload.json');
    fs.writeFileSync(workloadFile, JSON.stringify(steadyStateWorkload(c.keys, c.updates, c.theta, c.valueBytes)));
    const ldb = await runLeveldb(driver, workloadFile, path.join(dir, 'leveldb'), c.valueBytes);
    const calibration = leveldbCalibration(ldb);
    const configFile = path.join(dir, 'config.json');
    fs.writeFileSync(configFile, JSON.stringify(leveldbEngineConfig(calibration)));
    const eng = await runEngine(configFile, workloadFile);
    const warmup = c.keys + c.warmup;
    const params = leveldbMslsParams(calibration, c.keys, c.theta);
    const m = mslsWriteAmplification(params);
    const paper = mslsWriteAmplification({ ...params, flushKeepsVersions: false });
    return {
      case: c,
      calibration,
      leveldb: {
        version: ldb.leveldb ?? '?',
        steady: steadyStateWindow(ldb, 'leveldb', warmup),
        fromEmpty: fromEmptySeries(ldb),
        insertsPerFlush: ldb.inserts_per_flush,
        accounting: accounting(ldb),
      },
      engine: { steady: steadyStateWindow(eng, 'engine', warmup), fromEmpty: fromEmptySeries(eng), insertsPerFlush: eng.inserts_per_flush },
      msls: { flush: m.flush, paperFlush: paper.flush, levels: m.perLevel.slice(1), total: m.total - m.log, warnings: m.warnings },
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Run cases `parallel` at a time (each LevelDB run keeps one core busy with its compactions). */
export async function measureAll(cases: LeveldbCase[], driver: string, work: string, parallel = 2): Promise<LeveldbCaseResult[]> {
  const results: LeveldbCaseResult[] = new Array(cases.length);
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const i = next++;
      const c = cases[i] as LeveldbCase;
      const t0 = Date.now();
      results[i] = await measureCase(c, driver, work);
      console.log(`[leveldb] ${c.id}: ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return results;
}

const f3 = (v: number) => v.toFixed(3);
const pct = (a: number, b: number) => `${a >= b ? '+' : ''}${((a / b - 1) * 100).toFixed(1)}%`;

/** The comparison as a text table: per case, the three systems' entries written per write by destination. */
export function formatResults(results: LeveldbCaseResult[]): string {
  const lines = ['case                  system    flush   into L1 into L2 into L3   total  vs LevelDB'];
  for (const r of results) {
    const row = (name: string, flush: number, levels: number[], total: number) =>
      `${r.case.id.padEnd(21)} ${name.padEnd(8)} ${f3(flush).padStart(6)} ${[0, 1, 2].map((i) => f3(levels[i] ?? 0).padStart(7)).join(' ')} ${f3(total).padStart(7)}  ${name === 'LevelDB' ? '' : pct(total, r.leveldb.steady.total)}`;
    lines.push(row('LevelDB', r.leveldb.steady.flush, r.leveldb.steady.levels, r.leveldb.steady.total));
    lines.push(row('engine', r.engine.steady.flush, r.engine.steady.levels, r.engine.steady.total));
    lines.push(row('MSLS', r.msls.flush, r.msls.levels, r.msls.total));
  }
  return lines.join('\n');
}

/** `node --import tsx interop/leveldb/measure.ts --out FILE`: measure every case and store the results. */
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outIndex = process.argv.indexOf('--out');
  const out = outIndex > 0 ? process.argv[outIndex + 1] : undefined;
  const work = fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR ?? '/tmp'), 'lsm-leveldb-'));
  try {
    const results = await measureAll(CASES, buildDriver(work), work);
    console.log(formatResults(results));
    if (out) {
      const engineVersion = execFileSync(LSM, ['version'], { encoding: 'utf8' }).trim();
      const doc: LeveldbComparison = { kind: LEVELDB_WRITE_AMP_KIND, version: 1, measured: new Date().toISOString().slice(0, 10), engine: engineVersion, results };
      fs.writeFileSync(out, `${JSON.stringify(doc)}\n`);
      console.log(`wrote ${out}`);
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

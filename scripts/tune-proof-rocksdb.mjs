/**
 * `npm run tune-proof -- --target rocksdb`: the RocksDB mode of scripts/tune-proof.mjs (which
 * parses the shared flags and builds `lsm`). The case itself is interop/rocksdb/proof.mjs.
 *
 * Each design is played as users run RocksDB (--mode user, the default: background flushes and
 * compactions, a restart between the load and the run, --threads clients), --repeats times
 * (default 3) alternating designs; --mode lab plays the referee's lab mode (every flush and
 * compaction waited for, one process), --mode both plays every workload both ways, lab first,
 * so the two modes' spreads stand side by side in one run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { root } from './setup.mjs';
import { buildReferee } from '../interop/rocksdb/referee.mjs';
import { DEFAULT_BLOCK_CACHE } from '../interop/rocksdb/twin.mjs';
import { calibrateRocksdb } from '../interop/rocksdb/calibrate.mjs';
import { PROOF_MODES, defaultOptionsText, proofLines, runProof, scaleOptions } from '../interop/rocksdb/proof.mjs';

/** "1/5" or "0.2" → 0.2; in (0, 1]. */
function parseScale(text, fail) {
  const [num, den = '1'] = text.split('/');
  const scale = Number(num) / Number(den);
  if (!(scale > 0 && scale <= 1)) fail(`--scale must be in (0, 1], e.g. 1/5, got "${text}"`);
  return scale;
}

export async function proveOnRocksdb({ work, records, operations, letters, option, fail }) {
  const scale = parseScale(option('--scale', '1'), fail);
  const repeats = Number(option('--repeats', '3'));
  if (!(Number.isInteger(repeats) && repeats >= 1 && repeats <= 20)) fail(`--repeats must be a whole number in [1, 20], got "${option('--repeats')}"`);
  // engine: the engine's generator plays YCSB's files; cpp / java: YCSB's CoreWorkload as that client plays it.
  const ycsbClient = option('--ycsb-client', 'engine');
  if (!['engine', 'cpp', 'java'].includes(ycsbClient)) fail(`--ycsb-client must be engine, cpp or java, got "${ycsbClient}"`);
  const threads = Number(option('--threads', '1'));
  if (!(Number.isInteger(threads) && threads >= 1 && threads <= 64)) fail(`--threads must be a whole number in [1, 64], got "${option('--threads')}"`);
  const modeOption = option('--mode', 'user');
  if (!['user', 'lab', 'both'].includes(modeOption)) fail(`--mode must be user, lab or both, got "${modeOption}"`);
  const modes = modeOption === 'both' ? ['lab', 'user'] : [modeOption];
  if (modes.includes('lab') && threads !== 1) fail(`--threads ${threads} needs --mode user (the lab mode plays one client)`);
  const optionsFile = option('--options', null);
  const plugin = option('--plugin', null);
  if (plugin !== null && plugin !== 'per-level-filters') fail(`--plugin must be per-level-filters, got "${plugin}"`);
  const out = option('--out', path.join(root, 'public/measured/tune-proof-rocksdb.json'));
  const start = optionsFile ? fs.readFileSync(optionsFile, 'utf8') : defaultOptionsText(path.join(work, 'defaults'));
  const currentText = scaleOptions(start, scale);
  // RocksDB's 8 MiB internal cache when the file sets none (the true defaults); a user's file
  // that names a cache capacity keeps it, scaled like the other sizes.
  const named = /block_cache=\{[^}]*capacity=(\d+)/.exec(start);
  const blockCacheBytes = Math.round((named ? Number(named[1]) : DEFAULT_BLOCK_CACHE) * scale);
  const driver = buildReferee(path.join(work, 'referee'));
  const from = optionsFile ? `the OPTIONS file ${optionsFile}` : "RocksDB 7.8's true defaults (the OPTIONS file Options() writes)";
  console.log(
    `== tune --target rocksdb from ${from}${scale !== 1 ? `, sizes × ${scale.toPrecision(3)}` : ''}, block cache ${blockCacheBytes} B: YCSB at ${records.toLocaleString('en-US')} records of 1,000 B, ${operations.toLocaleString('en-US')} operations; ${repeats} runs per design on RocksDB through the referee ==`,
  );
  const described = { user: `user mode (background flushes and compactions, a restart between the load and the run, ${threads} client thread${threads === 1 ? '' : 's'})`, lab: 'lab mode (every flush and compaction waited for after the write that caused it, load and run in one process, one client)' };
  console.log(
    `played in the ${modes.map((m) => described[m]).join(' and the ')}.\n` +
      'I/O per op = blocks read from storage (data + index + filter; direct reads) + pages (4 KiB) written by flush and compaction, per run-phase operation.\n' +
      'ops/s: run operations over the run\'s wall time (in the lab mode the waits after writes included). Latency: the RocksDB call alone, log2 buckets split in 8 (±6%).\n' +
      'Blocks/op: median [min–max] over the repeats. Gains: of the means; [range] over the runs\' extremes — a range holding 0 is "no change"; per pair: median [min…max].',
  );
  // Time as well as pages: this device's page prices and RocksDB's CPU per class, once for all cases.
  const calibrationDir = path.join(work, 'calibration');
  fs.mkdirSync(calibrationDir, { recursive: true });
  const calibrationOptions = path.join(calibrationDir, 'current.OPTIONS');
  fs.writeFileSync(calibrationOptions, currentText);
  const calibration = await calibrateRocksdb({ driver, dir: calibrationDir, optionsFile: calibrationOptions });
  console.log(
    `calibration: ${calibration.device}: page read ${calibration.page_read_us.toFixed(1)} µs, page write ${calibration.page_write_us.toFixed(2)} µs; ${calibration.store} CPU per operation ${calibration.cpu_us.map((u) => u.toFixed(1)).join(' / ')} µs (zero-result, non-zero-result, range, write)`,
  );
  const cases = [];
  // Written after every case: an hour of measuring is not lost to a later case that fails.
  const save = () => {
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(
      out,
      `${JSON.stringify(
        {
          kind: 'lsm-navigator/tune-proof-rocksdb',
          version: 2,
          measured: new Date().toISOString(),
          from,
          scale,
          blockCacheBytes,
          records,
          operations,
          repeats,
          threads,
          ycsb_client: ycsbClient,
          modes,
          process: Object.fromEntries(modes.map((m) => [m, { compactions: PROOF_MODES[m].compactions, between: PROOF_MODES[m].between, threads: m === 'lab' ? 1 : threads }])),
          plugin,
          calibration,
          cases,
        },
        null,
        1,
      )}\n`,
    );
  };
  for (const letter of letters) {
    for (const mode of modes) {
      const t0 = Date.now();
      const c = await runProof({
        driver,
        dir: path.join(work, `${letter}-${mode}`),
        currentText,
        blockCacheBytes,
        workload: `ycsb:${letter}`,
        ycsbClient,
        records,
        operations,
        repeats,
        mode,
        threads: mode === 'lab' ? 1 : threads,
        calibration,
        plugin,
        log: (l) => console.error(l),
      });
      console.log(`${proofLines(c).join('\n')}\n  (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
      delete c.files;
      cases.push(c);
      save();
    }
  }
  // The spread side by side: the same workload in each mode, the current design's blocks read
  // per operation over the repeats (what a user re-running their own design sees move).
  console.log('\nspread: workload, mode, blocks read per op median [min–max] (max/min) for the current and the recommended design; gain per pair median [min…max]');
  const f4 = (x) => x.toFixed(4);
  for (const c of cases) {
    const cur = c.blocksPerOp.current;
    const rec = c.blocksPerOp.recommended;
    const pairs = c.gains.blocksPerOp.pairs;
    const p = (x) => `${(100 * x).toFixed(1)}%`;
    console.log(
      `  ${c.workload.padEnd(16)} ${c.mode.padEnd(4)}  current ${f4(cur.median)} [${f4(cur.min)}–${f4(cur.max)}] (×${(cur.min > 0 ? cur.max / cur.min : 0).toFixed(2)})  recommended ${f4(rec.median)} [${f4(rec.min)}–${f4(rec.max)}] (×${(rec.min > 0 ? rec.max / rec.min : 0).toFixed(2)})  gain ${p(pairs.median)} [${p(pairs.min)}…${p(pairs.max)}]  predicted ${p(c.predicted.gain)}${c.predicted.process?.gainRange ? ` [${p(c.predicted.process.gainRange[0])}…${p(c.predicted.process.gainRange[1])}]` : ''}${c.predicted.process?.current ? `; current I/O/op predicted ${f4(c.predicted.current)} [${f4(c.predicted.process.current.range[0])}–${f4(c.predicted.process.current.range[1])}]` : ''}`,
    );
  }
  console.log('\nsummary: workload, mode, predicted gain, measured gain (I/O per op), blocks read per op, written per user byte (run; load + run), ops/s');
  for (const c of cases) {
    const p = (x) => `${(100 * x).toFixed(1)}%`;
    const g = c.gains;
    console.log(
      `  ${c.workload.padEnd(16)} ${c.mode.padEnd(4)} ${c.verdict?.keep ? 'KEEP (gain inside the model error) ' : ''}predicted ${p(c.predicted.gain).padStart(7)} (steady ${p(c.predicted.steadyGain ?? c.predicted.gain)})  measured ${p(g.ioPerOp.gain).padStart(7)}${g.ioPerOp.change ? '' : ' (noise)'}  blocks ${p(g.blocksPerOp.gain).padStart(7)}  written run ${p(g.writtenPerUserByte.gain).padStart(7)}, load+run ${p(g.writtenPerUserByteAll.gain).padStart(7)}  ops/s ${p(g.opsPerSecond.gain).padStart(7)} [${p(g.opsPerSecond.lo)}…${p(g.opsPerSecond.hi)}]${g.opsPerSecond.change ? '' : ' no change'}`,
    );
  }
  save();
  console.log(`\nwrote ${path.relative(root, out)}`);
}

/**
 * Tune's advice proven on RocksDB (`npm run tune-proof -- --target rocksdb`, and the rocksdb
 * suite's proof.test.mjs at CI scale). One case = a starting OPTIONS file (RocksDB 7.8's true
 * defaults as `Options()` writes them, or the user's own) and one workload:
 *
 *   1. `lsm tune --target rocksdb` recommends, from what `lsm import --rocksdb` makes of the
 *      OPTIONS file (its block cache set to the cache the run uses);
 *   2. the recommendation becomes an OPTIONS file: the current file with exactly the options the
 *      tune changed (those where `lsm export --format rocksdb` writes the current and the
 *      recommended design differently), so every option the tuner does not model (compression,
 *      max_open_files, …) stays as the user had it; what the exporter cannot express is listed
 *      (its warnings), never dropped in silence;
 *   3. both OPTIONS files are played on real RocksDB through the referee (referee.cc) on the same
 *      operation stream (`lsm ops`), with direct reads, `repeats` times, alternating designs, as
 *      users run RocksDB (`mode: 'user'`, the default: background flushes and compactions, the
 *      database closed and reopened between the load and the run, `threads` clients) or in the
 *      referee's lab mode (`mode: 'lab'`: every flush and compaction waited for, one process);
 *      each run's process model and the tree its run began with are kept with its figures;
 *   4. each run is reduced to the proof's figures (blocks read from storage per operation, bytes
 *      written by flush + compaction per user byte, ops/s, latency per class, memory), and the
 *      gain the tune predicted is set against the gain measured, with the runs' spread as noise:
 *      per design the median and range over the repeats, per pair (the i-th run of each design,
 *      played one after the other) the gain, and the pairs' median and range.
 *
 * With `plugin: 'per-level-filters'` the tune may give each level its own filter bits (`lsm tune
 * --plugin per-level-filters`); when the recommendation needs them (the result's `plugin`), its
 * C++ policy (`lsm export --format rocksdb-cpp`, policy.h) is compiled into a second referee,
 * which installs it as the recommended design's filter_policy: the proof measures the plugin
 * design on RocksDB. Each run's filter bits per level as RocksDB built them (filter bytes × 8 over
 * entries, from the tables' properties) are in its figures.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LAB_MODE, LSM, buildReferee, playOnRocksdb } from './referee.mjs';
import { DEFAULT_BLOCK_CACHE, rocksdbFigures } from './twin.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const MIB = 1 << 20;

/**
 * How the proof plays RocksDB. `user` (the default) is how its users run it: flushes and
 * compactions in the background, a restart between the load and the run (as YCSB's and
 * db_bench's load and run are two processes), `threads` clients. `lab` is the referee's lab
 * mode: every flush and compaction waited for, load and run in one process, one client, so
 * repeats build the same trees (what the tune's model assumes of the tree; not what a user sees).
 */
export const PROOF_MODES = Object.freeze({
  user: { compactions: 'background', between: 'restart', args: [] },
  lab: { compactions: 'synchronous', between: 'continue', args: LAB_MODE },
});

/** The referee's flags for a proof mode and a client count; a bad pair is an error naming it. */
export function modeArgs(mode, threads = 1) {
  const m = PROOF_MODES[mode];
  if (!m) throw new Error(`mode must be one of ${Object.keys(PROOF_MODES).join(', ')}, got "${mode}"`);
  if (!(Number.isInteger(threads) && threads >= 1 && threads <= 64)) throw new Error(`threads must be a whole number in [1, 64], got ${threads}`);
  if (mode === 'lab' && threads !== 1) throw new Error(`threads ${threads}: the lab mode plays one client`);
  return [...m.args, ...(threads > 1 ? ['--threads', String(threads)] : [])];
}

/**
 * RocksDB 7.8's true defaults: the OPTIONS file RocksDB writes when it opens a database with
 * `Options()` (default_options.cc, compiled into `dir`). Only create_if_missing differs.
 */
export function defaultOptionsText(dir) {
  fs.mkdirSync(dir, { recursive: true });
  const exe = path.join(dir, 'default_options');
  execFileSync('g++', ['-std=c++17', '-O1', path.join(here, 'default_options.cc'), '-o', exe, '-lrocksdb', '-lpthread'], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const db = path.join(dir, 'defaults-db');
  fs.rmSync(db, { recursive: true, force: true });
  execFileSync(exe, [db], { stdio: ['ignore', 'inherit', 'inherit'] });
  const file = fs
    .readdirSync(db)
    .filter((f) => /^OPTIONS-\d+$/.test(f))
    .sort()
    .at(-1);
  if (!file) throw new Error(`RocksDB wrote no OPTIONS file into ${db}`);
  const text = fs.readFileSync(path.join(db, file), 'utf8');
  fs.rmSync(db, { recursive: true, force: true });
  return text;
}

/**
 * An OPTIONS file as sections: `[CFOptions "default"]` → Map(key → value), in file order;
 * comments and blank lines are skipped.
 */
export function parseOptions(text) {
  const sections = new Map();
  let current = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const header = /^\[(.*)\]$/.exec(line);
    if (header) {
      current = header[1];
      if (!sections.has(current)) sections.set(current, new Map());
      continue;
    }
    const eq = line.indexOf('=');
    if (current === null || eq < 0) continue;
    sections.get(current).set(line.slice(0, eq).trim(), line.slice(eq + 1).trim());
  }
  return sections;
}

/** `text` with `key=value` in `section`: its line replaced where it has one, else added first in the section (which is created if missing). */
export function setOption(text, section, key, value) {
  const lines = text.split('\n');
  let inSection = false;
  let headerAt = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    const header = /^\[(.*)\]$/.exec(line);
    if (header) {
      inSection = header[1] === section;
      if (inSection) headerAt = i;
      continue;
    }
    if (inSection && !line.startsWith('#') && line.slice(0, line.indexOf('=')).trim() === key) {
      lines[i] = `  ${key}=${value}`;
      return lines.join('\n');
    }
  }
  if (headerAt < 0) return `${text.replace(/\n*$/, '\n')}[${section}]\n  ${key}=${value}\n`;
  lines.splice(headerAt + 1, 0, `  ${key}=${value}`);
  return lines.join('\n');
}

const CF = 'CFOptions "default"';
/** RocksDB 7.8's byte-sized options a scaled case shrinks, with their defaults (used when the file does not set them). */
const SIZED = { write_buffer_size: 64 * MIB, max_bytes_for_level_base: 256 * MIB, target_file_size_base: 64 * MIB };

/** The OPTIONS text with its memtable, level-1 target and file target × `scale` (1: unchanged). */
export function scaleOptions(text, scale) {
  if (scale === 1) return text;
  const cf = parseOptions(text).get(CF) ?? new Map();
  let out = text;
  for (const [key, fallback] of Object.entries(SIZED)) {
    const v = cf.has(key) ? Number(cf.get(key)) : fallback;
    out = setOption(out, CF, key, String(Math.max(1, Math.round(v * scale))));
  }
  return out;
}

/**
 * The recommended OPTIONS file: `currentText` with every option `lsm export` writes differently
 * for the recommended design than for the current one set to the recommended value. Resolves to
 * the text and the changes ({ section, key, from, to }; `from` is the current file's value, or
 * "(default)" when it has none); `notes` names options the exporter wrote for the current design
 * only (left as they were).
 */
export function recommendedOptions(currentText, exportedCurrent, exportedRecommended) {
  const cur = parseOptions(currentText);
  const a = parseOptions(exportedCurrent);
  const b = parseOptions(exportedRecommended);
  let text = currentText;
  const changes = [];
  const notes = [];
  for (const [section, options] of b) {
    if (section === 'Version') continue;
    for (const [key, value] of options) {
      if (a.get(section)?.get(key) === value) continue;
      const from = cur.get(section)?.get(key) ?? '(default)';
      if (from === value) continue;
      text = setOption(text, section, key, value);
      changes.push({ section, key, from, to: value });
    }
  }
  for (const [section, options] of a) {
    for (const key of options.keys()) {
      if (!b.get(section)?.has(key)) notes.push(`${key} (${section}): the export writes it for the current design only; left as the current file has it`);
    }
  }
  return { text, changes, notes };
}

const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const ratio = (a, b) => (b > 0 ? a / b : 0);
/** The referee's lookup and scan classes, as the proof names them. */
const LATENCY_CLASSES = [
  ['writes', 'write'],
  ['existing', 'get'],
  ['missing', 'get (missing)'],
  ['unknown', 'get (unknown)'],
  ['scans', 'scan'],
];

/**
 * The proof's figures of one referee run (its run phase), with `pageBytes` the unit of I/O the
 * tune predicts in:
 * - blocksPerOp: blocks read from storage per operation (data, index and filter: with direct
 *   reads, every block cache miss is a device read), dataBlocksPerOp: data blocks alone;
 * - writtenPerUserByte: bytes written by flushes and compactions per user byte written in the run
 *   phase (in the lab mode the load's last memtable, flushed during the run, and the compactions
 *   it causes count here: with few run writes this overstates the steady state; after a restart
 *   Close flushed it), and writtenPerUserByteAll: the same over the load, the restart and the run
 *   together;
 * - ioPerOp: blocks read + pages written by flush and compaction, per operation (the unit of the
 *   tune's predicted I/O per operation);
 * - opsPerSecond: operations over the run phase's wall time (all clients; in the lab mode the
 *   waits for flushes and compactions after each write that sealed a memtable included);
 * - latency per class (ns: count, mean, p50, p99, max), for the classes the run has;
 * - blockReadUs: RocksDB's own microseconds per block read from storage in this run (perf context
 *   read + checksum + decompression; the proof runs the referee with --time-block-reads on), so a
 *   predicted ops/s can be checked against the device as the run found it, or null if not timed.
 */
export function proofFigures(report, pageBytes) {
  const run = report.run;
  const f = rocksdbFigures(run);
  const lookups = Object.values(run.lookups);
  const ops = run.ops.total;
  const dataBlocks = f.dataBlocksPerLookup * f.lookups + f.dataBlocksPerScan * f.scans;
  const metaBlocks =
    sum(lookups.map((l) => l.index_block_reads + l.filter_block_reads)) + run.scans.index_block_reads + run.scans.filter_block_reads + run.writes.block_reads;
  const written = run.flush.bytes + run.compactions.output_bytes;
  const latency = {};
  for (const [key, name] of LATENCY_CLASSES) {
    const l = (key === 'writes' || key === 'scans' ? run[key] : run.lookups[key]).latency_ns;
    if (l && l.count > 0) latency[name] = l;
  }
  const timedReads = sum([...lookups, run.scans, run.writes].map((c) => (c.block_read_ns > 0 ? c.block_reads : 0)));
  const timedNs = sum([...lookups, run.scans, run.writes].map((c) => c.block_read_ns ?? 0));
  return {
    ops,
    seconds: run.seconds,
    blockReadUs: timedReads > 0 ? timedNs / timedReads / 1000 : null,
    waitSeconds: run.wait_seconds,
    opsPerSecond: ratio(ops, run.seconds),
    blocksPerOp: ratio(dataBlocks + metaBlocks, ops),
    dataBlocksPerOp: ratio(dataBlocks, ops),
    dataBlocksPerLookup: f.dataBlocksPerLookup,
    writtenPerUserByte: f.bytesWrittenPerUserByte,
    writtenPerUserByteAll: ratio(
      written + report.load.flush.bytes + report.load.compactions.output_bytes + (report.between ? report.between.flush.bytes + report.between.compactions.output_bytes : 0),
      run.writes.key_bytes + run.writes.value_bytes + report.load.writes.key_bytes + report.load.writes.value_bytes,
    ),
    bytesWritten: written,
    userBytesWritten: run.writes.key_bytes + run.writes.value_bytes,
    ioPerOp: ratio(dataBlocks + metaBlocks + written / pageBytes, ops),
    cacheHitRate: f.cacheHitRate,
    latency,
    directReads: report.direct_reads,
    levels: (report.tree_after_run?.levels ?? []).filter((l) => l.file_count > 0).map((l) => l.level),
    filterBitsByLevel: filterBitsByLevel(report.tree_after_run),
    filterPolicy: report.options?.filter_policy ?? null,
    // The process model the referee played (background or lab, restart or continue, threads)
    // and the tree as the run began: level 0's file count is what moves a run's cost most.
    process: report.process ? { compactions: report.process.compactions, between: report.process.between, threads: report.process.threads } : null,
    runStart: report.run_start ? { level0_files: report.run_start.level0_files, files_by_level: report.run_start.files_by_level, running_compactions: report.run_start.running_compactions } : null,
    // The run's level 0 as it went (one client): rows [ops, seconds, L0 files, compactions running, flushes running, blocks read so far].
    runSamples: report.run_samples?.rows?.length ? report.run_samples.rows : null,
  };
}

/** Filter bits per key of each level holding files, as RocksDB built them: { level, entries, bitsPerKey }. */
export function filterBitsByLevel(tree) {
  return (tree?.levels ?? [])
    .filter((l) => l.file_count > 0)
    .map((l) => ({ level: l.level, entries: l.entries, bitsPerKey: l.entries > 0 ? ((l.filter_bytes ?? 0) * 8) / l.entries : 0 }));
}

/**
 * The memory a design spends, as RocksDB charges it: memtables (write_buffer_size ×
 * max_write_buffer_number, as the options were opened), the block cache's capacity, and what the
 * table readers hold outside the cache at the run's end (index and filter blocks, measured:
 * rocksdb.estimate-table-readers-mem; zero apart from the reader objects when they live in the
 * cache).
 */
export function memoryOf(report) {
  const o = report.options;
  const memtables = o.write_buffer_size * o.max_write_buffer_number;
  const cache = report.block_cache_bytes;
  const tableReaders = report.run?.memory?.table_readers_bytes ?? 0;
  return { memtables, blockCache: cache, tableReaders, total: memtables + cache + tableReaders };
}

/** The median of the numbers (the mean of the middle two for an even count). */
export function median(xs) {
  const v = [...xs].sort((a, b) => a - b);
  const m = v.length >> 1;
  return v.length % 2 === 1 ? v[m] : (v[m - 1] + v[m]) / 2;
}

/** min, max, mean and median of the numbers. */
export function spread(xs) {
  return { min: Math.min(...xs), max: Math.max(...xs), mean: sum(xs) / xs.length, median: median(xs) };
}

/**
 * The gain of `after` over `before` for a figure where less is better (`lowerIsBetter`) or more
 * is (ops/s), from each side's repeats: the gain of the means, and its range over the repeats'
 * extremes (the noise). `change` is false when the range holds 0: the difference is inside the
 * noise.
 */
export function gainOf(before, after, lowerIsBetter = true) {
  const b = spread(before);
  const a = spread(after);
  const g = (x, y) => (lowerIsBetter ? (x > 0 ? 1 - y / x : 0) : x > 0 ? y / x - 1 : 0);
  const gain = g(b.mean, a.mean);
  const lo = lowerIsBetter ? g(b.min, a.max) : g(b.max, a.min);
  const hi = lowerIsBetter ? g(b.max, a.min) : g(b.min, a.max);
  return { gain, lo, hi, change: !(lo <= 0 && hi >= 0), pairs: pairGains(before, after, g) };
}

/**
 * The gain of each pair (the i-th run of each design, played one after the other: the closest
 * in time, so the machine's drift between them is least), and their median and range.
 */
function pairGains(before, after, g) {
  const values = before.slice(0, Math.min(before.length, after.length)).map((x, i) => g(x, after[i]));
  const s = spread(values);
  return { values, median: s.median, min: s.min, max: s.max };
}

function lsm(args, what) {
  const r = spawnSync(LSM, args, { encoding: 'utf8', maxBuffer: 256 << 20 });
  if (r.status !== 0) throw new Error(`${what ?? `lsm ${args.join(' ')}`} failed:\n${r.stderr}`);
  return r;
}

/** `lsm export --format rocksdb` of an EngineConfig file: its text and its warnings. */
function exportRocksdb(configFile, workloadFile) {
  const r = lsm(['export', '--design', configFile, '--format', 'rocksdb', '--workload', workloadFile]);
  return { text: r.stdout, warnings: r.stderr.split('\n').filter((l) => l.startsWith('warning:')).map((l) => l.slice(9).trim()) };
}

/**
 * One case: the OPTIONS text `currentText` (sizes already as they should run), a block cache of
 * `blockCacheBytes` for the current design, workload `workload` (ycsb:a … or a file) at
 * `records` / `operations` (a YCSB file played by `ycsbClient`: engine, cpp or java), `repeats` runs per design alternating. Files go under `dir`.
 */
export async function runProof({ driver, dir, currentText, blockCacheBytes = DEFAULT_BLOCK_CACHE, workload, ycsbClient = 'engine', records, operations, repeats = 3, mode = 'user', threads = 1, calibration = null, plugin = null, log = () => {} }) {
  const processArgs = modeArgs(mode, threads);
  fs.mkdirSync(dir, { recursive: true });
  const file = (name, text) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, text);
    return p;
  };
  const currentOptions = file('current.OPTIONS', currentText);
  const imported = lsm(['import', '--rocksdb', currentOptions]);
  // The cache's size is set below (both sides use blockCacheBytes), so the importer's guess at it is moot.
  const importNotes = imported.stderr
    .split('\n')
    .filter((l) => l.startsWith('warning:') && !l.includes(' block_cache.bytes:'))
    .map((l) => l.slice(9).trim());
  const notModelled = imported.stderr.split('\n').filter((l) => l.startsWith('unknown key')).length;
  const config = JSON.parse(imported.stdout);
  config.block_cache = { ...(config.block_cache ?? {}), bytes: blockCacheBytes };
  const currentConfig = file('current.engine.json', `${JSON.stringify(config, null, 2)}\n`);

  const t0 = Date.now();
  // The tune prices the run under the process the referee plays (a restart in the user mode, one process in the lab's).
  const processFlags = ['--process', PROOF_MODES[mode].between, '--threads', String(threads)];
  const tuned = lsm(['tune', '--config', currentConfig, '--workload', workload, '--records', String(records), '--operations', String(operations), '--ycsb-client', ycsbClient, '--target', 'rocksdb', ...processFlags, ...(plugin ? ['--plugin', plugin] : [])]);
  const tuneMs = Date.now() - t0;
  const t = JSON.parse(tuned.stdout);
  // A gain inside the model's error says "keep your design": then nothing changes.
  const keep = t.verdict?.keep === true;
  const rec = keep ? t.current : t[t.recommended];
  const workloadFile = file('workload.json', `${JSON.stringify(t.workload)}\n`);
  const recommendedConfig = file('recommended.engine.json', `${JSON.stringify(rec.config, null, 2)}\n`);
  const pricedCurrent = file('current.priced.engine.json', `${JSON.stringify(t.current.config, null, 2)}\n`);
  const exportedCurrent = exportRocksdb(pricedCurrent, workloadFile);
  const exportedRecommended = exportRocksdb(recommendedConfig, workloadFile);
  const recommended = recommendedOptions(currentText, exportedCurrent.text, exportedRecommended.text);
  const recommendedOptionsFile = file('recommended.OPTIONS', recommended.text);
  const cache = { current: blockCacheBytes, recommended: rec.config.block_cache?.bytes ?? 0 };
  // The referee sizes the cache by flag (an OPTIONS file cannot carry a cache); say it changed once.
  if (cache.recommended !== cache.current && !recommended.changes.some((x) => x.key === 'block_cache')) {
    recommended.changes.push({ section: 'block cache', key: 'block_cache capacity', from: String(cache.current), to: String(cache.recommended) });
  }

  // A recommendation that needs the per-level policy runs with it: a referee built with its policy.h.
  const needsPlugin = !keep && t.plugin ? t.plugin : null;
  const drivers = { current: driver, recommended: driver };
  if (needsPlugin) {
    const policyDir = path.join(dir, 'policy');
    fs.mkdirSync(policyDir, { recursive: true });
    fs.writeFileSync(path.join(policyDir, 'policy.h'), lsm(['export', '--design', recommendedConfig, '--format', 'rocksdb-cpp', '--workload', workloadFile]).stdout);
    drivers.recommended = buildReferee(path.join(dir, 'referee-with-policy'), { policyDir });
    recommended.changes.push({ section: 'C++ plugin', key: 'filter_policy', from: 'the OPTIONS file\'s', to: `${needsPlugin.policy} (policy.h)` });
  }
  const runs = { current: [], recommended: [] };
  const options = { current: currentOptions, recommended: recommendedOptionsFile };
  for (let i = 0; i < repeats; i++) {
    for (const design of ['current', 'recommended']) {
      const t1 = Date.now();
      const dbDir = path.join(dir, `db-${design}-${i}`);
      const filterPlugin = design === 'recommended' && needsPlugin !== null;
      const report = await playOnRocksdb({
        driver: drivers[design],
        workload: workloadFile,
        optionsFile: options[design],
        blockCacheBytes: cache[design],
        filterPlugin,
        dbDir,
        extraArgs: [...processArgs, '--time-block-reads', 'on'],
      });
      fs.rmSync(dbDir, { recursive: true, force: true });
      const figures = proofFigures(report, config.page_bytes ?? 4096);
      figures.memory = memoryOf(report);
      figures.refereeNotes = report.notes ?? [];
      runs[design].push(figures);
      log(
        `  ${mode} ${design} #${i + 1}: ${figures.ops} operations in ${figures.seconds.toFixed(1)} s, ${figures.blocksPerOp.toFixed(4)} blocks/op, ` +
          `run began with ${figures.runStart?.level0_files ?? '?'} L0 files (${((Date.now() - t1) / 1000).toFixed(1)} s with the load)`,
      );
    }
  }
  const of = (design, key) => runs[design].map((r) => r[key]);
  const predicted = { current: t.current.prediction.expected, recommended: rec.prediction.expected };
  // The process model's range (a restart: level 0 at open and the open compaction's duration), or null (one process).
  const scenarios = (p) => (p.prediction.process ? { range: p.prediction.process.range, expected: p.prediction.process.expected, level0AtOpen: p.prediction.process.level0_at_open, openCompactionOps: p.prediction.process.open_compaction_ops } : null);
  predicted.process = { current: scenarios(t.current), recommended: scenarios(rec), gainRange: keep ? [0, 0] : (t.predicted_gain_range ?? t.rocksdb?.predicted_gain_range ?? null) };
  // Time as well as pages: each design's prediction priced on the calibrated device (`lsm predict --calibration`).
  if (calibration) {
    const calibrationFile = file('calibration.json', `${JSON.stringify(calibration, null, 2)}\n`);
    const timeOf = (config) => JSON.parse(lsm(['predict', '--config', config, '--workload', workloadFile, '--calibration', calibrationFile, ...processFlags]).stdout).time;
    predicted.time = { current: timeOf(pricedCurrent), recommended: timeOf(recommendedConfig), pageReadUs: calibration.page_read_us };
    // The device drifts on a shared machine: priced again at the read cost RocksDB itself timed in
    // these runs, a predicted ops/s separates the model's error from the device's.
    const runReadUs = [...runs.current, ...runs.recommended].map((r) => r.blockReadUs).filter((x) => x > 0);
    if (runReadUs.length > 0) {
      const pageReadUs = spread(runReadUs).mean;
      const atRun = file('calibration.run-read-price.json', `${JSON.stringify({ ...calibration, page_read_us: pageReadUs }, null, 2)}\n`);
      const timeAt = (config) => JSON.parse(lsm(['predict', '--config', config, '--workload', workloadFile, '--calibration', atRun, ...processFlags]).stdout).time;
      predicted.timeAtRunReadPrice = { current: timeAt(pricedCurrent), recommended: timeAt(recommendedConfig), pageReadUs };
    }
  }
  const steadyOf = (p) => (p.steady ? { expected: p.steady.expected, writeAmp: p.steady.write_amp, spaceAmp: p.steady.space_amp, writeAmpReplayed: p.steady.write_amp_replayed } : null);
  return {
    workload: t.workload.name || workload,
    records,
    operations,
    repeats,
    mode,
    process: { compactions: PROOF_MODES[mode].compactions, between: PROOF_MODES[mode].between, threads },
    tunedInMs: tuneMs,
    memoryTuned: t.memory_bytes,
    summary: { current: t.current.summary, recommended: rec.summary },
    verdict: t.verdict ?? null,
    pluginAllowed: plugin,
    plugin: needsPlugin,
    tuneChanges: keep ? [] : (t.changes ?? []),
    memoryBudget: t.memory_bytes,
    changes: recommended.changes,
    notes: {
      import: importNotes,
      notModelledKept: notModelled,
      export: exportedRecommended.warnings,
      overlay: recommended.notes,
    },
    predicted: { ...predicted, gain: keep ? 0 : t.predicted_gain, steadyGain: keep ? 0 : (t.steady_gain ?? t.predicted_gain), steady: { current: steadyOf(t.current), recommended: steadyOf(rec) }, twin: { current: t.current.prediction.twin ?? null, recommended: rec.prediction.twin ?? null } },
    runs,
    blocksPerOp: { current: spread(of('current', 'blocksPerOp')), recommended: spread(of('recommended', 'blocksPerOp')) },
    gains: {
      ioPerOp: gainOf(of('current', 'ioPerOp'), of('recommended', 'ioPerOp')),
      blocksPerOp: gainOf(of('current', 'blocksPerOp'), of('recommended', 'blocksPerOp')),
      dataBlocksPerOp: gainOf(of('current', 'dataBlocksPerOp'), of('recommended', 'dataBlocksPerOp')),
      writtenPerUserByte: gainOf(of('current', 'writtenPerUserByte'), of('recommended', 'writtenPerUserByte')),
      writtenPerUserByteAll: gainOf(of('current', 'writtenPerUserByteAll'), of('recommended', 'writtenPerUserByteAll')),
      opsPerSecond: gainOf(of('current', 'opsPerSecond'), of('recommended', 'opsPerSecond'), false),
    },
    files: { current: currentOptions, recommended: recommendedOptionsFile, recommendedText: recommended.text },
  };
}

const pct = (x) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;
const mib = (b) => `${(b / MIB).toFixed(1)}`;
const range = (xs, digits) => {
  const s = spread(xs);
  return s.min === s.max ? s.mean.toFixed(digits) : `${s.mean.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;
};
/** "median [min–max]" of the numbers (the median alone when they are all equal). */
const medianRange = (xs, digits) => {
  const s = spread(xs);
  return s.min === s.max ? s.median.toFixed(digits) : `${s.median.toFixed(digits)} [${s.min.toFixed(digits)}–${s.max.toFixed(digits)}]`;
};
const us = (ns) => (ns >= 10_000 ? (ns / 1000).toFixed(0) : (ns / 1000).toFixed(1));

/** A gain in words: its value and range, and "no change" when the range holds 0. */
export function gainText(g) {
  const r = g.lo === g.hi ? '' : ` [${pct(g.lo)}…${pct(g.hi)}]`;
  return `${pct(g.gain)}${r}${g.change ? '' : ' no change (inside the noise)'}`;
}

/** The table lines of one case. */
export function proofLines(c) {
  const lines = [];
  const proc = c.process ?? { compactions: 'synchronous', between: 'continue', threads: 1 };
  lines.push(
    `${c.workload} · ${c.records.toLocaleString('en-US')} records, ${c.operations.toLocaleString('en-US')} operations, ${c.repeats} runs per design (tuned in ${c.tunedInMs} ms)` +
      ` · ${c.mode ?? 'lab'} mode: ${proc.compactions} compactions, ${proc.between} between load and run, ${proc.threads} client thread${proc.threads === 1 ? '' : 's'}`,
  );
  lines.push(`  current:     ${c.summary.current}`);
  lines.push(`  recommended: ${c.summary.recommended}`);
  if (c.verdict) lines.push(`  verdict: ${c.verdict.words}`);
  if (c.plugin) lines.push(`  plugin: ${c.plugin.policy} from policy.h, bits/key by level as exported: ${c.plugin.bits_by_level.map((b, i) => `L${i} ${b}`).join(', ')}`);
  else if (c.pluginAllowed) lines.push(`  plugin ${c.pluginAllowed} allowed, not needed: the recommendation runs from its OPTIONS file alone`);
  for (const x of c.tuneChanges ?? []) lines.push(`    ${x.option}: ${x.from} → ${x.to} (${(100 * x.share).toFixed(1)}% of the gain) — ${x.reason}`);
  const st = c.predicted.steady;
  if (st?.current && st?.recommended) {
    lines.push(
      `  predicted steady state: write amplification ${st.current.writeAmp.toFixed(2)} → ${st.recommended.writeAmp.toFixed(2)}, space amplification ${st.current.spaceAmp.toFixed(2)} → ${st.recommended.spaceAmp.toFixed(2)}; replayed written per user byte (load + run) ${st.current.writeAmpReplayed.toFixed(3)} → ${st.recommended.writeAmpReplayed.toFixed(3)}`,
    );
  }
  lines.push(`  OPTIONS changed: ${c.changes.length ? c.changes.map((x) => `${x.key} ${x.from} → ${x.to}`).join(', ') : 'none'}`);
  for (const n of c.notes.import) lines.push(`  the tune's model of the current file: ${n}`);
  if (c.notes.notModelledKept > 0) lines.push(`  ${c.notes.notModelledKept} options the tune does not model are kept as the current file has them`);
  for (const n of c.notes.export) lines.push(`  export cannot express: ${n}`);
  for (const n of c.notes.overlay) lines.push(`  note: ${n}`);
  const header = `  ${'design'.padEnd(12)} ${'memory MiB (memtables + cache + index/filter)'.padEnd(46)} ${'pred I/O/op'.padStart(11)} ${'meas I/O/op'.padStart(11)} ${'blocks/op median [min–max]'.padStart(26)} ${'data blk/op'.padStart(11)} ${'written/user B run, all'.padStart(23)}  ${'ops/s'.padEnd(22)} latency µs p50/p99`;
  lines.push(header);
  for (const design of ['current', 'recommended']) {
    const runs = c.runs[design];
    const m = runs[0].memory;
    const mem = `${mib(m.total)} = ${mib(m.memtables)} + ${mib(m.blockCache)} + ${mib(m.tableReaders)}`;
    const classes = Object.keys(runs[0].latency);
    const lat = classes
      .map((k) => {
        const p50 = spread(runs.map((r) => r.latency[k]?.p50 ?? 0)).mean;
        const p99 = spread(runs.map((r) => r.latency[k]?.p99 ?? 0)).mean;
        return `${k} ${us(p50)}/${us(p99)}`;
      })
      .join(', ');
    lines.push(
      `  ${design.padEnd(12)} ${mem.padEnd(46)} ${c.predicted[design].toFixed(4).padStart(11)} ${range(runs.map((r) => r.ioPerOp), 4).padStart(11)} ${medianRange(runs.map((r) => r.blocksPerOp), 4).padStart(26)} ${range(runs.map((r) => r.dataBlocksPerOp), 4).padStart(11)} ${`${range(runs.map((r) => r.writtenPerUserByte), 3)}, ${range(runs.map((r) => r.writtenPerUserByteAll), 3)}`.padStart(23)}  ${range(runs.map((r) => r.opsPerSecond), 0).padEnd(22)} ${lat}`,
    );
  }
  const pp = c.predicted.process;
  if (pp?.current) {
    const f4 = (x) => x.toFixed(4);
    const one = (d) => {
      const m = spread(c.runs[d].map((r) => r.ioPerOp));
      const p = pp[d];
      return `${d} predicted ${f4(c.predicted[d])} [${f4(p.range[0])}–${f4(p.range[1])}] (L0 at open ${p.level0AtOpen.join('/')}, open compaction ${p.openCompactionOps.map((x) => x.toFixed(0)).join('/')} ops) measured ${f4(m.median)} [${f4(m.min)}–${f4(m.max)}]`;
    };
    lines.push(`  process model (restart; scenarios low/point/high), I/O per op: ${one('current')}; ${one('recommended')}`);
    if (pp.gainRange) lines.push(`  gain predicted ${pct(c.predicted.gain)} [${pct(pp.gainRange[0])}…${pct(pp.gainRange[1])}], measured per pair ${pct(c.gains.blocksPerOp.pairs?.median ?? c.gains.blocksPerOp.gain)} [${pct(c.gains.blocksPerOp.pairs?.min ?? 0)}…${pct(c.gains.blocksPerOp.pairs?.max ?? 0)}]`);
  }
  if (c.runs.current.some((r) => r.runStart)) {
    const l0 = (d) => c.runs[d].map((r) => r.runStart?.level0_files ?? '?').join(', ');
    lines.push(`  level-0 files as each run began: current ${l0('current')}; recommended ${l0('recommended')}`);
  }
  for (const design of ['current', 'recommended']) {
    const built = c.runs[design][0].filterBitsByLevel ?? [];
    if (built.length > 0) lines.push(`  filter bits/key as RocksDB built them (${design}, ${c.runs[design][0].filterPolicy}): ${built.map((l) => `L${l.level} ${l.bitsPerKey.toFixed(2)}`).join(', ')}`);
  }
  const pairs = c.gains.blocksPerOp.pairs;
  if (pairs) {
    lines.push(
      `  blocks read per op, gain per pair (current i against recommended i): median ${pct(pairs.median)} [${pct(pairs.min)}…${pct(pairs.max)}] over ${pairs.values.length} pairs (${pairs.values.map(pct).join(', ')})`,
    );
  }
  lines.push(
    `  gain: predicted ${pct(c.predicted.gain)} · measured I/O per op ${gainText(c.gains.ioPerOp)} · blocks read per op ${gainText(c.gains.blocksPerOp)} · written per user byte ${c.runs.current[0].userBytesWritten > 0 ? gainText(c.gains.writtenPerUserByte) : '— (the run writes nothing)'} (load + run ${gainText(c.gains.writtenPerUserByteAll)}) · ops/s ${gainText(c.gains.opsPerSecond)}`,
  );
  const time = c.predicted.time;
  if (time) {
    const measured = (d) => spread(c.runs[d].map((r) => r.opsPerSecond)).mean;
    lines.push(
      `  ops/s predicted on the calibrated device: current ${time.current.ops_per_sec.toFixed(0)} (measured ${measured('current').toFixed(0)}), recommended ${time.recommended.ops_per_sec.toFixed(0)} (measured ${measured('recommended').toFixed(0)}); gain predicted ${pct(time.recommended.ops_per_sec / time.current.ops_per_sec - 1)}`,
    );
    const readUs = [...c.runs.current, ...c.runs.recommended].map((r) => r.blockReadUs).filter((x) => x > 0);
    const atRun = c.predicted.timeAtRunReadPrice;
    if (readUs.length > 0 && time.pageReadUs > 0 && atRun) {
      const s = spread(readUs);
      lines.push(
        `  a block read from storage cost RocksDB ${s.min.toFixed(1)}–${s.max.toFixed(1)} µs in these runs (its perf timers) against ${time.pageReadUs.toFixed(1)} µs at calibration; ` +
          `priced at ${atRun.pageReadUs.toFixed(1)} µs: current ${atRun.current.ops_per_sec.toFixed(0)}, recommended ${atRun.recommended.ops_per_sec.toFixed(0)} ops/s predicted`,
      );
    }
  }
  if (c.runs.current.some((r) => !r.directReads) || c.runs.recommended.some((r) => !r.directReads)) {
    lines.push('  WARNING: the filesystem refused direct reads: blocks "read from storage" may have come from the OS page cache');
  }
  return lines;
}

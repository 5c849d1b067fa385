/**
 * The Tune page's controls in its URL (`#/tune?v=1&d=rocksdb&w=b&n=100000&ops=100000&t=engine&rho=0.5`):
 * where you are (a system's design, a YCSB core workload and its size) and how robust to be.
 * An imported OPTIONS file is the "custom" design (a link cannot carry it). An imported YCSB file,
 * Workload JSON or fitted trace is the "custom" workload: its numbers go into the lab's workload
 * fields, where the user can override any of them, and the link carries them.
 */
import type { EngineConfig } from '../engine';
import { hashFor } from '../routes';
import { defineUrlState, encodeQuery } from '../url/codec';
import { booleanParam, defaultsOf, enumParam, numberParam, type StateOf } from '../url/params';
import { YCSB_CORE } from '../ycsb';
import { labParams } from './lab';
import { configToState, stateToConfig, stateToWorkload, workloadProblems, workloadToState, type WorkloadFields } from './labDocuments';
import type { Workload } from '../engine';

export const CUSTOM_DESIGN = 'custom';
/** The largest memory budget the tuner takes: 2^50 bytes. */
export const MAX_MEMORY_MIB = 1_073_741_824;
export const CUSTOM_WORKLOAD = 'custom';
/** The design came in the link ("Tune for this" on a model page), in the lab's design fields. */
export const LINKED_DESIGN = 'link';

export const tuneParams = {
  design: enumParam({
    key: 'd',
    label: 'current design',
    default: 'rocksdb',
    options: [
      { value: 'rocksdb', label: 'RocksDB defaults' },
      { value: 'leveldb', label: 'LevelDB' },
      { value: 'cassandra', label: 'Cassandra' },
      { value: 'hbase', label: 'HBase' },
      { value: 'accumulo', label: 'Accumulo' },
      { value: 'tiering', label: 'Tiering' },
      { value: CUSTOM_DESIGN, label: 'Your OPTIONS (imported)', help: 'The RocksDB OPTIONS file you imported.' },
      { value: LINKED_DESIGN, label: 'Your design (from the link)', help: 'The design of the page you came from, carried in the link.' },
    ],
  }),
  // The linked design, in the lab's own fields and keys (read only when design = link).
  pageBytes: labParams.pageBytes,
  bufferKiB: labParams.bufferKiB,
  sizeRatios: labParams.sizeRatios,
  maxRuns: labParams.maxRuns,
  allocation: labParams.allocation,
  bits: labParams.bits,
  levelBits: labParams.levelBits,
  granularity: labParams.granularity,
  fileKiB: labParams.fileKiB,
  workload: enumParam({
    key: 'w',
    label: 'workload',
    default: 'b',
    options: [...YCSB_CORE.map((w) => ({ value: w.letter, label: `YCSB ${w.label}`, help: `YCSB core workload ${w.letter.toUpperCase()}: ${w.detail}.` })), { value: CUSTOM_WORKLOAD, label: 'Your workload (imported)', help: 'A YCSB properties file, a Workload JSON or a fitted trace; its numbers are below, and in the link.' }],
  }),
  records: numberParam({ key: 'n', label: 'records', unit: 'records', default: 200_000, min: 0, max: 100_000_000, integer: true, help: 'YCSB recordcount: the preload.' }),
  operations: numberParam({ key: 'ops', label: 'operations', unit: 'ops', default: 100_000, min: 0, max: 100_000_000, integer: true, help: 'YCSB operationcount: the measured run.' }),
  // Your workload (read only when workload = custom), in the lab's own fields and keys; its
  // preload and operations are `records` and `operations` above.
  getMissing: labParams.getMissing,
  getExisting: labParams.getExisting,
  range: labParams.range,
  insert: labParams.insert,
  update: labParams.update,
  remove: labParams.remove,
  distribution: labParams.distribution,
  theta: labParams.theta,
  hotFraction: labParams.hotFraction,
  hotProbability: labParams.hotProbability,
  selectivity: labParams.selectivity,
  keyBytes: labParams.keyBytes,
  valueBytes: labParams.valueBytes,
  keySpace: labParams.keySpace,
  seed: labParams.seed,
  target: enumParam({
    key: 't',
    label: 'recommend for',
    // RocksDB: the store the default design (RocksDB 7.8's true defaults) and an imported OPTIONS file run on.
    default: 'rocksdb',
    options: [
      { value: 'engine', label: 'the engine (any policy, Monkey filters)' },
      { value: 'rocksdb', label: 'RocksDB (its shape: buffer, multiplier, bits/key)' },
    ],
  }),
  rho: numberParam({ key: 'rho', label: 'robustness', symbol: 'ρ', default: 0, min: 0, max: 4, step: 0.05, help: 'KL-divergence radius of the workloads to guard against (Endure); 0 tunes for the expected workload only.' }),
  memory: numberParam({
    key: 'mem',
    label: 'memory budget',
    unit: 'MiB',
    default: 0,
    min: 0,
    max: MAX_MEMORY_MIB,
    help: 'The memory every design must fit; 0: what the current design uses. RocksDB: memtables, block cache, and index and filter blocks outside it; the engine: buffer and filters.',
  }),
  rank: enumParam({
    key: 'rank',
    label: 'rank by',
    default: 'io',
    options: [
      { value: 'io', label: 'I/O per operation' },
      { value: 'time', label: 'predicted time on this device', help: 'Each design priced in µs per operation on this device, once it is calibrated (Time on this device).' },
    ],
  }),
  plugin: booleanParam({
    key: 'plugin',
    label: 'Allow a C++ filter plugin (per-level bits)',
    default: false,
    help: 'RocksDB target: let the search give each level its own filter bits (Monkey’s split) through the shipped C++ policy, policy.h, which you then build into your application. The recommendation says when it needs it; off, only what an OPTIONS file can say.',
  }),
};

/** Why the memory budget (MiB) cannot be tuned for, or null: 0 (the current design's) or 1 MiB to 2^30 MiB (2^50 bytes, the tuner's range). */
export function memoryBudgetProblem(mib: number): string | null {
  return mib > 0 && mib < 1 ? `memory budget must be 0 (what the current design uses) or between 1 and ${MAX_MEMORY_MIB} MiB, got ${mib}` : null;
}

export type TuneSchema = typeof tuneParams;
export type TuneState = StateOf<TuneSchema>;

export const tuneUrl = defineUrlState({
  page: 'tune',
  version: 1,
  params: tuneParams,
  presets: [
    { id: 'rocks-b', label: 'RocksDB defaults, YCSB B', values: { design: 'rocksdb', workload: 'b', rho: 0 } },
    { id: 'rocks-a-robust', label: 'RocksDB defaults, YCSB A, robust ρ = 0.5', values: { design: 'rocksdb', workload: 'a', rho: 0.5 } },
    { id: 'leveldb-e', label: 'LevelDB, YCSB E', values: { design: 'leveldb', workload: 'e', rho: 0 } },
  ],
});

/** The linked design as an EngineConfig: the lab's reading of the same fields. */
export function linkedDesign(s: TuneState): EngineConfig {
  const { pageBytes, bufferKiB, sizeRatios, maxRuns, allocation, bits, levelBits, granularity, fileKiB } = s;
  return stateToConfig({ ...defaultsOf(labParams), pageBytes, bufferKiB, sizeRatios, maxRuns, allocation, bits, levelBits, granularity, fileKiB });
}

/** "Tune for this": the Tune page starting from `config` and, given one, `workload` (as your workload). */
export function tuneLink(config: EngineConfig, workload?: Workload): string {
  const d = configToState(config);
  const state: TuneState = {
    ...defaultsOf(tuneParams),
    design: LINKED_DESIGN,
    ...Object.fromEntries(Object.entries(d).filter(([k]) => k in tuneParams)),
    ...(workload ? customWorkloadState(workload) : {}),
  };
  return hashFor('tune', encodeQuery(tuneUrl, state));
}

/** The custom workload's fields, with the preload and operations from `records` and `operations`. */
function workloadFields(s: TuneState): WorkloadFields {
  const { records, operations, seed, keySpace, keyBytes, valueBytes, insert, update, remove, getExisting, getMissing, range, distribution, theta, hotFraction, hotProbability, selectivity } = s;
  return { preload: records, operations, seed, keySpace, keyBytes, valueBytes, insert, update, remove, getExisting, getMissing, range, distribution, theta, hotFraction, hotProbability, selectivity };
}

/** The custom workload as a Workload document: the lab's reading of the same fields. */
export function customWorkload(s: TuneState, name?: string): Workload {
  return stateToWorkload({ ...defaultsOf(labParams), ...workloadFields(s) }, name);
}

/** Why the custom workload's fields cannot run (empty when they can); messages name the field. */
export function customWorkloadProblems(s: TuneState): string[] {
  return workloadProblems(workloadFields(s));
}

/** The URL fields that hold `w` as the custom workload (an import, or "reset to the import"). */
export function customWorkloadState(w: Workload): Partial<TuneState> {
  const { preload, operations, ...rest } = { ...defaultsOf(labParams), ...workloadToState(w) };
  const fields = Object.fromEntries(Object.entries(rest).filter(([k]) => k in tuneParams && !(k in designFields)));
  return { ...fields, workload: CUSTOM_WORKLOAD, records: preload, operations };
}

/** Lab fields the Tune page reads as the linked design, not the workload. */
const designFields = { pageBytes: 1, bufferKiB: 1, sizeRatios: 1, maxRuns: 1, allocation: 1, bits: 1, levelBits: 1, granularity: 1, fileKiB: 1, tab: 1 };

/**
 * The lab's controls ⇄ the engine's documents (EngineConfig, Workload). Pure, so the round trips
 * are unit-tested: a design from any page or preset becomes lab controls, and the controls become
 * exactly the documents the engine (and the native CLI) run.
 */
import { encodeQuery } from '../url/codec';
import { defaultsOf } from '../url/params';
import { hashFor } from '../routes';
import type { EngineConfig, LevelConfig, Workload } from '../engine';
import { labParams, labUrl, type LabState } from './lab';

const KIB = 1024;

/** Per-level lists repeat their last value (as the engine does); the design has as many level specs as the longest list. */
function levelSpecs(s: LabState): LevelConfig[] {
  const explicit = s.allocation === 'explicit';
  const count = Math.max(s.sizeRatios.length, s.maxRuns.length, explicit ? s.levelBits.length : 1);
  const at = (list: readonly number[], i: number) => list[Math.min(i, list.length - 1)];
  return Array.from({ length: count }, (_, i) => {
    const level: LevelConfig = { size_ratio: at(s.sizeRatios, i), max_runs: at(s.maxRuns, i) };
    if (explicit) level.bits_per_key = at(s.levelBits, i);
    return level;
  });
}

/** A short, readable name for a design: "leveling, T = 4, monkey 5 bits/key". */
export function designName(s: LabState): string {
  // From the level specs, not the raw lists, so a design and its EngineConfig read back share a name.
  const levels = levelSpecs(s);
  const t = levels.map((l) => Number(l.size_ratio.toPrecision(4))).join('/');
  const k = levels.map((l) => l.max_runs).join('/');
  const shape = levels.every((l) => l.max_runs === 1) ? `leveling, T = ${t}` : `T = ${t}, K = ${k}`;
  const allocation = s.allocation === 'monkey' && s.monkeyPolicy === 'reoptimised' ? 'monkey re-optimised' : s.allocation;
  const filters = s.allocation === 'explicit' ? `bits ${levels.map((l) => l.bits_per_key).join('/')}` : `${allocation} ${s.bits} bits/key`;
  return `${shape}, ${filters}${s.granularity === 'file' ? ', merges by file' : ''}`;
}

export function stateToConfig(s: LabState): EngineConfig {
  const config: EngineConfig = {
    kind: 'lsm-navigator/engine-config',
    version: 1,
    name: designName(s),
    page_bytes: s.pageBytes,
    buffer_bytes: Math.round(s.bufferKiB * KIB),
    levels: levelSpecs(s),
    filter: { allocation: s.allocation, bits_per_key: s.bits },
  };
  if (s.allocation === 'monkey' && s.monkeyPolicy === 'reoptimised') {
    config.filter.monkey_policy = 'reoptimised';
    if (s.rebuildPayback !== 1) config.filter.rebuild_payback = s.rebuildPayback;
  }
  if (s.filterKind === 'modular' || s.skip !== 'none') {
    config.filter.kind = s.filterKind;
    config.filter.modules = s.modules;
    config.filter.skip = s.skip;
  }
  if (s.granularity === 'file') config.compaction = { granularity: 'file', target_file_bytes: Math.round(s.fileKiB * KIB) };
  // A cache under half a byte is no cache: say so by leaving it out, as a config read back does.
  const cacheBytes = Math.round(s.cacheKiB * KIB);
  if (cacheBytes > 0) {
    config.block_cache = { bytes: cacheBytes, cache_index_and_filter_blocks: s.cacheMeta, high_priority_ratio: s.highPriority };
  }
  if (s.window !== 64) config.statistics_window = s.window;
  return config;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/**
 * The lab controls that describe `config` (other controls untouched). Values the controls cannot
 * hold exactly (e.g. a page size outside their range) are clamped; `configNotes` says which.
 */
export function configToState(config: EngineConfig): Partial<LabState> {
  const levels = config.levels.length > 0 ? config.levels : [{ size_ratio: 10, max_runs: 1 }];
  const out: Partial<LabState> = {
    pageBytes: clamp(Math.round(config.page_bytes), labParams.pageBytes.min, labParams.pageBytes.max),
    bufferKiB: clamp(config.buffer_bytes / KIB, labParams.bufferKiB.min, labParams.bufferKiB.max),
    sizeRatios: levels.map((l) => l.size_ratio),
    maxRuns: levels.map((l) => l.max_runs),
    allocation: config.filter.allocation,
    bits: clamp(config.filter.bits_per_key, 0, 64),
    monkeyPolicy: config.filter.monkey_policy ?? 'at_birth',
    rebuildPayback: clamp(config.filter.rebuild_payback ?? 1, labParams.rebuildPayback.min, labParams.rebuildPayback.max),
    // The lab builds textbook Bloom or modular filters; RocksDB's kinds (FastLocalBloom, Ribbon)
    // arrive as Bloom filters of the same bits per key.
    filterKind: config.filter.kind === 'modular' ? 'modular' : 'bloom',
    modules: config.filter.modules ?? 1,
    skip: config.filter.skip ?? 'none',
    granularity: config.compaction?.granularity ?? 'level',
    cacheKiB: (config.block_cache?.bytes ?? 0) / KIB,
    cacheMeta: config.block_cache?.cache_index_and_filter_blocks ?? false,
    highPriority: config.block_cache?.high_priority_ratio ?? 0,
    window: config.statistics_window ?? 64,
  };
  if (config.compaction?.target_file_bytes) out.fileKiB = config.compaction.target_file_bytes / KIB;
  if (config.filter.allocation === 'explicit') out.levelBits = levels.map((l) => l.bits_per_key ?? 0);
  return out;
}

export function stateToWorkload(s: LabState, name?: string): Workload {
  const distribution: Workload['distribution'] =
    s.distribution === 'zipf' || s.distribution === 'latest'
      ? { kind: s.distribution, theta: s.theta }
      : s.distribution === 'hotspot'
        ? { kind: 'hotspot', hot_fraction: s.hotFraction, hot_probability: s.hotProbability }
        : { kind: 'uniform' };
  const mix: Workload['mix'] = {};
  const parts: [keyof Workload['mix'], number][] = [
    ['insert', s.insert],
    ['update', s.update],
    ['delete', s.remove],
    ['get_existing', s.getExisting],
    ['get_missing', s.getMissing],
    ['range', s.range],
  ];
  for (const [k, v] of parts) if (v > 0) mix[k] = v;
  const w: Workload = {
    kind: 'lsm-navigator/workload',
    version: 1,
    name: name ?? workloadName(s),
    seed: s.seed,
    preload: { entries: s.preload, key_space: s.keySpace, key_bytes: s.keyBytes, value_bytes: s.valueBytes },
    operations: s.operations,
    mix,
    distribution,
  };
  if (s.range > 0) w.range_selectivity = s.selectivity;
  return w;
}

export function workloadToState(w: Workload): Partial<LabState> {
  const d = w.distribution;
  // The controls hold the engine's own generator; a workload played as a YCSB client plays it
  // (keys, rows, scrambled Zipfian, read-modify-write) runs from the CLI (lsm run --workload).
  const cannot = (field: string, what: string) =>
    new Error(`${field}: ${what}; the page's controls hold the engine's generator only — run this workload with lsm run --workload FILE`);
  if (w.ycsb) throw cannot('ycsb', `this workload is played as ${w.ycsb.client === 'java' ? 'YCSB (Java)' : 'YCSB-cpp'} plays it`);
  if (d.kind === 'scrambled_zipf' || d.kind === 'exponential') throw cannot('distribution.kind', `${d.kind} is YCSB's chooser`);
  if ((w.mix.read_modify_write ?? 0) > 0) throw cannot('mix.read_modify_write', 'read-modify-writes are not among the controls');
  return {
    seed: w.seed,
    preload: w.preload.entries,
    keySpace: w.preload.key_space ?? 0,
    keyBytes: w.preload.key_bytes,
    valueBytes: w.preload.value_bytes,
    operations: w.operations,
    insert: w.mix.insert ?? 0,
    update: w.mix.update ?? 0,
    remove: w.mix.delete ?? 0,
    getExisting: w.mix.get_existing ?? 0,
    getMissing: w.mix.get_missing ?? 0,
    range: w.mix.range ?? 0,
    distribution: d.kind,
    ...(d.kind === 'zipf' || d.kind === 'latest' ? { theta: d.theta } : {}),
    ...(d.kind === 'hotspot' ? { hotFraction: d.hot_fraction, hotProbability: d.hot_probability } : {}),
    ...(w.range_selectivity !== undefined && w.range_selectivity > 0 ? { selectivity: w.range_selectivity } : {}),
  };
}

const MIX_LABELS: [keyof LabState, string][] = [
  ['insert', 'inserts'],
  ['update', 'updates'],
  ['remove', 'deletes'],
  ['getExisting', 'existing lookups'],
  ['getMissing', 'missing lookups'],
  ['range', 'ranges'],
];

/** "200,000 ops: 100% missing lookups, uniform". */
export function workloadName(s: LabState): string {
  const mix = MIX_LABELS.filter(([k]) => (s[k] as number) > 0)
    .map(([k, label]) => `${Math.round((s[k] as number) * 1000) / 10}% ${label}`)
    .join(', ');
  const dist = s.distribution === 'uniform' ? 'uniform' : s.distribution === 'hotspot' ? `hotspot ${s.hotFraction}/${s.hotProbability}` : `${s.distribution} θ = ${s.theta}`;
  return `${s.preload.toLocaleString('en-US')} keys, then ${s.operations.toLocaleString('en-US')} ops: ${mix || 'no operations'}; ${dist}`;
}

/** The workload fields of the lab's state (the Tune page carries the same fields). */
export type WorkloadFields = Pick<
  LabState,
  | 'seed' | 'preload' | 'keySpace' | 'keyBytes' | 'valueBytes' | 'operations'
  | 'insert' | 'update' | 'remove' | 'getExisting' | 'getMissing' | 'range'
  | 'distribution' | 'theta' | 'hotFraction' | 'hotProbability' | 'selectivity'
>;

/**
 * What the engine will refuse in a workload's fields, beyond each control's own range: the mix must
 * sum to 1, the key space must exceed the preload, ranges need a selectivity. Messages name the control.
 */
export function workloadProblems(s: WorkloadFields): string[] {
  const out: string[] = [];
  const sum = s.insert + s.update + s.remove + s.getExisting + s.getMissing + s.range;
  if (s.operations > 0 && Math.abs(sum - 1) > 1e-9) {
    out.push(`the operation mix must sum to 100%; it sums to ${Math.round(sum * 1e4) / 100}%`);
  }
  if (s.keySpace !== 0 && s.keySpace <= s.preload) {
    out.push(`key space must be 0 (automatic) or larger than the preload (${s.preload.toLocaleString('en-US')})`);
  }
  if (s.range > 0 && s.selectivity <= 0) out.push('range selectivity must be above 0 when the mix has range lookups');
  return out;
}

/**
 * What the engine will refuse in these controls, beyond each control's own range (which the
 * controls enforce as typed): the workload's problems, a page that is not a power of two, a
 * buffer that cannot hold a page or an entry. Messages name the control.
 */
export function labProblems(s: LabState): string[] {
  const out = workloadProblems(s);
  if ((s.pageBytes & (s.pageBytes - 1)) !== 0) out.push(`page size must be a power of two; got ${s.pageBytes} B`);
  if (s.bufferKiB * KIB < s.pageBytes) out.push('write buffer must hold at least one page');
  if (s.keyBytes + s.valueBytes > s.bufferKiB * KIB) out.push('one entry (key + value) must fit in the write buffer');
  return out;
}

/** The lab's URL (`#/lab?…`) with a design (and optionally a workload) filled in: a "Run in the lab" link. */
export function labLink(config: EngineConfig, workload?: Workload, tab: LabState['tab'] = 'run'): string {
  const state: LabState = { ...defaultsOf(labParams), ...configToState(config), ...(workload ? workloadToState(workload) : {}), tab };
  return hashFor('lab', encodeQuery(labUrl, state));
}

/**
 * Open an engine design on the Moose page: its level list becomes Moose's level table for a data
 * set (the chosen workload's preload, else the Moose page's default), the link says everything
 * the Moose model leaves out. Pure.
 *
 * The engine's level list is open-ended (the last entry describes every deeper level), a Moose
 * table is not (the last level holds what is left of N). So the list is unrolled until the
 * levels reach N, and the last level keeps its ratio as a capacity, as the Moose table does.
 */
import { ModelInputError, mooseLevelCapacities, type Dataset, type MooseLevel } from '@lsm/models';
import type { EngineConfig, Workload } from '../engine';
import { MAX_TABLE_LEVELS, tableFromLayout } from '../mooseTable';
import { mooseParams, mooseUrl, type MooseState } from './moose';
import { workloadDataset } from '../designs/monkeyView';
import { encodeQuery } from '../url/codec';
import { defaultsOf } from '../url/params';
import { valueProblem } from '../url/validate';

const MIB = 1024 * 1024;

export type MooseLink = { hash: string; state: MooseState; notes: string[] } | { problem: string };

/** The Moose page's data set for a design: the workload's preload, else the page's default. */
export function mooseDatasetFor(config: EngineConfig, workload: Workload | null): Dataset {
  const d = defaultsOf(mooseParams);
  return workload ? workloadDataset(config, workload) : { entries: d.entries, entryBytes: d.entryBytes, pageBytes: config.page_bytes };
}

/** The engine's levels unrolled until they hold the data set (null when more than the table allows). */
function unroll(config: EngineConfig, dataset: Dataset): EngineConfig['levels'] | null {
  const F = Math.floor(config.buffer_bytes / dataset.entryBytes);
  const out: EngineConfig['levels'] = [];
  let capacity = F;
  let inner = 0;
  while (out.length < MAX_TABLE_LEVELS) {
    const spec = config.levels[Math.min(out.length, config.levels.length - 1)];
    out.push(spec);
    capacity *= spec.size_ratio;
    if (inner + capacity >= dataset.entries) return out;
    inner += capacity;
  }
  return null;
}

function bitsOf(config: EngineConfig, level: EngineConfig['levels'][number]): number {
  return config.filter.allocation === 'explicit' ? (level.bits_per_key ?? 0) : config.filter.bits_per_key;
}

/** What the Moose page does not model, said once per setting. */
function notesFor(config: EngineConfig): string[] {
  const notes: string[] = [];
  if (config.filter.allocation === 'mnemosyne') notes.push('Mnemosyne’s per-file filter bits become Moose’s optimal split of the same memory.');
  if (config.filter.kind === 'modular') notes.push('Modular (SHaMBa) filters are modelled as one Bloom filter per run.');
  if (config.filter.kind === 'fast_local_bloom') notes.push('RocksDB’s FastLocalBloom filters are modelled as textbook Bloom filters (Moose’s FPR is a little lower).');
  if (config.filter.kind === 'ribbon') notes.push('RocksDB’s Ribbon filters are modelled as textbook Bloom filters of the same bits per key (Ribbon’s bits are Bloom-equivalent).');
  if (config.compaction?.granularity === 'file') notes.push('Moose merges whole levels; the design’s file-by-file compaction is not part of its model.');
  if (config.block_cache && config.block_cache.bytes > 0) notes.push('Moose counts every page read as an I/O; the block cache is not part of its model.');
  return notes;
}

/**
 * The Moose page's state and link for a design on a data set, or why it cannot be shown there
 * (the layout does not fit, a value is outside the page's ranges).
 */
export function mooseLinkFor(config: EngineConfig, dataset: Dataset): MooseLink {
  const env = { dataset, bufferBytes: config.buffer_bytes };
  if (config.levels.length === 0) return { problem: 'The design lists no levels.' };
  if (Math.floor(config.buffer_bytes / dataset.entryBytes) >= dataset.entries) {
    return { problem: `The data set (${dataset.entries} entries) fits in the write buffer, so the tree has no levels to show.` };
  }
  const levels = unroll(config, dataset);
  if (!levels) return { problem: `The design needs more than ${MAX_TABLE_LEVELS} levels for ${dataset.entries} entries.` };
  const layout: MooseLevel[] = levels.map((l) => ({
    sizeRatio: l.size_ratio,
    runs: Math.max(1, Math.min(l.max_runs, Math.floor(l.size_ratio))),
    bitsPerEntry: bitsOf(config, l),
  }));
  const table = tableFromLayout(env, layout);
  let entries: number[];
  try {
    entries = mooseLevelCapacities(dataset, table, { bufferBytes: config.buffer_bytes }).entries;
  } catch (err) {
    if (err instanceof ModelInputError) return { problem: `Moose cannot lay out this design: ${err.message}` };
    throw err;
  }
  const optimal = config.filter.allocation === 'monkey' || config.filter.allocation === 'mnemosyne';
  // The page's filter budget: the design's average bits per entry, which Smoose and the presets get too.
  const meanBits = optimal
    ? config.filter.bits_per_key
    : table.reduce((s, l, i) => s + l.bitsPerEntry * entries[i], 0) / entries.reduce((a, b) => a + b, 0);
  const state: MooseState = {
    ...defaultsOf(mooseParams),
    entries: dataset.entries,
    entryBytes: dataset.entryBytes,
    pageBytes: dataset.pageBytes,
    bufferMiB: config.buffer_bytes / MIB,
    memoryBits: Number(meanBits.toPrecision(6)),
    ratios: table.map((l) => l.sizeRatio),
    runs: table.map((l) => l.runs),
    bits: table.map((l) => l.bitsPerEntry),
    optimalFilters: optimal,
  };
  for (const [name, p] of Object.entries(mooseParams)) {
    const problem = valueProblem(p, state[name as keyof MooseState]);
    if (problem) return { problem: `The Moose page cannot show this design: ${problem}.` };
  }
  return { hash: `#/moose?${encodeQuery(mooseUrl, state)}`, state, notes: notesFor(config) };
}

/**
 * Monkey's update cost (Eq 10) against the engine: pages written per insert as unique keys fill a
 * leveled or tiered tree, measured where the tree is exactly L levels of buffer·T^L entries
 * (Monkey's worst case: each key written once; L whole). Pure: the specs the engine runs and the
 * rows that set the measurement beside the two readings of Eq 10 — as published (the merges an
 * entry takes part in after it arrived) and with every write counted (what the engine counts).
 */
import { monkeyLevelsUnchecked, monkeyPagesWrittenPerUpdate, monkeyUpdateCost } from '@lsm/models';
import type { EngineConfig, Workload } from '../documents/engine';
import type { WriteAmpResult, WriteAmpSpec } from '../documents/writeAmp';

export type UpdatePolicy = 'leveling' | 'tiering';

export const UPDATE_KEY_BYTES = 16;
export const UPDATE_VALUE_BYTES = 100;
export const UPDATE_BUFFER_BYTES = 64 * 1024;
export const UPDATE_PAGE_BYTES = 4096;
/** Entries the buffer holds: the unit of every level's capacity. */
export const BUFFER_ENTRIES = Math.floor(UPDATE_BUFFER_BYTES / (UPDATE_KEY_BYTES + UPDATE_VALUE_BYTES));

export interface UpdateDesign {
  policy: UpdatePolicy;
  sizeRatio: number;
  /** N = buffer entries × T^k: the levels fill whole. */
  entries: number;
  /** L of Monkey's Eq 1 for N entries (the model's level count). */
  levels: number;
}

/** For each policy and size ratio, the largest N = buffer entries × T^k (k ≥ 2) of at most `maxEntries`. */
export function updateDesigns(sizeRatios: readonly number[], maxEntries: number): UpdateDesign[] {
  return (['leveling', 'tiering'] as const).flatMap((policy) =>
    sizeRatios
      .filter((t) => policy === 'leveling' || t > 2)
      .map((t) => {
        let k = 2;
        while (BUFFER_ENTRIES * t ** (k + 1) <= maxEntries) k += 1;
        const entries = BUFFER_ENTRIES * t ** k;
        const levels = monkeyLevelsUnchecked(entries, UPDATE_KEY_BYTES + UPDATE_VALUE_BYTES, UPDATE_BUFFER_BYTES, t);
        return { policy, sizeRatio: t, entries, levels };
      }),
  );
}

export function updateConfig(d: UpdateDesign): EngineConfig {
  return {
    kind: 'lsm-navigator/engine-config',
    version: 1,
    name: `${d.policy}, T = ${d.sizeRatio}, 64 KiB buffer: Monkey's update cost`,
    page_bytes: UPDATE_PAGE_BYTES,
    buffer_bytes: UPDATE_BUFFER_BYTES,
    levels: [{ size_ratio: d.sizeRatio, max_runs: d.policy === 'leveling' ? 1 : d.sizeRatio - 1 }],
    filter: { allocation: 'uniform', bits_per_key: 10 },
  };
}

export function updateWorkload(d: UpdateDesign, seed = 11): Workload {
  return {
    kind: 'lsm-navigator/workload',
    version: 1,
    name: `${d.entries.toLocaleString('en-US')} unique inserts`,
    seed,
    preload: { entries: 0, key_space: 0, key_bytes: UPDATE_KEY_BYTES, value_bytes: UPDATE_VALUE_BYTES },
    operations: d.entries,
    mix: { insert: 1 },
    distribution: { kind: 'uniform' },
  };
}

export function updateSpec(d: UpdateDesign): WriteAmpSpec {
  return { config: updateConfig(d), workload: updateWorkload(d), checkpoint: 0 };
}

export interface UpdateRow extends UpdateDesign {
  /** B: entries per data page, as the engine wrote them. */
  entriesPerPage: number;
  /** Data pages written per insert, measured. */
  measured: number;
  /** Eq 10 as published, writes only (φ = 0). */
  published: number;
  /** Eq 10 with every write counted. */
  everyWrite: number;
}

/** A measured run beside Eq 10, with B as the engine's pages hold it. */
export function updateRow(d: UpdateDesign, r: WriteAmpResult): UpdateRow {
  const last = r.checkpoints[r.checkpoints.length - 1];
  const pages = last?.data_pages ?? 0;
  const entries = (last?.flush_entries ?? 0) + (last?.entries_into ?? []).reduce((a, b) => a + b, 0);
  if (!last || !(pages > 0) || last.inserts !== d.entries) throw new Error(`the ${d.policy} T = ${d.sizeRatio} run did not finish`);
  const b = entries / pages;
  return {
    ...d,
    entriesPerPage: b,
    measured: pages / d.entries,
    published: monkeyUpdateCost(d.policy, d.sizeRatio, d.levels, b, 0),
    everyWrite: monkeyPagesWrittenPerUpdate(d.policy, d.sizeRatio, d.levels, b),
  };
}

/**
 * Monkey's Fig 12(A) measured on the engine (`lsm growth`, the worker's `growth` task): the
 * experiment's spec for a page's design, and its points as one row per size — uniform, Monkey at
 * birth and re-optimised as measured, the optimum for the re-optimised tree, and the paper's
 * closed form (Eq 7) for the same design and size.
 */
import { monkeyLevelsUnchecked, monkeyZeroResultCostClosedForm, type Policy } from '@lsm/models';
import type { EngineConfig, GrowthPoint, GrowthPolicy, GrowthResult, GrowthSpec } from '../documents/engine';

/** The replica's fixed dataset: 16-byte keys, 100-byte values (Monkey's 2^20 × 116 B example), 4 KiB pages. */
export const GROWTH_KEY_BYTES = 16;
export const GROWTH_VALUE_BYTES = 100;
export const GROWTH_PAGE_BYTES = 4096;
/** A small buffer, so 2^12 entries already make a tree of several levels. */
export const GROWTH_BUFFER_BYTES = 16 << 10;
export const GROWTH_FROM_LOG2 = 12;

export interface GrowthDesign {
  policy: Policy;
  sizeRatio: number;
  bitsPerEntry: number;
}

export function growthSpec(design: GrowthDesign, toLog2: number, lookups: number): GrowthSpec {
  const t = design.sizeRatio;
  const config: EngineConfig = {
    kind: 'lsm-navigator/engine-config',
    version: 1,
    name: `Fig 12(A) replica: ${design.policy}, T = ${t}, ${design.bitsPerEntry} bits/entry`,
    page_bytes: GROWTH_PAGE_BYTES,
    buffer_bytes: GROWTH_BUFFER_BYTES,
    levels: [{ size_ratio: t, max_runs: design.policy === 'leveling' ? 1 : Math.max(1, Math.round(t) - 1) }],
    filter: { allocation: 'monkey', bits_per_key: design.bitsPerEntry },
  };
  return { config, from_log2: GROWTH_FROM_LOG2, to_log2: toLog2, lookups, value_bytes: GROWTH_VALUE_BYTES };
}

export interface GrowthRow {
  entries: number;
  /** Runs in the re-optimised tree (the same tree shape under every policy). */
  runs: number;
  uniform: number | null;
  atBirth: number | null;
  reoptimised: number | null;
  /** Monkey's optimum for the re-optimised policy's measured runs. */
  optimum: number | null;
  /** Eq 7 for the design at this size (full levels, the paper's model). */
  model: number;
  /** Pages the re-optimised policy's rebuilds have read so far, and how many rebuilds. */
  rebuildPages: number | null;
  rebuilds: number | null;
}

/** One row per size measured, in size order; a policy not (yet) measured at a size gives null. */
export function growthRows(result: GrowthResult): GrowthRow[] {
  const { config } = result.spec;
  const t = config.levels[0].size_ratio;
  const policy: Policy = config.levels[0].max_runs > 1 ? 'tiering' : 'leveling';
  const entryBytes = GROWTH_KEY_BYTES + result.spec.value_bytes;
  const sizes = [...new Set(result.points.map((p) => p.entries))].sort((a, b) => a - b);
  return sizes.map((entries) => {
    const at = (p: GrowthPolicy): GrowthPoint | undefined => result.points.find((x) => x.policy === p && x.entries === entries);
    const r = at('monkey_reoptimised');
    const levels = monkeyLevelsUnchecked(entries, entryBytes, config.buffer_bytes, t);
    return {
      entries,
      runs: (r ?? at('monkey_at_birth') ?? at('uniform'))?.runs.length ?? 0,
      uniform: at('uniform')?.io_per_lookup ?? null,
      atBirth: at('monkey_at_birth')?.io_per_lookup ?? null,
      reoptimised: r?.io_per_lookup ?? null,
      optimum: r?.optimum_io ?? null,
      model: monkeyZeroResultCostClosedForm({ policy, sizeRatio: Math.max(2, t), levels }, config.filter.bits_per_key).cost,
      rebuildPages: r?.rebuild_pages ?? null,
      rebuilds: r?.rebuilds ?? null,
    };
  });
}

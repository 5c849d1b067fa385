/** Moose structures and layouts: the default Moose tree, fixed-ratio presets and the engine export. */
import type { Dataset } from '../types';
import { ModelInputError, requireNumber, requireOneOf } from '../validate';
import { geometry, ratiosOf } from './capacities';
import {
  MAX_BITS_PER_ENTRY,
  MAX_BUFFERS,
  MAX_LEVELS,
  MAX_MEMORY_BITS_PER_ENTRY,
  MAX_RATIO,
  checkEnv,
  floorRatio,
  type Env,
} from './checks';
import { branchAndBound, mooseDpLiteral, mooseSqrtLevelCost } from './dp';
import { bitsFromFpr, optimalFprs } from './filters';
import { runsFor } from './runs';
import { MOOSE_DEFAULT_K, MOOSE_DEFAULT_LAST_LEVEL_FRACTION, type MooseLevel, type MooseOptions } from './types';

// ---------------------------------------------------------------------------------------------
// Moose structures and layouts

export interface MooseStructure {
  bufferEntries: number;
  /** N_1..N_L, entries (Σ = dataset.entries). */
  capacities: number[];
  sizeRatios: number[];
  runs: number[];
  lastLevelEntries: number;
  k: number;
  /** A = Σ √r_i of the structure (the DP objective, Eq.7). */
  sumSqrtRatios: number;
  /** False only if the DP's node budget ran out (see `mooseDp`). */
  exact: boolean;
}

export interface MooseStructureParams {
  /** N_L / N in [0.5, 1]; N_L = F·round(fraction·N/F). Default 0.8. */
  lastLevelFraction?: number;
  /** Run regulator k > 0: n_i = round(k√r_i). Default 1. */
  k?: number;
  /** 'exact' (default) or 'literal' (Eq.12 as printed, for comparison; N/F ≤ 4096). */
  dp?: 'exact' | 'literal';
}

export function buffersOf(env: Env, minBuffers: number): number {
  const x = env.entries / env.bufferEntries;
  if (x < minBuffers || x > MAX_BUFFERS) {
    throw new ModelInputError(
      'dataset.entries',
      `must be between ${minBuffers} and ${MAX_BUFFERS} buffers (${minBuffers * env.bufferEntries} to ` +
        `${MAX_BUFFERS * env.bufferEntries} entries with a ${env.bufferEntries}-entry buffer), got ${env.entries}`,
    );
  }
  return x;
}

export function structureFromBuffers(env: Env, capsInBuffers: readonly number[], k: number, exact: boolean): MooseStructure {
  const F = env.bufferEntries;
  const capacities = capsInBuffers.map((c) => c * F);
  const sizeRatios = ratiosOf(capsInBuffers, 1);
  return {
    bufferEntries: F,
    capacities,
    sizeRatios,
    runs: sizeRatios.map((r) => runsFor(r, k)),
    lastLevelEntries: capacities[capacities.length - 1],
    k,
    sumSqrtRatios: sizeRatios.reduce((a, r) => a + Math.sqrt(r), 0),
    exact,
  };
}

/**
 * The Moose structure (reference §3.3): fix N_L = F·round(f·N/F), spread N − N_L over the inner
 * levels with the DP minimising Σ√r_i, set n_i = round(k√r_i) in [1, floor r_i].
 * Needs N ≥ 2F.
 */
export function mooseStructure(
  dataset: Dataset,
  params: MooseStructureParams = {},
  options: MooseOptions = {},
): MooseStructure {
  const env = checkEnv(dataset, options);
  const x = buffersOf(env, 2);
  const f = requireNumber('lastLevelFraction', params.lastLevelFraction ?? MOOSE_DEFAULT_LAST_LEVEL_FRACTION, 0.5, 1);
  const k = requireNumber('k', params.k ?? MOOSE_DEFAULT_K, 0, 1e6, { exclusiveMin: true });
  const dp = requireOneOf('dp', params.dp ?? 'exact', ['exact', 'literal'] as const);
  const m = Math.min(x, Math.max(Math.round(f * x), x / 2));
  if (dp === 'literal') {
    const caps = mooseDpLiteral(x, m).capacities;
    if (caps.some((c, i) => c <= (i === 0 ? 1 : caps[i - 1]))) {
      const levels = caps.join(', ');
      throw new ModelInputError(
        'dp',
        `the literal Eq.12 DP folds a negative remainder here (levels ${levels} buffers); use 'exact'`,
      );
    }
    return structureFromBuffers(env, caps, k, true);
  }
  const res = branchAndBound(x, m, mooseSqrtLevelCost(x * 2), 5_000_000);
  return structureFromBuffers(env, res.capacities, k, res.exact);
}

/** A structure's layout with the optimal per-level bits for `filterBitsPerEntry` × N bits. */
export function layoutOf(
  env: Env,
  sizeRatios: readonly number[],
  runs: readonly number[],
  filterBitsPerEntry: number,
): MooseLevel[] {
  const shape = sizeRatios.map((r, i) => ({ sizeRatio: r, runs: runs[i] }));
  const g = geometry(env, shape);
  const bits = optimalFprs(g.entries, g.runs, filterBitsPerEntry * env.entries).map(bitsFromFpr);
  return shape.map((s, i) => ({ ...s, bitsPerEntry: bits[i] }));
}

/**
 * The Moose layout `{sizeRatio, runs, bitsPerEntry}[]` for a dataset: `mooseStructure` plus the
 * optimal filter split of `bitsPerEntry` (average bits per entry, ≥ 0) over its levels.
 */
export function mooseLayout(
  dataset: Dataset,
  params: MooseStructureParams & { bitsPerEntry: number },
  options: MooseOptions = {},
): MooseLevel[] {
  const env = checkEnv(dataset, options);
  const b = requireNumber('bitsPerEntry', params.bitsPerEntry, 0, MAX_MEMORY_BITS_PER_ENTRY);
  const s = mooseStructure(dataset, params, options);
  return layoutOf(env, s.sizeRatios, s.runs, b);
}

/**
 * Fixed-ratio capacities in buffers (the reference's full geometric tree, Σ = N/F): L =
 * ceil(log_T((N/F)(T−1)/T)), N_i = N_L/T^{L−i}, N_L = N(1−1/T)/(1−T^{−L}); a first level below two
 * buffers is folded into the next. `totalBuffers` = N/F ≥ 2, 2 ≤ T.
 */
export function mooseFixedRatioCapacities(totalBuffers: number, sizeRatio: number): number[] {
  const x = requireNumber('totalBuffers', totalBuffers, 2, MAX_BUFFERS);
  const T = requireNumber('sizeRatio', sizeRatio, 2, MAX_RATIO);
  let L = Math.max(1, Math.ceil(Math.log((x * (T - 1)) / T) / Math.log(T) - 1e-12));
  const build = (levels: number): number[] => {
    const last = (x * (1 - 1 / T)) / (1 - Math.pow(T, -levels));
    return Array.from({ length: levels }, (_, i) => last / Math.pow(T, levels - 1 - i));
  };
  let caps = build(L);
  while (L > 1 && caps[0] < 2) {
    L -= 1;
    caps = build(L);
  }
  return caps;
}

export interface MoosePresetParams {
  /** T for leveling, tiering and lazy leveling, ≥ 2. */
  sizeRatio: number;
  /** Buffer F in bytes; default 2 MiB. */
  bufferBytes?: number;
  /** Average filter bits per entry, split optimally over each layout's levels. */
  bitsPerEntry: number;
  /** Moose's N_L/N (default 0.8) and k (default 1). */
  lastLevelFraction?: number;
  k?: number;
}

/**
 * Leveling (n_i = 1), tiering (n_i = T, Moose's convention; clamped to floor r_i), lazy leveling
 * (Dostoevsky: n_i = T above the last level, 1 at the last) and default Moose as per-level layouts
 * for a dataset, each with the optimal filter split of `bitsPerEntry`. Needs N ≥ 2F.
 */
export function moosePresetLayouts(
  dataset: Dataset,
  params: MoosePresetParams,
): { leveling: MooseLevel[]; tiering: MooseLevel[]; lazyLeveling: MooseLevel[]; moose: MooseLevel[] } {
  const options: MooseOptions = { bufferBytes: params.bufferBytes };
  const env = checkEnv(dataset, options);
  const T = requireNumber('sizeRatio', params.sizeRatio, 2, MAX_RATIO);
  const b = requireNumber('bitsPerEntry', params.bitsPerEntry, 0, MAX_MEMORY_BITS_PER_ENTRY);
  const x = buffersOf(env, 2);
  const ratios = ratiosOf(mooseFixedRatioCapacities(x, T), 1);
  const L = ratios.length;
  const tier = (r: number): number => Math.min(Math.round(T), floorRatio(r));
  return {
    leveling: layoutOf(env, ratios, ratios.map(() => 1), b),
    tiering: layoutOf(env, ratios, ratios.map(tier), b),
    lazyLeveling: layoutOf(env, ratios, ratios.map((r, i) => (i === L - 1 ? 1 : tier(r))), b),
    moose: mooseLayout(dataset, { lastLevelFraction: params.lastLevelFraction, k: params.k, bitsPerEntry: b }, options),
  };
}

// ---------------------------------------------------------------------------------------------
// Engine export

/** One level of the engine's EngineConfig (snake_case, as the engine reads it). */
export interface MooseEngineLevel {
  size_ratio: number;
  max_runs: number;
  bits_per_key: number;
}

/**
 * A Moose layout as the engine's per-level list. `max_runs` = n_i (the engine's run capacity is
 * capacity/max_runs, as in Moose; tiering n_i = T behaves like Monkey's T−1 because the T-th
 * arrival fills the level). The engine needs size_ratio ≥ 2 and bits_per_key ≤ 64: a last level
 * below 2 is raised to 2 (it only adds headroom: the last level holds what is left), bits above 64
 * (FPR < 1e-13) are capped at 64, values are rounded to 12 significant digits. A non-last level
 * below 2 is an error.
 */
export function mooseToEngineLevels(levels: readonly MooseLevel[]): MooseEngineLevel[] {
  if (!Array.isArray(levels) || levels.length < 1 || levels.length > MAX_LEVELS) {
    throw new ModelInputError('levels', `must list between 1 and ${MAX_LEVELS} levels`);
  }
  const L = levels.length;
  return levels.map((lv, i) => {
    const r = requireNumber(`levels[${i}].sizeRatio`, lv.sizeRatio, i < L - 1 ? 2 : 1, 1000);
    const n = requireNumber(`levels[${i}].runs`, lv.runs, 1, Math.min(1000, floorRatio(r)), { integer: true });
    const b = requireNumber(`levels[${i}].bitsPerEntry`, lv.bitsPerEntry, 0, MAX_BITS_PER_ENTRY);
    // 12 significant digits: drops float noise such as 2.9999999999999996 from the JSON
    return { size_ratio: clean(Math.max(2, r)), max_runs: n, bits_per_key: clean(Math.min(64, b)) };
  });
}

function clean(v: number): number {
  return Number(v.toPrecision(12));
}

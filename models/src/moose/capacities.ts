/** Moose level geometry: capacities N_i, contents, effective ratios and run counts of a layout. */
import type { Dataset } from '../types';
import { ModelInputError, requireNumber } from '../validate';
import { EPS, MAX_LEVELS, MAX_RATIO, checkEnv, floorRatio, type Env } from './checks';
import type { MooseOptions, MooseShapeLevel } from './types';

// ---------------------------------------------------------------------------------------------
// Level geometry

/** Capacities, contents, effective ratios and runs of a layout (validated). */
export interface Geometry {
  capacity: number[];
  entries: number[];
  ratio: number[];
  runs: number[];
}

export function geometry(env: Env, levels: readonly MooseShapeLevel[]): Geometry {
  if (!Array.isArray(levels) || levels.length < 1 || levels.length > MAX_LEVELS) {
    const got = Array.isArray(levels) ? levels.length : String(levels);
    throw new ModelInputError('levels', `must list between 1 and ${MAX_LEVELS} levels, got ${got}`);
  }
  const L = levels.length;
  const N = env.entries;
  const capacity: number[] = [];
  const entries: number[] = [];
  const ratio: number[] = [];
  const runs: number[] = [];
  let prev = env.bufferEntries;
  let sum = 0;
  for (let i = 0; i < L; i++) {
    const lv = levels[i];
    if (typeof lv !== 'object' || lv === null) throw new ModelInputError(`levels[${i}]`, 'must be an object');
    // The last level may be smaller than twice its predecessor (the paper's r_L "whatever is left").
    const r = requireNumber(`levels[${i}].sizeRatio`, lv.sizeRatio, i < L - 1 ? 2 : 1, MAX_RATIO);
    const n = requireNumber(`levels[${i}].runs`, lv.runs, 1, floorRatio(r), { integer: true });
    const cap = prev * r;
    capacity.push(cap);
    if (i < L - 1) {
      entries.push(cap);
      ratio.push(r);
      runs.push(n);
      sum += cap;
      prev = cap;
    } else {
      const content = N - sum;
      if (content <= 0) {
        throw new ModelInputError(
          'levels',
          `levels 1..${L - 1} already hold ${sum} entries, at least dataset.entries = ${N}; ` +
            'remove a level or use smaller size ratios',
        );
      }
      if (content > cap * (1 + EPS)) {
        const need = content / prev;
        throw new ModelInputError(
          `levels[${i}].sizeRatio`,
          `must be a number in [${need}, ${MAX_RATIO}] so the last level can hold the remaining ${content} entries ` +
            `(or add a level), got ${r}`,
        );
      }
      const rEff = content / prev;
      entries.push(content);
      ratio.push(rEff);
      // A level holding r_eff arrivals' worth of data cannot have more runs than that.
      runs.push(Math.min(n, floorRatio(rEff)));
    }
  }
  return { capacity, entries, ratio, runs };
}

/**
 * Capacities, contents, effective ratios and run counts of a layout on a dataset.
 * Levels 1..L−1 are full; the last holds the remainder N − Σ_{i<L} N_i (entries).
 * Throws `ModelInputError` for ratios < 2 on non-last levels (< 1 on the last), runs outside
 * [1, floor(sizeRatio)], or a layout that does not fit the dataset.
 */
export function mooseLevelCapacities(
  dataset: Dataset,
  levels: readonly MooseShapeLevel[],
  options: MooseOptions = {},
): { bufferEntries: number; capacityEntries: number[]; entries: number[]; sizeRatios: number[]; runs: number[] } {
  const env = checkEnv(dataset, options);
  const g = geometry(env, levels);
  return {
    bufferEntries: env.bufferEntries,
    capacityEntries: g.capacity,
    entries: g.entries,
    sizeRatios: g.ratio,
    runs: g.runs,
  };
}

/** Capacities N_i = F·r_1⋯r_i (entries) of full levels with the given ratios. */
export function mooseCapacitiesFromRatios(bufferEntries: number, sizeRatios: readonly number[]): number[] {
  requireNumber('bufferEntries', bufferEntries, 0, Infinity, { exclusiveMin: true });
  let prev = bufferEntries;
  return sizeRatios.map((r, i) => {
    prev *= requireNumber(`sizeRatios[${i}]`, r, 0, MAX_RATIO, { exclusiveMin: true });
    return prev;
  });
}

/** Eq.1: N_i = s_i · n_i · N_{i−1} from runs n_i and run magnifications s_i (≥ 1); entries. */
export function mooseCapacitiesFromShape(
  bufferEntries: number,
  runs: readonly number[],
  runMagnifications: readonly number[],
): number[] {
  if (runs.length !== runMagnifications.length) {
    const got = runMagnifications.length;
    throw new ModelInputError('runMagnifications', `must have one entry per level (${runs.length}), got ${got}`);
  }
  return mooseCapacitiesFromRatios(
    bufferEntries,
    runs.map((n, i) => requireNumber(`runs[${i}]`, n, 1, MAX_RATIO, { integer: true }) *
      requireNumber(`runMagnifications[${i}]`, runMagnifications[i], 1, MAX_RATIO)),
  );
}

export function ratiosOf(capacities: readonly number[], bufferEntries: number): number[] {
  let prev = bufferEntries;
  return capacities.map((c, i) => {
    requireNumber(`capacities[${i}]`, c, 0, Infinity, { exclusiveMin: true });
    const r = c / prev;
    prev = c;
    return r;
  });
}

/**
 * The numbers behind the MSLS page (Lim et al., FAST'16): write amplification of LevelDB-style
 * leveled compaction by the MSLS model against the no-redundancy worst case, swept over the key
 * count (paper Fig 9), the skew (Fig 8) and the level sizes (Fig 10/15), the level-size optimiser
 * (§6, Table 1, Fig 14) and the Unique / density primitives (Fig 4, Fig 6).
 *
 * Everything composes @lsm/models; the only logic here is the grids and the rule that a point the
 * model rejects (e.g. a fixed level count that no longer fits a smaller key space) becomes NaN,
 * which the charts leave out with a note, instead of failing the whole sweep.
 */
import {
  leveledGrowthWriteAmplification,
  ModelInputError,
  mslsDensityProfile,
  mslsOptimizeLevelSizes,
  mslsWriteAmplification,
  unique,
  worstCaseWriteAmplification,
  type MslsDistribution,
  type MslsGrouping,
  type MslsLevelParams,
  type MslsWriteAmplification,
  type LeveledGrowthParams,
  type LeveledGrowthPoint,
} from '@lsm/models';

export const MIB = 1024 * 1024;

/**
 * Zipf compression for the swept curves: exact ranks 1..100, then groups of ratio 1.02. About ten
 * times faster than the model's default (1000, 1.001) and within 5e-6 relative WA of it (N 10⁴–10¹⁰, θ
 * 0–2) — invisible on a chart, and it keeps a Zipf sweep at 10⁸ keys near 0.1 s instead of
 * 1 s. The read-outs, the per-source breakdown and the optimiser's result use the default grouping.
 */
export const SWEEP_GROUPING: MslsGrouping = { exactRanks: 100, groupRatio: 1.02 };

const UNIFORM: MslsDistribution = { kind: 'uniform' };
const zipf = (theta: number): MslsDistribution => ({ kind: 'zipf', theta });

/** A model evaluation, or NaN where the model rejects this combination (other errors propagate). */
function totalOrNaN(model: (p: MslsLevelParams) => MslsWriteAmplification, params: MslsLevelParams): number {
  try {
    return model(params).total;
  } catch (err) {
    if (err instanceof ModelInputError) return NaN;
    throw err;
  }
}

/**
 * `perDecade` log-spaced points from lo to hi (both included) plus the `extra` values, sorted and
 * deduplicated: the current setting is always an exact grid point, so the chart's tooltip there
 * equals the page's read-outs.
 */
export function logGrid(lo: number, hi: number, perDecade: number, extra: readonly number[] = [], round = false): number[] {
  const a = Math.log10(lo);
  const b = Math.log10(hi);
  const steps = Math.max(1, Math.ceil((b - a) * perDecade - 1e-9));
  const raw = Array.from({ length: steps + 1 }, (_, i) => 10 ** (a + ((b - a) * i) / steps));
  const values = [...raw, ...extra].map((v) => (round ? Math.round(v) : Number(v.toPrecision(12))));
  return [...new Set(values)].filter((v) => v >= lo && v <= hi).sort((x, y) => x - y);
}

// ────────────────────────────────────────────────────────────────────────── current design

/** One design evaluated by both models, trimmed to what the page draws. */
export interface CurrentResult {
  msls: MslsWriteAmplification;
  worst: MslsWriteAmplification;
}

/** The two models at the current parameters (light: main thread). */
export function current({ params }: { params: MslsLevelParams }): CurrentResult {
  return { msls: mslsWriteAmplification(params), worst: worstCaseWriteAmplification(params) };
}

/** Source labels of `[log, ...perLevel]`, as in the paper's Table 1. */
export function sourceLabels(levels: number): string[] {
  return ['mem→log', 'mem→L0', ...Array.from({ length: levels }, (_, l) => `L${l}→L${l + 1}`)];
}

// ────────────────────────────────────────────────────────────────────────── sweeps

export interface SeriesSweep {
  x: number[];
  /** MSLS model, uniform keys. */
  uniform: number[];
  /** MSLS model, Zipf(θ) keys. */
  zipf: number[];
  /** The no-redundancy worst case (skew-independent). */
  worst: number[];
}

export interface SweepArgs {
  params: MslsLevelParams;
  /** θ of the Zipf series. */
  theta: number;
}

function threeSeries(x: number[], at: (v: number) => MslsLevelParams, theta: number): SeriesSweep {
  return {
    x,
    uniform: x.map((v) => totalOrNaN(mslsWriteAmplification, { ...at(v), distribution: UNIFORM })),
    zipf: x.map((v) => totalOrNaN(mslsWriteAmplification, { ...at(v), distribution: zipf(theta), grouping: SWEEP_GROUPING })),
    worst: x.map((v) => totalOrNaN(worstCaseWriteAmplification, { ...at(v), distribution: UNIFORM })),
  };
}

export const KEY_SWEEP_PER_DECADE = 6;

/**
 * WA against the number of keys N (paper Fig 9: 1 M – 1 G keys), from N/1000 to 100·N around the
 * current N (within 10³ – 10¹²). L follows N when it is automatic, hence the saw-tooth.
 */
export function keysSweep({ params, theta }: SweepArgs): SeriesSweep {
  const n = params.keySpace;
  const lo = Math.max(1e3, Math.min(n, n / 1e3));
  const hi = Math.min(1e12, Math.max(n, n * 1e2));
  const x = logGrid(lo, hi, KEY_SWEEP_PER_DECADE, [n], true);
  return threeSeries(x, (keySpace) => ({ ...params, keySpace }), theta);
}

export const SKEW_STEP = 0.05;
export const SKEW_MAX = 1.5;

/** WA against Zipf θ at the current N (paper Fig 8); θ = 0 is uniform. The worst case is flat. */
export function skewSweep({ params, theta }: SweepArgs): { theta: number[]; msls: number[]; worst: number[] } {
  const grid = Array.from({ length: Math.round(SKEW_MAX / SKEW_STEP) + 1 }, (_, i) => Number((i * SKEW_STEP).toFixed(10)));
  const thetas = [...new Set([...grid, theta])].sort((a, b) => a - b);
  const worst = totalOrNaN(worstCaseWriteAmplification, params);
  return {
    theta: thetas,
    msls: thetas.map((t) => totalOrNaN(mslsWriteAmplification, { ...params, distribution: zipf(t), grouping: SWEEP_GROUPING })),
    worst: thetas.map(() => worst),
  };
}

export type LevelAxis = 'buf' | 'l1' | 'r';

/**
 * WA against one level-size setting with the others fixed (paper Fig 10: the write buffer; Fig 15:
 * the growth factor, which changes L when L is automatic). x is in MiB for buf and l1.
 */
export function levelSweep({ params, theta, axis }: SweepArgs & { axis: LevelAxis }): SeriesSweep & { axis: LevelAxis } {
  const entry = params.entryBytes ?? 1000;
  if (axis === 'r') {
    const r = params.growthFactor ?? 10;
    const x = logGrid(Math.min(2, r), Math.max(100, r), 16, [r]);
    return { axis, ...threeSeries(x, (growthFactor) => ({ ...params, growthFactor }), theta) };
  }
  if (axis === 'buf') {
    const cur = (params.writeBufferBytes ?? 4 * MIB) / MIB;
    const x = logGrid(Math.max(entry / MIB, cur / 32), cur * 256, 8, [cur]);
    return { axis, ...threeSeries(x, (mib) => ({ ...params, writeBufferBytes: mib * MIB }), theta) };
  }
  const cur = (params.level1Bytes ?? 10 * MIB) / MIB;
  const x = logGrid(cur / 32, cur * 100, 8, [cur]);
  return { axis, ...threeSeries(x, (mib) => ({ ...params, level1Bytes: mib * MIB }), theta) };
}

// ────────────────────────────────────────────────────────────────────────── optimiser

export interface OptimizeResult {
  /** Size(1..L) in items, current geometric sizes and optimised (last = N). */
  baselineItems: number[];
  optimizedItems: number[];
  /** Optimised Size(1..L−1) in bytes (feed back as `levelBytes`). */
  levelBytes: number[];
  baselineTotal: number;
  optimizedTotal: number;
  /** WA written into each level, [flush into L0, into L1, …, into L]. */
  baselinePerLevel: number[];
  optimizedPerLevel: number[];
  gain: number;
  minGrowthFactor: number;
  minLevel1Items: number;
  activeConstraints: string[];
  evaluations: number;
}

/** mslsOptimizeLevelSizes with its default constraints (worker: ~100 ms for Zipf at N = 10⁸). */
export function optimize({ params }: { params: MslsLevelParams }): OptimizeResult {
  const o = mslsOptimizeLevelSizes(params);
  return {
    baselineItems: o.baseline.resolved.levelItems,
    optimizedItems: o.levelItems,
    levelBytes: o.levelBytes,
    baselineTotal: o.baseline.total,
    optimizedTotal: o.optimized.total,
    baselinePerLevel: o.baseline.perLevel,
    optimizedPerLevel: o.optimized.perLevel,
    gain: o.gain,
    minGrowthFactor: o.constraints.minGrowthFactor,
    minLevel1Items: o.constraints.minLevel1Items,
    activeConstraints: o.activeConstraints,
    evaluations: o.evaluations,
  };
}

// ────────────────────────────────────────────────────────────────────────── primitives

export interface PrimitivesArgs {
  keySpace: number;
  theta: number;
  distribution: MslsDistribution;
  /** Size(1..L−1) in items (the levels whose density gradient is drawn). */
  levelItems: readonly number[];
}

export const DENSITY_POINTS = 40;

/**
 * Unique(p)/N against requests p (paper Fig 4), uniform and Zipf θ, p from N/1000 to 1000·N; and
 * the density of each level l < L by distance behind its round-robin cursor (Fig 6), absolute and
 * relative to the level's mean.
 */
export function primitives({ keySpace, theta, distribution, levelItems }: PrimitivesArgs) {
  const requests = logGrid(keySpace / 1e3, keySpace * 1e3, 10);
  return {
    requests,
    uniform: requests.map((p) => unique(p, keySpace, UNIFORM) / keySpace),
    zipf: requests.map((p) => unique(p, keySpace, zipf(theta)) / keySpace),
    // Relative to the level's mean density Size(l)/N (the profile averages to it by Theorem 3's
    // definition of DInterval), so small and large levels share one axis.
    density: levelItems.map((size) =>
      mslsDensityProfile(size, keySpace, distribution, DENSITY_POINTS).map((p) => ({ ...p, relative: (p.density * keySpace) / size })),
    ),
  };
}

/** The from-empty model (leveled-growth) of each design: a point per flush. */
export function growth({ designs }: { designs: LeveledGrowthParams[] }): LeveledGrowthPoint[][] {
  return designs.map((d) => leveledGrowthWriteAmplification(d).points);
}

export const mslsSweeps = {
  'msls.current': current,
  'msls.keys': keysSweep,
  'msls.skew': skewSweep,
  'msls.levels': levelSweep,
  'msls.optimize': optimize,
  'msls.primitives': primitives,
  'msls.growth': growth,
};

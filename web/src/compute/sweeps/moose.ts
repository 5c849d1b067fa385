/**
 * The numbers behind the "Moose design space" page (Liu et al., SIGMOD 2024): the costs of the
 * user's per-level layout, Smoose's choice for a workload, the named designs (leveling, tiering,
 * lazy leveling, default Moose), the design space as a cloud in update-vs-lookup space, the
 * RU-curve of the current capacities (Eq.7, Fig.10A) and the cost against the last level's share
 * (Fig.10B).
 *
 * Helpers here compose model functions: a layout "with optimal filters" (the optimal split of
 * Eq.10 for the memory budget, then mooseCosts), and the fixed-ratio trees over a sweep of T.
 */
import {
  mooseCosts,
  mooseEqualRatioRuBound,
  mooseFixedRatioCapacities,
  mooseLastLevelSweep,
  mooseLevelCapacities,
  mooseOptimalBitsPerEntry,
  moosePresetLayouts,
  mooseRuCurve,
  mooseRunVectors,
  mooseStructure,
  smoose,
  type Dataset,
  type MooseCosts,
  type MooseLevel,
  type MooseOptions,
  type MooseShapeLevel,
  type MooseUpdateModel,
  type Workload,
} from '@lsm/models';
import { bufferEntriesOf } from '../../documents/mooseTable';

/** What every Moose computation shares: the data, the buffer, the filter budget, the cost model. */
export interface MooseEnv {
  dataset: Dataset;
  /** Write buffer F, bytes. */
  bufferBytes: number;
  /** Filter memory, bytes (the page's bits/entry × N / 8). */
  memoryBytes: number;
  updateModel: MooseUpdateModel;
}

export function optionsOf(env: MooseEnv): MooseOptions {
  return { bufferBytes: env.bufferBytes, updateModel: env.updateModel };
}

/** A shape with the optimal filter split of `memoryBytes` over its levels (Eq.10). */
export function withOptimalBits(env: MooseEnv, shape: readonly MooseShapeLevel[]): MooseLevel[] {
  const bits = mooseOptimalBitsPerEntry(env.dataset, shape, env.memoryBytes, optionsOf(env));
  return shape.map((l, i) => ({ sizeRatio: l.sizeRatio, runs: l.runs, bitsPerEntry: bits[i] }));
}

// ------------------------------------------------------------------ the user's layout

export interface LayoutArgs extends MooseEnv {
  workload: Workload;
  levels: readonly MooseLevel[];
  /** Use the optimal split of memoryBytes instead of the levels' own bits. */
  optimalFilters: boolean;
}

export interface LayoutView {
  /** The levels as evaluated (bits = the optimal split when optimalFilters). */
  levels: MooseLevel[];
  /** The optimal split of the memory budget over these levels, bits per entry. */
  optimalBits: number[];
  costs: MooseCosts;
  /** Filter memory actually used, bits per entry over all N entries. */
  filterBitsPerEntry: number;
  /** N_L / N. */
  lastLevelFraction: number;
}

export function layoutView(args: LayoutArgs): LayoutView {
  const optimal = withOptimalBits(args, args.levels);
  const levels = args.optimalFilters ? optimal : args.levels.map((l) => ({ ...l }));
  const costs = mooseCosts(args.dataset, levels, args.workload, optionsOf(args));
  const last = costs.levels[costs.levels.length - 1];
  return {
    levels,
    optimalBits: optimal.map((l) => l.bitsPerEntry),
    costs,
    filterBitsPerEntry: costs.filterBits / args.dataset.entries,
    lastLevelFraction: last.entries / args.dataset.entries,
  };
}

// ------------------------------------------------------------------ designs compared

export interface NamedLayout {
  id: string;
  label: string;
  /** A few characters, for a chart's category axis. */
  short: string;
  levels: readonly MooseLevel[];
}

/** A design's costs for the workload: I/O per operation of each class, space amplification, and their weighted sum. */
export interface DesignCosts {
  zeroResultPoint: number;
  nonZeroResultPoint: number;
  range: number;
  update: number;
  spaceAmplification: number;
  weighted: number;
}

export interface DesignRow extends DesignCosts {
  id: string;
  label: string;
  short: string;
  levels: number;
  sizeRatios: number[];
  runs: number[];
}

/** Each named layout's costs for the workload (its own bits, as given). */
export function compareDesigns(args: { dataset: Dataset; workload: Workload; options: MooseOptions; designs: readonly NamedLayout[] }): DesignRow[] {
  return args.designs.map((d) => {
    const c = mooseCosts(args.dataset, d.levels, args.workload, args.options);
    return {
      id: d.id,
      label: d.label,
      short: d.short,
      levels: c.levels.length,
      sizeRatios: c.levels.map((l) => l.sizeRatio),
      runs: c.levels.map((l) => l.runs),
      zeroResultPoint: c.zeroResultPoint,
      nonZeroResultPoint: c.nonZeroResultPoint,
      range: c.range,
      update: c.update,
      spaceAmplification: c.spaceAmplification,
      weighted: c.weighted,
    };
  });
}

// ------------------------------------------------------------------ sweeps for the worker

export interface PresetArgs {
  dataset: Dataset;
  bufferBytes: number;
  /** T of leveling, tiering and lazy leveling. */
  sizeRatio: number;
  /** Average filter bits per entry, split optimally over each layout. */
  bitsPerEntry: number;
}

export function presetLayouts(args: PresetArgs) {
  return moosePresetLayouts(args.dataset, { sizeRatio: args.sizeRatio, bufferBytes: args.bufferBytes, bitsPerEntry: args.bitsPerEntry });
}

export interface SmooseArgs extends MooseEnv {
  workload: Workload;
}

/** Smoose's choice and how long the search took here (ms). */
export function smooseChoice(args: SmooseArgs) {
  const t0 = performance.now();
  const result = smoose(args.dataset, args.workload, args.memoryBytes, optionsOf(args));
  return { result, searchMs: performance.now() - t0 };
}

export type DesignFamily = 'leveling' | 'tiering' | 'lazyLeveling' | 'moose';

export interface DesignPoint {
  family: DesignFamily;
  label: string;
  zeroResultPoint: number;
  range: number;
  update: number;
  weighted: number;
}

/** Size ratios of the fixed-ratio families in the cloud. */
export const SPACE_RATIOS = [2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 16, 20, 24, 32, 48, 64, 100];
/** N_L/N of the Moose structures in the cloud; each is swept over every k breakpoint. */
export const SPACE_FRACTIONS = [0.5, 0.6, 0.7, 0.8, 0.9, 0.95];

const list = (v: readonly number[]) => v.map((x) => Number(x.toPrecision(3))).join(', ');

/**
 * The design space as points (reference §5.1.4): leveling, tiering (n = T) and lazy leveling over
 * SPACE_RATIOS on the full geometric tree, and Moose structures (the Σ√r DP for each N_L of
 * SPACE_FRACTIONS) at every distinct run vector n_i = round(k√r_i). All with optimal filters.
 */
export function designSpace(args: SmooseArgs): { points: DesignPoint[] } {
  const options = optionsOf(args);
  const x = args.dataset.entries / bufferEntriesOf(args);
  const points: DesignPoint[] = [];
  const add = (family: DesignFamily, label: string, shape: MooseShapeLevel[]) => {
    const c = mooseCosts(args.dataset, withOptimalBits(args, shape), args.workload, options);
    points.push({ family, label, zeroResultPoint: c.zeroResultPoint, range: c.range, update: c.update, weighted: c.weighted });
  };
  for (const T of SPACE_RATIOS.filter((t) => t <= x)) {
    const caps = mooseFixedRatioCapacities(x, T);
    const ratios = caps.map((c, i) => c / (i === 0 ? 1 : caps[i - 1]));
    const L = ratios.length;
    const tier = ratios.map((r) => Math.min(T, Math.max(1, Math.floor(r + 1e-9))));
    add('leveling', `Leveling T = ${T}, ${L} levels`, ratios.map((r) => ({ sizeRatio: r, runs: 1 })));
    add('tiering', `Tiering T = ${T}, ${L} levels`, ratios.map((r, i) => ({ sizeRatio: r, runs: tier[i] })));
    add('lazyLeveling', `Lazy leveling T = ${T}, ${L} levels`, ratios.map((r, i) => ({ sizeRatio: r, runs: i === L - 1 ? 1 : tier[i] })));
  }
  for (const f of SPACE_FRACTIONS) {
    const s = mooseStructure(args.dataset, { lastLevelFraction: f }, options);
    for (const { k, runs } of mooseRunVectors(s.sizeRatios)) {
      add('moose', `Moose N_L = ${f}N, k = ${Number(k.toPrecision(3))}: r = ${list(s.sizeRatios)}; n = ${runs.join(', ')}`, s.sizeRatios.map((r, i) => ({ sizeRatio: r, runs: runs[i] })));
    }
  }
  return { points };
}

export interface RuArgs extends MooseEnv {
  /** The current layout's ratios (the last one is a capacity; it holds the remainder). */
  sizeRatios: number[];
}

/** Points of the continuous RU hyperbola R·U = A²/B (Eq.7) between R = L and R = Σ floor(r_i). */
function hyperbola(A: number, B: number, ratios: readonly number[], points = 48) {
  const lo = ratios.length;
  const hi = Math.max(lo + 1, ratios.reduce((a, r) => a + Math.max(1, Math.floor(r + 1e-9)), 0));
  return Array.from({ length: points + 1 }, (_, i) => {
    const R = lo * Math.pow(hi / lo, i / points);
    return { k: R / A, range: R, update: (A * A) / (B * R) };
  });
}

/**
 * The RU-curve of the current capacities over k (Fig.10A / Eq.7), the same for the Σ√r DP's
 * capacities at the current N_L (§5.1.2: the best RU-curve for that N_L), and Eq.8's bound for
 * equal ratios over the same span.
 */
export function ruCurves(args: RuArgs) {
  const options = optionsOf(args);
  const current = mooseRuCurve(args.dataset, args.sizeRatios, args.memoryBytes, options);
  const caps = mooseLevelCapacities(args.dataset, args.sizeRatios.map((r) => ({ sizeRatio: r, runs: 1 })), options);
  const L = caps.entries.length;
  const lastLevelFraction = caps.entries[L - 1] / args.dataset.entries;
  const effective = caps.sizeRatios;
  let dp: (ReturnType<typeof mooseRuCurve> & { sizeRatios: number[] }) | null = null;
  // The DP places N_L ∈ [N/2, N]; a smaller last level has no DP counterpart.
  if (lastLevelFraction >= 0.5 && args.dataset.entries / caps.bufferEntries >= 2) {
    const s = mooseStructure(args.dataset, { lastLevelFraction }, options);
    dp = { ...mooseRuCurve(args.dataset, s.sizeRatios, args.memoryBytes, options), sizeRatios: s.sizeRatios };
  }
  const B = current.entriesPerPage;
  const lastOverBuffer = caps.entries[L - 1] / caps.bufferEntries;
  return {
    lastLevelFraction,
    current: { ...current, sizeRatios: effective, continuous: hyperbola(current.sumSqrtRatios, B, effective) },
    dp: dp && { ...dp, continuous: hyperbola(dp.sumSqrtRatios, B, dp.sizeRatios) },
    equalRatio: lastOverBuffer > 1 ? mooseEqualRatioRuBound(lastOverBuffer, L, B) : null,
  };
}

/** N_L/N from 0.5 to 0.99 (Fig.10B's range), every 0.01. */
export const LAST_LEVEL_FRACTIONS = Array.from({ length: 50 }, (_, i) => Number((0.5 + i / 100).toFixed(2)));

/** Default Moose's costs (k = 1, the Σ√r DP) against N_L/N for the workload (Fig.10B, §5.1.3). */
export function lastLevelCurve(args: SmooseArgs) {
  const points = mooseLastLevelSweep(args.dataset, args.workload, args.memoryBytes, { fractions: LAST_LEVEL_FRACTIONS, k: 1 }, optionsOf(args));
  return {
    points: points.map((p) => ({
      fraction: p.lastLevelFraction,
      sizeRatios: p.sizeRatios,
      runs: p.runs,
      zeroResultPoint: p.zeroResultPoint,
      range: p.range,
      update: p.update,
      weighted: p.weighted,
    })),
  };
}

export const mooseSweeps = {
  'moose.presets': presetLayouts,
  'moose.smoose': smooseChoice,
  'moose.space': designSpace,
  'moose.ru': ruCurves,
  'moose.lastLevel': lastLevelCurve,
};

/**
 * Moose + Smoose (Liu, Wang, Mo, Luo, "Structural Designs Meet Optimality", SIGMOD 2024).
 *
 * The generalised LSM-tree: every disk level i has its own size ratio r_i = N_i / N_{i−1}
 * (N_0 = F, the write buffer), its own maximum run count n_i (1 ≤ n_i ≤ r_i) and its own
 * Bloom-filter bits per entry. Costs, in page I/Os per operation, are the paper's formulas taken
 * literally (their big-O bodies, no hidden constants):
 *
 *   zero-result point  Z  = Σ n_i p_i                              [paper Eq.4]
 *   short range        R  = Σ n_i                                  [paper Eq.3]
 *   update             U  = (1/B) Σ r_i / n_i                      [paper Eq.2]
 *   space amp.         SA = n_L · N / N_L                          [paper Eq.15]
 *
 * plus labelled [extension]s the explorer needs: non-zero-result point lookups, long ranges
 * (+ t/B), and the refined update cost (1/B) Σ (s_i + 1)/2.
 *
 * Conventions (pinned so that layouts, tests and the engine agree):
 * - Runs use MOOSE's convention: tiering is n_i = T (Monkey/Dostoevsky write T−1). The engine's
 *   `max_runs` has the same meaning as n_i here (its run capacity is capacity / max_runs, and a
 *   level whose n_i-th run is full is merged down), so `mooseToEngineLevels` copies n_i as is.
 * - A layout is a list of levels, smallest first, each `{ sizeRatio, runs, bitsPerEntry }`.
 *   Levels 1..L−1 are full (N_i = F · r_1 ⋯ r_i); the LAST level holds whatever is left of the
 *   dataset, N_L = N − Σ_{i<L} N_i, and its `sizeRatio` is its capacity (an upper bound). This is
 *   the paper's Σ N_i = N with r_L = N_L / N_{L−1} "whatever is left" (r_L may be below 2).
 * - The buffer F enters through `options.bufferBytes` (default 2 MiB, the paper's setting):
 *   F = floor(bufferBytes / entryBytes) entries. B = floor(pageBytes / entryBytes) entries/page.
 * - Filter memory is in BYTES at the API (bits per entry per level inside layouts); FPRs use the
 *   ideal-hash-count formula p = exp(−b · ln²2) from `bloom.ts`.
 * - Fixed-ratio presets use the reference's "full geometric tree": N_i = N_L / T^{L−i} with
 *   Σ N_i = N (RocksDB's dynamic level sizing). Should that make the first level smaller than two
 *   buffers, it is folded into the next level (the first ratio then lies in (T, 2T)).
 *
 * Reconstructions (reference §9), implemented as the reference recommends: the DP is the "exact"
 * variant of Eq.12 (the printed one under-counts; `mooseDpLiteral` keeps it for comparison);
 * n_i = k√r_i is rounded half up and clamped to [1, floor r_i]; Smoose's filters use the optimal
 * split of Eq.10; the workload-aware DP cost s·n + u·r/(nB) of §4.6 is the reference's guess at
 * what the authors ran (it reproduces the shape of Table 3 for A, B, D, I). Smoose runs both DPs
 * and, by default, also scores the fixed-ratio presets, so its choice never loses to them.
 *
 * Where to find what: types.ts (public types, defaults) · capacities.ts (level geometry) ·
 * filters.ts (optimal filter split) · costs.ts (cost formulas, `mooseCosts`) · runs.ts (n_i = k√r_i) ·
 * dp.ts (inner-level DP) · structure.ts (Moose structures, presets, engine export) ·
 * smoose.ts (Smoose; its search in smoose-search.ts) · curves.ts (trade-off curves) ·
 * checks.ts (limits and input validation, internal).
 */
export type {
  MooseCostBreakdown,
  MooseCosts,
  MooseLevel,
  MooseLevelDetail,
  MooseOptions,
  MooseShapeLevel,
  MooseUpdateModel,
} from './types';
export {
  MOOSE_DEFAULT_BUFFER_BYTES,
  MOOSE_DEFAULT_K,
  MOOSE_DEFAULT_LAST_LEVEL_FRACTION,
  MOOSE_OPTIMAL_EQUAL_RATIO,
} from './types';
export { mooseCapacitiesFromRatios, mooseCapacitiesFromShape, mooseLevelCapacities } from './capacities';
export { mooseOptimalBitsPerEntry, mooseOptimalFprs } from './filters';
export {
  mooseCosts,
  mooseEq11PointCost,
  mooseLemma32Factor,
  mooseNonZeroResultPointCost,
  mooseShortRangeCost,
  mooseSpaceAmplification,
  mooseSpaceAmplificationBound,
  mooseUpdateCostPaper,
  mooseUpdateCostRefined,
  mooseZeroResultPointCost,
} from './costs';
export { mooseKBreakpoints, mooseRunVectors, mooseRuns } from './runs';
export type { MooseDpLevelCost, MooseDpResult } from './dp';
export { mooseDp, mooseDpLiteral, mooseSqrtLevelCost, smooseWorkloadLevelCost } from './dp';
export type { MooseEngineLevel, MoosePresetParams, MooseStructure, MooseStructureParams } from './structure';
export {
  mooseFixedRatioCapacities,
  mooseLayout,
  moosePresetLayouts,
  mooseStructure,
  mooseToEngineLevels,
} from './structure';
export type { SmooseBaseline, SmooseOptions, SmooseResult, SmooseVariant } from './smoose';
export { smoose, smooseContinuous } from './smoose';
export type { MooseCurvePoint, MooseLastLevelPoint, MooseTradeoffCurves } from './curves';
export { mooseEqualRatioRuBound, mooseLastLevelSweep, mooseRuCurve, mooseTradeoffCurves } from './curves';

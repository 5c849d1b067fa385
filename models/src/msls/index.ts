/**
 * MSLS (Lim, Andersen, Kaminsky, FAST'16): accurate write-amplification models for multi-stage
 * log-structured designs, built from three primitives over a key-popularity distribution:
 * Unique (expected distinct keys among p requests), Unique⁻¹ and Merge.
 *
 * Units: every model quantity is in ITEMS (fixed-size entries) and every "time" in insert REQUESTS.
 * The public parameter objects take bytes (project convention) and convert with `entryBytes`.
 * Write amplification (WA) = data written to storage ÷ data inserted; compaction reads are excluded.
 *
 * Reference: msls.md (§2 primitives, §3 design models, §4 level-size optimisation).
 *
 * Where to find what: popularity.ts (key distributions) · primitives.ts (Unique, Unique⁻¹, Merge,
 * DInterval) · params.ts (design parameters, defaults) · leveled.ts (LevelDB write amplification) ·
 * optimize.ts (level-size optimiser) · read.ts (read amplification) · other-designs.ts (universal
 * compaction, COLA, SAMT).
 */
export type { MslsDistribution, MslsGrouping } from './popularity';
export type { MslsQueryWeighting } from './primitives';
export { mslsDInterval, mslsDensityProfile, mslsMerge, unique, uniqueInverse, uniqueWeighted } from './primitives';
export type {
  MslsLevelParams,
  MslsResolvedLevelParams,
  MslsTableSelection,
  MslsWorkloadParams,
} from './params';
export { MSLS_LEVELDB_DEFAULTS, mslsResolveLevelParams } from './params';
export type { MslsCompactionStep, MslsWriteAmplification } from './leveled';
export { mslsWriteAmplification, worstCaseWriteAmplification } from './leveled';
export type { MslsOptimizeOptions, MslsOptimizedLevels } from './optimize';
export { mslsOptimizeLevelSizes } from './optimize';
export type { MslsReadAmplification, MslsReadComponent, MslsReadOptions } from './read';
export { mslsReadAmplification } from './read';
export type { MslsColaParams, MslsUniversalParams } from './other-designs';
export {
  mslsColaWriteAmplification,
  mslsSamtWriteAmplification,
  mslsUniversalWriteAmplification,
} from './other-designs';

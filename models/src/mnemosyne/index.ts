/**
 * Mnemosyne (workload-aware per-file Bloom-filter sizing) and its statistics estimator Merlin.
 * Reference: mnemosyne-shamba.md Part A. Every formula uses the ideal-k FPR ε(b) = exp(−b·ln²2).
 *
 * Units: entries and probe counts are counts (real-valued estimates allowed); filter memory is in
 * BITS (`filterBits` = the total budget M = avg bpk · Σ entries); per-file results are bits per key.
 * "logC" is the log-space Lagrange constant C of Eq 7 (ε_i = (n_i/z_i)·e^C); the paper's Eq 12 also
 * calls K = e^C "C" — we never do (pitfall P-A2).
 *
 * Where to find what: allocation.ts (file inputs, exact solvers) · baselines.ts (uniform, Monkey+,
 * closed form, gradient descent) · cost.ts (cost of a plan) · engine-rules.ts (skip, rounding,
 * sizing new files) · merlin.ts (Merlin estimator) · naive.ts (naive tracker, estimator accuracy).
 */
export type { MnemosyneFile, MnemosyneSolution, MnemosyneSolveOptions } from './allocation';
export { mnemosyneAllocation, mnemosyneBinarySearch, mnemosyneSortAndSearch, mnemosyneWaterFilling } from './allocation';
export type { MnemosyneMonkeyClosedForm } from './baselines';
export {
  mnemosyneGradientDescent,
  mnemosyneMonkeyClosedForm,
  mnemosyneMonkeyPlusAllocation,
  mnemosyneUniformAllocation,
} from './baselines';
export type { MnemosyneLookupCost } from './cost';
export { mnemosyneExpectedCost, mnemosyneLookupCost } from './cost';
export type { MnemosyneSizingInput } from './engine-rules';
export { mnemosyneBuildBitsPerKey, mnemosyneSizeNewFiles, mnemosyneSkipFilter } from './engine-rules';
export type {
  MerlinCompactionInput,
  MerlinCompactionOutput,
  MerlinEstimate,
  MerlinOptions,
  MerlinProbe,
  MerlinState,
} from './merlin';
export { merlinEstimate, merlinFlushPrior, merlinInherit, merlinNewFile, merlinRecordProbe } from './merlin';
export type { MnemosyneNaiveCounters } from './naive';
export { mnemosyneEstimatorAccuracy, mnemosyneNaiveInherit, mnemosyneNaiveRecordProbe } from './naive';

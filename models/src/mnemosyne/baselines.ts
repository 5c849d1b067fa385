/** Allocation baselines Mnemosyne is compared with: uniform, Monkey+, Monkey's closed form, gradient descent. */
import { LN2_SQ } from '../bloom';
import { ModelInputError, requireNumber } from '../validate';
import { mnemosyneSortAndSearch, validateBudget, validateFiles, type MnemosyneFile } from './allocation';

// ───────────────────────────────────────────────────────────────── baselines

/** Every file gets the same bits per key, M / Σ entries (RocksDB default). */
export function mnemosyneUniformAllocation(files: readonly MnemosyneFile[], filterBits: number): number[] {
  validateFiles(files);
  const M = validateBudget(filterBits);
  const total = files.reduce((s, f) => s + f.entries, 0);
  return files.map(() => (total > 0 ? M / total : 0));
}

/**
 * Monkey+ (§A.3.1): the exact Monkey optimum for the actual per-level entry counts, i.e. Algorithm 1
 * with equal weights z_j = 1. Returns bits per key per level (input order); levels with 0 entries get 0.
 */
export function mnemosyneMonkeyPlusAllocation(levelEntries: readonly number[], filterBits: number): number[] {
  if (!Array.isArray(levelEntries)) throw new ModelInputError('levelEntries', 'must be an array of entry counts');
  const levels = levelEntries.map((n, j) => ({ entries: requireNumber(`levelEntries[${j}]`, n, 0, Infinity, { exclusiveMax: true }), emptyProbes: 1 }));
  return mnemosyneSortAndSearch(levels, filterBits).bitsPerKey;
}

export interface MnemosyneMonkeyClosedForm {
  /** Y: deepest levels without a filter (ceiling fix of the printed floor). */
  levelsWithoutFilter: number;
  /** Cost_min of Eq 4: expected false positives per empty lookup (asymptotic in L). */
  expectedCost: number;
  /** ε_1..ε_L, shallow first. */
  fprs: number[];
  /** b(ε_j), shallow first. */
  bitsPerKey: number[];
}

/**
 * Monkey's closed form for a perfect leveled tree (Eq 4, §A.4.5) with Y = ceil(log_T(ln T/(ln²2·bpk·(T−1))))
 * clamped to [0, L] (the paper prints floor, which can give ε > 1; pitfall P-A3). Assumes every level is full.
 * sizeRatio T ≥ 2, levels L ≥ 1 (integer), bitsPerKey ≥ 0 (average over all entries).
 */
export function mnemosyneMonkeyClosedForm(sizeRatio: number, levels: number, bitsPerKey: number): MnemosyneMonkeyClosedForm {
  const T = requireNumber('sizeRatio', sizeRatio, 2, 1e6);
  const L = requireNumber('levels', levels, 1, 1000, { integer: true });
  const b = requireNumber('bitsPerKey', bitsPerKey, 0, 1000);
  const arg = Math.log(T) / (LN2_SQ * b * (T - 1));
  // The 1e-12 slack keeps an exact power of T from rounding up to an extra unfiltered level.
  const Y = arg <= 1 ? 0 : Math.min(L, Math.ceil(Math.log(arg) / Math.log(T) - 1e-12));
  if (Y === L) return { levelsWithoutFilter: L, expectedCost: L, fprs: new Array<number>(L).fill(1), bitsPerKey: new Array<number>(L).fill(0) };
  const cost = (Math.exp(-b * LN2_SQ * Math.pow(T, Y)) * Math.pow(T, T / (T - 1))) / (T - 1) + Y;
  const fprs: number[] = [];
  for (let j = 1; j <= L; j++) {
    fprs.push(j > L - Y ? 1 : Math.min(1, ((cost - Y) * (T - 1)) / T / Math.pow(T, L - Y - j)));
  }
  return { levelsWithoutFilter: Y, expectedCost: cost, fprs, bitsPerKey: fprs.map((e) => -Math.log(e) / LN2_SQ) };
}

/**
 * Monkey+ style gradient descent (§A.4.4, reconstructed — the seed gives only its O(F²·log M) cost):
 * start with all M bits on file 0, repeatedly try moving Δ bits between every ordered pair of files,
 * halve Δ when a full pass finds no improvement, stop below 1 bit. Timing baseline only; its answer is
 * accurate to about one bit per file. Per-pass multiplicative factors replace exp() in the inner loop so
 * the baseline is not slowed artificially.
 */
export function mnemosyneGradientDescent(files: readonly MnemosyneFile[], filterBits: number): number[] {
  validateFiles(files);
  const M = validateBudget(filterBits);
  const idx = files.map((_, i) => i).filter((i) => files[i].entries > 0);
  const P = idx.length;
  const out = new Array<number>(files.length).fill(0);
  if (P === 0 || M <= 0) return out;
  const n = idx.map((i) => files[i].entries);
  const z = idx.map((i) => files[i].emptyProbes);
  const bits = new Float64Array(P);
  bits[0] = M;
  const e = new Float64Array(P);
  const evalCost = (p: number): number => z[p] * Math.exp(-(bits[p] / n[p]) * LN2_SQ);
  for (let p = 0; p < P; p++) e[p] = evalCost(p);
  const gain = new Float64Array(P); // cost factor when a file receives Δ bits
  const loss = new Float64Array(P); // cost factor when a file gives Δ bits away
  let delta = M;
  while (delta >= 1) {
    for (let p = 0; p < P; p++) {
      gain[p] = Math.exp(-(delta / n[p]) * LN2_SQ);
      loss[p] = Math.exp((delta / n[p]) * LN2_SQ);
    }
    let improved = false;
    for (let i = 0; i < P - 1; i++) {
      for (let j = i + 1; j < P; j++) {
        improved = tryMove(i, j) || improved;
        improved = tryMove(j, i) || improved;
      }
    }
    if (!improved) delta /= 2;
  }
  idx.forEach((i, p) => (out[i] = bits[p] / n[p]));
  return out;

  function tryMove(to: number, from: number): boolean {
    if (bits[from] - delta <= 0) return false;
    const change = e[to] * (gain[to] - 1) + e[from] * (loss[from] - 1);
    // A move must gain more than rounding noise: between two equal files the swap and its reverse
    // both "gain" ±1 ulp and would ping-pong forever instead of letting Δ halve.
    if (!(change < -1e-12 * (e[to] + e[from]))) return false;
    bits[to] += delta;
    bits[from] -= delta;
    e[to] = evalCost(to);
    e[from] = evalCost(from);
    return true;
  }
}

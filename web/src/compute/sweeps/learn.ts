/**
 * The numbers behind the Learn page: the tree shape of Monkey §2 (Eq 1), filter allocations
 * (uniform as in LevelDB/RocksDB, and Monkey's optimum), and the sweeps its charts draw.
 *
 * The Monkey allocation is the exact finite-tree optimum (Monkey reference §3.4) from
 * models/src/monkey.ts: minimising the sum of FPRs for a fixed memory gives every run an FPR
 * proportional to its entry count, capped at 1.
 */
import { exactAllocation, LN2_SQ, requireNumber } from '@lsm/models';

export type MergePolicy = 'leveling' | 'tiering';

export interface TreeInput {
  /** Total entries N. */
  entries: number;
  /** Entry size E (key + value), bytes. */
  entryBytes: number;
  /** Write buffer M_buf, bytes. */
  bufferBytes: number;
  /** Size ratio T ≥ 2. */
  sizeRatio: number;
  policy: MergePolicy;
}

export interface LevelShape {
  level: number;
  /** Entries the level holds in the model: N/T^(L−i)·(T−1)/T. */
  entries: number;
  /** Entries the level can hold before it merges: buffer entries × T^i. */
  capacity: number;
  /** Runs in the level at steady state: 1 (leveling) or T−1 (tiering). */
  runs: number;
}

export interface TreeShape {
  bufferEntries: number;
  levels: LevelShape[];
}

/** Eq 1: L = ⌈log_T(N·E/M_buf · (T−1)/T)⌉, at least one level. */
export function treeShape(t: TreeInput): TreeShape {
  requireNumber('entries', t.entries, 1, Infinity);
  requireNumber('entryBytes', t.entryBytes, 1, Infinity);
  requireNumber('bufferBytes', t.bufferBytes, 1, Infinity);
  requireNumber('sizeRatio', t.sizeRatio, 2, Infinity);
  const T = t.sizeRatio;
  const ratio = ((t.entries * t.entryBytes) / t.bufferBytes) * ((T - 1) / T);
  // The epsilon keeps an exact power of T (a full last level) from rounding up to an extra level.
  const L = Math.max(1, Math.ceil(Math.log(ratio) / Math.log(T) - 1e-9));
  const bufferEntries = t.bufferBytes / t.entryBytes;
  const runs = t.policy === 'leveling' ? 1 : T - 1;
  const levels = Array.from({ length: L }, (_, k) => {
    const i = k + 1;
    return { level: i, entries: (t.entries / T ** (L - i)) * ((T - 1) / T), capacity: bufferEntries * T ** i, runs };
  });
  return { bufferEntries, levels };
}

export interface Allocation {
  /** FPR of each run in level i (all runs of a level are alike). */
  fpr: number[];
  /** Filter bits per entry in level i. */
  bitsPerEntry: number[];
  /** Expected I/O of a zero-result point lookup: Σ runs·FPR (Monkey's R). */
  lookupCost: number;
}

function finish(levels: readonly LevelShape[], fpr: number[]): Allocation {
  return {
    fpr,
    bitsPerEntry: fpr.map((p) => (p >= 1 ? 0 : -Math.log(p) / LN2_SQ)),
    lookupCost: levels.reduce((sum, l, i) => sum + l.runs * fpr[i], 0),
  };
}

/** Every filter gets the same FPR: `memoryBits` spread evenly over all entries in the levels. */
export function uniformAllocation(levels: readonly LevelShape[], memoryBits: number): Allocation {
  requireNumber('memoryBits', memoryBits, 0, Infinity);
  const total = levels.reduce((s, l) => s + l.entries, 0);
  const p = Math.exp((-memoryBits * LN2_SQ) / total);
  return finish(levels, levels.map(() => p));
}

/**
 * Monkey: the exact optimum of models/src/monkey.ts (`exactAllocation`), one entry per level with
 * the level's runs as its weight, so p_i = min(1, λ·(entries per run of level i)).
 */
export function monkeyAllocation(levels: readonly LevelShape[], memoryBits: number): Allocation {
  requireNumber('memoryBits', memoryBits, 0, Infinity);
  return finish(levels, exactAllocation(levels.map((l) => ({ entries: l.entries, weight: l.runs })), memoryBits));
}

/** Worst-case update cost W (Monkey Eq 10): L/B · merges per level · (1 + φ). */
export function updateCost(levels: number, sizeRatio: number, policy: MergePolicy, entriesPerPage: number, phi = 1): number {
  const merges = policy === 'leveling' ? (sizeRatio - 1) / 2 : (sizeRatio - 1) / sizeRatio;
  return (levels / entriesPerPage) * merges * (1 + phi);
}

export interface MemorySweepArgs {
  tree: TreeInput;
  maxBitsPerEntry: number;
  points: number;
}

/** Zero-result lookup cost against filter memory, uniform vs Monkey, for one tree. */
export function memorySweep({ tree, maxBitsPerEntry, points }: MemorySweepArgs) {
  const { levels } = treeShape(tree);
  const bits: number[] = [];
  const uniform: number[] = [];
  const monkey: number[] = [];
  for (let i = 0; i < points; i++) {
    const b = (maxBitsPerEntry * i) / (points - 1);
    bits.push(b);
    uniform.push(uniformAllocation(levels, b * tree.entries).lookupCost);
    monkey.push(monkeyAllocation(levels, b * tree.entries).lookupCost);
  }
  return { bits, uniform, monkey };
}

export interface SizeRatioSweepArgs {
  entries: number;
  entryBytes: number;
  bufferBytes: number;
  pageBytes: number;
  bitsPerEntry: number;
  maxSizeRatio: number;
}

/** Lookup cost (uniform filters) and update cost against T, for both merge policies. */
export function sizeRatioSweep(a: SizeRatioSweepArgs) {
  const B = Math.max(1, Math.floor(a.pageBytes / a.entryBytes));
  const rows: { T: number; levels: number; lookupLev: number; lookupTier: number; updateLev: number; updateTier: number }[] = [];
  for (let T = 2; T <= a.maxSizeRatio; T++) {
    const base = { entries: a.entries, entryBytes: a.entryBytes, bufferBytes: a.bufferBytes, sizeRatio: T };
    const lev = treeShape({ ...base, policy: 'leveling' }).levels;
    const tier = treeShape({ ...base, policy: 'tiering' }).levels;
    const memory = a.bitsPerEntry * a.entries;
    rows.push({
      T,
      levels: lev.length,
      lookupLev: uniformAllocation(lev, memory).lookupCost,
      lookupTier: uniformAllocation(tier, memory).lookupCost,
      updateLev: updateCost(lev.length, T, 'leveling', B),
      updateTier: updateCost(tier.length, T, 'tiering', B),
    });
  }
  return rows;
}

export interface OverviewArgs {
  tree: TreeInput;
  bitsPerEntry: number;
}

/** Everything the Learn page shows for the current settings (light: main thread). */
export function overview({ tree, bitsPerEntry }: OverviewArgs) {
  const shape = treeShape(tree);
  const memory = bitsPerEntry * tree.entries;
  return {
    shape,
    uniform: uniformAllocation(shape.levels, memory),
    monkey: monkeyAllocation(shape.levels, memory),
  };
}

export const learnSweeps = {
  'learn.overview': overview,
  'learn.memory': memorySweep,
  'learn.sizeRatio': sizeRatioSweep,
};

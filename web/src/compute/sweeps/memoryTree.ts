/**
 * The synthetic tree and workload behind the Memory-pressure page's Mnemosyne section: a perfect
 * leveled tree of equal-size files and the expected per-file probe counts (z_i empty, x_i found)
 * of a skewed lookup workload. Pure and deterministic, so a link always reproduces the same tree.
 *
 * The counts are expectations, not samples: a lookup picks a leaf key range with Zipf(θ)
 * probability; with probability Z its key exists nowhere (every file on its path gets an empty
 * probe); otherwise the key lives in level ℓ (by level size, or all in one "hot" level) and the
 * files above ℓ on its path get empty probes, the level-ℓ file a found probe (reference §A.2:
 * z counts probes of a file, P-A4). This is exactly how Example A (§A.7, M2) is built.
 */
import { ModelInputError, mulberry32, requireFraction, requireNumber, shuffleInPlace } from '@lsm/models';
import { levelFileCounts, type MnemosyneTreeInput } from '../../documents/params/memory';

export { levelFileCounts, type FoundAt, type MnemosyneTreeInput } from '../../documents/params/memory';

/** Lookups that reach the disk levels in the observation window (only ratios matter to the solver). */
export const LOOKUPS = 1_000_000;
/** Above this the gradient-descent timing alone takes seconds and per-file bars stop being readable. */
export const MAX_FILES = 1500;

export interface LevelLayout {
  /** Files in the level; each level's count must divide the deepest level's. */
  files: number;
  /** Entries in each file of the level. */
  entriesPerFile: number;
}

export interface SyntheticFile {
  /** "L2·3": level 2, third file from the left of the key space. */
  id: string;
  level: number;
  /** 1-based position within the level. */
  position: number;
  entries: number;
  /** z_i: expected empty probes over LOOKUPS lookups. */
  emptyProbes: number;
  /** x_i: expected probes that find their key in the file. */
  foundProbes: number;
  /** Share of all lookups whose key falls in the file's key range. */
  accessShare: number;
}

/**
 * Expected probes per file for explicit leaf-range probabilities (deepest level's files, left to
 * right) and per-level shares of where existing keys live. General form, used by the tests with
 * Example A's layout (files 1/2/4 of 1000/2000/4000 entries).
 */
export function probeCounts(
  layout: readonly LevelLayout[],
  rangeProbabilities: readonly number[],
  emptyFraction: number,
  foundShares: readonly number[],
  lookups: number,
): SyntheticFile[] {
  const Z = requireFraction('emptyFraction', emptyFraction);
  requireNumber('lookups', lookups, 0, Infinity, { exclusiveMin: true, exclusiveMax: true });
  if (layout.length === 0) throw new ModelInputError('layout', 'needs at least one level');
  if (foundShares.length !== layout.length) throw new ModelInputError('foundShares', `must list one share per level (${layout.length})`);
  const leaves = layout[layout.length - 1].files;
  if (rangeProbabilities.length !== leaves) throw new ModelInputError('rangeProbabilities', `must list one probability per leaf range (${leaves})`);
  layout.forEach((l, j) => {
    requireNumber(`layout[${j}].files`, l.files, 1, leaves, { integer: true });
    requireNumber(`layout[${j}].entriesPerFile`, l.entriesPerFile, 0, Infinity, { exclusiveMin: true, exclusiveMax: true });
    if (leaves % l.files !== 0) throw new ModelInputError(`layout[${j}].files`, `must divide the deepest level's ${leaves} files`);
  });
  // Where an existing key lives, as a probability per level; "deeper than j" is a suffix sum.
  const deeper = foundShares.map((_, j) => foundShares.slice(j + 1).reduce((s, w) => s + w, 0));
  const files: SyntheticFile[] = [];
  layout.forEach((l, j) => {
    const span = leaves / l.files;
    for (let k = 0; k < l.files; k++) {
      let share = 0;
      for (let r = k * span; r < (k + 1) * span; r++) share += rangeProbabilities[r];
      files.push({
        id: `L${j + 1}·${k + 1}`,
        level: j + 1,
        position: k + 1,
        entries: l.entriesPerFile,
        emptyProbes: lookups * share * (Z + (1 - Z) * deeper[j]),
        foundProbes: lookups * share * (1 - Z) * foundShares[j],
        accessShare: share,
      });
    }
  });
  return files;
}

/**
 * Zipf(θ) over `ranges` leaf key ranges: rank r gets ∝ 1/r^θ (θ = 0 is uniform). Seed 0 puts the
 * hottest range leftmost and the coldest rightmost; any other seed shuffles the ranks
 * (Fisher–Yates with mulberry32), the same way every time.
 */
export function zipfRanges(ranges: number, skew: number, seed: number): number[] {
  requireNumber('ranges', ranges, 1, 1e7, { integer: true });
  const theta = requireNumber('skew', skew, 0, 10);
  requireNumber('seed', seed, 0, 2 ** 32 - 1, { integer: true });
  const weights = Array.from({ length: ranges }, (_, r) => 1 / Math.pow(r + 1, theta));
  const total = weights.reduce((s, w) => s + w, 0);
  const byRank = weights.map((w) => w / total);
  if (seed === 0) return byRank;
  const order = shuffleInPlace(byRank.map((_, i) => i), mulberry32(seed));
  return order.map((rank) => byRank[rank]);
}


/** Why a combination of tree controls cannot be drawn, or null. Field names match the state keys. */
export function treeProblems(t: MnemosyneTreeInput): { files?: string; hotLevel?: string } {
  const total = levelFileCounts(t).reduce((s, n) => s + n, 0);
  const out: { files?: string; hotLevel?: string } = {};
  if (total > MAX_FILES) {
    out.files = `this tree has ${total.toLocaleString('en-US')} files; the page handles at most ${MAX_FILES.toLocaleString('en-US')} (lower T, the levels or the files in level 1)`;
  }
  if (t.foundAt === 'hot' && t.hotLevel > t.levels) out.hotLevel = `hot level must be at most the number of levels (${t.levels})`;
  return out;
}

/** The synthetic tree's files, shallow levels first, left to right. */
export function syntheticTree(t: MnemosyneTreeInput): SyntheticFile[] {
  const T = requireNumber('sizeRatio', t.sizeRatio, 2, 100, { integer: true });
  const L = requireNumber('levels', t.levels, 1, 10, { integer: true });
  requireNumber('filesInFirstLevel', t.filesInFirstLevel, 1, 1000, { integer: true });
  requireNumber('entriesPerFile', t.entriesPerFile, 1, 1e12);
  requireNumber('hotLevel', t.hotLevel, 1, L, { integer: true });
  const problem = treeProblems(t).files;
  if (problem) throw new ModelInputError('files', problem);
  const counts = levelFileCounts({ sizeRatio: T, levels: L, filesInFirstLevel: t.filesInFirstLevel });
  const layout = counts.map((files) => ({ files, entriesPerFile: t.entriesPerFile }));
  const levelEntries = counts.map((c) => c * t.entriesPerFile);
  const total = levelEntries.reduce((s, n) => s + n, 0);
  const foundShares = t.foundAt === 'hot' ? counts.map((_, j) => (j + 1 === t.hotLevel ? 1 : 0)) : levelEntries.map((n) => n / total);
  const ranges = zipfRanges(counts[L - 1], t.skew, t.seed);
  return probeCounts(layout, ranges, t.emptyFraction, foundShares, LOOKUPS);
}

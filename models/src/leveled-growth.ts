/**
 * Write amplification of a leveled LSM-tree as it grows from empty: N distinct keys arriving in
 * random order into LevelDB's design (level 0 of overlapping flushed files, merged whole into
 * level 1 at c0 files; levels 1, 2, … of disjoint files, each r times the one above, merged one
 * file at a time, round robin). No paper has this transient — MSLS models the steady state, once
 * the key space is full — so it is the project's own model, validated against the engine and
 * against a real LevelDB (interop/leveldb).
 *
 * It is a fluid model: a key is a position in [0, 1), a file is a key range holding its entries
 * spread evenly over it, and a flush is a file over the whole range (a buffer of random keys spans
 * nearly all of it). It applies the compaction rules to ranges and entry counts as the engine and
 * LevelDB apply them to keys: the highest-scoring level first (level 0 by files ÷ c0, level l by
 * entries ÷ its capacity); round robin from the level's cursor; merges widened to the files that
 * fit inside the range rewritten below (up to 25 files); outputs cut at the file size or where they
 * would overlap more than 10 files two levels down, with LevelDB's running count. What it leaves out
 * is the keys' randomness and the unevenness inside one file.
 *
 * A young tree lets LevelDB skip writes (`leveldbShortcuts`): a flush that overlaps nothing goes
 * down to level 1 or 2 (its first two flushes do), and a file that overlaps nothing below moves
 * down without a rewrite. The engine does neither; the model can count either way.
 *
 * Units: entries, and entries written per write. Pure.
 */
import { mulberry32 } from './random';
import { ModelInputError, requireNumber } from './validate';

export interface LeveledGrowthParams {
  /** N: distinct keys written, in [1, 2e8]. */
  keys: number;
  /** Writes per flush (the buffer in entries), in [1, 1e9]. */
  bufferEntries: number;
  /** c0: level-0 files that trigger a merge into level 1, integer in [1, 1000]. Default 4. */
  level0Trigger?: number;
  /** The capacities of levels 1, 2, …, k in entries (k ≥ 1, each ≥ 1); deeper levels are r times the one above. */
  levelEntries: readonly number[];
  /** r: each level's capacity ÷ the one above, beyond those listed; in (1, 1e6]. Default 10. */
  growthFactor?: number;
  /** A file's size in entries (merge outputs are cut there), in [1, 1e15]. */
  fileEntries: number;
  /** LevelDB's young-tree shortcuts (flush placement below level 0, trivial moves). Default false (the engine). */
  leveldbShortcuts?: boolean;
  /** Realisations of the keys' sampling noise averaged, integer in [1, 1000]. Default 8. */
  realisations?: number;
  /** Seed of that noise, integer in [0, 2³² − 1]. Default 1. */
  seed?: number;
}

/** Cumulative entries written per write, from empty to `inserts` writes (the mean of the realisations). */
export interface LeveledGrowthPoint {
  inserts: number;
  /** By flushes (1 until the first flush: each write is flushed once). */
  flush: number;
  /** By merges into level 1, 2, … (index 0 is level 1). */
  levels: number[];
  /** flush + levels. */
  total: number;
  /** The lowest and highest total among the realisations. */
  low: number;
  high: number;
}

export interface LeveledGrowth {
  /** One point per flush, after the merges it triggers. */
  points: LeveledGrowthPoint[];
  /** Files moved down without a rewrite (with the shortcuts only), per realisation on average. */
  trivialMoves: number;
  /** Flushes placed below level 0 (with the shortcuts only), per realisation on average. */
  flushesBelowLevel0: number;
}

/**
 * A file: its key range and entries, spread over the range as a step function — `densities[i]`
 * entries per unit of key range between `edges[i]` and `edges[i + 1]` (edges[0] = lo, the last = hi).
 */
interface File {
  lo: number;
  hi: number;
  entries: number;
  edges: number[];
  densities: number[];
}

/** The steps a file keeps of its density: a merged file inherits its inputs' unevenness, coarsened to this many steps. */
const FILE_STEPS = 8;

function evenFile(lo: number, hi: number, entries: number): File {
  return { lo, hi, entries, edges: [lo, hi], densities: [entries / (hi - lo)] };
}

/** Merge the adjacent steps closest in density until at most FILE_STEPS remain (entries are kept). */
function coarsen(edges: number[], densities: number[]): void {
  while (densities.length > FILE_STEPS) {
    let best = 0;
    for (let i = 1; i + 1 < densities.length; i++) {
      if (Math.abs((densities[i] as number) - (densities[i + 1] as number)) < Math.abs((densities[best] as number) - (densities[best + 1] as number))) best = i;
    }
    const w1 = (edges[best + 1] as number) - (edges[best] as number);
    const w2 = (edges[best + 2] as number) - (edges[best + 1] as number);
    densities.splice(best, 2, ((densities[best] as number) * w1 + (densities[best + 1] as number) * w2) / (w1 + w2));
    edges.splice(best + 1, 1);
  }
}

/** LevelDB's limits, in files: a merge is widened only below 25 files; an output stops at 10 files' overlap two levels down. */
const EXPANDED_MERGE_FILES = 25;
const GRANDPARENT_OVERLAP_FILES = 10;
/** LevelDB pushes a flush at most this far down. */
const MAX_FLUSH_LEVEL = 2;
/** The largest N the model takes (its cost grows with N ÷ file size). */
export const LEVELED_GROWTH_MAX_KEYS = 1e8;

const sum = (files: readonly File[]) => files.reduce((a, f) => a + f.entries, 0);

/**
 * A level below level 0: disjoint files in key order, held in a gap buffer. Merges sweep a level
 * round robin, so the gap follows them and an edit moves a few files, not the whole level.
 */
class SortedLevel {
  private slots: (File | undefined)[] = new Array<File | undefined>(16);
  private gapStart = 0;
  private gapEnd = 16;

  get length(): number {
    return this.slots.length - (this.gapEnd - this.gapStart);
  }

  get(i: number): File {
    return this.slots[i < this.gapStart ? i : i + this.gapEnd - this.gapStart] as File;
  }

  /** The index of the first file that ends after `x` (the length if none). */
  firstEndingAfter(x: number): number {
    let a = 0;
    let b = this.length;
    while (a < b) {
      const m = (a + b) >> 1;
      if (this.get(m).hi <= x) a = m + 1;
      else b = m;
    }
    return a;
  }

  /** The files that meet [lo, hi). */
  overlapping(lo: number, hi: number): File[] {
    const out: File[] = [];
    for (let i = this.firstEndingAfter(lo); i < this.length && this.get(i).lo < hi; i++) out.push(this.get(i));
    return out;
  }

  /** Replace `removed` (contiguous, or none) by `added` (sorted, filling their place). */
  replace(removed: readonly File[], added: readonly File[]): void {
    const first = removed[0] ?? added[0];
    if (!first) return;
    this.moveGap(this.firstEndingAfter(first.lo));
    this.gapEnd += removed.length;
    if (this.gapEnd - this.gapStart < added.length) this.widen(added.length);
    for (const f of added) this.slots[this.gapStart++] = f;
  }

  private moveGap(at: number): void {
    while (this.gapStart > at) this.slots[--this.gapEnd] = this.slots[--this.gapStart];
    while (this.gapStart < at) this.slots[this.gapStart++] = this.slots[this.gapEnd++];
  }

  private widen(need: number): void {
    const size = Math.max(2 * this.slots.length, this.length + need + 16);
    const next = new Array<File | undefined>(size);
    for (let i = 0; i < this.gapStart; i++) next[i] = this.slots[i];
    const tail = this.slots.length - this.gapEnd;
    for (let i = 0; i < tail; i++) next[size - tail + i] = this.slots[this.gapEnd + i];
    this.slots = next;
    this.gapEnd = size - tail;
  }
}

function range(files: readonly File[]): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const f of files) {
    lo = Math.min(lo, f.lo);
    hi = Math.max(hi, f.hi);
  }
  return [lo, hi];
}

/**
 * The outputs of merging `inputs` (every entry distinct): their summed density, walked from the
 * left and cut every `fileEntries` entries, and where the output has passed more than
 * `grandparentLimit` entries of `grandparents` (sorted, disjoint) since the last such cut.
 */
function mergeOutputs(inputs: readonly File[], grandparents: readonly File[], fileSize: () => number, grandparentLimit: number): File[] {
  // The summed density is a step function over every input step's edges: each step adds its
  // density from its first edge to its last (a difference array over the sorted edges).
  let count = 0;
  for (const f of inputs) count += f.edges.length;
  const all = new Float64Array(count);
  count = 0;
  for (const f of inputs) for (const x of f.edges) all[count++] = x;
  all.sort();
  let unique = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || (all[i] as number) > (all[unique - 1] as number)) all[unique++] = all[i] as number;
  const xs = all.subarray(0, unique);
  const delta = new Float64Array(unique);
  const indexOf = (x: number) => {
    let a = 0;
    let b = unique - 1;
    while (a < b) {
      const m = (a + b) >> 1;
      if ((xs[m] as number) < x) a = m + 1;
      else b = m;
    }
    return a;
  };
  for (const f of inputs) {
    let i = indexOf(f.lo);
    for (let j = 0; j < f.densities.length; j++) {
      const d = f.densities[j] as number;
      const end = f.edges[j + 1] as number;
      delta[i] = (delta[i] as number) + d;
      while ((xs[i] as number) < end) i++;
      delta[i] = (delta[i] as number) - d;
    }
  }
  const outputs: File[] = [];
  let start: number | undefined;
  let end = 0;
  let acc = 0;
  let g = 0;
  let seenKey = false;
  let overlapped = 0;
  let target = fileSize();
  let edges: number[] = [];
  let densities: number[] = [];
  const emit = (at: number) => {
    if (start !== undefined && acc > 0) {
      edges.push(at);
      coarsen(edges, densities);
      outputs.push({ lo: start, hi: at, entries: acc, edges, densities });
    }
    start = undefined;
    acc = 0;
    edges = [];
    densities = [];
    target = fileSize();
  };
  let density = 0;
  for (let i = 0; i + 1 < unique; i++) {
    density += delta[i] as number;
    const a = xs[i] as number;
    const b = xs[i + 1] as number;
    if (!(density > 1e-9) || !(b > a)) continue;
    if (!seenKey) {
      // LevelDB counts only the grandparents that end after the merge's first key.
      while (g < grandparents.length && (grandparents[g] as File).hi <= a) g++;
      seenKey = true;
    }
    let pos = a;
    while (pos < b) {
      if (start === undefined) start = pos;
      const gpEnd = g < grandparents.length ? (grandparents[g] as File).hi : Infinity;
      const sizeCut = pos + (target - acc) / density;
      const next = Math.min(b, gpEnd, sizeCut);
      acc += density * (next - pos);
      if (densities.length === 0 || densities[densities.length - 1] !== density) {
        edges.push(pos);
        densities.push(density);
      }
      pos = next;
      if (next === sizeCut) emit(pos);
      if (next === gpEnd) {
        overlapped += (grandparents[g] as File).entries;
        g++;
        if (overlapped > grandparentLimit) {
          overlapped = 0;
          emit(pos);
        }
      }
    }
    end = b;
  }
  emit(end);
  return outputs;
}

interface Resolved {
  keys: number;
  buffer: number;
  c0: number;
  levelEntries: number[];
  r: number;
  fileEntries: number;
  shortcuts: boolean;
}

interface Realisation {
  /** Per flush: cumulative entries written by merges into each level (index = level; 0 unused). */
  written: number[][];
  trivialMoves: number;
  flushesBelowLevel0: number;
}

/** One realisation of the tree's growth, with `uniform` drawing the keys' sampling noise. */
function grow(p: Resolved, uniform: () => number): Realisation {
  const gaussian = () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
  /** F keys of a random sample span F ± √F keys' worth of the range: where a cut falls. */
  const fileSize = () => Math.max(1, p.fileEntries + gaussian() * Math.sqrt(p.fileEntries));
  const grandparentLimit = GRANDPARENT_OVERLAP_FILES * p.fileEntries;
  const listed = p.levelEntries.length;
  const capacity = (level: number) =>
    level <= listed ? (p.levelEntries[level - 1] as number) : (p.levelEntries[listed - 1] as number) * p.r ** (level - listed);

  // Level 0's files overlap (newest last); the deeper levels are sorted and disjoint.
  const level0: File[] = [];
  const deeper: SortedLevel[] = [];
  const cursors: (number | undefined)[] = [];
  const written: number[] = [];
  const out: Realisation = { written: [], trivialMoves: 0, flushesBelowLevel0: 0 };
  /** Entries each level holds (kept as files move, so a score costs nothing). */
  const held: number[] = [];
  const entries = (level: number) => held[level] ?? 0;
  const files = (level: number) => (level === 0 ? level0.length : (deeper[level]?.length ?? 0));
  const sorted = (level: number) => {
    while (deeper.length <= level) deeper.push(new SortedLevel());
    return deeper[level] as SortedLevel;
  };
  const place = (level: number, removed: readonly File[], added: readonly File[]) => {
    if (level === 0) {
      if (removed.length > 0) level0.length = 0;
      level0.push(...added);
    } else {
      sorted(level).replace(removed, added);
    }
    held[level] = entries(level) - sum(removed) + sum(added);
  };

  /** LevelDB's PickLevelForMemTableOutput for a flush over (nearly) the whole range. */
  const flushLevel = () => {
    if (!p.shortcuts || level0.length > 0) return 0;
    let level = 0;
    while (level < MAX_FLUSH_LEVEL && files(level + 1) === 0 && entries(level + 2) <= grandparentLimit) level++;
    return level;
  };

  /** The level to merge next: the highest score ≥ 1 (level 0 by files, the others by entries), or −1. */
  const pick = () => {
    let best = -1;
    let bestScore = 1;
    for (let level = 0; level < Math.max(deeper.length, 1); level++) {
      const score = level === 0 ? level0.length / p.c0 : entries(level) / capacity(level);
      if (score > bestScore || (best < 0 && score >= bestScore)) {
        best = level;
        bestScore = score;
      }
    }
    return best;
  };

  const compact = (level: number) => {
    const below = sorted(level + 1);
    let inputs: File[];
    if (level === 0) {
      inputs = [...level0];
    } else {
      // Round robin: the first file that ends past the cursor, wrapping around.
      const source = sorted(level);
      const cursor = cursors[level];
      const next = cursor === undefined ? 0 : source.firstEndingAfter(cursor);
      inputs = [source.get(next < source.length ? next : 0)];
    }
    let under = below.overlapping(...range(inputs));
    if (level > 0 && under.length > 0) {
      // LevelDB's widening: source files inside the range rewritten below join for free.
      const wider = sorted(level).overlapping(...range([...inputs, ...under]));
      if (wider.length > inputs.length && sum(wider) + sum(under) < EXPANDED_MERGE_FILES * p.fileEntries) {
        const widerUnder = below.overlapping(...range(wider));
        if (widerUnder.length === under.length) {
          inputs = wider;
          under = widerUnder;
        }
      }
    }
    if (level > 0) cursors[level] = range(inputs)[1];
    const grandparents = sorted(level + 2).overlapping(...range([...inputs, ...under]));
    place(level, inputs, []);
    if (p.shortcuts && level > 0 && inputs.length === 1 && under.length === 0 && sum(grandparents) <= grandparentLimit) {
      out.trivialMoves++;
      place(level + 1, [], inputs);
      return;
    }
    written[level + 1] = (written[level + 1] ?? 0) + sum(inputs) + sum(under);
    place(level + 1, under, mergeOutputs([...inputs, ...under], grandparents, fileSize, grandparentLimit));
  };

  for (let inserts = 0; inserts < p.keys; ) {
    const flushed = Math.min(p.buffer, p.keys - inserts);
    inserts += flushed;
    // The smallest and largest of `entries` random keys: about 1/entries in from each end.
    const file = evenFile(-Math.log(1 - uniform()) / flushed, 1 + Math.log(1 - uniform()) / flushed, flushed);
    const level = flushLevel();
    if (level > 0) out.flushesBelowLevel0++;
    place(level, [], [file]);
    for (let next = pick(); next >= 0; next = pick()) compact(next);
    out.written.push([...written]);
  }
  return out;
}

/** The default number of realisations averaged: the noise of one is a few percent of the total. */
const REALISATIONS = 8;

/**
 * The expected cumulative write amplification from empty to each flush, averaged over
 * `realisations` of the keys' sampling noise (seeded, so the result is reproducible).
 */
export function leveledGrowthWriteAmplification(p: LeveledGrowthParams): LeveledGrowth {
  if (!Array.isArray(p.levelEntries) || p.levelEntries.length < 1 || p.levelEntries.length > 64) {
    throw new ModelInputError('levelEntries', 'must list the capacities of levels 1..k in entries, 1 ≤ k ≤ 64');
  }
  const levelEntries = p.levelEntries.map((v, i) => requireNumber(`levelEntries[${i}]`, v, 1, 1e15));
  if (p.leveldbShortcuts !== undefined && typeof p.leveldbShortcuts !== 'boolean') {
    throw new ModelInputError('leveldbShortcuts', `must be true or false, got ${String(p.leveldbShortcuts)}`);
  }
  const resolved: Resolved = {
    keys: requireNumber('keys', p.keys, 1, LEVELED_GROWTH_MAX_KEYS, { integer: true }),
    buffer: requireNumber('bufferEntries', p.bufferEntries, 1, 1e9),
    c0: requireNumber('level0Trigger', p.level0Trigger ?? 4, 1, 1000, { integer: true }),
    levelEntries,
    r: requireNumber('growthFactor', p.growthFactor ?? 10, 1, 1e6, { exclusiveMin: true }),
    fileEntries: requireNumber('fileEntries', p.fileEntries, 1, 1e15),
    shortcuts: p.leveldbShortcuts ?? false,
  };
  const realisations = requireNumber('realisations', p.realisations ?? REALISATIONS, 1, 1000, { integer: true });
  const seed = requireNumber('seed', p.seed ?? 1, 0, 2 ** 32 - 1, { integer: true });
  const uniform = mulberry32(seed);
  const runs = Array.from({ length: realisations }, () => grow(resolved, uniform));
  const first = runs[0] as Realisation;
  const points = first.written.map((_, i) => {
    const inserts = Math.min((i + 1) * resolved.buffer, resolved.keys);
    const totals = runs.map((run) => 1 + (run.written[i] as number[]).reduce((a, b) => a + (b ?? 0), 0) / inserts);
    const depth = Math.max(...runs.map((run) => (run.written[i] as number[]).length), 2);
    const levels = Array.from({ length: depth - 1 }, (_, l) => runs.reduce((a, run) => a + ((run.written[i] as number[])[l + 1] ?? 0), 0) / realisations / inserts);
    const total = totals.reduce((a, b) => a + b, 0) / realisations;
    return { inserts, flush: 1, levels, total, low: Math.min(...totals), high: Math.max(...totals) };
  });
  const mean = (f: (run: Realisation) => number) => runs.reduce((a, run) => a + f(run), 0) / realisations;
  return { points, trivialMoves: mean((run) => run.trivialMoves), flushesBelowLevel0: mean((run) => run.flushesBelowLevel0) };
}

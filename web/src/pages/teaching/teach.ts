/**
 * The classroom tree: a tiny design (2 KiB buffer, 256 B pages) so a handful of keys fills the
 * buffer, flushes and merges happen every few steps, and every run is big enough to see. Pure
 * helpers: the config, the keys inserted, and the narration of what changed between two
 * snapshots of the engine's tree.
 */
import { totalWrites, type EngineConfig, type Stats, type TreeShape, type WriteStallState } from '../../documents/engine';

export const TEACH_PAGE_BYTES = 256;
export const TEACH_BUFFER_BYTES = 2048;
export const TEACH_KEY_BYTES = 8;
export const TEACH_VALUE_BYTES = 24;
/** Keys inserted per step: a quarter of the buffer (64 entries of 32 B). */
export const TEACH_BATCH = 16;
/** Output pages a merge advances per step (8 entries per page). */
export const TEACH_MERGE_PAGES = 4;

export type TeachPolicy = 'leveling' | 'tiering';

/** Level-1 file counts at which writes slow down and stop (RocksDB's level-0 triggers). */
export interface TeachStalls {
  slowdown: number;
  stop: number;
}

/**
 * The classroom design; with `stalls`, merges are paced by the writes and these write-stall
 * thresholds apply (the engine checks them: the slow-down count may not exceed the stop count).
 */
export function teachConfig(sizeRatio: number, policy: TeachPolicy, allocation: 'uniform' | 'monkey', bits: number, stalls?: TeachStalls): EngineConfig {
  return {
    kind: 'lsm-navigator/engine-config',
    version: 1,
    name: `classroom: ${policy}, T = ${sizeRatio}, ${allocation} ${bits} bits/key${stalls ? `, writes slow at ${stalls.slowdown} and stop at ${stalls.stop} level-1 files` : ''}`,
    page_bytes: TEACH_PAGE_BYTES,
    buffer_bytes: TEACH_BUFFER_BYTES,
    levels: [{ size_ratio: sizeRatio, max_runs: policy === 'leveling' ? 1 : Math.max(1, sizeRatio - 1) }],
    filter: { allocation, bits_per_key: bits },
    ...(stalls ? { write_stalls: { level0_slowdown_writes_trigger: stalls.slowdown, level0_stop_writes_trigger: stalls.stop } } : {}),
  };
}

/** The i-th key inserted: 8 bytes, scattered over the key space (so runs overlap, as in real life). */
export function teachKey(i: number): string {
  // A multiplicative hash modulo a prime spreads consecutive i without repeats below 9,999,991.
  const n = (Math.imul(i + 1, 2_654_435_761) >>> 0) % 9_999_991;
  return `k${String(n).padStart(7, '0')}`;
}

export function teachValue(i: number): string {
  return `value-${String(i).padStart(18, '0')}`.slice(0, TEACH_VALUE_BYTES);
}

function runIds(tree: TreeShape): Map<number, number> {
  const where = new Map<number, number>();
  tree.levels.forEach((l) => l.runs.forEach((r) => where.set(r.id, l.level)));
  return where;
}

const diskEntries = (tree: TreeShape) => tree.levels.reduce((n, l) => n + l.runs.reduce((m, r) => m + r.entries, 0), 0);

const entriesAt = (tree: TreeShape, level: number) => tree.levels[level - 1]?.runs.reduce((n, r) => n + r.entries, 0) ?? 0;

/** What happened between two snapshots, in classroom words (empty when nothing notable did). */
export function describeChange(prev: TreeShape, next: TreeShape): string[] {
  const out: string[] = [];
  const before = runIds(prev);
  const after = runIds(next);
  const flushed = diskEntries(next) - diskEntries(prev);
  if (next.buffer_entries < prev.buffer_entries && flushed > 0) {
    const newInL1 = [...after].filter(([id, lvl]) => lvl === 1 && !before.has(id)).length;
    out.push(
      newInL1 > 0 && entriesAt(prev, 1) === 0
        ? `The buffer filled up and was flushed: its ${flushed} entries became a new sorted run on level 1.`
        : newInL1 > 0 && (next.levels[0]?.runs.length ?? 0) > (prev.levels[0]?.runs.length ?? 0)
          ? `The buffer filled up and was flushed: its ${flushed} entries became another run on level 1.`
          : `The buffer filled up and its ${flushed} entries were merged into level 1’s run, which had room for them.`,
    );
  }
  if (next.merging_level === 0 && prev.merging_level !== 0) {
    out.push('The buffer is full: it is written to level 1 a few pages per write, while new keys go into a fresh buffer.');
  } else if (next.merging_level !== null && prev.merging_level !== next.merging_level) {
    const l = next.merging_level;
    const level = next.levels[l - 1];
    const why = level && level.runs.length > level.max_runs ? `it holds ${level.runs.length} runs, more than its ${level.max_runs}` : 'it is full';
    out.push(`Level ${l} must be merged (${why}): its runs are merged into level ${l + 1}, a few pages per step.`);
  }
  if (prev.merging_level !== null && prev.merging_level > 0 && next.merging_level !== prev.merging_level) {
    const to = prev.merging_level + 1;
    out.push(`Merge finished: level ${to} now holds ${entriesAt(next, to).toLocaleString('en-US')} entries; level ${prev.merging_level} is empty again.`);
  }
  if (next.levels.length > prev.levels.length && prev.levels.length > 0) {
    out.push(`The tree grew a level: it now has ${next.levels.length} levels on disk.`);
  }
  return out;
}

/** What a step did, for the timeline's marks ('stall': a write stopped or a flush waited for merges). */
export type StepEvent = 'start' | 'insert' | 'flush' | 'merge' | 'stall';

/**
 * The engine's state after a step: its tree, its counters, the keys inserted so far and, with
 * paced merges, where writes stand against the stall thresholds.
 */
export interface EngineMoment {
  tree: TreeShape;
  stats: Stats;
  inserted: number;
  stall?: WriteStallState;
}

const pages = (n: number) => `${n.toLocaleString('en-US')} page${n === 1 ? '' : 's'}`;

/** Pages moved so far: what finished flushes and merges wrote (Stats) plus the merge under way. */
function moved(m: EngineMoment) {
  const w = totalWrites(m.stats);
  const p = m.tree.merge_progress;
  return { flushes: w.flushes, read: w.pages_read + (p?.pages_read ?? 0), written: w.data_pages_written + w.meta_pages_written + (p?.pages_written ?? 0) };
}

/**
 * One step in classroom words, from the engine's own tree and counters before and after it: what
 * changed (`describeChange`) and what it cost in pages read and written — one sentence at least.
 */
export function describeStep(prev: EngineMoment, next: EngineMoment): { lines: string[]; event: StepEvent } {
  const a = moved(prev);
  const b = moved(next);
  const read = b.read - a.read;
  const written = b.written - a.written;
  const lines = describeChange(prev.tree, next.tree);
  const merging = prev.tree.merging_level ?? next.tree.merging_level;
  const stalled = stallDelta(prev, next);
  const event: StepEvent =
    stalled.stops > 0 || stalled.flushWaits > 0 ? 'stall' : b.flushes > a.flushes ? 'flush' : merging !== null && next.inserted === prev.inserted ? 'merge' : 'insert';
  const keys = next.inserted - prev.inserted;
  const went = `${keys} ${keys === 1 ? 'key went' : 'keys went'}`;
  if (event === 'flush' || (event === 'stall' && b.flushes > a.flushes)) {
    lines.push(`${keys > 0 ? `${went} in. ` : ''}The flush wrote ${pages(written)}${read > 0 ? ` and read ${pages(read)}` : ''}.`);
  } else if (event === 'merge') {
    lines.push(`Merging level ${merging} into level ${(merging ?? 0) + 1}: ${pages(read)} read and ${pages(written)} written this step.`);
  } else if (keys > 0 && read + written > 0) {
    // Paced merges: the writes did the merge work.
    lines.push(`${went} into the buffer; the writes also merged: ${pages(read)} read and ${pages(written)} written.`);
  } else if (keys > 0 && next.tree.merging_level === 0) {
    // A paced flush under way: the tree's buffer counts the full buffer and the fresh one.
    lines.push(`${went} into a fresh buffer, in memory, while the full one is written out.`);
  } else if (keys > 0) {
    const capacity = Math.floor(next.tree.buffer_capacity_bytes / (TEACH_KEY_BYTES + TEACH_VALUE_BYTES));
    lines.push(`${went} into the buffer, in memory (${next.tree.buffer_entries} of about ${capacity} entries): no page read or written.`);
  }
  lines.push(...describeStall(prev, next));
  return { lines, event };
}

/** Stall counters that rose between two moments (all 0 without paced merges). */
export function stallDelta(prev: EngineMoment, next: EngineMoment): { slowdowns: number; stops: number; flushWaits: number } {
  const a = prev.stats.stalls;
  const b = next.stats.stalls;
  if (!a || !b) return { slowdowns: 0, stops: 0, flushWaits: 0 };
  return { slowdowns: b.slowdowns - a.slowdowns, stops: b.stops - a.stops, flushWaits: b.flush_waits - a.flush_waits };
}

const files = (n: number) => `${n} file${n === 1 ? '' : 's'}`;
const writes = (n: number) => `${n} write${n === 1 ? '' : 's'}`;

/**
 * What the write stalls did in a step, in classroom words, from the engine's stall counters and
 * its verdict before and after (nothing without paced merges).
 */
export function describeStall(prev: EngineMoment, next: EngineMoment): string[] {
  const before = prev.stall;
  const after = next.stall;
  if (!before || !after || !after.paced) return [];
  const d = stallDelta(prev, next);
  const out: string[] = [];
  const written = moved(next).written - moved(prev).written;
  if (d.stops > 0) {
    out.push(`Writes were stopped: ${d.stops === 1 ? 'a write' : writes(d.stops)} waited while the merge ran (${pages(written)} written this step).`);
  } else if (d.slowdowns > 0) {
    out.push(`${writes(d.slowdowns)} slowed down: ${d.slowdowns === 1 ? 'it' : 'each'} first did up to ${after.slowdown_slice_pages} pages of merge work.`);
  }
  if (d.flushWaits > 0) out.push('The buffer was full before the last merges were done: the flush waited for them.');
  if (after.stall !== before.stall) {
    const level1 = `Level 1 holds ${files(after.level0_files)}`;
    if (after.stall === 'stop') out.push(`${level1}: writes stop until a merge brings it down.`);
    else if (before.stall === 'stop') out.push(`${level1}: writes go on${after.stall === 'slowdown' ? ', slowed down' : ''}.`);
    else if (after.stall === 'slowdown') out.push(`${level1}: writes slow down.`);
    else out.push(`${level1}: writes are no longer slowed.`);
  }
  return out;
}

/**
 * With paced merges the page writes one key at a time and ends a step where the stalls change:
 * the engine's verdict differs from the step's start, or a write stopped or a flush waited. So
 * the class sees the tree at the moment writes stop, and again when they go on.
 */
export function stallStepEnds(start: EngineMoment, now: EngineMoment): boolean {
  if (!start.stall || !now.stall) return false;
  if (start.stall.stall !== now.stall.stall) return true;
  const d = stallDelta(start, now);
  return d.stops > 0 || d.flushWaits > 0;
}

/** The headline of the write-stall panel: the state in two words and a sentence on why. */
export function stallHeadline(state: WriteStallState, limits: TeachStalls): { title: string; detail: string } {
  const level1 = `Level 1 holds ${files(state.level0_files)}`;
  const marks = `slow down at ${limits.slowdown}, stop at ${limits.stop}`;
  if (state.stall === 'stop') {
    return { title: 'Writes stopped', detail: `${level1} (${marks}). The next write waits until a merge brings level 1 under ${limits.stop}.` };
  }
  if (state.stall === 'slowdown') {
    const pending = state.merges_pending ? '' : ' None is pending now.';
    return {
      title: 'Writes slowed down',
      detail: `${level1} (${marks}). Each write first does up to ${state.slowdown_slice_pages} pages of merge work, not ${state.slice_pages}.${pending}`,
    };
  }
  return { title: 'Writes flow', detail: `${level1} (${marks}).` };
}

/** Fingerprint of the on-disk part of a tree, to tell whether a step changed anything. */
export function shapeKey(tree: TreeShape): string {
  return `${tree.merging_level}|${tree.levels.map((l) => l.runs.map((r) => `${r.id}:${r.entries}`).join(',')).join('/')}`;
}

/**
 * Whether the engine will want a merge: a merge is in progress, or some level holds more runs than
 * it may or is (nearly) full — the rule of wasm-engine/crates/lsm-core/src/compaction/whole_level.rs `choose` for merges of
 * whole levels (full = bytes ≥ capacity − a quarter of one arrival, an arrival being capacity ÷ T).
 */
export function mergeNeeded(tree: TreeShape, sizeRatio: number): boolean {
  if (tree.merging_level !== null) return true;
  return tree.levels.some((l) => {
    if (l.runs.length === 0) return false;
    if (l.runs.length > l.max_runs) return true;
    if (l.capacity_bytes === null) return false;
    const bytes = l.runs.reduce((n, r) => n + r.entry_bytes, 0);
    return bytes >= l.capacity_bytes - l.capacity_bytes / sizeRatio / 4;
  });
}

/** One line of the step log: consecutive steps that said the same thing, told once with a count. */
export interface LogLine {
  /** First and last step of the group (equal for a single step). */
  first: number;
  last: number;
  count: number;
  text: string;
  event: StepEvent;
}

/**
 * The log of steps 0..upTo, newest first, at most `max` lines: a merge's run of identical "4 pages
 * read and 4 pages written" steps becomes one line with "× 7" instead of filling the card.
 */
export function collapseLog(steps: readonly { lines: string[]; event: StepEvent }[], upTo: number, max = 8): LogLine[] {
  const out: LogLine[] = [];
  for (let i = Math.min(upTo, steps.length - 1); i >= 0 && out.length <= max; i--) {
    const text = steps[i].lines.join(' ');
    const newest = out[out.length - 1];
    if (newest && newest.text === text && newest.first === i + 1) {
      newest.first = i;
      newest.count++;
    } else {
      out.push({ first: i, last: i, count: 1, text, event: steps[i].event });
    }
  }
  return out.slice(0, max);
}

/**
 * The Flushes and Merges counters as the tree shows them: the engine's Stats count a flush or a
 * merge when it is installed, but the tree draws one from its first page ("new run: 32 of 32 pages
 * merged"), so one under way (`merging_level`: 0 is a flush, ≥ 1 a merge of that level) is counted
 * too, and said to be under way.
 */
export function countersOnScreen(tree: TreeShape | null, stats: Stats | null): { flushes: number; merges: number; flushUnderWay: boolean; mergeUnderWay: boolean } {
  const w = stats ? totalWrites(stats) : null;
  const level = tree?.merging_level ?? null;
  const flushUnderWay = level === 0;
  const mergeUnderWay = level !== null && level >= 1;
  return {
    flushes: (w?.flushes ?? 0) + (flushUnderWay ? 1 : 0),
    merges: (w?.compactions ?? 0) + (mergeUnderWay ? 1 : 0),
    flushUnderWay,
    mergeUnderWay,
  };
}

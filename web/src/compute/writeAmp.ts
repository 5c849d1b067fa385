/**
 * Write amplification over a window of a measured run (the engine's or LevelDB's checkpoints,
 * documents/writeAmp.ts), by destination level, in entries written per write — the unit of the
 * MSLS model's Write(l)/Interval(l). Pure.
 *
 * Steady state: the window starts at the first level-0 merge after the warm-up and ends at the
 * last one, so it holds whole level-0 cycles: a window cut mid-cycle would count one more or one
 * fewer level-0 merge than its share (each is several percent of a short window).
 */
import type { MeasuredWindow, WriteAmpResult, WriteCheckpoint } from '../documents/writeAmp';

const at = (v: readonly number[] | undefined, i: number) => v?.[i] ?? 0;

/** Level-0 merges by a checkpoint: LevelDB counts merges by source level, the engine by destination. */
function level0Merges(c: WriteCheckpoint, system: 'engine' | 'leveldb'): number {
  return at(c.compactions, system === 'leveldb' ? 0 : 1);
}

/** The window between two checkpoints. */
export function windowBetween(a: WriteCheckpoint, b: WriteCheckpoint, cycles = 0): MeasuredWindow {
  const writes = b.inserts - a.inserts;
  if (!(writes > 0)) throw new Error('the window holds no writes');
  const depth = Math.max(b.entries_into.length, 2);
  const levels = Array.from({ length: depth - 1 }, (_, i) => (at(b.entries_into, i + 1) - at(a.entries_into, i + 1)) / writes);
  const flush = (b.flush_entries - a.flush_entries) / writes;
  return { from: a.inserts, to: b.inserts, flush, levels, total: flush + levels.reduce((x, y) => x + y, 0), cycles };
}

/**
 * Steady-state write amplification of a run with checkpoints at every flush: from the first
 * level-0 merge at or after `warmup` writes to the last one. Throws if fewer than two merges.
 */
export function steadyStateWindow(r: WriteAmpResult, system: 'engine' | 'leveldb', warmup: number): MeasuredWindow {
  const marks: WriteCheckpoint[] = [];
  r.checkpoints.forEach((c, i) => {
    const before = r.checkpoints[i - 1];
    if (before && level0Merges(c, system) > level0Merges(before, system) && c.inserts >= warmup) marks.push(c);
  });
  const first = marks[0];
  const last = marks[marks.length - 1];
  if (!first || !last || marks.length < 2) {
    throw new Error(`the run has ${marks.length} level-0 merge${marks.length === 1 ? '' : 's'} after the warm-up; a window needs two: write more`);
  }
  return windowBetween(first, last, level0Merges(last, system) - level0Merges(first, system));
}

/** From empty: cumulative entries written per write at every checkpoint (what a new database sees as it fills). */
export function fromEmptySeries(r: WriteAmpResult): { inserts: number; total: number }[] {
  const start = r.checkpoints[0];
  if (!start) return [];
  return r.checkpoints.filter((c) => c.inserts > 0).map((c) => ({ inserts: c.inserts, total: windowBetween(start, c).total }));
}

/**
 * Write amplification over a window of a measured run (the engine's or LevelDB's checkpoints,
 * documents/writeAmp.ts), by destination level, in entries written per write — the unit of the
 * MSLS model's Write(l)/Interval(l). Pure.
 *
 * Steady state: the window starts at the first level-0 merge after the warm-up and ends at the
 * last one, so it holds whole level-0 cycles: a window cut mid-cycle would count one more or one
 * fewer level-0 merge than its share (each is several percent of a short window).
 */
import { LEVELED_GROWTH_MAX_KEYS, leveledGrowthWriteAmplification, type LeveledGrowthParams, type LeveledGrowthPoint } from '@lsm/models';
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

/** A measured from-empty point next to the model's at the same number of writes. */
export interface GrowthComparison {
  inserts: number;
  measured: number;
  model: number;
  /** model ÷ measured − 1. */
  difference: number;
}

export type GrowthAgreement = { points: GrowthComparison[]; worst: number };

/**
 * The from-empty model of `design` against a measured series, at every measured point the model
 * has (both put a point at every flush) from the first level-0 merge on (before it, both write
 * every entry once); and the largest |difference| among them.
 */
export function compareGrowth(
  measured: readonly { inserts: number; total: number }[],
  model: readonly LeveledGrowthPoint[],
  design: Pick<LeveledGrowthParams, 'bufferEntries' | 'level0Trigger'>,
): GrowthAgreement {
  const from = (design.level0Trigger ?? 4) * design.bufferEntries;
  const byInserts = new Map(model.map((p) => [p.inserts, p.total]));
  const points: GrowthComparison[] = [];
  for (const m of measured) {
    const predicted = byInserts.get(m.inserts);
    if (predicted === undefined || m.inserts < from || !(m.total > 0)) continue;
    points.push({ inserts: m.inserts, measured: m.total, model: predicted, difference: predicted / m.total - 1 });
  }
  return { points, worst: points.reduce((w, p) => Math.max(w, Math.abs(p.difference)), 0) };
}

/**
 * The first N writes of a run (N = `design.keys`, checkpoints at every flush) against the
 * from-empty model of the same design on the run's own flush cadence; null if the model cannot
 * take the design (growthRealisations).
 */
export function runAgainstGrowthModel(design: LeveledGrowthParams, run: WriteAmpResult): GrowthAgreement | null {
  const onCadence = { ...design, bufferEntries: run.inserts_per_flush };
  const realisations = growthRealisations(onCadence);
  if (realisations === null) return null;
  const model = leveledGrowthWriteAmplification({ ...onCadence, realisations });
  return compareGrowth(fromEmptySeries(run).filter((p) => p.inserts <= design.keys), model.points, onCadence);
}

/** The most files (N ÷ a file's entries) the page models from empty: one realisation then takes about 10 s. */
export const GROWTH_MAX_FILES = 200_000;

/**
 * How many realisations of the from-empty model a page averages for `p`: 8 for a small tree, fewer
 * as its files multiply (the cost grows with them, the noise shrinks), so it answers within a few
 * seconds; null beyond what the model takes or GROWTH_MAX_FILES.
 */
export function growthRealisations(p: LeveledGrowthParams): number | null {
  const files = p.keys / p.fileEntries;
  if (p.keys > LEVELED_GROWTH_MAX_KEYS || files > GROWTH_MAX_FILES) return null;
  return Math.max(1, Math.min(8, Math.floor(50_000 / files)));
}

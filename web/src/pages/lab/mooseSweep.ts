/**
 * Moose's trade-off points on the engine: leveling, tiering, lazy leveling (for two size ratios)
 * and Moose's default structure, each run as per-level size ratios and run counts with explicit,
 * optimally split filter bits; measured update, short-range and zero-result cost against
 * `mooseCosts` for the same layout. Pure.
 */
import { mooseCosts, mooseLayout, moosePresetLayouts, type Dataset, type MooseLevel, type Workload as ModelWorkload } from '@lsm/models';
import type { EngineConfig, Workload } from '../../documents/engine';
import { mooseLayoutToEngineConfig } from '../../documents/designs/moose';

export const MOOSE_BUFFER_BYTES = 64 * 1024;
export const MOOSE_BITS = 5;
export const MOOSE_RATIOS = [4, 8];
/** Fraction of the key space a short range covers: about one entry, so the cost is the seeks (Moose Eq 3). */
export const SHORT_RANGE = 1e-7;

export interface MooseDesign {
  id: string;
  name: string;
  levels: MooseLevel[];
}

export function mooseDataset(entries: number): Dataset {
  return { entries, entryBytes: 64, pageBytes: 4096 };
}

/** The designs the sweep runs: Lv, Tr, LL at each ratio, and Moose's default structure. */
export function mooseDesigns(entries: number): MooseDesign[] {
  const dataset = mooseDataset(entries);
  const out: MooseDesign[] = [];
  for (const t of MOOSE_RATIOS) {
    const p = moosePresetLayouts(dataset, { sizeRatio: t, bufferBytes: MOOSE_BUFFER_BYTES, bitsPerEntry: MOOSE_BITS });
    out.push({ id: `leveling-${t}`, name: `leveling, T = ${t}`, levels: p.leveling });
    out.push({ id: `tiering-${t}`, name: `tiering, T = ${t}`, levels: p.tiering });
    out.push({ id: `lazy-${t}`, name: `lazy leveling, T = ${t}`, levels: p.lazyLeveling });
  }
  out.push({ id: 'moose', name: 'Moose (default structure)', levels: mooseLayout(dataset, { bitsPerEntry: MOOSE_BITS }, { bufferBytes: MOOSE_BUFFER_BYTES }) });
  return out;
}

export function mooseConfig(entries: number, d: MooseDesign): EngineConfig {
  return { ...mooseLayoutToEngineConfig(mooseDataset(entries), d.levels, MOOSE_BUFFER_BYTES), name: `${d.name}: ratios ${d.levels.map((l) => Number(l.sizeRatio.toPrecision(3))).join(', ')}; runs ${d.levels.map((l) => l.runs).join(', ')}` };
}

/**
 * Half the data loaded, then the other half inserted while zero-result lookups and short ranges
 * run: the costs are averaged over the tree's states as it grows (a single moment could catch
 * the tree just after a cascade of merges, with fewer runs than it usually has).
 */
export function mooseWorkload(entries: number, seed: number): Workload {
  return {
    kind: 'lsm-navigator/workload',
    version: 1,
    name: `${entries / 2} keys, then ${entries / 2} inserts interleaved with ${entries / 4} zero-result lookups and ${entries / 4} short ranges`,
    seed,
    preload: { entries: entries / 2, key_space: entries * 100, key_bytes: 16, value_bytes: 48 },
    operations: entries,
    mix: { insert: 0.5, get_missing: 0.25, range: 0.25 },
    distribution: { kind: 'uniform' },
    range_selectivity: SHORT_RANGE,
  };
}

export interface MooseModel {
  zero: number;
  shortRange: number;
  /** Writes only: the mean rewrites of an entry per level (Moose's refined update cost). */
  update: number;
}

/** mooseCosts for the layout, on the same data and buffer. */
export function mooseModel(entries: number, d: MooseDesign): MooseModel {
  const w: ModelWorkload = { pointLookups: 0.5, nonZeroFraction: 0, rangeLookups: 0.5, updates: 0, rangeSelectivity: SHORT_RANGE };
  const c = mooseCosts(mooseDataset(entries), d.levels, w, { bufferBytes: MOOSE_BUFFER_BYTES });
  return { zero: c.zeroResultPoint, shortRange: c.shortRange, update: c.updateRefined };
}

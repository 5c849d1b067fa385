/**
 * A Moose layout as the engine's EngineConfig document (kind 'lsm-navigator/engine-config',
 * version 1), for the preview on the Moose page and for the export feature. Pure.
 *
 * The engine merges a level into the next one as soon as it is full. In the model the last level
 * holds exactly what is left of the data set, so a layout whose capacity equals N would, once the
 * data is loaded, push its last level into a new, deeper level. The engine config therefore gives
 * the last level headroom: its size ratio is raised until its capacity is at least
 * ENGINE_LAST_LEVEL_HEADROOM × the entries it holds.
 */
import { mooseLevelCapacities, mooseToEngineLevels, type Dataset, type MooseLevel } from '@lsm/models';
import type { EngineConfig } from '../engine';
import { ceilRatio } from '../mooseTable';

export const ENGINE_LAST_LEVEL_HEADROOM = 1.25;

export interface EngineHeadroom {
  /** The last level's ratio in the layout and in the engine config. */
  layoutRatio: number;
  engineRatio: number;
  /** Entries the last level holds, and its capacity in the engine config. */
  lastEntries: number;
  engineCapacity: number;
}

/** The last level's ratio in the engine config and what it buys (throws ModelInputError for a layout that does not fit). */
export function mooseEngineHeadroom(dataset: Dataset, levels: readonly MooseLevel[], bufferBytes: number): EngineHeadroom {
  const caps = mooseLevelCapacities(dataset, levels, { bufferBytes });
  const L = levels.length;
  const previous = L === 1 ? caps.bufferEntries : caps.capacityEntries[L - 2];
  const lastEntries = caps.entries[L - 1];
  const layoutRatio = levels[L - 1].sizeRatio;
  const engineRatio = Math.max(layoutRatio, ceilRatio((ENGINE_LAST_LEVEL_HEADROOM * lastEntries) / previous));
  return { layoutRatio, engineRatio, lastEntries, engineCapacity: previous * engineRatio };
}

const short = (v: number) => Number(v.toPrecision(4));

/**
 * The EngineConfig of a Moose layout: page size from the data set, the buffer in whole bytes, per
 * level `{size_ratio, max_runs, bits_per_key}` from `mooseToEngineLevels` (explicit filters; the
 * layout's own bits), the last level's ratio raised for headroom (see the module comment).
 * Throws ModelInputError when the layout does not fit the data set or the engine's ranges
 * (size ratio ≤ 1000, runs ≤ 1000).
 */
export function mooseLayoutToEngineConfig(dataset: Dataset, levels: readonly MooseLevel[], bufferBytes: number): EngineConfig {
  const { engineRatio } = mooseEngineHeadroom(dataset, levels, bufferBytes);
  const L = levels.length;
  const engineLevels = mooseToEngineLevels(levels.map((l, i) => (i === L - 1 ? { ...l, sizeRatio: engineRatio } : l)));
  return {
    kind: 'lsm-navigator/engine-config',
    version: 1,
    name: `Moose layout: size ratios ${levels.map((l) => short(l.sizeRatio)).join(', ')}; runs ${levels.map((l) => l.runs).join(', ')}`,
    page_bytes: dataset.pageBytes,
    buffer_bytes: Math.round(bufferBytes),
    levels: engineLevels,
    filter: { allocation: 'explicit', bits_per_key: 0 },
  };
}

/** What the engine will reject in a config built from these settings (the page size and buffer ranges of config.rs), or null. */
export function engineConfigProblem(config: EngineConfig): string | null {
  const pg = config.page_bytes;
  if (pg < 256 || pg > 65536 || (pg & (pg - 1)) !== 0) {
    return `The engine needs a page size that is a power of two between 256 and 65,536 bytes; this data set uses ${pg}.`;
  }
  if (config.buffer_bytes < pg || config.buffer_bytes > 2 ** 32) {
    return `The engine needs a buffer between one page (${pg} bytes) and 4 GiB; this layout uses ${config.buffer_bytes} bytes.`;
  }
  return null;
}

/** The config as indented JSON with one line per level, so a deep tree stays readable. */
export function engineConfigJson(config: EngineConfig): string {
  const marker = '"__levels__"';
  const text = JSON.stringify({ ...config, levels: '__levels__' }, null, 2);
  const levels = `[\n${config.levels.map((l) => `    ${JSON.stringify(l)}`).join(',\n')}\n  ]`;
  return text.replace(marker, levels);
}

/**
 * A Monkey design as the engine's EngineConfig document, so the export feature can write the
 * design this page chose. Pure; no validation beyond what the engine's own loader does.
 */
import type { Dataset, Design } from '@lsm/models';
import type { EngineConfig } from '../engine';

/**
 * One level spec for every level: `size_ratio` T, `max_runs` 1 with leveling or T−1 with tiering
 * (rounded to a whole number of runs, at least 1: Algorithm 1's T need not be an integer). The
 * filter memory is the design's bits per entry, spread by Monkey's allocation or uniformly; the
 * buffer is rounded to whole bytes.
 */
export function monkeyDesignToEngineConfig(dataset: Dataset, design: Design): EngineConfig {
  const t = design.sizeRatio;
  const maxRuns = design.policy === 'leveling' ? 1 : Math.max(1, Math.round(t - 1));
  return {
    kind: 'lsm-navigator/engine-config',
    version: 1,
    name: `${design.policy}, T = ${Number(t.toPrecision(4))}, ${design.allocation} filters at ${Number(design.filterBitsPerEntry.toPrecision(4))} bits/key`,
    page_bytes: dataset.pageBytes,
    buffer_bytes: Math.round(design.bufferBytes),
    levels: [{ size_ratio: t, max_runs: maxRuns }],
    filter: { allocation: design.allocation, bits_per_key: design.filterBitsPerEntry },
  };
}

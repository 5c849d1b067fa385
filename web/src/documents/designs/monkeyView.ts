/**
 * The engine's documents as Monkey's model sees them: a design from an EngineConfig, the data set
 * and the operation mix from a Workload, and a run's measured I/O per operation from its Report.
 * Pure; the lab's overlay and the Tune page both read the engine through these.
 */
import type { Dataset, Design, Workload as ModelWorkload } from '@lsm/models';
import type { EngineConfig, Report, Workload } from '../engine';

/**
 * The design in Monkey's space: the deepest level's size ratio and runs (they repeat below it; a
 * RocksDB- or LevelDB-like first level is a small tiered L0), the filter bits and allocation.
 * Null when that ratio is below Monkey's 2.
 */
export function monkeyDesignOf(config: EngineConfig): Design | null {
  const level = config.levels[config.levels.length - 1];
  if (!level || level.size_ratio < 2) return null;
  return {
    policy: level.max_runs === 1 ? 'leveling' : 'tiering',
    sizeRatio: level.size_ratio,
    bufferBytes: config.buffer_bytes,
    filterBitsPerEntry: config.filter.bits_per_key,
    allocation: config.filter.allocation === 'monkey' ? 'monkey' : 'uniform',
  };
}

/** The data a workload preloads, on the config's pages. */
export function workloadDataset(config: EngineConfig, workload: Workload): Dataset {
  return {
    entries: workload.preload.entries,
    entryBytes: workload.preload.key_bytes + workload.preload.value_bytes,
    pageBytes: config.page_bytes,
  };
}

/** A Workload's mix as Monkey's: inserts, updates and deletes are all writes. */
export function monkeyWorkloadOf(workload: Workload): ModelWorkload {
  const m = { insert: 0, update: 0, delete: 0, get_existing: 0, get_missing: 0, range: 0, ...workload.mix };
  const point = m.get_existing + m.get_missing;
  return {
    pointLookups: point,
    nonZeroFraction: point > 0 ? m.get_existing / point : 0,
    rangeLookups: m.range,
    updates: m.insert + m.update + m.delete,
    rangeSelectivity: m.range > 0 ? Math.max(workload.range_selectivity ?? 0, 1e-12) : 0,
  };
}

/** Measured I/O per operation of a run: every page its operations read and its merges wrote. */
export function measuredIoPerOp(report: Report): number {
  const ops = Object.values(report.operations).reduce((s, x) => s + x, 0);
  const reads = report.summary.reduce((s, c) => s + c.page_ios, 0);
  const writes = report.writes.totals.data_pages_written + report.writes.totals.meta_pages_written;
  return ops > 0 ? (reads + writes) / ops : 0;
}

/** A run's measured I/O per operation of each class, in the order of Monkey's and the tuner's classes (zero-result, non-zero-result, range, write). */
export function measuredByClass(report: Report): [number, number, number, number] {
  const of = (name: string) => report.summary.find((c) => c.class === name)?.io_per_op ?? 0;
  const o = report.operations;
  const writes = o.insert + o.update + o.delete;
  const t = report.writes.totals;
  return [of('get_zero_result'), of('get_non_zero_result'), of('scan'), writes > 0 ? (t.data_pages_written + t.meta_pages_written) / writes : 0];
}

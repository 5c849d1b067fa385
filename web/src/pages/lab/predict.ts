/**
 * Measured against predicted, for one Report. Two predictions per operation class:
 *  - "tree": from the engine's real tree at the end of the run (the runs it has, their entries,
 *    pages and filter FPRs) — exact for zero-result lookups (Σ of the runs' FPRs, which the engine
 *    also reports as `predicted.zero_result_lookup_io`), and for non-zero lookups under uniform
 *    access (a key in run j costs 1 + Σ FPRs of the runs above it);
 *  - "model": the paper's formulas for the same data on Monkey's idealised tree (Eq 7 / Eq 56
 *    closed forms for zero-result lookups; Eq 9, 11, 10 via `costs` for the others).
 * Pure functions of the Report, so a stored or imported report re-plots identically.
 */
import {
  costs,
  monkeyZeroResultCostClosedForm,
  uniformZeroResultCost,
  type Dataset,
} from '@lsm/models';
import { OP_CLASSES, type ClassSummary, type Report, type RunInfo, type TreeShape } from '../../documents/engine';
import { monkeyDesignOf } from '../../documents/designs/monkeyView';

export type OverlayClass = 'zero' | 'nonzero' | 'range' | 'update';

export const OVERLAY_LABELS: Record<OverlayClass, string> = {
  zero: 'zero-result lookup',
  nonzero: 'non-zero lookup',
  range: 'range lookup',
  update: 'update (pages written)',
};

export interface ClassOverlay {
  cls: OverlayClass;
  label: string;
  /** Operations of this class in the run. */
  count: number;
  /** I/O per operation the engine counted (pages written per update for `update`). */
  measured: number | null;
  /** Predicted from the engine's tree; null where no exact prediction exists. */
  tree: number | null;
  /** The paper's model; null when the design is outside it (e.g. size ratio < 2). */
  model: number | null;
  /** measured / tree − 1. */
  errorTree: number | null;
  /** What the tree prediction assumes, when it is not exact. */
  note?: string;
}

/** Runs from newest to oldest: level 1 first, newest run first within a level (the engine's order). */
export function runsInOrder(tree: TreeShape): RunInfo[] {
  return tree.levels.flatMap((l) => l.runs);
}

export function treeEntries(tree: TreeShape): number {
  return runsInOrder(tree).reduce((n, r) => n + r.entries, 0) + tree.buffer_entries;
}

/** Σ over runs of each run's expected filter FPR: the I/O a zero-result lookup expects. */
export function zeroResultFromTree(tree: TreeShape): number {
  return runsInOrder(tree).reduce((s, r) => s + r.filter_fpr, 0);
}

/**
 * Expected I/O of a lookup for an existing key drawn uniformly from the stored entries: the key is
 * in run j with probability n_j/N and then costs 1 data page plus a false positive in each run
 * above it. Keys in the buffer cost nothing.
 */
export function nonZeroFromTree(tree: TreeShape): number {
  const runs = runsInOrder(tree);
  const total = treeEntries(tree);
  if (total === 0) return 0;
  let above = 0;
  let cost = 0;
  for (const r of runs) {
    cost += (r.entries / total) * (1 + above);
    above += r.filter_fpr;
  }
  return cost;
}

/** Expected pages a range over fraction `s` of the key space reads: about s·pages + 1 per run it overlaps. */
export function rangeFromTree(tree: TreeShape, selectivity: number): number {
  return runsInOrder(tree).reduce((sum, r) => sum + (r.entries > 0 ? selectivity * r.data_pages + 1 : 0), 0);
}

function summaryOf(report: Report, cls: (typeof OP_CLASSES)[number]): ClassSummary | undefined {
  return report.summary.find((s) => s.class === cls);
}

/** The data as Monkey's model sees it: the entries in the tree, their size, the page. */
export function datasetOf(report: Report): Dataset | null {
  const runs = runsInOrder(report.tree);
  const entries = treeEntries(report.tree);
  const bytes = runs.reduce((n, r) => n + r.entry_bytes, 0);
  const stored = runs.reduce((n, r) => n + r.entries, 0);
  if (entries < 1 || stored < 1) return null;
  const entryBytes = bytes / stored;
  return { entries, entryBytes, pageBytes: Math.max(report.config.page_bytes, entryBytes) };
}

/** Levels the tree spans (the deepest level holding a run). */
export function treeLevels(tree: TreeShape): number {
  let deepest = 0;
  tree.levels.forEach((l, i) => {
    if (l.runs.length > 0) deepest = i + 1;
  });
  return Math.max(1, deepest);
}

export interface ModelCosts {
  zeroClosedForm: number;
  nonZero: number;
  range: number;
  update: number;
  levels: number;
}

/** The paper's costs for this run's data and design; null outside Monkey's design space. */
export function modelCosts(report: Report, selectivity: number): ModelCosts | null {
  const dataset = datasetOf(report);
  if (!dataset) return null;
  const design = monkeyDesignOf(report.config);
  if (!design) return null;
  const bits = Math.min(design.filterBitsPerEntry, 1000);
  try {
    const c = costs(
      dataset,
      design,
      { pointLookups: 1, nonZeroFraction: 0, rangeLookups: 0, updates: 0, rangeSelectivity: selectivity },
      // φ = 0: the update cost counts each merged page once, i.e. pages written.
      { writeReadCostRatio: 0, pageReadSeconds: 1 },
    );
    // The paper's curve on the paper's tree: L from Eq 1 for this data, as in the sweeps.
    const shape = { policy: design.policy, sizeRatio: design.sizeRatio, levels: c.levels };
    const zeroClosedForm =
      design.allocation === 'monkey' ? monkeyZeroResultCostClosedForm(shape, bits).cost : uniformZeroResultCost(shape, bits);
    return { zeroClosedForm, nonZero: c.nonZeroResultLookup, range: c.rangeLookup, update: c.update, levels: c.levels };
  } catch {
    return null;
  }
}

const ratio = (measured: number | null, predicted: number | null) =>
  measured === null || predicted === null || predicted === 0 ? null : measured / predicted - 1;

/** Selectivity a report's range lookups used (0 when it had none). */
export function selectivityOf(report: Report): number {
  return report.workload?.range_selectivity ?? 0;
}

/** The four operation classes, measured vs predicted. Classes the run did not exercise have measured = null. */
export function overlay(report: Report): ClassOverlay[] {
  const s = selectivityOf(report);
  const model = modelCosts(report, s);
  const skewed = report.workload !== null && report.workload.distribution.kind !== 'uniform';
  const changed = report.operations.insert + report.operations.update + report.operations.delete > 0;
  const treeNote = changed ? 'the tree changed during the run; predictions use the final tree' : undefined;
  const zero = summaryOf(report, 'get_zero_result');
  const nonZero = summaryOf(report, 'get_non_zero_result');
  const scan = summaryOf(report, 'scan');
  const updates = report.operations.insert + report.operations.update + report.operations.delete;
  const measured = (c: ClassSummary | undefined) => (c && c.count > 0 ? c.io_per_op : null);
  const rows: ClassOverlay[] = [
    {
      cls: 'zero',
      label: OVERLAY_LABELS.zero,
      count: zero?.count ?? 0,
      measured: measured(zero),
      tree: report.predicted.zero_result_lookup_io,
      model: model?.zeroClosedForm ?? null,
      errorTree: null,
      note: skewed ? 'skewed keys: runs whose key range misses the hot keys are skipped' : treeNote,
    },
    {
      cls: 'nonzero',
      label: OVERLAY_LABELS.nonzero,
      count: nonZero?.count ?? 0,
      measured: measured(nonZero),
      tree: nonZeroFromTree(report.tree),
      model: model?.nonZero ?? null,
      errorTree: null,
      note: skewed ? 'assumes every stored key is equally likely' : (treeNote ?? 'assumes every stored key is equally likely'),
    },
    {
      cls: 'range',
      label: OVERLAY_LABELS.range,
      count: scan?.count ?? 0,
      measured: measured(scan),
      tree: s > 0 ? rangeFromTree(report.tree, s) : null,
      model: s > 0 ? (model?.range ?? null) : null,
      errorTree: null,
      note: 'about s·pages + 1 page per run',
    },
    {
      cls: 'update',
      label: OVERLAY_LABELS.update,
      count: updates,
      measured: updates > 0 ? report.writes.pages_written_per_update : null,
      tree: null,
      model: model?.update ?? null,
      errorTree: null,
      note: 'model: merge writes only (Eq 10 with φ = 0); measured includes flushes',
    },
  ];
  return rows.map((r) => ({ ...r, errorTree: ratio(r.measured, r.tree) }));
}

export interface LevelOverlay {
  level: number;
  runs: number;
  entries: number;
  /** Filter bits per key of the level's runs (entries-weighted). */
  bitsPerKey: number;
  /** Data pages read per zero-result lookup at this level. */
  measuredIo: number;
  /** Σ of the FPRs of the level's runs. */
  predictedIo: number;
}

/** Zero-result I/O split by level: where the false positives happen (Monkey shifts them to small levels). */
export function levelOverlay(report: Report): LevelOverlay[] {
  const zeroIdx = OP_CLASSES.indexOf('get_zero_result');
  const lookups = summaryOf(report, 'get_zero_result')?.count ?? 0;
  return report.tree.levels.map((l, i) => {
    const reads = report.run.levels[i]?.reads[zeroIdx];
    const entries = l.runs.reduce((n, r) => n + r.entries, 0);
    const bits = l.runs.reduce((n, r) => n + r.filter_bits, 0);
    return {
      level: l.level,
      runs: l.runs.length,
      entries,
      bitsPerKey: entries > 0 ? bits / entries : 0,
      measuredIo: lookups > 0 && reads ? reads.data_pages_read / lookups : 0,
      predictedIo: l.runs.reduce((s, r) => s + r.filter_fpr, 0),
    };
  });
}

/** Filter bits actually spent per stored entry (Σ filter bits ÷ Σ entries of the runs). */
export function bitsSpentPerKey(tree: TreeShape): number {
  const runs = runsInOrder(tree);
  const entries = runs.reduce((n, r) => n + r.entries, 0);
  return entries > 0 ? runs.reduce((n, r) => n + r.filter_bits, 0) / entries : 0;
}

/** Write amplification per level: bytes written into each level ÷ bytes the run inserted (MSLS's quantity). */
export function measuredWriteAmplification(report: Report): number[] | null {
  const w = report.workload;
  const writes = report.operations.insert + report.operations.update;
  if (!w || writes === 0) return null;
  const inserted = writes * (w.preload.key_bytes + w.preload.value_bytes);
  return report.writes.bytes_written_per_level.map((b) => b / inserted);
}

/**
 * A Report as tables and CSV: the counters per operation class (with RocksDB's statistic names
 * where one exists), the writes, and the measured-vs-predicted overlay. Pure, shared by fresh runs,
 * stored results and reports imported from the native CLI.
 */
import { toCsv } from '../../ui/charts/csv';
import { OP_CLASSES, totalReads, totalWrites, type Report, type WriteSummary } from '../../documents/engine';
import type { LabResult } from './results';
import { compareCsv } from './mnemosyne';
import { levelOverlay, overlay } from './predict';
import { sweepCsv } from './sweepCsv';

export interface CounterRow extends Record<string, string | number> {
  counter: string;
  value: number;
}

/** Whole-run counters (run phase), summed over levels. */
export function counterRows(report: Report): CounterRow[] {
  const r = totalReads(report.run);
  const w = totalWrites(report.run);
  const rows: [string, number][] = [
    ['operations (preload)', report.preload_operations],
    ['point lookups: existing keys', report.operations.get_existing],
    ['point lookups: missing keys', report.operations.get_missing],
    ['point lookups (trace)', report.operations.get],
    ['found (existing / trace)', report.results.get_existing_found + report.results.get_found],
    ['missing keys found (should be 0)', report.results.get_missing_found],
    ['range lookups', report.operations.range],
    ['entries returned by ranges', report.results.range_entries],
    ['inserts', report.operations.insert],
    ['updates', report.operations.update],
    ['deletes', report.operations.delete],
    ['filter probes', r.filter_probes],
    ['filter negatives (I/O avoided)', r.filter_negatives],
    ['filter positives', r.filter_positives],
    ['filter true positives', r.filter_true_positives],
    ['runs skipped by key range', r.runs_skipped_by_range],
    ['data pages read', r.data_pages_read],
    ['index pages read', r.index_pages_read],
    ['filter pages read', r.filter_pages_read],
    ['data cache hits', r.data_cache_hits],
    ['index cache hits', r.index_cache_hits],
    ['filter cache hits', r.filter_cache_hits],
    ['filter modules probed', r.filter_modules_probed],
    ['filter modules skipped', r.filter_modules_skipped],
    ['filters skipped (Mnemosyne)', r.filters_skipped],
    ['range seeks', r.seeks],
    ['flushes', w.flushes],
    ['merges', w.compactions],
    ['data pages written', w.data_pages_written],
    ['meta pages written', w.meta_pages_written],
    ['bytes written by flushes and merges', w.bytes_written],
    ['entries written', w.entries_written],
    ['entries dropped by merges', w.entries_dropped],
    ['files moved down whole (trivial moves)', w.moves],
    ['log bytes written', report.run.wal_bytes_written],
    ['log syncs', report.run.wal_syncs],
  ];
  return rows.map(([counter, value]) => ({ counter, value }));
}

export interface PhaseRow extends Record<string, string | number | null> {
  measure: string;
  load: number | null;
  run: number | null;
}

/**
 * The load (preload) and the measured run side by side: operations, time and rate, and what each
 * phase's flushes and merges wrote (the engine's WriteSummary). Older reports without
 * `load_writes` take the load's counters from `preload` and have no user bytes or amplification.
 */
export function phaseRows(report: Report): PhaseRow[] {
  const load: Partial<WriteSummary> & Pick<WriteSummary, 'totals'> = report.load_writes ?? { totals: totalWrites(report.preload) };
  const run = report.writes;
  const runOps = Object.values(report.operations).reduce((a, b) => a + b, 0);
  const t = report.timings;
  const rate = (ops: number, ms: number | undefined) => (ms && ms > 0 ? ops / (ms / 1000) : null);
  const rows: [string, number | null, number | null][] = [
    ['operations', report.preload_operations, runOps],
    ['time (s)', t ? t.preload_ms / 1000 : null, t ? t.run_ms / 1000 : null],
    ['throughput (ops/s)', rate(report.preload_operations, t?.preload_ms), rate(runOps, t?.run_ms)],
    ['flushes', load.totals.flushes, run.totals.flushes],
    ['merges', load.totals.compactions, run.totals.compactions],
    ['pages written (data + meta)', load.totals.data_pages_written + load.totals.meta_pages_written, run.totals.data_pages_written + run.totals.meta_pages_written],
    ['bytes written by flushes and merges', load.totals.bytes_written, run.totals.bytes_written],
    ['bytes the writes carried (keys + values)', load.user_bytes ?? null, run.user_bytes ?? null],
    ['write amplification', load.write_amplification ?? null, run.write_amplification ?? null],
    ['log bytes written', report.preload.wal_bytes_written, report.run.wal_bytes_written],
  ];
  // Re-optimised Monkey's price: the pages its filter rebuilds read, in the phase that paid them.
  const rebuilds = (s: Report['run']) => s.levels.reduce((a, l) => a + (l.filter_resizing?.pages_read ?? 0), 0);
  if (report.config.filter.monkey_policy === 'reoptimised') {
    rows.push(['filter rebuild pages read', rebuilds(report.preload), rebuilds(report.run)]);
  }
  return rows.map(([measure, l, r]) => ({ measure, load: l, run: r }));
}

export function phaseCsv(report: Report): string {
  return toCsv(['measure', 'load', 'run'], phaseRows(report).map((r) => [r.measure, r.load, r.run]));
}

export interface LatencyRow extends Record<string, string | number> {
  phase: 'load' | 'run';
  class: string;
  count: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  p999: number;
  max: number;
}

/** Latency percentiles (ns) per phase and operation class; empty when the run was not timed. */
export function latencyRows(report: Report): LatencyRow[] {
  const l = report.latency;
  if (!l) return [];
  const rows = (phase: 'load' | 'run', classes: typeof l.load): LatencyRow[] =>
    classes.map((c) => ({ phase, class: c.class, count: c.count, mean: c.mean_ns, p50: c.p50_ns, p95: c.p95_ns, p99: c.p99_ns, p999: c.p999_ns, max: c.max_ns }));
  return [...rows('load', l.load), ...rows('run', l.run)];
}

/** One phase's write stalls: what the lab's stall table shows. */
export interface StallRow extends Record<string, string | number> {
  phase: 'load' | 'run';
  slowdowns: number;
  stops: number;
  flushWaits: number;
  pagesMerged: number;
  stalledNs: number;
}

/** Write stalls of the load and the run; none for a report from before stalls were counted. */
export function stallRows(report: Report): StallRow[] {
  const row = (phase: 'load' | 'run', s: Report['run']['stalls']): StallRow[] =>
    s ? [{ phase, slowdowns: s.slowdowns, stops: s.stops, flushWaits: s.flush_waits, pagesMerged: s.pages_merged, stalledNs: s.stalled_ns }] : [];
  return [...row('load', report.preload.stalls), ...row('run', report.run.stalls)];
}

export function latencyCsv(report: Report): string {
  return toCsv(
    ['phase', 'class', 'operations', 'mean (ns)', 'p50 (ns)', 'p95 (ns)', 'p99 (ns)', 'p99.9 (ns)', 'max (ns)'],
    latencyRows(report).map((r) => [r.phase, r.class, r.count, r.mean, r.p50, r.p95, r.p99, r.p999, r.max]),
  );
}

/**
 * Throughput over engine time, the load then the run on one time axis (the run's samples shifted
 * by the load's engine time): what the lab's throughput chart plots.
 */
export function throughputSeries(report: Report): { id: 'load' | 'run'; label: string; points: { x: number; y: number }[] }[] {
  const l = report.latency;
  if (!l) return [];
  const loadEnd = l.load_throughput.at(-1)?.seconds ?? 0;
  return [
    { id: 'load' as const, label: 'load (preload)', points: l.load_throughput.map((s) => ({ x: s.seconds, y: s.ops_per_sec })) },
    { id: 'run' as const, label: 'run (measured)', points: l.run_throughput.map((s) => ({ x: loadEnd + s.seconds, y: s.ops_per_sec })) },
  ].filter((s) => s.points.length > 0);
}

/** The run's counters under RocksDB's statistics names, as the engine reports them (absent in older reports). */
export function rocksdbRows(report: Report): CounterRow[] {
  return Object.entries(report.rocksdb_counters ?? {}).map(([counter, value]) => ({ counter, value }));
}

/** Per operation class: count, I/O per operation and the filter counters (Report.summary). */
export function summaryCsv(report: Report): string {
  return toCsv(
    ['class', 'count', 'page I/Os', 'I/O per op', 'data pages read', 'filter probes', 'filter negatives', 'filter positives', 'false positives', 'seeks'],
    report.summary.map((s) => [
      s.class,
      s.count,
      s.page_ios,
      s.io_per_op,
      s.data_pages_read,
      s.filter_probes,
      s.filter_negatives,
      s.filter_positives,
      s.filter_false_positives,
      s.seeks,
    ]),
  );
}

export function overlayCsv(report: Report): string {
  return toCsv(
    ['operation', 'count', 'measured (I/O per op)', 'predicted from the tree', 'paper model', 'error vs tree'],
    overlay(report).map((o) => [o.label, o.count, o.measured, o.tree, o.model, o.errorTree]),
  );
}

export function levelCsv(report: Report): string {
  return toCsv(
    ['level', 'runs', 'entries', 'filter bits per key', 'measured zero-result I/O per lookup', 'sum of run FPRs'],
    levelOverlay(report).map((l) => [l.level, l.runs, l.entries, l.bitsPerKey, l.measuredIo, l.predictedIo]),
  );
}

/** One CSV for a stored result: for a run, the overlay, the per-class summary, the per-level split, the two phases and the latencies. */
export function resultCsv(r: LabResult): string {
  switch (r.kind) {
    case 'run':
      return [overlayCsv(r.report), summaryCsv(r.report), levelCsv(r.report), phaseCsv(r.report), latencyCsv(r.report)].join('\n');
    case 'sweep':
      return sweepCsv(r.spec, r.points);
    case 'compare':
      return compareCsv(r.rows);
  }
}

/** A stored result as one JSON document (a run's is the Report itself, as `lsm run --report` writes it). */
export function resultJson(r: LabResult): string {
  return JSON.stringify(r.kind === 'run' ? r.report : r, null, 2);
}

/** Does the report have per-class data for this class index? (Imported reports from older engines may not.) */
export function hasClass(report: Report, cls: (typeof OP_CLASSES)[number]): boolean {
  return report.summary.some((s) => s.class === cls && s.count > 0);
}

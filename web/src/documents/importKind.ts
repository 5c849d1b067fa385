/** Which reader a pasted or uploaded document needs, and what an import says about it. Pure. */
import type { ExportWarning, TraceFit } from './engine';

export type ImportKind = 'engine' | 'rocksdb';

/**
 * Engine JSON when the file is `.json` or the text is a JSON object; a RocksDB OPTIONS file (INI)
 * otherwise. The user can still switch: this only picks the starting point.
 */
export function detectImportKind(text: string, fileName?: string): ImportKind {
  if (fileName && /\.json$/i.test(fileName)) return 'engine';
  if (fileName && /(^OPTIONS|\.ini$)/i.test(fileName)) return 'rocksdb';
  return text.trimStart().startsWith('{') ? 'engine' : 'rocksdb';
}

/** A YCSB workload properties file: `name=value` lines naming CoreWorkload properties. */
export function looksLikeYcsb(text: string): boolean {
  return /^\s*(workload|recordcount|operationcount|readproportion|updateproportion|insertproportion|scanproportion|requestdistribution)\s*[=:\s]/m.test(text);
}

/** A db_bench command line: a program named db_bench, or a `--benchmarks` flag (as the engine's reader decides). */
export function looksLikeDbBench(text: string): boolean {
  const first = text.split(/\s+/).find((t) => t !== '' && !t.startsWith('#')) ?? '';
  return first.split('/').pop() === 'db_bench' || text.includes('-benchmarks');
}

/** What a db_bench import could not carry over, one line each. */
export function dbBenchImportNotes(warnings: ExportWarning[], unknownFlags: string[]): string[] {
  return [...warnings.map((w) => `${w.field} (${w.kind}): ${w.message}`), ...unknownFlags.map((k) => `${k}: not a db_bench flag this reader knows; ignored`)];
}

/** A KVBench trace: operation lines `I k v`, `U k v`, `D k`, `Q k`, `S a b` (and # comments). */
export function looksLikeTrace(text: string): boolean {
  const lines = text.split('\n', 50).map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
  return lines.length > 0 && lines.every((l) => /^[IUDQS] \S/.test(l));
}

/** What a YCSB import could not carry over, one line each. */
export function ycsbImportNotes(warnings: ExportWarning[], unknownKeys: string[]): string[] {
  return [...warnings.map((w) => `${w.field} (${w.kind}): ${w.message}`), ...unknownKeys.map((k) => `${k}: not a YCSB CoreWorkload property; ignored`)];
}

/** What a trace fit found, one line each: popularity, zero-result share, sizes, then the fit's notes. */
export function traceFitNotes(fit: TraceFit): string[] {
  const p = fit.popularity;
  const popularity =
    p.distribution === 'zipf'
      ? `Zipf θ = ${p.theta.toFixed(3)} (maximum likelihood; KS distance ${p.ks_distance.toFixed(3)})`
      : `uniform keys (p = ${p.uniform_p.toPrecision(2)} under uniform; Zipf would be θ = ${p.theta.toFixed(3)})`;
  return [
    `fitted: ${popularity}, ${(fit.zero_result_share * 100).toFixed(1)}% of lookups zero-result, ${fit.preload_operations.toLocaleString('en-US')} preloaded keys, ${fit.run_operations.toLocaleString('en-US')} operations`,
    ...fit.notes,
  ];
}

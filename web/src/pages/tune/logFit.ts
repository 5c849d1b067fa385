/**
 * What a person reads of a RocksDB LOG's fit (`lsm fit --rocksdb-log`, the engine worker's
 * `fitRocksdbLog`): the operation mix it found, each figure as the LOG has it against the
 * prediction for the fitted workload, and what the fit assumed. Pure.
 */
import type { LogFit } from '../../documents/engine';

const percent = (x: number) => `${(100 * x).toFixed(1)}%`;
const figureValue = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(3));

/** One line per finding: the mix, the figures (LOG vs predicted), then the assumptions. */
export function logFitNotes(fit: LogFit): string[] {
  const m = fit.workload.mix;
  const lookups = (m.get_existing ?? 0) + (m.get_missing ?? 0);
  const writes = (m.insert ?? 0) + (m.update ?? 0) + (m.delete ?? 0);
  const d = fit.workload.distribution;
  const skew = d.kind === 'zipf' ? `Zipf θ ${d.theta}` : d.kind;
  const lines = [
    `Mix from the LOG's counters: ${percent(lookups)} point lookups (${percent(m.get_existing ?? 0)} found), ${percent(writes)} writes, ${percent(m.range ?? 0)} scans; ` +
      `${fit.workload.preload.entries.toLocaleString('en-US')} keys of ${fit.workload.preload.key_bytes} + ${fit.workload.preload.value_bytes} bytes; keys ${skew}.`,
  ];
  for (const f of fit.figures) {
    const error = f.relative_error === null ? '' : ` (${f.relative_error >= 0 ? '+' : ''}${(100 * f.relative_error).toFixed(1)}%)`;
    lines.push(`${f.name.replaceAll('_', ' ')}: LOG ${figureValue(f.log)}, predicted ${figureValue(f.predicted)}${error}${f.fitted ? ', fitted to' : ', a check'}.`);
  }
  return [...lines, ...fit.assumptions.map((a) => `Assumed: ${a}.`)];
}

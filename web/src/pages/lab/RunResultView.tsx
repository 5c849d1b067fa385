/**
 * One run, re-plotted from its Report: measured I/O per operation against the prediction from the
 * engine's tree and the paper's model, zero-result I/O by level, the final tree, and every counter.
 * The same view shows a fresh run, a stored one and a report imported from `lsm run --report`.
 */
import { memo, useMemo } from 'react';
import { BarChart, ChartCard, barChartCsv } from '../../ui/charts';
import { CardGrid, DataTable, Readouts, type Column, type ReadoutItem } from '../../ui/layout';
import { downloadText } from '../../ui/download/svg';
import { formatCount, formatInt, formatPercent, formatSig } from '../../documents/format';
import { TreeView } from '../../ui/tree/TreeView';
import { bitsSpentPerKey, levelOverlay, overlay, type ClassOverlay } from './predict';
import { LatencyCards } from './LatencyCard';
import { counterRows, phaseRows, resultCsv, resultJson, rocksdbRows, type CounterRow, type PhaseRow } from './reportTables';
import type { RunResult } from './results';

const signed = (e: number) => `${e >= 0 ? '+' : '−'}${formatPercent(Math.abs(e), 2)}`;

function OverlayNumbers({ rows }: { rows: readonly ClassOverlay[] }) {
  const zero = rows.find((r) => r.cls === 'zero');
  return (
    <div className="overlay-numbers" data-testid="overlay-numbers">
      {rows
        .filter((r) => r.measured !== null)
        .map((r) => (
          <p key={r.cls} className={r.cls === 'zero' ? 'overlay-line main' : 'overlay-line'}>
            <strong>{r.label}</strong>: measured{' '}
            <span data-testid={`overlay-${r.cls}-measured`} data-value={r.measured ?? undefined}>
              {formatSig(r.measured ?? NaN, 4)}
            </span>
            {r.tree !== null && (
              <>
                {' '}
                vs predicted from the tree{' '}
                <span data-testid={`overlay-${r.cls}-predicted`} data-value={r.tree}>
                  {formatSig(r.tree, 4)}
                </span>{' '}
                — error{' '}
                <span
                  data-testid={`overlay-${r.cls}-error`}
                  data-value={r.errorTree ?? undefined}
                  className={r.errorTree !== null && Math.abs(r.errorTree) <= 0.05 ? 'good' : 'warn'}
                >
                  {r.errorTree === null ? '—' : signed(r.errorTree)}
                </span>
              </>
            )}
            {r.model !== null && <> · paper model {formatSig(r.model, 4)}</>}
            {r.note && <span className="overlay-note"> ({r.note})</span>}
          </p>
        ))}
      {zero && zero.measured !== null && (
        <p className="caption">
          The standard error of a measured false-positive rate is about 1/√(false positives): run enough zero-result lookups (100,000+) and the error above
          is a few tenths of a percent.
        </p>
      )}
    </div>
  );
}

const rocksColumns: Column<CounterRow>[] = [
  { key: 'counter', label: 'Statistic', numeric: false, format: (v) => <span className="mono">{String(v)}</span> },
  { key: 'value', label: 'Value', numeric: true, format: (v) => formatInt(Number(v)) },
];

/** A phase figure: ratios and seconds to 4 significant digits, counts whole; — where a report lacks it. */
const phaseValue = (v: unknown, measure: string): string => {
  if (v === null || v === undefined) return '—';
  const n = Number(v);
  return measure === 'write amplification' || measure === 'time (s)' ? formatSig(n, 4) : formatInt(Math.round(n));
};

const phaseColumns: Column<PhaseRow>[] = [
  { key: 'measure', label: 'Measure', numeric: false },
  { key: 'load', label: 'Load (preload)', numeric: true, format: (v, row) => phaseValue(v, row.measure) },
  { key: 'run', label: 'Run (measured)', numeric: true, format: (v, row) => phaseValue(v, row.measure) },
];

const counterColumns: Column<CounterRow>[] = [
  { key: 'counter', label: 'Counter', numeric: false },
  { key: 'value', label: 'Value', numeric: true, format: (v) => formatInt(Number(v)) },
];

export const RunResultView = memo(function RunResultView({ result }: { result: RunResult }) {
  const { report } = result;
  const rows = useMemo(() => overlay(report), [report]);
  const levels = useMemo(() => levelOverlay(report), [report]);
  const counters = useMemo(() => counterRows(report).filter((c) => c.value !== 0 || c.counter.startsWith('missing')), [report]);
  const rocks = useMemo(() => rocksdbRows(report), [report]);
  const phases = useMemo(() => phaseRows(report), [report]);
  // Classes with a prediction from the tree (lookups); updates are listed below the chart.
  const shown = rows.filter((r) => r.measured !== null && r.tree !== null);
  const zero = rows.find((r) => r.cls === 'zero');
  // The by-level chart is of zero-result lookups: drawn only for a run that made some.
  const zeroLookups = report.summary.find((c) => c.class === 'get_zero_result')?.count ?? 0;
  const runMs = report.timings?.run_ms ?? 0;
  const runOps = Object.values(report.operations).reduce((a, b) => a + b, 0);

  const overlayChart = {
    x: { label: 'operation' },
    y: { label: 'cost', unit: 'I/O per operation', zero: true },
    categories: shown.map((r) => r.label),
    groups: [
      { id: 'measured', label: 'measured', values: shown.map((r) => r.measured ?? NaN) },
      { id: 'tree', label: 'predicted from the engine’s tree', values: shown.map((r) => r.tree ?? NaN) },
      { id: 'model', label: 'paper’s model', values: shown.map((r) => r.model ?? NaN) },
    ],
  };
  const levelChart = {
    x: { label: 'level' },
    y: { label: 'zero-result I/O', unit: 'I/O per lookup', zero: true },
    categories: levels.map((l) => `L${l.level}`),
    groups: [
      { id: 'measured', label: 'measured', values: levels.map((l) => l.measuredIo) },
      { id: 'predicted', label: 'Σ FPR of the level’s runs', values: levels.map((l) => l.predictedIo) },
    ],
  };
  const readouts: ReadoutItem[] = [
    { label: 'Operations', value: runOps, text: formatCount(runOps), testId: 'result-ops' },
    { label: 'Run time (measured phase)', value: runMs, text: `${formatSig(runMs / 1000, 3)} s`, testId: 'result-ms' },
    { label: 'Throughput (measured phase)', value: runMs > 0 ? runOps / (runMs / 1000) : 0, text: runMs > 0 ? `${formatCount(runOps / (runMs / 1000))} ops/s` : '—' },
    { label: 'Filter bits spent', value: bitsSpentPerKey(report.tree), text: `${formatSig(bitsSpentPerKey(report.tree), 3)} bits/key` },
  ];
  if (zero?.measured !== null && zero?.errorTree !== null && zero) {
    readouts.push({ label: 'Zero-result error vs tree', value: zero.errorTree ?? 0, text: signed(zero.errorTree ?? 0), testId: 'result-zero-error' });
  }

  return (
    <div className="run-result" data-testid="run-result" data-result-id={result.id} data-cancelled={result.cancelled ? 'true' : 'false'}>
      <header className="result-head">
        <div>
          <h2>{result.label}</h2>
          <p className="caption">
            {result.backend === 'imported' ? 'Imported report' : `${result.backend === 'memory' ? 'In memory' : `${result.backend === 'opfs' ? 'OPFS' : 'IndexedDB'} database “${result.database}”`}`} ·{' '}
            {report.config.name || 'unnamed design'} · {report.engine}
            {report.merges && <span data-testid="result-merges"> · merges {report.merges}</span>}
            {result.cancelled && <strong className="warn"> · cancelled: counts cover the operations done before Cancel</strong>}
          </p>
        </div>
        <div className="card-tools">
          <button type="button" onClick={() => downloadText(resultJson(result), `${result.id}-report.json`, 'application/json')}>
            Report JSON
          </button>
          <button type="button" onClick={() => downloadText(resultCsv(result), `${result.id}.csv`, 'text/csv')}>
            CSV
          </button>
        </div>
      </header>
      <Readouts items={readouts} label="Run summary" />
      {zeroLookups === 0 && (
        <p className="caption" data-testid="level-chart-none">
          This workload made no zero-result lookups, so there is no zero-result I/O by level to draw.
        </p>
      )}
      <CardGrid>
        <ChartCard
          id="overlay"
          title="Measured vs predicted I/O per operation"
          caption="Per lookup class: what the engine counted, the prediction from the runs it really has (Σ of their FPRs for a zero-result lookup), and Monkey’s model for the same data (Eq 7 / 56, 9, 11)."
          csv={() => barChartCsv(overlayChart)}
          footer={<OverlayNumbers rows={rows} />}
        >
          {shown.length > 0 ? (
            <BarChart {...overlayChart} title="Measured vs predicted I/O per operation" data-testid="overlay-chart" valueLabels height={280} />
          ) : (
            <p className="chart-placeholder">This run measured no point or range lookups.</p>
          )}
        </ChartCard>
        {zeroLookups > 0 && (
          <ChartCard
            id="levels"
            title="Zero-result I/O by level"
            caption="Where the false positives happen: measured data pages read per zero-result lookup at each level, against the Σ of the FPRs of that level’s runs. Monkey moves them to the small levels."
            csv={() => barChartCsv(levelChart)}
          >
            <BarChart {...levelChart} title="Zero-result I/O by level" data-testid="level-chart" height={280} />
          </ChartCard>
        )}
        <ChartCard
          id="tree"
          wide
          title="The tree at the end of the run"
          caption="Runs sized by bytes within their level, coloured by filter bits per key."
          footer={
            <details className="tree-json">
              <summary>Tree JSON</summary>
              <pre className="mono lab-json" data-testid="result-tree-json">
                {JSON.stringify(report.tree, null, 1)}
              </pre>
            </details>
          }
        >
          <TreeView tree={report.tree} title="Final tree" data-testid="result-tree" />
        </ChartCard>
        <article className="card chart-card wide" aria-labelledby="phases-title">
          <header className="card-head">
            <div>
              <h2 id="phases-title">Load and run</h2>
              <p className="caption">The preload and the measured operations side by side: time, rate, and what each phase’s flushes and merges wrote. Write amplification: bytes flushes and merges wrote per byte of keys and values written.</p>
            </div>
          </header>
          <DataTable
            columns={phaseColumns}
            rows={phases}
            rowKey={(r) => r.measure}
            testId="phases-table"
            caption="Load and run phases"
          />
        </article>
        <LatencyCards report={report} />
        <article className="card chart-card wide" aria-labelledby="counters-title">
          <header className="card-head">
            <div>
              <h2 id="counters-title">Counters</h2>
              <p className="caption">Run phase, summed over levels (zeros hidden); the per-level counters are in the report JSON.</p>
            </div>
          </header>
          <div className="counter-tables">
            <DataTable columns={counterColumns} rows={counters} rowKey={(r) => r.counter} testId="counters-table" caption="Engine counters" />
            {rocks.length > 0 && (
              <DataTable columns={rocksColumns} rows={rocks} rowKey={(r) => r.counter} testId="rocksdb-table" caption="Under RocksDB’s statistics names" />
            )}
          </div>
        </article>
      </CardGrid>
    </div>
  );
});

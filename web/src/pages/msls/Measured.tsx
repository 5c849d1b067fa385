/**
 * The model held against what really writes: a real LevelDB (stored results of
 * `npm run leveldb-write-amp`, re-measured by `npm test`), the engine configured as LevelDB's
 * design, and MSLS — and the page's own design measured on the engine here, in the worker.
 */
import { useMemo, useState } from 'react';
import { ScrollRegion } from '../../ui/layout/ScrollRegion';
import { mslsWriteAmplification, type MslsLevelParams } from '@lsm/models';
import { runAgainstGrowthModel, steadyStateWindow, type GrowthAgreement } from '../../compute/writeAmp';
import { mslsEngineRunSpec, mslsGrowthParams } from '../../documents/designs/msls';
import { formatCount, formatDifference, formatFixed, formatInt, formatSig } from '../../documents/format';
import type { LeveldbCaseResult, LeveldbComparison, MeasuredWindow } from '../../documents/writeAmp';
import { BusyError, useLabEngine, withTask } from '../../engine/session';
import { BarChart } from '../../ui/charts/BarChart';
import { ChartCard } from '../../ui/charts/ChartCard';
import { toCsv } from '../../ui/charts/csv';
import type { BarChartProps } from '../../ui/charts/types';
import { MeasureButton } from '../../ui/task/MeasureButton';
import { ENGINE_COLOR, LEVELDB_COLOR, UNIFORM_COLOR, WA_AXIS } from './common';
import type { LeveldbComparisonState } from './useLeveldbComparison';

const MODEL_COLOR = UNIFORM_COLOR;

const caseLabel = (r: LeveldbCaseResult) =>
  `${formatCount(r.case.keys)} keys, ${r.case.valueBytes} B, ${r.case.theta > 0 ? `Zipf ${r.case.theta}` : 'uniform'}`;

const merges = (levels: number[]) => levels.reduce((a, b) => a + b, 0);

function comparisonCsv(doc: LeveldbComparison): string {
  const header = ['case', 'keys', 'value bytes', 'theta', 'system', 'flush', 'into L1', 'into L2', 'into L3', 'merges', 'flush + merges'];
  const rows = doc.results.flatMap((r) =>
    (
      [
        ['LevelDB', r.leveldb.steady.flush, r.leveldb.steady.levels, r.leveldb.steady.total],
        ['engine', r.engine.steady.flush, r.engine.steady.levels, r.engine.steady.total],
        ['MSLS', r.msls.flush, r.msls.levels, r.msls.total],
      ] as const
    ).map(([system, flush, levels, total]) => [
      r.case.id,
      r.case.keys,
      r.case.valueBytes,
      r.case.theta,
      system,
      flush,
      levels[0] ?? 0,
      levels[1] ?? 0,
      levels[2] ?? 0,
      merges([...levels]),
      total,
    ]),
  );
  return toCsv(header, rows);
}

/** LevelDB 1.23, the engine and MSLS on the same writes (stored results). */
export function LeveldbCard({ comparison }: { comparison: LeveldbComparisonState }) {
  const { doc, error } = comparison;
  const bars: BarChartProps | null = useMemo(() => {
    if (!doc) return null;
    return {
      title: 'Merges’ write amplification, LevelDB vs engine vs MSLS',
      x: { label: 'case' },
      y: { ...WA_AXIS, label: 'entries written by merges per write' },
      categories: doc.results.map(caseLabel),
      groups: [
        { id: 'leveldb', label: 'LevelDB 1.23, measured', color: LEVELDB_COLOR, values: doc.results.map((r) => merges(r.leveldb.steady.levels)) },
        { id: 'engine', label: 'engine, measured', color: ENGINE_COLOR, values: doc.results.map((r) => merges(r.engine.steady.levels)) },
        { id: 'msls', label: 'MSLS model', color: MODEL_COLOR, values: doc.results.map((r) => merges(r.msls.levels)) },
      ],
    };
  }, [doc]);
  return (
    <ChartCard
      id="leveldb-measured"
      title="Held against a real LevelDB"
      wide
      caption={
        <>
          The same stream of writes put into Debian’s LevelDB 1.23 with its own defaults, into the engine configured as that design, and
          through the MSLS model of it. Write amplification here counts entries written per write into tables (the log’s 1 apart).
        </>
      }
      detail={
        <>
          The stream: N keys written once, a warm-up of updates, then whole level-0 cycles. LevelDB’s defaults: 4 MiB write buffer, level 0
          merged at 4 files, 10 MiB level 1, ×10, 2 MiB files, no compression; merges waited for after every flush.
          {doc && (
            <span data-testid="leveldb-notes">
              {' '}Measured {doc.measured} with {doc.engine}; <code>npm test</code> measures all three again, side by side, and holds the engine’s merges within
              10% of LevelDB’s and MSLS within 15% of LevelDB’s total. What differs, and why: LevelDB’s flush writes every version its memtable holds
              (flush = 1.000 under skew too), and only its merges drop the older ones; the engine’s buffer keeps one version per key and flushes
              Unique(wal)/wal, the term the paper’s model has. The model is given LevelDB’s flush here. LevelDB also widens a merge with files that fit
              inside the range it rewrites below and cuts output files that would overlap more than 20 MiB two levels down; the engine does both, the model
              neither. LevelDB counts its thresholds in table bytes ({formatFixed(doc.results[0]?.calibration.tableBytesPerEntry ?? 0, 1)} B per entry of
              116 B) and its write buffer in arena bytes (a flush every {formatInt(doc.results[0]?.calibration.insertsPerFlush ?? 0)} writes of 116 B); the
              engine and the model are given the same sizes in entries.
            </span>
          )}
        </>
      }
      csv={doc ? () => comparisonCsv(doc) : undefined}
      footer={
        doc && (
          <>
            <ScrollRegion label="LevelDB measured write amplification">
<table className="data-table" data-testid="leveldb-table">
              <thead>
                <tr>
                  <th>Case</th>
                  <th>LevelDB flush</th>
                  <th>LevelDB merges</th>
                  <th>engine merges</th>
                  <th>MSLS merges</th>
                  <th>LevelDB total</th>
                  <th>MSLS total</th>
                </tr>
              </thead>
              <tbody>
                {doc.results.map((r) => (
                  <tr key={r.case.id} data-testid="leveldb-row" data-case={r.case.id}>
                    <td>{caseLabel(r)}</td>
                    <td>{formatFixed(r.leveldb.steady.flush, 3)}</td>
                    <td data-value={merges(r.leveldb.steady.levels)}>{formatFixed(merges(r.leveldb.steady.levels), 3)}</td>
                    <td data-value={merges(r.engine.steady.levels)}>
                      {formatFixed(merges(r.engine.steady.levels), 3)} ({formatDifference(merges(r.engine.steady.levels), merges(r.leveldb.steady.levels))})
                    </td>
                    <td>
                      {formatFixed(merges(r.msls.levels), 3)} ({formatDifference(merges(r.msls.levels), merges(r.leveldb.steady.levels))})
                    </td>
                    <td>{formatFixed(r.leveldb.steady.total, 3)}</td>
                    <td data-value={r.msls.total}>
                      {formatFixed(r.msls.total, 3)} ({formatDifference(r.msls.total, r.leveldb.steady.total)})
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
</ScrollRegion>
          </>
        )
      }
    >
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {bars ? <BarChart {...bars} data-testid="leveldb-chart" height={290} /> : !error && <p className="fine">Loading the measurements…</p>}
    </ChartCard>
  );
}

/** In the browser, the page's design runs up to this many keys. */
export const ENGINE_RUN_MAX_KEYS = 1_000_000;
const ENGINE_TASK_LABEL = 'write amplification on the engine';

/** The page's design measured on the engine (in the worker, in memory) next to the model, level by level. */
export function EngineRunCard({ params }: { params: MslsLevelParams }) {
  const { busy } = useLabEngine();
  const mine = busy?.label === ENGINE_TASK_LABEL;
  const [measured, setMeasured] = useState<{
    window: MeasuredWindow;
    params: MslsLevelParams;
    millis: number;
    fromEmpty: GrowthAgreement | null;
  } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const keys = params.keySpace;
  const tooBig = keys > ENGINE_RUN_MAX_KEYS;
  const model = useMemo(() => (measured ? mslsWriteAmplification(measured.params) : null), [measured]);

  const run = async () => {
    setError(null);
    try {
      const { spec, warmup } = mslsEngineRunSpec(params);
      await withTask(ENGINE_TASK_LABEL, async (ctl) => {
        const r = await ctl.writes(spec);
        if (r.cancelled) {
          setError('Cancelled: nothing measured.');
          return;
        }
        setMeasured({ window: steadyStateWindow(r.result, 'engine', warmup), params, millis: r.millis, fromEmpty: runAgainstGrowthModel(mslsGrowthParams(params), r.result) });
      });
    } catch (err) {
      setError(err instanceof BusyError || err instanceof Error ? err.message : String(err));
    }
  };

  const rows = useMemo(() => {
    if (!measured || !model) return [];
    const L = model.resolved.levels;
    return [
      { source: 'flush', model: model.flush, engine: measured.window.flush },
      ...Array.from({ length: L }, (_, l) => ({ source: `L${l}→L${l + 1}`, model: model.perLevel[l + 1] ?? 0, engine: measured.window.levels[l] ?? 0 })),
      { source: 'total (log apart)', model: model.total - model.log, engine: measured.window.total },
    ];
  }, [measured, model]);
  const bars: BarChartProps | null =
    rows.length > 0
      ? {
          title: 'Write amplification by step, MSLS vs the engine',
          x: { label: 'step' },
          y: WA_AXIS,
          categories: rows.slice(0, -1).map((r) => r.source),
          groups: [
            { id: 'msls', label: 'MSLS model', color: MODEL_COLOR, values: rows.slice(0, -1).map((r) => r.model) },
            { id: 'engine', label: 'engine, measured', color: ENGINE_COLOR, values: rows.slice(0, -1).map((r) => r.engine) },
          ],
        }
      : null;

  return (
    <ChartCard
      id="engine-measured"
      title="This design, measured on the engine"
      wide
      caption={
        <>
          The design on the left, built by the engine in this page, next to the MSLS model. Up to {formatCount(ENGINE_RUN_MAX_KEYS)}{' '}
          keys here; natively, <code>lsm writes</code> runs any size.
        </>
      }
      detail="The engine runs in memory, in its worker, with a log-size flush trigger like the model’s wal: N keys written once, N/2 updates of warm-up, then at least N more; the counts come from whole level-0 cycles."
      csv={rows.length > 0 ? () => toCsv(['step', 'MSLS write amplification', 'engine write amplification'], rows.map((r) => [r.source, r.model, r.engine])) : undefined}
      status={mine ? 'measuring…' : undefined}
      footer={
        rows.length > 0 && measured && (
          <>
            <ScrollRegion label="Engine measured write amplification">
<table className="data-table" data-testid="engine-wa-table">
              <thead>
                <tr>
                  <th>Step</th>
                  <th>MSLS</th>
                  <th>Engine</th>
                  <th>Engine vs MSLS</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.source} data-testid="engine-wa-row" data-source={r.source}>
                    <td>{r.source}</td>
                    <td data-value={r.model}>{formatFixed(r.model, 3)}</td>
                    <td data-value={r.engine}>{formatFixed(r.engine, 3)}</td>
                    <td>{r.model > 0 ? formatDifference(r.engine, r.model) : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
</ScrollRegion>
            <p className="caption" data-testid="engine-wa-summary">
              Measured over {formatCount(measured.window.to - measured.window.from)} writes ({formatInt(measured.window.cycles)} level-0 cycles) in{' '}
              {formatSig(measured.millis / 1000, 2)} s.
            </p>
            {measured.fromEmpty && measured.fromEmpty.points.length > 0 && (
              <p className="caption" data-testid="engine-wa-from-empty" data-worst={measured.fromEmpty.worst}>
                From empty, the first {formatInt(measured.params.keySpace)} writes: the engine wrote each{' '}
                {formatFixed(measured.fromEmpty.points[measured.fromEmpty.points.length - 1]?.measured ?? NaN, 3)} times, the from-empty model predicts{' '}
                {formatFixed(measured.fromEmpty.points[measured.fromEmpty.points.length - 1]?.model ?? NaN, 3)}; at most{' '}
                {formatFixed(measured.fromEmpty.worst * 100, 1)}% apart over {formatInt(measured.fromEmpty.points.length)} flushes.
              </p>
            )}
          </>
        )
      }
    >
      <MeasureButton mine={mine} disabled={!!busy || tooBig} onClick={() => void run()} testId="engine-wa-run" error={null} />
      {tooBig && (
        <p className="field-msg" data-testid="engine-wa-too-big">
          {formatInt(keys)} keys is more than the page measures ({formatInt(ENGINE_RUN_MAX_KEYS)}): export the design and run <code>lsm writes</code>.
        </p>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {bars ? (
        <BarChart {...bars} data-testid="engine-wa-chart" height={260} />
      ) : (
        !tooBig && (
          <p className="notice" data-testid="engine-wa-idle">
            Press “Measure on the engine”: {formatInt(keys)} keys and their updates, a few seconds to a minute.
          </p>
        )
      )}
    </ChartCard>
  );
}

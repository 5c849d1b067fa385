/**
 * The sweeps tab: pick a figure, run it on the engine (in memory, one run per point, progress per
 * point), and see the measured points land on the paper's curves. Finished (or cancelled) sweeps
 * are stored with their CSV; a stored sweep re-plots here.
 */
import { FilterGrowthCard, GROWTH_TASK_LABEL } from '../../ui/growth/FilterGrowthCard';
import { useMemo, useState } from 'react';
import { BarChart, ChartCard, LineChart, ScatterChart, barChartCsv } from '../../ui/charts';
import { ControlGroup, ParamControl } from '../../ui/controls';
import { CardGrid, DataTable, Readouts, type Column } from '../../ui/layout';
import type { UrlState } from '../../ui/state/useUrlState';
import { downloadText } from '../../ui/download/svg';
import { formatPercent, formatSig } from '../../documents/format';
import { useLabEngine } from '../../engine/session';
import { runSweep } from './runner';
import type { SweepResult } from './results';
import { lookupSweepChart, mooseChart, mslsChart, mslsLevelChart, slopePerDoubling, tradeoffChart } from './sweepCharts';
import { SWEEP_BITS, SWEEPS, sweepPoints, totalWriteAmp, type SweepPointResult, type SweepSpec } from './sweeps';
import { pointModel, sweepCsv } from './sweepCsv';
import type { LabSchema, LabState } from '../../documents/urls/lab';
import { TaskProgress } from '../../ui/task/TaskProgress';
import { ErrorAlert } from '../../ui/layout/ErrorAlert';

export function specOf(s: LabState): SweepSpec {
  const info = SWEEPS[s.sweepKind];
  return {
    kind: s.sweepKind,
    log2: Math.min(info.log2.max, Math.max(info.log2.min, s.sweepLog2)),
    lookups: s.sweepKind === 'msls' ? 0 : s.sweepLookups,
    seed: s.seed,
  };
}

export function SweepControls({ url }: { url: UrlState<LabSchema> }) {
  const s = url.state;
  const info = SWEEPS[s.sweepKind];
  return (
    <ControlGroup title="Sweep">
      <ParamControl
        {...url.bind('sweepKind')}
        variant="select"
        onChange={(kind) => url.patch({ sweepKind: kind, sweepLog2: SWEEPS[kind].log2.default })}
      />
      <ParamControl {...url.bind('sweepLog2')} />
      {(s.sweepLog2 < info.log2.min || s.sweepLog2 > info.log2.max) && (
        <p className="field-msg field-kept">
          This sweep uses 2^{info.log2.min} … 2^{info.log2.max}; running at 2^{specOf(s).log2}.
        </p>
      )}
      {s.sweepKind !== 'msls' && s.sweepKind !== 'moose' && <ParamControl {...url.bind('sweepLookups')} noSlider />}
      <p className="field-msg">Sweeps run in memory, one engine run per point.</p>
    </ControlGroup>
  );
}

type Row = {
  series: string;
  param: number;
  measured: number | null;
  tree: number | null;
  cost: number | null;
  range: number | null;
  model: number | null;
  levels: number;
  bits: number;
  ms: number;
} & Record<string, string | number | null>;

const fmt = (v: Row[keyof Row]) => (typeof v === 'number' ? formatSig(v, 4) : '—');

export function SweepPanel({ url, stored }: { url: UrlState<LabSchema>; stored: SweepResult | null }) {
  const engine = useLabEngine();
  const liveSpec = specOf(url.state);
  const [live, setLive] = useState<{ spec: SweepSpec; points: SweepPointResult[]; result: SweepResult | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  // What to draw: the sweep running or just run, else a stored one opened from Results.
  const shown = live ?? (stored ? { spec: stored.spec, points: stored.points, result: stored } : null);
  const spec = shown?.spec ?? liveSpec;
  const points = shown?.points ?? [];
  const info = SWEEPS[spec.kind];
  // eslint-disable-next-line react-hooks/exhaustive-deps -- memoised on the fields the plan reads
  const planned = useMemo(() => sweepPoints(liveSpec).length, [liveSpec.kind, liveSpec.log2, liveSpec.lookups, liveSpec.seed]);

  const start = async () => {
    setError(null);
    setLive({ spec: liveSpec, points: [], result: null });
    try {
      const result = await runSweep(liveSpec, (pts) => setLive({ spec: liveSpec, points: pts, result: null }));
      setLive({ spec: liveSpec, points: result.points, result });
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  };

  const rows: Row[] = points.map((p) => ({
    series: spec.kind === 'moose' ? p.label : p.series,
    param: p.param,
    measured: spec.kind === 'msls' ? totalWriteAmp(p) : p.zeroIo,
    tree: spec.kind === 'msls' ? null : spec.kind === 'moose' || spec.kind === 'tradeoff' ? pointModel(spec, p).zero : p.treeZeroIo,
    cost: spec.kind === 'tradeoff' || spec.kind === 'moose' ? (p.runPagesPerUpdate ?? null) : null,
    range: p.rangeIo ?? null,
    model: spec.kind === 'moose' ? pointModel(spec, p).range : null,
    levels: p.levels,
    bits: p.bitsPerKey,
    ms: Math.round(p.millis),
  }));
  const columns: Column<Row>[] = [
    { key: 'series', label: 'Series', numeric: false },
    ...(spec.kind === 'moose'
      ? []
      : [
          {
            key: 'param',
            label: spec.kind === 'bits' ? 'Bits/key' : spec.kind === 'tradeoff' ? 'T' : 'Entries',
            numeric: true,
            format: (v: Row[keyof Row]) => (typeof v === 'number' ? v.toLocaleString('en-US') : ''),
          } as Column<Row>,
        ]),
    { key: 'measured', label: spec.kind === 'msls' ? 'Measured WA' : 'Measured', unit: spec.kind === 'msls' ? '×' : 'I/O per lookup', numeric: true, format: fmt },
    ...(spec.kind === 'msls'
      ? []
      : [
          spec.kind === 'moose' || spec.kind === 'tradeoff'
            ? ({ key: 'tree', label: spec.kind === 'moose' ? 'Moose model' : 'Paper model', unit: spec.kind === 'moose' ? 'Eq 4, full tree' : 'Eq 7 / Eq 56', numeric: true, format: fmt } as Column<Row>)
            : ({ key: 'tree', label: 'From the tree', unit: 'Σ FPR', numeric: true, format: fmt } as Column<Row>),
        ]),
    ...(spec.kind === 'tradeoff' || spec.kind === 'moose' ? [{ key: 'cost', label: 'Update cost', unit: 'pages/insert', numeric: true, format: fmt } as Column<Row>] : []),
    ...(spec.kind === 'moose'
      ? [
          { key: 'range', label: 'Short range', unit: 'I/O (measured)', numeric: true, format: fmt } as Column<Row>,
          { key: 'model', label: 'Short range', unit: 'I/O (Moose Eq 3)', numeric: true, format: fmt } as Column<Row>,
        ]
      : []),
    { key: 'levels', label: 'Levels', numeric: true },
    { key: 'bits', label: 'Bits spent', unit: 'bits/key', numeric: true, format: fmt },
    { key: 'ms', label: 'Time', unit: 'ms', numeric: true },
  ];

  const csv = () => sweepCsv(spec, points);
  const title = `${info.figure}: ${info.title}`;
  const caption = info.describe(spec);
  const last = points.filter((p) => p.writeAmp).slice(-1)[0];
  const levelChart = spec.kind === 'msls' && last ? mslsLevelChart(last) : null;
  const uniformSlope = slopePerDoubling(points, 'uniform');
  const monkeySlope = slopePerDoubling(points, 'monkey');
  const largest = (series: string) => points.filter((p) => p.series === series).sort((a, b) => b.param - a.param)[0]?.zeroIo ?? null;
  const gain = largest('uniform') && largest('monkey') !== null ? 1 - (largest('monkey') ?? 0) / (largest('uniform') ?? 1) : null;

  return (
    <>
      <section className="card run-card" aria-labelledby="sweep-title">
        <header className="card-head">
          <div>
            <h2 id="sweep-title">{SWEEPS[liveSpec.kind].figure}: {SWEEPS[liveSpec.kind].title}</h2>
            <p className="caption">{SWEEPS[liveSpec.kind].describe(liveSpec)}</p>
          </div>
        </header>
        <div className="run-actions">
          <button type="button" className="primary big" onClick={() => void start()} disabled={engine.busy !== null} data-testid="sweep-run">
            Run sweep ({planned} runs)
          </button>
          {shown?.result && (
            <button type="button" onClick={() => downloadText(csv(), `${shown.result?.id}.csv`, 'text/csv')} data-testid="sweep-csv">
              Download the sweep’s CSV
            </button>
          )}
          {shown?.result && <span className="field-msg" data-testid="sweep-saved">Stored in Results{shown.result.cancelled ? ' (cancelled part-way)' : ''}.</span>}
        </div>
        <ErrorAlert error={error} />
      </section>
      {engine.busy?.label !== GROWTH_TASK_LABEL && <TaskProgress />}
      {liveSpec.kind === 'size' && (
        <CardGrid>
          {/* The same design, one growing tree per filter policy, re-optimised Monkey included. */}
          <FilterGrowthCard design={{ policy: 'leveling', sizeRatio: 2, bitsPerEntry: SWEEP_BITS }} />
        </CardGrid>
      )}
      {points.length > 0 && spec.kind === 'size' && (
        <Readouts
          label="Growth with data size"
          items={[
            {
              label: 'Uniform: + I/O per doubling',
              value: uniformSlope ?? undefined,
              text: uniformSlope === null ? '—' : `+${formatSig(uniformSlope, 3)}`,
              testId: 'slope-uniform',
              hint: 'Measured growth of the zero-result cost per doubling of the data, over the last four doublings',
            },
            {
              label: 'Monkey: + I/O per doubling',
              value: monkeySlope ?? undefined,
              text: monkeySlope === null ? '—' : `+${formatSig(monkeySlope, 3)}`,
              testId: 'slope-monkey',
            },
            {
              label: 'Monkey’s saving at the largest size',
              value: gain ?? undefined,
              text: gain === null ? '—' : formatPercent(gain, 3),
              testId: 'saving-largest',
            },
          ]}
        />
      )}
      {points.length > 0 && (
        <CardGrid>
          <ChartCard
            id={`sweep-${spec.kind}`}
            wide
            title={title}
            caption={caption}
            csv={csv}
            status={engine.busy ? `${points.length} points so far` : undefined}
            footer={<p className="caption sweep-notice">{info.notice}</p>}
          >
            {spec.kind === 'tradeoff' ? (
              <ScatterChart {...tradeoffChart(spec, points)} title={title} height={380} data-testid="sweep-chart" />
            ) : spec.kind === 'moose' ? (
              <ScatterChart {...mooseChart(spec, points)} title={title} height={380} data-testid="sweep-chart" />
            ) : spec.kind === 'msls' ? (
              <LineChart {...mslsChart(spec, points)} title={title} height={340} data-testid="sweep-chart" />
            ) : (
              <LineChart {...lookupSweepChart(spec, points)} title={title} height={360} data-testid="sweep-chart" />
            )}
          </ChartCard>
          {levelChart && last && (
            <ChartCard
              id="sweep-msls-levels"
              wide
              title={`Write amplification by level, ${last.label}`}
              caption="Bytes written into each level ÷ bytes the updates inserted (the log excluded). The engine’s level 1 holds flushed files, so it plays MSLS’s level 0."
              csv={() => barChartCsv(levelChart)}
            >
              <BarChart {...levelChart} title="Write amplification by level" valueLabels height={280} data-testid="msls-level-chart" />
            </ChartCard>
          )}
          <article className="card chart-card wide" aria-labelledby="sweep-points-title">
            <header className="card-head">
              <div>
                <h2 id="sweep-points-title">Measured points</h2>
                <p className="caption">One engine run per row, in memory.</p>
              </div>
            </header>
            <DataTable columns={columns} rows={rows} rowKey={(r, i) => `${r.series}-${r.param}-${i}`} testId="sweep-table" />
          </article>
        </CardGrid>
      )}
    </>
  );
}

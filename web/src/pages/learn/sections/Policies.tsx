/** Sections 5–6: merge policies (leveling vs tiering) and the size ratio trade-off. */
import { useMemo } from 'react';
import { ChartCard } from '../../../ui/charts/ChartCard';
import { lineChartCsv, tableCsv } from '../../../ui/charts/csv';
import { LineChart } from '../../../ui/charts/LineChart';
import { SERIES_COLORS } from '../../../ui/charts/palette';
import type { AxisSpec, LineSeries } from '../../../ui/charts/types';
import { updateCost, type MergePolicy, type TreeShape } from '../../../compute/sweeps/learn';
import type { SweepResult, SweepState } from '../../../compute';
import { formatFixed, formatInt, formatSig } from '../../../documents/format';
import { DataTable, type Column } from '../../../ui/layout/DataTable';
import { ChartPlaceholder } from '../../../ui/layout/sweepStatus';
import { Concept } from '../Concept';
import { ENTRIES_PER_PAGE } from '../../../documents/urls/learn';
import { TreeDiagram } from '../TreeDiagram';

interface CompareRow extends Record<string, string | number> {
  metric: string;
  unit: string;
  leveling: number;
  tiering: number;
}

const COMPARE_CSV: Column<CompareRow>[] = [
  { key: 'metric', label: 'quantity' },
  { key: 'unit', label: 'unit' },
  { key: 'leveling', label: 'leveling' },
  { key: 'tiering', label: 'tiering' },
];

const COMPARE_COLUMNS: Column<CompareRow>[] = [
  {
    key: 'metric',
    label: 'Per operation',
    format: (v, row) => (
      <>
        {v} <span className="inline-unit">{row.unit}</span>
      </>
    ),
  },
  { key: 'leveling', label: 'Leveling', format: (v) => formatSig(Number(v), 3) },
  { key: 'tiering', label: 'Tiering', format: (v) => formatSig(Number(v), 3) },
];

export function MergeSection({
  shape,
  sizeRatio,
  policy,
  lookup,
}: {
  shape: TreeShape;
  sizeRatio: number;
  policy: MergePolicy;
  /** Zero-result lookup cost with uniform filters, per policy. */
  lookup: Record<MergePolicy, number>;
}) {
  const L = shape.levels.length;
  const T = sizeRatio;
  const rows: CompareRow[] = [
    { metric: 'Runs a lookup may check', unit: 'runs', leveling: L, tiering: L * (T - 1) },
    { metric: 'Times an entry is merged, per level', unit: 'merges', leveling: (T - 1) / 2, tiering: (T - 1) / T },
    {
      metric: 'Update cost W',
      unit: 'I/O per update',
      leveling: updateCost(L, T, 'leveling', ENTRIES_PER_PAGE),
      tiering: updateCost(L, T, 'tiering', ENTRIES_PER_PAGE),
    },
    { metric: 'Zero-result lookup R', unit: 'I/O per lookup', leveling: lookup.leveling, tiering: lookup.tiering },
  ];
  return (
    <Concept
      id="merge"
      n={5}
      title="Merge policies: leveling and tiering"
      figure={
        <ChartCard
          id="merge-policies"
          title="Leveling vs tiering"
          caption={`The same ${L} levels at T = ${T}; the selected policy is outlined.`}
          csv={() => tableCsv(COMPARE_CSV, rows)}
          footer={<DataTable columns={COMPARE_COLUMNS} rows={rows} rowKey={(r) => r.metric} testId="merge-table" />}
        >
          <TreeDiagram
            shape={shape}
            sizeRatio={T}
            policies={['leveling', 'tiering']}
            selected={policy}
            title="Runs per level under leveling and tiering"
            data-testid="merge-diagram"
          />
        </ChartCard>
      }
    >
      <p>
        <strong>Leveling</strong> keeps one run per level: a run arriving at a level is merged with the run already
        there. <strong>Tiering</strong> lets a level collect up to T−1 runs; when the T-th arrives they are all merged
        together into one run of the next level.
      </p>
      <p>
        Leveling therefore merges each entry about (T−1)/2 times per level but leaves a lookup at most L runs to check.
        Tiering writes each entry about once per level, so updates are cheaper, but a lookup may check up to L·(T−1)
        runs. Leveling is read-optimised, tiering write-optimised. At T = 2 the two are the same.
      </p>
      <p className="fine">
        Costs follow Monkey (Dayan et al.): W = (L/B)·merges·(1+φ) with φ = 1 (a write costs as much as a read) and B ={' '}
        {ENTRIES_PER_PAGE}; R uses Bloom filters with the same bits per key in every run.
      </p>
    </Concept>
  );
}

const X: AxisSpec = { label: 'size ratio T', scale: 'log', domain: [2, 100], ticks: [2, 3, 5, 10, 20, 30, 50, 100] };
const Y: AxisSpec = { label: 'cost', unit: 'I/O per operation', scale: 'log' };

export function SizeRatioSection({
  sizeRatio,
  sweep,
}: {
  sizeRatio: number;
  sweep: SweepState<SweepResult<'learn.sizeRatio'>>;
}) {
  const data = sweep.data;
  const series = useMemo<LineSeries[]>(() => {
    if (!data) return [];
    const pts = (f: (r: SweepResult<'learn.sizeRatio'>[number]) => number) => data.map((r) => ({ x: r.T, y: f(r) }));
    return [
      { id: 'lookup-lev', label: 'lookup, leveling', color: SERIES_COLORS[0], points: pts((r) => r.lookupLev) },
      { id: 'lookup-tier', label: 'lookup, tiering', color: SERIES_COLORS[1], points: pts((r) => r.lookupTier) },
      { id: 'update-lev', label: 'update, leveling', color: SERIES_COLORS[0], dash: '6 4', points: pts((r) => r.updateLev) },
      { id: 'update-tier', label: 'update, tiering', color: SERIES_COLORS[1], dash: '6 4', points: pts((r) => r.updateTier) },
    ];
  }, [data]);
  const chart = { x: X, y: Y, series };
  const here = data?.find((r) => r.T === sizeRatio);
  return (
    <Concept
      id="size-ratio"
      n={6}
      title="The size ratio"
      figure={
        <ChartCard
          id="size-ratio"
          title="Lookup and update cost vs size ratio"
          caption="Solid: zero-result point lookup R. Dashed: update W. Steps are where the tree gains or loses a level."
          csv={() => lineChartCsv(chart)}
          status={sweep.computing ? 'computing…' : sweep.error ? <span className="error">{sweep.error}</span> : undefined}
        >
          {data ? (
            <LineChart
              {...chart}
              title="Lookup and update cost against size ratio, leveling and tiering"
              data-testid="size-ratio-chart"
              rules={[{ x: sizeRatio, label: `T = ${sizeRatio}` }]}
            />
          ) : (
            <ChartPlaceholder height={300} />
          )}
        </ChartCard>
      }
    >
      <p>
        The size ratio <var>T</var> is the main dial between reads and writes. A larger T means fewer levels (L shrinks
        like log<sub>T</sub>), so there are fewer runs to check. But with leveling each merge rewrites a level T times
        bigger than what arrives, so updates get more expensive as T grows, while with tiering a level collects more
        runs before merging, so lookups get more expensive and updates cheaper.
      </p>
      <p>
        Pushed to the extreme, leveling with a huge T becomes one sorted array (fast lookups, costly updates) and
        tiering becomes a log of unmerged runs (cheap updates, slow lookups). Every LSM-tree sits somewhere between.
      </p>
      {here && (
        <p className="fine" data-testid="size-ratio-here">
          At T = {formatInt(here.T)}: {formatInt(here.levels)} levels; lookup {formatSig(here.lookupLev, 3)} (leveling) vs{' '}
          {formatSig(here.lookupTier, 3)} (tiering) I/O; update {formatSig(here.updateLev, 3)} vs{' '}
          {formatSig(here.updateTier, 3)} I/O. Ratio of update costs: {formatFixed(here.updateLev / here.updateTier, 1)}×.
        </p>
      )}
    </Concept>
  );
}

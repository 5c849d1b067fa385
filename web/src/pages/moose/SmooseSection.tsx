/**
 * Smoose's choice for the workload (its levels, costs and search), and how it compares with the
 * named designs and the user's layout: the weighted cost per design as bars and every cost in a
 * table.
 */
import { memo, useMemo } from 'react';
import { BarChart } from '../../ui/charts/BarChart';
import { ChartCard } from '../../ui/charts/ChartCard';
import { barChartCsv, tableCsv, type TableColumn } from '../../ui/charts/csv';
import type { BarChartProps } from '../../ui/charts/types';
import type { SweepResult } from '../../compute';
import type { DesignCosts, DesignRow } from '../../compute/sweeps/moose';
import { formatCount, formatFixed, formatPercent, formatSig } from '../../documents/format';
import { DataTable, type Column } from '../../ui/layout/DataTable';
import { Readouts } from '../../ui/layout/Readouts';
import { ChartPlaceholder } from '../../ui/layout/sweepStatus';
import { TableCard } from '../../ui/layout/TableCard';
import { SMOOSE_COLOR } from './common';

type SmooseData = SweepResult<'moose.smoose'>;

const VARIANTS: Record<string, string> = {
  'sum-sqrt': 'Σ√r DP (§3.6)',
  'workload-aware': 'workload-aware DP (§4.6)',
  'fixed-ratio': 'a fixed-ratio design',
};

interface LevelRow extends Record<string, string | number> {
  level: string;
  sizeRatio: number;
  runs: number;
  bitsPerEntry: number;
  fpr: number;
  entries: number;
}

const LEVEL_COLUMNS: (Column<LevelRow> & TableColumn<LevelRow>)[] = [
  { key: 'level', label: 'Level' },
  { key: 'sizeRatio', label: 'Size ratio r_i', format: (v) => formatSig(Number(v), 5) },
  { key: 'runs', label: 'Runs n_i' },
  { key: 'bitsPerEntry', label: 'Filter', unit: 'bits/entry', format: (v) => formatFixed(Number(v), 3) },
  { key: 'fpr', label: 'FPR p_i', format: (v) => formatPercent(Number(v), 3) },
  { key: 'entries', label: 'Holds', unit: 'entries', format: (v) => formatCount(Number(v)) },
];

export const SmooseCard = memo(function SmooseCard({
  data,
  computing,
  error,
  yoursWeighted,
  onApply,
}: {
  data: SmooseData | undefined;
  computing: boolean;
  error: string | null;
  yoursWeighted: number | undefined;
  onApply: () => void;
}) {
  const r = data?.result;
  const rows: LevelRow[] = r
    ? r.costs.levels.map((l, i) => ({
        level: `L${i + 1}`,
        sizeRatio: l.sizeRatio,
        runs: l.runs,
        bitsPerEntry: l.bitsPerEntry,
        fpr: l.fpr,
        entries: l.entries,
      }))
    : [];
  const how = r ? (r.baseline ? `${r.baseline.design === 'lazyLeveling' ? 'lazy leveling' : r.baseline.design} T = ${r.baseline.sizeRatio}` : VARIANTS[r.variant]) : '';
  return (
    <TableCard
      id="smoose"
      title="Smoose’s choice for this workload"
      caption={
        <>
          Smoose tries many last-level sizes and run counts and keeps the cheapest for the workload on the left, with the same filter memory.
          It also scores the fixed-ratio designs, so it never loses to them.
        </>
      }
      detail={
        <>
          Smoose searches the last level’s size N_L ∈ [N/2, N) and the run regulator k, with the inner levels from a DP, and keeps the least
          workload-weighted cost (Eq.17, here with the workload’s share of existing-key lookups and long ranges) under the same optimally
          split filter memory.
        </>
      }
      csv={() => tableCsv(LEVEL_COLUMNS, rows)}
    >
      <div className={`smoose-body${computing ? ' stale' : ''}`} aria-busy={computing}>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        {r ? (
          <>
            <Readouts
              label="Smoose's choice"
              items={[
                { label: 'Weighted cost, I/O per op', value: r.objective, text: formatSig(r.objective, 4), testId: 'smoose-weighted' },
                {
                  label: 'Your layout, I/O per op',
                  value: yoursWeighted,
                  text: yoursWeighted === undefined ? '—' : formatSig(yoursWeighted, 4),
                  testId: 'smoose-yours',
                  hint: yoursWeighted === undefined ? undefined : `${formatSig(yoursWeighted / r.objective, 3)}× Smoose’s cost`,
                },
                { label: 'Levels', value: r.levels.length, text: String(r.levels.length), testId: 'smoose-levels' },
                { label: 'N_L / N', value: r.lastLevelFraction, text: formatSig(r.lastLevelFraction, 4), testId: 'smoose-nl' },
                { label: 'k', value: r.k ?? undefined, text: r.k === null ? '—' : formatSig(r.k, 3), testId: 'smoose-k' },
              ]}
            />
            <DataTable columns={LEVEL_COLUMNS} rows={rows} rowKey={(row) => row.level} testId="smoose-table" />
            <div className="smoose-actions">
              <button type="button" className="primary" onClick={onApply} data-testid="apply-smoose">
                Use Smoose’s layout in the table
              </button>
              <span className="fine" data-testid="smoose-search">
                Found by <span data-testid="smoose-variant">{how}</span>; {formatCount(r.evaluated)} structures scored in {formatSig(data.searchMs, 3)} ms
                {r.exact ? '' : ' (DP node budget reached: near-optimal)'}.
              </span>
            </div>
          </>
        ) : (
          <ChartPlaceholder height={200}>searching…</ChartPlaceholder>
        )}
      </div>
    </TableCard>
  );
});

/** A design's costs as the comparison table shows them, beside its name and shape. */
interface CompareRow extends DesignCosts, Record<string, string | number> {
  design: string;
  shape: string;
}

const COMPARE_COLUMNS: (Column<CompareRow> & TableColumn<CompareRow>)[] = [
  { key: 'design', label: 'Design' },
  { key: 'shape', label: 'Ratios / runs' },
  { key: 'zeroResultPoint', label: 'Zero-result Z', unit: 'I/O', format: (v) => formatSig(Number(v), 3) },
  { key: 'nonZeroResultPoint', label: 'Existing key', unit: 'I/O', format: (v) => formatSig(Number(v), 4) },
  { key: 'range', label: 'Range R', unit: 'I/O', format: (v) => formatSig(Number(v), 4) },
  { key: 'update', label: 'Update U', unit: 'I/O', format: (v) => formatSig(Number(v), 4) },
  { key: 'spaceAmplification', label: 'Space amp.', unit: '×', format: (v) => formatSig(Number(v), 3) },
  { key: 'weighted', label: 'Weighted', unit: 'I/O per op', format: (v) => formatSig(Number(v), 4) },
];

const shape = (d: DesignRow) => `${d.sizeRatios.map((x) => formatSig(x, 3)).join(', ')} / ${d.runs.join(', ')}`;

/**
 * Your design against leveling, tiering, lazy leveling and Smoose's: the chart (`part="chart"`, the
 * page's first card: it answers the page's question) or the table of every cost (`part="table"`).
 */
export const CompareCards = memo(function CompareCards({ designs, stale, part }: { designs: readonly DesignRow[]; stale: boolean; part: 'chart' | 'table' }) {
  const chart = useMemo<Omit<BarChartProps, 'title'>>(
    () => ({
      x: { label: 'design' },
      y: { label: 'weighted cost', unit: 'I/O per operation', zero: true },
      categories: designs.map((d) => d.short),
      groups: [{ id: 'weighted', label: 'Weighted cost for the workload', values: designs.map((d) => d.weighted), color: SMOOSE_COLOR }],
      valueLabels: true,
    }),
    [designs],
  );
  const rows: CompareRow[] = designs.map((d) => ({
    design: d.label,
    shape: shape(d),
    zeroResultPoint: d.zeroResultPoint,
    nonZeroResultPoint: d.nonZeroResultPoint,
    range: d.range,
    update: d.update,
    spaceAmplification: d.spaceAmplification,
    weighted: d.weighted,
  }));
  const best = designs.length > 0 ? Math.min(...designs.map((d) => d.weighted)) : NaN;
  if (part === 'chart')
    return (
      <ChartCard
        id="compare"
        wide
        title="Weighted cost per design"
        detail="Moose Fig.8."
        caption="Your layout (the level table below) against the classic designs and Smoose’s choice: expected page I/Os per operation for the workload on the left; lower is better."
        footer={
          <p className="card-foot">
            Each design with its own optimally split filters (yours with the bits of the table); the fixed-ratio designs use T from “Presets”.
          </p>
        }
        csv={() => barChartCsv(chart)}
        status={stale ? 'computing…' : undefined}
      >
        <BarChart {...chart} height={300} title="Weighted cost per operation of each design" data-testid="compare-chart" />
      </ChartCard>
    );
  return (
      <TableCard
        id="compare-table"
        wide
        title="Every cost of every design"
        caption="Page I/Os per operation, and the worst-case space amplification. The cheapest weighted cost is highlighted."
        detail="Space amplification is the worst case n_L·N/N_L (Moose Eq.15)."
        csv={() => tableCsv(COMPARE_COLUMNS, rows)}
      >
        <DataTable columns={COMPARE_COLUMNS} rows={rows} rowKey={(row) => row.design} testId="compare-table" highlight={(row) => row.weighted === best} />
      </TableCard>
  );
});

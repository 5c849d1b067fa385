/**
 * The current layout level by level: how big each level and each of its runs is, how many filter
 * bits it gets and what that buys (FPR), and what each level adds to the three costs.
 */
import { LearnLink } from '../../ui/layout/LearnLink';
import { memo, useMemo } from 'react';
import type { MooseCosts } from '@lsm/models';
import { BarChart } from '../../ui/charts/BarChart';
import { ChartCard } from '../../ui/charts/ChartCard';
import { barChartCsv, tableCsv, type TableColumn } from '../../ui/charts/csv';
import { SERIES_COLORS } from '../../ui/charts/palette';
import type { BarChartProps } from '../../ui/charts/types';
import { formatCount, formatFixed, formatPercent, formatSig } from '../../documents/format';
import { DataTable, type Column } from '../../ui/layout/DataTable';
import { TableCard } from '../../ui/layout/TableCard';

interface LevelRow extends Record<string, string | number> {
  level: string;
  sizeRatio: number;
  runs: number;
  capacity: number;
  entries: number;
  runCapacity: number;
  runMagnification: number;
  bitsPerEntry: number;
  fpr: number;
  filterMiB: number;
  pointIo: number;
  updateIo: number;
}

const COLUMNS: (Column<LevelRow> & TableColumn<LevelRow>)[] = [
  { key: 'level', label: 'Level' },
  { key: 'sizeRatio', label: 'Ratio r_i', unit: 'effective', format: (v) => formatSig(Number(v), 5) },
  { key: 'runs', label: 'Runs n_i' },
  { key: 'capacity', label: 'Capacity N_i', unit: 'entries', format: (v) => formatCount(Number(v)) },
  { key: 'entries', label: 'Holds', unit: 'entries', format: (v) => formatCount(Number(v)) },
  { key: 'runCapacity', label: 'Run capacity', unit: 'entries', format: (v) => formatCount(Number(v)) },
  { key: 'runMagnification', label: 's_i = r_i/n_i', format: (v) => formatSig(Number(v), 3) },
  { key: 'bitsPerEntry', label: 'Filter b_i', unit: 'bits/entry', format: (v) => formatFixed(Number(v), 3) },
  { key: 'fpr', label: 'FPR p_i', format: (v) => formatPercent(Number(v), 3) },
  { key: 'filterMiB', label: 'Filter memory', unit: 'MiB', format: (v) => formatSig(Number(v), 3) },
  { key: 'pointIo', label: 'n_i·p_i', unit: 'I/O per lookup', format: (v) => formatSig(Number(v), 3) },
  { key: 'updateIo', label: 'r_i/(n_i·B)', unit: 'I/O per update', format: (v) => formatSig(Number(v), 3) },
];

function rowsOf(costs: MooseCosts): LevelRow[] {
  return costs.levels.map((l, i) => ({
    level: `L${i + 1}`,
    sizeRatio: l.sizeRatio,
    runs: l.runs,
    capacity: l.capacityEntries,
    entries: l.entries,
    runCapacity: l.runCapacityEntries,
    runMagnification: l.runMagnification,
    bitsPerEntry: l.bitsPerEntry,
    fpr: l.fpr,
    filterMiB: l.filterBits / 8 / 1048576,
    pointIo: l.runs * l.fpr,
    updateIo: l.sizeRatio / (l.runs * costs.entriesPerPage),
  }));
}

export const BreakdownCards = memo(function BreakdownCards({ costs, stale }: { costs: MooseCosts; stale: boolean }) {
  const rows = useMemo(() => rowsOf(costs), [costs]);
  const categories = rows.map((r) => r.level);
  const sizes = useMemo<Omit<BarChartProps, 'title'>>(
    () => ({
      x: { label: 'level' },
      y: { label: 'size', unit: 'entries', scale: 'log', format: formatCount },
      categories,
      groups: [
        { id: 'capacity', label: 'Capacity N_i', values: rows.map((r) => r.capacity), color: SERIES_COLORS[5] },
        { id: 'entries', label: 'Holds', values: rows.map((r) => r.entries), color: SERIES_COLORS[0] },
        { id: 'run', label: 'One run (N_i/n_i)', values: rows.map((r) => r.runCapacity), color: SERIES_COLORS[3] },
      ],
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- categories follow from rows
    [rows],
  );
  const filters = useMemo<Omit<BarChartProps, 'title'>>(
    () => ({
      x: { label: 'level' },
      y: { label: 'filter memory', unit: 'bits per entry', zero: true, format: (v: number) => formatSig(v, 3) },
      categories,
      groups: [{ id: 'bits', label: 'Bits per entry b_i (FPR p_i = e^(−b_i ln²2))', values: rows.map((r) => r.bitsPerEntry), color: SERIES_COLORS[4] }],
      valueLabels: true,
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- categories follow from rows
    [rows],
  );
  const status = stale ? 'showing the last valid table' : undefined;
  return (
    <>
      <ChartCard
        id="level-sizes"
        title="Level and run sizes of your layout"
        caption="Levels above the last are full; the last holds the rest."
        detail="Moose Eq.1: N_i = F·r_1⋯r_i for the levels above the last; a run fills after s_i = r_i/n_i merges."
        csv={() => barChartCsv(sizes)}
        status={status}
      >
        <BarChart {...sizes} height={300} title="Capacity, contents and run capacity per level" data-testid="sizes-chart" />
      </ChartCard>
      <ChartCard
        id="level-filters"
        title="Filter bits per level"
        caption={
          <>
            Optimal <LearnLink to="bloom">filters</LearnLink> give smaller runs more bits, as <LearnLink to="monkey">Monkey</LearnLink> does. One more bit
            cuts a level’s FPR 1.62×.
          </>
        }
        detail="Moose Eq.10: p_i ∝ N_i/n_i, Monkey generalised."
        csv={() => barChartCsv(filters)}
        status={status}
      >
        <BarChart {...filters} height={300} title="Filter bits per entry per level" data-testid="filters-chart" />
      </ChartCard>
      <TableCard
        id="levels"
        wide
        title="Per-level breakdown"
        caption="What each level adds to the cost of a lookup for a missing key, a range lookup and an update."
        detail="n_i·p_i to a zero-result lookup (Moose Eq.4), n_i seeks to a range lookup (Eq.3), r_i/(n_i·B) to an update (Eq.2)."
        csv={() => tableCsv(COLUMNS, rows)}
      >
        <DataTable columns={COLUMNS} rows={rows} rowKey={(r) => r.level} testId="breakdown-table" />
      </TableCard>
    </>
  );
});

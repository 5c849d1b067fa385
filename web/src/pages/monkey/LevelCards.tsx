/** Per-level FPRs and bits per entry of both allocations: two bar charts and one table. */
import { memo, useMemo } from 'react';
import { BarChart } from '../../ui/charts/BarChart';
import { ChartCard } from '../../ui/charts/ChartCard';
import { barChartCsv, tableCsv, type TableColumn } from '../../ui/charts/csv';
import type { AxisSpec, BarChartProps } from '../../ui/charts/types';
import type { LevelRow } from '../../compute/sweeps/monkey';
import { formatCount, formatFixed, formatSig } from '../../documents/format';
import { DataTable, type Column } from '../../ui/layout/DataTable';
import { TableCard } from '../../ui/layout/TableCard';
import { MONKEY_COLOR, UNIFORM_COLOR } from '../../ui/charts/designColors';

const FPR_AXIS: AxisSpec = { label: 'false-positive rate per run', unit: 'probability', scale: 'log' };
const BITS_AXIS: AxisSpec = { label: 'filter memory', unit: 'bits per entry', zero: true };

type Row = LevelRow & Record<string, number>;

const COLUMNS: (Column<Row> & TableColumn<Row>)[] = [
  { key: 'level', label: 'Level' },
  { key: 'entries', label: 'Entries', format: (v) => formatCount(v) },
  { key: 'runs', label: 'Runs', format: (v) => formatSig(v, 4) },
  { key: 'uniformBits', label: 'Uniform', unit: 'bits/entry', format: (v) => formatFixed(v, 2) },
  { key: 'uniformFpr', label: 'Uniform FPR', format: (v) => formatSig(v, 3) },
  { key: 'monkeyBits', label: 'Monkey exact', unit: 'bits/entry', format: (v) => formatFixed(v, 2) },
  { key: 'monkeyFpr', label: 'Monkey exact FPR', format: (v) => formatSig(v, 3) },
  { key: 'closedFormBits', label: 'Monkey Eq 5/6', unit: 'bits/entry', format: (v) => formatFixed(v, 2) },
  { key: 'closedFormFpr', label: 'Monkey Eq 5/6 FPR', format: (v) => formatSig(v, 3) },
];

/** Value labels only fit while the bars are wide enough. */
const LABEL_LIMIT = 6;

export const LevelCards = memo(function LevelCards({ rows, bits }: { rows: readonly LevelRow[]; bits: number }) {
  const { fprBars, bitBars } = useMemo(() => {
    const categories = rows.map((r) => `L${r.level}`);
    const fprBars: Omit<BarChartProps, 'title'> = {
      x: { label: 'level' },
      y: FPR_AXIS,
      categories,
      groups: [
        { id: 'uniform', label: 'Uniform', color: UNIFORM_COLOR, values: rows.map((r) => r.uniformFpr) },
        { id: 'monkey', label: 'Monkey (exact)', color: MONKEY_COLOR, values: rows.map((r) => r.monkeyFpr) },
      ],
    };
    const bitBars: Omit<BarChartProps, 'title'> = {
      x: { label: 'level' },
      y: BITS_AXIS,
      categories,
      groups: [
        { id: 'uniform', label: 'Uniform', color: UNIFORM_COLOR, values: rows.map((r) => r.uniformBits) },
        { id: 'monkey', label: 'Monkey (exact)', color: MONKEY_COLOR, values: rows.map((r) => r.monkeyBits) },
      ],
    };
    return { fprBars, bitBars };
  }, [rows]);
  const tableRows = rows as readonly Row[];
  const labels = rows.length <= LABEL_LIMIT;

  return (
    <>
      <ChartCard
        id="level-fpr"
        title="False-positive rate per level"
        caption={`Same ${formatFixed(bits, 2)} bits/entry in total. Monkey gives the small levels lower false-positive rates.`}
        detail="Monkey makes each level’s FPR proportional to its size: T times the level above."
        csv={() => barChartCsv(fprBars)}
      >
        <BarChart {...fprBars} title="False-positive rate of each level, uniform vs Monkey" data-testid="level-fpr-chart" valueLabels={labels} />
      </ChartCard>
      <ChartCard
        id="level-bits"
        title="Filter bits per entry per level"
        caption="The uniform baseline gives every level the same bits; Monkey moves bits from the largest level, which holds most entries, to the small ones."
        csv={() => barChartCsv(bitBars)}
      >
        <BarChart {...bitBars} title="Filter bits per entry of each level, uniform vs Monkey" data-testid="level-bits-chart" valueLabels={labels} />
      </ChartCard>
      <TableCard
        id="levels"
        wide
        title="Per-level allocation"
        caption="Level 1 is the smallest. FPRs are per run; a tiered level has T−1 runs."
        detail="“Monkey exact” is the optimum for this finite tree (reference §3.4); “Eq 5/6” is the paper’s large-L closed form at Eq 7’s cost."
        csv={() => tableCsv(COLUMNS, tableRows)}
      >
        <DataTable columns={COLUMNS} rows={tableRows} rowKey={(r) => String(r.level)} testId="levels-table" />
      </TableCard>
    </>
  );
});

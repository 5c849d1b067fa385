/** Headline numbers of the current setting, and the exact model next to the paper's closed forms. */
import { memo } from 'react';
import { tableCsv, type TableColumn } from '../../ui/charts/csv';
import type { CurrentView } from '../../compute/sweeps/monkey';
import { formatBytes, formatFixed, formatSig } from '../../documents/format';
import { DataTable, type Column } from '../../ui/layout/DataTable';
import { Readouts } from '../../ui/layout/Readouts';
import { TableCard } from '../../ui/layout/TableCard';

export const Headline = memo(function Headline({ view }: { view: CurrentView }) {
  const { exact } = view;
  const gain = exact.uniformR / exact.monkeyR;
  return (
    <Readouts
      label="The current design"
      items={[
        { label: 'Levels L', value: view.levels, text: String(view.levels), testId: 'levels' },
        { label: 'R uniform, I/O', value: exact.uniformR, text: formatSig(exact.uniformR, 4), testId: 'r-uniform' },
        { label: 'R Monkey, I/O', value: exact.monkeyR, text: formatSig(exact.monkeyR, 4), testId: 'r-monkey' },
        { label: 'Uniform ÷ Monkey', value: gain, text: `${formatFixed(gain, 2)}×`, testId: 'gain' },
        {
          label: 'Filter memory',
          value: view.filterBytes,
          text: formatBytes(view.filterBytes),
          testId: 'filter-bytes',
          hint: 'M_filt = bits per entry × N ÷ 8',
        },
        {
          label: (
            <>
              M<sub>threshold</sub>
            </>
          ),
          value: view.thresholdBitsPerEntry,
          text: `${formatSig(view.thresholdBitsPerEntry, 3)} b/e`,
          testId: 'threshold-bits',
          hint: `Eq 8: N·ln T/((T−1)·ln²2) = ${formatBytes(view.thresholdBytes)}. Below it Monkey leaves the largest levels unfiltered.`,
        },
        { label: 'Unfiltered levels', value: exact.unfilteredLevels, text: String(exact.unfilteredLevels), testId: 'unfiltered' },
      ]}
    />
  );
});

interface CompareRow extends Record<string, string | number> {
  quantity: string;
  exact: number;
  closedForm: number;
  equation: string;
  difference: number;
}

const COLUMNS: (Column<CompareRow> & TableColumn<CompareRow>)[] = [
  { key: 'quantity', label: 'Quantity' },
  { key: 'exact', label: 'Exact model', format: (v) => formatSig(Number(v), 5) },
  { key: 'closedForm', label: 'Paper’s closed form', format: (v) => formatSig(Number(v), 5) },
  { key: 'equation', label: 'Equation', numeric: false },
  { key: 'difference', label: 'Closed − exact', unit: '%', format: (v) => (Number(v) === 0 ? 'same' : `${formatSig(Number(v), 3)}%`) },
];

function row(quantity: string, exact: number, closedForm: number, equation: string): CompareRow {
  const difference = exact === closedForm ? 0 : ((closedForm - exact) / exact) * 100;
  return { quantity, exact, closedForm, equation, difference };
}

export const Comparison = memo(function Comparison({ view }: { view: CurrentView }) {
  const { exact, closedForm: cf } = view;
  const mix = `${formatSig(view.nonZeroFraction * 100, 3)}% finding their key`;
  const rows: CompareRow[] = [
    row('R, Monkey (zero-result lookup)', exact.monkeyR, cf.monkeyR, 'Eq 7 + Eq 8'),
    row('R, uniform', exact.uniformR, cf.uniformR, 'Eq 56'),
    row('Unfiltered levels, Monkey', exact.unfilteredLevels, cf.unfilteredLevels, 'Eq 8'),
    row(`Z, Monkey tuned for the mix (${mix})`, exact.generalZ, cf.generalZ, 'Eq 18–20'),
    row(`Z, uniform (${mix})`, exact.uniformZ, cf.uniformZ, 'Eq 13 + 56'),
  ];
  return (
    <TableCard
      id="closed-form"
      wide
      title="Exact model and the paper’s closed forms"
      caption={`The exact model optimises the ${view.levels} levels this tree really has; the paper’s formulas assume infinitely many levels, so they overstate Monkey’s cost in shallow trees.`}
      detail={
        <>
          The paper’s Eq 7 and 19/20 assume infinitely many levels (reference P7). M<sub>threshold</sub> = {formatSig(view.thresholdBitsPerEntry, 4)}{' '}
          bits/entry ({formatBytes(view.thresholdBytes)}) for this T.
        </>
      }
      csv={() => tableCsv(COLUMNS, rows)}
    >
      <DataTable columns={COLUMNS} rows={rows} rowKey={(r) => r.quantity} testId="closed-form-table" />
    </TableCard>
  );
});

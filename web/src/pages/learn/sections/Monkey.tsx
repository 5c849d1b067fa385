/** Section 7: why Monkey gives smaller levels more bits per key. */
import { useMemo } from 'react';
import { BarChart } from '../../../ui/charts/BarChart';
import { ChartCard } from '../../../ui/charts/ChartCard';
import { barChartCsv, lineChartCsv } from '../../../ui/charts/csv';
import { LineChart } from '../../../ui/charts/LineChart';
import { SERIES_COLORS } from '../../../ui/charts/palette';
import type { AxisSpec, LineSeries } from '../../../ui/charts/types';
import type { SweepResult, SweepState } from '../../../compute';
import type { Allocation, TreeShape } from '../../../compute/sweeps/learn';
import { formatCount, formatFixed, formatSig } from '../../../documents/format';
import { DataTable, type Column } from '../../../ui/layout/DataTable';
import { Readouts } from '../../../ui/layout/Readouts';
import { ChartPlaceholder } from '../../../ui/layout/sweepStatus';
import { Concept, Formula } from '../Concept';

const UNIFORM = '#5d6b7f';
const MONKEY = SERIES_COLORS[0];
const FPR_AXIS: AxisSpec = { label: 'false-positive rate per run', unit: 'probability', scale: 'log' };
const R_AXIS: AxisSpec = { label: 'lookup cost R', unit: 'I/O per lookup', scale: 'log' };
const BITS_AXIS: AxisSpec = { label: 'filter memory', unit: 'bits per key', domain: [0, 24] };

interface AllocRow extends Record<string, number> {
  level: number;
  entries: number;
  uniformBits: number;
  uniformFpr: number;
  monkeyBits: number;
  monkeyFpr: number;
}

const ALLOC_COLUMNS: Column<AllocRow>[] = [
  { key: 'level', label: 'Level' },
  { key: 'entries', label: 'Entries', format: (v) => formatCount(v) },
  { key: 'uniformBits', label: 'Uniform', unit: 'bits/key', format: (v) => formatFixed(v, 2) },
  { key: 'uniformFpr', label: 'Uniform FPR', format: (v) => formatSig(v, 3) },
  { key: 'monkeyBits', label: 'Monkey', unit: 'bits/key', format: (v) => formatFixed(v, 2) },
  { key: 'monkeyFpr', label: 'Monkey FPR', format: (v) => formatSig(v, 3) },
];

export function MonkeySection({
  bits,
  shape,
  uniform,
  monkey,
  sweep,
}: {
  bits: number;
  shape: TreeShape;
  uniform: Allocation;
  monkey: Allocation;
  sweep: SweepState<SweepResult<'learn.memory'>>;
}) {
  const levels = shape.levels;
  const bars = {
    x: { label: 'level' },
    y: FPR_AXIS,
    categories: levels.map((l) => `L${l.level}`),
    groups: [
      { id: 'uniform', label: 'same bits everywhere', color: UNIFORM, values: uniform.fpr },
      { id: 'monkey', label: 'Monkey', color: MONKEY, values: monkey.fpr },
    ],
  };
  const rows: AllocRow[] = levels.map((l, i) => ({
    level: l.level,
    entries: l.entries,
    uniformBits: uniform.bitsPerEntry[i],
    uniformFpr: uniform.fpr[i],
    monkeyBits: monkey.bitsPerEntry[i],
    monkeyFpr: monkey.fpr[i],
  }));

  const data = sweep.data;
  const curve = useMemo<LineSeries[]>(() => {
    if (!data) return [];
    return [
      { id: 'uniform', label: 'same bits everywhere', color: UNIFORM, points: data.bits.map((b, i) => ({ x: b, y: data.uniform[i] })) },
      { id: 'monkey', label: 'Monkey', color: MONKEY, points: data.bits.map((b, i) => ({ x: b, y: data.monkey[i] })) },
    ];
  }, [data]);
  const memoryChart = { x: BITS_AXIS, y: R_AXIS, series: curve };
  const gain = uniform.lookupCost / monkey.lookupCost;

  return (
    <Concept
      id="monkey"
      n={7}
      title="Why Monkey gives smaller levels more bits"
      figure={
        <>
          <ChartCard
            id="monkey-fpr"
            title="Per-level false-positive rate, same total memory"
            caption={`${formatFixed(bits, 1)} bits per key on average in both allocations.`}
            csv={() => barChartCsv(bars)}
            footer={<DataTable columns={ALLOC_COLUMNS} rows={rows} rowKey={(r) => String(r.level)} testId="monkey-table" />}
          >
            <BarChart {...bars} title="False-positive rate of each level, uniform vs Monkey" data-testid="monkey-bars" valueLabels={levels.length <= 6} />
          </ChartCard>
          <ChartCard
            id="monkey-memory"
            title="Lookup cost vs filter memory"
            caption="The sum of all runs’ false-positive rates: expected wasted I/Os per lookup for a missing key."
            csv={() => lineChartCsv(memoryChart)}
            status={sweep.computing ? 'computing…' : sweep.error ? <span className="error">{sweep.error}</span> : undefined}
          >
            {data ? (
              <LineChart
                {...memoryChart}
                title="Zero-result lookup cost against filter memory, uniform vs Monkey"
                data-testid="monkey-memory-chart"
                rules={[{ x: bits }]}
                annotations={[
                  { x: bits, y: uniform.lookupCost, label: `uniform ${formatSig(uniform.lookupCost, 3)}`, color: UNIFORM },
                  { x: bits, y: monkey.lookupCost, label: `Monkey ${formatSig(monkey.lookupCost, 3)}`, color: MONKEY },
                ]}
              />
            ) : (
              <ChartPlaceholder height={300} />
            )}
          </ChartCard>
        </>
      }
    >
      <p>
        A lookup for a key that does not exist pays one I/O for every false positive on its way down, so its expected
        cost is the sum of the false-positive rates of all runs:
      </p>
      <Formula>R = Σ runs<sub>i</sub> · p<sub>i</sub></Formula>
      <p>
        Most systems give every filter the same bits per key, so every level adds the same p and R grows with the
        number of levels. But memory is not spent evenly: the largest level holds most of the entries, so it holds most
        of the filter bits too. A bit per key there costs T times more memory than a bit per key one level up.
      </p>
      <p>
        <strong>Monkey</strong> (Dayan, Athanassoulis and Idreos, SIGMOD 2017) minimises R for the same total memory.
        The optimum makes each level’s FPR proportional to its size: every level has T times the FPR of the level above
        it. Taking a little from the big level barely raises its FPR, and the same memory cuts the small levels’ FPRs a
        lot. R then no longer grows with L.
      </p>
      <Readouts
        label="Zero-result lookup cost at the chosen memory"
        items={[
          { label: 'R uniform, I/O', value: uniform.lookupCost, text: formatSig(uniform.lookupCost, 3), testId: 'r-uniform' },
          { label: 'R Monkey, I/O', value: monkey.lookupCost, text: formatSig(monkey.lookupCost, 3), testId: 'r-monkey' },
          { label: 'Uniform / Monkey', value: gain, text: `${formatFixed(gain, 2)}×`, testId: 'monkey-gain' },
        ]}
      />
    </Concept>
  );
}

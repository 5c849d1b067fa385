/** Monkey Fig 7: zero-result lookup cost against filter memory, Monkey vs the uniform baseline. */
import { LearnLink } from '../../ui/layout/LearnLink';
import { memo, useMemo } from 'react';
import { ChartCard } from '../../ui/charts/ChartCard';
import { lineChartCsv } from '../../ui/charts/csv';
import { LineChart } from '../../ui/charts/LineChart';
import type { Annotation, AxisSpec, LineSeries, Rule } from '../../ui/charts/types';
import type { SweepResult } from '../../compute';
import { formatBytes, formatFixed, formatSig } from '../../documents/format';
import { ChartPlaceholder, sweepStatus } from '../../ui/layout/sweepStatus';
import { MONKEY_COLOR, UNIFORM_COLOR } from '../../ui/charts/designColors';
import { type ZeroResultLabels, zeroResultSeries } from './zeroResultSeries';

const MEMORY_LABELS: ZeroResultLabels = {
  uniform: 'State of the art (uniform) = Eq 56',
  monkey: 'Monkey (exact model)',
  monkeyEq7: 'Monkey closed form (Eq 7)',
  uniformEq56: 'Uniform closed form (Eq 56)',
};
const BITS_AXIS: AxisSpec = { label: 'filter memory', unit: 'bits per entry', zero: true };
const R_AXIS: AxisSpec = { label: 'zero-result lookup cost R', unit: 'I/O per lookup', zero: true };

export interface MemoryCardProps {
  data: SweepResult<'monkey.memory'> | undefined;
  computing: boolean;
  error: string | null;
  bits: number;
  entries: number;
  thresholdBits: number;
  monkeyR: number;
  uniformR: number;
  policyLabel: string;
  sizeRatio: number;
  levels: number;
}

export const MemoryCard = memo(function MemoryCard(p: MemoryCardProps) {
  const { data } = p;
  const series = useMemo<LineSeries[]>(() => {
    if (!data) return [];
    return zeroResultSeries(data.bits, data, MEMORY_LABELS);
  }, [data]);
  const x = useMemo<AxisSpec>(() => ({ ...BITS_AXIS, domain: data ? [0, data.bits[data.bits.length - 1]] : undefined }), [data]);
  const chart = { x, y: R_AXIS, series };

  const rules = useMemo<Rule[]>(
    () => [
      { x: p.bits, label: `${formatFixed(p.bits, 2)} b/e = ${formatBytes((p.bits * p.entries) / 8)}` },
      { x: p.thresholdBits, label: 'M_threshold' },
    ],
    [p.bits, p.entries, p.thresholdBits],
  );
  const annotations = useMemo<Annotation[]>(
    () => [
      { x: p.bits, y: p.uniformR, label: `uniform ${formatSig(p.uniformR, 3)}`, color: UNIFORM_COLOR },
      { x: p.bits, y: p.monkeyR, label: `Monkey ${formatSig(p.monkeyR, 3)}`, color: MONKEY_COLOR },
    ],
    [p.bits, p.uniformR, p.monkeyR],
  );

  return (
    <ChartCard
      id="fig7"
      wide
      title="Lookup cost against filter memory"
      caption={
        <>
          I/Os wasted by a lookup for a missing key ({p.policyLabel}, T = {formatSig(p.sizeRatio, 4)}, L = {p.levels}). With no memory
          both read every run; Monkey falls faster because it spends <LearnLink to="bloom">filter</LearnLink> bits where entries are
          few. Dashed: the paper’s formula where it differs.
        </>
      }
      detail={
        <>
          Monkey Fig 7. Both start at {p.policyLabel === 'tiering' ? 'L·(T−1)' : 'L'} runs with no memory. Below M<sub>threshold</sub>{' '}
          Monkey drops the filters of the largest levels. Dashed: the paper’s closed form where it differs from the exact model of the
          finite tree. M<sub>threshold</sub> = {formatSig(p.thresholdBits, 3)} bits/entry ({formatBytes((p.thresholdBits * p.entries) / 8)}).
        </>
      }
      csv={() => lineChartCsv(chart)}
      status={sweepStatus(p.computing, p.error)}
    >
      {data ? (
        <LineChart
          {...chart}
          height={320}
          title="Zero-result lookup cost against filter bits per entry, Monkey vs uniform"
          data-testid="fig7-chart"
          rules={rules}
          annotations={annotations}
        />
      ) : (
        <ChartPlaceholder height={320} />
      )}
    </ChartCard>
  );
});

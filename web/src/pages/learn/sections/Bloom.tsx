/** Section 4: Bloom filters, with the FPR-vs-memory curve from models/src/bloom.ts. */
import { fprFromBitsPerKey, fprWithHashes, optimalHashCount } from '@lsm/models';
import { useMemo } from 'react';
import { ChartCard } from '../../../ui/charts/ChartCard';
import { lineChartCsv } from '../../../ui/charts/csv';
import { LineChart } from '../../../ui/charts/LineChart';
import type { AxisSpec, LineSeries } from '../../../ui/charts/types';
import { formatFixed, formatInt, formatPercent } from '../../../documents/format';
import { Readouts } from '../../../ui/layout/Readouts';
import { Concept, Formula } from '../Concept';

const X: AxisSpec = { label: 'memory', unit: 'bits per key', domain: [0, 24] };
const Y: AxisSpec = { label: 'false-positive rate', unit: 'probability', scale: 'log' };

export function BloomSection({ bits }: { bits: number }) {
  const series = useMemo<LineSeries[]>(() => {
    const grid = Array.from({ length: 97 }, (_, i) => i * 0.25);
    return [
      { id: 'ideal', label: 'optimal k = b·ln 2', points: grid.map((b) => ({ x: b, y: fprFromBitsPerKey(b) })) },
      {
        id: 'integer',
        label: 'whole-number k = round(b·ln 2)',
        dash: '6 4',
        points: grid.map((b) => ({ x: b, y: fprWithHashes(b, optimalHashCount(b)) })),
      },
    ];
  }, []);
  const fpr = fprFromBitsPerKey(bits);
  const k = optimalHashCount(bits);
  const fprK = fprWithHashes(bits, k);
  const chart = { x: X, y: Y, series };

  return (
    <Concept
      id="bloom"
      n={4}
      title="Bloom filters"
      figure={
        <ChartCard
          id="bloom-fpr"
          title="False-positive rate vs memory"
          caption="Each extra 1.44 bits per key halves the false-positive rate; 4.8 bits divide it by ten."
          csv={() => lineChartCsv(chart)}
        >
          <LineChart
            {...chart}
            title="Bloom filter false-positive rate against bits per key"
            data-testid="bloom-chart"
            rules={[{ x: bits }]}
            annotations={[{ x: bits, y: fpr, label: `${formatFixed(bits, 1)} bits/key → ${formatPercent(fpr)}` }]}
          />
        </ChartCard>
      }
    >
      <p>
        Fence pointers find the right page, but a run that does not hold the key still costs that one I/O. So each run
        also has a <strong>Bloom filter</strong> in memory: a bit array where each key sets <var>k</var> bits chosen by{' '}
        <var>k</var> hash functions. A lookup checks those bits first. If any is 0, the key is certainly not in the run
        and the I/O is skipped; if all are 1, the key is probably there.
      </p>
      <p>
        Filters never miss a key that is present (no false negatives). They can say “maybe” for an absent key, a{' '}
        <strong>false positive</strong>, which wastes one I/O. With <var>b</var> bits per key and the best number of
        hash functions, <var>k</var> = <var>b</var>·ln 2, the false-positive rate is
      </p>
      <Formula>
        FPR = e<sup>−b·(ln 2)²</sup>
      </Formula>
      <p>Real filters use a whole number of hash functions, which costs slightly more (dashed curve).</p>
      <Readouts
        label="Bloom filter at the chosen memory"
        items={[
          { label: `FPR at ${formatFixed(bits, 1)} bits/key`, value: fpr, text: formatPercent(fpr), testId: 'bloom-fpr' },
          { label: `With k = ${formatInt(k)} hash functions`, value: fprK, text: formatPercent(fprK), testId: 'bloom-fpr-k' },
        ]}
      />
    </Concept>
  );
}

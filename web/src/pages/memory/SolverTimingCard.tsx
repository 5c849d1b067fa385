/** Mnemosyne Fig 4, measured live: sort-and-search against gradient descent in the model worker. */
import { useMemo } from 'react';
import { ChartCard } from '../../ui/charts/ChartCard';
import { lineChartCsv } from '../../ui/charts/csv';
import { LineChart } from '../../ui/charts/LineChart';
import type { LineSeries } from '../../ui/charts/types';
import type { SweepResult, SweepState } from '../../compute';
import { formatInt, formatPercent, formatSig } from '../../documents/format';
import { Readouts } from '../../ui/layout/Readouts';
import { ChartPlaceholder } from '../../ui/layout/sweepStatus';

/** A duration given in ms, written in the unit that keeps it readable. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  if (ms < 1) return `${formatSig(ms * 1000, 3)} µs`;
  if (ms < 1000) return `${formatSig(ms, 3)} ms`;
  return `${formatSig(ms / 1000, 3)} s`;
}

const SOLVERS = [
  { id: 'gd', label: 'gradient descent (Monkey+ style)', color: '#5d6b7f', pick: (r: Row) => r.gradientDescentMs },
  { id: 'ss', label: 'sort-and-search (linear scan)', color: '#d1495b', pick: (r: Row) => r.sortAndSearchMs },
  { id: 'bs', label: 'sort-and-search (binary search)', color: '#e09f3e', pick: (r: Row) => r.binarySearchMs },
] as const;

type Timing = SweepResult<'memory.solverTiming'>;
type Row = Timing['ladder'][number];

export function SolverTimingCard({ timing }: { timing: SweepState<Timing> }) {
  const t = timing.data;
  const chart = useMemo(() => {
    const series: LineSeries[] = t ? SOLVERS.map((s) => ({ id: s.id, label: s.label, color: s.color, points: t.ladder.map((r) => ({ x: r.files, y: s.pick(r) })) })) : [];
    return {
      x: { label: 'files', unit: 'count', scale: 'log' as const },
      y: { label: 'solver time', unit: 'ms', scale: 'log' as const },
      series,
    };
  }, [t]);
  const gap = t && t.costExact > 0 ? t.costGradient / t.costExact - 1 : 0;
  return (
    <ChartCard
      id="mnemosyne-solver"
      wide
      title="Solver speed, measured in this browser"
      caption={
        <>
          How long one solve takes, measured just now in this browser on the whole tree and on 10, 30, 100 and 300 of its
          files (repeated when it has fewer). Sort-and-search is exact and much faster than gradient descent.
        </>
      }
      detail={
        <>
          Mnemosyne Fig 4, where the paper reports 2–4 orders of magnitude; timed in the model worker. Gradient descent moves Δ
          bits between every pair of files and halves Δ: O(F²·log M). Sort-and-search sorts once and scans: O(F log F), and exact.
        </>
      }
      csv={() => lineChartCsv(chart)}
      status={timing.computing ? 'measuring…' : timing.error ? <span className="error">{timing.error}</span> : undefined}
      footer={
        t && (
          <>
            <Readouts
              label="Measured solver times for the whole tree"
              items={[
                { label: 'Files', value: t.current.files, text: formatInt(t.current.files), testId: 'timing-files' },
                { label: 'Sort-and-search', value: t.current.sortAndSearchMs, text: formatDuration(t.current.sortAndSearchMs), testId: 'timing-ss', hint: 'mean ms per solve' },
                { label: 'Gradient descent', value: t.current.gradientDescentMs, text: formatDuration(t.current.gradientDescentMs), testId: 'timing-gd', hint: 'mean ms per solve' },
                { label: 'Measured speed-up', value: t.speedup, text: `${formatSig(t.speedup, 3)}×`, testId: 'timing-speedup' },
              ]}
            />
            <p className="fine" data-testid="timing-accuracy" data-value={gap}>
              Gradient descent stops at 1-bit steps: its plan causes {formatPercent(gap, 2)} more unnecessary reads than the
              exact optimum ({formatSig(t.costGradient, 4)} vs {formatSig(t.costExact, 4)} per lookup). Timings vary from run
              to run and machine to machine.
            </p>
          </>
        )
      }
    >
      {t ? (
        <LineChart {...chart} title="Solver time against number of files, measured" data-testid="timing-chart" height={260} />
      ) : (
        <ChartPlaceholder height={260}>measuring…</ChartPlaceholder>
      )}
    </ChartCard>
  );
}

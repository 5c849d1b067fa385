/**
 * The what-if cards: lookup cost against data size (Monkey Fig 12(A)), against buffer size at a
 * fixed total memory (Fig 9, the "sweet spot"), and against the share of lookups that find their
 * key (Sec 4.4, Fig 13(A)).
 */
import { LearnLink } from '../../ui/layout/LearnLink';
import { memo, useMemo } from 'react';
import { ChartCard } from '../../ui/charts/ChartCard';
import { lineChartCsv } from '../../ui/charts/csv';
import { LineChart } from '../../ui/charts/LineChart';
import type { Annotation, AxisSpec, LineSeries } from '../../ui/charts/types';
import type { SweepResult } from '../../compute';
import { formatBytes, formatCount, formatSig } from '../../documents/format';
import { ChartPlaceholder, sweepStatus } from '../../ui/layout/sweepStatus';
import { ACCENT_COLOR, CLOSED_DASH, MONKEY_COLOR, UNIFORM_COLOR } from '../../ui/charts/designColors';
import { type ZeroResultLabels, zeroResultSeries } from './zeroResultSeries';

const R_AXIS: AxisSpec = { label: 'zero-result lookup cost R', unit: 'I/O per lookup', zero: true };
const R_LOG_AXIS: AxisSpec = { label: 'zero-result lookup cost R', unit: 'I/O per lookup', scale: 'log' };

interface SweepProps<N extends 'monkey.dataSize' | 'monkey.buffer' | 'monkey.mix'> {
  data: SweepResult<N> | undefined;
  computing: boolean;
  error: string | null;
}

const SWEEP_LABELS: ZeroResultLabels = {
  uniform: 'Uniform (exact = Eq 56)',
  monkey: 'Monkey (exact)',
  monkeyEq7: 'Monkey (Eq 7)',
  uniformEq56: 'Uniform (Eq 56)',
};

// ------------------------------------------------------------------ Fig 12(A)

const ENTRIES_AXIS: AxisSpec = { label: 'data size N', unit: 'entries', scale: 'log', format: formatCount };

export const DataSizeCard = memo(function DataSizeCard(p: SweepProps<'monkey.dataSize'> & { entries: number }) {
  const { data } = p;
  const series = useMemo(() => (data ? zeroResultSeries(data.entries, data, SWEEP_LABELS) : []), [data]);
  const chart = { x: ENTRIES_AXIS, y: R_AXIS, series };
  const rules = useMemo(() => [{ x: p.entries, label: `N = ${formatCount(p.entries)}` }], [p.entries]);
  return (
    <ChartCard
      id="data-size"
      title="Lookup cost as the data grows"
      caption={
        <>
          The current design and filter bits per entry at every size. With the same bits everywhere the cost climbs with every new{' '}
          <LearnLink to="levels">level</LearnLink>; Monkey’s levels off. They meet where the tree has one level.
        </>
      }
      detail={
        <>
          Monkey Fig 12(A). The uniform baseline pays one FPR per level, so R climbs with L ∝ log N; Monkey’s R levels off (Eq 7 does
          not depend on N).
        </>
      }
      csv={() => lineChartCsv(chart)}
      status={sweepStatus(p.computing, p.error)}
    >
      {data ? <LineChart {...chart} title="Zero-result lookup cost against number of entries" data-testid="data-size-chart" rules={rules} /> : <ChartPlaceholder height={300} />}
    </ChartCard>
  );
});

// ------------------------------------------------------------------ Fig 9

const BUFFER_AXIS: AxisSpec = { label: 'write buffer M_buf', unit: 'bytes', scale: 'log', format: formatBytes };

/** Binary ticks (1 KiB, 16 KiB, 256 KiB, …) read better than powers of ten for memory sizes. */
function bufferAxis(buffer: readonly number[] | undefined): AxisSpec {
  if (!buffer || buffer.length === 0) return BUFFER_AXIS;
  const lo = buffer[0];
  const hi = buffer[buffer.length - 1];
  const ticks: number[] = [];
  for (let k = 0; k <= 60; k += 4) if (2 ** k >= lo && 2 ** k <= hi) ticks.push(2 ** k);
  return { ...BUFFER_AXIS, domain: [lo, hi], ticks };
}
const W_AXIS: AxisSpec = { label: 'update cost W', unit: 'I/O per update', zero: true };

export const BufferLookupCard = memo(function BufferLookupCard(p: SweepProps<'monkey.buffer'> & { bufferBytes: number }) {
  const { data } = p;
  const series = useMemo(() => (data ? zeroResultSeries(data.buffer, data, SWEEP_LABELS) : []), [data]);
  const annotations = useMemo<Annotation[]>(() => {
    if (!data) return [];
    const u = data.uniformBest;
    const m = data.monkeyBest;
    return [
      { x: data.buffer[u], y: data.uniform[u], label: `uniform sweet spot ${formatBytes(data.buffer[u])}`, color: UNIFORM_COLOR },
      { x: data.buffer[m], y: data.monkey[m], label: `Monkey best ${formatBytes(data.buffer[m])}`, color: MONKEY_COLOR },
    ];
  }, [data]);
  const rules = useMemo(() => [{ x: p.bufferBytes, label: 'current buffer' }], [p.bufferBytes]);
  const x = useMemo(() => bufferAxis(data?.buffer), [data]);
  const chart = { x, y: R_LOG_AXIS, series };
  return (
    <ChartCard
      id="buffer-lookup"
      title="Lookup cost against buffer size, memory fixed"
      detail="Monkey Fig 9, top."
      caption={
        <>
          Buffer + filters fixed at {data ? formatBytes(data.totalBytes) : '…'}; every byte the buffer takes comes out of the
          filters. A bigger buffer means fewer levels: the uniform baseline first gains, then loses as its filters starve —
          its minimum is the sweet spot. Monkey is flat until the filters run short.
        </>
      }
      csv={() => lineChartCsv(chart)}
      status={sweepStatus(p.computing, p.error)}
    >
      {data ? (
        <LineChart {...chart} title="Zero-result lookup cost against buffer size at fixed total memory" data-testid="buffer-chart" rules={rules} annotations={annotations} />
      ) : (
        <ChartPlaceholder height={300} />
      )}
    </ChartCard>
  );
});

export const BufferUpdateCard = memo(function BufferUpdateCard(p: SweepProps<'monkey.buffer'> & { bufferBytes: number }) {
  const { data } = p;
  const series = useMemo<LineSeries[]>(
    () => (data ? [{ id: 'update', label: 'update cost W (Eq 10 with φ = 1)', color: ACCENT_COLOR, points: data.buffer.map((x, i) => ({ x, y: data.update[i] })) }] : []),
    [data],
  );
  const rules = useMemo(() => [{ x: p.bufferBytes, label: 'current buffer' }], [p.bufferBytes]);
  const x = useMemo(() => bufferAxis(data?.buffer), [data]);
  const chart = { x, y: W_AXIS, series };
  return (
    <ChartCard
      id="buffer-update"
      title="Update cost against buffer size"
      caption="The same sweep: the update cost falls in steps as a larger buffer removes levels. Filters do not change it."
      detail="Monkey Fig 9, bottom. Each merge level costs (T−1)/2 (leveling) or (T−1)/T (tiering) page I/Os per B entries, so W falls in steps as a larger buffer removes levels."
      csv={() => lineChartCsv(chart)}
      status={sweepStatus(p.computing, p.error)}
    >
      {data ? <LineChart {...chart} title="Update cost against buffer size at fixed total memory" data-testid="buffer-update-chart" rules={rules} /> : <ChartPlaceholder height={300} />}
    </ChartCard>
  );
});

// ------------------------------------------------------------------ Sec 4.4 / Fig 13(A)

const SHARE_AXIS: AxisSpec = { label: 'lookups that find their key', unit: '%', domain: [0, 100] };
const Z_AXIS: AxisSpec = { label: 'point-lookup cost Z', unit: 'I/O per lookup', zero: true };

export const MixCard = memo(function MixCard(p: SweepProps<'monkey.mix'> & { percent: number }) {
  const { data } = p;
  const series = useMemo<LineSeries[]>(() => {
    if (!data) return [];
    const pts = (ys: readonly number[]) => data.share.map((f, i) => ({ x: f * 100, y: ys[i] }));
    const out: LineSeries[] = [
      { id: 'uniform', label: 'Uniform (exact = Eq 13+56)', color: UNIFORM_COLOR, points: pts(data.uniform) },
      { id: 'zero', label: 'Monkey tuned for zero-result', color: ACCENT_COLOR, points: pts(data.zero) },
      { id: 'general', label: 'Monkey tuned for the mix', color: MONKEY_COLOR, points: pts(data.general) },
    ];
    if (data.zeroDiffers) out.push({ id: 'zero-eq', label: 'zero-tuned (Eq 13 + 5/6)', color: ACCENT_COLOR, dash: CLOSED_DASH, points: pts(data.zeroEq) });
    if (data.generalDiffers) out.push({ id: 'general-eq', label: 'mix-tuned (Eq 19/20)', color: MONKEY_COLOR, dash: CLOSED_DASH, points: pts(data.generalEq) });
    if (data.uniformDiffers) out.push({ id: 'uniform-eq', label: 'uniform (Eq 13 + 56)', color: UNIFORM_COLOR, dash: CLOSED_DASH, points: pts(data.uniformEq) });
    return out;
  }, [data]);
  const rules = useMemo(() => [{ x: p.percent, label: `${formatSig(p.percent, 3)}%` }], [p.percent]);
  const chart = { x: SHARE_AXIS, y: Z_AXIS, series };
  return (
    <ChartCard
      id="mix"
      title="Zero- and non-zero-result lookups"
      caption="A lookup that finds its key always pays one I/O at the level holding it, so Monkey tuned for the mix gives the largest level fewer bits."
      detail={
        <>
          Monkey Sec 4.4, Fig 13(A). A lookup that finds its key never pays a false positive at the level holding it; Monkey tuned for
          the mix uses v = f/(1−f). Z = (1−f)·R + f·V, Eq 13.
        </>
      }
      csv={() => lineChartCsv(chart)}
      status={sweepStatus(p.computing, p.error)}
    >
      {data ? <LineChart {...chart} title="Point-lookup cost against share of lookups that find their key" data-testid="mix-chart" rules={rules} /> : <ChartPlaceholder height={300} />}
    </ChartCard>
  );
});

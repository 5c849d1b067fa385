/**
 * Moose's two trade-off curves: the range/update RU-curve of the current capacities over k
 * (Fig.10A, Eq.7), next to the best one for the same last level (the Σ√r DP), and default
 * Moose's costs as the last level's share grows (Fig.10B).
 */
import { Detail } from '../../ui/layout/Detail';
import { memo, useMemo } from 'react';
import { ChartCard } from '../../ui/charts/ChartCard';
import { lineChartCsv, scatterChartCsv } from '../../ui/charts/csv';
import { LineChart } from '../../ui/charts/LineChart';
import { SERIES_COLORS } from '../../ui/charts/palette';
import { ScatterChart } from '../../ui/charts/ScatterChart';
import type { LineChartProps, Rule, ScatterChartProps, ScatterSeries } from '../../ui/charts/types';
import type { SweepResult } from '../../compute';
import { formatSig } from '../../documents/format';
import { ChartPlaceholder, sweepStatus } from '../../ui/layout/sweepStatus';
import { YOURS_COLOR } from './common';

type LastLevelPoint = SweepResult<'moose.lastLevel'>['points'][number];

const list = (v: readonly number[]) => v.map((x) => formatSig(x, 3)).join(', ');

export const RuCard = memo(function RuCard({
  data,
  computing,
  error,
  yours,
}: {
  data: SweepResult<'moose.ru'> | undefined;
  computing: boolean;
  error: string | null;
  /** The user's layout: (update Eq.2, Σ n_i). */
  yours: { update: number; range: number; label: string } | undefined;
}) {
  const chart = useMemo<Omit<ScatterChartProps, 'title'> | null>(() => {
    if (!data) return null;
    const curve = (id: string, label: string, color: string, pts: readonly { k: number; range: number; update: number }[], dash?: string): ScatterSeries => ({
      id,
      label,
      color,
      line: true,
      dash,
      radius: 0.8,
      points: pts.map((p) => ({ x: p.update, y: p.range, label: `${label}: k = ${formatSig(p.k, 3)}` })),
    });
    const integer = (id: string, label: string, color: string, pts: readonly { k: number; runs: number[]; shortRange: number; updatePaper: number }[]): ScatterSeries => ({
      id,
      label,
      color,
      radius: 3.6,
      points: pts.map((p) => ({ x: p.updatePaper, y: p.shortRange, label: `k ≥ ${formatSig(p.k, 3)}: n = ${p.runs.join(', ')}` })),
    });
    const series: ScatterSeries[] = [
      curve('current-bound', 'Your capacities, R·U = A²/B (Eq.7)', SERIES_COLORS[0], data.current.continuous),
      integer('current-runs', 'Your capacities, n_i = round(k√r_i)', SERIES_COLORS[0], data.current.points),
    ];
    if (data.dp) {
      series.push(
        curve('dp-bound', 'Σ√r DP capacities, same N_L (Eq.7)', SERIES_COLORS[3], data.dp.continuous, '6 4'),
        integer('dp-runs', 'Σ√r DP capacities, n_i = round(k√r_i)', SERIES_COLORS[3], data.dp.points),
      );
    }
    return {
      x: { label: 'update cost U (Eq.2)', unit: 'I/O per update', scale: 'log' },
      y: { label: 'range seeks R = Σ n_i (Eq.3)', unit: 'I/O per range lookup', scale: 'log' },
      series,
      highlight: yours && { x: yours.update, y: yours.range, label: yours.label, color: YOURS_COLOR },
    };
  }, [data, yours]);

  const c = data?.current;
  return (
    <ChartCard
      id="ru-curve"
      title="Range against update cost over k: the RU-curve"
      caption="For fixed level sizes, the run regulator k trades range cost for update cost at the best possible product: small k is leveling-like, large k tiering-like."
      detail="Moose Fig.10A. n_i = k√r_i keeps R·U on its floor A²/B (Cauchy–Schwarz, Eq.7)."
      footer={
        c && (
          <>
            <p className="card-foot">Dots: your layout, just above the curve because run counts are whole; teal: what Moose’s search picks for your last level.</p>
            <Detail summary="The numbers behind the curve">
              <p data-testid="ru-note">
                Your ratios {list(c.sizeRatios)}: A = Σ√r_i = {formatSig(c.sumSqrtRatios, 4)}, so R·U ≥ {formatSig(c.productBound, 4)}; whole run counts keep
                the dots just above the curve.
                {data?.dp && (
                  <>
                    {' '}
                    Teal: the capacities the Σ√r DP picks for your last level’s share N_L/N = {formatSig(data.lastLevelFraction, 3)} (ratios{' '}
                    {list(data.dp.sizeRatios)}, A = {formatSig(data.dp.sumSqrtRatios, 4)}).
                  </>
                )}
                {data?.equalRatio && <> Equal ratios over the same span: R·U ≥ {formatSig(data.equalRatio.product, 4)} (Eq.8).</>}
              </p>
            </Detail>
          </>
        )
      }
      csv={() => (chart ? scatterChartCsv(chart) : '')}
      status={sweepStatus(computing, error)}
    >
      {chart ? <ScatterChart {...chart} height={360} title="Range seeks against update cost as k varies" data-testid="ru-chart" /> : <ChartPlaceholder height={360} />}
    </ChartCard>
  );
});

export const LastLevelCard = memo(function LastLevelCard({
  data,
  computing,
  error,
  yoursFraction,
  smooseFraction,
}: {
  data: SweepResult<'moose.lastLevel'> | undefined;
  computing: boolean;
  error: string | null;
  yoursFraction: number | undefined;
  smooseFraction: number | undefined;
}) {
  const chart = useMemo<Omit<LineChartProps, 'title'> | null>(() => {
    if (!data) return null;
    const line = (id: string, label: string, pick: (p: LastLevelPoint) => number, color: string, dash?: string) => ({
      id,
      label,
      color,
      dash,
      points: data.points.map((p) => ({ x: p.fraction, y: pick(p) })),
    });
    const rules: Rule[] = [];
    if (yoursFraction !== undefined) rules.push({ x: yoursFraction, label: 'your layout' });
    if (smooseFraction !== undefined) rules.push({ x: smooseFraction, label: 'Smoose' });
    return {
      x: { label: 'last level’s share N_L/N', unit: 'fraction of entries', format: (v: number) => formatSig(v, 3) },
      y: { label: 'cost', unit: 'I/O per operation', scale: 'log' },
      series: [
        line('weighted', 'Weighted cost for the workload', (p) => p.weighted, YOURS_COLOR),
        line('zero', 'Zero-result point Z', (p) => p.zeroResultPoint, SERIES_COLORS[0], '5 3'),
        line('range', 'Range R', (p) => p.range, SERIES_COLORS[2], '5 3'),
        line('update', 'Update U', (p) => p.update, SERIES_COLORS[1], '5 3'),
      ],
      rules,
    };
  }, [data, yoursFraction, smooseFraction]);

  return (
    <ChartCard
      id="last-level"
      title="Default Moose as the last level grows"
      caption="A bigger last level buys cheaper point lookups; the paper’s default is a last level with 80 % of the data."
      detail="Moose Fig.10B; Insight 2, Eq.11; the default is N_L = 0.8N."
      footer={
        <>
          <p className="card-foot">Costs for the workload on the left, for last levels holding 50–99 % of the data; the jumps come from rounding run counts.</p>
          <Detail>Moose with k = 1 and the Σ√r DP for every N_L/N from 0.5 to 0.99. The jumps come from rounding n_i = round(√r_i).</Detail>
        </>
      }
      csv={() => (chart ? lineChartCsv(chart) : '')}
      status={sweepStatus(computing, error)}
    >
      {chart ? <LineChart {...chart} height={360} title="Default Moose's costs against the last level's share" data-testid="last-level-chart" /> : <ChartPlaceholder height={360} />}
    </ChartCard>
  );
});

/**
 * Monkey's zero-result cost curves as chart series: the exact uniform and Monkey curves, and each
 * closed form where it differs from its exact curve. The memory card and the what-if sweeps draw
 * the same four curves, each with its own legend words.
 */
import { CLOSED_DASH, MONKEY_COLOR, UNIFORM_COLOR } from '../../ui/charts/designColors';
import type { LineSeries } from '../../ui/charts/types';

export interface ZeroResultLabels {
  uniform: string;
  monkey: string;
  monkeyEq7: string;
  uniformEq56: string;
}

export interface ZeroResultCurves {
  monkey: readonly number[];
  uniform: readonly number[];
  monkeyEq7: readonly number[];
  uniformEq56: readonly number[];
  monkeyDiffers: boolean;
  uniformDiffers: boolean;
}

export function zeroResultSeries(xs: readonly number[], d: ZeroResultCurves, labels: ZeroResultLabels): LineSeries[] {
  const pts = (ys: readonly number[]) => xs.map((x, i) => ({ x, y: ys[i] }));
  const out: LineSeries[] = [
    { id: 'uniform', label: labels.uniform, color: UNIFORM_COLOR, points: pts(d.uniform) },
    { id: 'monkey', label: labels.monkey, color: MONKEY_COLOR, points: pts(d.monkey) },
  ];
  if (d.monkeyDiffers) out.push({ id: 'monkey-eq7', label: labels.monkeyEq7, color: MONKEY_COLOR, dash: CLOSED_DASH, points: pts(d.monkeyEq7) });
  if (d.uniformDiffers) out.push({ id: 'uniform-eq56', label: labels.uniformEq56, color: UNIFORM_COLOR, dash: CLOSED_DASH, points: pts(d.uniformEq56) });
  return out;
}

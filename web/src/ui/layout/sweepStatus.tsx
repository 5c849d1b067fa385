/**
 * How a card shows a result that comes from a worker sweep: a status in its header while the
 * sweep runs or when the model rejected its arguments, and a placeholder of the chart's height
 * until the first result arrives (so the page does not jump when it does).
 */
import type { ReactNode } from 'react';
import { formatSig } from '../../documents/format';

/**
 * The card header status of a sweep: the model's message, else "computing…", else (when `ms` is
 * given) how long the last result took in the worker; nothing when there is nothing to say.
 */
export function sweepStatus(computing: boolean, error: string | null, ms: number | null = null): ReactNode {
  if (error) return <span className="error">{error}</span>;
  if (computing) return 'computing…';
  return ms !== null ? <span title="time in the model worker">{formatSig(ms, 2)} ms</span> : undefined;
}

/** Stands where a chart will be drawn, at its height. */
export function ChartPlaceholder({ height, children = 'computing…' }: { height: number; children?: ReactNode }) {
  return (
    <div className="chart-placeholder" style={{ height }}>
      {children}
    </div>
  );
}

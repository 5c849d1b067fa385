/**
 * A wait the page runs itself (not an engine task of the shared session): a bar, what is being
 * done, and the time left, smoothed (`TimeLeft`: never rising by more than half of itself). The
 * caller passes the fraction of the whole wait done; the estimate is the pace so far.
 */
import { useMemo, useRef } from 'react';
import { formatTimeLeft, paceEstimate, TimeLeft } from './timeLeft';
import './task.css';

export function WaitProgress({
  title,
  detail,
  fraction,
  startedAt,
  testId = 'wait-progress',
}: {
  title: string;
  /** What is being done now ("Store 2 of 4: engine, OPFS — inserting"). */
  detail: string;
  /** Of the whole wait, 0..1. */
  fraction: number;
  /** performance.now() when the wait began: a new value starts a new estimate. */
  startedAt: number;
  testId?: string;
}) {
  const timer = useRef<{ startedAt: number; t: TimeLeft } | null>(null);
  if (timer.current?.startedAt !== startedAt) timer.current = { startedAt, t: new TimeLeft() };
  // The pace needs a second of work to mean anything: no estimate before that ("estimating…").
  const left = useMemo(() => {
    const now = performance.now();
    const elapsed = (now - startedAt) / 1000;
    return timer.current!.t.update(elapsed >= 1 ? paceEstimate(elapsed, fraction) : null, now);
  }, [fraction, startedAt]);
  const percent = Math.round(Math.min(1, Math.max(0, fraction)) * 100);
  return (
    <section className="card task-progress" aria-label={title} data-testid={testId}>
      <h2>{title}</h2>
      <p className="caption" data-testid={`${testId}-detail`}>
        {detail}
      </p>
      <div className="bar" role="progressbar" aria-label={`${title}: done`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} data-testid={`${testId}-bar`}>
        <span style={{ width: `${percent}%` }} />
      </div>
      <dl className="task-stats">
        <div>
          <dt>Done</dt>
          <dd>{percent}%</dd>
        </div>
        <div>
          <dt>Time left</dt>
          <dd data-testid={`${testId}-eta`} data-value={left ?? ''}>
            {left === null ? 'estimating…' : formatTimeLeft(left)}
          </dd>
        </div>
      </dl>
    </section>
  );
}

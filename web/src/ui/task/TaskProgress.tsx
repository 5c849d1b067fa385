/**
 * The running task: phase (preload / run), operations done of total, operations per second, time
 * left, and Cancel. For sweeps and comparisons, which run of how many is in progress, too.
 */
import { formatCount, formatInt } from '../../documents/format';
import { useMemo, useRef } from 'react';
import { cancelTask, useLabEngine } from '../../engine/session';
import { formatTimeLeft, paceEstimate, TimeLeft } from './timeLeft';
import './task.css';

export function TaskProgress() {
  const { busy } = useLabEngine();
  // One smoothed time left per task (a new task starts a new one).
  const timer = useRef<{ startedAt: number; t: TimeLeft } | null>(null);
  if (busy && timer.current?.startedAt !== busy.startedAt) timer.current = { startedAt: busy.startedAt, t: new TimeLeft() };
  const p = busy?.progress ?? null;
  const fraction = p && p.total ? Math.min(1, p.done / p.total) : null;
  const steps = busy?.step ?? null;
  const outer = steps ? (steps.index + (fraction ?? 0) / 2 + (p?.phase === 'run' ? 0.5 : 0)) / steps.total : null;
  // Several runs (a sweep, a comparison): the pace over all of them so far; one run: the engine's
  // own estimate (operations left at the current rate). Either way smoothed, never rising by half.
  const left = useMemo(() => {
    if (!busy || !timer.current) return null;
    const now = performance.now();
    const raw = outer !== null ? paceEstimate((now - busy.startedAt) / 1000, outer) : (p?.etaSeconds ?? null);
    return timer.current.t.update(raw, now);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- busy is read through busy.startedAt: a new progress report of the same task is not a new task
  }, [p, outer, busy?.startedAt]);
  if (!busy) return null;
  const phase = p ? (p.phase === 'preload' ? 'Preloading' : p.phase === 'run' ? 'Running' : 'Finishing') : 'Starting';
  return (
    <section className="card task-progress" aria-label="Task in progress" data-testid="task-progress" data-phase={p?.phase ?? 'start'}>
      <div className="task-head">
        <div>
          <h2>{busy.label}</h2>
          {steps && (
            <p className="caption" data-testid="task-step">
              Run {steps.index + 1} of {steps.total}: {steps.label}
            </p>
          )}
        </div>
        <button type="button" className="danger" onClick={() => void cancelTask()} disabled={busy.cancelling} data-testid="cancel-run">
          {busy.cancelling ? 'Stopping…' : 'Cancel'}
        </button>
      </div>
      {outer !== null && (
        <div className="bar outer" role="progressbar" aria-label="Runs done" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(outer * 100)}>
          <span style={{ width: `${outer * 100}%` }} />
        </div>
      )}
      <div
        className={`bar phase-${p?.phase ?? 'start'}`}
        role="progressbar"
        aria-label={`${phase}: operations done`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={fraction === null ? undefined : Math.round(fraction * 100)}
        data-testid="run-progress"
      >
        <span style={{ width: `${(fraction ?? 0) * 100}%` }} />
      </div>
      <dl className="task-stats">
        <div>
          <dt>Phase</dt>
          <dd data-testid="progress-phase">{phase}</dd>
        </div>
        <div>
          <dt>Operations</dt>
          <dd data-testid="progress-done" data-value={p?.done ?? 0}>
            {p ? `${formatInt(p.done)}${p.total !== null ? ` of ${formatInt(p.total)}` : ''}` : '—'}
          </dd>
        </div>
        <div>
          <dt>Speed</dt>
          <dd data-testid="progress-rate">{p && p.opsPerSecond > 0 ? `${formatCount(p.opsPerSecond)} ops/s` : '—'}</dd>
        </div>
        <div>
          <dt>Time left</dt>
          <dd data-testid="progress-eta" data-value={left ?? ''}>
            {formatTimeLeft(left)}
          </dd>
        </div>
      </dl>
    </section>
  );
}

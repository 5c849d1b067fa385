/**
 * The time left a progress bar shows, smoothed so a reader can trust it: the raw estimates (ops
 * left ÷ the current rate, or elapsed × work left ÷ work done) jump when a phase with another
 * speed begins, so the shown value is their moving average (rises damped, falls followed), and never more than 1.5 × the lowest
 * value shown so far — it never rises by more than 50% of itself. Pure: `TimeLeft` holds the state.
 */

/** How much of each new estimate the average takes: rises are damped, falls followed (a task ending early must not show seconds left). */
const WEIGHT_UP = 0.35;
const WEIGHT_DOWN = 0.8;
/** The most the shown value may rise above its lowest so far. */
export const MAX_RISE = 1.5;

export class TimeLeft {
  private average: number | null = null;
  private lowest = Infinity;
  private last: { shown: number; at: number } | null = null;

  /** The time left to show, in seconds, given the raw estimate at `nowMs` (null: no estimate yet). */
  update(raw: number | null, nowMs: number): number | null {
    if (raw === null || !Number.isFinite(raw) || raw < 0) return this.last ? this.countdown(nowMs) : null;
    this.average = this.average === null ? raw : this.average + (raw > this.average ? WEIGHT_UP : WEIGHT_DOWN) * (raw - this.average);
    const shown = Math.min(this.average, this.lowest * MAX_RISE);
    this.lowest = Math.min(this.lowest, shown);
    this.last = { shown, at: nowMs };
    return shown;
  }

  /** Without a new estimate: the last one, counted down by the time since, but not below 0. */
  private countdown(nowMs: number): number {
    const l = this.last!;
    return Math.max(0, l.shown - (nowMs - l.at) / 1000);
  }
}

/** Elapsed × work left ÷ work done: the time left at the pace so far (null before any work is done). */
export function paceEstimate(elapsedSeconds: number, fractionDone: number): number | null {
  if (!(fractionDone > 0) || elapsedSeconds <= 0) return null;
  return (elapsedSeconds * (1 - Math.min(1, fractionDone))) / fractionDone;
}

/** "12 s", "3 min 5 s", "< 1 s"; "—" without an estimate. */
export function formatTimeLeft(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '—';
  if (seconds < 1) return '< 1 s';
  if (seconds < 90) return `${Math.round(seconds)} s`;
  const m = Math.floor(seconds / 60);
  const s = Math.round(seconds % 60);
  return s === 60 ? `${m + 1} min 0 s` : `${m} min ${s} s`;
}

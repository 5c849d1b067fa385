/**
 * What the database list says about a stored database's last run, from the registry's record of
 * it (mirrored from the database's own run log while it runs; the log itself once it is opened).
 * Pure, so the words are tested without a browser.
 */
import type { ListedDatabase, RunState } from '../../engine/protocol';
import { formatBytes, formatInt } from '../../documents/format';

export interface RunStatus {
  /** `interrupted`: a run began and never ended, and no tab is running it. */
  kind: 'none' | 'running' | 'interrupted' | 'finished' | 'cancelled';
  text: string;
}

/** "N of M operations acknowledged" (or "N operations" when the run's length was unknown). */
function acknowledged(run: RunState, atLeast: boolean): string {
  const n = `${atLeast ? 'at least ' : ''}${formatInt(run.acknowledged)}`;
  return run.planned === null ? `${n} operations acknowledged` : `${n} of ${formatInt(run.planned)} operations acknowledged`;
}

/** What recovery found, in a line (empty when nothing to say). */
export function recoveredLine(r: NonNullable<RunState['recovered']>): string {
  const parts = [`${formatInt(r.entries)} entries recovered`, `${formatInt(r.logRecords)} log records replayed`];
  if (r.logBytesCut > 0) parts.push(`a torn log tail of ${formatBytes(r.logBytesCut)} cut (a write never acknowledged)`);
  if (r.orphanTables > 0) parts.push(`${formatInt(r.orphanTables)} tables of a merge cut off before its commit deleted (${formatBytes(r.orphanBytes)})`);
  return parts.join(', ');
}

/**
 * `runningHere`: this tab's engine is running a workload on it. A run recorded as running that no
 * tab holds was cut off: the page or the browser died during it.
 */
export function runStatus(d: Pick<ListedDatabase, 'run' | 'lastRun' | 'openElsewhere'>, runningHere: boolean): RunStatus {
  const run = d.run;
  if (!run) return d.lastRun ? { kind: 'finished', text: d.lastRun } : { kind: 'none', text: '—' };
  switch (run.state) {
    case 'running':
      if (runningHere) return { kind: 'running', text: `running ${run.label}` };
      if (d.openElsewhere) return { kind: 'running', text: `${run.label}: open in another tab` };
      // The registry's mirror may lag the database's record by a step: hence "at least".
      return { kind: 'interrupted', text: `Interrupted during ${run.label} — ${acknowledged(run, true)}; open it to recover` };
    case 'interrupted':
      return {
        kind: 'interrupted',
        text: `Interrupted during ${run.label} — ${acknowledged(run, false)}${run.recovered ? `; ${recoveredLine(run.recovered)}` : ''}`,
      };
    case 'cancelled':
      return { kind: 'cancelled', text: `${run.label} (cancelled) — ${acknowledged(run, false)}` };
    case 'finished':
      return { kind: 'finished', text: run.result ? `${run.label}: ${run.result}` : run.label };
  }
}

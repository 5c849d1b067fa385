/**
 * The lab's experiments on the engine: a single run, a sweep (many in-memory runs) and the
 * allocation comparison. Each is one engine task (labEngine.withTask), saves its result to the
 * results store when done (also when cancelled: what was measured is kept), and reports progress
 * through the task's state.
 */
import type { Backend } from '../../engine/protocol';
import type { EngineConfig, Merging, Workload } from '../../documents/engine';
import { withTask } from '../../engine/session';
import { COMPARE_ALLOCATIONS, compareConfig, compareRow, compareWorkload, type CompareRow, type CompareSettings } from './mnemosyne';
import { newResultId, saveResult, type CompareResult, type RunResult, type SweepResult } from './results';
import { measurePoint, SWEEPS, sweepPoints, type SweepPointResult, type SweepSpec } from './sweeps';

export interface RunRequest {
  config: EngineConfig;
  workload?: Workload;
  trace?: { name: string; text: string; keyBytes: number };
  backend: Backend;
  /** Database name (persistent backends). */
  database: string;
  /** Run on the database that is open now instead of creating one. */
  reuseOpen: boolean;
  label: string;
  /** When the engine runs its merges (default paced). */
  merges?: Merging;
}

/** Name for a new persistent database: `lab-YYYYMMDD-HHMMSS`. */
export function suggestDatabaseName(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `lab-${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}${p(now.getSeconds())}`;
}

export async function runExperiment(req: RunRequest): Promise<RunResult> {
  return withTask(req.label, async (ctl) => {
    const name = req.backend === 'memory' ? 'lab' : req.database;
    if (!req.reuseOpen) await ctl.open(name, req.backend, req.config, true);
    const r = await ctl.run({ workload: req.workload, trace: req.trace, label: req.label, merges: req.merges });
    const result: RunResult = {
      id: newResultId('run'),
      kind: 'run',
      created: Date.now(),
      label: req.label,
      backend: req.backend,
      database: name,
      config: r.report.config,
      workload: r.report.workload,
      report: r.report,
      cancelled: r.cancelled,
      millis: r.millis,
    };
    await saveResult(result);
    return result;
  });
}

export async function runSweep(spec: SweepSpec, onPoint: (points: SweepPointResult[]) => void): Promise<SweepResult> {
  const info = SWEEPS[spec.kind];
  return withTask(`sweep: ${info.title}`, async (ctl) => {
    const plan = sweepPoints(spec);
    const points: SweepPointResult[] = [];
    const started = performance.now();
    let cancelled = false;
    for (let i = 0; i < plan.length; i++) {
      if (ctl.cancelled()) {
        cancelled = true;
        break;
      }
      const p = plan[i];
      ctl.step(i, plan.length, p.label);
      await ctl.open('sweep', 'memory', p.config, true);
      const t0 = performance.now();
      const r = await ctl.run({ workload: p.workload, label: p.label });
      if (r.cancelled) {
        cancelled = true;
        break;
      }
      points.push(measurePoint(p, r.report, performance.now() - t0));
      onPoint([...points]);
    }
    await ctl.close();
    const result: SweepResult = {
      id: newResultId('sweep'),
      kind: 'sweep',
      created: Date.now(),
      label: `${info.figure}: ${info.title}${cancelled ? ' (cancelled)' : ''}`,
      spec,
      points,
      cancelled,
      millis: performance.now() - started,
    };
    await saveResult(result);
    return result;
  });
}

export async function runComparison(settings: CompareSettings, onRow: (rows: CompareRow[]) => void): Promise<CompareResult> {
  return withTask('Mnemosyne comparison', async (ctl) => {
    const workload = compareWorkload(settings);
    const rows: CompareRow[] = [];
    const started = performance.now();
    let cancelled = false;
    for (let i = 0; i < COMPARE_ALLOCATIONS.length; i++) {
      const allocation = COMPARE_ALLOCATIONS[i];
      if (ctl.cancelled()) {
        cancelled = true;
        break;
      }
      ctl.step(i, COMPARE_ALLOCATIONS.length, `${allocation} filters`);
      await ctl.open('compare', 'memory', compareConfig(allocation, settings.bits), true);
      const t0 = performance.now();
      const r = await ctl.run({ workload, label: `${allocation} filters` });
      if (r.cancelled) {
        cancelled = true;
        break;
      }
      rows.push(compareRow(allocation, r.report, performance.now() - t0));
      onRow([...rows]);
    }
    await ctl.close();
    const result: CompareResult = {
      id: newResultId('compare'),
      kind: 'compare',
      created: Date.now(),
      label: `Mnemosyne vs Monkey vs uniform at ${settings.bits} bits/key${cancelled ? ' (cancelled)' : ''}`,
      config: compareConfig('mnemosyne', settings.bits),
      workload,
      rows,
      cancelled,
      millis: performance.now() - started,
    };
    await saveResult(result);
    return result;
  });
}

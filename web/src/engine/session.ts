/**
 * The lab's single handle on the engine worker. The worker holds one open database at a time and
 * runs one task at a time, so every panel (run, sweeps, comparison, databases, engine check) goes
 * through this store: it knows which database is open, what is running, its progress, and it
 * refuses a second task while one runs. Components read it with `useLabEngine()`.
 */
import { useSyncExternalStore } from 'react';
import { engineClient } from './client';
import type { Backend, Kind, Progress, Requests, Responses, RunResult as EngineRun, Session, Snapshot } from './protocol';
import type { EngineConfig, GrowthSpec, Recovery } from '../documents/engine';
import type { WriteAmpSpec } from '../documents/writeAmp';

export interface OpenDatabase extends Snapshot {
  name: string;
  backend: Backend;
  config: EngineConfig;
  /** Log records replayed when it was opened (0 for a new one). */
  recovered: number;
  /** What opening it recovered (all zero for a new one), and the run it recorded. */
  recovery: Recovery;
}

export interface Busy {
  label: string;
  /** Progress of the engine run in flight, if any. */
  progress: Progress | null;
  /** For multi-run tasks (sweeps, comparisons): which run of how many. */
  step: { index: number; total: number; label: string } | null;
  cancelling: boolean;
  /** When the cancel was asked for (performance.now()), to report how long stopping took. */
  cancelAt: number | null;
  startedAt: number;
}

export interface LabEngineState {
  open: OpenDatabase | null;
  busy: Busy | null;
}

let state: LabEngineState = { open: null, busy: null };
const listeners = new Set<() => void>();
let cancelRequested = false;

function set(next: Partial<LabEngineState>): void {
  state = { ...state, ...next };
  listeners.forEach((fn) => fn());
}

function patchBusy(next: Partial<Busy>): void {
  if (state.busy) set({ busy: { ...state.busy, ...next } });
}

export function labEngineState(): LabEngineState {
  return state;
}

export function useLabEngine(): LabEngineState {
  return useSyncExternalStore(
    (fn) => {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    () => state,
  );
}

export class BusyError extends Error {}

/**
 * Run `job` as the engine's one task. `cancelled()` tells a multi-run job to stop between runs;
 * the engine's own run stops within one step when `cancelTask` is called.
 */
export async function withTask<T>(label: string, job: (ctl: TaskControl) => Promise<T>): Promise<T> {
  if (state.busy) throw new BusyError(`the engine is busy (${state.busy.label}); wait for it or cancel it first`);
  cancelRequested = false;
  set({ busy: { label, progress: null, step: null, cancelling: false, cancelAt: null, startedAt: performance.now() } });
  try {
    return await job(control);
  } finally {
    set({ busy: null });
  }
}

export interface TaskControl {
  cancelled: () => boolean;
  step: (index: number, total: number, label: string) => void;
  /** `wait`: if another tab has it open, wait until that tab lets go (cancelTask stops waiting). */
  open: (name: string, backend: Backend, config: EngineConfig | undefined, create: boolean, wait?: boolean) => Promise<Session>;
  close: () => Promise<void>;
  run: (req: Pick<Requests['run'], 'workload' | 'trace' | 'label' | 'merges'>) => Promise<EngineRun>;
  /** Monkey's Fig 12A on in-memory engines, with progress in the task's bar. */
  growth: (spec: GrowthSpec) => Promise<Responses['growth']>;
  writes: (spec: WriteAmpSpec) => Promise<Responses['writes']>;
  /** Any other engine call; the open database's snapshot is refreshed from calls that return one. */
  call: typeof engineCall;
}

async function engineCall<K extends Kind>(
  kind: K,
  payload: Requests[K],
  options?: { transfer?: Transferable[]; onProgress?: (p: Progress) => void },
): Promise<Responses[K]> {
  const result = await engineClient().call(kind, payload, options);
  const snap = result as Partial<Snapshot>;
  if (state.open && snap && typeof snap === 'object' && 'tree' in snap && 'stats' in snap && snap.tree && snap.stats) {
    set({ open: { ...state.open, tree: snap.tree, stats: snap.stats, stall: snap.stall ?? state.open.stall } });
  }
  return result;
}

const control: TaskControl = {
  cancelled: () => cancelRequested,
  step: (index, total, label) => patchBusy({ step: { index, total, label }, progress: null }),
  async open(name, backend, config, create, wait) {
    set({ open: null });
    const s = await engineClient().call('open', { name, backend, config, create, wait });
    set({ open: { name: s.name, backend: s.backend, config: s.config, tree: s.tree, stats: s.stats, stall: s.stall, recovered: s.recovered, recovery: s.recovery } });
    return s;
  },
  async close() {
    await engineClient().call('close', {});
    set({ open: null });
  },
  async run(req) {
    const r = await engineClient().call('run', req, { onProgress: (progress) => patchBusy({ progress }) });
    if (state.open) set({ open: { ...state.open, tree: r.tree, stats: r.stats, stall: r.stall } });
    return r;
  },
  growth: (spec) => engineClient().call('growth', { spec }, { onProgress: (progress) => patchBusy({ progress }) }),
  writes: (spec) => engineClient().call('writes', { spec }, { onProgress: (progress) => patchBusy({ progress }) }),
  call: engineCall,
};

/** Ask the running task to stop: the engine stops after its current step (~80 ms), multi-run tasks before their next run. */
export async function cancelTask(): Promise<void> {
  if (!state.busy || state.busy.cancelling) return;
  cancelRequested = true;
  patchBusy({ cancelling: true, cancelAt: performance.now() });
  await engineClient().call('cancel', {});
}

/** Forget the open database (after it was deleted elsewhere). */
export function forgetOpen(): void {
  set({ open: null });
}

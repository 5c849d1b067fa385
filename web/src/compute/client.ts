/**
 * The page's shared model worker, started on first use. Where workers are unavailable the same
 * scheduler runs sweeps on the main thread (after a tick, so callers still see "computing…").
 */
import type { SweepRequest, SweepResponse } from './protocol';
import { SweepScheduler, type Outcome, type Transport } from './scheduler';
import { isSweepName, runSweep, type SweepArgs, type SweepName, type SweepResult } from './sweeps';

function workerTransport(onCrash: (e: Error) => void): Transport {
  const worker = new Worker(new URL('./model.worker.ts', import.meta.url), { type: 'module', name: 'lsm-models' });
  return {
    post: (r) => worker.postMessage(r),
    listen: (handler) => {
      worker.onmessage = (e: MessageEvent<SweepResponse>) => handler(e.data);
      worker.onerror = (e) => {
        e.preventDefault();
        worker.terminate();
        onCrash(new Error(`model worker failed: ${e.message}`));
      };
    },
  };
}

function inlineTransport(): Transport {
  let handler: (r: SweepResponse) => void = () => undefined;
  return {
    post: ({ id, name, args }: SweepRequest) =>
      setTimeout(() => {
        const start = performance.now();
        try {
          if (!isSweepName(name)) throw new Error(`unknown sweep "${name}"`);
          const result = runSweep(name, args as SweepArgs<SweepName>);
          handler({ id, ok: true, result, ms: performance.now() - start });
        } catch (err) {
          handler({ id, ok: false, error: err instanceof Error ? err.message : String(err) });
        }
      }, 0),
    listen: (h) => {
      handler = h;
    },
  };
}

let shared: SweepScheduler | null = null;

function scheduler(): SweepScheduler {
  if (shared) return shared;
  let transport: Transport;
  try {
    transport = workerTransport((err) => {
      // Fail what is in flight, then start afresh on the next request.
      const dead = shared;
      shared = null;
      dead?.failAll(err);
    });
  } catch {
    transport = inlineTransport();
  }
  shared = new SweepScheduler(transport);
  return shared;
}

/** Run a sweep in the model worker on `channel`; superseded requests resolve as stale. */
export function runInWorker<N extends SweepName>(channel: string, name: N, args: SweepArgs<N>): Promise<Outcome<SweepResult<N>>> {
  return scheduler().run(channel, name, args) as Promise<Outcome<SweepResult<N>>>;
}

export function cancelChannel(channel: string): void {
  shared?.cancel(channel);
}

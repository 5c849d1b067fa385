/// <reference lib="webworker" />
/**
 * The model worker: runs registered sweeps off the main thread so heavy model evaluations never
 * block a slider. Stateless; every request carries everything it needs.
 */
import { isSweepName, runSweep, type SweepName, type SweepArgs } from './sweeps';
import type { SweepRequest, SweepResponse } from './protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = (event: MessageEvent<SweepRequest>) => {
  const { id, name, args } = event.data;
  let response: SweepResponse;
  if (!isSweepName(name)) {
    response = { id, ok: false, error: `unknown sweep "${name}"` };
  } else {
    const start = performance.now();
    try {
      const result = runSweep(name, args as SweepArgs<SweepName>);
      response = { id, ok: true, result, ms: performance.now() - start };
    } catch (err) {
      response = { id, ok: false, error: err instanceof Error ? err.message : String(err) };
    }
  }
  scope.postMessage(response);
};

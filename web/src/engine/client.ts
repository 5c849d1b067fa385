/**
 * The page's handle on the engine worker: typed request/response calls over postMessage, with
 * progress callbacks for long runs.
 */
import type { Kind, Progress, RequestMessage, Requests, Responses, ResponseMessage } from './protocol';

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  onProgress?: (p: Progress) => void;
}

export class EngineClient {
  private worker: Worker;
  private nextId = 1;
  private pending = new Map<number, Pending>();

  constructor() {
    this.worker = new Worker(new URL('./engine.worker.ts', import.meta.url), { type: 'module', name: 'lsm-engine' });
    this.worker.onmessage = (event: MessageEvent<ResponseMessage>) => {
      const msg = event.data;
      const p = this.pending.get(msg.id);
      if (!p) return;
      if (msg.type === 'progress') {
        p.onProgress?.(msg.progress);
        return;
      }
      this.pending.delete(msg.id);
      if (msg.ok) p.resolve(msg.result);
      else p.reject(new Error(msg.error));
    };
    this.worker.onerror = (event) => {
      const error = new Error(`engine worker failed: ${event.message}`);
      for (const p of this.pending.values()) p.reject(error);
      this.pending.clear();
    };
  }

  call<K extends Kind>(
    kind: K,
    payload: Requests[K],
    options: { transfer?: Transferable[]; onProgress?: (p: Progress) => void } = {},
  ): Promise<Responses[K]> {
    const id = this.nextId++;
    return new Promise<Responses[K]>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, onProgress: options.onProgress });
      this.worker.postMessage({ id, kind, payload } as RequestMessage, options.transfer ?? []);
    });
  }

  terminate(): void {
    this.worker.terminate();
    for (const p of this.pending.values()) p.reject(new Error('engine worker stopped'));
    this.pending.clear();
  }
}

let shared: EngineClient | null = null;

/** The page-wide engine worker, started on first use. */
export function engineClient(): EngineClient {
  shared ??= new EngineClient();
  return shared;
}

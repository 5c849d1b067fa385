/// <reference lib="webworker" />
/**
 * The engine worker: owns the wasm LSM engine so the page's main thread never runs it.
 */
import init, { WasmEngine } from '../wasm/pkg/lsm_engine.js';
import wasmUrl from '../wasm/pkg/lsm_engine_bg.wasm?url';
import type { Kind, RequestMessage, Requests, Responses, ResponseMessage, Snapshot } from './protocol';

declare const self: DedicatedWorkerGlobalScope;

const ready = init({ module_or_path: wasmUrl });
let engine: WasmEngine | null = null;

function current(): WasmEngine {
  if (!engine) throw new Error('no database is open: create one first');
  return engine;
}

function snapshot(e: WasmEngine): Snapshot {
  return { stats: JSON.parse(e.stats_json()), tree: JSON.parse(e.tree_json()) };
}

type Handlers = { [K in Kind]: (payload: Requests[K]) => Responses[K] };

const handlers: Handlers = {
  create({ config }) {
    engine?.free();
    engine = new WasmEngine(JSON.stringify(config));
    return snapshot(engine);
  },
  apply({ batch }) {
    const e = current();
    const start = performance.now();
    const result = JSON.parse(e.apply(batch));
    return { result, millis: performance.now() - start, ...snapshot(e) };
  },
  flush() {
    const e = current();
    e.flush();
    return snapshot(e);
  },
  snapshot() {
    return snapshot(current());
  },
};

self.onmessage = async (event: MessageEvent<RequestMessage>) => {
  const { id, kind, payload } = event.data;
  let reply: ResponseMessage;
  try {
    await ready;
    const handler = handlers[kind] as (p: typeof payload) => Responses[Kind];
    reply = { id, ok: true, result: handler(payload) };
  } catch (err) {
    reply = { id, ok: false, error: err instanceof Error ? err.message : String(err) };
  }
  self.postMessage(reply);
};

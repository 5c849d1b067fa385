/**
 * Messages between the page and the engine worker. Every request carries an id; the worker
 * answers each with exactly one response of the same id.
 */
import type { BatchResult, EngineConfig, Stats, TreeShape } from './types';

export interface Snapshot {
  stats: Stats;
  tree: TreeShape;
}

export interface Requests {
  /** Open a new in-memory database with this design. */
  create: { config: EngineConfig };
  /** Apply an encoded operation batch (see batch.ts). */
  apply: { batch: Uint8Array };
  /** Write the buffer out. */
  flush: Record<string, never>;
  snapshot: Record<string, never>;
}

export interface Responses {
  create: Snapshot;
  apply: { result: BatchResult; millis: number } & Snapshot;
  flush: Snapshot;
  snapshot: Snapshot;
}

export type Kind = keyof Requests;

export type RequestMessage = { [K in Kind]: { id: number; kind: K; payload: Requests[K] } }[Kind];

export type ResponseMessage =
  | { id: number; ok: true; result: Responses[Kind] }
  | { id: number; ok: false; error: string };

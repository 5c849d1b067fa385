/** Messages between the page and the model worker: one response per request, same id. */

export interface SweepRequest {
  id: number;
  name: string;
  args: unknown;
}

export type SweepResponse =
  | { id: number; ok: true; result: unknown; ms: number }
  | { id: number; ok: false; error: string };

/**
 * Timing for model benchmarks: repeat a function until a time budget is spent, several rounds,
 * and report the median time per call. Printed figures, not assertions: the machine is shared.
 */
import { performance } from 'node:perf_hooks';

export interface Timing {
  name: string;
  /** Median milliseconds per call over the rounds. */
  medianMs: number;
  minMs: number;
  maxMs: number;
  calls: number;
}

/** Keeps results alive so the JIT cannot drop the work. */
export let sink: unknown = null;

export function time(name: string, fn: () => unknown, options: { rounds?: number; budgetMs?: number } = {}): Timing {
  const rounds = options.rounds ?? 7;
  const budget = options.budgetMs ?? 200;
  for (let i = 0; i < 3; i++) sink = fn(); // warm-up
  const perCall: number[] = [];
  let calls = 0;
  for (let r = 0; r < rounds; r++) {
    let n = 0;
    const start = performance.now();
    let elapsed = 0;
    do {
      sink = fn();
      n += 1;
      elapsed = performance.now() - start;
    } while (elapsed < budget / rounds);
    perCall.push(elapsed / n);
    calls += n;
  }
  perCall.sort((a, b) => a - b);
  return { name, medianMs: perCall[Math.floor(perCall.length / 2)], minMs: perCall[0], maxMs: perCall[perCall.length - 1], calls };
}

export function report(t: Timing, target?: { maxMs: number }): string {
  const verdict = target ? ` (target < ${target.maxMs} ms: ${t.medianMs < target.maxMs ? 'met' : 'NOT met'})` : '';
  return `${t.name.padEnd(52)} median ${t.medianMs.toFixed(4)} ms  [min ${t.minMs.toFixed(4)}, max ${t.maxMs.toFixed(4)}] over ${t.calls} calls${verdict}`;
}

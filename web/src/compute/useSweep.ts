/**
 * Run a registered sweep for the current arguments and keep its latest result. In the worker
 * (default) requests are debounced, superseded ones are dropped, and `computing` is true until
 * the latest arrives; the previous result stays available meanwhile so charts stay drawn. With
 * `mode: 'main'` light sweeps run synchronously during render instead.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { cancelChannel, runInWorker } from './client';
import { runSweep, type SweepArgs, type SweepName, type SweepResult } from './sweeps';

export interface SweepState<R> {
  /** The latest successful result (possibly for older arguments while computing). */
  data: R | undefined;
  computing: boolean;
  /** The model's message when the latest arguments were rejected; `data` keeps the last good result. */
  error: string | null;
  /** Time the last result took in the worker, ms. */
  ms: number | null;
}

export interface SweepOptions {
  mode?: 'worker' | 'main';
  /** Wait this long after the last change before asking the worker (default 80 ms). */
  debounceMs?: number;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function useSweep<N extends SweepName>(name: N, args: SweepArgs<N>, options: SweepOptions = {}): SweepState<SweepResult<N>> {
  const mode = options.mode ?? 'worker';
  const debounceMs = options.debounceMs ?? 80;
  const key = JSON.stringify(args);
  const channel = useId();
  const argsRef = useRef(args);
  argsRef.current = args;

  // Main-thread path. Memoised on the serialised arguments, so a new but equal object is free.
  const lastGood = useRef<SweepResult<N> | undefined>(undefined);
  const main = useMemo(() => {
    if (mode !== 'main') return null;
    try {
      const data = runSweep(name, argsRef.current);
      lastGood.current = data;
      return { data, error: null };
    } catch (err) {
      return { data: lastGood.current, error: message(err) };
    }
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` is the identity of the arguments (read through argsRef): a new object with the same content is not new work
  }, [mode, name, key]);

  // Worker path.
  const [state, setState] = useState<SweepState<SweepResult<N>>>({ data: undefined, computing: mode === 'worker', error: null, ms: null });
  const hasData = state.data !== undefined;
  useEffect(() => {
    if (mode !== 'worker') return;
    let live = true;
    setState((s) => (s.computing ? s : { ...s, computing: true }));
    const timer = setTimeout(
      () => {
        runInWorker(channel, name, argsRef.current).then(
          (out) => {
            if (!live || out.status === 'stale') return;
            setState({ data: out.result, computing: false, error: null, ms: out.ms });
          },
          (err: unknown) => {
            if (live) setState((s) => ({ ...s, computing: false, error: message(err) }));
          },
        );
      },
      hasData ? debounceMs : 0,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // `hasData` only picks the first delay; it must not trigger a new request.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `hasData` only picks the first delay; it must not start a new request
  }, [mode, name, key, channel, debounceMs]);

  useEffect(() => () => cancelChannel(channel), [channel]);

  if (main) return { data: main.data, computing: false, error: main.error, ms: null };
  return state;
}

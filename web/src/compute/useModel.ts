/**
 * A light model evaluation on the main thread with the models' error handling built in: when the
 * inputs are rejected (a ModelInputError) the previous good value is kept and the message is
 * returned for display, so one bad combination never blanks a page.
 */
import { useMemo, useRef, type DependencyList } from 'react';

export function useModel<T>(compute: () => T, deps: DependencyList): { value: T | undefined; error: string | null } {
  const last = useRef<T | undefined>(undefined);
  return useMemo(() => {
    try {
      const value = compute();
      last.current = value;
      return { value, error: null };
    } catch (err) {
      return { value: last.current, error: err instanceof Error ? err.message : String(err) };
    }
    // The caller lists the inputs, as with useMemo.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller lists the inputs, as with useMemo
  }, deps);
}

import { useRef } from 'react';

/**
 * The value as of the last render in which it was valid. Controls accept each value on its own,
 * but some combinations are impossible as a whole (shares that do not add up to 100%, a page
 * smaller than an entry); while one is typed, the charts keep the last possible one instead of
 * handing the models an input they would reject.
 */
export function useLastValid<T>(value: T, valid: boolean): T {
  const last = useRef(value);
  if (valid) last.current = value;
  return last.current;
}

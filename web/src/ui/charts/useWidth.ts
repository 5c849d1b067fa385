import { useLayoutEffect, useRef, useState } from 'react';

/**
 * The width of a container, following resizes, so charts draw at their real pixel size (crisp
 * text, correct tick density) instead of scaling a fixed viewBox.
 */
export function useWidth<E extends HTMLElement>(fallback = 560) {
  const ref = useRef<E>(null);
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (el.clientWidth > 0) setWidth(el.clientWidth);
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver((entries) => {
      const w = Math.round(entries[0].contentRect.width);
      if (w > 0) setWidth(w);
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, width] as const;
}

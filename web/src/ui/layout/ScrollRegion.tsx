/**
 * A box that scrolls sideways (a wide table, a JSON document) when its content does not fit. While
 * it overflows it is a named region in the tab order, so keyboard users can scroll it with the
 * arrow keys (WCAG 2.1.1; axe's scrollable-region-focusable); when everything fits it adds no tab stop.
 */
import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';

export function ScrollRegion({ label, className = 'table-wrap', children }: { label: string; className?: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const overflows = useOverflow(ref);
  return (
    <div ref={ref} className={className} tabIndex={overflows ? 0 : undefined} role={overflows ? 'region' : undefined} aria-label={overflows ? label : undefined}>
      {children}
    </div>
  );
}

/** Whether the element's content is wider or taller than its box, kept current as either resizes. */
export function useOverflow(ref: RefObject<HTMLElement | null>): boolean {
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const check = () => setOverflows(el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
    check();
    const observer = new ResizeObserver(check);
    observer.observe(el);
    for (const child of Array.from(el.children)) observer.observe(child);
    return () => observer.disconnect();
  }, [ref]);
  return overflows;
}

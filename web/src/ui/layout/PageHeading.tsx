/**
 * A page's title (its one h1). After a move from another page it takes the focus, so the next Tab
 * starts in the page chosen rather than back in the nav, and a screen reader reads the title.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { takeHeadingFocus } from '../state/location';

export function PageHeading({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (takeHeadingFocus()) ref.current?.focus();
  }, []);
  return (
    <h1 ref={ref} tabIndex={-1}>
      {children}
    </h1>
  );
}

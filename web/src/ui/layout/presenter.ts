/**
 * Presenter mode, shared by the Teaching view's stage and any chart card that offers it (Learn's
 * charts): full screen for one element, the window's height to fill, and the rule for which key
 * presses are a presenter's (or a clicker's) and which belong to a text box or a button.
 */
import { createContext, useCallback, useContext, useEffect, useState, type KeyboardEvent as ReactKeyboardEvent, type RefObject } from 'react';
import { hashFor } from '../../documents/routes';

/** Whether `element` is the full-screen element now (button labels and presenter sizes follow). */
export function useFullscreen(element: RefObject<HTMLElement | null>): boolean {
  const [on, setOn] = useState(false);
  useEffect(() => {
    const onChange = () => setOn(document.fullscreenElement !== null && document.fullscreenElement === element.current);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, [element]);
  return on;
}

/** A function that puts `element` full screen, or leaves full screen if anything is. */
export function useFullscreenToggle(element: RefObject<HTMLElement | null>): () => void {
  return useCallback(() => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void element.current?.requestFullscreen().catch(() => undefined);
  }, [element]);
}

/** The window's inner size, kept current. */
export function useViewportSize(): { width: number; height: number } {
  // 0 × 0 where there is no window (pages rendered to a string in unit tests).
  const [size, setSize] = useState(() => (typeof window === 'undefined' ? { width: 0, height: 0 } : { width: window.innerWidth, height: window.innerHeight }));
  useEffect(() => {
    const onResize = () => setSize({ width: window.innerWidth, height: window.innerHeight });
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return size;
}

/**
 * Whether a key press is for the presenter's shortcuts: not with Ctrl/Alt/Meta, not already
 * handled, not typed into a text box, and not Space or Enter on a button, link or summary (which
 * press that control).
 */
export function isPresenterKey(e: KeyboardEvent | ReactKeyboardEvent): boolean {
  if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return false;
  const t = e.target as HTMLElement | null;
  const tag = t?.tagName ?? '';
  if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || t?.isContentEditable) return false;
  if ((tag === 'BUTTON' || tag === 'A' || tag === 'SUMMARY') && (e.key === ' ' || e.key === 'Enter')) return false;
  return true;
}

/**
 * Inside this provider every ChartCard offers presenter mode: a Full screen button (key F while
 * the card has the focus; Escape or F again leaves) that enlarges the chart and its type to fill
 * the screen, and a Copy embed link button (`embed=<card id>`: the chart alone). Learn sets it.
 */
export const PresentableCharts = createContext(false);

export function usePresentableCharts(): boolean {
  return useContext(PresentableCharts);
}

/** The link to the page as it is now, showing only the part `id` (documents/routes.ts `embed=`). */
export function embedLink(page: string, query: string, id: string): string {
  return `${window.location.origin}${window.location.pathname}${hashFor(page, `${query}${query ? '&' : ''}embed=${id}`)}`;
}

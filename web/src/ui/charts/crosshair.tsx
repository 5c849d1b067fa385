/**
 * The crosshair all charts share: which point (or category) the read-out is on. The pointer moves
 * it over the plot (each chart says which point is under it), the keyboard steps it (arrows,
 * Page Up/Down, Home/End), and Escape, leaving the plot or blurring the chart hide it.
 */
import { useState, type KeyboardEvent, type PointerEvent } from 'react';
import { stepIndex } from './layout';

export interface Crosshair {
  /** The point under the crosshair; null when hidden, or when the data shrank below it. */
  index: number | null;
  /** For the chart's focusable <svg>. */
  svgHandlers: { onKeyDown: (e: KeyboardEvent<SVGSVGElement>) => void; onBlur: () => void };
  /** For the hit area over the plot (CrosshairHitArea). */
  hitHandlers: {
    onPointerMove: (e: PointerEvent<SVGRectElement>) => void;
    onPointerDown: (e: PointerEvent<SVGRectElement>) => void;
    onPointerLeave: () => void;
  };
}

/**
 * `count` points the crosshair can be on; `pointAt(x, y)` is the one under the pointer at (x, y)
 * px from the plot's top left corner, or null when none is near enough to name.
 */
export function useCrosshair(count: number, pointAt: (x: number, y: number) => number | null): Crosshair {
  const [hover, setHover] = useState<number | null>(null);
  const index = hover !== null && hover < count ? hover : null;
  const hide = () => setHover(null);
  const onPointer = (e: PointerEvent<SVGRectElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    setHover(pointAt(e.clientX - box.left, e.clientY - box.top));
  };
  const onKeyDown = (e: KeyboardEvent<SVGSVGElement>) => {
    const next = stepIndex(e.key, index, count);
    if (next === 'ignore') return;
    e.preventDefault();
    setHover(next);
  };
  return {
    index,
    svgHandlers: { onKeyDown, onBlur: hide },
    hitHandlers: { onPointerMove: onPointer, onPointerDown: onPointer, onPointerLeave: hide },
  };
}

/** A transparent rectangle over the plot that takes the pointer for the crosshair; never exported. */
export function CrosshairHitArea({ width, height, crosshair }: { width: number; height: number; crosshair: Crosshair }) {
  return <rect className="no-export hit" width={width} height={height} fill="transparent" {...crosshair.hitHandlers} />;
}

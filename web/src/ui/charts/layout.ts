/**
 * Where the parts of a chart go: legend on top, y axis with its title on the left, x axis below.
 * Pure functions of the props and the width, so the arithmetic is shared and DOM-free.
 */
import { columnTitle } from './csv';
import { legendLayout, type LegendItem } from './legend';
import { axisTicks, makeScale, textWidth, type NumScale, type Tick } from './scales';
import type { AxisSpec } from './types';

export interface Frame {
  width: number;
  height: number;
  margin: { top: number; right: number; bottom: number; left: number };
  innerWidth: number;
  innerHeight: number;
  legendWidth: number;
  yScale: NumScale;
  yTicks: Tick[];
  yTitle: string;
  yTitleOffset: number;
}

/** Lays out everything except the x scale (bar charts use a band scale there). */
export function frameLayout(
  width: number,
  height: number,
  legend: readonly LegendItem[],
  y: AxisSpec,
  yValues: readonly number[],
): Frame {
  const legendWidth = Math.max(120, width - 24);
  const legendHeight = legendLayout(legend, legendWidth).height;
  const top = legendHeight > 0 ? legendHeight + 14 : 14;
  const bottom = 48;
  const innerHeight = Math.max(60, height - top - bottom);
  const yScale = makeScale(y, yValues, [innerHeight, 0]);
  const yTicks = axisTicks(y, yScale, innerHeight, 44);
  const labelWidth = Math.max(16, ...yTicks.map((t) => textWidth(t.label)));
  const yTitleOffset = labelWidth + 18;
  // The rotated title's ascenders reach ~13 px left of its baseline; keep them inside the SVG.
  const left = yTitleOffset + 16;
  const right = 18;
  return {
    width,
    height,
    margin: { top, right, bottom, left },
    innerWidth: Math.max(60, width - left - right),
    innerHeight,
    legendWidth,
    yScale,
    yTicks,
    yTitle: columnTitle(y.label, y.unit),
    yTitleOffset,
  };
}

/** Index of the pixel position nearest to `px` in an ascending array. */
export function nearestIndex(sorted: readonly number[], px: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  if (hi < 0) return -1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < px) lo = mid;
    else hi = mid;
  }
  return Math.abs(sorted[lo] - px) <= Math.abs(sorted[hi] - px) ? lo : hi;
}

/** Keyboard movement of a chart's crosshair: arrows step, Home/End jump, Escape hides. */
export function stepIndex(key: string, current: number | null, count: number): number | null | 'ignore' {
  if (count === 0) return 'ignore';
  const at = current ?? Math.floor(count / 2);
  switch (key) {
    case 'ArrowRight':
    case 'ArrowUp':
      return Math.min(count - 1, current === null ? at : at + 1);
    case 'ArrowLeft':
    case 'ArrowDown':
      return Math.max(0, current === null ? at : at - 1);
    case 'PageUp':
      return Math.min(count - 1, at + Math.max(1, Math.round(count / 10)));
    case 'PageDown':
      return Math.max(0, at - Math.max(1, Math.round(count / 10)));
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    case 'Escape':
      return null;
    default:
      return 'ignore';
  }
}

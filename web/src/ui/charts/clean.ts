/**
 * Charts never draw NaN or Infinity, nor zero/negative values on a log axis: such points become
 * gaps (lines break there) and the chart shows a note saying how many were left out and why.
 */
import type { Point, ScaleKind } from './types';

export interface CleanSeries<P extends Point> {
  /** Same order as the input, sorted by x; null where a point cannot be drawn. */
  points: (P | null)[];
  dropped: number;
}

export function drawable(v: number, scale: ScaleKind | undefined): boolean {
  return Number.isFinite(v) && (scale !== 'log' || v > 0);
}

export function cleanPoints<P extends Point>(
  points: readonly P[],
  xScale: ScaleKind | undefined,
  yScale: ScaleKind | undefined,
): CleanSeries<P> & { reasons: Set<string> } {
  const reasons = new Set<string>();
  let dropped = 0;
  const sorted = [...points].sort((a, b) => a.x - b.x);
  const out = sorted.map((p) => {
    if (drawable(p.x, xScale) && drawable(p.y, yScale)) return p;
    dropped += 1;
    const bad = !Number.isFinite(p.x) || !Number.isFinite(p.y);
    reasons.add(bad ? 'not a finite number' : '≤ 0 on a log axis');
    return null;
  });
  return { points: out, dropped, reasons };
}

/** "3 points of “Monkey” not drawn (not a finite number)." */
export function dropNote(seriesLabel: string, dropped: number, reasons: Set<string>): string | null {
  if (dropped === 0) return null;
  const what = dropped === 1 ? '1 point' : `${dropped} points`;
  return `${what} of “${seriesLabel}” not drawn (${[...reasons].join('; ')}).`;
}

/** The fitted domain of some values: [min, max], padded so a flat series still has height. */
export function extentOf(values: readonly number[], scale: ScaleKind | undefined, zero = false): [number, number] {
  const ok = values.filter((v) => drawable(v, scale));
  if (ok.length === 0) return scale === 'log' ? [1, 10] : [0, 1];
  let lo = Math.min(...ok);
  let hi = Math.max(...ok);
  if (zero && scale !== 'log') {
    lo = Math.min(lo, 0);
    hi = Math.max(hi, 0);
  }
  if (lo === hi) {
    if (scale === 'log') return [lo / 10 ** 0.5, hi * 10 ** 0.5];
    const pad = lo === 0 ? 1 : Math.abs(lo) * 0.1;
    return [lo - pad, hi + pad];
  }
  return [lo, hi];
}

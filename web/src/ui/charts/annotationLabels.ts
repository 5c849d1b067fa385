/**
 * Where a chart's annotation labels go: each wrapped to lines of at most 60% of the plot (a
 * phone's plot is narrow, 120 px at the least), then placed clear of one another, of the series
 * drawn (`seriesPixels`, in plot pixels) and of the annotated points themselves. The line and the
 * scatter chart share it, so their labels read alike.
 */
import { useMemo } from 'react';
import { labelWidth, placeLabels, wrapLabel, type LabelPlacement } from './labelPlacement';
import type { Annotation } from './types';

export interface AnnotationLabels {
  /** Each annotation's label, line by line. */
  wrapped: string[][];
  /** Each annotation's label position. */
  placements: LabelPlacement[];
}

export function useAnnotationLabels(
  marks: readonly Annotation[],
  xScale: (v: number) => number,
  yScale: (v: number) => number,
  plot: { width: number; height: number },
  seriesPixels: readonly { x: number; y: number }[],
): AnnotationLabels {
  const { width, height } = plot;
  const wrapped = useMemo(() => marks.map((a) => wrapLabel(a.label, Math.max(120, width * 0.6))), [marks, width]);
  const placements = useMemo(
    () =>
      placeLabels(
        marks.map((a, i) => ({ px: xScale(a.x), py: yScale(a.y), width: Math.max(...wrapped[i].map(labelWidth)), lines: wrapped[i].length })),
        [...seriesPixels, ...marks.map((a) => ({ x: xScale(a.x), y: yScale(a.y) }))],
        { width, height },
      ),
    [marks, wrapped, seriesPixels, xScale, yScale, width, height],
  );
  return { wrapped, placements };
}

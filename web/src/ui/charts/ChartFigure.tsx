/**
 * The figure every chart draws into: a focusable SVG at the container's pixel size (titled, so
 * screen readers and exported files name it), the HTML tooltip over it, and notes about points
 * that could not be drawn under it.
 */
import type { ReactNode, Ref } from 'react';
import type { Crosshair } from './crosshair';
import { ChartNotes } from './Tooltip';

export function ChartFigure({
  testId,
  title,
  bodyRef,
  width,
  height,
  crosshair,
  tooltip,
  notes,
  children,
}: {
  testId?: string;
  title: string;
  /** The container whose width the chart follows (useWidth). */
  bodyRef: Ref<HTMLDivElement>;
  width: number;
  height: number;
  crosshair: Crosshair;
  tooltip: ReactNode;
  notes: readonly string[];
  /** The SVG's content: legend, axes, marks. */
  children: ReactNode;
}) {
  return (
    <figure className="chart" data-testid={testId}>
      <div className="chart-body" ref={bodyRef}>
        <svg
          className="chart-svg"
          width={width}
          height={height}
          viewBox={`0 0 ${width} ${height}`}
          role="img"
          aria-label={`${title}. Focus and use the arrow keys to read values.`}
          tabIndex={0}
          {...crosshair.svgHandlers}
        >
          <title>{title}</title>
          {children}
        </svg>
        {tooltip}
      </div>
      <ChartNotes notes={notes} />
    </figure>
  );
}

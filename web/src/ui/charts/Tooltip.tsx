import { useLayoutEffect, useRef, useState } from 'react';

/**
 * The hover/keyboard read-out of a chart: the x value and every series' exact value there. Each
 * value also carries its full-precision number in `data-value`, so tests compare numbers, not
 * formatting. HTML (not SVG) so it can be wider than the plot and is never exported.
 */
export interface TooltipRow {
  id: string;
  label: string;
  color: string;
  value: number;
  text: string;
}

export function ChartTooltip({
  x,
  reach = 14,
  top,
  bodyWidth,
  head,
  headValue,
  rows,
  testId,
  caption,
}: {
  /** The point the tooltip describes, px from the chart's left edge. */
  x: number;
  /** Keep this far from x horizontally, so the pointer does not cover the box. */
  reach?: number;
  top: number;
  /** Width of the chart: the box stays inside it. */
  bodyWidth: number;
  head: string;
  headValue?: number;
  rows: readonly TooltipRow[];
  testId?: string;
  /** What the values are, with their unit: "FPR (probability)". */
  caption?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [boxWidth, setBoxWidth] = useState(0);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- measured after every render, as the box's width follows its content; the same width does not render again
  useLayoutEffect(() => {
    if (ref.current) setBoxWidth(ref.current.offsetWidth);
  });
  // Right of the point when it fits, else left of it; never outside the chart.
  const right = x + reach;
  const left = right + boxWidth <= bodyWidth ? right : Math.max(0, Math.min(x - reach - boxWidth, bodyWidth - boxWidth));
  return (
    <div ref={ref} className="chart-tooltip" role="status" data-testid={testId} style={{ left, top }}>
      <div className="tt-head" data-value={headValue}>
        {head}
      </div>
      {caption && <div className="tt-caption">{caption}</div>}
      <table>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} data-series={r.id}>
              <td>
                <span className="tt-swatch" style={{ background: r.color }} />
                {r.label}
              </td>
              <td className="num" data-value={r.value}>
                {r.text}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Notes under a chart: points not drawn, clipped values. */
export function ChartNotes({ notes }: { notes: readonly string[] }) {
  if (notes.length === 0) return null;
  return (
    <ul className="chart-notes">
      {notes.map((n) => (
        <li key={n}>{n}</li>
      ))}
    </ul>
  );
}

/**
 * Point clouds (e.g. every design in a space, coloured by policy) with one highlighted choice.
 * The tooltip follows the nearest point (Delaunay search), so dense clouds stay readable;
 * the arrow keys walk through the points in x order.
 */
import { Delaunay, line } from 'd3';
import { useMemo } from 'react';
import { formatSig } from '../../documents/format';
import { AxisBottom, AxisLeft } from './axes';
import { cleanPoints, drawable, dropNote } from './clean';
import { columnTitle } from './csv';
import { ChartFigure } from './ChartFigure';
import { CrosshairHitArea, useCrosshair } from './crosshair';
import { frameLayout } from './layout';
import { useAnnotationLabels } from './annotationLabels';
import { samplePolyline } from './labelPlacement';
import { Legend, type LegendItem } from './legend';
import { AnnotationMark } from './marks';
import { INK, seriesColor } from './palette';
import { axisTicks, makeScale } from './scales';
import { ChartTooltip } from './Tooltip';
import type { ScatterChartProps, ScatterPoint } from './types';
import { useChartFigure } from './useChartFigure';

interface Placed {
  p: ScatterPoint;
  series: number;
  px: number;
  py: number;
}

export function ScatterChart(props: ScatterChartProps) {
  const { x, y, series, highlight, annotations = [], title, height = 320 } = props;
  const { width, figure, tooltip: tooltipBase } = useChartFigure(title, props['data-testid'], height);

  const chart = useMemo(() => {
    const clean = series.map((s, i) => {
      const c = cleanPoints(s.points, x.scale, y.scale);
      return {
        ...s,
        color: seriesColor(i, s.color),
        valid: c.points.filter((p): p is ScatterPoint => p !== null),
        // A line follows the caller's order (e.g. increasing size ratio), not x order.
        traced: s.line ? s.points.filter((p) => drawable(p.x, x.scale) && drawable(p.y, y.scale)) : [],
        note: dropNote(s.label, c.dropped, c.reasons),
      };
    });
    const legend: LegendItem[] = clean.map((s) => ({ id: s.id, label: s.label, color: s.color, kind: s.line ? 'line' : 'marker', dash: s.dash }));
    const marks = [...annotations, ...(highlight ? [highlight] : [])];
    const all = clean.flatMap((s) => s.valid);
    const frame = frameLayout(width, height, legend, y, [...all.map((p) => p.y), ...marks.map((a) => a.y)]);
    const xScale = makeScale(x, [...all.map((p) => p.x), ...marks.map((a) => a.x)], [0, frame.innerWidth]);
    const xTicks = axisTicks(x, xScale, frame.innerWidth, 90);
    const placed: Placed[] = clean
      .flatMap((s, si) => s.valid.map((p) => ({ p, series: si, px: xScale(p.x), py: frame.yScale(p.y) })))
      .sort((a, b) => a.px - b.px);
    const delaunay = Delaunay.from(
      placed,
      (d) => d.px,
      (d) => d.py,
    );
    const notes = clean.flatMap((s) => (s.note ? [s.note] : []));
    const trace = line<ScatterPoint>()
      .x((p) => xScale(p.x))
      .y((p) => frame.yScale(p.y));
    const paths = clean.map((s) => (s.line ? (trace(s.traced) ?? '') : ''));
    return { clean, legend, frame, xScale, xTicks, placed, delaunay, notes, paths };
  }, [series, highlight, annotations, x, y, width, height]);

  const { frame, xScale, placed } = chart;
  const { yScale, margin, innerWidth, innerHeight } = frame;
  const fmtX = x.format ?? ((v: number) => formatSig(v));
  const fmtY = y.format ?? ((v: number) => formatSig(v));
  const crosshair = useCrosshair(placed.length, (px, py) => {
    if (placed.length === 0) return null;
    const i = chart.delaunay.find(px, py);
    const d = placed[i];
    // Only when the pointer is near a point; far away, a tooltip would name an arbitrary design.
    return Math.hypot(d.px - px, d.py - py) < 28 ? i : null;
  });
  const current = crosshair.index !== null ? placed[crosshair.index] : null;
  // The highlight's label is placed with the others, last (it carries the page's answer).
  const marks = useMemo(() => [...annotations, ...(highlight ? [highlight] : [])], [annotations, highlight]);
  // The labels keep clear of every point, and of a series' line where it has one.
  const pointPixels = useMemo(
    () =>
      chart.clean.flatMap((s) => {
        const pts = s.valid.map((p) => ({ x: xScale(p.x), y: yScale(p.y) }));
        return s.line ? samplePolyline(s.traced.map((p) => ({ x: xScale(p.x), y: yScale(p.y) }))).concat(pts) : pts;
      }),
    [chart, xScale, yScale],
  );
  const { wrapped, placements } = useAnnotationLabels(marks, xScale, yScale, { width: innerWidth, height: innerHeight }, pointPixels);

  return (
    <ChartFigure
      {...figure}
      crosshair={crosshair}
      notes={chart.notes}
      tooltip={
        current && (
          <ChartTooltip
            {...tooltipBase}
            x={margin.left + current.px}
            top={margin.top + Math.max(0, current.py - 30)}
            head={current.p.label ?? chart.clean[current.series].label}
            rows={[
              { id: 'x', label: columnTitle(x.label, x.unit), color: chart.clean[current.series].color, value: current.p.x, text: fmtX(current.p.x) },
              { id: 'y', label: columnTitle(y.label, y.unit), color: chart.clean[current.series].color, value: current.p.y, text: fmtY(current.p.y) },
            ]}
          />
        )
      }
    >
      <Legend items={chart.legend} width={frame.legendWidth} x={margin.left} y={6} />
      <g transform={`translate(${margin.left},${margin.top})`}>
        <AxisLeft scale={yScale} ticks={frame.yTicks} width={innerWidth} title={frame.yTitle} titleOffset={frame.yTitleOffset} />
        <AxisBottom scale={xScale} ticks={chart.xTicks} height={innerHeight} title={columnTitle(x.label, x.unit)} />
        {chart.clean.map((s, si) => (
          <g key={s.id} data-series={s.id}>
            {s.line && <path d={chart.paths[si]} fill="none" stroke={s.color} strokeWidth={2} strokeDasharray={s.dash} strokeLinejoin="round" />}
            {s.valid.map((p, i) => (
              <circle
                key={i}
                cx={xScale(p.x)}
                cy={yScale(p.y)}
                r={s.radius ?? 3}
                fill={s.color}
                fillOpacity={0.55}
                stroke={s.color}
                strokeWidth={0.8}
              />
            ))}
          </g>
        ))}
        {annotations.map((a, i) => (
          <AnnotationMark key={`${a.label}-${a.x}`} a={a} px={xScale(a.x)} py={yScale(a.y)} innerWidth={innerWidth} placement={placements[i]} lines={wrapped[i]} />
        ))}
        {highlight && (
          <AnnotationMark a={highlight} px={xScale(highlight.x)} py={yScale(highlight.y)} innerWidth={innerWidth} emphasis placement={placements[annotations.length]} lines={wrapped[annotations.length]} />
        )}
        {current && (
          <circle
            className="no-export"
            cx={current.px}
            cy={current.py}
            r={6}
            fill="none"
            stroke={INK}
            strokeWidth={1.5}
            pointerEvents="none"
          />
        )}
        <CrosshairHitArea width={innerWidth} height={innerHeight} crosshair={crosshair} />
      </g>
    </ChartFigure>
  );
}

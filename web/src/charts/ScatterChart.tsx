/**
 * Point clouds (e.g. every design in a space, coloured by policy) with one highlighted choice.
 * The tooltip follows the nearest point (Delaunay search), so dense clouds stay readable;
 * the arrow keys walk through the points in x order.
 */
import { Delaunay, line } from 'd3';
import { useMemo, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { formatSig } from '../format';
import { AxisBottom, AxisLeft } from './axes';
import { cleanPoints, drawable, dropNote } from './clean';
import { columnTitle } from './csv';
import { annotationLabelYs, frameLayout, stepIndex } from './layout';
import { Legend, type LegendItem } from './legend';
import { AnnotationMark } from './marks';
import { INK, seriesColor } from './palette';
import { axisTicks, makeScale } from './scales';
import { ChartNotes, ChartTooltip } from './Tooltip';
import type { ScatterChartProps, ScatterPoint } from './types';
import { useWidth } from './useWidth';

interface Placed {
  p: ScatterPoint;
  series: number;
  px: number;
  py: number;
}

export function ScatterChart(props: ScatterChartProps) {
  const { x, y, series, highlight, annotations = [], title, height = 320 } = props;
  const testId = props['data-testid'];
  const [ref, width] = useWidth<HTMLDivElement>();
  const [hover, setHover] = useState<number | null>(null);

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
  const current = hover !== null && hover < placed.length ? placed[hover] : null;
  const labelYs = annotationLabelYs(annotations.map((a) => ({ px: xScale(a.x), py: yScale(a.y) })));

  const onPointer = (e: PointerEvent<SVGRectElement>) => {
    if (placed.length === 0) return;
    const box = e.currentTarget.getBoundingClientRect();
    const i = chart.delaunay.find(e.clientX - box.left, e.clientY - box.top);
    const d = placed[i];
    // Only when the pointer is near a point; far away, a tooltip would name an arbitrary design.
    const near = Math.hypot(d.px - (e.clientX - box.left), d.py - (e.clientY - box.top)) < 28;
    setHover(near ? i : null);
  };
  const onKey = (e: KeyboardEvent<SVGSVGElement>) => {
    const next = stepIndex(e.key, hover, placed.length);
    if (next === 'ignore') return;
    e.preventDefault();
    setHover(next);
  };

  return (
    <figure className="chart" data-testid={testId}>
      <div className="chart-body" ref={ref}>
        <svg
          className="chart-svg"
          width={width}
          height={height}
          viewBox={`0 0 ${width} ${height}`}
          role="img"
          aria-label={`${title}. Focus and use the arrow keys to read values.`}
          tabIndex={0}
          onKeyDown={onKey}
          onBlur={() => setHover(null)}
        >
          <title>{title}</title>
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
              <AnnotationMark key={`${a.label}-${a.x}`} a={a} px={xScale(a.x)} py={yScale(a.y)} innerWidth={innerWidth} labelY={labelYs[i]} />
            ))}
            {highlight && (
              <AnnotationMark a={highlight} px={xScale(highlight.x)} py={yScale(highlight.y)} innerWidth={innerWidth} emphasis />
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
            <rect
              className="no-export hit"
              width={innerWidth}
              height={innerHeight}
              fill="transparent"
              onPointerMove={onPointer}
              onPointerDown={onPointer}
              onPointerLeave={() => setHover(null)}
            />
          </g>
        </svg>
        {current && (
          <ChartTooltip
            testId={testId ? `${testId}-tooltip` : undefined}
            x={margin.left + current.px}
            top={margin.top + Math.max(0, current.py - 30)}
            bodyWidth={width}
            head={current.p.label ?? chart.clean[current.series].label}
            rows={[
              { id: 'x', label: columnTitle(x.label, x.unit), color: chart.clean[current.series].color, value: current.p.x, text: fmtX(current.p.x) },
              { id: 'y', label: columnTitle(y.label, y.unit), color: chart.clean[current.series].color, value: current.p.y, text: fmtY(current.p.y) },
            ]}
          />
        )}
      </div>
      <ChartNotes notes={chart.notes} />
    </figure>
  );
}

/**
 * Several series over one x axis (linear or log on either axis), with a legend, a crosshair and a
 * tooltip listing every series' value at the pointer (also driven by the arrow keys), measured
 * points as markers, labelled annotation points and vertical reference rules.
 */
import { line } from 'd3';
import { useId, useMemo } from 'react';
import { formatSig } from '../../documents/format';
import { AxisBottom, AxisLeft } from './axes';
import { cleanPoints, dropNote } from './clean';
import { columnTitle } from './csv';
import { ChartFigure } from './ChartFigure';
import { CrosshairHitArea, useCrosshair } from './crosshair';
import { frameLayout, nearestIndex } from './layout';
import { useAnnotationLabels } from './annotationLabels';
import { samplePolyline } from './labelPlacement';
import { Legend, type LegendItem } from './legend';
import { INK, INK_SOFT, seriesColor } from './palette';
import { axisTicks, makeScale } from './scales';
import { ChartTooltip, type TooltipRow } from './Tooltip';
import type { LineChartProps, Point } from './types';
import { useChartFigure } from './useChartFigure';
import { AnnotationMark } from './marks';

/** How far (px) a series' nearest point may be from the crosshair to be listed in the tooltip. */
const TOOLTIP_REACH = 10;

export function LineChart(props: LineChartProps) {
  const { x, y, series, annotations = [], rules = [], title, height = 300 } = props;
  const { width, figure, tooltip: tooltipBase } = useChartFigure(title, props['data-testid'], height);
  const clipId = `clip${useId().replace(/[^A-Za-z0-9_-]/g, '')}`;

  const chart = useMemo(() => {
    const clean = series.map((s, i) => {
      const c = cleanPoints(s.points, x.scale, y.scale);
      const valid = c.points.filter((p): p is Point => p !== null);
      return { ...s, color: seriesColor(i, s.color), clean: c.points, valid, note: dropNote(s.label, c.dropped, c.reasons) };
    });
    const legend: LegendItem[] = clean.map((s) => ({
      id: s.id,
      label: s.label,
      color: s.color,
      kind: s.markers ? 'marker' : 'line',
      dash: s.dash,
    }));
    const all = clean.flatMap((s) => s.valid);
    const notes = clean.flatMap((s) => (s.note ? [s.note] : []));
    const frame = frameLayout(width, height, legend, y, [...all.map((p) => p.y), ...annotations.map((a) => a.y)]);
    const xScale = makeScale(x, [...all.map((p) => p.x), ...annotations.map((a) => a.x)], [0, frame.innerWidth]);
    const xTicks = axisTicks(x, xScale, frame.innerWidth, 90);
    // The crosshair snaps to x values of the curves (markers only if there are no curves).
    const gridSource = clean.some((s) => !s.markers) ? clean.filter((s) => !s.markers) : clean;
    const xs = [...new Set(gridSource.flatMap((s) => s.valid.map((p) => p.x)))].sort((a, b) => a - b);
    const path = line<Point | null>()
      .defined((p) => p !== null)
      .x((p) => xScale((p as Point).x))
      .y((p) => frame.yScale((p as Point).y));
    return { clean, legend, notes, frame, xScale, xTicks, xs, xPixels: xs.map((v) => xScale(v)), path };
  }, [series, annotations, x, y, width, height]);

  const { frame, xScale, clean } = chart;
  const { yScale, margin, innerWidth, innerHeight } = frame;
  const fmtX = x.format ?? ((v: number) => formatSig(v));
  const fmtY = y.format ?? ((v: number) => formatSig(v));
  const crosshair = useCrosshair(chart.xs.length, (px) => {
    const i = nearestIndex(chart.xPixels, px);
    return i < 0 ? null : i;
  });
  const { index } = crosshair;

  const hoverX = index !== null ? chart.xs[index] : null;
  const rows: (TooltipRow & { px: number; py: number })[] = [];
  if (hoverX !== null) {
    const hx = xScale(hoverX);
    for (const s of clean) {
      const i = nearestIndex(
        s.valid.map((p) => xScale(p.x)),
        hx,
      );
      if (i < 0) continue;
      const p = s.valid[i];
      const px = xScale(p.x);
      if (Math.abs(px - hx) > TOOLTIP_REACH) continue;
      rows.push({ id: s.id, label: s.label, color: s.color, value: p.y, text: fmtY(p.y), px, py: yScale(p.y) });
    }
  }

  const hx = hoverX !== null ? xScale(hoverX) : 0;
  // The labels keep clear of every curve (sampled along it; a gap breaks it).
  const curvePixels = useMemo(
    () => chart.clean.flatMap((s) => samplePolyline(s.clean.map((p) => (p ? { x: xScale(p.x), y: yScale(p.y) } : { x: NaN, y: NaN })))),
    [chart, xScale, yScale],
  );
  const { wrapped, placements } = useAnnotationLabels(annotations, xScale, yScale, { width: innerWidth, height: innerHeight }, curvePixels);
  return (
    <ChartFigure
      {...figure}
      crosshair={crosshair}
      notes={chart.notes}
      tooltip={
        hoverX !== null &&
        rows.length > 0 && (
          <ChartTooltip
            {...tooltipBase}
            x={margin.left + hx}
            top={margin.top + 6}
            head={`${x.label}: ${fmtX(hoverX)}${x.unit ? ` ${x.unit}` : ''}`}
            headValue={hoverX}
            caption={frame.yTitle}
            rows={rows}
          />
        )
      }
    >
      <Legend items={chart.legend} width={frame.legendWidth} x={margin.left} y={6} />
      <g transform={`translate(${margin.left},${margin.top})`}>
        <clipPath id={clipId}>
          <rect x={-4} y={-4} width={innerWidth + 8} height={innerHeight + 8} />
        </clipPath>
        <AxisLeft scale={yScale} ticks={frame.yTicks} width={innerWidth} title={frame.yTitle} titleOffset={frame.yTitleOffset} />
        <AxisBottom scale={xScale} ticks={chart.xTicks} height={innerHeight} title={columnTitle(x.label, x.unit)} />
        {rules.map((r) => {
          const rx = xScale(r.x);
          if (!Number.isFinite(rx) || rx < 0 || rx > innerWidth) return null;
          const right = rx > innerWidth * 0.7;
          return (
            <g key={`rule-${r.x}`} className="rule">
              <line x1={rx} x2={rx} y1={0} y2={innerHeight} stroke={INK_SOFT} strokeWidth={1} strokeDasharray="3 3" />
              {r.label && (
                <text x={right ? rx - 5 : rx + 5} y={12} textAnchor={right ? 'end' : 'start'} fontSize={11} fill={INK_SOFT} className="halo">
                  {r.label}
                </text>
              )}
            </g>
          );
        })}
        <g clipPath={`url(#${clipId})`}>
          {clean.map((s) =>
            s.markers ? (
              <g key={s.id} data-series={s.id}>
                {s.valid.map((p, i) => (
                  <circle key={i} cx={xScale(p.x)} cy={yScale(p.y)} r={4} fill="#fff" stroke={s.color} strokeWidth={2} />
                ))}
              </g>
            ) : (
              <g key={s.id} data-series={s.id}>
                <path
                  d={chart.path(s.clean) ?? ''}
                  fill="none"
                  stroke={s.color}
                  strokeWidth={2.2}
                  strokeDasharray={s.dash}
                  strokeLinejoin="round"
                  strokeLinecap="round"
                />
                {/* A point between two gaps makes no line segment; show it as a dot. */}
                {s.clean.map((p, i) =>
                  p && !s.clean[i - 1] && !s.clean[i + 1] ? (
                    <circle key={i} cx={xScale(p.x)} cy={yScale(p.y)} r={2.6} fill={s.color} />
                  ) : null,
                )}
              </g>
            ),
          )}
        </g>
        {annotations.map((a, i) => (
          <AnnotationMark
            key={`${a.label}-${a.x}`}
            a={a}
            px={xScale(a.x)}
            py={yScale(a.y)}
            innerWidth={innerWidth}
            placement={placements[i]}
            lines={wrapped[i]}
          />
        ))}
        {hoverX !== null && (
          <g className="no-export crosshair" pointerEvents="none">
            <line x1={hx} x2={hx} y1={0} y2={innerHeight} stroke={INK} strokeOpacity={0.35} strokeWidth={1} />
            {rows.map((r) => (
              <circle key={r.id} cx={r.px} cy={r.py} r={4.5} fill={r.color} stroke="#fff" strokeWidth={1.5} />
            ))}
          </g>
        )}
        <CrosshairHitArea width={innerWidth} height={innerHeight} crosshair={crosshair} />
      </g>
    </ChartFigure>
  );
}

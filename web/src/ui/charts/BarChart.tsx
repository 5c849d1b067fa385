/**
 * Grouped bars: one group of bars per category (e.g. per level: uniform vs Monkey FPR), linear or
 * log value axis. Hovering or arrowing over a category lists every group's exact value.
 */
import { scaleBand } from 'd3';
import { useMemo } from 'react';
import { formatSig } from '../../documents/format';
import { AxisLeft } from './axes';
import { measureLabel, thinLabels } from './tickLabels';
import { drawable } from './clean';
import { columnTitle } from './csv';
import { ChartFigure } from './ChartFigure';
import { CrosshairHitArea, useCrosshair } from './crosshair';
import { frameLayout } from './layout';
import { Legend, type LegendItem } from './legend';
import { INK, INK_SOFT, seriesColor } from './palette';
import { ChartTooltip } from './Tooltip';
import type { BarChartProps } from './types';
import { useChartFigure } from './useChartFigure';

export function BarChart(props: BarChartProps) {
  const { x, y, categories, groups, title, height = 280, valueLabels } = props;
  const { width, figure, tooltip: tooltipBase } = useChartFigure(title, props['data-testid'], height);

  const chart = useMemo(() => {
    const colored = groups.map((g, i) => ({ ...g, color: seriesColor(i, g.color) }));
    const legend: LegendItem[] = colored.map((g) => ({ id: g.id, label: g.label, color: g.color, kind: 'bar' }));
    const values = colored.flatMap((g) => g.values.filter((v) => drawable(v, y.scale)));
    // On a log axis a bar's length is its distance from the domain floor: put the floor well below
    // the smallest value so that bar is still visible.
    if (y.scale === 'log' && values.length > 0) values.push(Math.min(...values) / 5);
    const frame = frameLayout(width, height, legend, { zero: true, ...y }, values);
    const band = scaleBand<number>()
      .domain(categories.map((_, i) => i))
      .range([0, frame.innerWidth])
      .paddingInner(0.25)
      .paddingOuter(0.12);
    const inner = scaleBand<number>()
      .domain(colored.map((_, i) => i))
      .range([0, band.bandwidth()])
      .padding(0.08);
    const notes = colored.flatMap((g) => {
      const bad = g.values.filter((v) => !drawable(v, y.scale)).length;
      const why = y.scale === 'log' ? 'not finite or ≤ 0 on a log axis' : 'not a finite number';
      return bad > 0 ? [`${bad === 1 ? '1 bar' : `${bad} bars`} of “${g.label}” not drawn (${why}).`] : [];
    });
    return { colored, legend, frame, band, inner, notes };
  }, [categories, groups, y, width, height]);

  const { frame, band, inner, colored } = chart;
  const { yScale, margin, innerWidth, innerHeight } = frame;
  const [d0] = yScale.domain();
  const base = yScale(y.scale === 'log' ? d0 : Math.max(d0, 0));
  const fmt = y.format ?? ((v: number) => formatSig(v, 3));
  const crosshair = useCrosshair(categories.length, (px) => {
    const step = band.step();
    const i = Math.floor((px - band.paddingOuter() * step) / step + band.paddingInner() / 2);
    return Math.max(0, Math.min(categories.length - 1, i));
  });
  const { index } = crosshair;

  const cx = index !== null ? (band(index) ?? 0) + band.bandwidth() / 2 : 0;
  // Many categories on a narrow chart: every n-th bar labelled so that no two labels overlap
  // (the shared thinning, measured in the page's font); the tooltip still names each one.
  const categoryLabels = categories.map((c, ci) => {
    const size = measureLabel(c, 12);
    return { text: c, x: categoryLabelX((band(ci) ?? 0) + band.bandwidth() / 2, size, innerWidth), size };
  });
  const showCategory = thinLabels(categoryLabels.map((l) => ({ centre: l.x, size: l.size })));
  return (
    <ChartFigure
      {...figure}
      crosshair={crosshair}
      notes={chart.notes}
      tooltip={
        index !== null && (
          <ChartTooltip
            {...tooltipBase}
            x={margin.left + cx}
            reach={band.bandwidth() / 2 + 8}
            top={margin.top + 6}
            head={`${x.label}: ${categories[index]}`}
            caption={frame.yTitle}
            rows={colored.map((g) => ({
              id: g.id,
              label: g.label,
              color: g.color,
              value: g.values[index],
              text: fmt(g.values[index]),
            }))}
          />
        )
      }
    >
      <Legend items={chart.legend} width={frame.legendWidth} x={margin.left} y={6} />
      <g transform={`translate(${margin.left},${margin.top})`}>
        <AxisLeft scale={yScale} ticks={frame.yTicks} width={innerWidth} title={frame.yTitle} titleOffset={frame.yTitleOffset} />
        {index !== null && (
          <rect
            className="no-export"
            x={band(index)}
            y={0}
            width={band.bandwidth()}
            height={innerHeight}
            fill={INK}
            fillOpacity={0.05}
          />
        )}
        {categories.map((c, ci) => (
          <g key={c} transform={`translate(${band(ci)},0)`} data-category={c}>
            {colored.map((g, gi) => {
              const v = g.values[ci];
              if (!drawable(v, y.scale)) return null;
              const top = Math.max(0, Math.min(innerHeight, yScale(v)));
              return (
                <g key={g.id} data-series={g.id}>
                  <rect
                    x={inner(gi)}
                    y={Math.min(top, base)}
                    width={inner.bandwidth()}
                    height={Math.abs(base - top)}
                    fill={g.color}
                    rx={2}
                  />
                  {valueLabels && (
                    <text
                      x={(inner(gi) ?? 0) + inner.bandwidth() / 2}
                      y={Math.min(top, base) - 4}
                      textAnchor="middle"
                      fontSize={10.5}
                      fill={INK_SOFT}
                      data-value={v}
                    >
                      {fmt(v)}
                    </text>
                  )}
                </g>
              );
            })}
          </g>
        ))}
        <g className="axis axis-x" transform={`translate(0,${innerHeight})`}>
          <line x2={innerWidth} stroke={INK_SOFT} />
          {categoryLabels.map((l, ci) =>
            showCategory[ci] ? (
              <text key={l.text} x={l.x} y={18} textAnchor="middle" fontSize={12} fill={INK_SOFT}>
                {l.text}
              </text>
            ) : null,
          )}
          <text className="axis-title" x={innerWidth / 2} y={38} textAnchor="middle" fontSize={13} fill={INK}>
            {columnTitle(x.label, x.unit)}
          </text>
        </g>
        <CrosshairHitArea width={innerWidth} height={innerHeight} crosshair={crosshair} />
      </g>
    </ChartFigure>
  );
}

/**
 * A category label's centre, moved in from the ends when it would reach more than a few pixels
 * past the plot (a long label on a phone), so it never runs off the chart.
 */
function categoryLabelX(centre: number, width: number, innerWidth: number): number {
  const half = width / 2;
  const slack = 12;
  if (half * 2 >= innerWidth + 2 * slack) return innerWidth / 2;
  return Math.min(innerWidth + slack - half, Math.max(half - slack, centre));
}

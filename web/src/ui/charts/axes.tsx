/** Axes drawn by React from d3 scales, so tick labels are real <text> a test (or a reader) finds. */
import { GRID, INK, INK_SOFT } from './palette';
import type { NumScale, Tick } from './scales';
import { thinHorizontal, thinVertical } from './tickLabels';

const FONT = 12;

export function AxisBottom({
  scale,
  ticks,
  height,
  title,
}: {
  scale: NumScale;
  ticks: readonly Tick[];
  height: number;
  title: string;
}) {
  const [r0, r1] = scale.range();
  // Labels that would touch a neighbour are dropped (the tick stays): none overprints another.
  const shown = thinHorizontal(ticks, scale, FONT);
  return (
    <g className="axis axis-x" transform={`translate(0,${height})`}>
      <line x1={r0} x2={r1} stroke={INK_SOFT} strokeWidth={1} />
      {shown.map((t, i) => (
        <g key={`${t.value}-${i}`} transform={`translate(${scale(t.value)},0)`}>
          <line y2={t.label ? 5 : 3} stroke={INK_SOFT} strokeWidth={1} />
          {t.label && (
            <text y={18} textAnchor="middle" fontSize={FONT} fill={INK_SOFT}>
              {t.label}
            </text>
          )}
        </g>
      ))}
      <text className="axis-title" x={(r0 + r1) / 2} y={38} textAnchor="middle" fontSize={FONT + 1} fill={INK}>
        {title}
      </text>
    </g>
  );
}

export function AxisLeft({
  scale,
  ticks,
  width,
  title,
  titleOffset,
}: {
  scale: NumScale;
  ticks: readonly Tick[];
  /** Inner width: grid lines run across it. */
  width: number;
  title: string;
  /** Distance of the rotated title from the axis line. */
  titleOffset: number;
}) {
  const [r0, r1] = scale.range();
  const shown = thinVertical(ticks, scale, FONT);
  return (
    <g className="axis axis-y">
      {shown.map((t, i) => (
        <g key={`${t.value}-${i}`} transform={`translate(0,${scale(t.value)})`}>
          {t.label && <line x2={width} stroke={GRID} strokeWidth={1} />}
          <line x1={t.label ? -5 : -3} stroke={INK_SOFT} strokeWidth={1} />
          {t.label && (
            <text x={-8} dy="0.32em" textAnchor="end" fontSize={FONT} fill={INK_SOFT}>
              {t.label}
            </text>
          )}
        </g>
      ))}
      <line y1={r0} y2={r1} stroke={INK_SOFT} strokeWidth={1} />
      <text
        className="axis-title"
        transform={`translate(${-titleOffset},${(r0 + r1) / 2}) rotate(-90)`}
        textAnchor="middle"
        fontSize={FONT + 1}
        fill={INK}
      >
        {title}
      </text>
    </g>
  );
}

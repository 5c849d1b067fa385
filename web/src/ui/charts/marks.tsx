import { INK } from './palette';
import { LINE_HEIGHT, type LabelPlacement } from './labelPlacement';
import type { Annotation } from './types';

/** A labelled point ("RocksDB default", "10 bits/key → 0.82%"): a ringed dot and its label where
 * placeLabels put it (clear of other labels and the curves, inside the plot), tied to its point by
 * a thin leader when it had to move; without a placement, just above it, flipped left near the
 * right edge. */
export function AnnotationMark({
  a,
  px,
  py,
  innerWidth,
  emphasis,
  placement,
  lines,
}: {
  a: Annotation;
  px: number;
  py: number;
  innerWidth: number;
  emphasis?: boolean;
  placement?: LabelPlacement;
  /** The label in lines (wrapLabel), when it is too long for one. */
  lines?: string[];
}) {
  if (!Number.isFinite(px) || !Number.isFinite(py)) return null;
  const color = a.color ?? INK;
  const anchor = placement?.anchor ?? (px > innerWidth * 0.62 ? 'end' : 'start');
  const y = placement?.y ?? py - 9;
  const x = placement?.x ?? (anchor === 'end' ? px - 9 : px + 9);
  // A label moved away from its point (to keep clear of labels and curves) is tied to it by a leader.
  const moved = a.label !== '' && (placement?.moved ?? false);
  const leaderY = y < py ? y + 3 + ((lines?.length ?? 1) - 1) * LINE_HEIGHT : y - 10;
  return (
    <g className="annotation" data-label={a.label}>
      {moved && <line className="leader" x1={px} y1={py} x2={x} y2={leaderY} stroke={color} strokeWidth={0.8} strokeOpacity={0.7} />}
      {emphasis && <circle cx={px} cy={py} r={9} fill="none" stroke={color} strokeWidth={1.5} strokeOpacity={0.5} />}
      <circle cx={px} cy={py} r={emphasis ? 5 : 4} fill={color} stroke="#fff" strokeWidth={1.5} />
      <text
        className="halo"
        x={x}
        y={y}
        textAnchor={anchor}
        fontSize={12}
        fontWeight={600}
        fill={color}
      >
        {lines && lines.length > 1
          ? lines.map((l, i) => (
              <tspan key={i} x={x} dy={i === 0 ? 0 : LINE_HEIGHT}>
                {l}
              </tspan>
            ))
          : a.label}
      </text>
    </g>
  );
}

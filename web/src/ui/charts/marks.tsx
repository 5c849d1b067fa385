import { INK } from './palette';
import type { Annotation } from './types';

/** A labelled point ("RocksDB default", "10 bits/key → 0.82%"): a ringed dot and its label, the
 * label flipped to the left near the right edge so it stays inside the plot. */
export function AnnotationMark({
  a,
  px,
  py,
  innerWidth,
  emphasis,
  labelY,
}: {
  a: Annotation;
  px: number;
  py: number;
  innerWidth: number;
  emphasis?: boolean;
  /** Baseline of the label; default just above the point. */
  labelY?: number;
}) {
  if (!Number.isFinite(px) || !Number.isFinite(py)) return null;
  const right = px > innerWidth * 0.62;
  const color = a.color ?? INK;
  const y = labelY ?? py - 9;
  const x = right ? px - 9 : px + 9;
  // A label moved away from its point (to keep labels apart) is tied to it by a thin leader.
  const moved = a.label !== '' && Math.abs(y - (py - 9)) > 2;
  return (
    <g className="annotation" data-label={a.label}>
      {moved && <line className="leader" x1={px} y1={py} x2={x} y2={y - 4} stroke={color} strokeWidth={0.8} strokeOpacity={0.7} />}
      {emphasis && <circle cx={px} cy={py} r={9} fill="none" stroke={color} strokeWidth={1.5} strokeOpacity={0.5} />}
      <circle cx={px} cy={py} r={emphasis ? 5 : 4} fill={color} stroke="#fff" strokeWidth={1.5} />
      <text
        className="halo"
        x={x}
        y={y}
        textAnchor={right ? 'end' : 'start'}
        fontSize={12}
        fontWeight={600}
        fill={color}
      >
        {a.label}
      </text>
    </g>
  );
}

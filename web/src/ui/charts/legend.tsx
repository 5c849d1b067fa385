/**
 * The legend is part of the SVG (not HTML around it) so exported images are self-explanatory.
 * Items wrap onto rows by estimated text width.
 */
import { INK } from './palette';
import { textWidth } from './scales';

export interface LegendItem {
  id: string;
  label: string;
  color: string;
  kind: 'line' | 'marker' | 'bar';
  dash?: string;
}

const ROW = 18;
const SWATCH = 22;

export function legendLayout(items: readonly LegendItem[], width: number) {
  const pos: { x: number; y: number }[] = [];
  let x = 0;
  let y = 0;
  for (const item of items) {
    const w = SWATCH + 6 + textWidth(item.label) + 18;
    if (x > 0 && x + w > width) {
      x = 0;
      y += ROW;
    }
    pos.push({ x, y });
    x += w;
  }
  return { pos, height: items.length === 0 ? 0 : y + ROW };
}

export function Legend({ items, width, x, y }: { items: readonly LegendItem[]; width: number; x: number; y: number }) {
  const { pos } = legendLayout(items, width);
  return (
    <g className="legend" transform={`translate(${x},${y})`}>
      {items.map((item, i) => (
        <g key={item.id} transform={`translate(${pos[i].x},${pos[i].y})`} data-series={item.id}>
          {item.kind === 'line' && (
            <line x1={0} x2={SWATCH} y1={9} y2={9} stroke={item.color} strokeWidth={2.5} strokeDasharray={item.dash} />
          )}
          {item.kind === 'marker' && (
            <circle cx={SWATCH / 2} cy={9} r={4} fill="#fff" stroke={item.color} strokeWidth={2} />
          )}
          {item.kind === 'bar' && <rect x={4} y={3} width={14} height={12} rx={2} fill={item.color} />}
          <text x={SWATCH + 6} y={9} dy="0.32em" fontSize={12} fill={INK}>
            {item.label}
          </text>
        </g>
      ))}
    </g>
  );
}

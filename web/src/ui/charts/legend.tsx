/**
 * The legend is part of the SVG (not HTML around it) so exported images are self-explanatory.
 * Items wrap onto rows by estimated text width.
 */
import { INK } from './palette';
import { wrapLabel } from './labelPlacement';
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

/** A label split at spaces into lines that fit `width`, measured as the legend draws it. */
const wrapText = (label: string, width: number): string[] => wrapLabel(label, width, (t) => textWidth(t));

export function legendLayout(items: readonly LegendItem[], width: number) {
  const pos: { x: number; y: number; lines: string[] }[] = [];
  let x = 0;
  let y = 0;
  let rowLines = 1;
  for (const item of items) {
    // An item wider than the whole legend (a long name on a phone) wraps onto lines of its own.
    const lines = wrapText(item.label, Math.max(40, width - SWATCH - 10));
    const w = SWATCH + 6 + Math.max(...lines.map((l) => textWidth(l))) + 18;
    if (x > 0 && x + w > width) {
      x = 0;
      y += ROW * rowLines;
      rowLines = 1;
    }
    pos.push({ x, y, lines });
    rowLines = Math.max(rowLines, lines.length);
    x += w;
  }
  return { pos, height: items.length === 0 ? 0 : y + ROW * rowLines };
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
            {pos[i].lines.length > 1
              ? pos[i].lines.map((l, k) => (
                  <tspan key={k} x={SWATCH + 6} dy={k === 0 ? '0.32em' : ROW}>
                    {l}
                  </tspan>
                ))
              : item.label}
          </text>
        </g>
      ))}
    </g>
  );
}

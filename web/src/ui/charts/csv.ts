/**
 * CSV of what a chart plots, with units in the header row (`bits per key (bits/key)`). Numbers
 * keep full precision; values a chart would not draw (NaN, Infinity) are left empty.
 */
import type { BarChartProps, LineChartProps, ScatterChartProps } from './types';

export type Cell = string | number | null | undefined;

export function csvCell(v: Cell): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  return /[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

export function toCsv(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  return [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\n') + '\n';
}

export function columnTitle(label: string, unit?: string): string {
  return unit ? `${label} (${unit})` : label;
}

const axisTitle = (a: { label: string; unit?: string }) => columnTitle(a.label, a.unit);

/**
 * Wide form (one x column, one column per series) when every series has the same x values, which
 * is what spreadsheets plot most easily; long form (series, x, y) otherwise.
 */
export function lineChartCsv({ x, y, series }: Pick<LineChartProps, 'x' | 'y' | 'series'>): string {
  const first = series[0]?.points ?? [];
  const shared = series.every(
    (s) => s.points.length === first.length && s.points.every((p, i) => p.x === first[i].x),
  );
  if (shared && series.length > 0) {
    const header = [axisTitle(x), ...series.map((s) => columnTitle(s.label, y.unit))];
    const rows = first.map((p, i) => [p.x, ...series.map((s) => s.points[i].y)]);
    return toCsv(header, rows);
  }
  const rows = series.flatMap((s) => s.points.map((p) => [s.label, p.x, p.y]));
  return toCsv(['series', axisTitle(x), axisTitle(y)], rows);
}

export function barChartCsv({ x, y, categories, groups }: Pick<BarChartProps, 'x' | 'y' | 'categories' | 'groups'>): string {
  const header = [axisTitle(x), ...groups.map((g) => columnTitle(g.label, y.unit))];
  const rows = categories.map((c, i) => [c, ...groups.map((g) => g.values[i])]);
  return toCsv(header, rows);
}

export function scatterChartCsv({
  x,
  y,
  series,
  highlight,
}: Pick<ScatterChartProps, 'x' | 'y' | 'series' | 'highlight'>): string {
  const rows: Cell[][] = series.flatMap((s) => s.points.map((p) => [s.label, p.x, p.y, p.label ?? '']));
  if (highlight) rows.push(['highlight', highlight.x, highlight.y, highlight.label]);
  return toCsv(['series', axisTitle(x), axisTitle(y), 'label'], rows);
}

export interface TableColumn<R> {
  key: keyof R & string;
  label: string;
  unit?: string;
}

export function tableCsv<R extends Record<string, Cell>>(columns: readonly TableColumn<R>[], rows: readonly R[]): string {
  return toCsv(
    columns.map((c) => columnTitle(c.label, c.unit)),
    rows.map((r) => columns.map((c) => r[c.key])),
  );
}

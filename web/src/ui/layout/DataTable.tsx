/**
 * A table of numbers: units in the header, numeric columns right-aligned in tabular figures,
 * optional CSV of exactly the rows shown.
 */
import type { ReactNode } from 'react';
import type { Cell } from '../charts/csv';
import { ScrollRegion } from './ScrollRegion';

export interface Column<R> {
  key: keyof R & string;
  label: string;
  unit?: string;
  /** Right-align and format as a number. Default: true when the first row's value is a number. */
  numeric?: boolean;
  format?: (value: R[keyof R & string], row: R) => ReactNode;
}

export function DataTable<R extends Record<string, Cell>>({
  columns,
  rows,
  caption,
  testId,
  rowKey,
  highlight,
  label,
}: {
  columns: readonly Column<R>[];
  rows: readonly R[];
  caption?: ReactNode;
  testId?: string;
  rowKey: (row: R, index: number) => string;
  /** Rows to emphasise (the current setting). */
  highlight?: (row: R) => boolean;
  /** The name of its scroll region when it is wider than the screen; default the caption or the test id in words. */
  label?: string;
}) {
  const numeric = (c: Column<R>) => c.numeric ?? typeof rows[0]?.[c.key] === 'number';
  return (
    <ScrollRegion label={label ?? (typeof caption === 'string' ? caption : `Table: ${(testId ?? 'values').replace(/-/g, ' ')}`)}>
      <table className="data-table" data-testid={testId}>
        {caption && <caption>{caption}</caption>}
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" className={numeric(c) ? 'num' : undefined}>
                {c.label}
                {c.unit && <span className="th-unit">{c.unit}</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={rowKey(r, i)} className={highlight?.(r) ? 'current' : undefined}>
              {columns.map((c) => (
                <td key={c.key} className={numeric(c) ? 'num' : undefined} data-value={typeof r[c.key] === 'number' ? String(r[c.key]) : undefined}>
                  {c.format ? c.format(r[c.key], r) : String(r[c.key] ?? '')}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

/** Colours, dash patterns and small pieces shared by the Monkey pages' cards. */
import type { ReactNode } from 'react';
import { SERIES_COLORS } from '../../charts/palette';
import { exportFileName } from '../../export/filename';
import { downloadText } from '../../export/svg';
import { usePageInfo } from '../../layout/pageContext';

export const MONKEY_COLOR = SERIES_COLORS[0];
export const UNIFORM_COLOR = '#5d6b7f';
export const ACCENT_COLOR = SERIES_COLORS[1];
/** The design the holistic search chose. */
export const CHOSEN_COLOR = SERIES_COLORS[2];
/** Closed forms are drawn dashed in the colour of the allocation they describe. */
export const CLOSED_DASH = '6 4';

/** The card header status of a sweep: "computing…" or the model's message. */
export function sweepStatus(computing: boolean, error: string | null): ReactNode {
  if (error) return <span className="error">{error}</span>;
  return computing ? 'computing…' : undefined;
}

export function Placeholder({ height }: { height: number }) {
  return (
    <div className="chart-placeholder" style={{ height }}>
      computing…
    </div>
  );
}

/**
 * A card holding a table: title, caption, the table, and a CSV download of exactly its rows
 * (ChartCard's SVG/PNG buttons need a chart, so tables get their own card).
 */
export function TableCard({
  id,
  title,
  caption,
  csv,
  wide,
  children,
}: {
  id: string;
  title: string;
  caption?: ReactNode;
  csv: () => string;
  wide?: boolean;
  children: ReactNode;
}) {
  const { page, query } = usePageInfo();
  return (
    <article className={`card chart-card${wide ? ' wide' : ''}`} data-testid={`card-${id}`} aria-labelledby={`${id}-title`}>
      <header className="card-head">
        <div>
          <h2 id={`${id}-title`}>{title}</h2>
          {caption && <p className="caption">{caption}</p>}
        </div>
        <div className="card-tools">
          <div className="export-buttons" role="group" aria-label={`Download ${title}`}>
            <button
              type="button"
              className="ghost"
              onClick={() => downloadText(csv(), exportFileName(page, id, query, 'csv'), 'text/csv')}
              aria-label={`Download the data of ${title} as CSV`}
            >
              CSV
            </button>
          </div>
        </div>
      </header>
      {children}
    </article>
  );
}

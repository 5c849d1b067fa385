/**
 * A card holding a table: title, caption, the table and a CSV download of its rows. ChartCard's
 * SVG/PNG buttons need a drawn chart, so tables get this card instead.
 */
import type { ReactNode } from 'react';
import { exportFileName } from '../../export/filename';
import { downloadText } from '../../export/svg';
import { usePageInfo } from '../../layout/pageContext';

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

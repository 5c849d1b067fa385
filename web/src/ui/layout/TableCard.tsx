/**
 * A card holding a table: title, caption, the table, and a CSV download of exactly its rows
 * (ChartCard's SVG/PNG buttons need a drawn chart, so tables get this card instead).
 */
import { exportFileName } from '../download/filename';
import { downloadText } from '../download/svg';
import { DownloadableCard, type DownloadableCardProps } from './DownloadableCard';
import { usePageInfo } from './pageContext';

export interface TableCardProps extends Omit<DownloadableCardProps, 'downloads' | 'status'> {
  /** The CSV of exactly the rows shown; a function so it is only built when asked for. */
  csv: () => string;
}

export function TableCard({ csv, children, ...card }: TableCardProps) {
  const { id, title } = card;
  const { page, query } = usePageInfo();
  return (
    <DownloadableCard
      {...card}
      downloads={
        <button
          type="button"
          className="ghost"
          onClick={() => downloadText(csv(), exportFileName(page, id, query, 'csv'), 'text/csv')}
          aria-label={`Download the data of ${title} as CSV`}
        >
          CSV
        </button>
      }
    >
      {children}
    </DownloadableCard>
  );
}

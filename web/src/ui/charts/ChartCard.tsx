/**
 * A chart in a card: title, a one-line caption, the chart, and downloads of exactly what is drawn
 * (SVG, PNG at 2× or the screen's pixel ratio, CSV of the plotted series). Files are named after
 * the page, the chart and the page's URL state.
 */
import { useRef, useState, type ReactNode } from 'react';
import { exportFileName } from '../download/filename';
import { downloadBlob, downloadText, serializeSvg, svgToPng } from '../download/svg';
import { DownloadableCard, type DownloadableCardProps } from '../layout/DownloadableCard';
import { usePageInfo } from '../layout/pageContext';

export interface ChartCardProps extends Omit<DownloadableCardProps, 'downloads'> {
  /** The CSV of the plotted series; a function so it is only built when asked for. */
  csv?: () => string;
  /** Under the chart: a read-out, a table, a note. */
  footer?: ReactNode;
}

export function ChartCard({ csv, footer, children, ...card }: ChartCardProps) {
  const { id, title } = card;
  const { page, query } = usePageInfo();
  const body = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<string | null>(null);

  const svg = (): SVGSVGElement | null => body.current?.querySelector('svg.chart-svg') ?? null;
  const name = (ext: 'svg' | 'png' | 'csv') => exportFileName(page, id, query, ext);

  const run = (what: string, job: () => Promise<void> | void) => async () => {
    setError(null);
    try {
      await job();
    } catch (err) {
      setError(`${what} export failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  const exportSvg = run('SVG', () => {
    const el = svg();
    if (!el) throw new Error('no chart is drawn');
    downloadText(serializeSvg(el).text, name('svg'), 'image/svg+xml');
  });
  const exportPng = run('PNG', async () => {
    const el = svg();
    if (!el) throw new Error('no chart is drawn');
    const { text, width, height } = serializeSvg(el);
    const scale = Math.max(2, Math.min(4, window.devicePixelRatio || 1));
    downloadBlob(await svgToPng(text, width, height, scale), name('png'));
  });
  const exportCsv = run('CSV', () => {
    if (csv) downloadText(csv(), name('csv'), 'text/csv');
  });

  return (
    <DownloadableCard
      {...card}
      downloads={
        <>
          <button type="button" className="ghost" onClick={exportSvg} aria-label={`Download ${title} as SVG`}>
            SVG
          </button>
          <button type="button" className="ghost" onClick={exportPng} aria-label={`Download ${title} as PNG`}>
            PNG
          </button>
          {csv && (
            <button type="button" className="ghost" onClick={exportCsv} aria-label={`Download the data of ${title} as CSV`}>
              CSV
            </button>
          )}
        </>
      }
    >
      <div ref={body}>{children}</div>
      {footer}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </DownloadableCard>
  );
}

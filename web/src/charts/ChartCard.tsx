/**
 * A chart in a card: title, a one-line caption, the chart, and downloads of exactly what is drawn
 * (SVG, PNG at 2× or the screen's pixel ratio, CSV of the plotted series). Files are named after
 * the page, the chart and the page's URL state.
 */
import { useRef, useState, type ReactNode } from 'react';
import { exportFileName } from '../export/filename';
import { downloadBlob, downloadText, serializeSvg, svgToPng } from '../export/svg';
import { usePageInfo } from '../layout/pageContext';

export interface ChartCardProps {
  /** Short id of the chart, used in file names and test ids: "bloom-fpr". */
  id: string;
  title: string;
  caption?: ReactNode;
  /** The CSV of the plotted series; a function so it is only built when asked for. */
  csv?: () => string;
  /** Shown in the header, e.g. "computing…". */
  status?: ReactNode;
  /** Span both columns of the page grid. */
  wide?: boolean;
  children: ReactNode;
  /** Under the chart: a read-out, a table, a note. */
  footer?: ReactNode;
}

export function ChartCard({ id, title, caption, csv, status, wide, children, footer }: ChartCardProps) {
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
    <article className={`card chart-card${wide ? ' wide' : ''}`} data-testid={`card-${id}`} aria-labelledby={`${id}-title`}>
      <header className="card-head">
        <div>
          <h2 id={`${id}-title`}>{title}</h2>
          {caption && <p className="caption">{caption}</p>}
        </div>
        <div className="card-tools">
          {status && <span className="card-status">{status}</span>}
          <div className="export-buttons" role="group" aria-label={`Download ${title}`}>
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
          </div>
        </div>
      </header>
      <div ref={body}>{children}</div>
      {footer}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </article>
  );
}

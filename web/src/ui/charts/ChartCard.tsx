/**
 * A chart in a card: title, a one-line caption, the chart, and downloads of exactly what is drawn
 * (SVG, PNG at 2× or the screen's pixel ratio, CSV of the plotted series). Files are named after
 * the page, the chart and the page's URL state.
 */
import { useRef, useState, type CSSProperties, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { exportFileName } from '../download/filename';
import { downloadBlob, downloadText, serializeSvg, svgToPng } from '../download/svg';
import { DownloadableCard, type DownloadableCardProps } from '../layout/DownloadableCard';
import { usePageInfo } from '../layout/pageContext';
import { embedLink, isPresenterKey, useFullscreen, useFullscreenToggle, usePresentableCharts, useViewportSize } from '../layout/presenter';
import { useClipboardCopy } from '../download/useClipboardCopy';
import { ErrorAlert } from '../layout/ErrorAlert';

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
  const present = usePresenter(id, title, page, query, body);

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
      tools={present.tools}
      presenting={present.on}
      cardRef={present.cardRef}
      onKeyDown={present.onKeyDown}
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
      <div ref={body} className="chart-card-body" style={present.style} data-zoom={present.on ? present.zoom.toFixed(2) : undefined}>
        {children}
      </div>
      {footer}
      <ErrorAlert error={error} />
    </DownloadableCard>
  );
}

/** Largest enlargement in presenter mode: past it a chart's type is bigger than a slide needs. */
const MAX_ZOOM = 3;

/**
 * Presenter mode for a chart card where the page offers it (ui/layout/presenter.ts): F or the
 * button puts the card full screen, and the chart is enlarged (CSS zoom: it lays itself out at
 * 1/zoom of the screen's width, so its type and marks grow together) to fill the screen's height;
 * Escape or F again leaves. The embed link shows the chart alone.
 */
function usePresenter(id: string, title: string, page: string, query: string, body: RefObject<HTMLDivElement | null>) {
  const enabled = usePresentableCharts();
  const cardRef = useRef<HTMLElement>(null);
  const on = useFullscreen(cardRef);
  const toggle = useFullscreenToggle(cardRef);
  const viewport = useViewportSize();
  const natural = useRef(0);
  const embedCopy = useClipboardCopy();
  if (!enabled) return { on: false, tools: undefined, cardRef: undefined, onKeyDown: undefined, style: undefined, zoom: 1 };

  const start = () => {
    // The chart's height as drawn in the page, before any enlargement.
    if (!document.fullscreenElement) natural.current = body.current?.offsetHeight ?? 0;
    toggle();
  };
  // Room for the card's header above the chart, at presenter sizes.
  const room = viewport.height - 170;
  const zoom = on && natural.current > 0 ? Math.max(1, Math.min(MAX_ZOOM, room / natural.current)) : 1;
  const style: CSSProperties | undefined = on ? { zoom } : undefined;
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if ((e.key === 'f' || e.key === 'F') && isPresenterKey(e)) {
      e.preventDefault();
      start();
    }
  };
  const tools = (
    <div className="present-buttons" role="group" aria-label={`Present ${title}`}>
      <button
        type="button"
        className="ghost"
        onClick={start}
        title="Presenter mode: this chart full screen and large, for a projector (key F; Escape leaves)"
        data-testid={`present-${id}`}
      >
        {on ? 'Exit full screen' : 'Full screen'}
      </button>
      <button
        type="button"
        className="ghost"
        onClick={() => void embedCopy.copy(embedLink(page, query, id))}
        title="A link that shows only this chart, without controls — for slides and course pages"
        data-testid={`embed-${id}`}
      >
        {embedCopy.status === 'ok' ? 'Embed link copied' : 'Embed link'}
      </button>
    </div>
  );
  return { on, tools, cardRef, onKeyDown, style, zoom };
}

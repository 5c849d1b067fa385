/**
 * The frame of an explorer page: title and lede, link notices, a sticky controls panel on the left
 * (with presets, Copy link and Reset) and the charts and tables on the right. Below 900 px the
 * panel stacks above the content; on a phone (≤ 720 px) it is folded behind a "Show the controls"
 * button, so the first result shows on the first screen.
 */
import { useId, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { Schema } from '../../documents/url/params';
import type { UrlState } from '../state/useUrlState';
import { PageContext } from './pageContext';
import { UrlToolbar } from './UrlToolbar';
import { PageHeading } from './PageHeading';

export interface PageProps<S extends Schema> {
  title: string;
  /**
   * The page at a glance, first under the title: the question it answers and what to try first, in
   * one sentence each. The lede below it keeps the detail.
   */
  question?: ReactNode;
  /** Under the question: what the page shows, in more detail. */
  lede: ReactNode;
  url: UrlState<S>;
  /** The controls, usually ControlGroups of ParamControls. */
  controls: ReactNode;
  children: ReactNode;
}

export function Page<S extends Schema>({ title, question, lede, url, controls, children }: PageProps<S>) {
  // On a phone the controls fold away behind one button, so the first result is on the first screen.
  const [controlsOpen, setControlsOpen] = useState(false);
  const phone = usePhone();
  const bodyId = useId();
  return (
    <PageContext.Provider value={{ page: url.spec.page, query: url.query }}>
      <section className="page" data-testid={`page-${url.spec.page}`}>
        <header className="page-header">
          <PageHeading>{title}</PageHeading>
          {question && (
            <p className="page-question" data-testid="page-question">
              {question}
            </p>
          )}
          {phone ? (
            // On a phone the question is the first screen's words; the lede folds away so a chart follows it.
            <details className="lede-fold" data-testid="lede-fold">
              <summary>More about this page</summary>
              <p className="lede">{lede}</p>
            </details>
          ) : (
            <p className="lede">{lede}</p>
          )}
        </header>
        {url.notices.length > 0 && (
          <div className="notice" role="status" data-testid="url-notices">
            <div>
              <strong>Some settings in this link could not be used.</strong>
              <ul>
                {url.notices.map((n) => (
                  <li key={n}>{n}</li>
                ))}
              </ul>
            </div>
            <button type="button" className="ghost" onClick={url.dismissNotices} aria-label="Dismiss link notices">
              Dismiss
            </button>
          </div>
        )}
        <div className="page-body">
          <aside className={`controls-panel${controlsOpen ? '' : ' folded'}`} aria-label="Controls">
            <button type="button" className="controls-toggle" aria-expanded={controlsOpen} aria-controls={bodyId} onClick={() => setControlsOpen((o) => !o)} data-testid="controls-toggle">
              {controlsOpen ? 'Hide the controls' : 'Show the controls'}
            </button>
            <div className="controls-body" id={bodyId}>
              <UrlToolbar url={url} />
              {controls}
            </div>
          </aside>
          <div className="page-content">{children}</div>
        </div>
      </section>
    </PageContext.Provider>
  );
}

const PHONE = '(max-width: 720px)';
const subscribePhone = (onChange: () => void) => {
  const m = window.matchMedia(PHONE);
  m.addEventListener('change', onChange);
  return () => m.removeEventListener('change', onChange);
};

/** A phone-width screen (the width at which the header and the controls fold, styles.css). */
function usePhone(): boolean {
  return useSyncExternalStore(subscribePhone, () => window.matchMedia(PHONE).matches, () => false);
}

/** A responsive grid of cards: two columns on wide screens, one on narrow ones. */
export function CardGrid({ children }: { children: ReactNode }) {
  return <div className="card-grid">{children}</div>;
}

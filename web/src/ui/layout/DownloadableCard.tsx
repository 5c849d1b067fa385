/**
 * The frame of every card that offers its content as files: a title, a one-line caption, an
 * optional status ("computing…") and a group of download buttons in the header, then the body.
 * ChartCard and TableCard differ only in the buttons and the body they put in it.
 */
import type { KeyboardEventHandler, ReactNode, Ref } from 'react';
import { Detail } from './Detail';

export interface DownloadableCardProps {
  /** Short id of the card, used in file names and test ids (`card-<id>`). */
  id: string;
  title: string;
  caption?: ReactNode;
  /** Shown in the header, e.g. "computing…". */
  status?: ReactNode;
  /** Span both columns of the page grid. */
  wide?: boolean;
  /** The download buttons, grouped under "Download <title>". */
  downloads: ReactNode;
  /**
   * The paper-level detail of what the card shows (equations, algorithm and figure numbers), in a
   * disclosure under it: the caption says what to see, this says how it is computed.
   */
  detail?: ReactNode;
  /** Buttons before the downloads (presenter mode's Full screen and embed link). */
  tools?: ReactNode;
  /** Presenter mode: the card is full screen (ui/layout/presenter.ts). */
  presenting?: boolean;
  cardRef?: Ref<HTMLElement>;
  onKeyDown?: KeyboardEventHandler<HTMLElement>;
  children: ReactNode;
}

export function DownloadableCard({ id, title, caption, status, wide, downloads, detail, tools, presenting, cardRef, onKeyDown, children }: DownloadableCardProps) {
  return (
    <article
      className={`card chart-card${wide ? ' wide' : ''}${presenting ? ' presenting' : ''}`}
      data-testid={`card-${id}`}
      aria-labelledby={`${id}-title`}
      ref={cardRef}
      onKeyDown={onKeyDown}
    >
      <header className="card-head">
        <div>
          <h2 id={`${id}-title`}>{title}</h2>
          {caption && <p className="caption">{caption}</p>}
        </div>
        <div className="card-tools">
          {status && <span className="card-status">{status}</span>}
          {tools}
          <div className="export-buttons" role="group" aria-label={`Download ${title}`}>
            {downloads}
          </div>
        </div>
      </header>
      {children}
      {detail && <Detail testId={`card-${id}-detail`}>{detail}</Detail>}
    </article>
  );
}

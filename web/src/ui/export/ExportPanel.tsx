/**
 * Export a design for native builds: one tab per format (engine JSON, RocksDB OPTIONS, C++ filter
 * policy, db_bench script) with its download, a copy button, everything the target cannot express
 * next to them, and a preview of the file. The files are the engine's own output (the same Rust as
 * `lsm export`), downloaded as the worker returns them, so they match the CLI byte for byte.
 */
import { useDeferredValue, useId, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { ExportFormat } from '../../engine/protocol';
import type { Workload } from '../../documents/engine';
import type { ExportDesign } from '../../documents/designs/exportDesigns';

export type { ExportDesign };
import { downloadText } from '../download/svg';
import { useClipboardCopy } from '../download/useClipboardCopy';
import { designFileName, EXPORT_FORMATS, formatInfo } from '../../documents/exportFormats';
import { labLink } from '../../documents/urls/labDocuments';
import { tuneLink } from '../../documents/urls/tune';
import { tabBadge, warningHeadline } from './panelState';
import { EXAMPLE_WORKLOADS } from '../../documents/sources';
import { useExampleWorkload, useExports, type WorkloadChoice } from './useExports';
import { WarningList } from './WarningList';
import './export-ui.css';


export interface ExportPanelProps {
  /** One design, or several to choose from (e.g. the user's layout and Smoose's). */
  designs: readonly ExportDesign[];
  /**
   * The workload, when the page decides it (the export page, the lab). Left out, the panel offers
   * the example workloads itself (db_bench needs one; the RocksDB formats use it to size the tree).
   */
  workload?: Workload | null;
  /** The format tab, when the page keeps it (in its URL); otherwise the panel does. */
  format?: ExportFormat;
  onFormatChange?: (format: ExportFormat) => void;
  testId?: string;
}

function useControllable<T>(value: T | undefined, onChange: ((v: T) => void) | undefined, initial: T): [T, (v: T) => void] {
  const [own, setOwn] = useState(initial);
  return value === undefined ? [own, setOwn] : [value, (v: T) => onChange?.(v)];
}

export function ExportPanel({ designs, workload: fixedWorkload, format: formatProp, onFormatChange, testId = 'export-panel' }: ExportPanelProps) {
  const ids = useId();
  const [format, setFormat] = useControllable<ExportFormat>(formatProp, onFormatChange, 'rocksdb');
  const [designId, setDesignId] = useState(designs[0]?.id ?? '');
  const design = designs.find((d) => d.id === designId) ?? designs[0];
  const offersWorkloads = fixedWorkload === undefined;
  const [choice, setChoice] = useState<WorkloadChoice>('none');
  const example = useExampleWorkload(offersWorkloads ? choice : 'none');
  const workload = offersWorkloads ? example.workload : fixedWorkload;
  // A design that follows a slider is exported after the slider's own frame has been drawn.
  const config = useDeferredValue(design?.config ?? null);
  const exports = useExports(config, workload);
  const result = exports?.results[format];
  const info = formatInfo(format);
  const fileName = designFileName(format, design?.slug ?? 'design');

  const clipboard = useClipboardCopy();

  const tabId = (f: ExportFormat) => `${ids}-tab-${f}`;
  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    const i = EXPORT_FORMATS.findIndex((f) => f.format === format);
    const n = EXPORT_FORMATS.length;
    const next = e.key === 'ArrowRight' ? (i + 1) % n : e.key === 'ArrowLeft' ? (i + n - 1) % n : e.key === 'Home' ? 0 : e.key === 'End' ? n - 1 : -1;
    if (next < 0) return;
    e.preventDefault();
    const f = EXPORT_FORMATS[next].format;
    setFormat(f);
    document.getElementById(tabId(f))?.focus();
  };

  const shown = result?.status === 'ready' ? result : null;
  // Only the current design's file may be downloaded or copied.
  const ready = exports?.current ? shown : null;
  const busy = !exports?.current || result?.status === 'pending';
  return (
    <div className="export-panel" data-testid={testId}>
      {(designs.length > 1 || offersWorkloads) && (
        <div className="export-options">
          {designs.length > 1 && (
            <fieldset className="field segmented-field export-design-choice">
              <legend>Design</legend>
              <div className="segmented">
                {designs.map((d) => (
                  <label key={d.id} className="segment">
                    <input type="radio" name={`${ids}-design`} value={d.id} checked={d.id === design?.id} onChange={() => setDesignId(d.id)} />
                    <span>{d.label}</span>
                  </label>
                ))}
              </div>
            </fieldset>
          )}
          {offersWorkloads && (
            <div className="field select-field export-workload-choice">
              <div className="field-head">
                <label htmlFor={`${ids}-workload`}>Workload</label>
              </div>
              <select id={`${ids}-workload`} value={choice} onChange={(e) => setChoice(e.target.value as WorkloadChoice)} data-testid="export-workload">
                <option value="none">None (RocksDB’s default tree sizes)</option>
                {EXAMPLE_WORKLOADS.map((w) => (
                  <option key={w.id} value={w.id}>
                    {w.label}
                  </option>
                ))}
              </select>
              {example.error && <p className="field-msg field-error">{example.error}</p>}
            </div>
          )}
        </div>
      )}

      <div className="export-tabs" role="tablist" aria-label="Export format">
        {EXPORT_FORMATS.map((f) => {
          const badge = exports ? tabBadge(exports.results[f.format]) : null;
          const selected = f.format === format;
          return (
            <button
              key={f.format}
              id={tabId(f.format)}
              type="button"
              role="tab"
              className="export-tab"
              aria-selected={selected}
              aria-controls={`${ids}-panel`}
              tabIndex={selected ? 0 : -1}
              onClick={() => setFormat(f.format)}
              onKeyDown={onTabKey}
              data-testid={`export-tab-${f.format}`}
            >
              {f.label}
              {badge && (
                <span className="export-badge" aria-label={badge === '!' ? 'error' : `${badge} warnings`}>
                  {badge}
                </span>
              )}
            </button>
          );
        })}
      </div>

      <div
        className="export-body"
        role="tabpanel"
        id={`${ids}-panel`}
        aria-labelledby={tabId(format)}
        data-format={format}
        data-status={busy ? 'pending' : (result?.status ?? 'none')}
        data-workload={workload?.name ?? ''}
      >
        {!config ? (
          <p className="field-msg field-error" role="alert" data-testid="export-problem">
            {design?.problem ?? 'No design to export.'}
          </p>
        ) : (
          <div className="export-grid">
            <div className="export-side">
              <p className="export-desc">{info.description}</p>
              <div className="export-actions">
                <button
                  type="button"
                  className="primary"
                  disabled={!ready}
                  onClick={() => ready && downloadText(ready.text, fileName, info.mime)}
                  data-testid="export-download"
                  data-filename={fileName}
                >
                  Download {fileName}
                </button>
                <button type="button" disabled={!ready} onClick={() => ready && clipboard.copy(ready.text)} data-testid="export-copy">
                  Copy text
                </button>
              </div>
              <p className="export-copy-status" aria-live="polite">
                {clipboard.status === 'ok' && 'Copied to the clipboard.'}
                {clipboard.status === 'failed' && 'Copy failed: select the text in the preview.'}
              </p>
              {result?.status === 'needs-workload' && (
                <p className="field-msg" data-testid="export-needs-workload">
                  db_bench replays a workload: {offersWorkloads ? 'choose one above' : 'choose one in the controls'}.
                </p>
              )}
              {result?.status === 'failed' && (
                <p className="error" role="alert" data-testid="export-error">
                  The engine cannot export this design: {result.message}
                </p>
              )}
              {shown && (
                <section
                  className={`export-warnings${busy ? ' stale' : ''}`}
                  aria-label={`What ${info.target} cannot express`}
                  data-testid="export-warnings"
                  data-count={shown.warnings.length}
                >
                  <p className={`export-headline${shown.warnings.length === 0 ? ' lossless' : ''}`}>{warningHeadline(format, shown.warnings)}</p>
                  <WarningList warnings={shown.warnings} testId="export-warning-list" />
                </section>
              )}
              <div className="export-links">
                <a href={labLink(config, workload ?? undefined)} data-testid="export-lab-link">
                  Run in the lab →
                </a>
                <a href={tuneLink(config, workload ?? undefined)} data-testid="export-tune-link">
                  Tune for this →
                </a>
              </div>
            </div>
            <div className="export-preview-wrap">
              <pre className={`export-preview mono${busy ? ' stale' : ''}`} data-testid="export-preview" tabIndex={0} role="region" aria-label={`Preview of ${fileName}`} aria-busy={busy}>
                {shown ? shown.text : busy ? 'exporting…' : ''}
              </pre>
            </div>
          </div>
        )}
      </div>
    </div>
  );
}

/** The panel in a card (spanning both columns of a CardGrid), for the explorer pages. */
export function ExportCard({ title = 'Export this design', caption, ...panel }: ExportPanelProps & { title?: string; caption?: ReactNode }) {
  const id = useId();
  return (
    <article className="card chart-card wide export-card" data-testid="card-export" aria-labelledby={`${id}-title`}>
      <header className="card-head">
        <div>
          <h2 id={`${id}-title`}>{title}</h2>
          <p className="caption">
            {caption ??
              'Files for native builds, written by the engine itself: the same bytes as lsm export. Each tab lists what its target cannot express (dropped, rounded or approximated).'}
          </p>
        </div>
      </header>
      <ExportPanel {...panel} />
    </article>
  );
}

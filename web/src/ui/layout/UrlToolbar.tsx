/** Presets, "Copy link" and "Reset" at the top of the controls panel. */
import { useId } from 'react';
import { useClipboardCopy } from '../download/useClipboardCopy';
import type { Schema } from '../../documents/url/params';
import type { UrlState } from '../state/useUrlState';

export function UrlToolbar<S extends Schema>({ url }: { url: UrlState<S> }) {
  const presetId = useId();
  const clipboard = useClipboardCopy();

  const presets = url.spec.presets ?? [];
  return (
    <div className="url-toolbar">
      {presets.length > 0 && (
        <div className="field select-field preset-field">
          <div className="field-head">
            <label htmlFor={presetId}>Preset</label>
          </div>
          <select
            id={presetId}
            value={url.preset?.id ?? ''}
            onChange={(e) => {
              if (e.target.value) url.applyPreset(e.target.value);
            }}
          >
            <option value="" disabled>
              Custom settings
            </option>
            {presets.map((p) => (
              <option key={p.id} value={p.id} title={p.description}>
                {p.label}
              </option>
            ))}
          </select>
          {url.preset?.description && <p className="field-msg">{url.preset.description}</p>}
        </div>
      )}
      <div className="toolbar-buttons">
        <button
          type="button"
          onClick={() => clipboard.copy(url.link)}
          title="Copy a link to exactly this view"
        >
          Copy link
        </button>
        <button type="button" onClick={url.reset} title="Put every control back to its default">
          Reset
        </button>
      </div>
      <p className="toolbar-status" aria-live="polite">
        {clipboard.status === 'ok' && 'Link copied to the clipboard.'}
        {clipboard.status === 'failed' && (
          <>
            Copy failed; the link is in the address bar. <span className="mono">{url.link}</span>
          </>
        )}
      </p>
    </div>
  );
}

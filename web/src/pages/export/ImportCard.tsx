/**
 * Bring a design back: paste or upload an engine config (JSON) or a RocksDB OPTIONS file; the
 * engine reads it (the same code as `lsm import`) and the card shows the design, every key it did
 * not use, by name, and what was approximated on the way in. Then export it again or open it on
 * the Moose page.
 */
import { useId, useState, type ChangeEvent } from 'react';
import { engineClient } from '../../engine/client';
import type { Responses } from '../../engine/protocol';
import type { EngineConfig, Workload } from '../../documents/engine';
import { DesignSummary } from '../../ui/export/DesignSummary';
import { detectImportKind, type ImportKind } from '../../documents/importKind';
import { DESIGN_FILE } from '../../documents/fileCheck';
import { readTextFile } from '../../ui/controls/readTextFile';
import { WarningList } from '../../ui/export/WarningList';
import { MooseLink } from './MooseLink';

type Imported = Responses['import'];

const KINDS: { kind: ImportKind; label: string }[] = [
  { kind: 'engine', label: 'Engine JSON' },
  { kind: 'rocksdb', label: 'RocksDB OPTIONS' },
];

export function ImportCard({ workload, onExport }: { workload: Workload | null; onExport: (config: EngineConfig, source: string) => void }) {
  const ids = useId();
  const [text, setText] = useState('');
  const [kind, setKind] = useState<ImportKind>('rocksdb');
  const [source, setSource] = useState('pasted text');
  const [result, setResult] = useState<
    | { status: 'idle' }
    | { status: 'working' }
    | { status: 'done'; imported: Imported; source: string }
    | { status: 'error'; message: string }
    | { status: 'refused'; message: string }
  >({ status: 'idle' });

  const onText = (value: string) => {
    setText(value);
    setSource('pasted text');
    if (value.trim() !== '') setKind(detectImportKind(value));
  };
  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    // Checked before anything of it reaches the textarea: a binary or oversized file is refused
    // from its size and first bytes, an empty one is named as such.
    let content: string;
    try {
      content = await readTextFile(file, DESIGN_FILE);
    } catch (err) {
      setResult({ status: 'refused', message: err instanceof Error ? err.message : String(err) });
      return;
    }
    setResult({ status: 'idle' });
    setText(content);
    setSource(file.name);
    setKind(detectImportKind(content, file.name));
  };
  const run = async () => {
    setResult({ status: 'working' });
    try {
      const imported = await engineClient().call('import', { text, kind });
      setResult({ status: 'done', imported, source });
    } catch (err) {
      setResult({ status: 'error', message: err instanceof Error ? err.message : String(err) });
    }
  };

  return (
    <article className="card import-card" data-testid="card-import" aria-labelledby={`${ids}-title`}>
      <header className="card-head">
        <div>
          <h2 id={`${ids}-title`}>Import a design</h2>
          <p className="caption">
            Paste or upload an engine config (JSON) or a RocksDB OPTIONS file. The engine reads it with the same code as{' '}
            <span className="mono">lsm import</span>: keys it does not use are listed by name, never dropped silently, and every setting it had
            to approximate is listed too.
          </p>
        </div>
      </header>
      <div className="import-form">
        <div className="import-tools">
          <fieldset className="field segmented-field import-kind">
            <legend>Read as</legend>
            <div className="segmented">
              {KINDS.map((k) => (
                <label key={k.kind} className="segment">
                  <input type="radio" name={`${ids}-kind`} value={k.kind} checked={kind === k.kind} onChange={() => setKind(k.kind)} />
                  <span>{k.label}</span>
                </label>
              ))}
            </div>
          </fieldset>
          <label className="import-file">
            <span>Upload a file…</span>
            <input type="file" accept=".json,.ini,.txt,text/plain,application/json" onChange={onFile} data-testid="import-file" />
          </label>
        </div>
        <label className="import-text-label" htmlFor={`${ids}-text`}>
          Design text <span className="fine">({source})</span>
        </label>
        <textarea
          id={`${ids}-text`}
          className="import-text mono"
          rows={9}
          spellCheck={false}
          value={text}
          placeholder={'[CFOptions "default"]\n  write_buffer_size=67108864\n  …\n\nor {"kind": "lsm-navigator/engine-config", …}'}
          onChange={(e) => onText(e.target.value)}
          data-testid="import-text"
        />
        <div className="import-actions">
          <button type="button" className="primary" onClick={run} disabled={text.trim() === '' || result.status === 'working'} data-testid="import-run">
            {result.status === 'working' ? 'Reading…' : `Import as ${KINDS.find((k) => k.kind === kind)?.label}`}
          </button>
        </div>
      </div>
      {result.status === 'refused' && (
        <p className="error" role="alert" data-testid="import-error">
          Not read: {result.message}
        </p>
      )}
      {result.status === 'error' && (
        <p className="error" role="alert" data-testid="import-error">
          The engine could not read this design: {result.message}
        </p>
      )}
      {result.status === 'done' && (
        <section className="import-result" aria-label="Imported design" data-testid="import-result">
          <div className="import-grid">
            <DesignSummary config={result.imported.config} testId="import-summary" />
            <div className="import-report">
              <h3>Keys not used ({result.imported.unknown_keys.length})</h3>
              {result.imported.unknown_keys.length === 0 ? (
                <p className="field-msg" data-testid="import-unknown-none">
                  None: every key was read.
                </p>
              ) : (
                <ul className="import-unknown" data-testid="import-unknown-keys">
                  {result.imported.unknown_keys.map((k) => (
                    <li key={k}>
                      <code>{k}</code>
                    </li>
                  ))}
                </ul>
              )}
              <h3>Approximated on the way in ({result.imported.warnings.length})</h3>
              {result.imported.warnings.length === 0 ? (
                <p className="field-msg">Nothing.</p>
              ) : (
                <WarningList warnings={result.imported.warnings} testId="import-warnings" />
              )}
              <div className="import-next">
                <button type="button" className="primary" onClick={() => onExport(result.imported.config, result.source)} data-testid="import-export">
                  Export this design
                </button>
                <MooseLink config={result.imported.config} workload={workload} testId="import-moose-link" />
              </div>
            </div>
          </div>
        </section>
      )}
    </article>
  );
}

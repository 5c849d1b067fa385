/** Warnings from the engine's exporter or importer: the kind, the field it concerns, the message. */
import type { ExportWarning } from '../../documents/engine';

export function WarningList({ warnings, testId }: { warnings: readonly ExportWarning[]; testId?: string }) {
  if (warnings.length === 0) return null;
  return (
    <ul className="export-warning-list" data-testid={testId}>
      {warnings.map((w, i) => (
        <li key={`${w.field}-${i}`} data-kind={w.kind} data-field={w.field}>
          <span className={`warn-kind warn-${w.kind}`}>{w.kind}</span>
          <code className="warn-field">{w.field}</code>
          <span className="warn-message">{w.message}</span>
        </li>
      ))}
    </ul>
  );
}

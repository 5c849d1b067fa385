/**
 * Key numbers in large type ("FPR at 10 bits/key: 0.819%"). Each value carries its exact number
 * in `data-value`, for tests and for copying.
 */
import type { ReactNode } from 'react';

export interface ReadoutItem {
  label: ReactNode;
  /** The exact number behind the text (omit for non-numeric read-outs). */
  value?: number;
  text: ReactNode;
  testId?: string;
  hint?: string;
}

export function Readouts({ items, label }: { items: readonly ReadoutItem[]; label?: string }) {
  return (
    <dl className="readouts" aria-label={label}>
      {items.map((r, i) => (
        <div className="readout" key={i} title={r.hint}>
          <dt>{r.label}</dt>
          <dd data-testid={r.testId} data-value={r.value}>
            {r.text}
          </dd>
        </div>
      ))}
    </dl>
  );
}

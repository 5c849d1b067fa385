/**
 * The paper-level detail of what is shown (equations, algorithm and figure numbers, derivations),
 * folded under a summary: what is shown first says what to see, this says how it is computed.
 * Cards use it through DownloadableCard's `detail`; sections and panels use it directly.
 */
import type { ReactNode } from 'react';

export function Detail({ summary = 'How this is computed', testId, children }: { summary?: string; testId?: string; children: ReactNode }) {
  return (
    <details className="card-detail" data-testid={testId}>
      <summary>{summary}</summary>
      <div className="caption">{children}</div>
    </details>
  );
}

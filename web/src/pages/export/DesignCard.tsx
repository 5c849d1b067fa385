/** The design the export page is exporting: what it is and where else it can be opened. */
import type { ReactNode } from 'react';
import type { EngineConfig, Workload } from '../../documents/engine';
import { DesignSummary } from '../../ui/export/DesignSummary';
import { ChartPlaceholder } from '../../ui/layout/sweepStatus';
import { MooseLink } from './MooseLink';

export function DesignCard({
  title,
  caption,
  config,
  workload,
  problem,
}: {
  title: string;
  caption: ReactNode;
  config: EngineConfig | null;
  workload: Workload | null;
  problem: string | null;
}) {
  return (
    <article className="card design-card" data-testid="card-design" aria-labelledby="export-design-title">
      <header className="card-head">
        <div>
          <h2 id="export-design-title">{title}</h2>
          <p className="caption">{caption}</p>
        </div>
      </header>
      {problem && (
        <p className="field-msg field-error" role="alert" data-testid="design-problem">
          {problem}
        </p>
      )}
      {config && (
        <div className="export-design-body">
          <DesignSummary config={config} testId="design-summary" />
          <MooseLink config={config} workload={workload} testId="design-moose-link" />
        </div>
      )}
      {!config && !problem && <ChartPlaceholder height={120}>loading…</ChartPlaceholder>}
    </article>
  );
}

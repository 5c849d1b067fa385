/** "Open in the Moose page" for an engine design, or why the Moose page cannot show it. */
import { useMemo } from 'react';
import type { EngineConfig, Workload } from '../../documents/engine';
import { formatCount } from '../../documents/format';
import { mooseDatasetFor, mooseLinkFor } from '../../documents/urls/mooseLink';

export function MooseLink({ config, workload, testId }: { config: EngineConfig; workload: Workload | null; testId: string }) {
  const dataset = useMemo(() => mooseDatasetFor(config, workload), [config, workload]);
  const link = useMemo(() => mooseLinkFor(config, dataset), [config, dataset]);
  if ('problem' in link) {
    return (
      <p className="field-msg" data-testid={`${testId}-problem`}>
        {link.problem}
      </p>
    );
  }
  return (
    <div className="moose-link">
      <a href={link.hash} data-testid={testId}>
        Open in the Moose page →
      </a>
      <p className="field-msg">
        As a Moose level table for {formatCount(dataset.entries)} entries of {dataset.entryBytes} B{workload ? ' (the workload’s preload)' : ' (the Moose page’s data set)'}
        : {link.state.ratios.length} level{link.state.ratios.length === 1 ? '' : 's'}.{link.notes.length > 0 ? ` ${link.notes.join(' ')}` : ''}
      </p>
    </div>
  );
}

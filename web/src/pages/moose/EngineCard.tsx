/**
 * The current layout as the engine's EngineConfig JSON, with a copy button and the one thing the
 * engine does differently from the model (the last level's headroom).
 */
import { memo, useMemo } from 'react';
import type { Dataset, MooseLevel } from '@lsm/models';
import { useClipboardCopy } from '../../ui/download/useClipboardCopy';
import { formatCount, formatSig } from '../../documents/format';
import { ENGINE_LAST_LEVEL_HEADROOM, engineConfigJson, engineConfigProblem, mooseEngineHeadroom, mooseLayoutToEngineConfig } from '../../documents/designs/moose';

function build(dataset: Dataset, levels: readonly MooseLevel[], bufferBytes: number) {
  try {
    const config = mooseLayoutToEngineConfig(dataset, levels, bufferBytes);
    return { config, headroom: mooseEngineHeadroom(dataset, levels, bufferBytes), problem: engineConfigProblem(config) };
  } catch (err) {
    return { config: null, headroom: null, problem: err instanceof Error ? err.message : String(err) };
  }
}

export const EngineCard = memo(function EngineCard({
  dataset,
  levels,
  bufferBytes,
}: {
  dataset: Dataset;
  levels: readonly MooseLevel[];
  bufferBytes: number;
}) {
  const { config, headroom, problem } = useMemo(() => build(dataset, levels, bufferBytes), [dataset, levels, bufferBytes]);
  const json = config ? engineConfigJson(config) : '';
  const clipboard = useClipboardCopy();

  return (
    <article className="card chart-card wide" data-testid="card-engine" aria-labelledby="engine-title">
      <header className="card-head">
        <div>
          <h2 id="engine-title">Engine config for your layout</h2>
          <p className="caption">
            The EngineConfig the workload lab and the native <span className="mono">lsm</span> CLI read: per level size_ratio, max_runs (the
            engine’s run capacity is capacity ÷ max_runs, as in Moose) and explicit bits_per_key.
          </p>
        </div>
        <div className="card-tools">
          <button type="button" onClick={() => clipboard.copy(json)} disabled={!config} data-testid="copy-config">
            Copy JSON
          </button>
          <span className="card-status" aria-live="polite">
            {clipboard.status === 'ok' && 'Copied.'}
            {clipboard.status === 'failed' && 'Copy failed: select the text below.'}
          </span>
        </div>
      </header>
      {problem && (
        <p className="field-msg field-error" role="alert" data-testid="engine-problem">
          {problem}
        </p>
      )}
      {config && (
        <pre className="mono config-json" data-testid="engine-config" tabIndex={0} role="region" aria-label="Engine config (JSON)">
          {json}
        </pre>
      )}
      {headroom && (
        <p className="field-msg" data-testid="engine-note">
          The engine merges a full level into a new one, so level {levels.length}’s size ratio is raised from {formatSig(headroom.layoutRatio, 6)} to{' '}
          {formatSig(headroom.engineRatio, 6)}: capacity {formatCount(headroom.engineCapacity)} ≥ {ENGINE_LAST_LEVEL_HEADROOM}× the{' '}
          {formatCount(headroom.lastEntries)} entries it holds.
        </p>
      )}
    </article>
  );
});

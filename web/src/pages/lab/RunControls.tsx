/**
 * The run tab's side panel: load a design, then every EngineConfig and Workload field, then where
 * to run. Fields that do not apply (per-level bits without per-level allocation, a file size
 * without merges by file, skew without a skewed distribution) are hidden rather than ignored.
 */
import { ControlGroup, KeyPopularityControls, ParamControl } from '../../ui/controls';
import type { UrlState } from '../../ui/state/useUrlState';
import { formatPercent } from '../../documents/format';
import { DocumentImport } from './DocumentImport';
import type { LabSchema } from '../../documents/urls/lab';
import type { RunResult } from './results';

export function RunControls({ url, onReport }: { url: UrlState<LabSchema>; onReport: (r: RunResult) => void }) {
  const s = url.state;
  const mixSum = s.insert + s.update + s.remove + s.getExisting + s.getMissing + s.range;
  const mixOk = Math.abs(mixSum - 1) < 1e-9;
  return (
    <>
      <ControlGroup title="Documents">
        <DocumentImport onPatch={url.patch} onReport={onReport} counts={{ records: url.state.preload, operations: url.state.operations }} />
      </ControlGroup>
      <ControlGroup title="Design">
        <ParamControl {...url.bind('pageBytes')} />
        <ParamControl {...url.bind('bufferKiB')} />
        <ParamControl {...url.bind('sizeRatios')} />
        <ParamControl {...url.bind('maxRuns')} />
        <ParamControl {...url.bind('allocation')} variant="select" />
        {s.allocation === 'explicit' ? <ParamControl {...url.bind('levelBits')} /> : <ParamControl {...url.bind('bits')} />}
        {s.allocation === 'monkey' && <ParamControl {...url.bind('monkeyPolicy')} />}
        {s.allocation === 'monkey' && s.monkeyPolicy === 'reoptimised' && <ParamControl {...url.bind('rebuildPayback')} noSlider />}
        <ParamControl {...url.bind('granularity')} />
        {s.granularity === 'file' && <ParamControl {...url.bind('fileKiB')} />}
        <details className="more-controls">
          <summary>Filters, cache and statistics</summary>
          <ParamControl {...url.bind('filterKind')} />
          {s.filterKind === 'modular' && (
            <>
              <ParamControl {...url.bind('modules')} />
              <ParamControl {...url.bind('skip')} />
            </>
          )}
          <ParamControl {...url.bind('cacheKiB')} noSlider />
          {s.cacheKiB > 0 && (
            <>
              <ParamControl {...url.bind('cacheMeta')} />
              <ParamControl {...url.bind('highPriority')} />
            </>
          )}
          <ParamControl {...url.bind('window')} />
        </details>
      </ControlGroup>
      <ControlGroup title="Workload">
        <ParamControl {...url.bind('preload')} noSlider />
        <ParamControl {...url.bind('keySpace')} noSlider />
        <ParamControl {...url.bind('operations')} noSlider />
        <ParamControl {...url.bind('keyBytes')} noSlider />
        <ParamControl {...url.bind('valueBytes')} noSlider />
        <fieldset className="mix-fields">
          <legend>
            Operation mix{' '}
            <span className={mixOk ? 'mix-sum ok' : 'mix-sum bad'} data-testid="mix-sum">
              Σ = {formatPercent(mixSum, 4)}
            </span>
          </legend>
          <ParamControl {...url.bind('getMissing')} noSlider />
          <ParamControl {...url.bind('getExisting')} noSlider />
          <ParamControl {...url.bind('insert')} noSlider />
          <ParamControl {...url.bind('update')} noSlider />
          <ParamControl {...url.bind('remove')} noSlider />
          <ParamControl {...url.bind('range')} noSlider />
        </fieldset>
        {s.range > 0 && <ParamControl {...url.bind('selectivity')} noSlider />}
        <KeyPopularityControls url={url} />
        <ParamControl {...url.bind('seed')} noSlider />
      </ControlGroup>
    </>
  );
}

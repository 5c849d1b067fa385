/**
 * Your workload's numbers, as imported or fitted, each one open to override: the operation mix,
 * the key popularity, sizes and counts. They live in the page's URL, so a link carries them.
 */
import { formatSig } from '../../documents/format';
import type { TuneSchema } from '../../documents/urls/tune';
import { ControlGroup } from '../../ui/controls/ControlGroup';
import { KeyPopularityControls } from '../../ui/controls/KeyPopularityControls';
import { ParamControl } from '../../ui/controls/ParamControl';
import type { UrlState } from '../../ui/state/useUrlState';

export function YourWorkloadControls({ url, problems, onReset }: { url: UrlState<TuneSchema>; problems: string[]; onReset?: () => void }) {
  const s = url.state;
  const total = s.getMissing + s.getExisting + s.range + s.insert + s.update + s.remove;
  return (
    <ControlGroup title="Your workload (override any number)">
      <ParamControl {...url.bind('records')} noSlider />
      <ParamControl {...url.bind('operations')} noSlider />
      <ParamControl {...url.bind('getMissing')} />
      <ParamControl {...url.bind('getExisting')} />
      <ParamControl {...url.bind('range')} />
      <ParamControl {...url.bind('insert')} />
      <ParamControl {...url.bind('update')} />
      <ParamControl {...url.bind('remove')} />
      {problems.length > 0 ? (
        <p className="field-msg field-error" role="alert" data-testid="tune-workload-problem">
          {problems.join('; ')}. Tune keeps the last workload that could run.
        </p>
      ) : (
        <p className="field-msg" data-testid="tune-mix-total">
          Mix total {formatSig(total * 100, 6)}%.
        </p>
      )}
      <KeyPopularityControls url={url} />
      {s.range > 0 && <ParamControl {...url.bind('selectivity')} noSlider />}
      <ParamControl {...url.bind('keyBytes')} noSlider />
      <ParamControl {...url.bind('valueBytes')} noSlider />
      <ParamControl {...url.bind('keySpace')} noSlider />
      <ParamControl {...url.bind('seed')} noSlider />
      {onReset && (
        <button type="button" onClick={onReset} data-testid="tune-workload-reset">
          Reset to the import
        </button>
      )}
    </ControlGroup>
  );
}

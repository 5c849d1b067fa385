/**
 * The "Workload" group of a page's controls: the four operation shares (./workloadMix), their
 * total or why they cannot be used, and the range selectivity.
 */
import { ControlGroup } from './ControlGroup';
import { ParamControl } from './ParamControl';
import { formatSig } from '../../documents/format';
import type { NumberParam, Schema } from '../../documents/url/params';
import type { UrlState } from '../state/useUrlState';
import { mixOf, mixProblem, mixTotal } from '../../documents/params/workloadMix';

type MixSchema = Schema & Record<'zeroResult' | 'nonZeroResult' | 'range' | 'update' | 'selectivity', NumberParam>;

export function WorkloadMixControls<S extends MixSchema>({
  url,
  whileInvalid,
  noSelectivitySlider,
}: {
  url: UrlState<S>;
  /** What the page shows while the shares do not add up ("The charts keep the last mix that added up."). */
  whileInvalid: string;
  noSelectivitySlider?: boolean;
}) {
  const mix = mixOf(url.state);
  const problem = mixProblem(mix);
  return (
    <ControlGroup title="Workload (% of operations)">
      <ParamControl {...url.bind('zeroResult')} />
      <ParamControl {...url.bind('nonZeroResult')} />
      <ParamControl {...url.bind('range')} />
      <ParamControl {...url.bind('update')} />
      {problem ? (
        <p className="field-msg field-error" role="alert" data-testid="mix-problem">
          {problem} {whileInvalid}
        </p>
      ) : (
        <p className="field-msg" data-testid="mix-total">
          Total {formatSig(mixTotal(mix), 6)}%.
        </p>
      )}
      <ParamControl {...url.bind('selectivity')} noSlider={noSelectivitySlider} />
    </ControlGroup>
  );
}

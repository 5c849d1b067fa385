/**
 * How a workload picks its keys: the distribution, and the parameters that one takes (θ for Zipf
 * and latest, the hot range and its share for hotspot). The lab's and the Tune page's workloads.
 */
import type { EnumParam, NumberParam, Schema } from '../../documents/url/params';
import type { UrlState } from '../state/useUrlState';
import { ParamControl } from './ParamControl';

type PopularitySchema = Schema & { distribution: EnumParam<'uniform' | 'zipf' | 'latest' | 'hotspot'> } & Record<'theta' | 'hotFraction' | 'hotProbability', NumberParam>;

export function KeyPopularityControls<S extends PopularitySchema>({ url }: { url: UrlState<S> }) {
  const d = url.state.distribution;
  return (
    <>
      <ParamControl {...url.bind('distribution')} />
      {(d === 'zipf' || d === 'latest') && <ParamControl {...url.bind('theta')} />}
      {d === 'hotspot' && (
        <>
          <ParamControl {...url.bind('hotFraction')} />
          <ParamControl {...url.bind('hotProbability')} />
        </>
      )}
    </>
  );
}

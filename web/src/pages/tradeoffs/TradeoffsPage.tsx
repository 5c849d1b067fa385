/**
 * Trade-off curves and holistic design: where every LSM design sits between lookup and update cost
 * (Monkey Fig 4/8, with the defaults of five systems), which design Monkey's Algorithm 1 picks for a
 * workload and a memory budget, and how much each optimisation step adds (Fig 11).
 */
import { useMemo } from 'react';
import type { MonkeySla } from '@lsm/models';
import { ControlGroup } from '../../ui/controls/ControlGroup';
import { ParamControl } from '../../ui/controls/ParamControl';
import { useSweep } from '../../compute/useSweep';
import { formatBytes, formatSig } from '../../documents/format';
import { holisticDesign } from '../../documents/designs/exportDesigns';
import { ExportCard } from '../../ui/export/ExportPanel';
import { CardGrid, Page } from '../../ui/layout/Page';
import { ChartPlaceholder } from '../../ui/layout/sweepStatus';
import { useLastValid } from '../../ui/state/useLastValid';
import { useUrlState } from '../../ui/state/useUrlState';
import { MIB } from '../../documents/params/monkey';
import { datasetOf, datasetProblem } from '../../documents/params/dataset';
import { DatasetControls } from '../../ui/controls/DatasetControls';
import { mixOf, mixProblem, workloadOf } from '../../documents/params/workloadMix';
import { WorkloadMixControls } from '../../ui/controls/WorkloadMixControls';
import { CandidatesCard, DesignPanel } from './DesignPanel';
import { tradeoffUrl } from '../../documents/urls/tradeoffs';
import { MEMORY_GRID, StepsCard } from './StepsCard';
import { TradeoffCard, type ChosenPoint } from './TradeoffCard';
import { UpdateCostCard } from './UpdateCostCard';

export function TradeoffsPage() {
  const url = useUrlState(tradeoffUrl);
  const s = url.state;

  const dataProblem = datasetProblem(s);
  const ds = useLastValid(datasetOf(s), dataProblem === null);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- memoised on the fields it reads: the last valid objects are new each render
  const dataset = useMemo(() => ds, [ds.entries, ds.entryBytes, ds.pageBytes]);

  const problem = mixProblem(mixOf(s));
  const mix = useLastValid(mixOf(s), problem === null);
  const workload = useMemo(
    () => workloadOf(mix, s.selectivity),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- memoised on the fields it reads: the last valid objects are new each render
    [mix.zeroResult, mix.nonZeroResult, mix.range, mix.update, s.selectivity],
  );
  const hardware = useMemo(() => ({ writeReadCostRatio: s.phi, pageReadSeconds: s.readMicros * 1e-6 }), [s.phi, s.readMicros]);
  const bufferBytes = s.bufferMiB * MIB;
  const memoryBytes = bufferBytes + (s.bits * dataset.entries) / 8;
  const sla = useMemo<MonkeySla>(
    () => ({ ...(s.maxLookup > 0 ? { maxLookupCost: s.maxLookup } : {}), ...(s.maxUpdate > 0 ? { maxUpdateCost: s.maxUpdate } : {}) }),
    [s.maxLookup, s.maxUpdate],
  );

  const curves = useSweep('tradeoffs.curves', { dataset, workload, hardware, bufferBytes, filterBitsPerEntry: s.bits });
  const holistic = useSweep('tradeoffs.holistic', { dataset, workload, hardware, memoryBytes, sla });
  const steps = useSweep('tradeoffs.memory', { dataset, workload, hardware, bitsPerEntry: MEMORY_GRID });

  const result = holistic.data;
  const chosen = useMemo<ChosenPoint | undefined>(
    () =>
      result && {
        update: result.costs.update,
        lookup: result.costs.zeroResultLookup,
        label: `holistic (${result.policy}, T = ${formatSig(result.sizeRatio, 3)})`,
      },
    [result],
  );
  const nonZeroPercent = workload.pointLookups === 0 ? 0 : workload.nonZeroFraction * 100;
  const exportDesigns = useMemo(() => (result ? [holisticDesign(dataset, result.design)] : []), [dataset, result]);

  return (
    <Page
      question="Which design gives the cheapest lookups for what its updates cost, and which is best for your workload? Try first: change the workload mix and see where the holistic design lands on the curves."
      title="Trade-off curves and holistic design"
      lede="Every LSM design trades lookup cost against update cost. See where the size ratio and merge policy put you, where five real systems sit by default, and which design Monkey’s holistic search picks for your workload and memory."
      url={url}
      controls={
        <>
          <WorkloadMixControls url={url} whileInvalid="The charts keep the last mix that added up." />
          <ControlGroup title="Device">
            <ParamControl {...url.bind('phi')} />
            <ParamControl {...url.bind('readMicros')} />
          </ControlGroup>
          <ControlGroup title="Memory">
            <ParamControl {...url.bind('bits')} />
            <ParamControl {...url.bind('bufferMiB')} />
            <p className="field-msg" data-testid="memory-total">
              Holistic search budget: {formatBytes(memoryBytes)} (buffer + filters).
            </p>
          </ControlGroup>
          <ControlGroup title="SLA (optional)">
            <ParamControl {...url.bind('maxLookup')} noSlider />
            <ParamControl {...url.bind('maxUpdate')} noSlider />
          </ControlGroup>
          <DatasetControls url={url} problem={dataProblem} />
        </>
      }
    >
      {holistic.error && (
        <p role="alert" className="error">
          {holistic.error}
        </p>
      )}
      {/* The answer first: the curves, with the holistic design on them; its numbers (θ, Z, R, W, Q) after. */}
      <div className="card-islands">
        <CardGrid>
          <TradeoffCard
            data={curves.data}
            computing={curves.computing}
            error={curves.error}
            chosen={chosen}
            bits={s.bits}
            bufferBytes={bufferBytes}
          />
        </CardGrid>
      </div>
      {result ? (
        <DesignPanel
          result={result}
          dataset={dataset}
          memoryBytes={result.bufferBytes + result.filterBytes}
          nonZeroPercent={nonZeroPercent}
          busy={holistic.computing}
          stale={holistic.computing || problem !== null || dataProblem !== null}
        />
      ) : (
        <ChartPlaceholder height={220}>searching designs…</ChartPlaceholder>
      )}
      <div className="card-islands">
        <CardGrid>
          <StepsCard data={steps.data} computing={steps.computing} error={steps.error} memoryBits={(memoryBytes * 8) / dataset.entries} />
          {result && <CandidatesCard result={result} />}
          <UpdateCostCard />
          {result && (
            <ExportCard
              title="Export the holistic design"
              caption="The holistic design chosen above (Monkey Algorithm 1), as files for native builds: the same bytes as lsm export. Each tab lists what its target cannot express."
              designs={exportDesigns}
            />
          )}
        </CardGrid>
      </div>
    </Page>
  );
}

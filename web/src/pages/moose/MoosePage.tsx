/**
 * Moose design space (Liu et al., SIGMOD 2024): edit a per-level LSM layout (size ratio, runs and
 * filter bits of every level), see its point / range / update costs, where it sits among
 * leveling, tiering, lazy leveling and Moose structures, the RU-curve of its capacities, what
 * Smoose picks for the workload, and the engine config that builds it.
 */
import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { ControlGroup } from '../../ui/controls/ControlGroup';
import { ParamControl } from '../../ui/controls/ParamControl';
import { useModel } from '../../compute/useModel';
import { useSweep } from '../../compute/useSweep';
import { compareDesigns, layoutView, type MooseEnv, type NamedLayout } from '../../compute/sweeps/moose';
import { checkDraft, roundBits, tableFromLayout, type TableEnv, type TableLevel } from '../../documents/mooseTable';
import { mooseDesign } from '../../documents/designs/exportDesigns';
import { ExportCard } from '../../ui/export/ExportPanel';
import { CardGrid, Page } from '../../ui/layout/Page';
import { defaultsOf } from '../../documents/url/params';
import { useLastValid } from '../../ui/state/useLastValid';
import { useUrlState } from '../../ui/state/useUrlState';
import { datasetOf } from '../../documents/params/dataset';
import { DatasetControls } from '../../ui/controls/DatasetControls';
import { mixOf, mixProblem, workloadOf } from '../../documents/params/workloadMix';
import { WorkloadMixControls } from '../../ui/controls/WorkloadMixControls';
import { BreakdownCards } from './Breakdown';
import type { MarkedDesign } from './common';
import { LastLevelCard, RuCard } from './CurveCharts';
import { EngineCard } from './EngineCard';
import { LayoutCard, type LayoutPreset } from './LayoutCard';
import { CompareCards, SmooseCard } from './SmooseSection';
import { SpaceCards } from './SpaceCharts';
import { mooseParams, mooseUrl } from '../../documents/urls/moose';
import { bufferBytesOf, datasetAndBufferProblem, draftOf, listsOf, listsProblem, tableOf } from './modelInputs';
import './moose.css';

const DEFAULTS = defaultsOf(mooseParams);

export function MoosePage() {
  const url = useUrlState(mooseUrl);
  const s = url.state;

  // ---- data set, memory, cost model
  const dataProblem = datasetAndBufferProblem(s);
  const data = useLastValid({ entries: s.entries, entryBytes: s.entryBytes, pageBytes: s.pageBytes, bufferBytes: bufferBytesOf(s) }, dataProblem === null);
  const env = useMemo<MooseEnv>(
    () => ({
      dataset: datasetOf({ ...s, ...data }),
      bufferBytes: data.bufferBytes,
      memoryBytes: (s.memoryBits * data.entries) / 8,
      updateModel: s.updateModel,
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- memoised on the fields it reads: the URL state object is new each render
    [data.entries, data.entryBytes, data.pageBytes, data.bufferBytes, s.memoryBits, s.updateModel],
  );
  const tableEnv = useMemo<TableEnv>(() => ({ dataset: env.dataset, bufferBytes: env.bufferBytes }), [env.dataset, env.bufferBytes]);
  const options = useMemo(() => ({ bufferBytes: env.bufferBytes, updateModel: env.updateModel }), [env.bufferBytes, env.updateModel]);

  // ---- workload
  const mixIssue = mixProblem(mixOf(s));
  const mix = useLastValid(mixOf(s), mixIssue === null);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- memoised on the fields it reads: the URL state object is new each render
  const workload = useMemo(() => workloadOf(mix, s.selectivity), [mix.zeroResult, mix.nonZeroResult, mix.range, mix.update, s.selectivity]);

  // ---- the level table; a hand-edited link with impossible lists falls back to the default table
  // eslint-disable-next-line react-hooks/exhaustive-deps -- memoised on the fields it reads: the URL state object is new each render
  const table = useMemo(() => tableOf(s), [s.ratios, s.runs, s.bits]);
  const [tableNotice, setTableNotice] = useState<string | null>(null);
  const linkIssue = useMemo(() => {
    const lists = listsProblem(s);
    if (lists) return lists;
    const cells = checkDraft(tableEnv, draftOf(table), !s.optimalFilters).rows.flatMap((r) => [r.ratio, r.runs, r.bits]).find((m) => m !== null);
    return cells ? `The link’s level table is not valid (${cells}).` : null;
  // eslint-disable-next-line react-hooks/exhaustive-deps -- memoised on the fields it reads: the URL state object is new each render
  }, [table, tableEnv, s.optimalFilters]);
  useEffect(() => {
    if (!linkIssue) return;
    setTableNotice(`${linkIssue} Using the default table.`);
    url.patch({ ratios: DEFAULTS.ratios, runs: DEFAULTS.runs, bits: DEFAULTS.bits });
  // eslint-disable-next-line react-hooks/exhaustive-deps -- url.patch is stable; only a new link issue resets the table
  }, [linkIssue]);
  const commit = (rows: TableLevel[]) => url.patch(listsOf(rows));

  // ---- the user's layout, evaluated on the main thread (a few µs)
  const view = useModel(
    () => layoutView({ ...env, workload, levels: table, optimalFilters: s.optimalFilters }),
    [env, workload, table, s.optimalFilters],
  );
  const stale = view.error !== null;
  const current = view.value;
  // The table and its read-outs answer each keystroke at once; the charts below follow in a
  // deferred, interruptible render so typing never waits for them.
  const shown = useDeferredValue(current);
  const setOptimal = (on: boolean) => {
    // Switching the split off starts the bits column from the split (of this very table).
    const split = !on && current && !stale && current.optimalBits.length === table.length ? current.optimalBits : null;
    if (split) url.patch({ optimalFilters: false, bits: split.map(roundBits) });
    else url.set('optimalFilters', on);
  };

  // ---- sweeps in the model worker
  const presets = useSweep('moose.presets', { dataset: env.dataset, bufferBytes: env.bufferBytes, sizeRatio: s.presetRatio, bitsPerEntry: s.memoryBits });
  const choice = useSweep('moose.smoose', { ...env, workload });
  const space = useSweep('moose.space', { ...env, workload });
  const ratios = useMemo(() => (current ? current.levels.map((l) => l.sizeRatio) : [...s.ratios]), [current, s.ratios]);
  const ru = useSweep('moose.ru', { ...env, sizeRatios: ratios });
  const lastLevel = useSweep('moose.lastLevel', { ...env, workload });

  const T = s.presetRatio;
  const smooseLevels = choice.data?.result.levels;
  const layoutPresets = useMemo<LayoutPreset[]>(() => {
    const p = presets.data;
    return [
      { id: 'leveling', label: `Leveling T = ${T}`, short: 'Leveling', title: 'One run per level (n_i = 1), optimal filters', levels: p?.leveling },
      { id: 'tiering', label: `Tiering T = ${T}`, short: 'Tiering', title: 'T runs per level (Moose’s convention n_i = T), optimal filters', levels: p?.tiering },
      { id: 'lazy', label: `Lazy leveling T = ${T}`, short: 'Lazy lev.', title: 'Dostoevsky: tiering above the last level, leveling at it', levels: p?.lazyLeveling },
      { id: 'moose', label: 'Moose default', short: 'Moose', title: 'N_L = 0.8N, Σ√r DP for the inner levels, n_i = round(√r_i) (k = 1)', levels: p?.moose },
      { id: 'smoose', label: 'Smoose for this workload', short: 'Smoose', title: 'The layout Smoose picks for the workload on the left', levels: smooseLevels },
    ];
  }, [presets.data, smooseLevels, T]);

  const designs = useModel(() => {
    if (!shown) return [];
    const named: NamedLayout[] = [{ id: 'yours', label: 'Your layout', short: 'Yours', levels: shown.levels }];
    for (const p of layoutPresets) if (p.levels) named.push({ id: p.id, label: p.id === 'smoose' ? 'Smoose' : p.label, short: p.short, levels: p.levels });
    return compareDesigns({ dataset: env.dataset, workload, options, designs: named });
  }, [shown, layoutPresets, env.dataset, workload, options]);

  const yours = useMemo<MarkedDesign | undefined>(
    () => shown && { label: 'your layout', zeroResultPoint: shown.costs.zeroResultPoint, range: shown.costs.range, update: shown.costs.update },
    [shown],
  );
  const smooseCosts = choice.data?.result.costs;
  const chosen = useMemo<MarkedDesign | undefined>(
    () => smooseCosts && { label: 'Smoose', zeroResultPoint: smooseCosts.zeroResultPoint, range: smooseCosts.range, update: smooseCosts.update },
    [smooseCosts],
  );
  const exportDesigns = useMemo(
    () => [
      mooseDesign('yours', 'Your layout', env.dataset, shown?.levels, env.bufferBytes),
      mooseDesign('smoose', 'Smoose’s choice', env.dataset, smooseLevels, env.bufferBytes),
    ],
    [env.dataset, env.bufferBytes, shown, smooseLevels],
  );
  const ruYours = useMemo(() => shown && { update: shown.costs.updatePaper, range: shown.costs.shortRange, label: 'your layout' }, [shown]);

  return (
    <Page
      question="What happens when every level gets its own size ratio, run count and filter bits? Try first: edit a row of the level table under the chart (or pick a preset) and watch your design’s bar move."
      title="Moose design space"
      lede="Give every level its own size ratio, run count and filter bits (Moose, SIGMOD 2024): see what that does to point lookups, range lookups and updates, where it sits among leveling, tiering and lazy leveling, and what Smoose would pick for your workload."
      url={url}
      controls={
        <>
          <WorkloadMixControls url={url} whileInvalid="The page keeps the last mix that added up." noSelectivitySlider />
          <ControlGroup title="Memory and cost model">
            <ParamControl {...url.bind('memoryBits')} />
            <ParamControl {...url.bind('updateModel')} />
          </ControlGroup>
          <ControlGroup title="Presets">
            <ParamControl {...url.bind('presetRatio')} />
          </ControlGroup>
          <DatasetControls url={url} problem={dataProblem}>
            <ParamControl {...url.bind('bufferMiB')} />
          </DatasetControls>
        </>
      }
    >
      {tableNotice && (
        <div className="notice" role="status" data-testid="table-notice">
          <span>{tableNotice}</span>
          <button type="button" className="ghost" onClick={() => setTableNotice(null)} aria-label="Dismiss the table notice">
            Dismiss
          </button>
        </div>
      )}
      {/* The answer first (your layout against the classic designs), then the level table that sets it. */}
      <div className="moose-cards moose-first">
        <CardGrid>
          <CompareCards designs={designs.value ?? []} stale={choice.computing || presets.computing} part="chart" />
        </CardGrid>
      </div>
      <LayoutCard
        env={tableEnv}
        table={table}
        optimalFilters={s.optimalFilters}
        onOptimalFilters={setOptimal}
        view={current}
        stale={stale}
        error={view.error}
        presets={layoutPresets}
        onCommit={commit}
      />
      <div className="moose-cards">
        <CardGrid>
          <SmooseCard
            data={choice.data}
            computing={choice.computing}
            error={choice.error}
            yoursWeighted={shown?.costs.weighted}
            onApply={() => smooseLevels && commit(tableFromLayout(tableEnv, smooseLevels))}
          />
          <CompareCards designs={designs.value ?? []} stale={choice.computing || presets.computing} part="table" />
          <SpaceCards
            data={space.data}
            computing={space.computing}
            error={space.error}
            paperUpdate={s.updateModel === 'paper'}
            yours={yours}
            chosen={chosen}
            memoryBits={s.memoryBits}
          />
          <RuCard data={ru.data} computing={ru.computing} error={ru.error} yours={ruYours} />
          <LastLevelCard
            data={lastLevel.data}
            computing={lastLevel.computing}
            error={lastLevel.error}
            yoursFraction={shown?.lastLevelFraction}
            smooseFraction={choice.data?.result.lastLevelFraction}
          />
          {shown && <BreakdownCards costs={shown.costs} stale={stale} />}
          {shown && <EngineCard dataset={env.dataset} levels={shown.levels} bufferBytes={env.bufferBytes} />}
          <ExportCard
            title="Export for RocksDB and the native engine"
            caption="Your layout or Smoose’s choice as files for native builds (the engine config above, converted by the engine: the same bytes as lsm export). Each tab lists what its target cannot express."
            designs={exportDesigns}
          />
        </CardGrid>
      </div>
    </Page>
  );
}

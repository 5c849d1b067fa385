/**
 * Write amplification (MSLS): the MSLS model of LevelDB-style leveled compaction against the
 * no-redundancy worst case, as the key count, skew and level sizes change; where the writes go;
 * and the level sizes that minimise them. The current design is evaluated on the main thread
 * (one model call); every sweep and the optimiser run in the model worker.
 */
import { useMemo, useRef } from 'react';
import type { MslsLevelParams } from '@lsm/models';
import { CardGrid } from '../../ui/layout/Page';
import { ControlGroup } from '../../ui/controls/ControlGroup';
import { ParamControl } from '../../ui/controls/ParamControl';
import { useSweep } from '../../compute/useSweep';
import { mslsPageDesigns } from '../../documents/designs/exportDesigns';
import { ExportCard } from '../../ui/export/ExportPanel';
import { Page } from '../../ui/layout/Page';
import { useUrlState } from '../../ui/state/useUrlState';
import { BreakdownCard } from './Breakdown';
import { EngineRunCard, LeveldbCard } from './Measured';
import { GrowthCard } from './Growth';
import { useLeveldbComparison } from './useLeveldbComparison';
import { RocksdbTwinCard } from './RocksdbTwin';
import { useRocksdbTwin } from './useRocksdbTwin';
import { OptimizeCard } from './Optimize';
import { DensityCard, UniqueCard } from './Primitives';
import { controlOfError, levelParams, mslsUrl, type MslsState } from '../../documents/urls/msls';
import { Summary } from './Summary';
import { KeysCard, LevelSizeCard, SkewCard } from './SweepCharts';
import './msls.css';

export function MslsPage() {
  const url = useUrlState(mslsUrl);
  const s = url.state;
  const params = useMemo(
    () => levelParams(s),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- memoised on the fields it reads: the URL state object is new each render
    [s.keys, s.dist, s.theta, s.entryBytes, s.bufferMiB, s.l0, s.level1MiB, s.growth, s.levels],
  );

  const current = useSweep('msls.current', { params }, { mode: 'main' });
  // Sweeps keep drawing the last design the model accepted while the controls hold an impossible
  // combination (e.g. more levels than N needs), so the page never blanks.
  const lastGood = useRef<MslsLevelParams>(params);
  if (current.error === null) lastGood.current = params;
  const good = lastGood.current;
  // The distribution is drawn by series inside a sweep; leaving it out of the arguments means
  // switching uniform ↔ Zipf does not recompute those sweeps.
  const shape: MslsLevelParams = { ...good, distribution: { kind: 'uniform' } };

  const optimize = useSweep('msls.optimize', { params: good });
  const leveldb = useLeveldbComparison();
  const rocksdbTwin = useRocksdbTwin();
  const keys = useSweep('msls.keys', { params: shape, theta: s.theta });
  const skew = useSweep('msls.skew', { params: shape, theta: s.theta });
  const levels = useSweep('msls.levels', { params: shape, theta: s.theta, axis: s.sweepAxis });
  const upperLevels = current.data ? current.data.msls.resolved.levelItems.slice(0, -1) : [];
  const primitives = useSweep('msls.primitives', {
    keySpace: good.keySpace,
    theta: s.theta,
    distribution: good.distribution ?? { kind: 'uniform' },
    levelItems: upperLevels,
  });

  // The export card: the user's level sizes, and the optimiser's once it has answered for them.
  const optimizedItems = optimize.computing ? undefined : optimize.data?.optimizedItems;
  const exportDesigns = useMemo(
    () => mslsPageDesigns(params, optimizedItems && { params: good, levelItems: optimizedItems }),
    [params, good, optimizedItems],
  );

  const data = current.data;
  const now = data ? { msls: data.msls.total, worst: data.worst.total, levels: data.msls.resolved.levels } : undefined;
  const errorControl = controlOfError(current.error);
  const control = (name: keyof MslsState) => (
    <>
      <ParamControl {...url.bind(name)} />
      {errorControl === name && (
        <p className="field-msg field-error" role="alert" data-testid="model-error">
          {current.error}
        </p>
      )}
    </>
  );

  return (
    <Page
      question="How many bytes does the tree write for every byte you insert? Try first: change the number of keys or the key distribution and compare the MSLS model with the worst case and the measurements."
      title="Write amplification (MSLS)"
      lede={
        <>
          How many bytes does LevelDB-style leveled compaction write per byte inserted? The MSLS model (Lim et al., FAST
          ’16) counts duplicate keys, the density gradient of round-robin compaction, level overflow and false
          overlaps; the textbook worst case counts none of them.
        </>
      }
      url={url}
      controls={
        <>
          <ControlGroup title="Workload">
            {control('keys')}
            {control('entryBytes')}
            {control('dist')}
            {control('theta')}
          </ControlGroup>
          <ControlGroup title="Tree (LevelDB options)">
            {control('bufferMiB')}
            {control('l0')}
            {control('level1MiB')}
            {control('growth')}
            {control('levels')}
          </ControlGroup>
          {current.error && errorControl === null && (
            <p className="field-msg field-error" role="alert" data-testid="model-error">
              {current.error}
            </p>
          )}
        </>
      }
    >
      <Summary s={s} current={data} error={current.error} optimize={optimize.data} />
      <CardGrid>
        <BreakdownCard result={data} s={s} />
        <EngineRunCard params={good} />
        <LeveldbCard comparison={leveldb} />
        <GrowthCard params={good} comparison={leveldb} />
        <RocksdbTwinCard twin={rocksdbTwin} />
        <KeysCard sweep={keys} s={s} now={now} />
        <SkewCard sweep={skew} s={s} now={now} />
        <LevelSizeCard sweep={levels} s={s} now={now} url={url} />
        <OptimizeCard sweep={optimize} s={s} />
        <UniqueCard sweep={primitives} s={s} walItems={data?.msls.resolved.walItems} />
        <DensityCard sweep={primitives} s={s} />
        <ExportCard
          title="Export this design for RocksDB and the native engine"
          caption="Your level sizes or the MSLS-optimized ones, as per-level size ratios with leveling and merges by file (the engine’s level 1 is LevelDB’s level 0), written by the engine: the same bytes as lsm export. The model has no pages, files or filters: the engine gets LevelDB’s 4 KiB pages, 2 MiB files and 10 bits/key. Each tab lists what its target cannot express."
          designs={exportDesigns}
        />
      </CardGrid>
    </Page>
  );
}

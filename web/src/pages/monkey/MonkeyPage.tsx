/**
 * Monkey vs state of the art: how much lookup I/O Monkey's filter allocation saves over giving
 * every level the same bits per entry, across memory, data size, buffer size and lookup mix —
 * the exact model of the finite tree next to the paper's closed forms.
 */
import { useDeferredValue, useMemo } from 'react';
import { ControlGroup } from '../../ui/controls/ControlGroup';
import { ParamControl } from '../../ui/controls/ParamControl';
import { useSweep } from '../../compute/useSweep';
import type { MonkeyPageDesign } from '../../compute/sweeps/monkey';
import { monkeyPageDesigns } from '../../documents/designs/exportDesigns';
import { ExportCard } from '../../ui/export/ExportPanel';
import { CardGrid, Page } from '../../ui/layout/Page';
import { useLastValid } from '../../ui/state/useLastValid';
import { useUrlState } from '../../ui/state/useUrlState';
import { datasetOf, datasetProblem } from '../../documents/params/dataset';
import { DatasetControls } from '../../ui/controls/DatasetControls';
import { MemoryCard } from './MemoryCard';
import { LevelCards } from './LevelCards';
import { MIB, policyOf } from '../../documents/params/monkey';
import { monkeyUrl } from '../../documents/urls/monkey';
import { Comparison, Headline } from './Summary';
import { FilterGrowthCard } from '../../ui/growth/FilterGrowthCard';
import { BufferLookupCard, BufferUpdateCard, DataSizeCard, MixCard } from './SweepCards';
import { ErrorAlert } from '../../ui/layout/ErrorAlert';

/** Fig 7's x axis: 0..12 bits/entry covers the paper's 0..8.75; wider only when the slider goes past it. */
function memoryAxisMax(bits: number): number {
  return bits <= 12 ? 12 : bits <= 24 ? 24 : 40;
}

export function MonkeyPage() {
  const url = useUrlState(monkeyUrl);
  const s = url.state;
  const problem = datasetProblem(s);

  // While the data set is impossible as a whole, keep drawing the last one that was possible.
  const { entries, entryBytes, pageBytes } = useLastValid(datasetOf(s), !problem);
  const dataset = useMemo(() => ({ entries, entryBytes, pageBytes }), [entries, entryBytes, pageBytes]);
  const policy = policyOf(s.policy);
  const bufferBytes = s.bufferMiB * MIB;
  const shape = useMemo(() => ({ policy, sizeRatio: s.sizeRatio, bufferBytes }), [policy, s.sizeRatio, bufferBytes]);
  const design = useMemo<MonkeyPageDesign>(() => ({ ...shape, filterBitsPerEntry: s.bits }), [shape, s.bits]);
  const nonZeroFraction = s.nonZeroPercent / 100;
  const growthDesign = useMemo(() => ({ policy, sizeRatio: s.sizeRatio, bitsPerEntry: s.bits }), [policy, s.sizeRatio, s.bits]);
  const exportDesigns = useMemo(() => monkeyPageDesigns(dataset, design), [dataset, design]);

  // Light: the current setting, on the main thread (it follows the slider frame by frame).
  const current = useSweep('monkey.current', { dataset, design, nonZeroFraction }, { mode: 'main' });
  // Curves: in the model worker, each only when its own inputs change (Fig 7 ignores the bits).
  const memory = useSweep('monkey.memory', { dataset, design: shape, maxBitsPerEntry: memoryAxisMax(s.bits), points: 10 * memoryAxisMax(s.bits) + 1 });
  const dataSize = useSweep('monkey.dataSize', { dataset: { entryBytes, pageBytes }, design });
  const buffer = useSweep('monkey.buffer', { dataset, design, points: 81 });
  const mix = useSweep('monkey.mix', { dataset, design, points: 101 });

  const view = current.data;
  // What sits below Fig 7 may trail a slider drag by a frame: React renders it after the urgent
  // update (the slider, the headline and Fig 7) has been painted, and drops stale renders.
  const laterView = useDeferredValue(view);
  return (
    <Page
      question="How much lookup I/O does Monkey’s filter allocation save over the same memory spread evenly? Try first: drag the filter-memory slider and compare the two curves of the first chart."
      title="Monkey vs state of the art"
      lede="Monkey gives each level of an LSM-tree the Bloom-filter bits that minimise lookup I/O for the same memory. Compare it with the uniform allocation of LevelDB, RocksDB and friends, on the exact model and on the paper’s formulas."
      url={url}
      controls={
        <>
          <DatasetControls url={url} problem={problem} />
          <ControlGroup title="Design">
            <ParamControl {...url.bind('policy')} />
            <ParamControl {...url.bind('sizeRatio')} />
            <ParamControl {...url.bind('bufferMiB')} />
          </ControlGroup>
          <ControlGroup title="Memory and lookups">
            <ParamControl {...url.bind('bits')} />
            <ParamControl {...url.bind('nonZeroPercent')} />
          </ControlGroup>
        </>
      }
    >
      <ErrorAlert error={current.error} />
      {view && (
        <>
          <Headline view={view} />
          <div className="card-islands">
            <CardGrid>
              <MemoryCard
                data={memory.data}
                computing={memory.computing}
                error={memory.error}
                bits={s.bits}
                entries={dataset.entries}
                thresholdBits={view.thresholdBitsPerEntry}
                monkeyR={view.exact.monkeyR}
                uniformR={view.exact.uniformR}
                policyLabel={policy}
                sizeRatio={s.sizeRatio}
                levels={view.levels}
              />
              {laterView && <Comparison view={laterView} />}
              {laterView && <LevelCards rows={laterView.rows} bits={laterView.filterBitsPerEntry} />}
              <DataSizeCard data={dataSize.data} computing={dataSize.computing} error={dataSize.error} entries={dataset.entries} />
              <FilterGrowthCard design={growthDesign} />
              <MixCard data={mix.data} computing={mix.computing} error={mix.error} percent={s.nonZeroPercent} />
              <BufferLookupCard data={buffer.data} computing={buffer.computing} error={buffer.error} bufferBytes={bufferBytes} />
              <BufferUpdateCard data={buffer.data} computing={buffer.computing} error={buffer.error} bufferBytes={bufferBytes} />
              <ExportCard
                title="Export this design for RocksDB and the native engine"
                caption="This page’s design (policy, T, buffer, filter memory) with Monkey’s filter allocation or the uniform one, as files for native builds: the same bytes as lsm export. Each tab lists what its target cannot express."
                designs={exportDesigns}
              />
            </CardGrid>
          </div>
        </>
      )}
    </Page>
  );
}

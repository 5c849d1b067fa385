/**
 * Memory pressure: what to do when filter memory is scarce. Section A (Mnemosyne) spends a fixed
 * filter budget where the lookups are; section B (SHaMBa) splits each filter into modules so the
 * cache can hold the part that answers most lookups. Every number comes from @lsm/models via
 * compute/sweeps/memory*.ts; the heavy sweeps and the solver timing run in the model worker.
 */
import { useMemo } from 'react';
import { shambaMaxModules } from '@lsm/models';
import { useSweep } from '../../compute/useSweep';
import { treeProblems } from '../../compute/sweeps/memoryTree';
import { SST } from '../../compute/sweeps/memoryShamba';
import { ControlGroup } from '../../ui/controls/ControlGroup';
import { memoryPageDesigns } from '../../documents/designs/exportDesigns';
import { ExportCard } from '../../ui/export/ExportPanel';
import { ParamControl } from '../../ui/controls/ParamControl';
import { formatBound } from '../../documents/url/validate';
import { CardGrid, Page } from '../../ui/layout/Page';
import { useLastValid } from '../../ui/state/useLastValid';
import { useUrlState } from '../../ui/state/useUrlState';
import { MnemosyneSection } from './MnemosyneSection';
import { ENGINE_SKIP_THRESHOLDS } from '../../documents/designs/memory';
import { ShambaSection } from './ShambaSection';
import { memoryTreeInput, memoryUrl } from '../../documents/urls/memory';
import './memory.css';

/** Budgets drawn on the SHaMBa chart, % of index + filter bytes (the paper sweeps 10–150 %). */
const BUDGETS = Array.from({ length: 141 }, (_, i) => 10 + i);

/** Why a combination of controls is impossible, shown right under the control it names. */
function Problem({ message, testId }: { message?: string | null; testId: string }) {
  if (!message) return null;
  return (
    <p className="field-msg field-error cross-field" role="alert" data-testid={testId}>
      {message}
    </p>
  );
}

export function MemoryPage() {
  const url = useUrlState(memoryUrl);
  const s = url.state;

  const treeNow = memoryTreeInput(s);
  const treeIssues = treeProblems(treeNow);
  const tree = useLastValid(treeNow, !treeIssues.files && !treeIssues.hotLevel);

  const maxModules = shambaMaxModules(SST.dataBlocks * SST.pageBytes, SST.entryBytes, s.shambaBits, SST.pageBytes);
  const moduleIssue =
    s.modules > maxModules
      ? `at ${formatBound(s.shambaBits)} bits/key a filter holds at most ${maxModules} module${maxModules === 1 ? '' : 's'}: each needs at least one hash probe and a whole page (SHaMBa §B.3.5)`
      : null;
  const filter = useLastValid({ modules: s.modules, bitsPerKey: s.shambaBits }, !moduleIssue);

  // Section A: the current allocation on the main thread (light); sweeps and timing in the worker.
  const view = useSweep('memory.mnemosyne', { tree, bitsPerKey: s.bits }, { mode: 'main' });
  const budgetSweep = useSweep('memory.mnemosyneBudget', { tree, maxBitsPerKey: Math.max(12, Math.ceil(s.bits)), step: 0.25 });
  // Timing blocks the worker for up to a second on big trees: wait for the controls to settle.
  const timing = useSweep('memory.solverTiming', { tree, bitsPerKey: s.bits, minMs: 15 }, { debounceMs: 500 });

  // Section B.
  const shambaArgs = {
    bitsPerKey: filter.bitsPerKey,
    modules: filter.modules,
    existingRatio: s.alpha,
    accessFrequency: s.beta,
    policy: s.skip,
    thresholdWhole: s.thetaWhole,
    thresholdLater: s.thetaLater,
  };
  const shamba = useSweep('memory.shamba', { ...shambaArgs, budgetFraction: s.budget / 100 }, { mode: 'main' });
  const shambaBudget = useSweep('memory.shambaBudget', { ...shambaArgs, budgetsPercent: BUDGETS });

  // The export card: the designs both sections show, from the same (last valid) inputs.
  const { sizeRatio, levels, filesInFirstLevel, entriesPerFile } = tree;
  const exportDesigns = useMemo(
    () =>
      memoryPageDesigns({ sizeRatio, levels, filesInFirstLevel, entriesPerFile }, s.bits, {
        bitsPerKey: filter.bitsPerKey,
        modules: filter.modules,
        skip: s.skip,
        budgetPercent: s.budget,
      }),
    [sizeRatio, levels, filesInFirstLevel, entriesPerFile, s.bits, filter.bitsPerKey, filter.modules, s.skip, s.budget],
  );
  const ownThresholds = s.thetaWhole !== ENGINE_SKIP_THRESHOLDS.whole || s.thetaLater !== ENGINE_SKIP_THRESHOLDS.later;

  return (
    <Page
      question="When memory for filters is scarce, where should the bits go? Try first: lower the memory budget and compare Mnemosyne with Monkey+ and uniform filters."
      title="Memory pressure: Mnemosyne and SHaMBa"
      lede="When filters do not fit in memory: spend the bits where the lookups are (Mnemosyne), and split each filter so the cache keeps the part that answers most lookups (SHaMBa). All numbers are computed live from the papers’ models."
      url={url}
      controls={
        <>
          <ControlGroup title="A · Tree">
            <ParamControl {...url.bind('sizeRatio')} />
            <ParamControl {...url.bind('levels')} />
            <ParamControl {...url.bind('filesL1')} />
            <Problem message={treeIssues.files} testId="problem-files" />
            <ParamControl {...url.bind('entriesPerFile')} />
          </ControlGroup>
          <ControlGroup title="A · Lookups">
            <ParamControl {...url.bind('skew')} />
            <ParamControl {...url.bind('emptyFraction')} />
            <ParamControl {...url.bind('foundAt')} />
            <ParamControl {...url.bind('hotLevel')} disabled={s.foundAt !== 'hot'} />
            <Problem message={treeIssues.hotLevel} testId="problem-hot-level" />
            <ParamControl {...url.bind('seed')} noSlider />
          </ControlGroup>
          <ControlGroup title="A · Filter memory">
            <ParamControl {...url.bind('bits')} />
          </ControlGroup>
          <ControlGroup title="B · Modular filter">
            <ParamControl {...url.bind('shambaBits')} />
            <ParamControl {...url.bind('modules')} />
            <Problem message={moduleIssue} testId="problem-modules" />
            <ParamControl {...url.bind('budget')} />
          </ControlGroup>
          <ControlGroup title="B · File statistics">
            <ParamControl {...url.bind('alpha')} />
            <ParamControl {...url.bind('beta')} />
          </ControlGroup>
          <ControlGroup title="B · Skipping">
            <ParamControl {...url.bind('skip')} />
            <ParamControl {...url.bind('thetaWhole')} />
            <ParamControl {...url.bind('thetaLater')} />
          </ControlGroup>
        </>
      }
    >
      <MnemosyneSection bits={s.bits} tree={tree} view={view} budgetSweep={budgetSweep} timing={timing} />
      <ShambaSection
        bitsPerKey={filter.bitsPerKey}
        modules={filter.modules}
        budget={s.budget}
        alpha={s.alpha}
        beta={s.beta}
        skip={s.skip}
        view={shamba}
        budgetSweep={shambaBudget}
      />
      <section className="memory-section" aria-label="Export">
        <CardGrid>
          <ExportCard
            title="Export these designs for RocksDB and the native engine"
            caption={
              <>
                Section A’s tree with Mnemosyne’s filter allocation, or the Monkey+ and uniform ones it is compared with; or section B’s
                SHaMBa filters on the same tree shape, with a block cache of {s.budget}% of the index and filter bytes. The engine
                measures α and β itself and skips modules at θ₁ = {ENGINE_SKIP_THRESHOLDS.whole}, θ₂ = {ENGINE_SKIP_THRESHOLDS.later} I/O
                {ownThresholds ? ' (not this page’s thresholds)' : ''}. Each tab lists what its target cannot express.
              </>
            }
            designs={exportDesigns}
          />
        </CardGrid>
      </section>
    </Page>
  );
}

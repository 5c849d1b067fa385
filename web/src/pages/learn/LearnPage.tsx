/**
 * Learn: LSM-trees from first principles. Each concept sits beside a live figure driven by the
 * controls on the left (kept in the URL), so a teacher can share a link to an exact view.
 */
import { ParamControl } from '../../ui/controls/ParamControl';
import { ControlGroup } from '../../ui/controls/ControlGroup';
import { useSweep } from '../../compute/useSweep';
import type { MergePolicy, TreeInput } from '../../compute/sweeps/learn';
import { Page } from '../../ui/layout/Page';
import { PresentableCharts } from '../../ui/layout/presenter';
import { useUrlState } from '../../ui/state/useUrlState';
import { teachingLink } from '../../documents/urls/teaching';
import { Toc } from './Toc';
import { BloomSection } from './sections/Bloom';
import { BufferSection, FenceSection, LevelsSection } from './sections/Basics';
import { MonkeySection } from './sections/Monkey';
import { MergeSection, SizeRatioSection } from './sections/Policies';
import { ENTRY_BYTES, learnUrl, MIB, PAGE_BYTES } from '../../documents/urls/learn';

export function LearnPage() {
  const url = useUrlState(learnUrl);
  const s = url.state;
  const policy: MergePolicy = s.policy === 'lev' ? 'leveling' : 'tiering';
  const base = { entries: s.entries, entryBytes: ENTRY_BYTES, bufferBytes: s.bufferMiB * MIB, sizeRatio: s.sizeRatio };
  const tree: TreeInput = { ...base, policy };

  // Light: the current tree and its two allocations, on the main thread.
  const lev = useSweep('learn.overview', { tree: { ...base, policy: 'leveling' }, bitsPerEntry: s.bits }, { mode: 'main' });
  const tier = useSweep('learn.overview', { tree: { ...base, policy: 'tiering' }, bitsPerEntry: s.bits }, { mode: 'main' });
  // Sweeps over a whole axis: in the model worker.
  const memory = useSweep('learn.memory', { tree, maxBitsPerEntry: 24, points: 97 });
  const sizeRatio = useSweep('learn.sizeRatio', {
    ...base,
    pageBytes: PAGE_BYTES,
    bitsPerEntry: s.bits,
    maxSizeRatio: 100,
  });

  const current = policy === 'leveling' ? lev.data : tier.data;
  const error = lev.error ?? tier.error;

  return (
    <Page
      question="How does an LSM-tree store data, and what does each of its knobs cost? Try first: move the size ratio or the bits per key, and watch every chart follow."
      title="Learn: how an LSM-tree works"
      lede="Seven ideas behind every LSM-tree key-value store, each next to a live model. Move the controls; every figure follows, and the link keeps your settings."
      url={url}
      controls={
        <>
          <ControlGroup title="Tree">
            <ParamControl {...url.bind('policy')} />
            <ParamControl {...url.bind('sizeRatio')} />
            <ParamControl {...url.bind('entries')} />
            <ParamControl {...url.bind('bufferMiB')} />
          </ControlGroup>
          <ControlGroup title="Filters">
            <ParamControl {...url.bind('bits')} />
          </ControlGroup>
          <Toc />
          <p className="learn-teach-link">
            <a href={teachingLink({ policy, sizeRatio: s.sizeRatio, bits: s.bits })} data-testid="learn-teach-link">
              Watch a real tree fill, flush and merge, step by step →
            </a>
          </p>
        </>
      }
    >
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {current && lev.data && tier.data && (
        // Every chart can be shown full screen and large (key F), or embedded alone: for a class.
        <PresentableCharts.Provider value={true}>
          <div className="concepts">
            <BufferSection bufferMiB={s.bufferMiB} entries={s.entries} />
            <LevelsSection shape={current.shape} sizeRatio={s.sizeRatio} policy={policy} entries={s.entries} />
            <FenceSection entries={s.entries} />
            <BloomSection bits={s.bits} />
            <MergeSection
              shape={current.shape}
              sizeRatio={s.sizeRatio}
              policy={policy}
              lookup={{ leveling: lev.data.uniform.lookupCost, tiering: tier.data.uniform.lookupCost }}
            />
            <SizeRatioSection sizeRatio={s.sizeRatio} sweep={sizeRatio} />
            <MonkeySection bits={s.bits} shape={current.shape} uniform={current.uniform} monkey={current.monkey} sweep={memory} />
          </div>
        </PresentableCharts.Provider>
      )}
    </Page>
  );
}

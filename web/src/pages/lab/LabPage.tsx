/**
 * The workload lab: run real workloads on the engine (memory, OPFS or IndexedDB), overlay what it
 * measured on what the models predict, sweep a parameter to redraw the papers' figures from
 * measurements, watch Mnemosyne against Monkey and uniform filters, and keep results and
 * databases across reloads.
 */
import { useEffect, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Page } from '../../ui/layout';
import { useUrlState } from '../../ui/state/useUrlState';
import { ComparePanel, CompareControls } from './ComparePanel';
import { DatabasesPanel } from './DatabasesPanel';
import { EngineCheckCard } from './EngineCheckCard';
import { useLabEngine } from '../../engine/session';
import type { CompareResult, LabResult, RunResult, SweepResult } from './results';
import { ResultsPanel } from './ResultsPanel';
import { RunControls } from './RunControls';
import { RunPanel } from './RunPanel';
import { labParams, labUrl, type LabState } from '../../documents/urls/lab';
import { SweepControls, SweepPanel } from './SweepPanel';
import './lab.css';

type Tab = LabState['tab'];
const TABS = labParams.tab.options;

function Tabs({ value, onChange, busy }: { value: Tab; onChange: (t: Tab) => void; busy: string | null }) {
  const onKey = (e: KeyboardEvent<HTMLButtonElement>, i: number) => {
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    e.preventDefault();
    const next = TABS[(i + step + TABS.length) % TABS.length].value;
    onChange(next);
    document.getElementById(`lab-tab-${next}`)?.focus();
  };
  return (
    <div className="lab-tabs" role="tablist" aria-label="Lab views">
      {TABS.map((t, i) => (
        <button
          key={t.value}
          id={`lab-tab-${t.value}`}
          type="button"
          role="tab"
          aria-selected={value === t.value}
          aria-controls={`lab-panel-${t.value}`}
          tabIndex={value === t.value ? 0 : -1}
          onClick={() => onChange(t.value)}
          onKeyDown={(e) => onKey(e, i)}
        >
          {t.label}
        </button>
      ))}
      {busy && (
        <span className="tab-busy" role="status">
          <span className="spinner" aria-hidden="true" /> {busy}
        </span>
      )}
    </div>
  );
}

function Panel({ tab, current, children }: { tab: Tab; current: Tab; children: ReactNode }) {
  return (
    <div id={`lab-panel-${tab}`} role="tabpanel" aria-labelledby={`lab-tab-${tab}`} className="lab-panel" hidden={tab !== current}>
      {children}
    </div>
  );
}

export function LabPage() {
  const url = useUrlState(labUrl);
  const tab = url.state.tab;
  const engine = useLabEngine();
  const [run, setRun] = useState<RunResult | null>(null);
  const [sweep, setSweep] = useState<SweepResult | null>(null);
  const [compare, setCompare] = useState<CompareResult | null>(null);
  const [seen, setSeen] = useState<ReadonlySet<Tab>>(() => new Set([tab]));
  const visited = seen.has(tab) ? seen : new Set([...seen, tab]);
  useEffect(() => {
    setSeen((v) => (v.has(tab) ? v : new Set([...v, tab])));
  }, [tab]);

  const open = (r: LabResult) => {
    if (r.kind === 'run') {
      setRun(r);
      url.set('tab', 'run');
    } else if (r.kind === 'sweep') {
      setSweep(r);
      url.patch({ tab: 'sweep', sweepKind: r.spec.kind, sweepLog2: r.spec.log2, sweepLookups: r.spec.lookups || url.state.sweepLookups });
    } else {
      setCompare(r);
      url.set('tab', 'mnemosyne');
    }
  };

  const controls =
    tab === 'run' ? (
      <RunControls url={url} onReport={open} />
    ) : tab === 'sweep' ? (
      <SweepControls url={url} />
    ) : tab === 'mnemosyne' ? (
      <CompareControls url={url} />
    ) : (
      <p className="field-msg">
        The design and workload controls are on the Run tab. See also the <a href="#/teach">teaching view</a>: a tiny tree on the engine, step by step.
      </p>
    );

  return (
    <Page
      question="Does the engine measure what the models predict? Try first: press Run for the default workload (100,000 keys, then zero-result lookups) and compare measured with predicted I/O."
      title="Workload lab"
      lede={
        <>
          Run real workloads on the LSM engine (WebAssembly, in a worker) and see measured I/O land on the models’ predictions. Watch a tree grow, step by
          step, in the <a href="#/teach">teaching view</a>.
        </>
      }
      url={url}
      controls={controls}
    >
      <Tabs value={tab} onChange={(t) => url.set('tab', t)} busy={engine.busy && tab !== 'run' ? engine.busy.label : null} />
      {/* A panel mounts on its first visit and then stays (hidden), so a sweep keeps drawing while you look elsewhere. */}
      {visited.has('run') && (
        <Panel tab="run" current={tab}>
          <RunPanel url={url} shown={run} onResult={setRun} />
        </Panel>
      )}
      {visited.has('sweep') && (
        <Panel tab="sweep" current={tab}>
          <SweepPanel url={url} stored={sweep} />
        </Panel>
      )}
      {visited.has('mnemosyne') && (
        <Panel tab="mnemosyne" current={tab}>
          <ComparePanel url={url} stored={compare} />
        </Panel>
      )}
      {tab === 'results' && (
        <Panel tab="results" current={tab}>
          <ResultsPanel onOpen={open} />
        </Panel>
      )}
      {tab === 'storage' && (
        <Panel tab="storage" current={tab}>
          <DatabasesPanel url={url} />
          <EngineCheckCard />
        </Panel>
      )}
    </Page>
  );
}

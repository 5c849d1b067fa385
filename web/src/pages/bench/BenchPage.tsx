/**
 * The storage benchmark: the engine in its worker loading and reading N entries on memory, OPFS
 * and IndexedDB, against a plain IndexedDB key-value store doing the same puts and gets; repeated,
 * with the median and range of every rate, a chart, CSV/SVG/PNG, and the browser calls the OPFS
 * figures cost. Rates are this browser's on this machine: they are shown, never judged.
 */
import { useEffect, useMemo, useState } from 'react';
import { formatBytes, formatCount, formatDifference, formatFixed, formatInt } from '../../documents/format';
import { benchParams, benchUrl } from '../../documents/urls/bench';
import type { PhysicalCalls } from '../../engine/opfsPool';
import { ControlGroup } from '../../ui/controls/ControlGroup';
import { ParamControl } from '../../ui/controls/ParamControl';
import { CardGrid, Page } from '../../ui/layout/Page';
import { ScrollRegion } from '../../ui/layout/ScrollRegion';
import { RatesCard } from './RatesCard';
import './bench.css';
import { fetchShippedRun, loadLastRun, saveLastRun, type StoredBench } from './storedBench';
import { useUrlState } from '../../ui/state/useUrlState';
import { ALL_STORES_MAX_ENTRIES, benchLookups, peakStoredBytes, type BenchProgress, type BenchRow, type StoreSummary, runStorageBenchmark, summarizeBench } from './storageBench';
import { WaitProgress } from '../../ui/task/WaitProgress';

/** What the OPFS figures cost in browser calls: the per-call price is what batching works against. */
function PhysicalCallsNote({ label, calls }: { label: string; calls: PhysicalCalls }) {
  const kinds = ['write', 'read', 'flush', 'truncate'] as const;
  return (
    <p className="field-msg" data-testid="bench-physical">
      {label}, file calls in the last run: {kinds.map((k, i) => (
        <span key={k} data-kind={k} data-count={calls[k].count} data-ms={calls[k].ms}>
          {i > 0 && ' · '}
          {formatInt(calls[k].count)} {k}s ({formatInt(calls[k].ms)} ms)
        </span>
      ))}
      .{' '}
      {calls.read.count === 0 &&
        'No reads: every page the lookups needed was still in the engine’s OPFS chunk cache (64 KiB chunks, up to 256 MiB — less as the engine’s own memory grows — filled as runs are written), so they cost no browser call. '}
      Each call into OPFS costs a fraction of a millisecond, so the engine writes runs in chunks of 1 MiB or more.
    </p>
  );
}

/** A median rate, with the range of the runs under it when there are several. */
function Rate({ s, runs }: { s: { median: number; min: number; max: number }; runs: number }) {
  return (
    <>
      {formatInt(s.median)}
      {runs > 1 && <span className="bench-range">{`${formatCount(s.min)} – ${formatCount(s.max)}`}</span>}
    </>
  );
}
const ratio = (r: number | null) => (r === null ? '—' : `${formatFixed(r, 1)}×`);

function ResultsTable({ stores, testId = 'bench-results' }: { stores: StoreSummary[]; testId?: string }) {
  return (
    <ScrollRegion label="Benchmark rates">
      <table className="data-table" data-testid={testId}>
        <thead>
          <tr>
            <th>store</th>
            <th className="num">inserts / s</th>
            <th className="num">lookups / s</th>
            <th className="num">inserts vs plain IndexedDB</th>
            <th className="num">lookups vs plain IndexedDB</th>
            <th className="num">runs</th>
          </tr>
        </thead>
        <tbody>
          {stores.map((s) => (
            <tr key={s.id} data-testid={`bench-${s.id}`}>
              <td>{s.label}</td>
              <td className="num" data-value={s.inserts.median} data-min={s.inserts.min} data-max={s.inserts.max}>
                <Rate s={s.inserts} runs={s.runs} />
              </td>
              <td className="num" data-value={s.lookups.median} data-min={s.lookups.min} data-max={s.lookups.max}>
                <Rate s={s.lookups} runs={s.runs} />
              </td>
              <td className="num" data-value={s.insertsVsPlain ?? ''}>
                {ratio(s.insertsVsPlain)}
              </td>
              <td className="num" data-value={s.lookupsVsPlain ?? ''}>
                {ratio(s.lookupsVsPlain)}
              </td>
              <td className="num">{s.runs}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

/** The engine's side of the figures: the worker's memory, and whether zero-result lookups cost what its filters predict. */
function EngineTable({ stores }: { stores: StoreSummary[] }) {
  const engine = stores.filter((s) => s.memory);
  if (engine.length === 0) return null;
  // The browser's own measure of the worker waits for a garbage collection (up to 20 s): taken on
  // the large runs only, so the column shows only when a run has it.
  const measured = engine.some((s) => s.memory?.workerBytes);
  return (
    <>
    <ScrollRegion label="The engine's memory and filters">
      <table className="data-table" data-testid="bench-engine">
        <thead>
          <tr>
            <th>store</th>
            <th className="num">wasm memory (peak)</th>
            <th className="num">OPFS chunk cache (peak)</th>
            <th className="num">wasm + cache (peak)</th>
            {measured && <th className="num">worker, measured by the browser</th>}
            <th className="num">zero-result lookup I/O</th>
            <th className="num">predicted (Σ FPR)</th>
          </tr>
        </thead>
        <tbody>
          {engine.map((s) => (
            <tr key={s.id} data-testid={`bench-engine-${s.id}`}>
              <td>{s.label}</td>
              <td className="num" data-value={s.memory?.wasmBytes}>
                {formatBytes(s.memory?.wasmBytes ?? 0)}
              </td>
              <td className="num" data-value={s.memory?.cachePeakBytes}>
                {s.id === 'engine-opfs' ? formatBytes(s.memory?.cachePeakBytes ?? 0) : '—'}
              </td>
              <td className="num" data-value={s.memory?.peakBytes}>
                {s.id === 'engine-opfs' ? formatBytes(s.memory?.peakBytes ?? 0) : '—'}
              </td>
              {measured && (
                <td className="num" data-value={s.memory?.workerBytes ?? ''}>
                  {s.memory?.workerBytes ? formatBytes(s.memory.workerBytes) : 'not measured'}
                </td>
              )}
              <td className="num" data-value={s.zeroResult?.measured ?? ''}>
                {s.zeroResult ? formatFixed(s.zeroResult.measured, 5) : '—'}
              </td>
              <td className="num" data-value={s.zeroResult?.predicted ?? ''}>
                {s.zeroResult ? `${formatFixed(s.zeroResult.predicted, 5)} (${formatDifference(s.zeroResult.measured, s.zeroResult.predicted)})` : '—'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
    {!measured && (
      <p className="field-msg" data-testid="bench-worker-note">
        The browser’s own measure of the worker’s memory is taken on runs above {formatInt(ALL_STORES_MAX_ENTRIES)} entries only.
      </p>
    )}
    </>
  );
}

/** What this browser lets the site store beyond what it already does (null where it will not say). */
function useStorageHeadroom(): number | null {
  const [headroom, setHeadroom] = useState<number | null>(null);
  useEffect(() => {
    let live = true;
    navigator.storage
      ?.estimate()
      .then((e) => live && setHeadroom(e.quota !== undefined ? e.quota - (e.usage ?? 0) : null))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return headroom;
}

export function BenchPage() {
  const url = useUrlState(benchUrl);
  const n = Number(url.state.entries);
  const repeats = url.state.repeats;
  const [rows, setRows] = useState<BenchRow[]>([]);
  const [state, setState] = useState<'idle' | 'running' | 'done' | 'error'>('idle');
  const [error, setError] = useState('');
  const [progress, setProgress] = useState<(BenchProgress & { startedAt: number }) | null>(null);
  const stores = useMemo(() => summarizeBench(rows), [rows]);
  const everyStore = n <= ALL_STORES_MAX_ENTRIES;
  const lookups = benchLookups(n);
  const headroom = useStorageHeadroom();
  const needed = peakStoredBytes(n);
  const storesPerRepeat = everyStore ? 4 : 1;

  // Until a run here: the last result stored (this browser's last run, else the one shipped).
  const [stored, setStored] = useState<{ doc: StoredBench; source: 'this-browser' | 'shipped' } | null>(null);
  useEffect(() => {
    const last = loadLastRun();
    if (last) {
      setStored({ doc: last, source: 'this-browser' });
      return;
    }
    let live = true;
    void fetchShippedRun().then((doc) => live && doc && setStored({ doc, source: 'shipped' }));
    return () => {
      live = false;
    };
  }, []);
  const storedStores = useMemo(() => (stored ? summarizeBench(stored.doc.rows) : []), [stored]);

  const run = async () => {
    setRows([]);
    setState('running');
    const startedAt = performance.now();
    setProgress({ store: 1, stores: storesPerRepeat * repeats, label: '', phase: 'insert', fraction: 0, startedAt });
    try {
      const done: BenchRow[] = [];
      await runStorageBenchmark(
        n,
        repeats,
        (row) => {
          done.push(row);
          setRows((rs) => [...rs, row]);
        },
        (p) => setProgress({ ...p, startedAt }),
        // The stored result's rates weigh the stores (IndexedDB is slower than memory), so the bar moves with time.
        storedStores.length > 0 ? storedStores : null,
      );
      saveLastRun(n, repeats, done);
      setState('done');
      setProgress(null);
    } catch (err) {
      setProgress(null);
      setError(err instanceof Error ? err.message : String(err));
      setState('error');
    }
  };

  return (
    <Page
      question="How fast is the engine on this browser’s storage, against a plain IndexedDB store? Try first: read the stored result below, then press Run benchmark to measure your own browser."
      title="Storage benchmark"
      lede={
        <>
          The engine, running in its worker, loads {formatInt(n)} entries (set on the left) and then makes {formatInt(lookups.count)} lookups, {formatInt(lookups.missingShare * 100)}% on missing keys (16-byte keys, 100-byte values; leveling, T = 10, 10 bits/key, 4 MiB
          buffer) on each storage backend, against a plain IndexedDB key-value store doing the same puts (in transactions of 10,000) and gets. The figures are
          this browser’s on this machine.
        </>
      }
      url={url}
      controls={
        <ControlGroup title="Benchmark">
          <ParamControl {...url.bind('entries')} disabled={state === 'running'} />
          <ParamControl {...url.bind('repeats')} disabled={state === 'running'} />
          <button type="button" className="primary" onClick={() => void run()} disabled={state === 'running'}>
            {state === 'running' ? `Running… (${rows.length} of ${storesPerRepeat * repeats} stores)` : 'Run benchmark'}
          </button>
        </ControlGroup>
      }
    >
      {headroom !== null && needed > headroom && state !== 'running' && (
        <p className="notice" data-testid="bench-quota">
          This run needs about {formatBytes(needed)} of storage at its peak, more than this site may store now ({formatBytes(headroom)} left in this browser’s
          quota): expect it to stop with “storage full”. Remove stored databases on the lab page, or choose fewer entries.
        </p>
      )}
      {state === 'running' && progress && (
        <WaitProgress
          title="Benchmark running"
          detail={`Store ${progress.store} of ${progress.stores}${progress.label ? `: ${progress.label}` : ''} — ${progress.phase === 'insert' ? `inserting ${formatInt(n)} entries` : progress.phase === 'lookup' ? `${formatInt(lookups.count)} lookups` : 'the browser measures the worker’s memory'}`}
          fraction={progress.fraction}
          startedAt={progress.startedAt}
          testId="bench-progress"
        />
      )}
      {state === 'error' && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {stores.length === 0 ? (
        <p className="notice" data-testid="bench-idle">
          {state === 'running'
            ? 'Running the first store…'
            : everyStore
              ? `Press Run benchmark: each of the four stores inserts and then looks up ${formatInt(n)} entries, ${repeats === 1 ? 'once' : `${repeats} times in turn`}. At 1,000,000 entries this takes a few minutes.`
              : `Press Run benchmark: the engine on OPFS inserts ${formatInt(n)} entries (${formatBytes(n * 116)}) and then makes ${formatInt(lookups.count)} lookups (${formatInt(lookups.missingShare * 100)}% on missing keys: enough to measure the filters’ false-positive rate to a fraction of a percent), ${repeats === 1 ? 'once' : `${repeats} times`}; above ${formatInt(ALL_STORES_MAX_ENTRIES)} entries only OPFS runs — the memory backend would hold the whole database in the worker, and IndexedDB would take many minutes. Then the browser measures the worker’s memory (up to 20 s).`}
        </p>
      ) : null}
      {stores.length === 0 && state !== 'running' && stored && storedStores.length > 0 && (
        <article className="card wide" data-testid="bench-stored" data-source={stored.source} data-entries={stored.doc.entries}>
          <header className="card-head">
            <div>
              <h2>{stored.source === 'this-browser' ? 'Your last run' : 'Measured before (shipped with the app)'}</h2>
              <p className="caption">
                {formatInt(stored.doc.entries)} entries, {stored.doc.repeats === 1 ? 'once' : `${stored.doc.repeats} times`}, on {stored.doc.date.slice(0, 10)}
                {stored.source === 'shipped' ? ' in headless Chromium on the project’s build machine' : ' in this browser'} ({stored.doc.browser.replace(/^Mozilla\/5\.0 /, '')}). Press
                Run benchmark to measure this browser now.
              </p>
              {stored.doc.entries !== n && (
                <p className="notice" data-testid="bench-stored-mismatch">
                  This result is for {formatInt(stored.doc.entries)} entries; the settings on the left are for {formatInt(n)}.{' '}
                  {benchParams.entries.options.some((o) => o.value === String(stored.doc.entries)) && (
                    <button type="button" className="link" onClick={() => url.patch({ entries: String(stored.doc.entries) as typeof url.state.entries })} data-testid="bench-stored-settings">
                      Set {formatInt(stored.doc.entries)} entries
                    </button>
                  )}
                </p>
              )}
            </div>
          </header>
          <ResultsTable stores={storedStores} testId="bench-stored-results" />
          <EngineTable stores={storedStores} />
        </article>
      )}
      {stores.length === 0 ? null : (
        <CardGrid>
          <article className="card wide">
            <header className="card-head">
              <div>
                <h2>Rates</h2>
                <p className="caption">
                  The median over the runs, with their range under it when there are several. “vs plain IndexedDB”: the store’s rate divided by the plain store’s in the same run
                  (same keys, same values), the median of those ratios — how much the engine’s batching and sorted runs gain over one IndexedDB record per entry.{' '}
                  {lookups.missingShare === 0.5
                    ? 'Lookups are half on missing keys for the engine (its Bloom filters answer those without I/O).'
                    : `Lookups are ${formatInt(lookups.missingShare * 100)}% on missing keys (its Bloom filters answer those without I/O), so the rate is not comparable with the smaller runs’.`}
                </p>
              </div>
            </header>
            <ResultsTable stores={stores} />
            <EngineTable stores={stores} />
            {stores.map((s) => s.physical && <PhysicalCallsNote key={s.id} label={s.label} calls={s.physical} />)}
            {state === 'done' && <p data-testid="bench-done">Done: {formatInt(rows.length)} store runs.</p>}
          </article>
          <RatesCard stores={stores} />
        </CardGrid>
      )}
    </Page>
  );
}

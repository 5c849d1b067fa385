/**
 * The end-to-end check of the stack (wasm engine in its worker, batches, counters): load
 * 100,000 keys into a fresh in-memory engine and run 10,000 lookups, half of them for keys that
 * exist, with the outcome known exactly.
 */
import { useState } from 'react';
import { formatFixed, formatInt } from '../../documents/format';
import { totalReads, totalWrites } from '../../documents/engine';
import { type CheckResult, runEngineCheck } from './engineCheck';

const KEYS = 100_000;
const LOOKUPS = 10_000;

function Counter({ label, value, id, hint }: { label: string; value: string; id: string; hint?: string }) {
  return (
    <div className="counter" title={hint}>
      <dt>{label}</dt>
      <dd data-testid={id}>{value}</dd>
    </div>
  );
}

export function EngineCheckCard() {
  const [state, setState] = useState<
    { status: 'idle' } | { status: 'running' } | { status: 'done'; result: CheckResult } | { status: 'error'; message: string }
  >({ status: 'idle' });

  const run = async () => {
    setState({ status: 'running' });
    try {
      setState({ status: 'done', result: await runEngineCheck(KEYS, LOOKUPS) });
    } catch (err) {
      setState({ status: 'error', message: err instanceof Error ? err.message : String(err) });
    }
  };

  const result = state.status === 'done' ? state.result : null;
  const reads = result ? totalReads(result.after.stats, ['get_zero_result', 'get_non_zero_result', 'get_tombstone']) : null;
  const writes = result ? totalWrites(result.after.stats) : null;
  const runs = result ? result.after.tree.levels.reduce((n, l) => n + l.runs.length, 0) : 0;

  return (
    <section className="card" aria-labelledby="engine-check-title">
      <h2 id="engine-check-title">Engine check</h2>
      <p className="caption">
        Load {formatInt(KEYS)} keys (100-byte values) into a fresh in-memory engine — leveling, size ratio 10, Monkey-optimal filters at 10 bits per key —
        then run {formatInt(LOOKUPS)} point lookups, half of them for keys that exist.
      </p>
      <button type="button" className="primary" onClick={run} disabled={state.status === 'running'}>
        {state.status === 'running' ? 'Running…' : `Load ${formatInt(KEYS)} keys and run ${formatInt(LOOKUPS)} lookups`}
      </button>
      {state.status === 'error' && (
        <p role="alert" className="error">
          {state.message}
        </p>
      )}
      {result && reads && writes && (
        <dl className="counters" aria-label="Engine counters">
          <Counter label="Keys loaded" id="keys-loaded" value={formatInt(result.load.puts)} />
          <Counter label="Lookups" id="lookups" value={formatInt(result.lookups.gets)} />
          <Counter label="Found" id="found" value={formatInt(result.lookups.gets_found)} />
          <Counter label="Data pages read" id="data-pages-read" value={formatInt(reads.data_pages_read)} hint="Page I/Os of the lookups: one per filter positive" />
          <Counter label="Filter probes" id="filter-probes" value={formatInt(reads.filter_probes)} />
          <Counter label="Filter negatives" id="filter-negatives" value={formatInt(reads.filter_negatives)} hint="bloom.filter.useful: page reads the filters avoided" />
          <Counter label="False positives" id="false-positives" value={formatInt(reads.filter_positives - reads.filter_true_positives)} />
          <Counter label="Pages written" id="pages-written" value={formatInt(writes.data_pages_written)} />
          <Counter label="Flushes" id="flushes" value={formatInt(writes.flushes)} />
          <Counter label="Compactions" id="compactions" value={formatInt(writes.compactions)} />
          <Counter label="Levels / runs" id="shape" value={`${result.after.tree.levels.length} / ${runs}`} />
          <Counter label="I/O per lookup" id="io-per-lookup" value={formatFixed(reads.data_pages_read / result.lookups.gets, 4)} />
          <Counter label="Load time" id="load-ms" value={`${formatInt(result.loadMillis)} ms`} />
          <Counter label="Lookup time" id="lookup-ms" value={`${formatInt(result.lookupMillis)} ms`} />
        </dl>
      )}
    </section>
  );
}

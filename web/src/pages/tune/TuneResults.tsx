/**
 * Everything that follows from a tune result: the designs side by side, their costs over nearby
 * workloads, the proof run on the engine (measured next to predicted, per operation class and in
 * total) and the files to take home.
 */
import { zipSync, strToU8 } from 'fflate';
import { useMemo, useState } from 'react';
import type { ExportDesign } from '../../documents/designs/exportDesigns';
import { measuredByClass, measuredIoPerOp } from '../../documents/designs/monkeyView';
import type { BundleFile, Calibration, EngineConfig, PricedDesign, TuneProof, TuneResult, Workload } from '../../documents/engine';
import { formatBytes, formatSig } from '../../documents/format';
import { engineClient } from '../../engine/client';
import { withTask } from '../../engine/session';
import { ChartCard, LineChart, SERIES_COLORS, lineChartCsv } from '../../ui/charts';
import { downloadBlob, downloadText } from '../../ui/download/svg';
import { ExportCard } from '../../ui/export/ExportPanel';
import { DataTable, type Column } from '../../ui/layout/DataTable';
import { CardGrid } from '../../ui/layout/Page';
import { ChartPlaceholder } from '../../ui/layout/sweepStatus';
import { TaskProgress } from '../../ui/task/TaskProgress';
import { RocksdbAdvice } from './RocksdbAdvice';
import { TimeCard } from './TimeCard';

const CLASSES = ['zero-result lookup', 'non-zero-result lookup', 'range lookup', 'write'] as const;

interface Measured {
  label: string;
  priced: PricedDesign;
  classes: [number, number, number, number];
  total: number;
}

/** A design's cost in the unit the tuner ranked by: predicted µs per operation, or I/O per operation. */
function rankedCost(p: PricedDesign): number {
  return p.time ? p.time.mean_us : p.prediction.expected;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export function TuneResults({
  tuned,
  current,
  workload,
  optionsText,
  calibration,
  onCalibrated,
  onProblem,
}: {
  tuned: { result: TuneResult; millis: number } | null;
  current: EngineConfig;
  workload: Workload;
  /** The OPTIONS file the current design came from: the bundle's recommendation is that file with the diff applied. */
  optionsText?: string;
  calibration: Calibration | null;
  onCalibrated: (c: Calibration) => void;
  onProblem: (problem: string | null) => void;
}) {
  const [measured, setMeasured] = useState<{ for: TuneResult; rows: Measured[] } | null>(null);
  const result = tuned?.result ?? null;
  // "Keep your design": the recommendation is the current design (lsm-tune `TuneResult::recommendation`).
  const rec = result ? (result.headline.keep ? result.current : result.recommended === 'robust' ? result.robust : result.nominal) : null;
  const keep = result?.headline.keep ?? false;
  const proofRows = measured && measured.for === result ? measured.rows : null;

  const runProof = async () => {
    if (!result || !rec) return;
    onProblem(null);
    setMeasured(null);
    const plan: [string, PricedDesign][] = [
      ['current', result.current],
      ['recommended', rec],
    ];
    try {
      const rows = await withTask('tune: current vs recommended', async (ctl) => {
        const out: Measured[] = [];
        for (const [i, [label, priced]] of plan.entries()) {
          if (ctl.cancelled()) break;
          ctl.step(i, plan.length, label);
          await ctl.open('tune', 'memory', priced.config, true);
          const r = await ctl.run({ workload: result.workload, label: `tune: ${label}` });
          out.push({ label, priced, classes: measuredByClass(r.report), total: measuredIoPerOp(r.report) });
        }
        return out;
      });
      if (rows.length === 2) setMeasured({ for: result, rows });
    } catch (err) {
      onProblem(err instanceof Error ? err.message : String(err));
    }
  };

  // Robust vs nominal under drift: both run on the workload that hurts the nominal design most
  // within ρ (its worst case), next to the expected workload.
  const [drift, setDrift] = useState<{ for: TuneResult; rows: { label: string; expected: number; drifted: number }[]; mix: number[] } | null>(null);
  const runDrift = async () => {
    if (!result) return;
    onProblem(null);
    setDrift(null);
    try {
      const { workload: drifted } = await engineClient().call('drifted', { workload: result.workload, mix: result.nominal.worst_mix });
      const plan: [string, PricedDesign][] = [
        ['nominal', result.nominal],
        ['robust', result.robust],
      ];
      const rows = await withTask('tune: nominal vs robust under drift', async (ctl) => {
        const out: { label: string; expected: number; drifted: number }[] = [];
        for (const [i, [label, priced]] of plan.entries()) {
          const cost: number[] = [];
          for (const [j, w] of [result.workload, drifted].entries()) {
            if (ctl.cancelled()) return out;
            ctl.step(2 * i + j, 4, `${label}, ${j === 0 ? 'expected' : 'drifted'} workload`);
            await ctl.open('tune', 'memory', priced.config, true);
            cost.push(measuredIoPerOp((await ctl.run({ workload: w, label: `tune: ${label}` })).report));
          }
          out.push({ label, expected: cost[0], drifted: cost[1] });
        }
        return out;
      });
      if (rows.length === 2) setDrift({ for: result, rows, mix: result.nominal.worst_mix });
    } catch (err) {
      onProblem(err instanceof Error ? err.message : String(err));
    }
  };
  const driftRows = drift && drift.for === result ? drift : null;

  const proof: TuneProof | undefined = proofRows ? { current: proofRows[0].total, recommended: proofRows[1].total, on: 'the engine, in memory, in the browser' } : undefined;

  const bundle = async (): Promise<BundleFile[] | null> => {
    if (!result) return null;
    try {
      return (await engineClient().call('tuneBundle', { result, proof, optionsText })).files;
    } catch (err) {
      onProblem(err instanceof Error ? err.message : String(err));
      return null;
    }
  };
  const downloadZip = async () => {
    const files = await bundle();
    if (!files) return;
    const zip = zipSync(Object.fromEntries(files.map((f) => [`lsm-navigator-tune/${f.name}`, strToU8(f.text)])));
    downloadBlob(new Blob([zip], { type: 'application/zip' }), 'lsm-navigator-tune.zip');
  };
  const downloadOne = async (name: string) => {
    const f = (await bundle())?.find((x) => x.name === name);
    if (f) downloadText(f.text, f.name, name.endsWith('.json') ? 'application/json' : 'text/plain');
  };

  const designs: ExportDesign[] =
    result && rec
      ? [
          { id: 'recommended', slug: 'tuned', label: result.rho > 0 ? `Robust (ρ = ${result.rho})` : 'Recommended', config: rec.config },
          { id: 'current', slug: 'current', label: 'Current design', config: current },
        ]
      : [];

  const byTime = result?.rank === 'time';
  const unit = byTime ? 'µs per op' : 'I/O per op';
  const rows = result
    ? ([
        ['current', 'Current design', result.current],
        ['nominal', 'Nominal (best at the expected workload)', result.nominal],
        ['robust', `Robust (ρ = ${result.rho})`, result.robust],
      ] as const).map(([id, label, p]) => ({
        id,
        label,
        shape: p.summary,
        expected: rankedCost(p),
        io: p.prediction.expected,
        worst: p.worst,
        // Every row's gain in the headline's measure, as the tuner priced it (lsm-tune
        // `Headline::designs`): the search's choice is the headline itself, also when it says keep.
        gain: result.headline.designs[id].gain,
      }))
    : [];
  type Row = (typeof rows)[number];
  const columns: Column<Row>[] = [
    { key: 'label', label: 'design' },
    { key: 'shape', label: 'shape' },
    { key: 'expected', label: byTime ? 'predicted time' : 'predicted cost', unit, format: (v) => <span data-value={String(v)}>{formatSig(Number(v), 4)}</span> },
    ...(byTime ? [{ key: 'io' as const, label: 'predicted I/O', unit: 'I/O per op', format: (v: unknown) => <span data-value={String(v)}>{formatSig(Number(v), 4)}</span> }] : []),
    { key: 'worst', label: 'worst within ρ', unit, format: (v) => <span data-value={String(v)}>{formatSig(Number(v), 4)}</span> },
    { key: 'gain', label: 'predicted gain', unit: result ? (result.rho > 0 ? 'worst case within ρ' : result.target === 'rocksdb' && result.current.steady ? 'steady state' : byTime ? 'time per op' : 'in the run') : undefined, format: (v) => <span data-value={String(v)}>{`${(Number(v) * 100).toFixed(1)}%`}</span> },
  ];

  const chart = useMemo(() => {
    if (!result) return null;
    const n = result.neighbourhood;
    const q = (xs: number[]) => xs.map((y, i) => ({ x: (100 * (i + 0.5)) / xs.length, y }));
    return {
      x: { label: 'share of sampled workloads', unit: '%' },
      y: { label: result.rank === 'time' ? 'predicted time' : 'predicted cost', unit: result.rank === 'time' ? 'µs per op' : 'I/O per op' },
      series: [
        { id: 'current', label: 'current', points: q(n.current), color: '#5d6b7f' },
        { id: 'nominal', label: 'nominal', points: q(n.nominal), color: SERIES_COLORS[0] },
        { id: 'robust', label: 'robust', points: q(n.robust), color: SERIES_COLORS[1], dash: '6 4' },
      ],
    };
  }, [result]);

  const gains = proofRows ? { measured: 1 - proofRows[1].total / proofRows[0].total, predicted: 1 - proofRows[1].priced.prediction.expected / proofRows[0].priced.prediction.expected } : null;
  const mix = result?.mix ?? [0, 0, 0, 0];

  return (
    <CardGrid>
      <article className="card chart-card wide" data-testid="tune-designs">
        <header className="card-head">
          <div>
            <h2>Where you could be</h2>
            <p className="caption">
              {result ? `${formatBytes(result.memory_bytes)} of memory for every design (${result.target === 'rocksdb' ? 'memtables, block cache, and index and filter blocks' : 'buffer and filters'})` : 'The same memory for every design'}, ranked by {byTime ? `predicted time on ${result?.calibration?.device ?? 'this device'}` : 'I/O per operation'}, over the designs{' '}
              {result?.target === 'rocksdb' ? 'RocksDB runs, set by its own options, the block cache taking what the rest leaves' : 'the engine runs (policy, size ratio, filter bits, Monkey or uniform filters, lazy leveling around the best shapes, Mnemosyne\'s filters for the best designs)'}. Each is priced by the engine's own merge policy and filter sizing replayed on sizes, so a predicted cost is what the engine will measure.
              {tuned && ` ${tuned.result.candidates.toLocaleString('en-US')} designs priced in ${tuned.millis.toFixed(0)} ms; robustness costs ${(tuned.result.expected_loss * 100).toFixed(2)}% at the expected workload.`}
            </p>
          </div>
        </header>
        {result && (
          <p
            className={result.headline.keep ? 'field-msg' : 'field-msg ok'}
            data-testid="tune-headline"
            data-gain={result.headline.gain}
            data-low={result.headline.low}
            data-high={result.headline.high}
            data-keep={String(result.headline.keep)}
          >
            <strong>{result.headline.keep ? 'Keep your design' : 'Change'}:</strong> {pct(result.headline.gain)} less {result.headline.measures} predicted ({pct(result.headline.low)} to{' '}
            {pct(result.headline.high)} within the model&rsquo;s error){result.headline.keep ? '; the recommendation is the design you have.' : '.'} In the run as played, in I/O per operation
            (what the proof measures): {pct(result.predicted_gain)}.
          </p>
        )}
        {result ? <DataTable columns={columns} rows={rows} testId="tune-table" rowKey={(r) => r.id} /> : <ChartPlaceholder height={120} />}
        {result && <RocksdbAdvice result={result} />}
        {result && (
          <p
            className={result.grown.recommended > result.grown.current ? 'field-msg field-error' : 'caption'}
            data-testid="tune-grown"
            data-current={result.grown.current}
            data-recommended={result.grown.recommended}
          >
            With twice the data ({result.grown.records.toLocaleString('en-US')} records): {formatSig(result.grown.current, 4)} I/O per op for the current design,{' '}
            {formatSig(result.grown.recommended, 4)} for the recommended one
            {result.grown.recommended > result.grown.current ? ' — the recommendation is tuned to this data size and loses as the data grows; tune again for the size you expect.' : '.'}
          </p>
        )}
      </article>
      {/* At ρ = 0 every sampled workload is the expected one: two flat lines would say nothing. */}
      {chart && result && result.rho > 0 && (
        <ChartCard
          id="neighbourhood"
          title={`${result.neighbourhood.samples.toLocaleString('en-US')} workloads within ρ = ${result.rho}`}
          caption="Each design's predicted cost on workloads drawn from the KL ball around the expected one (classes the workload lacks stay absent), sorted: the right end is the worst case seen."
          csv={() => lineChartCsv(chart)}
          wide
        >
          <LineChart {...chart} title="Cost over nearby workloads" data-testid="tune-neighbourhood" />
        </ChartCard>
      )}
      <article className="card wide" data-testid="tune-proof">
        <header className="card-head">
          <div>
            <h2>Proof, measured</h2>
            <p className="caption">The current and the recommended design run on the engine (in memory) with the same workload and seed; measured I/O counts every page read and written in the run.</p>
          </div>
        </header>
        <button type="button" className="primary" onClick={() => void runProof()} disabled={!rec || keep} data-testid="tune-run">
          Run current vs recommended on the engine
        </button>
        {keep && (
          <p className="caption" data-testid="tune-run-keep">
            Nothing to run: the recommendation is to keep your design, so both runs would be the same design.
          </p>
        )}
        <TaskProgress />
        {proofRows && (
          <table className="data-table" data-testid="tune-measured">
            <thead>
              <tr>
                <th>design</th>
                {CLASSES.map((c, i) => mix[i] > 0 && <th key={c}>{c}: predicted / measured</th>)}
                <th>predicted (I/O per op)</th>
                <th>measured (I/O per op)</th>
              </tr>
            </thead>
            <tbody>
              {proofRows.map((m) => (
                <tr key={m.label} data-testid={`tune-measured-${m.label}`}>
                  <td>{m.label}</td>
                  {CLASSES.map(
                    (c, i) =>
                      mix[i] > 0 && (
                        <td key={c} className="num" data-class={c} data-predicted={m.priced.prediction.class_costs[i]} data-measured={m.classes[i]}>
                          {formatSig(m.priced.prediction.class_costs[i], 4)} / {formatSig(m.classes[i], 4)}
                        </td>
                      ),
                  )}
                  <td className="num" data-value={m.priced.prediction.expected}>{formatSig(m.priced.prediction.expected, 4)}</td>
                  <td className="num" data-value={m.total}>{formatSig(m.total, 4)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {gains && (
          <p data-testid="tune-gains" data-measured={gains.measured} data-predicted={gains.predicted}>
            In the run as played, in I/O per operation: {(gains.measured * 100).toFixed(1)}% measured, {(gains.predicted * 100).toFixed(1)}% predicted.
          </p>
        )}
        {gains &&
          (gains.measured >= 0 ? (
            <p className="field-msg ok" data-testid="tune-verdict" data-verdict="better">
              Measured on the engine, the recommendation costs {(gains.measured * 100).toFixed(1)}% less I/O than the current design.
            </p>
          ) : (
            <p className="field-msg field-error" role="status" data-testid="tune-verdict" data-verdict="worse">
              Measured on the engine, the recommendation costs {(-gains.measured * 100).toFixed(1)}% more I/O than the current design: keep the current one. The predicted gain was within the
              prediction's error (whole flushes and merges, and which keys a run's filters happen to let through).
            </p>
          ))}
        {result && result.rho > 0 && (
          <>
            <button type="button" onClick={() => void runDrift()} data-testid="tune-drift-run">
              Run nominal vs robust under drift
            </button>
            {driftRows && (
              <table className="data-table" data-testid="tune-drift">
                <caption>
                  Drifted workload: the nominal design's worst case within ρ = {result.rho} ({CLASSES.map((c, i) => `${(driftRows.mix[i] * 100).toFixed(0)}% ${c}s`).join(', ')}).
                </caption>
                <thead>
                  <tr>
                    <th>design</th>
                    <th>measured, expected workload</th>
                    <th>measured, drifted workload</th>
                  </tr>
                </thead>
                <tbody>
                  {driftRows.rows.map((r) => (
                    <tr key={r.label} data-testid={`tune-drift-${r.label}`}>
                      <td>{r.label}</td>
                      <td className="num" data-value={r.expected}>{formatSig(r.expected, 4)}</td>
                      <td className="num" data-value={r.drifted}>{formatSig(r.drifted, 4)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </>
        )}
      </article>
      <TimeCard result={result} current={current} calibration={calibration} onCalibrated={onCalibrated} onProblem={onProblem} />
      {designs.length > 0 && (
        <article className="card wide" data-testid="tune-bundle">
          <header className="card-head">
            <div>
              <h2>Take it home</h2>
              <p className="caption">
                The recommended and current designs as RocksDB OPTIONS and engine JSON, the workload for YCSB, db_bench and the engine, <code>compare.sh</code> with <code>referee.cc</code> (the workload's exact operations played on RocksDB with both OPTIONS files, measured by RocksDB's own counters), the result as JSON, and a
                report{proofRows ? ' with the measured gain' : ''}. The same files as <code>lsm tune --out DIR</code>.
              </p>
            </div>
          </header>
          <button type="button" className="primary" onClick={() => void downloadZip()} data-testid="tune-zip">
            Download the bundle (.zip)
          </button>
          <ul className="file-list">
            {['REPORT.md', 'recommended.OPTIONS', 'current.OPTIONS', 'recommended.engine.json', 'workload.properties', 'compare.sh', 'tune-result.json'].map((name) => (
              <li key={name}>
                <button type="button" className="link-button" onClick={() => void downloadOne(name)} data-testid={`tune-file-${name}`}>
                  {name}
                </button>
              </li>
            ))}
          </ul>
        </article>
      )}
      {designs.length > 0 && <ExportCard title="Export either design" designs={designs} workload={workload} />}
    </CardGrid>
  );
}

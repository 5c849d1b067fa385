/**
 * Tune: from where you are — a system's design or your RocksDB OPTIONS, and a YCSB workload — to a
 * design for the same memory that the models say is better (nominal), or better in the worst case
 * over nearby workloads (robust, after Endure); then the proof, both designs run on the engine with
 * the same workload and seed, measured I/O next to predicted; then the files to take home.
 */
import { useEffect, useMemo, useState } from 'react';
import { useSweep } from '../../compute/useSweep';
import { NEIGHBOUR_SAMPLES, type PricedDesign, type TuneArgs } from '../../compute/sweeps/tune';
import { monkeyDesignToEngineConfig } from '../../documents/designs/tradeoffs';
import type { ExportDesign } from '../../documents/designs/exportDesigns';
import { measuredIoPerOp, monkeyDesignOf, monkeyWorkloadOf, workloadDataset } from '../../documents/designs/monkeyView';
import type { EngineConfig, Workload } from '../../documents/engine';
import { formatBytes, formatSig } from '../../documents/format';
import { CUSTOM_DESIGN, tuneUrl } from '../../documents/urls/tune';
import { engineClient } from '../../engine/client';
import { withTask } from '../../engine/session';
import { ChartCard, LineChart, SERIES_COLORS, lineChartCsv } from '../../ui/charts';
import { ControlGroup } from '../../ui/controls/ControlGroup';
import { ParamControl } from '../../ui/controls/ParamControl';
import { ExportCard } from '../../ui/export/ExportPanel';
import { DataTable, type Column } from '../../ui/layout/DataTable';
import { CardGrid, Page } from '../../ui/layout/Page';
import { ChartPlaceholder } from '../../ui/layout/sweepStatus';
import { useUrlState } from '../../ui/state/useUrlState';
import { TaskProgress } from '../../ui/task/TaskProgress';

interface Measured {
  label: string;
  predicted: number;
  measured: number;
}

export function TunePage() {
  const url = useUrlState(tuneUrl);
  const s = url.state;
  const [custom, setCustom] = useState<{ config: EngineConfig; name: string; warnings: string[] } | null>(null);
  const [preset, setPreset] = useState<EngineConfig | null>(null);
  const [workload, setWorkload] = useState<Workload | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (s.design === CUSTOM_DESIGN) return;
    let live = true;
    fetch(`/presets/${s.design}.json`)
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`HTTP ${r.status}`))))
      .then((c: EngineConfig) => live && setPreset(c))
      .catch((e: unknown) => live && setProblem(`preset ${s.design}: ${String(e)}`));
    return () => {
      live = false;
    };
  }, [s.design]);

  useEffect(() => {
    let live = true;
    const client = engineClient();
    client
      .call('ycsbCore', { letter: s.workload, records: s.records, operations: s.operations })
      .then(({ text }) => client.call('ycsbImport', { text, file: `workload${s.workload}` }))
      .then((r) => live && setWorkload(r.workload))
      .catch((e: unknown) => live && setProblem(e instanceof Error ? e.message : String(e)));
    return () => {
      live = false;
    };
  }, [s.workload, s.records, s.operations]);

  const current = s.design === CUSTOM_DESIGN ? (custom?.config ?? null) : preset;
  /** The model's inputs: the current design, its memory (buffer + filters), the workload's data and mix. */
  const inputs = useMemo((): Omit<TuneArgs, 'rho'> | string | null => {
    if (!current || !workload) return null;
    const design = monkeyDesignOf(current);
    if (!design) return 'this design has no equivalent in Monkey’s space (its deepest level’s size ratio is below 2)';
    const dataset = workloadDataset(current, workload);
    const memoryBytes = design.bufferBytes + (design.filterBitsPerEntry * dataset.entries) / 8;
    return { dataset, workload: monkeyWorkloadOf(workload), memoryBytes, current: design };
  }, [current, workload]);

  const importOptions = async (file: File) => {
    setProblem(null);
    try {
      const r = await engineClient().call('import', { text: await file.text(), kind: 'rocksdb' });
      setCustom({ config: r.config, name: file.name, warnings: r.warnings.map((w) => `${w.field} (${w.kind}): ${w.message}`) });
      url.patch({ design: CUSTOM_DESIGN });
    } catch (err) {
      setProblem(`${file.name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  return (
    <Page
      title="Tune"
      lede="Bring your design (a system's defaults or your RocksDB OPTIONS) and a YCSB workload: get a design for the same memory that costs less, see the gain measured on the engine, and take the files home."
      url={url}
      controls={
        <>
          <ControlGroup title="Where you are">
            <ParamControl {...url.bind('design')} />
            <label className="file-button">
              Import RocksDB OPTIONS…
              <input type="file" className="sr-only" data-testid="tune-options" onChange={(e) => { const f = e.target.files?.[0]; if (f) void importOptions(f); e.target.value = ''; }} />
            </label>
            <ParamControl {...url.bind('workload')} />
            <ParamControl {...url.bind('records')} />
            <ParamControl {...url.bind('operations')} />
          </ControlGroup>
          <ControlGroup title="Robustness">
            <ParamControl {...url.bind('rho')} />
          </ControlGroup>
        </>
      }
    >
      {problem && (
        <p role="alert" className="error" data-testid="tune-problem">
          {problem}
        </p>
      )}
      {s.design === CUSTOM_DESIGN && !custom && <p className="notice">Import a RocksDB OPTIONS file to tune your own design.</p>}
      {custom && s.design === CUSTOM_DESIGN && (
        <p className="caption" data-testid="tune-custom">
          Your design: {custom.name}
          {custom.warnings.length > 0 && ` (read with ${custom.warnings.length} approximations: ${custom.warnings.join('; ')})`}
        </p>
      )}
      {typeof inputs === 'string' && (
        <p role="alert" className="error" data-testid="tune-problem">
          {inputs}
        </p>
      )}
      {typeof inputs === 'object' && inputs !== null && current && workload && (
        <TuneResults inputs={inputs} rho={s.rho} current={current} workload={workload} onProblem={setProblem} />
      )}
    </Page>
  );
}

/** Everything that follows from the model's inputs: the designs, the proof run and the files. */
function TuneResults({
  inputs,
  rho,
  current,
  workload,
  onProblem,
}: {
  inputs: Omit<TuneArgs, 'rho'>;
  rho: number;
  current: EngineConfig;
  workload: Workload;
  onProblem: (problem: string | null) => void;
}) {
  const [measured, setMeasured] = useState<Measured[] | null>(null);
  const tuned = useSweep('tune.recommend', { ...inputs, rho });
  const view = tuned.data;
  // What the page recommends: the robust design when ρ > 0, else the nominal one.
  const recommended = useMemo(() => {
    if (!view) return null;
    const priced = rho > 0 ? view.robust : view.nominal;
    return { priced, config: monkeyDesignToEngineConfig(inputs.dataset, priced.design) };
  }, [view, inputs, rho]);

  const runProof = async () => {
    if (!recommended || !view) return;
    onProblem(null);
    setMeasured(null);
    const plan: [string, EngineConfig, PricedDesign][] = [
      ['current', current, view.current],
      ['recommended', recommended.config, recommended.priced],
    ];
    try {
      const rows = await withTask('tune: current vs recommended', async (ctl) => {
        const out: Measured[] = [];
        for (const [i, [label, config, priced]] of plan.entries()) {
          if (ctl.cancelled()) break;
          ctl.step(i, plan.length, label);
          await ctl.open('tune', 'memory', config, true);
          const r = await ctl.run({ workload, label: `tune: ${label}` });
          out.push({ label, predicted: priced.expected, measured: measuredIoPerOp(r.report) });
        }
        return out;
      });
      setMeasured(rows);
    } catch (err) {
      onProblem(err instanceof Error ? err.message : String(err));
    }
  };

  const designs: ExportDesign[] = recommended
    ? [
        { id: 'recommended', slug: 'tuned', label: rho > 0 ? `Robust (ρ = ${rho})` : 'Recommended', config: recommended.config },
        { id: 'current', slug: 'current', label: 'Current design', config: current },
      ]
    : [];

  const rows = view
    ? ([
        ['current', 'Current design', view.current],
        ['nominal', 'Nominal (best at the expected workload)', view.nominal],
        ['robust', `Robust (ρ = ${rho})`, view.robust],
      ] as const).map(([id, label, p]) => ({
        id,
        label,
        shape: `${p.design.policy}, T = ${formatSig(p.design.sizeRatio, 3)}`,
        buffer: p.design.bufferBytes,
        bits: p.design.filterBitsPerEntry,
        expected: p.expected,
        worst: p.worst,
        gain: 1 - p.expected / view.current.expected,
      }))
    : [];
  type Row = (typeof rows)[number];
  const columns: Column<Row>[] = [
    { key: 'label', label: 'design' },
    { key: 'shape', label: 'shape' },
    { key: 'buffer', label: 'buffer', format: (v) => formatBytes(Number(v)) },
    { key: 'bits', label: 'filters', unit: 'bits/key', format: (v) => formatSig(Number(v), 3) },
    { key: 'expected', label: 'expected cost', unit: 'I/O per op', format: (v) => <span data-value={String(v)}>{formatSig(Number(v), 4)}</span> },
    { key: 'worst', label: `worst within ρ`, unit: 'I/O per op', format: (v) => <span data-value={String(v)}>{formatSig(Number(v), 4)}</span> },
    { key: 'gain', label: 'predicted gain', format: (v) => <span data-value={String(v)}>{`${(Number(v) * 100).toFixed(1)}%`}</span> },
  ];

  const chart = useMemo(() => {
    if (!view) return null;
    const q = (xs: number[]) => xs.map((y, i) => ({ x: (100 * (i + 0.5)) / xs.length, y }));
    return {
      x: { label: 'share of sampled workloads', unit: '%' },
      y: { label: 'expected cost', unit: 'I/O per op' },
      series: [
        { id: 'current', label: 'current', points: q(view.sampled.current), color: '#5d6b7f' },
        { id: 'nominal', label: 'nominal', points: q(view.sampled.nominal), color: SERIES_COLORS[0] },
        { id: 'robust', label: 'robust', points: q(view.sampled.robust), color: SERIES_COLORS[1], dash: '6 4' },
      ],
    };
  }, [view]);

  const gains =
    measured && measured.length === 2
      ? { measured: 1 - measured[1].measured / measured[0].measured, predicted: 1 - measured[1].predicted / measured[0].predicted }
      : null;

  return (
    <>
      {tuned.error && (
        <p role="alert" className="error" data-testid="tune-model-error">
          {tuned.error}
        </p>
      )}
        <CardGrid>
          <article className="card chart-card wide" data-testid="tune-designs">
            <header className="card-head">
              <div>
                <h2>Where you could be</h2>
                <p className="caption">
                  Same memory as the current design ({formatBytes(inputs.memoryBytes)} for buffer and filters), Monkey's cost model,
                  over designs the engine can build and whose levels the model counts as the engine does.
                  {view && ` ${view.candidates.toLocaleString('en-US')} designs searched in ${view.millis.toFixed(0)} ms; robustness costs ${(view.expectedLoss * 100).toFixed(2)}% at the expected workload.`}
                </p>
              </div>
            </header>
            {view ? <DataTable columns={columns} rows={rows} testId="tune-table" rowKey={(r) => r.id} /> : <ChartPlaceholder height={120} />}
          </article>
          {chart && (
            <ChartCard id="neighbourhood" title={`${NEIGHBOUR_SAMPLES.toLocaleString('en-US')} workloads within ρ = ${rho}`} caption="Each design's expected cost on workloads drawn from the KL ball around the expected one, sorted: the right end is the worst case seen." csv={() => lineChartCsv(chart)} wide>
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
            <button type="button" className="primary" onClick={() => void runProof()} disabled={!recommended} data-testid="tune-run">
              Run current vs recommended on the engine
            </button>
            <TaskProgress />
            {measured && (
              <table className="data-table" data-testid="tune-measured">
                <thead>
                  <tr>
                    <th>design</th>
                    <th>predicted (I/O per op)</th>
                    <th>measured (I/O per op)</th>
                  </tr>
                </thead>
                <tbody>
                  {measured.map((m) => (
                    <tr key={m.label} data-testid={`tune-measured-${m.label}`}>
                      <td>{m.label}</td>
                      <td className="num" data-value={m.predicted}>{formatSig(m.predicted, 4)}</td>
                      <td className="num" data-value={m.measured}>{formatSig(m.measured, 4)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {gains && (
              <p data-testid="tune-gains" data-measured={gains.measured} data-predicted={gains.predicted}>
                Gain: {(gains.measured * 100).toFixed(1)}% measured, {(gains.predicted * 100).toFixed(1)}% predicted.
              </p>
            )}
            {gains &&
              (gains.measured >= 0 ? (
                <p className="field-msg ok" data-testid="tune-verdict" data-verdict="better">
                  Measured on the engine, the recommendation costs {(gains.measured * 100).toFixed(1)}% less I/O than the current design.
                </p>
              ) : (
                <p className="field-msg field-error" role="status" data-testid="tune-verdict" data-verdict="worse">
                  Measured on the engine, the recommendation costs {(-gains.measured * 100).toFixed(1)}% more I/O than the current design: keep
                  the current one. Monkey's model prices a tree that differs from the one the engine builds here (its level count for this data
                  size, lookups served by the write buffer), and the prediction does not hold.
                </p>
              ))}
          </article>
          {designs.length > 0 && <ExportCard title="Take it home" designs={designs} workload={workload} />}
        </CardGrid>
    </>
  );
}

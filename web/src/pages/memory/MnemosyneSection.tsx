/** Section A: Mnemosyne's per-file bits against Monkey+ and uniform, their cost, and the solver speed. */
import { Detail } from '../../ui/layout/Detail';
import { LearnLink } from '../../ui/layout/LearnLink';
import { useMemo } from 'react';
import { ScrollRegion } from '../../ui/layout/ScrollRegion';
import { BarChart } from '../../ui/charts/BarChart';
import { ChartCard } from '../../ui/charts/ChartCard';
import { lineChartCsv, tableCsv } from '../../ui/charts/csv';
import { LineChart } from '../../ui/charts/LineChart';
import type { BarChartProps, LineSeries } from '../../ui/charts/types';
import type { SweepResult, SweepState } from '../../compute';
import { MAX_FILE_BARS, STRATEGIES, type FileGroup, type Strategy } from '../../compute/sweeps/memoryMnemosyne';
import { LOOKUPS, type MnemosyneTreeInput } from '../../compute/sweeps/memoryTree';
import { formatCount, formatFixed, formatInt, formatPercent, formatSig } from '../../documents/format';
import { CardGrid } from '../../ui/layout/Page';
import { DataTable, type Column } from '../../ui/layout/DataTable';
import { Readouts } from '../../ui/layout/Readouts';
import { ChartPlaceholder } from '../../ui/layout/sweepStatus';
import { SolverTimingCard } from './SolverTimingCard';

export const STRATEGY_STYLE: Record<Strategy, { label: string; color: string }> = {
  uniform: { label: 'Uniform (RocksDB default)', color: '#5d6b7f' },
  monkey: { label: 'Monkey+', color: '#1f5fa8' },
  mnemosyne: { label: 'Mnemosyne', color: '#d1495b' },
};

const bits = (v: string | number) => formatFixed(Number(v), 2);

const GROUP_COLUMNS: Column<FileGroup>[] = [
  { key: 'label', label: 'File' },
  { key: 'entries', label: 'Entries', format: (v) => formatCount(Number(v)) },
  { key: 'accessShare', label: 'Key range hit by', unit: '% of lookups', format: (v) => formatPercent(Number(v), 3) },
  { key: 'emptyProbes', label: 'Empty probes z', unit: 'per 1 M lookups', format: (v) => formatCount(Number(v)) },
  { key: 'foundProbes', label: 'Found x', unit: 'per 1 M lookups', format: (v) => formatCount(Number(v)) },
  { key: 'uniform', label: 'Uniform', unit: 'bits/key', format: bits },
  { key: 'monkey', label: 'Monkey+', unit: 'bits/key', format: bits },
  { key: 'mnemosyne', label: 'Mnemosyne', unit: 'bits/key', format: bits },
];

type ViewResult = SweepResult<'memory.mnemosyne'>;

/** Every file, full precision, whatever the bars group (the CSV of the allocation card). */
function perFileCsv(v: ViewResult): string {
  const rows = v.files.map((f, i) => ({
    file: f.id,
    level: f.level,
    entries: f.entries,
    accessShare: f.accessShare,
    emptyProbes: f.emptyProbes,
    foundProbes: f.foundProbes,
    uniform: v.comparison.bitsPerKey.uniform[i],
    monkey: v.comparison.bitsPerKey.monkey[i],
    mnemosyne: v.comparison.bitsPerKey.mnemosyne[i],
  }));
  return tableCsv(
    [
      { key: 'file', label: 'file' },
      { key: 'level', label: 'level' },
      { key: 'entries', label: 'entries' },
      { key: 'accessShare', label: 'share of lookups in key range' },
      { key: 'emptyProbes', label: `empty probes z (per ${LOOKUPS} lookups)` },
      { key: 'foundProbes', label: `found probes x (per ${LOOKUPS} lookups)` },
      { key: 'uniform', label: 'uniform', unit: 'bits/key' },
      { key: 'monkey', label: 'Monkey+', unit: 'bits/key' },
      { key: 'mnemosyne', label: 'Mnemosyne', unit: 'bits/key' },
    ],
    rows,
  );
}

export function MnemosyneSection({
  bits: budget,
  tree,
  view,
  budgetSweep,
  timing,
}: {
  bits: number;
  tree: MnemosyneTreeInput;
  view: SweepState<ViewResult>;
  budgetSweep: SweepState<SweepResult<'memory.mnemosyneBudget'>>;
  timing: SweepState<SweepResult<'memory.solverTiming'>>;
}) {
  const v = view.data;
  const bars = useMemo<BarChartProps | null>(() => {
    if (!v) return null;
    return {
      title: 'Bits per key of each file under uniform, Monkey+ and Mnemosyne allocations',
      x: { label: 'file (level · position in the key space)' },
      y: { label: 'filter memory', unit: 'bits/key', zero: true },
      categories: v.groups.map((g) => g.label),
      groups: STRATEGIES.map((st) => ({ id: st, label: STRATEGY_STYLE[st].label, color: STRATEGY_STYLE[st].color, values: v.groups.map((g) => g[st]) })),
    };
  }, [v]);

  const sweep = budgetSweep.data;
  const costChart = useMemo(() => {
    const series: LineSeries[] = sweep
      ? [
          ...STRATEGIES.map((st) => ({
            id: `${st}-unn`,
            label: `${STRATEGY_STYLE[st].label}: unnecessary`,
            color: STRATEGY_STYLE[st].color,
            points: sweep.map((r) => ({ x: r.bits, y: r.unnecessary[st] })),
          })),
          ...STRATEGIES.map((st) => ({
            id: `${st}-total`,
            label: `${STRATEGY_STYLE[st].label}: all reads`,
            color: STRATEGY_STYLE[st].color,
            dash: '6 4',
            points: sweep.map((r) => ({ x: r.bits, y: r.total[st] })),
          })),
        ]
      : [];
    return {
      x: { label: 'memory budget', unit: 'bits per key' },
      y: { label: 'data-block reads', unit: 'per lookup', scale: 'log' as const },
      series,
    };
  }, [sweep]);

  if (!v || !bars) {
    return view.error ? (
      <p role="alert" className="error">
        {view.error}
      </p>
    ) : null;
  }
  const c = v.comparison;
  const unn = (st: Strategy) => c.cost[st].unnecessaryReadsPerLookup;
  // With no empty probes at all every plan reads nothing unnecessary: nothing to save.
  const saved = (base: number) => (base > 0 ? 1 - unn('mnemosyne') / base : 0);
  const vsMonkey = saved(unn('monkey'));
  const vsUniform = saved(unn('uniform'));
  const grouped = v.files.length > MAX_FILE_BARS;
  const treeText = `${formatInt(v.files.length)} files in ${tree.levels} level${tree.levels === 1 ? '' : 's'} (T = ${tree.sizeRatio}, ${formatInt(tree.entriesPerFile)} entries each)`;
  const workloadText =
    `Zipf θ = ${formatFixed(tree.skew, 2)} over key ranges, ${formatPercent(tree.emptyFraction, 3)} empty lookups, ` +
    (tree.foundAt === 'hot' ? `every existing key in level ${tree.hotLevel}` : 'existing keys spread by level size');

  return (
    <section className="memory-section" aria-labelledby="memory-a">
      <header className="memory-section-head">
        <h2 id="memory-a">
          <span className="memory-tag">A</span> Mnemosyne: put the bits where the lookups are
        </h2>
      </header>
      <CardGrid>
        <ChartCard
          id="mnemosyne-bits"
          wide
          title="Bits per key per file"
          caption={
            <>
              The same filter memory ({formatFixed(budget, 2)} bits/key on average) spent three ways: uniform, every file alike (RocksDB’s
              default); Monkey+, more bits for the smaller levels (Monkey’s optimum); Mnemosyne, the bits where lookups miss. Files run left
              to right through the key space, the hottest on the left with seed 0.
              {grouped && ` ${formatInt(v.files.length)} files are too many to draw one by one: each bar is a run of neighbouring files in one level (entry-weighted mean); the CSV lists every file.`}
            </>
          }
          detail={
            <>
              Budget M = {formatCount(budget * v.totalEntries)} bits. Uniform; Monkey+ (Monkey’s exact optimum per level, every file of a
              level alike; Mnemosyne §A.3.1); Mnemosyne (Algorithm 1, per file). Mnemosyne Fig 2 shows the same effect per level.
            </>
          }
          csv={() => perFileCsv(v)}
          footer={
            <ScrollRegion label="Per-file filter bits" className="memory-scroll">
              <DataTable columns={GROUP_COLUMNS} rows={v.groups} rowKey={(g) => g.label} testId="mn-table" />
            </ScrollRegion>
          }
        >
          <BarChart {...bars} data-testid="mn-bars" height={300} />
        </ChartCard>
      </CardGrid>
      <div className="memory-section-intro">
        <p>
          <LearnLink to="monkey">Monkey</LearnLink> assumes every lookup misses and keys are read evenly. Mnemosyne gives the{' '}
          <LearnLink to="bloom">filter</LearnLink> bits to the files that lookups actually miss in: hot files get more bits, files
          where lookups find their key can get none. The tree: {treeText}. Lookups: {workloadText}.
        </p>
        <Detail testId="memory-a-detail">
          Monkey gives every level the bits that minimise the false positives of an empty lookup, assuming every lookup
          is empty and keys are read uniformly. Mnemosyne (Zhu, Wei, Athanassoulis) weights each file by the empty
          probes it actually receives, z<sub>i</sub>, and solves min Σ z<sub>i</sub>·ε<sub>i</sub> exactly per file:
          files whose key ranges are hot get more bits, and files that lookups rarely miss in (often the last level,
          where existing keys are found) can get none.
        </Detail>
      </div>
      <p className="readouts-title">Unnecessary data-block reads per lookup at {formatFixed(budget, 2)} bits/key</p>
      <Readouts
        label="Unnecessary data-block reads per lookup at the chosen budget"
        items={[
          { label: 'Uniform', value: unn('uniform'), text: formatSig(unn('uniform'), 3), testId: 'mn-unn-uniform', hint: 'reads per lookup' },
          { label: 'Monkey+', value: unn('monkey'), text: formatSig(unn('monkey'), 3), testId: 'mn-unn-monkey', hint: 'reads per lookup' },
          { label: 'Mnemosyne', value: unn('mnemosyne'), text: formatSig(unn('mnemosyne'), 3), testId: 'mn-unn-mnemosyne', hint: 'reads per lookup' },
          { label: 'Saved vs Monkey+', value: vsMonkey, text: formatPercent(vsMonkey, 3), testId: 'mn-vs-monkey', hint: `${formatPercent(vsUniform, 3)} vs uniform` },
          { label: 'Files with a filter', value: c.activeFiles, text: `${formatInt(c.activeFiles)} of ${formatInt(v.files.length)}`, testId: 'mn-active' },
        ]}
      />
      <CardGrid>
        <ChartCard
          id="mnemosyne-cost"
          wide
          title="Data-block reads per lookup vs memory"
          caption={
            <>
              Solid: reads wasted on false positives. Dashed: all data-block reads, adding the lookups that find their key.
              Mnemosyne is the optimum, so it is never above the others.
            </>
          }
          detail={
            <>
              Unnecessary reads are Σ z<sub>i</sub>·ε<sub>i</sub> / Q. The model on this tree (Mnemosyne Fig 1 and Fig 11 style, where
              the paper measures the same curves on RocksDB).
            </>
          }
          csv={() => lineChartCsv(costChart)}
          status={budgetSweep.computing ? 'computing…' : budgetSweep.error ? <span className="error">{budgetSweep.error}</span> : undefined}
        >
          {sweep ? (
            <LineChart {...costChart} title="Data-block reads per lookup against filter memory" data-testid="mn-cost-chart" rules={[{ x: budget, label: `${formatFixed(budget, 2)} bits/key` }]} height={320} />
          ) : (
            <ChartPlaceholder height={320} />
          )}
        </ChartCard>
        <SolverTimingCard timing={timing} />
      </CardGrid>
    </section>
  );
}

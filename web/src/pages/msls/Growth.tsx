/**
 * From empty: write amplification as a new database fills with its N keys — the from-empty model
 * (models/src/leveled-growth.ts; no paper has one) for the page's design, by the engine's rules and
 * with LevelDB's young-tree shortcuts, and for the stored LevelDB cases next to what LevelDB and
 * the engine measured.
 */
import { useId, useMemo, useState } from 'react';
import { ScrollRegion } from '../../ui/layout/ScrollRegion';
import type { LeveledGrowthParams, LeveledGrowthPoint, MslsLevelParams } from '@lsm/models';
import { useSweep } from '../../compute/useSweep';
import { compareGrowth, growthRealisations, GROWTH_MAX_FILES } from '../../compute/writeAmp';
import { leveldbGrowthParams } from '../../documents/designs/leveldb';
import { mslsGrowthParams } from '../../documents/designs/msls';
import { formatCount, formatDifference, formatFixed, formatInt } from '../../documents/format';
import type { LeveldbCaseResult } from '../../documents/writeAmp';
import { ChartCard } from '../../ui/charts/ChartCard';
import { lineChartCsv } from '../../ui/charts/csv';
import { LineChart } from '../../ui/charts/LineChart';
import type { LineChartProps, LineSeries } from '../../ui/charts/types';
import { ChartPlaceholder, sweepStatus } from '../../ui/layout/sweepStatus';
import { ENGINE_COLOR, LEVELDB_COLOR, WA_AXIS } from './common';
import type { LeveldbComparisonState } from './useLeveldbComparison';

const DESIGN = 'design';
const SHORTCUTS_DASH = '6 4';
const HEIGHT = 300;

/** The stored cases whose first N writes differ (a Zipf case fills with the same keys as its uniform twin). */
function growthCases(results: readonly LeveldbCaseResult[]): LeveldbCaseResult[] {
  const seen = new Set<string>();
  return results.filter((r) => {
    const key = `${r.case.keys}/${r.case.valueBytes}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const caseLabel = (r: LeveldbCaseResult) => `${formatCount(r.case.keys)} keys of ${r.case.valueBytes} B, measured`;

/** What the card draws: the designs the model runs, and the measured series beside them. */
interface View {
  designs: LeveledGrowthParams[];
  measured?: { leveldb: { inserts: number; total: number }[]; engine: { inserts: number; total: number }[] };
  keys: number;
  problem?: string;
}

function designView(params: MslsLevelParams): View {
  try {
    const rules = mslsGrowthParams(params, false);
    const realisations = growthRealisations(rules);
    if (realisations === null) {
      return {
        designs: [],
        keys: rules.keys,
        problem: `The from-empty model takes up to 10⁸ keys and ${formatInt(GROWTH_MAX_FILES)} files (N ÷ the 2 MiB file): this design has ${formatCount(rules.keys)} keys in ${formatCount(rules.keys / rules.fileEntries)} files.`,
      };
    }
    return { designs: [{ ...rules, realisations }, { ...mslsGrowthParams(params, true), realisations }], keys: rules.keys };
  } catch (err) {
    return { designs: [], keys: params.keySpace, problem: err instanceof Error ? err.message : String(err) };
  }
}

function caseView(r: LeveldbCaseResult): View {
  const upToN = (s: { inserts: number; total: number }[]) => s.filter((p) => p.inserts <= r.case.keys);
  const leveldb = upToN(r.leveldb.fromEmpty);
  const engine = upToN(r.engine.fromEmpty);
  // The model runs to the last flush measured before N, each on the cadence its system flushed at.
  const keys = Math.max(leveldb[leveldb.length - 1]?.inserts ?? 0, engine[engine.length - 1]?.inserts ?? 0, 1);
  return {
    designs: [
      { ...leveldbGrowthParams(r.calibration, keys, false), bufferEntries: r.engine.insertsPerFlush },
      { ...leveldbGrowthParams(r.calibration, keys, true), bufferEntries: r.leveldb.insertsPerFlush },
    ],
    measured: { leveldb, engine },
    keys,
  };
}

const line = (points: readonly LeveledGrowthPoint[]) => [{ x: 0, y: 1 }, ...points.map((p) => ({ x: p.inserts, y: p.total }))];

export function GrowthCard({ params, comparison }: { params: MslsLevelParams; comparison: LeveldbComparisonState }) {
  const selectId = useId();
  const [choice, setChoice] = useState(DESIGN);
  const cases = useMemo(() => growthCases(comparison.doc?.results ?? []), [comparison.doc]);
  const chosenCase = cases.find((r) => r.case.id === choice);
  const view = useMemo(() => (chosenCase ? caseView(chosenCase) : designView(params)), [chosenCase, params]);
  const sweep = useSweep('msls.growth', { designs: view.designs });
  // The sweep keeps its last result while it computes; draw it only if it answers these designs.
  const models = sweep.data && sweep.data.length === view.designs.length && !sweep.computing ? sweep.data : undefined;
  const [rules, shortcuts] = models ?? [];

  const chart = useMemo<LineChartProps | null>(() => {
    if (!rules || !shortcuts) return null;
    const series: LineSeries[] = [
      { id: 'model-engine', label: 'model, the engine’s rules', color: ENGINE_COLOR, points: line(rules) },
      { id: 'model-leveldb', label: 'model, with LevelDB’s shortcuts', color: LEVELDB_COLOR, dash: SHORTCUTS_DASH, points: line(shortcuts) },
    ];
    if (view.measured) {
      series.push(
        { id: 'engine', label: 'engine, measured', color: ENGINE_COLOR, markers: true, points: view.measured.engine.map((p) => ({ x: p.inserts, y: p.total })) },
        { id: 'leveldb', label: 'LevelDB 1.23, measured', color: LEVELDB_COLOR, markers: true, points: view.measured.leveldb.map((p) => ({ x: p.inserts, y: p.total })) },
      );
    }
    return {
      title: 'Write amplification from empty: entries written per write so far',
      x: { label: 'keys written', unit: 'keys', zero: true, format: (v) => formatCount(v) },
      y: { ...WA_AXIS, label: 'write amplification so far' },
      series,
    };
  }, [rules, shortcuts, view]);

  const rows = useMemo(() => {
    if (!rules || !shortcuts) return [];
    const at = (points: readonly LeveledGrowthPoint[]) => points[points.length - 1];
    return [
      { id: 'engine', label: 'by the engine’s rules', model: at(rules), measured: view.measured && view.designs[0] && compareGrowth(view.measured.engine, rules, view.designs[0]) },
      { id: 'leveldb', label: 'with LevelDB’s shortcuts', model: at(shortcuts), measured: view.measured && view.designs[1] && compareGrowth(view.measured.leveldb, shortcuts, view.designs[1]) },
    ];
  }, [rules, shortcuts, view]);

  return (
    <ChartCard
      id="wa-from-empty"
      title="From empty: a new database filling up"
      wide
      status={sweepStatus(sweep.computing, sweep.error, sweep.ms)}
      caption={
        <>
          A new database first fills: the curve counts how many times each write so far has been written, by its flush and every merge since.
          LevelDB skips some writes a young tree allows; the engine does not.
        </>
      }
      detail={
        <>
          MSLS models a full tree under updates. No paper models a tree filling up; ours is a fluid model of the same rules — files as key
          ranges holding their entries, merged round robin, widened and cut as LevelDB does, with the keys’ sampling noise at file edges (the
          mean of several seeded realisations). LevelDB’s shortcuts: a flush that overlaps nothing goes below level 0, and a file that
          overlaps nothing below moves without a rewrite; the engine does neither.
        </>
      }
      csv={chart ? () => lineChartCsv(chart) : undefined}
      footer={
        rows.length > 0 && (
          <>
            <ScrollRegion label="Growth by rules">
              <table className="data-table" data-testid="growth-table">
                <thead>
                  <tr>
                    <th>Model</th>
                    <th>At {formatCount(view.keys)} keys</th>
                    <th>Realisations’ range</th>
                    {view.measured && <th>Measured</th>}
                    {view.measured && <th>Largest difference, any flush</th>}
                  </tr>
                </thead>
                <tbody>
                  {rows.map((r) => {
                    const last = r.measured?.points[r.measured.points.length - 1];
                    return (
                      <tr key={r.id} data-testid="growth-row" data-rules={r.id}>
                        <td>{r.label}</td>
                        <td data-value={r.model?.total}>{formatFixed(r.model?.total ?? NaN, 3)}</td>
                        <td>
                          {formatFixed(r.model?.low ?? NaN, 3)}–{formatFixed(r.model?.high ?? NaN, 3)}
                        </td>
                        {view.measured && (
                          <td data-value={last?.measured}>
                            {last ? `${r.id === 'engine' ? 'engine' : 'LevelDB'} ${formatFixed(last.measured, 3)} (model ${formatDifference(last.model, last.measured)})` : '—'}
                          </td>
                        )}
                        {view.measured && <td data-value={r.measured?.worst}>{r.measured ? `${formatFixed(r.measured.worst * 100, 1)}%` : '—'}</td>}
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </ScrollRegion>
            <p className="fine msls-note" data-testid="growth-note">
              {view.measured
                ? 'Each model runs on the flush cadence its system measured; differences are counted from the first level-0 merge (before it, every write is written once). npm test measures LevelDB and the engine again and holds the model within 6% of each at every flush.'
                : 'The design as the engine builds it (the export below): its flush cadence, level sizes and 2 MiB files, in entries. Measure it on the engine above to see the same curve measured.'}
            </p>
          </>
        )
      }
    >
      <div className="field">
        <label htmlFor={selectId}>Show</label>
        <select id={selectId} value={choice} onChange={(e) => setChoice(e.target.value)} data-testid="growth-choice">
          <option value={DESIGN}>this design (model)</option>
          {cases.map((r) => (
            <option key={r.case.id} value={r.case.id}>
              {caseLabel(r)}
            </option>
          ))}
        </select>
      </div>
      {view.problem ? (
        <p className="field-msg" data-testid="growth-problem">
          {view.problem}
        </p>
      ) : chart ? (
        <LineChart {...chart} data-testid="growth-chart" height={HEIGHT} />
      ) : (
        <ChartPlaceholder height={HEIGHT} />
      )}
    </ChartCard>
  );
}

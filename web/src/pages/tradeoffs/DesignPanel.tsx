/**
 * The holistic design for the workload: what Algorithm 1 chose (policy, T, memory split), its costs
 * and throughput on the exact model, a link that opens it on the Monkey page, its EngineConfig, and
 * the best candidates of the search.
 */
import { Detail } from '../../ui/layout/Detail';
import { LearnLink } from '../../ui/layout/LearnLink';
import { memo, useMemo } from 'react';
import { tableCsv, type TableColumn } from '../../ui/charts/csv';
import type { Dataset } from '@lsm/models';
import type { HolisticView } from '../../compute/sweeps/tradeoffs';
import { formatBytes, formatCount, formatFixed, formatSig } from '../../documents/format';
import { DataTable, type Column } from '../../ui/layout/DataTable';
import { Readouts } from '../../ui/layout/Readouts';
import { numberProblem } from '../../documents/url/validate';
import { TableCard } from '../../ui/layout/TableCard';
import { MIB, policyCode } from '../../documents/params/monkey';
import { monkeyPageHash, monkeyParams, type MonkeyState } from '../../documents/urls/monkey';
import { monkeyDesignToEngineConfig } from '../../documents/designs/tradeoffs';

export const DesignPanel = memo(function DesignPanel({
  result,
  dataset,
  memoryBytes,
  nonZeroPercent,
  busy,
  stale,
}: {
  result: HolisticView;
  dataset: Dataset;
  memoryBytes: number;
  /** Share of point lookups that find their key, carried to the Monkey page. */
  nonZeroPercent: number;
  /** The search for the latest inputs is running. */
  busy: boolean;
  /** The design shown is not for the current inputs (busy, or the inputs are invalid). */
  stale: boolean;
}) {
  const { design, costs: c } = result;
  const share = result.filterBytes / memoryBytes;
  const target: MonkeyState = {
    entries: dataset.entries,
    entryBytes: dataset.entryBytes,
    pageBytes: dataset.pageBytes,
    sizeRatio: design.sizeRatio,
    policy: policyCode(design.policy),
    bits: design.filterBitsPerEntry,
    bufferMiB: design.bufferBytes / MIB,
    nonZeroPercent,
  };
  // The Monkey page's controls bound their values; say so rather than link to a view it would reject.
  const outOfRange = (['sizeRatio', 'bits', 'bufferMiB'] as const)
    .map((k) => numberProblem(monkeyParams[k], target[k]))
    .filter((m): m is string => m !== null);
  const config = useMemo(() => monkeyDesignToEngineConfig(dataset, design), [dataset, design]);

  return (
    <article className={`card design-card${stale ? ' stale' : ''}`} data-testid="design-card" aria-labelledby="design-title" aria-busy={busy}>
      <header className="card-head">
        <div>
          <h2 id="design-title">Holistic design for this workload</h2>
          <p className="caption">
            The cheapest design for the workload on the left with {formatBytes(memoryBytes)} of memory (buffer + filters)
            {result.feasible ? '' : ' — no candidate meets the SLA; this one misses it least'}. Costs and throughput are the exact model’s.
          </p>
        </div>
      </header>
      <Readouts
        label="The chosen design"
        items={[
          { label: 'Merge policy', text: design.policy, testId: 'chosen-policy' },
          { label: 'Size ratio T', value: design.sizeRatio, text: formatSig(design.sizeRatio, 4), testId: 'chosen-T' },
          { label: 'Levels L', value: c.levels, text: String(c.levels), testId: 'chosen-levels' },
          { label: 'Buffer', value: design.bufferBytes, text: formatBytes(design.bufferBytes), testId: 'chosen-buffer' },
          {
            label: 'Filters',
            value: design.filterBitsPerEntry,
            text: `${formatFixed(design.filterBitsPerEntry, 2)} b/e`,
            testId: 'chosen-bits',
            hint: `${formatBytes(result.filterBytes)} of filters, ${formatFixed(share * 100, 1)}% of the memory`,
          },
          { label: 'Throughput, ops/s', value: result.throughput, text: formatCount(result.throughput), testId: 'chosen-throughput' },
        ]}
      />
      <Readouts
        label="Costs of the chosen design"
        items={[
          { label: 'θ, I/O per op', value: c.perOperation, text: formatSig(c.perOperation, 4), testId: 'chosen-theta' },
          { label: 'Point lookup Z', value: c.pointLookup, text: formatSig(c.pointLookup, 4), testId: 'chosen-Z' },
          { label: 'Zero-result R', value: c.zeroResultLookup, text: formatSig(c.zeroResultLookup, 4), testId: 'chosen-R' },
          { label: 'Update W', value: c.update, text: formatSig(c.update, 4), testId: 'chosen-W' },
          { label: 'Range Q', value: c.rangeLookup, text: formatSig(c.rangeLookup, 4), testId: 'chosen-Q' },
          { label: 'SLA', text: result.feasible ? 'met' : 'missed', testId: 'chosen-sla' },
        ]}
      />
      <div className="design-actions">
        {outOfRange.length === 0 ? (
          <a className="button-link" href={monkeyPageHash(target)} data-testid="use-design">
            Use this design on “Monkey vs SOTA” →
          </a>
        ) : (
          <p className="field-msg field-error">The Monkey page cannot show this design: {outOfRange.join('; ')}.</p>
        )}
        <Detail testId="design-detail">
          Monkey Algorithm 1: the memory is split by Newton’s method (Algorithm 5) for each <LearnLink to="merge">policy</LearnLink> and{' '}
          <LearnLink to="size-ratio">size ratio</LearnLink> T = (N/B)<sup>1/L</sup>; the cheapest by Eq 23.
        </Detail>
        <details>
          <summary>Engine config (JSON)</summary>
          <pre className="mono config-json" data-testid="engine-config" tabIndex={0} role="region" aria-label="Engine config (JSON)">
            {JSON.stringify(config, null, 2)}
          </pre>
        </details>
      </div>
    </article>
  );
});

interface CandidateRow extends Record<string, string | number> {
  rank: number;
  policy: string;
  sizeRatio: number;
  bufferBytes: number;
  filterBitsPerEntry: number;
  cost: number;
  feasible: string;
}

const COLUMNS: (Column<CandidateRow> & TableColumn<CandidateRow>)[] = [
  { key: 'rank', label: '#' },
  { key: 'policy', label: 'Policy' },
  { key: 'sizeRatio', label: 'T', format: (v) => formatSig(Number(v), 4) },
  { key: 'bufferBytes', label: 'Buffer', unit: 'bytes', format: (v) => formatBytes(Number(v)) },
  { key: 'filterBitsPerEntry', label: 'Filters', unit: 'bits/entry', format: (v) => formatFixed(Number(v), 2) },
  { key: 'cost', label: 'θ', unit: 'I/O per op', format: (v) => formatSig(Number(v), 4) },
  { key: 'feasible', label: 'Meets SLA' },
];

/** How many of the search's candidates the table lists. */
const SHOWN = 10;

export const CandidatesCard = memo(function CandidatesCard({ result }: { result: HolisticView }) {
  const rows: CandidateRow[] = result.ranked.slice(0, SHOWN).map((c, i) => ({
    rank: i + 1,
    policy: c.policy,
    sizeRatio: c.sizeRatio,
    bufferBytes: c.bufferBytes,
    filterBitsPerEntry: c.filterBitsPerEntry,
    cost: c.cost,
    feasible: c.feasible ? 'yes' : 'no',
  }));
  return (
    <TableCard
      id="candidates"
      wide
      title={`Best ${SHOWN} of the ${result.candidates.length} designs Algorithm 1 searched`}
      caption="Each candidate with its own best memory split, best first: θ is the cost the search minimises."
      detail="θ is the paper’s closed-form objective, Eq 23 (Eq 19/20 for lookups, continuous L for updates and scans)."
      csv={() => tableCsv(COLUMNS, rows)}
    >
      <DataTable columns={COLUMNS} rows={rows} rowKey={(r) => String(r.rank)} testId="candidates-table" highlight={(r) => r.rank === 1} />
    </TableCard>
  );
});

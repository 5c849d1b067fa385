/**
 * The tree's numbers as a table, folded under the picture: what a pointer reads by hovering a run,
 * reachable by keyboard and screen reader (Tab to the summary, Enter opens it). One row for the
 * buffer and one per run, level by level.
 */
import type { TreeShape } from '../../documents/engine';
import { formatBytes, formatPercent } from '../../documents/format';
import { DataTable, type Column } from '../layout/DataTable';

interface Row extends Record<string, string | number> {
  where: string;
  run: string;
  entries: number;
  /** '—' for the buffer: it is in memory, with no pages or filter. */
  pages: number | string;
  bits: number | string;
  fpr: number | string;
}

const NONE = '—';
const num = (f: (v: number) => string) => (v: string | number) => (typeof v === 'number' ? f(v) : v);

const COLUMNS: Column<Row>[] = [
  { key: 'where', label: 'Where', numeric: false },
  { key: 'run', label: 'Run', numeric: false },
  { key: 'entries', label: 'Entries', numeric: true, format: num((v) => v.toLocaleString('en-US')) },
  { key: 'pages', label: 'Pages', numeric: true, format: num((v) => v.toLocaleString('en-US')) },
  { key: 'bits', label: 'Filter', unit: 'bits/key', numeric: true, format: num((v) => v.toFixed(2)) },
  { key: 'fpr', label: 'False-positive rate', numeric: true, format: num((v) => formatPercent(v, 3)) },
];

/** The rows: the buffer first (no pages or filter: it is in memory), then every run. */
export function treeRows(tree: TreeShape): Row[] {
  const rows: Row[] = [
    {
      where: 'Buffer',
      run: `${formatBytes(tree.buffer_bytes)} of ${formatBytes(tree.buffer_capacity_bytes)}`,
      entries: tree.buffer_entries,
      pages: NONE,
      bits: NONE,
      fpr: NONE,
    },
  ];
  for (const level of tree.levels) {
    for (const r of level.runs) {
      rows.push({ where: `Level ${level.level}`, run: `#${r.id}`, entries: r.entries, pages: r.data_pages, bits: r.bits_per_key, fpr: r.filter_fpr });
    }
  }
  return rows;
}

export function TreeTable({ tree, testId }: { tree: TreeShape; testId: string }) {
  return (
    <details className="tree-table" data-testid={`${testId}-table-toggle`}>
      <summary>The tree as a table</summary>
      <DataTable columns={COLUMNS} rows={treeRows(tree)} rowKey={(r) => `${r.where}-${r.run}`} testId={`${testId}-table`} label="The tree’s buffer and runs" />
    </details>
  );
}

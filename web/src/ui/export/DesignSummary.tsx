/** An EngineConfig at a glance: its memory, filters, compaction and the level list, as the engine reads them. */
import type { EngineConfig } from '../../documents/engine';
import { formatBytes, formatSig } from '../../documents/format';
import { DataTable, type Column } from '../layout/DataTable';

interface LevelRow extends Record<string, string | number> {
  level: string;
  sizeRatio: number;
  maxRuns: number;
  bits: string;
}

const COLUMNS: Column<LevelRow>[] = [
  { key: 'level', label: 'Level' },
  { key: 'sizeRatio', label: 'Size ratio', format: (v) => formatSig(Number(v), 6) },
  { key: 'maxRuns', label: 'Max runs' },
  { key: 'bits', label: 'Filter', unit: 'bits/key', numeric: true },
];

function filterText(c: EngineConfig): string {
  const f = c.filter;
  const kind =
    f.kind === 'modular'
      ? `modular (${f.modules ?? 1} modules${f.skip && f.skip !== 'none' ? `, ${f.skip} skipping` : ''})`
      : f.kind === 'fast_local_bloom'
        ? "RocksDB's FastLocalBloom"
        : f.kind === 'ribbon'
          ? `RocksDB's Ribbon (Bloom-equivalent bits; Bloom before level ${f.bloom_before_level ?? 0})`
          : 'Bloom';
  return f.allocation === 'explicit' ? `${kind}, per level` : `${kind}, ${f.allocation}, ${formatSig(f.bits_per_key, 4)} bits/key`;
}

/** Whole levels, by file, or RocksDB's universal compaction with its trigger. */
function compactionText(config: EngineConfig, target: number | undefined): string {
  const files = config.compaction?.granularity === 'file' ? `by file${target ? `, ${formatBytes(target)} files` : ''}` : 'whole levels';
  const universal = config.compaction?.universal;
  if (!universal) return files;
  const trigger = universal.level0_file_num_compaction_trigger ?? 4;
  return `universal (RocksDB), ${trigger} sorted runs, ${config.compaction?.num_levels ?? 7} levels; ${files}`;
}

export function DesignSummary({ config, testId }: { config: EngineConfig; testId?: string }) {
  const explicit = config.filter.allocation === 'explicit';
  const n = config.levels.length;
  const rows: LevelRow[] = config.levels.map((l, i) => ({
    level: i === n - 1 ? `${i + 1} and below` : String(i + 1),
    sizeRatio: l.size_ratio,
    maxRuns: l.max_runs,
    bits: explicit ? formatSig(l.bits_per_key ?? 0, 4) : `(${config.filter.allocation})`,
  }));
  const cache = config.block_cache?.bytes ?? 0;
  const target = config.compaction?.target_file_bytes;
  const facts: { label: string; text: string; value?: number }[] = [
    { label: 'Page', value: config.page_bytes, text: formatBytes(config.page_bytes) },
    { label: 'Write buffer', value: config.buffer_bytes, text: formatBytes(config.buffer_bytes) },
    { label: 'Filters', text: filterText(config) },
    { label: 'Compaction', text: compactionText(config, target) },
    { label: 'Block cache', value: cache, text: cache > 0 ? formatBytes(cache) : 'none' },
  ];
  return (
    <div className="design-summary" data-testid={testId}>
      {config.name && (
        <p className="design-name" data-testid={testId && `${testId}-name`}>
          {config.name}
        </p>
      )}
      <dl className="design-facts" aria-label="Design">
        {facts.map((f) => (
          <div key={f.label}>
            <dt>{f.label}</dt>
            <dd data-value={f.value}>{f.text}</dd>
          </div>
        ))}
      </dl>
      <DataTable columns={COLUMNS} rows={rows} rowKey={(r) => r.level} testId={testId && `${testId}-levels`} />
    </div>
  );
}

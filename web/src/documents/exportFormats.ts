/**
 * The four export formats as the UI presents them, and the names their files get. The text of
 * each file comes from the engine (wasm-engine/crates/lsm-export, through the engine worker); nothing
 * here formats a design.
 */
import type { ExportFormat } from './engine';

export interface FormatInfo {
  format: ExportFormat;
  /** Tab label. */
  label: string;
  /** Who reads the file, as in "what RocksDB cannot express". */
  target: string;
  /** One sentence under the tab: what the file is for. */
  description: string;
  /** The engine refuses this format without a workload. */
  needsWorkload: boolean;
  mime: string;
}

export const EXPORT_FORMATS: readonly FormatInfo[] = [
  {
    format: 'engine',
    label: 'Engine JSON',
    target: 'the native engine',
    description: 'The canonical EngineConfig: the native CLI runs it unchanged (lsm run --config), and this explorer imports it back.',
    needsWorkload: false,
    mime: 'application/json',
  },
  {
    format: 'rocksdb',
    label: 'RocksDB OPTIONS',
    target: 'RocksDB',
    description: 'An OPTIONS file for rocksdb::LoadOptionsFromFile or db_bench --options_file (RocksDB 7.x or later).',
    needsWorkload: false,
    mime: 'text/plain',
  },
  {
    format: 'rocksdb-cpp',
    label: 'C++ filter policy',
    target: 'RocksDB',
    description: 'A FilterPolicy that gives each RocksDB level its own bits per key, which an OPTIONS file cannot say.',
    needsWorkload: false,
    mime: 'text/x-c++src',
  },
  {
    format: 'db_bench',
    label: 'db_bench script',
    target: 'db_bench',
    description: 'Shell commands that replay the workload with db_bench against the exported OPTIONS file.',
    needsWorkload: true,
    mime: 'application/x-sh',
  },
];

export function formatInfo(format: ExportFormat): FormatInfo {
  const info = EXPORT_FORMATS.find((f) => f.format === format);
  if (!info) throw new Error(`unknown export format "${format}"`);
  return info;
}

/** Longest design slug in a file name: room for the format's prefix and suffix within ~100 bytes. */
const MAX_SLUG = 64;

/**
 * A design's name for files: lower case, runs of other characters as one hyphen, parts joined
 * by hyphens, cut at a hyphen near MAX_SLUG. `designSlug('Holistic', 'leveling', 'T7.39')` →
 * `holistic-leveling-t7.39`. Never empty.
 */
export function designSlug(...parts: readonly (string | number)[]): string {
  const joined = parts
    .map((p) =>
      String(p)
        .toLowerCase()
        .replace(/[^a-z0-9.]+/g, '-')
        .replace(/^[-.]+|[-.]+$/g, ''),
    )
    .filter((p) => p !== '')
    .join('-');
  if (joined.length <= MAX_SLUG) return joined || 'design';
  const cut = joined.slice(0, MAX_SLUG);
  const hyphen = cut.lastIndexOf('-');
  return (hyphen >= MAX_SLUG / 2 ? cut.slice(0, hyphen) : cut).replace(/[-.]+$/, '');
}

/** `lsm-<design>.json`, `OPTIONS-<design>.ini`, `<design>-filter-policy.cc`, `db_bench-<design>.sh`. */
export function designFileName(format: ExportFormat, slug: string): string {
  switch (format) {
    case 'engine':
      return `lsm-${slug}.json`;
    case 'rocksdb':
      return `OPTIONS-${slug}.ini`;
    case 'rocksdb-cpp':
      return `${slug}-filter-policy.cc`;
    case 'db_bench':
      return `db_bench-${slug}.sh`;
  }
}

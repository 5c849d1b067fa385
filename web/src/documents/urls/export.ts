/**
 * The export page's controls in its URL: `#/export?v=1&d=rocksdb&w=mixed&f=db_bench`. The design
 * options are the presets of public/presets/index.json (read when the page opens) plus `custom`,
 * a pasted or imported design, which a link cannot carry.
 */
import type { ExportFormat } from '../engine';
import { EXPORT_FORMATS } from '../exportFormats';
import type { PresetIndex } from '../sources';
import { EXAMPLE_WORKLOADS } from '../sources';
import { defineUrlState, type UrlSpec } from '../url/codec';
import { enumParam, type StateOf } from '../url/params';

export const CUSTOM_DESIGN = 'custom';
const DEFAULT_PRESET = 'rocksdb';

export function exportParams(index: PresetIndex) {
  const ids = index.presets.map((p) => p.id);
  return {
    design: enumParam<string>({
      key: 'd',
      label: 'design',
      default: ids.includes(DEFAULT_PRESET) ? DEFAULT_PRESET : (ids[0] ?? CUSTOM_DESIGN),
      options: [
        ...index.presets.map((p) => ({ value: p.id, label: p.label, help: p.description })),
        { value: CUSTOM_DESIGN, label: 'Your design (pasted or imported)' },
      ],
    }),
    workload: enumParam<'none' | (typeof EXAMPLE_WORKLOADS)[number]['id']>({
      key: 'w',
      label: 'workload',
      default: 'none',
      options: [{ value: 'none', label: 'None' }, ...EXAMPLE_WORKLOADS.map((w) => ({ value: w.id, label: w.label }))],
      help: 'Sizes the RocksDB tree and converts entry bytes to RocksDB’s; db_bench replays it.',
    }),
    format: enumParam<ExportFormat>({
      key: 'f',
      label: 'format',
      default: 'rocksdb',
      options: EXPORT_FORMATS.map((f) => ({ value: f.format, label: f.label })),
    }),
  };
}

export type ExportParams = ReturnType<typeof exportParams>;
export type ExportState = StateOf<ExportParams>;

const specs = new WeakMap<PresetIndex, UrlSpec<ExportParams>>();

/** The page's URL spec for a preset index (one per index object, so React sees a stable spec). */
export function exportUrlSpec(index: PresetIndex): UrlSpec<ExportParams> {
  let spec = specs.get(index);
  if (!spec) {
    spec = defineUrlState({
      page: 'export',
      version: 1,
      params: exportParams(index),
      // The presets are the named systems' designs; "Custom settings" is a pasted or imported one.
      presets: index.presets.map((p) => ({ id: p.id, label: p.label, description: p.description, values: { design: p.id } })),
    });
    specs.set(index, spec);
  }
  return spec;
}


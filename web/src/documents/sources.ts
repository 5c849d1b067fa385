/**
 * The documents the app serves from public/: the preset designs (presets/index.json lists them)
 * and the example workloads. Fetched once per page load and shared.
 */
import type { EngineConfig, Workload } from './engine';
import { LEVELDB_WRITE_AMP_KIND, type LeveldbComparison } from './writeAmp';

export interface PresetEntry {
  id: string;
  file: string;
  label: string;
  description: string;
}

export interface PresetIndex {
  kind: 'lsm-navigator/preset-index';
  version: 1;
  presets: PresetEntry[];
}

/** The example workloads in public/examples (the directory also holds example configs). */
export const EXAMPLE_WORKLOADS = [
  { id: 'mixed', file: 'mixed.json', label: 'Mixed, Zipf 0.9 (50 k keys, 100 k ops)' },
  { id: 'zero-result-lookups', file: 'zero-result-lookups.json', label: 'Zero-result lookups (100 k keys, 100 k ops)' },
  { id: 'bench-workload', file: 'bench-workload.json', label: 'Benchmark (1 M inserts, 1 M lookups)' },
] as const;

export type ExampleWorkloadId = (typeof EXAMPLE_WORKLOADS)[number]['id'];

const base = () => import.meta.env.BASE_URL.replace(/\/?$/, '/');

const cache = new Map<string, Promise<unknown>>();

/** GET a JSON file served from public/, once; a failed fetch is not cached. */
function fetchJson(path: string): Promise<unknown> {
  let p = cache.get(path);
  if (!p) {
    p = fetch(`${base()}${path}`).then(async (res) => {
      if (!res.ok) throw new Error(`could not load /${path}: HTTP ${res.status}`);
      return res.json() as Promise<unknown>;
    });
    p.catch(() => cache.delete(path));
    cache.set(path, p);
  }
  return p;
}

function hasKind(doc: unknown, kind: string): boolean {
  return typeof doc === 'object' && doc !== null && (doc as { kind?: unknown }).kind === kind;
}

export async function loadPresetIndex(): Promise<PresetIndex> {
  const doc = await fetchJson('presets/index.json');
  if (!hasKind(doc, 'lsm-navigator/preset-index')) throw new Error('/presets/index.json is not a preset index');
  return doc as PresetIndex;
}

export async function loadPreset(entry: PresetEntry): Promise<EngineConfig> {
  const doc = await fetchJson(`presets/${entry.file}`);
  if (!hasKind(doc, 'lsm-navigator/engine-config')) throw new Error(`/presets/${entry.file} is not an engine config`);
  return doc as EngineConfig;
}

export async function loadExampleWorkload(id: ExampleWorkloadId): Promise<Workload> {
  const entry = EXAMPLE_WORKLOADS.find((w) => w.id === id);
  if (!entry) throw new Error(`unknown example workload "${id}"`);
  const doc = await fetchJson(`examples/${entry.file}`);
  if (!hasKind(doc, 'lsm-navigator/workload')) throw new Error(`/examples/${entry.file} is not a workload`);
  return doc as Workload;
}

/** The stored write-amplification comparison with a real LevelDB (public/measured). */
export async function loadLeveldbComparison(): Promise<LeveldbComparison> {
  const doc = await fetchJson('measured/leveldb-write-amp.json');
  if (!hasKind(doc, LEVELDB_WRITE_AMP_KIND)) throw new Error('/measured/leveldb-write-amp.json is not a LevelDB comparison');
  return doc as LeveldbComparison;
}

/**
 * What the lab keeps: every run, sweep and comparison with its documents and measurements, stored
 * in IndexedDB (its own database, separate from the engine's files) so results survive reloads
 * and can be re-plotted, downloaded or deleted later.
 */
import { type DBSchema, type IDBPDatabase, openDB } from 'idb';
import type { Backend } from '../../engine/protocol';
import type { EngineConfig, Report, Workload } from '../../documents/engine';
import type { SweepSpec, SweepPointResult } from './sweeps';
import type { CompareRow } from './mnemosyne';

interface Base {
  id: string;
  created: number;
  label: string;
}

/** One workload (or trace) run on the engine, or a Report imported from the native CLI. */
export interface RunResult extends Base {
  kind: 'run';
  /** 'imported' for a report read from a file. */
  backend: Backend | 'imported';
  database: string;
  config: EngineConfig;
  workload: Workload | null;
  report: Report;
  cancelled: boolean;
  millis: number;
}

/** A series of runs over one parameter, with its measured points (the model curves are recomputed from `spec`). */
export interface SweepResult extends Base {
  kind: 'sweep';
  spec: SweepSpec;
  points: SweepPointResult[];
  cancelled: boolean;
  millis: number;
}

/** The same skewed workload under several filter allocations. */
export interface CompareResult extends Base {
  kind: 'compare';
  config: EngineConfig;
  workload: Workload;
  rows: CompareRow[];
  cancelled: boolean;
  millis: number;
}

export type LabResult = RunResult | SweepResult | CompareResult;

interface Schema extends DBSchema {
  results: { key: string; value: LabResult; indexes: { created: number } };
}

let connection: Promise<IDBPDatabase<Schema>> | null = null;

function db(): Promise<IDBPDatabase<Schema>> {
  connection ??= openDB<Schema>('lsm-navigator-lab', 1, {
    upgrade(d) {
      const store = d.createObjectStore('results', { keyPath: 'id' });
      store.createIndex('created', 'created');
    },
  });
  return connection;
}

let counter = 0;
/** Ids sort by creation time and never collide within a tab. */
export function newResultId(kind: LabResult['kind']): string {
  counter += 1;
  return `${kind}-${Date.now().toString(36)}-${counter.toString(36)}`;
}

const listeners = new Set<() => void>();
/** Called whenever the stored list changes (so every panel showing it refreshes). */
export function onResultsChange(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
const changed = () => listeners.forEach((fn) => fn());

export async function saveResult(r: LabResult): Promise<void> {
  await (await db()).put('results', r);
  changed();
}

/** Newest first. */
export async function listResults(): Promise<LabResult[]> {
  const all = await (await db()).getAllFromIndex('results', 'created');
  return all.reverse();
}

export async function getResult(id: string): Promise<LabResult | undefined> {
  return (await db()).get('results', id);
}

export async function deleteResult(id: string): Promise<void> {
  await (await db()).delete('results', id);
  changed();
}

/** Moose's input limits and validation helpers (internal: not re-exported by the package). */
import type { Dataset, Workload } from '../types';
import { ModelInputError, requireNumber, requireOneOf, requireSumToOne } from '../validate';
import { MOOSE_DEFAULT_BUFFER_BYTES, type MooseOptions, type MooseUpdateModel } from './types';

// ---------------------------------------------------------------------------------------------
// Limits

export const MAX_LEVELS = 64;
export const MAX_RATIO = 1e9;
export const MAX_BITS_PER_ENTRY = 1000;
/** Largest memory the filter solver accepts, bits per entry (FPRs stay representable). */
export const MAX_MEMORY_BITS_PER_ENTRY = 512;
/** Largest N/F the DP and Smoose accept. */
export const MAX_BUFFERS = 1e8;
export const EPS = 1e-9;
// ---------------------------------------------------------------------------------------------
// Validation helpers

export interface Env {
  entries: number;
  entriesPerPage: number;
  bufferEntries: number;
  updateModel: MooseUpdateModel;
}

function checkDataset(dataset: Dataset): { entries: number; entryBytes: number; entriesPerPage: number } {
  if (typeof dataset !== 'object' || dataset === null) throw new ModelInputError('dataset', 'must be an object');
  const entries = requireNumber('dataset.entries', dataset.entries, 1, 1e15);
  const entryBytes = requireNumber('dataset.entryBytes', dataset.entryBytes, 0, 1e9, { exclusiveMin: true });
  const pageBytes = requireNumber('dataset.pageBytes', dataset.pageBytes, entryBytes, 1e12);
  return { entries, entryBytes, entriesPerPage: Math.floor(pageBytes / entryBytes) };
}

export function checkEnv(dataset: Dataset, options: MooseOptions = {}): Env {
  const d = checkDataset(dataset);
  const bufferBytes = requireNumber(
    'options.bufferBytes',
    options.bufferBytes ?? MOOSE_DEFAULT_BUFFER_BYTES,
    d.entryBytes,
    1e15,
  );
  const updateModel = requireOneOf('options.updateModel', options.updateModel ?? 'paper', ['paper', 'refined'] as const);
  return {
    entries: d.entries,
    entriesPerPage: d.entriesPerPage,
    bufferEntries: Math.floor(bufferBytes / d.entryBytes),
    updateModel,
  };
}

export interface CheckedWorkload {
  z: number;
  v: number;
  q: number;
  w: number;
  sigma: number;
}

export function checkWorkload(workload: Workload): CheckedWorkload {
  if (typeof workload !== 'object' || workload === null) throw new ModelInputError('workload', 'must be an object');
  requireSumToOne('workload', {
    pointLookups: workload.pointLookups,
    rangeLookups: workload.rangeLookups,
    updates: workload.updates,
  });
  const v = requireNumber('workload.nonZeroFraction', workload.nonZeroFraction, 0, 1);
  const sigma = requireNumber('workload.rangeSelectivity', workload.rangeSelectivity, 0, 1);
  return { z: workload.pointLookups, v, q: workload.rangeLookups, w: workload.updates, sigma };
}

export function checkMemoryBits(field: string, memoryBytes: number, entries: number): number {
  const bits = 8 * requireNumber(field, memoryBytes, 0, (MAX_MEMORY_BITS_PER_ENTRY * entries) / 8);
  return bits;
}

export function floorRatio(r: number): number {
  return Math.max(1, Math.floor(r + EPS));
}

// ---------------------------------------------------------------------------------------------
// Per-level vectors

type Bounds = [min: number, max: number, exclusiveMin: boolean];

/** Validate per-level vectors of one length L ∈ [1, 64], each entry within its field's bounds. */
export function checkVectors(vectors: Record<string, readonly number[]>, bounds: Record<string, Bounds>): number {
  let L = -1;
  for (const [field, v] of Object.entries(vectors)) {
    if (!Array.isArray(v) || v.length < 1 || v.length > MAX_LEVELS) {
      throw new ModelInputError(field, `must list between 1 and ${MAX_LEVELS} levels`);
    }
    if (L >= 0 && v.length !== L) throw new ModelInputError(field, `must have one entry per level (${L}), got ${v.length}`);
    L = v.length;
    const [lo, hi, exclusiveMin] = bounds[field];
    v.forEach((x, i) => requireNumber(`${field}[${i}]`, x, lo, hi, { exclusiveMin }));
  }
  return L;
}

export const POSITIVE: Bounds = [0, Infinity, true];
export const FPR: Bounds = [0, 1, false];

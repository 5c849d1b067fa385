/**
 * The Moose page's editable level table as plain numbers: how a model layout becomes a short,
 * valid row list for the URL, how the table is checked as the user types (per cell, then against
 * the data set), and the structural edits (add a level, remove one, fit the last level).
 *
 * Conventions are the model's (models/src/moose/): levels 1..L−1 are full, N_i = F·r_1⋯r_i; the
 * last level holds the remainder N − Σ_{i<L} N_i and its ratio is only a capacity (≥ 1); runs are
 * whole numbers in [1, floor(r_i)].
 */
import { ModelInputError, mooseCapacitiesFromRatios, mooseLevelCapacities, type Dataset, type MooseLevel } from '@lsm/models';
import { formatBound, readNumber } from './url/validate';

/** Most levels the table offers (a 2-MiB buffer and ratio 2 reach 10¹² entries in 20 levels). */
export const MAX_TABLE_LEVELS = 20;
export const MAX_TABLE_RATIO = 1e6;
export const MAX_TABLE_RUNS = 1e6;
/** The engine's cap on bits per key (wasm-engine config.rs), also the table's. */
export const MAX_TABLE_BITS = 64;

export interface TableEnv {
  dataset: Dataset;
  bufferBytes: number;
}

/** One row of the table; the same fields as the model's MooseLevel. */
export type TableLevel = MooseLevel;

/** The buffer in entries, F = floor(bufferBytes / entryBytes), exactly as models/src/moose/. */
export function bufferEntriesOf(env: TableEnv): number {
  return Math.floor(env.bufferBytes / env.dataset.entryBytes);
}

/** Six significant digits: short in the URL, and within 1e-6 of the model's value. */
export function roundRatio(v: number): number {
  return Number(v.toPrecision(6));
}

/**
 * An inner level's ratio cut (not rounded) to six significant digits. Cutting keeps every
 * floor(r) — the grid holds every integer — and can only grow the last level's share, so no
 * level ever loses a run to rounding (the model caps runs at floor of the effective ratio).
 */
export function trimRatio(v: number): number {
  const unit = 10 ** (Math.floor(Math.log10(v)) - 5);
  return Number((Math.floor(v / unit + 1e-9) * unit).toPrecision(6));
}

/** The smallest six-significant-digit number ≥ v (a last level rounded down would not fit). */
export function ceilRatio(v: number): number {
  const unit = 10 ** (Math.floor(Math.log10(v)) - 5);
  return Number((Math.ceil(v / unit - 1e-9) * unit).toPrecision(6));
}

export function roundBits(b: number): number {
  return Number(b.toFixed(3));
}

const floorRatio = (r: number) => Math.max(1, Math.floor(r + 1e-9));

/**
 * What the last level must hold and the ratio it needs, for the ratios of levels 1..L−1
 * (`innerRatios`); `innerTotal` ≥ N means the inner levels leave nothing for it.
 */
export function lastLevelNeed(env: TableEnv, innerRatios: readonly number[]): { innerTotal: number; remainder: number; previous: number; ratio: number } {
  const F = bufferEntriesOf(env);
  const caps = innerRatios.length > 0 ? mooseCapacitiesFromRatios(F, innerRatios) : [];
  const innerTotal = caps.reduce((a, c) => a + c, 0);
  const previous = caps.length > 0 ? caps[caps.length - 1] : F;
  const remainder = env.dataset.entries - innerTotal;
  return { innerTotal, remainder, previous, ratio: remainder / previous };
}

/** The last level's ratio set to the least (six-digit) value that holds the remainder; null if nothing remains. */
export function fitLastLevel(env: TableEnv, table: readonly TableLevel[]): TableLevel[] | null {
  const L = table.length;
  const need = lastLevelNeed(env, table.slice(0, L - 1).map((l) => l.sizeRatio));
  if (need.remainder <= 0) return null;
  const ratio = Math.max(1, ceilRatio(need.ratio));
  if (ratio > MAX_TABLE_RATIO) return null;
  const last = table[L - 1];
  return [...table.slice(0, L - 1), { ...last, sizeRatio: ratio, runs: Math.min(last.runs, floorRatio(ratio)) }];
}

/**
 * A model layout as table rows: inner ratios cut to six digits, the last level's ratio refitted to
 * hold what the inner levels leave (at least its own ratio), bits to three decimals.
 */
export function tableFromLayout(env: TableEnv, levels: readonly MooseLevel[]): TableLevel[] {
  const L = levels.length;
  const rows = levels.map((l, i) => ({
    sizeRatio: i < L - 1 ? trimRatio(l.sizeRatio) : l.sizeRatio,
    runs: l.runs,
    bitsPerEntry: roundBits(l.bitsPerEntry),
  }));
  const fitted = fitLastLevel(env, rows);
  if (!fitted) return rows;
  // Never below the layout's own last ratio (its capacity), whatever the fit says.
  const last = fitted[L - 1];
  const sizeRatio = Math.max(last.sizeRatio, ceilRatio(levels[L - 1].sizeRatio));
  return [...fitted.slice(0, L - 1), { ...last, sizeRatio, runs: Math.min(levels[L - 1].runs, floorRatio(sizeRatio)) }];
}

/**
 * A new level under the last: the old last level becomes full with ratio a and the new one holds
 * the rest with about the same ratio, a(1 + a)·N_{L−1} = what the old last level held. Needs
 * a ≥ 2, i.e. the last level holding at least six times the level above it.
 */
export function addLevel(env: TableEnv, table: readonly TableLevel[]): { table: TableLevel[] } | { problem: string } {
  const L = table.length;
  if (L >= MAX_TABLE_LEVELS) return { problem: `The table holds at most ${MAX_TABLE_LEVELS} levels.` };
  const need = lastLevelNeed(env, table.slice(0, L - 1).map((l) => l.sizeRatio));
  const x = need.remainder / need.previous;
  const a = (-1 + Math.sqrt(1 + 4 * x)) / 2;
  if (!(a >= 2)) {
    return {
      problem: `No room for another level: the last level holds ${formatBound(roundRatio(x))}× the level above it, and two more levels with ratios ≥ 2 need at least 6×. Lower a size ratio or remove a level first.`,
    };
  }
  const last = table[L - 1];
  const inner = trimRatio(a);
  const rows: TableLevel[] = [
    ...table.slice(0, L - 1),
    { ...last, sizeRatio: inner, runs: Math.min(last.runs, floorRatio(inner)) },
    { ...last, sizeRatio: inner },
  ];
  const fitted = fitLastLevel(env, rows);
  return fitted ? { table: fitted } : { problem: 'No room for another level.' };
}

/** Level `index` removed; the levels under it move up, and the last level is refitted. */
export function removeLevel(env: TableEnv, table: readonly TableLevel[], index: number): { table: TableLevel[] } | { problem: string } {
  if (table.length <= 1) return { problem: 'A tree needs at least one level.' };
  const rows = table.filter((_, i) => i !== index);
  // A former inner level that is now the last one may keep a ratio below 2; one that moved up must not.
  const fitted = fitLastLevel(env, rows);
  if (!fitted) return { problem: `Without level ${index + 1} the last level would need a size ratio above ${formatBound(MAX_TABLE_RATIO)}.` };
  return { table: fitted };
}

// ------------------------------------------------------------------------------------ checking

export interface DraftRow {
  ratio: string;
  runs: string;
  bits: string;
}

export interface RowProblems {
  ratio: string | null;
  runs: string | null;
  bits: string | null;
}

export interface DraftCheck {
  /** The rows as numbers when every cell and the table as a whole are valid. */
  levels: TableLevel[] | null;
  rows: RowProblems[];
  /** A problem of the whole table with this data set (it does not fit). */
  table: string | null;
  /** The last level's ratio that would make the table fit, when that is the problem. */
  fitRatio: number | null;
  /** Not errors: what the model does with the values (e.g. runs capped at the last level). */
  notes: string[];
}

function between(what: string, lo: number, hi: number, integer = false): string {
  return `${what} must be ${integer ? 'a whole number' : 'a number'} between ${formatBound(lo)} and ${formatBound(hi)}`;
}

function checkRatio(text: string, last: boolean): { value: number | null; problem: string | null } {
  const lo = last ? 1 : 2;
  const what = last ? 'size ratio (last level)' : 'size ratio';
  const v = readNumber(text);
  if (v === null || v < lo || v > MAX_TABLE_RATIO) return { value: null, problem: between(what, lo, MAX_TABLE_RATIO) };
  return { value: v, problem: null };
}

function checkRuns(text: string, ratio: number | null): { value: number | null; problem: string | null } {
  const hi = ratio === null ? MAX_TABLE_RUNS : floorRatio(ratio);
  const v = readNumber(text);
  if (v === null || !Number.isInteger(v) || v < 1 || v > hi) {
    return { value: null, problem: `${between('runs', 1, hi, true)}${ratio === null ? '' : ` (floor of the size ratio ${formatBound(ratio)})`}` };
  }
  return { value: v, problem: null };
}

function checkBits(text: string): { value: number | null; problem: string | null } {
  const v = readNumber(text);
  if (v === null || v < 0 || v > MAX_TABLE_BITS) return { value: null, problem: between('bits per entry', 0, MAX_TABLE_BITS) };
  return { value: v, problem: null };
}

/**
 * Check the table as typed: each cell (ratio ≥ 2, the last ≥ 1; runs whole in [1, floor r];
 * bits in [0, 64] when `checkBitsCells`), then the whole table against the data set. Unchecked
 * bits (optimal filters on) are read leniently: the page evaluates the optimal split instead.
 */
export function checkDraft(env: TableEnv, rows: readonly DraftRow[], checkBitsCells: boolean): DraftCheck {
  const L = rows.length;
  const problems: RowProblems[] = [];
  const levels: TableLevel[] = [];
  let cellsOk = L >= 1 && L <= MAX_TABLE_LEVELS;
  rows.forEach((row, i) => {
    const r = checkRatio(row.ratio, i === L - 1);
    const n = checkRuns(row.runs, r.value);
    const b = checkBitsCells ? checkBits(row.bits) : { value: readNumber(row.bits) ?? 0, problem: null };
    problems.push({ ratio: r.problem, runs: n.problem, bits: b.problem });
    if (r.value === null || n.value === null || b.value === null) cellsOk = false;
    else levels.push({ sizeRatio: r.value, runs: n.value, bitsPerEntry: checkBitsCells ? b.value : Math.min(MAX_TABLE_BITS, Math.max(0, b.value)) });
  });
  const failed = (table: string | null, fitRatio: number | null = null): DraftCheck => ({ levels: null, rows: problems, table, fitRatio, notes: [] });
  if (!cellsOk) return failed(null);

  const need = lastLevelNeed(env, levels.slice(0, L - 1).map((l) => l.sizeRatio));
  const n = env.dataset.entries;
  if (need.remainder <= 0) {
    return failed(
      `Levels 1–${L - 1} already hold ${formatBound(Math.round(need.innerTotal))} entries, at least the ${formatBound(n)} in the data set: lower a size ratio or remove a level.`,
    );
  }
  const last = levels[L - 1];
  if (need.remainder > need.previous * last.sizeRatio * (1 + 1e-9)) {
    const fit = Math.max(1, ceilRatio(need.ratio));
    return failed(
      `Level ${L} can hold ${formatBound(Math.round(need.previous * last.sizeRatio))} entries but must hold the remaining ${formatBound(Math.round(need.remainder))}: its size ratio must be at least ${formatBound(fit)}, or add a level.`,
      fit <= MAX_TABLE_RATIO ? fit : null,
    );
  }
  try {
    // The model's own check has the last word (same rules; catches anything the UI missed).
    mooseLevelCapacities(env.dataset, levels, { bufferBytes: env.bufferBytes });
  } catch (err) {
    if (err instanceof ModelInputError) return failed(err.message);
    throw err;
  }
  const notes: string[] = [];
  const held = floorRatio(need.ratio);
  if (last.runs > held) {
    notes.push(`Level ${L} holds ${formatBound(roundRatio(need.ratio))}× level ${L - 1 || 'the buffer'}, so the model counts ${held} run${held === 1 ? '' : 's'} there, not ${last.runs}.`);
  }
  return { levels, rows: problems, table: null, fitRatio: null, notes };
}

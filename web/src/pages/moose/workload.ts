/**
 * The page's state turned into model inputs, with the checks no single control can make: the four
 * operation shares must add up to 100%, the three level lists must have one value per level, and
 * the page must hold at least one entry.
 */
import type { Dataset, Workload } from '@lsm/models';
import type { DraftRow, TableLevel } from '../../compute/sweeps/mooseTable';
import { MIB, type MooseState } from './state';

export interface MixPercents {
  zeroResult: number;
  nonZeroResult: number;
  range: number;
  update: number;
}

/** Shares may be typed with decimals (workload J is 33.3/33.3/33.4); this close to 100 counts. */
const TOLERANCE = 1e-9;

export function mixOf(s: MooseState): MixPercents {
  return { zeroResult: s.zeroResult, nonZeroResult: s.nonZeroResult, range: s.range, update: s.update };
}

export function mixTotal(m: MixPercents): number {
  return m.zeroResult + m.nonZeroResult + m.range + m.update;
}

export function mixProblem(m: MixPercents): string | null {
  const total = mixTotal(m);
  if (Math.abs(total - 100) <= TOLERANCE) return null;
  const by = Number(Math.abs(100 - total).toPrecision(6));
  return `The operation mix adds up to ${Number(total.toPrecision(6))}%, not 100%: ${total > 100 ? 'lower' : 'raise'} one of the four shares by ${by} points.`;
}

export function workloadOf(m: MixPercents, rangeSelectivity: number): Workload {
  const point = m.zeroResult + m.nonZeroResult;
  return {
    pointLookups: point / 100,
    nonZeroFraction: point === 0 ? 0 : m.nonZeroResult / point,
    rangeLookups: m.range / 100,
    updates: m.update / 100,
    rangeSelectivity,
  };
}

export function datasetOf(s: MooseState): Dataset {
  return { entries: s.entries, entryBytes: s.entryBytes, pageBytes: s.pageBytes };
}

export function bufferBytesOf(s: MooseState): number {
  return s.bufferMiB * MIB;
}

export function datasetProblem(s: MooseState): string | null {
  if (s.pageBytes < s.entryBytes) {
    return `The page size (${s.pageBytes} bytes) must be at least the entry size (${s.entryBytes} bytes): a page holds B = page ÷ entry ≥ 1 entries.`;
  }
  if (s.bufferMiB * MIB < s.entryBytes) {
    return `The write buffer must hold at least one entry of ${s.entryBytes} bytes.`;
  }
  return null;
}

/** The table in the state as rows (bits padded with 0 if the list is short, which `listsProblem` reports). */
export function tableOf(s: MooseState): TableLevel[] {
  return s.ratios.map((r, i) => ({ sizeRatio: r, runs: s.runs[i] ?? 1, bitsPerEntry: s.bits[i] ?? 0 }));
}

/** The three lists as the table's text cells. */
export function draftOf(table: readonly TableLevel[]): DraftRow[] {
  return table.map((l) => ({ ratio: String(l.sizeRatio), runs: String(l.runs), bits: String(l.bitsPerEntry) }));
}

/** The state's lists from table rows. */
export function listsOf(table: readonly TableLevel[]): Pick<MooseState, 'ratios' | 'runs' | 'bits'> {
  return { ratios: table.map((l) => l.sizeRatio), runs: table.map((l) => l.runs), bits: table.map((l) => l.bitsPerEntry) };
}

/** Lists of different lengths can only come from a hand-edited link. */
export function listsProblem(s: MooseState): string | null {
  const L = s.ratios.length;
  if (s.runs.length !== L || s.bits.length !== L) {
    return `The link’s level table lists ${L} size ratios (T), ${s.runs.length} run counts (K) and ${s.bits.length} bits per entry (b); it needs one of each per level.`;
  }
  return null;
}

export function sameTable(a: readonly TableLevel[], b: readonly TableLevel[]): boolean {
  return a.length === b.length && a.every((l, i) => l.sizeRatio === b[i].sizeRatio && l.runs === b[i].runs && l.bitsPerEntry === b[i].bitsPerEntry);
}

/**
 * The page's state turned into model inputs, with the checks no single control can make: the three
 * level lists must have one value per level, the page must hold at least one entry and the write
 * buffer too. The operation mix and the data set are the shared ones (../shared/workloadMix,
 * ../shared/dataset).
 */
import type { DraftRow, TableLevel } from '../../documents/mooseTable';
import { datasetProblem } from '../../documents/params/dataset';
import { MIB, type MooseState } from '../../documents/urls/moose';

export function bufferBytesOf(s: MooseState): number {
  return s.bufferMiB * MIB;
}

/** The shared data-set rule (./shared/dataset), and a write buffer that holds at least one entry. */
export function datasetAndBufferProblem(s: MooseState): string | null {
  const dataset = datasetProblem(s);
  if (dataset) return dataset;
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

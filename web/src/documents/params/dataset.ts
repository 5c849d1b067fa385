/**
 * The data set as pages describe it (entries, entry size, page size) and the one rule its three
 * controls cannot check one by one.
 */
import type { Dataset } from '@lsm/models';

export interface DatasetState {
  entries: number;
  entryBytes: number;
  pageBytes: number;
}

export function datasetOf(s: DatasetState): Dataset {
  return { entries: s.entries, entryBytes: s.entryBytes, pageBytes: s.pageBytes };
}

/**
 * A data set the controls accept one by one but the model cannot use as a whole, explained in the
 * words of the controls; null when it is fine.
 */
export function datasetProblem(s: DatasetState): string | null {
  if (s.pageBytes < s.entryBytes) {
    return `The page size (${s.pageBytes} bytes) must be at least the entry size (${s.entryBytes} bytes): a page holds B = page ÷ entry ≥ 1 entries.`;
  }
  return null;
}

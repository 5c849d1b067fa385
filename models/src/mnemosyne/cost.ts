/** The cost of a Mnemosyne filter plan: expected unnecessary reads (Eq 5) and data reads per lookup. */
import { fprFromBitsPerKey } from '../bloom';
import { ModelInputError, requireNumber } from '../validate';
import { validateFiles, type MnemosyneFile } from './allocation';

// ───────────────────────────────────────────────────────────────── model cost

/** Σ z_i·ε(b_i): expected unnecessary data-block reads over the window (Eq 5). */
export function mnemosyneExpectedCost(files: readonly MnemosyneFile[], bitsPerKey: readonly number[]): number {
  validateFiles(files);
  if (!Array.isArray(bitsPerKey) || bitsPerKey.length !== files.length) {
    throw new ModelInputError('bitsPerKey', `must be an array with one entry per file (${files.length})`);
  }
  return files.reduce((s, f, i) => s + f.emptyProbes * fprFromBitsPerKey(requireNumber(`bitsPerKey[${i}]`, bitsPerKey[i], 0, Infinity, { exclusiveMax: true })), 0);
}

export interface MnemosyneLookupCost {
  /** Σ z_i·ε_i / Q: data-block reads per lookup caused by false positives. */
  unnecessaryReadsPerLookup: number;
  /** (Σ x_i + Σ z_i·ε_i) / Q: all data-block reads per lookup. */
  dataReadsPerLookup: number;
}

/**
 * Per-lookup data-block reads for a filter plan (§A.3.2). `files[i].foundProbes` = x_i (probes that found
 * their key in file i, default 0); `lookups` = Q > 0, the lookups that reached the disk levels.
 */
export function mnemosyneLookupCost(
  files: readonly (MnemosyneFile & { foundProbes?: number })[],
  bitsPerKey: readonly number[],
  lookups: number,
): MnemosyneLookupCost {
  const Q = requireNumber('lookups', lookups, 0, Infinity, { exclusiveMin: true, exclusiveMax: true });
  const unnecessary = mnemosyneExpectedCost(files, bitsPerKey);
  const found = files.reduce((s, f, i) => s + requireNumber(`files[${i}].foundProbes`, f.foundProbes ?? 0, 0, Infinity, { exclusiveMax: true }), 0);
  return { unnecessaryReadsPerLookup: unnecessary / Q, dataReadsPerLookup: (found + unnecessary) / Q };
}

/**
 * Bloom filter math shared by every model (reference §0 of mnemosyne-shamba.md, Eq 2 of Monkey).
 * Memory in bits per entry; FPR as a probability.
 */
import { requireNumber } from './validate';

/** (ln 2)², the constant of the ideal-k Bloom filter: FPR = exp(−b·ln²2). */
export const LN2_SQ = Math.LN2 * Math.LN2;

/** False-positive rate with `bitsPerKey` bits per key and the ideal (real-valued) hash count. */
export function fprFromBitsPerKey(bitsPerKey: number): number {
  requireNumber('bitsPerKey', bitsPerKey, 0, Infinity);
  return Math.exp(-bitsPerKey * LN2_SQ);
}

/** Bits per key needed for false-positive rate `fpr` (ideal hash count). FPR 1 means no filter. */
export function bitsPerKeyFromFpr(fpr: number): number {
  requireNumber('fpr', fpr, 0, 1, { exclusiveMin: true });
  return -Math.log(fpr) / LN2_SQ;
}

/** The ideal hash count b·ln 2 (real-valued). */
export function idealHashCount(bitsPerKey: number): number {
  requireNumber('bitsPerKey', bitsPerKey, 0, Infinity);
  return bitsPerKey * Math.LN2;
}

/** The integer hash count engines use: round(b·ln 2), at least 1 (0 without memory). Matches the engine. */
export function optimalHashCount(bitsPerKey: number): number {
  requireNumber('bitsPerKey', bitsPerKey, 0, 64);
  if (bitsPerKey === 0) return 0;
  return Math.min(30, Math.max(1, Math.round(bitsPerKey * Math.LN2)));
}

/** FPR of a filter with an integer hash count k: (1 − e^{−k/b})^k. */
export function fprWithHashes(bitsPerKey: number, hashes: number): number {
  requireNumber('bitsPerKey', bitsPerKey, 0, Infinity);
  requireNumber('hashes', hashes, 0, 64, { integer: true });
  if (bitsPerKey === 0 || hashes === 0) return 1;
  return Math.pow(1 - Math.exp(-hashes / bitsPerKey), hashes);
}

/** FPR of a concrete filter: `bits` bits, `hashes` probes, `entries` keys (what the engine reports). */
export function filterFpr(bits: number, hashes: number, entries: number): number {
  requireNumber('bits', bits, 0, Infinity);
  requireNumber('hashes', hashes, 0, 64, { integer: true });
  requireNumber('entries', entries, 0, Infinity);
  if (bits === 0 || hashes === 0) return 1;
  if (entries === 0) return 0;
  return Math.pow(1 - Math.exp((-hashes * entries) / bits), hashes);
}

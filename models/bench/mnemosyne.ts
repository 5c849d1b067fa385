/**
 * Mnemosyne solver speed (paper Fig 4, reference §A.3.7): sort-and-search (Algorithm 1) and its binary-search
 * variant vs the Monkey+-style gradient descent on the same 1,000 files with Zipf-skewed empty probes.
 * The paper claims 2–4 orders of magnitude and ~0.1 ms for > 1K files. Printed figures, not assertions.
 */
import {
  type MnemosyneFile,
  mnemosyneAllocation,
  mnemosyneBinarySearch,
  mnemosyneExpectedCost,
  mnemosyneGradientDescent,
} from '../src/mnemosyne';
import { mulberry32, shuffleInPlace } from '../src/random';
import { report, time } from './timing';

/**
 * `count` files of 1K–100K entries; empty probes follow Zipf(1.1) over a random ranking of the files
 * (1M probes in total), and one file in ten gets none (e.g. last-level files that only serve hits).
 */
function skewedFiles(count: number, seed: number): MnemosyneFile[] {
  // Seeded, so every run benchmarks the same instance.
  const rand = mulberry32(seed);
  const ranks = shuffleInPlace(Array.from({ length: count }, (_, i) => i + 1), rand);
  const weights = ranks.map((r) => 1 / Math.pow(r, 1.1));
  const total = weights.reduce((a, b) => a + b, 0);
  return ranks.map((_, i) => ({
    entries: 1000 + Math.floor(rand() * 99_001),
    emptyProbes: rand() < 0.1 ? 0 : Math.round((1_000_000 * weights[i]) / total),
  }));
}

export function runMnemosyneBench(): string[] {
  const files = skewedFiles(1000, 20240501);
  const bitsPerKey = 4;
  const M = bitsPerKey * files.reduce((s, f) => s + f.entries, 0);
  const lines = [`Mnemosyne solvers: ${files.length} files, avg ${bitsPerKey} bits/key (M = ${M} bits), Zipf(1.1) empty probes`];

  const linear = time('mnemosyne sort-and-search (Algorithm 1), F=1000', () => mnemosyneAllocation(files, M));
  const binary = time('mnemosyne binary-search variant, F=1000', () => mnemosyneBinarySearch(files, M));
  // One gradient-descent call takes about a second; 3 warm-ups + 2 timed calls keep the bench short.
  const gd = time('Monkey+ gradient descent, F=1000', () => mnemosyneGradientDescent(files, M), { rounds: 2, budgetMs: 0 });
  lines.push(report(linear, { maxMs: 1 }), report(binary), report(gd));

  const exactCost = mnemosyneExpectedCost(files, mnemosyneAllocation(files, M));
  const gdCost = mnemosyneExpectedCost(files, mnemosyneGradientDescent(files, M));
  lines.push(
    `speed-up (gradient descent / sort-and-search): ${(gd.medianMs / linear.medianMs).toFixed(0)}x (paper: 2–4 orders of magnitude)`,
    `cost Σ z·ε: sort-and-search ${exactCost.toFixed(6)}, gradient descent ${gdCost.toFixed(6)}, relative difference ${((gdCost - exactCost) / exactCost).toExponential(2)}`,
  );
  return lines;
}

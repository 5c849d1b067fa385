/** The Fig 10 comparison of estimators: the naive per-file counters and the accuracy measure. */
import { ModelInputError, requireNumber } from '../validate';
import { validateInputs } from './merlin';

// ───────────────────────────────────────────────────────────────── naive tracker (§A.4.6, Fig 10 baseline)

/** Plain per-file counters, started when the file is created. */
export interface MnemosyneNaiveCounters {
  probes: number;
  found: number;
}

/** Count one probe of the file. */
export function mnemosyneNaiveRecordProbe(c: MnemosyneNaiveCounters, found: boolean): MnemosyneNaiveCounters {
  return { probes: c.probes + 1, found: c.found + (found ? 1 : 0) };
}

/** ElasticBF-like inheritance: every output starts with the mean of the inputs' counters (flush: zeros). */
export function mnemosyneNaiveInherit(inputs: readonly MnemosyneNaiveCounters[], outputCount: number): MnemosyneNaiveCounters[] {
  requireNumber('outputCount', outputCount, 0, 1e9, { integer: true });
  validateInputs('inputs', inputs.map((c, i) => ({ id: String(i), ...c })));
  const k = inputs.length;
  const mean = k === 0 ? { probes: 0, found: 0 } : { probes: inputs.reduce((s, c) => s + c.probes, 0) / k, found: inputs.reduce((s, c) => s + c.found, 0) / k };
  return Array.from({ length: outputCount }, () => ({ ...mean }));
}

// ───────────────────────────────────────────────────────────────── estimator accuracy (Fig 10)

/**
 * Euclidean distance and cosine similarity between estimated and true ẑ vectors (files aligned by index).
 * Cosine is scale-free, which matches the allocator (§A.3.6-2). A zero vector has cosine 1 with another
 * zero vector and 0 otherwise.
 */
export function mnemosyneEstimatorAccuracy(estimated: readonly number[], truth: readonly number[]): { euclidean: number; cosine: number } {
  if (!Array.isArray(estimated) || !Array.isArray(truth) || estimated.length !== truth.length) {
    throw new ModelInputError('estimated', 'must be an array as long as truth');
  }
  let d2 = 0;
  let dot = 0;
  let ee = 0;
  let tt = 0;
  estimated.forEach((e, i) => {
    const a = requireNumber(`estimated[${i}]`, e, 0, Infinity, { exclusiveMax: true });
    const b = requireNumber(`truth[${i}]`, truth[i], 0, Infinity, { exclusiveMax: true });
    d2 += (a - b) * (a - b);
    dot += a * b;
    ee += a * a;
    tt += b * b;
  });
  const cosine = ee === 0 || tt === 0 ? (ee === tt ? 1 : 0) : dot / Math.sqrt(ee * tt);
  return { euclidean: Math.sqrt(d2), cosine };
}

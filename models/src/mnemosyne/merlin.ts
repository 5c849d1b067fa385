/** Merlin, Mnemosyne's per-file probe statistics: the probe window, the estimate and inheritance at compaction. */
import { ModelInputError, finite, requireFraction, requireNumber, requireOneOf } from '../validate';

// ───────────────────────────────────────────────────────────────── Merlin estimator (§A.4.7)

/** One entry of a file's probe window. */
export interface MerlinProbe {
  /** D: the global point-lookup sequence number (≥ 1; D_global is incremented before use). */
  seq: number;
  /** Did the lookup find its key in this file? */
  found: boolean;
}

/**
 * Merlin's per-file state. The Rust engine stores the window as a ring buffer of u64 plus a u64 found
 * bitmap; here it is an array, newest first, so the spec stays readable.
 */
export interface MerlinState {
  /** Ω: the last ≤ w probes, newest (D_1) first. */
  window: readonly MerlinProbe[];
  /** q': probes pushed out of the window, plus any inherited estimate. */
  olderProbes: number;
  /** x': the found probes among them. */
  olderFound: number;
  /** D_start: D_global when the file was created (used by the code variant only). */
  createdAt: number;
}

export interface MerlinOptions {
  /** w: window capacity, 1..64 (64 in the authors' experiments). */
  windowSize?: number;
  /** β: weight on the recent window vs older history, [0, 1] (0.8 in the experiments). */
  beta?: number;
  /** 'paper' (default, §A.4.7) or 'code' (FileSampledStats::GetEstimatedNumPointReads). */
  variant?: 'paper' | 'code';
  /** Code variant only: prior lower bound on the probes (the authors' L0 prior); default 0. */
  minReads?: number;
}

export interface MerlinEstimate {
  /** q̂: estimated probes since global time 0. */
  probes: number;
  /** x̂: estimated probes that found their key here. */
  found: number;
  /** ẑ = q̂ − x̂ ≥ 0: the weight Mnemosyne uses. */
  empty: number;
}

/**
 * A new file's Merlin state. `inherited` comes from `merlinInherit` (compaction) or `merlinFlushPrior`
 * (flush). Inherited counts must mean "probes since global time 0 as if the file had existed" (P-A10).
 */
export function merlinNewFile(createdAt: number, inherited: { probes: number; found: number } = { probes: 0, found: 0 }): MerlinState {
  requireNumber('createdAt', createdAt, 0, Number.MAX_SAFE_INTEGER, { integer: true });
  const q = requireNumber('inherited.probes', inherited.probes, 0, Infinity, { exclusiveMax: true });
  requireNumber('inherited.found', inherited.found, 0, q);
  return { window: [], olderProbes: q, olderFound: inherited.found, createdAt };
}

/**
 * Record one probe of the file by lookup `seq` (strictly increasing, ≥ 1). When the window is full its
 * oldest entry moves into q' (and x' if it found its key). Returns a new state.
 */
export function merlinRecordProbe(state: MerlinState, seq: number, found: boolean, windowSize = 64): MerlinState {
  const w = requireNumber('windowSize', windowSize, 1, 64, { integer: true });
  const newest = state.window.length > 0 ? state.window[0].seq : 0;
  requireNumber('seq', seq, newest + 1, Number.MAX_SAFE_INTEGER, { integer: true });
  let window = [{ seq, found }, ...state.window];
  let { olderProbes, olderFound } = state;
  while (window.length > w) {
    const oldest = window[window.length - 1];
    window = window.slice(0, -1);
    olderProbes += 1;
    if (oldest.found) olderFound += 1;
  }
  return { ...state, window, olderProbes, olderFound };
}

function merlinOptions(options: MerlinOptions): Required<MerlinOptions> {
  return {
    windowSize: requireNumber('windowSize', options.windowSize ?? 64, 1, 64, { integer: true }),
    beta: requireFraction('beta', options.beta ?? 0.8),
    variant: requireOneOf('variant', options.variant ?? 'paper', ['paper', 'code'] as const),
    minReads: requireNumber('minReads', options.minReads ?? 0, 0, Infinity, { exclusiveMax: true }),
  };
}

/**
 * Estimate (q̂, x̂, ẑ) for a file at global lookup count `now` (≥ the newest probe's seq).
 * Paper variant: Δ_recent = (D_1 − D_w)/(|Ω|−1), Δ_old = D_w/(q'+1), Δ = β·Δ_recent + (1−β)·Δ_old, q̂ = now/Δ,
 * x̂ = (β·popcount/|Ω| + (1−β)·x'/q')·q̂. Edge cases are the reference's [ours] choices: |Ω| = 1 uses Δ_old
 * alone, |Ω| = 0 returns the inherited (q', x'), q' = 0 drops the x'/q' term.
 * Code variant: measures the recent gap up to `now` and the old gap from D_start, rounds, and never
 * reports fewer probes than were seen — a file gone cold stops growing (example M5).
 */
export function merlinEstimate(state: MerlinState, now: number, options: MerlinOptions = {}): MerlinEstimate {
  const o = merlinOptions(options);
  const newest = state.window.length > 0 ? state.window[0].seq : 0;
  requireNumber('now', now, newest, Number.MAX_SAFE_INTEGER);
  const [probes, found] = o.variant === 'paper' ? merlinPaperEstimate(state, now, o.beta) : merlinCodeEstimate(state, now, o.beta, o.minReads);
  return { probes, found, empty: Math.max(0, probes - found) };
}

function foundRatio(state: MerlinState, beta: number): number {
  const k = state.window.length;
  const recent = k > 0 ? state.window.filter((p) => p.found).length / k : 0;
  const older = state.olderProbes > 0 ? state.olderFound / state.olderProbes : 0;
  if (k > 0 && state.olderProbes > 0) return beta * recent + (1 - beta) * older;
  return k > 0 ? recent : older;
}

function merlinPaperEstimate(state: MerlinState, now: number, beta: number): [number, number] {
  const k = state.window.length;
  if (k === 0) return [state.olderProbes, state.olderFound];
  const newestSeq = state.window[0].seq;
  const oldestSeq = state.window[k - 1].seq;
  const oldGap = oldestSeq / (state.olderProbes + 1);
  const gap = k >= 2 ? (beta * (newestSeq - oldestSeq)) / (k - 1) + (1 - beta) * oldGap : oldGap;
  const q = finite('merlin paper estimate', now / gap);
  return [q, foundRatio(state, beta) * q];
}

// Math.round (half up) stands in for the C++ rounding; the values are non-negative, so it equals std::round.
function merlinCodeEstimate(state: MerlinState, now: number, beta: number, minReads: number): [number, number] {
  const k = state.window.length;
  const qp = state.olderProbes;
  const start = state.createdAt;
  const oldest = k > 0 ? state.window[k - 1].seq : 0;
  let gap = 0;
  if (k > 0 && now > oldest && oldest > start && qp > 0) gap = Math.round(((now - oldest) * beta) / k + ((1 - beta) * (oldest - start)) / qp);
  else if (k > 0 && now > oldest) gap = Math.round((now - oldest) / k);
  else if (k > 0 && oldest > start && qp > 0) gap = Math.round((oldest - start) / qp);
  else if (now > start && start !== 0 && qp > 0) gap = Math.round((now - start) / qp);
  let q = gap > 0 ? Math.round(now / gap) : qp + k;
  q = Math.max(q, minReads + qp + k);
  return [q, Math.min(Math.round(foundRatio(state, beta) * q), q)];
}

/**
 * Prior for a flushed file (pitfall P-A11, [ours] in the paper's time origin): it is credited with the probes
 * an average L0 file would have received since global time 0, so a new L0 file does not start with z = 0
 * (which would give it no filter). Rates are per point lookup, ≥ 0, found ≤ probes.
 */
export function merlinFlushPrior(createdAt: number, l0ProbesPerLookup: number, l0FoundPerLookup: number): { probes: number; found: number } {
  requireNumber('createdAt', createdAt, 0, Number.MAX_SAFE_INTEGER);
  const q = requireNumber('l0ProbesPerLookup', l0ProbesPerLookup, 0, Infinity, { exclusiveMax: true });
  const x = requireNumber('l0FoundPerLookup', l0FoundPerLookup, 0, q);
  return { probes: createdAt * q, found: createdAt * x };
}

/** A compaction input's current statistics (from `merlinEstimate`, or the naive counters). */
export interface MerlinCompactionInput {
  id: string;
  /** q_s: probes of the input file. */
  probes: number;
  /** x_s: probes that found their key in it. */
  found: number;
}

/** One compaction output: α_s per input id = share of input s's entries written into this output. */
export interface MerlinCompactionOutput {
  fractions: Record<string, number>;
}

export function validateInputs(field: string, inputs: readonly MerlinCompactionInput[]): void {
  inputs.forEach((s, i) => {
    const q = requireNumber(`${field}[${i}].probes`, s.probes, 0, Infinity, { exclusiveMax: true });
    requireNumber(`${field}[${i}].found`, s.found, 0, q);
  });
}

function validateFractions(ids: ReadonlySet<string>, outputs: readonly MerlinCompactionOutput[]): void {
  const totals = new Map<string, number>();
  outputs.forEach((o, k) => {
    for (const [id, a] of Object.entries(o.fractions)) {
      if (!ids.has(id)) throw new ModelInputError(`outputs[${k}].fractions.${id}`, 'names no compaction input');
      totals.set(id, (totals.get(id) ?? 0) + requireFraction(`outputs[${k}].fractions.${id}`, a));
    }
  });
  for (const [id, t] of totals) {
    if (t > 1 + 1e-9) throw new ModelInputError(`outputs[*].fractions.${id}`, `shares of one input must sum to at most 1, got ${t}`);
  }
}

/**
 * Merlin inheritance at compaction (Eq 13 with the §4.2.2 corner-case adjustment): only the shallow
 * level's non-empty probes are new to the merged range, unless its probes cannot all have reached the
 * deeper files: x̃_s = max(q_s − Σ_deep q_t, x_s); q_o = Σ_shallow α_s·x̃_s + Σ_deep α_t·q_t; x_o = Σ α_s·x_s.
 * The result seeds each output's (q', x') via `merlinNewFile`.
 */
export function merlinInherit(
  shallow: readonly MerlinCompactionInput[],
  deep: readonly MerlinCompactionInput[],
  outputs: readonly MerlinCompactionOutput[],
): MerlinEstimate[] {
  validateInputs('shallow', shallow);
  validateInputs('deep', deep);
  validateFractions(new Set([...shallow, ...deep].map((s) => s.id)), outputs);
  const deepProbes = deep.reduce((s, t) => s + t.probes, 0);
  const adjusted = new Map(shallow.map((s) => [s.id, Math.max(s.probes - deepProbes, s.found)]));
  return outputs.map((o) => {
    const share = (id: string): number => o.fractions[id] ?? 0;
    const probes = shallow.reduce((s, f) => s + share(f.id) * (adjusted.get(f.id) ?? 0), 0) + deep.reduce((s, t) => s + share(t.id) * t.probes, 0);
    const found = [...shallow, ...deep].reduce((s, f) => s + share(f.id) * f.found, 0);
    return { probes, found, empty: Math.max(0, probes - found) };
  });
}

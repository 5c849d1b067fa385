/** Moose's public types and default constants: layouts, options, per-level details and cost breakdowns. */

// ---------------------------------------------------------------------------------------------
// Types and constants

/** One level of a Moose layout: size ratio r_i, max runs n_i, filter bits per entry b_i. */
export interface MooseLevel {
  sizeRatio: number;
  runs: number;
  bitsPerEntry: number;
}

/** A level's shape without filters. */
export interface MooseShapeLevel {
  sizeRatio: number;
  runs: number;
}

/** 'paper' = Eq.2 literally, (1/B) Σ r_i/n_i; 'refined' = [extension] (1/B) Σ (r_i/n_i + 1)/2. */
export type MooseUpdateModel = 'paper' | 'refined';

export interface MooseOptions {
  /** Write buffer F in bytes, ≥ one entry. Default `MOOSE_DEFAULT_BUFFER_BYTES` (2 MiB). */
  bufferBytes?: number;
  /** Which update cost enters the weighted cost (and Smoose's objective). Default 'paper'. */
  updateModel?: MooseUpdateModel;
}

/** The paper's buffer (2 MB), bytes. */
export const MOOSE_DEFAULT_BUFFER_BYTES = 2 * 1024 * 1024;
/** Moose's default last-level share N_L / N. */
export const MOOSE_DEFAULT_LAST_LEVEL_FRACTION = 0.8;
/** Moose's default run regulator k (n_i = k·√r_i). */
export const MOOSE_DEFAULT_K = 1;
/** Optimal common size ratio for R·U alone, e² (reference §3.1). */
export const MOOSE_OPTIMAL_EQUAL_RATIO = Math.E * Math.E;

/** Per-level view of a layout evaluated on a dataset. */
export interface MooseLevelDetail {
  /** Capacity N_i (entries); for the last level, F·Π r_i with the typed ratio. */
  capacityEntries: number;
  /** Entries held: the capacity for levels 1..L−1, the remainder for the last level. */
  entries: number;
  /** Effective size ratio entries_i / entries_{i−1} (entries_0 = F). */
  sizeRatio: number;
  /** Runs the model counts: n_i, the last level capped at floor(effective ratio). */
  runs: number;
  /** Capacity of one run, entries_i / n_i. */
  runCapacityEntries: number;
  /** Run magnification s_i = r_i / n_i: arrivals that fill one run. */
  runMagnification: number;
  bitsPerEntry: number;
  /** FPR of every run's filter at this level, exp(−b ln²2). */
  fpr: number;
  /** Filter memory of the level, bits (b_i · entries_i). */
  filterBits: number;
}

/** Costs of one layout, in page I/Os per operation. */
export interface MooseCostBreakdown {
  /** Z = Σ n_i p_i [paper Eq.4]. */
  zeroResultPoint: number;
  /** [extension] 1 + Σ_{i<L} n_i p_i + ((n_L − 1)/2) p_L: target in the last level, any run equally likely. */
  nonZeroResultPoint: number;
  /** [extension] 1 + Σ_{i<L} n_i p_i + (n_L − 1) p_L: target in the last-probed run. */
  nonZeroResultPointWorst: number;
  /** Σ n_i: one seek per run [paper Eq.3]. */
  shortRange: number;
  /** Σ n_i + σ·N/B: seeks plus the scan of σN entries [extension]. */
  range: number;
  /** (1/B) Σ r_i/n_i [paper Eq.2, big-O body taken literally]. */
  updatePaper: number;
  /** (1/B) Σ (r_i/n_i + 1)/2 [extension: mean rewrites of an entry per level, writes only]. */
  updateRefined: number;
  /** The update cost selected by `updateModel`. */
  update: number;
  /** n_L · N / N_L, worst case [paper Eq.15]. */
  spaceAmplification: number;
  /** z·((1−v)·Z + v·nonZeroResultPoint) + q·range + w·update, per operation. */
  weighted: number;
}

export interface MooseCosts extends MooseCostBreakdown {
  levels: MooseLevelDetail[];
  bufferEntries: number;
  entriesPerPage: number;
  /** Σ_i b_i · entries_i, bits. */
  filterBits: number;
  updateModel: MooseUpdateModel;
}

/** YCSB's core workloads as choosers list them; the engine (wasm-engine/src/ycsb.rs) holds their properties. */
export const YCSB_CORE = [
  { letter: 'a', label: 'A: update heavy (50% reads, 50% updates, zipfian)' },
  { letter: 'b', label: 'B: read mostly (95% reads, 5% updates, zipfian)' },
  { letter: 'c', label: 'C: read only (zipfian)' },
  { letter: 'd', label: 'D: read latest (95% reads, 5% inserts, latest)' },
  { letter: 'e', label: 'E: short ranges (95% scans of ≤ 100, 5% inserts)' },
  { letter: 'f', label: 'F: read-modify-write (50% reads, 50% RMW)' },
] as const;

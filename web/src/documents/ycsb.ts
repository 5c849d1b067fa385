/** YCSB's core workloads as choosers list them; the engine (wasm-engine/crates/lsm-workload/src/ycsb.rs) holds their properties. */
export const YCSB_CORE = [
  { letter: 'a', label: 'A: update heavy', detail: '50% reads, 50% updates, zipfian' },
  { letter: 'b', label: 'B: read mostly', detail: '95% reads, 5% updates, zipfian' },
  { letter: 'c', label: 'C: read only', detail: '100% reads, zipfian' },
  { letter: 'd', label: 'D: read latest', detail: '95% reads, 5% inserts, latest' },
  { letter: 'e', label: 'E: short ranges', detail: '95% scans of ≤ 100 records, 5% inserts, zipfian' },
  { letter: 'f', label: 'F: read-modify-write', detail: '50% reads, 50% read-modify-writes, zipfian' },
] as const;

/**
 * Messages between the page and the engine worker. Every request carries an id; the worker
 * answers each with exactly one response of the same id. A running workload also sends progress
 * events with the id of its `run` request.
 */
import type { Backend, DatabaseInfo } from './idbStore';
import type { PhysicalCalls } from './opfsPool';
import type { Recovery, BatchResult, BundleFile, EngineConfig, Merging, WriteStallState, ExportFormat, ExportWarning, GrowthResult, GrowthSpec, Report, RunProgress, Stats, TimeCost, TraceFit, LogFit, TreeShape, TuneOptions, TuneProof, TuneResult, Workload, Calibration } from '../documents/engine';
import type { WriteAmpResult, WriteAmpSpec } from '../documents/writeAmp';

export type { TraceFit, LogFit };

export type { ExportFormat, ExportWarning };

export type { Backend, DatabaseInfo, RunState } from './idbStore';

/** A stored database as the lab lists it: `openElsewhere` when another tab has it open. */
export interface ListedDatabase extends DatabaseInfo {
  openElsewhere: boolean;
}

export interface Snapshot {
  stats: Stats;
  tree: TreeShape;
  /** Where writes stand against the design's write-stall thresholds now. */
  stall: WriteStallState;
}

export interface Session extends Snapshot {
  name: string;
  backend: Backend;
  config: EngineConfig;
  /** Log records replayed when the database was opened. */
  recovered: number;
  /** What opening it recovered, and the run it recorded (interrupted when its end is null). */
  recovery: Recovery;
}

export interface Progress {
  phase: RunProgress['phase'];
  done: number;
  total: number | null;
  /** Operations per second over the last few steps. */
  opsPerSecond: number;
  /** Seconds left at that rate (null when the total is unknown). */
  etaSeconds: number | null;
  raw: RunProgress;
}

export interface RunResult extends Snapshot {
  report: Report;
  cancelled: boolean;
  millis: number;
  /** OPFS only: the synchronous file calls the run made and their time (the physical I/O). */
  physical?: PhysicalCalls;
  /**
   * The worker's memory: the wasm memory after the run (it only grows, so this is its peak), the
   * OPFS chunk cache's peak, and the most the two held together at the end of a step.
   */
  memory: { wasmBytes: number; cachePeakBytes: number; peakBytes: number };
}

export interface Requests {
  /**
   * Open a database, creating it (with `config`) if `create`; memory databases are always new.
   * `wait`: if another tab has the database open, wait until it lets go (a cancel stops waiting).
   */
  open: { name: string; backend: Backend; config?: EngineConfig; create: boolean; wait?: boolean };
  close: Record<string, never>;
  /** Apply an encoded operation batch (see batch.ts), then sync and persist. */
  apply: { batch: Uint8Array };
  /** Run a workload or a KVBench trace to the end (or until cancelled), reporting progress. */
  /** `timed` (default true): time every operation for the report's latencies; a throughput benchmark turns it off. */
  /** `merges`: when the engine runs its merges during the run (default paced, as `lsm run` in memory; the worker has no background mode). */
  run: { workload?: Workload; trace?: { name: string; text: string; keyBytes: number }; label: string; timed?: boolean; merges?: Merging };
  /** Stop the running workload after its current step. */
  cancel: Record<string, never>;
  /** Teaching view: merge steps of about `pages` output pages (merges wait for these when auto-compaction is off). */
  step: { pages: number };
  flush: Record<string, never>;
  /** Read one key (UTF-8) of the open database; the value is decoded as UTF-8. */
  get: { key: string };
  setAutoCompact: { on: boolean };
  snapshot: Record<string, never>;
  list: Record<string, never>;
  remove: { key: string };
  estimate: Record<string, never>;
  /** Export a design (the same code as `lsm export`, so files match the CLI's byte for byte). */
  export: { config: EngineConfig; format: ExportFormat; workload?: Workload };
  /** Import a design from a RocksDB OPTIONS file or engine JSON. */
  import: { text: string; kind: 'rocksdb' | 'engine' };
  /** Check documents with the engine's own rules (errors name the field and range). */
  validate: { config?: EngineConfig; workload?: Workload };
  /** A YCSB workload properties file as a Workload (`file` names it in errors). */
  ycsbImport: { text: string; file: string };
  /** YCSB's core workload `letter` (a–f) as a properties file with these counts. */
  ycsbCore: { letter: string; records: number; operations: number };
  /** A db_bench command line (`db_bench --benchmarks=fillrandom,mixgraph …`) as a Workload. */
  dbBenchImport: { text: string };
  /** A Workload as a YCSB CoreWorkload properties file. */
  ycsbExport: { workload: Workload };
  /** Fit a Workload to a KVBench trace (mix, zero-result share, popularity, sizes). */
  fitTrace: { name: string; text: string; keyBytes: number };
  /** Fit a Workload to a RocksDB LOG for an OPTIONS text ('': the options the LOG printed, or RocksDB 7.8's defaults): mix, sizes, keys, skew. */
  fitRocksdbLog: { name: string; log: string; options: string };
  /** Tune a design for a workload (the engine predicts itself; the same as `lsm tune`). */
  tune: { config: EngineConfig; workload: Workload; options: TuneOptions };
  /** The files of a tune's bundle, with the proof run's figures when there is one. */
  /** `optionsText`: the OPTIONS file the current design was imported from; the recommendation is written into it. */
  tuneBundle: { result: TuneResult; proof?: TuneProof; optionsText?: string };
  /** Time this browser's OPFS pages and the engine's CPU per operation class on `config` (a few seconds). */
  calibrate: { config: EngineConfig };
  /** Pages per operation of each class (R, V, Q, W) and the class shares, priced on a calibrated device. */
  timeCost: { io: [number, number, number, number]; mix: [number, number, number, number]; calibration: Calibration };
  /** The workload with its class shares (R, V, Q, W) replaced: a drifted workload. */
  drifted: { workload: Workload; mix: [number, number, number, number] };
  /** Monkey's Fig 12A on in-memory engines (the same as `lsm growth`), with progress; a cancel keeps the sizes measured so far. */
  growth: { spec: GrowthSpec };
  /** Write amplification by destination level on an in-memory engine (the same as `lsm writes`), with progress; a cancel keeps the checkpoints so far. */
  writes: { spec: WriteAmpSpec };
}

export interface Responses {
  open: Session;
  close: Record<string, never>;
  apply: { result: BatchResult; millis: number } & Snapshot;
  run: RunResult;
  cancel: { cancelling: boolean };
  step: { more: boolean } & Snapshot;
  flush: Snapshot;
  get: { value: string | null };
  setAutoCompact: Snapshot;
  snapshot: Snapshot;
  list: ListedDatabase[];
  remove: ListedDatabase[];
  estimate: { usage: number; quota: number };
  export: { text: string; warnings: ExportWarning[] };
  /** `write_buffers`: RocksDB's max_write_buffer_number as the OPTIONS file sets it (the tuner charges it to memory). */
  import: { config: EngineConfig; unknown_keys: string[]; warnings: ExportWarning[]; write_buffers?: number };
  validate: { ok: true };
  ycsbImport: { workload: Workload; warnings: ExportWarning[]; unknown_keys: string[] };
  ycsbCore: { text: string };
  dbBenchImport: { workload: Workload; warnings: ExportWarning[]; unknown_flags: string[] };
  ycsbExport: { text: string; warnings: ExportWarning[] };
  fitTrace: TraceFit;
  fitRocksdbLog: LogFit;
  tune: { result: TuneResult; millis: number };
  tuneBundle: { files: BundleFile[] };
  drifted: { workload: Workload };
  calibrate: { calibration: Calibration };
  timeCost: TimeCost;
  growth: { result: GrowthResult; cancelled: boolean; millis: number };
  writes: { result: WriteAmpResult; cancelled: boolean; millis: number };
}

export type Kind = keyof Requests;

export type RequestMessage = { [K in Kind]: { id: number; kind: K; payload: Requests[K] } }[Kind];

export type ResponseMessage =
  | { id: number; type: 'result'; ok: true; result: Responses[Kind] }
  | { id: number; type: 'result'; ok: false; error: string }
  | { id: number; type: 'progress'; progress: Progress };

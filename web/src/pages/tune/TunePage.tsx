/**
 * Tune: from where you are — a system's design or your RocksDB OPTIONS, and a YCSB workload — to a
 * design for the same memory that the engine will measure as cheaper (nominal), or cheaper in the
 * worst case over nearby workloads (robust, after Endure). The engine prices every candidate by
 * replaying its own merge policy and filter sizing (`lsm tune`, the same code). Then the proof:
 * both designs run on the engine with the same workload and seed, measured I/O next to predicted;
 * then the files to take home, one by one or as one zip.
 */
import { useEffect, useMemo, useState } from 'react';
import type { Calibration, EngineConfig, TraceFit, TuneRank, TuneResult, TuneTarget, Workload } from '../../documents/engine';
import { formatBytes } from '../../documents/format';
import { LOG_FILE, OPTIONS_FILE, WORKLOAD_FILE } from '../../documents/fileCheck';
import { dbBenchImportNotes, looksLikeDbBench, looksLikeTrace, looksLikeYcsb, traceFitNotes, ycsbImportNotes } from '../../documents/importKind';
import {
  CUSTOM_DESIGN,
  CUSTOM_WORKLOAD,
  LINKED_DESIGN,
  customWorkload,
  customWorkloadProblems,
  customWorkloadState,
  linkedDesign,
  memoryBudgetProblem,
  tuneUrl,
} from '../../documents/urls/tune';
import { engineClient } from '../../engine/client';
import { ControlGroup } from '../../ui/controls/ControlGroup';
import { FileRefused, readTextFile } from '../../ui/controls/readTextFile';
import { ParamControl } from '../../ui/controls/ParamControl';
import { Page } from '../../ui/layout/Page';
import { useUrlState } from '../../ui/state/useUrlState';
import { logFitNotes } from './logFit';
import { RankFrequencyCard } from './RankFrequencyCard';
import { storedCalibration } from './TimeCard';
import { TuneResults } from './TuneResults';
import { YourWorkloadControls } from './YourWorkloadControls';

export function TunePage() {
  const url = useUrlState(tuneUrl);
  const s = url.state;
  // The imported OPTIONS file: its design, its text (the recommendation is written into it) and its memtable count.
  const [custom, setCustom] = useState<{ config: EngineConfig; name: string; warnings: string[]; unused: string[]; text: string; writeBuffers?: number } | null>(null);
  const [preset, setPreset] = useState<EngineConfig | null>(null);
  const [coreWorkload, setCoreWorkload] = useState<Workload | null>(null);
  // The last import (its workload as read, what the reader noted, a trace's fit): the page's
  // fields hold its numbers, which the user may override; "reset" puts the import's back.
  const [imported, setImported] = useState<{ workload: Workload; name: string; notes: string[]; fit?: TraceFit } | null>(null);
  const ownWorkload = s.workload === CUSTOM_WORKLOAD;
  const customProblems = ownWorkload ? customWorkloadProblems(s) : [];
  const customKey = ownWorkload && customProblems.length === 0 ? JSON.stringify(customWorkload(s, imported?.name)) : '';
  // While its fields are as imported, an import is tuned as read: a db_bench line's or YCSB
  // client's own generator (its section) is something the fields cannot say. Edited, the fields win.
  const importedKey = imported ? JSON.stringify(customWorkload({ ...s, ...customWorkloadState(imported.workload) }, imported.name)) : '';
  const asImported = imported !== null && customKey !== '' && customKey === importedKey ? imported.workload : null;
  const generatorDropped = imported !== null && asImported === null && (imported.workload.db_bench != null || imported.workload.ycsb != null);
  const yours = useMemo(() => asImported ?? (customKey ? (JSON.parse(customKey) as Workload) : null), [customKey, asImported]);
  // While the fields do not add up (a mix being retyped), the page keeps tuning the last workload that did.
  const [lastYours, setLastYours] = useState<Workload | null>(null);
  useEffect(() => {
    if (yours) setLastYours(yours);
  }, [yours]);
  const workload = ownWorkload ? (yours ?? lastYours) : coreWorkload;
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (s.design === CUSTOM_DESIGN || s.design === LINKED_DESIGN) return;
    let live = true;
    fetch(`/presets/${s.design}.json`)
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`HTTP ${r.status}`))))
      .then((c: EngineConfig) => live && setPreset(c))
      .catch((e: unknown) => live && setProblem(`preset ${s.design}: ${String(e)}`));
    return () => {
      live = false;
    };
  }, [s.design]);

  useEffect(() => {
    if (s.workload === CUSTOM_WORKLOAD) return;
    let live = true;
    const client = engineClient();
    client
      .call('ycsbCore', { letter: s.workload, records: s.records, operations: s.operations })
      .then(({ text }) => client.call('ycsbImport', { text, file: `workload${s.workload}` }))
      .then((r) => live && setCoreWorkload(r.workload))
      .catch((e: unknown) => live && setProblem(e instanceof Error ? e.message : String(e)));
    return () => {
      live = false;
    };
  }, [s.workload, s.records, s.operations]);

  const linkKey = s.design === LINKED_DESIGN ? JSON.stringify(linkedDesign(s)) : '';
  const linked = useMemo(() => (linkKey ? (JSON.parse(linkKey) as EngineConfig) : null), [linkKey]);
  const current = s.design === CUSTOM_DESIGN ? (custom?.config ?? null) : s.design === LINKED_DESIGN ? linked : preset;

  // This device's calibration (Time on this device): once there is one, the tuner can rank by time.
  const [calibration, setCalibration] = useState<Calibration | null>(storedCalibration);
  const rank: TuneRank = s.rank === 'time' && calibration ? 'time' : 'io';
  const rankedOn = rank === 'time' ? calibration : null;
  // The memory budget in MiB; 0: what the current design uses.
  const memoryProblem = memoryBudgetProblem(s.memory);
  const memory = s.memory > 0 && !memoryProblem ? s.memory * 1_048_576 : null;
  // The per-level filter plugin, only when the user accepts it (and only RocksDB can use it).
  const plugin = s.plugin && s.target === 'rocksdb' ? ('per-level-filters' as const) : null;
  // The memtables the user's own file keeps (RocksDB's default 2 otherwise), charged to memory.
  const writeBuffers = s.design === CUSTOM_DESIGN ? custom?.writeBuffers : undefined;
  const optionsText = s.design === CUSTOM_DESIGN ? custom?.text : undefined;

  // The engine's tuner runs in the engine worker; a newer request supersedes an older one.
  const [tuned, setTuned] = useState<{ result: TuneResult; millis: number } | null>(null);
  const [tuneError, setTuneError] = useState<string | null>(null);
  // What the current design uses, as the last tune without a budget priced it (the field's default).
  const [currentMemory, setCurrentMemory] = useState<number | null>(null);
  useEffect(() => {
    if (!current || !workload || memoryProblem) return;
    let live = true;
    setTuned(null);
    setTuneError(null);
    engineClient()
      .call('tune', { config: current, workload, options: { rho: s.rho, target: s.target as TuneTarget, memory, rank, calibration: rankedOn, plugin, ...(writeBuffers ? { write_buffers: writeBuffers } : {}) } })
      .then((r) => {
        if (!live) return;
        setTuned(r);
        const used = r.result.current.memory?.total ?? (memory === null ? r.result.memory_bytes : null);
        if (used !== null) setCurrentMemory(used);
      })
      .catch((e: unknown) => live && setTuneError(e instanceof Error ? e.message : String(e)));
    return () => {
      live = false;
    };
  }, [current, workload, s.rho, s.target, memory, memoryProblem, rank, rankedOn, plugin, writeBuffers]);

  /** A YCSB properties file, a db_bench command line, a Workload JSON, or a KVBench trace to fit: the workload to tune for. */
  const importWorkload = async (file: File) => {
    setProblem(null);
    try {
      const text = await readTextFile(file, WORKLOAD_FILE);
      const client = engineClient();
      let read: NonNullable<typeof imported>;
      if (looksLikeTrace(text)) {
        const fit = await client.call('fitTrace', { name: file.name, text, keyBytes: 16 });
        read = { workload: fit.workload, name: file.name, notes: traceFitNotes(fit), fit };
      } else if (text.trimStart().startsWith('{')) {
        let w: Workload;
        try {
          w = JSON.parse(text) as Workload;
        } catch (err) {
          throw new Error(`not JSON: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
        }
        await client.call('validate', { workload: w });
        read = { workload: w, name: file.name, notes: [] };
      } else if (looksLikeDbBench(text)) {
        const r = await client.call('dbBenchImport', { text });
        read = { workload: r.workload, name: file.name, notes: dbBenchImportNotes(r.warnings, r.unknown_flags) };
      } else if (looksLikeYcsb(text)) {
        const r = await client.call('ycsbImport', { text, file: file.name });
        read = { workload: r.workload, name: file.name, notes: ycsbImportNotes(r.warnings, r.unknown_keys) };
      } else {
        throw new Error('not a YCSB workload properties file, a db_bench command line, a Workload JSON or a KVBench trace (lines I k v, U k v, D k, Q k, S a b)');
      }
      // Applied only once it has been read whole: a failed import changes nothing.
      setImported(read);
      url.patch(customWorkloadState(read.workload));
    } catch (err) {
      setProblem(err instanceof FileRefused ? err.message : `${file.name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  /** A RocksDB LOG: the workload fitted to its counters, for the imported OPTIONS (RocksDB's defaults without one). */
  const importLog = async (file: File) => {
    setProblem(null);
    try {
      const log = await readTextFile(file, LOG_FILE);
      const fit = await engineClient().call('fitRocksdbLog', { name: file.name, log, options: custom?.text ?? '' });
      const read = { workload: fit.workload, name: file.name, notes: logFitNotes(fit) };
      setImported(read);
      url.patch(customWorkloadState(read.workload));
    } catch (err) {
      setProblem(err instanceof FileRefused ? err.message : `${file.name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  const importOptions = async (file: File) => {
    setProblem(null);
    try {
      const text = await readTextFile(file, OPTIONS_FILE);
      const r = await engineClient().call('import', { text, kind: 'rocksdb' });
      setCustom({
        config: r.config,
        name: file.name,
        warnings: r.warnings.map((w) => `${w.field} (${w.kind}): ${w.message}`),
        unused: r.unknown_keys,
        text,
        writeBuffers: r.write_buffers,
      });
      // Your OPTIONS file is RocksDB's: advice for RocksDB, the engine target one click away.
      url.patch({ design: CUSTOM_DESIGN, target: 'rocksdb' });
    } catch (err) {
      setProblem(err instanceof FileRefused ? err.message : `${file.name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  return (
    <Page
      question="Given your design and your workload, is there a cheaper design for the same memory? Try first: pick your system and workload, then run both designs on the engine."
      title="Tune"
      lede="Bring your design (a system's defaults or your RocksDB OPTIONS) and a YCSB workload: get a design for the same memory that costs less, see the gain measured on the engine (and, with the bundle's compare.sh, on RocksDB), and take the files home."
      url={url}
      controls={
        <>
          <ControlGroup title="Where you are">
            <ParamControl {...url.bind('design')} />
            <label className="file-button">
              Import RocksDB OPTIONS…
              <input type="file" className="sr-only" data-testid="tune-options" onChange={(e) => { const f = e.target.files?.[0]; if (f) void importOptions(f); e.target.value = ''; }} />
            </label>
            <ParamControl {...url.bind('workload')} />
            <label className="file-button">
              Import a workload (YCSB file, Workload JSON or trace to fit)…
              <input type="file" className="sr-only" data-testid="tune-workload-file" onChange={(e) => { const f = e.target.files?.[0]; if (f) void importWorkload(f); e.target.value = ''; }} />
            </label>
            <label className="file-button">
              Import your LOG (RocksDB's, with its stats dumps)…
              <input type="file" className="sr-only" data-testid="tune-log" onChange={(e) => { const f = e.target.files?.[0]; if (f) void importLog(f); e.target.value = ''; }} />
            </label>
            {!ownWorkload && (
              <>
                <ParamControl {...url.bind('records')} />
                <ParamControl {...url.bind('operations')} />
              </>
            )}
          </ControlGroup>
          <ControlGroup title="Where you could be">
            <ParamControl {...url.bind('target')} />
            <ParamControl {...url.bind('rho')} />
            <ParamControl {...url.bind('memory')} noSlider />
            {memoryProblem ? (
              <p role="alert" className="field-msg field-error" data-testid="tune-memory-error">
                {memoryProblem}
              </p>
            ) : (
              currentMemory !== null && (
                <p className="caption" data-testid="tune-memory-default" data-bytes={currentMemory}>
                  0 = what the current design uses: {formatBytes(currentMemory)} ({(currentMemory / 1_048_576).toFixed(1)} MiB).
                </p>
              )
            )}
            <ParamControl {...url.bind('plugin')} disabled={s.target !== 'rocksdb'} />
            <ParamControl {...url.bind('rank')} disabled={!calibration} />
            {!calibration && <p className="caption" data-testid="tune-rank-note">Calibrate this device (Time on this device, below) to rank by predicted time.</p>}
            {calibration && s.rank === 'time' && <p className="caption">Ranked on {calibration.device}.</p>}
          </ControlGroup>
          {ownWorkload && (
            <YourWorkloadControls
              url={url}
              problems={customProblems}
              onReset={imported ? () => url.patch(customWorkloadState(imported.workload)) : undefined}
            />
          )}
        </>
      }
    >
      {problem && (
        <p role="alert" className="error" data-testid="tune-problem">
          {problem}
        </p>
      )}
      {s.design === CUSTOM_DESIGN && !custom && <p className="notice">Import a RocksDB OPTIONS file to tune your own design.</p>}
      {ownWorkload && !imported && <p className="notice">Import a YCSB workload file, a db_bench command line, a Workload JSON or a KVBench trace to fit (or your RocksDB LOG), or set your workload's numbers under “Your workload”.</p>}
      {imported && ownWorkload && (
        <div className="caption" data-testid="tune-imported-workload">
          <p>Your workload: {imported.name}</p>
          {generatorDropped && (
            <p className="field-msg" role="note" data-testid="tune-generator-dropped">
              Edited: the tune now plays these numbers, not {imported.workload.db_bench != null ? 'the db_bench line’s own mixgraph draws' : 'the YCSB client’s own operations'} (“Reset to the import” tunes for it as read).
            </p>
          )}
          {imported.notes.length > 0 && (
            <ul data-testid="tune-fit">
              {imported.notes.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      {imported?.fit && ownWorkload && <RankFrequencyCard fit={imported.fit} now={workload?.distribution ?? null} />}
      {custom && s.design === CUSTOM_DESIGN && (
        <div className="caption" data-testid="tune-custom">
          <p>
            Your design: {custom.name}
            {custom.warnings.length > 0 && ` (read with ${custom.warnings.length} approximations: ${custom.warnings.join('; ')})`}
          </p>
          {custom.unused.length === 0 ? (
            <p data-testid="tune-unused-none">Keys not used (0): every key was read.</p>
          ) : (
            <details data-testid="tune-unused">
              <summary>
                Keys not used ({custom.unused.length}): the tuner prices the design without them
              </summary>
              <ul className="tune-unused-keys" data-testid="tune-unused-keys">
                {custom.unused.map((k) => (
                  <li key={k}>
                    <code>{k}</code>
                  </li>
                ))}
              </ul>
            </details>
          )}
        </div>
      )}
      {tuneError && (
        <p role="alert" className="error" data-testid="tune-model-error">
          {tuneError}
        </p>
      )}
      {current && workload && (
        <TuneResults tuned={tuned} current={current} workload={workload} optionsText={optionsText} calibration={calibration} onCalibrated={setCalibration} onProblem={setProblem} />
      )}
    </Page>
  );
}


/**
 * The Tune page's controls in its URL (`#/tune?v=1&d=rocksdb&w=b&n=100000&ops=100000&t=engine&rho=0.5`):
 * where you are (a system's design, a YCSB core workload and its size) and how robust to be.
 * An imported OPTIONS file is the "custom" design, an imported YCSB file or fitted trace the
 * "custom" workload; a link cannot carry either.
 */
import { defineUrlState } from '../url/codec';
import { enumParam, numberParam, type StateOf } from '../url/params';
import { YCSB_CORE } from '../ycsb';

export const CUSTOM_DESIGN = 'custom';
export const CUSTOM_WORKLOAD = 'custom';

export const tuneParams = {
  design: enumParam({
    key: 'd',
    label: 'current design',
    default: 'rocksdb',
    options: [
      { value: 'rocksdb', label: 'RocksDB defaults' },
      { value: 'leveldb', label: 'LevelDB' },
      { value: 'cassandra', label: 'Cassandra' },
      { value: 'hbase', label: 'HBase' },
      { value: 'accumulo', label: 'Accumulo' },
      { value: 'tiering', label: 'Tiering' },
      { value: CUSTOM_DESIGN, label: 'Your RocksDB OPTIONS (imported)' },
    ],
  }),
  workload: enumParam({
    key: 'w',
    label: 'workload',
    default: 'b',
    options: [...YCSB_CORE.map((w) => ({ value: w.letter, label: `YCSB ${w.label}` })), { value: CUSTOM_WORKLOAD, label: 'Your workload (YCSB file or trace, imported)' }],
  }),
  records: numberParam({ key: 'n', label: 'records', unit: 'records', default: 100_000, min: 1_000, max: 100_000_000, integer: true, log: true, help: 'YCSB recordcount: the preload.' }),
  operations: numberParam({ key: 'ops', label: 'operations', unit: 'ops', default: 100_000, min: 1_000, max: 100_000_000, integer: true, log: true, help: 'YCSB operationcount: the measured run.' }),
  target: enumParam({
    key: 't',
    label: 'recommend for',
    default: 'engine',
    options: [
      { value: 'engine', label: 'the engine (any policy, Monkey filters)' },
      { value: 'rocksdb', label: 'RocksDB (its shape: buffer, multiplier, bits/key)' },
    ],
  }),
  rho: numberParam({ key: 'rho', label: 'robustness', symbol: 'ρ', default: 0, min: 0, max: 4, step: 0.05, help: 'KL-divergence radius of the workloads to guard against (Endure); 0 tunes for the expected workload only.' }),
};

export type TuneSchema = typeof tuneParams;
export type TuneState = StateOf<TuneSchema>;

export const tuneUrl = defineUrlState({
  page: 'tune',
  version: 1,
  params: tuneParams,
  presets: [
    { id: 'rocks-b', label: 'RocksDB defaults, YCSB B', values: { design: 'rocksdb', workload: 'b', rho: 0 } },
    { id: 'rocks-a-robust', label: 'RocksDB defaults, YCSB A, robust ρ = 0.5', values: { design: 'rocksdb', workload: 'a', rho: 0.5 } },
    { id: 'leveldb-e', label: 'LevelDB, YCSB E', values: { design: 'leveldb', workload: 'e', rho: 0 } },
  ],
});

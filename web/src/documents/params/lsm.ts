/**
 * URL parameters that several pages describe the same way. What a link and a message depend on
 * (key, label, symbol, unit, integer or not) is fixed here; each page gives the default, range
 * and help that suit it.
 */
import { enumParam, numberParam } from '../url/params';

interface Choice {
  default: number;
  min: number;
  max: number;
  help: string;
}

/** N, the number of key-value entries in the tree. */
export function entriesParam(p: Choice) {
  return numberParam({ key: 'N', label: 'entries', symbol: 'N', default: p.default, min: p.min, max: p.max, integer: true, log: true, help: p.help });
}

/** E, one entry's key plus value, in bytes. */
export function entryBytesParam(defaultBytes: number, help: string) {
  return numberParam({
    key: 'E',
    label: 'entry size',
    symbol: 'E',
    unit: 'bytes',
    default: defaultBytes,
    min: 1,
    max: 65536,
    integer: true,
    log: true,
    help,
  });
}

/** One disk page (block), in bytes. */
export function pageBytesParam(defaultBytes: number, help: string) {
  return numberParam({ key: 'pg', label: 'page size', unit: 'bytes', default: defaultBytes, min: 256, max: 1048576, integer: true, log: true, help });
}

/** The in-memory write buffer (memtable), in MiB; pages name it after their paper's symbol. */
export function writeBufferParam(p: Choice & { symbol: string }) {
  return numberParam({ key: 'buf', label: 'write buffer', symbol: p.symbol, unit: 'MiB', default: p.default, min: p.min, max: p.max, log: true, help: p.help });
}

export const mergePolicyParam = enumParam({
  key: 'pol',
  label: 'merge policy',
  default: 'lev',
  options: [
    { value: 'lev', label: 'Leveling', help: 'One run per level' },
    { value: 'tier', label: 'Tiering', help: 'Up to T−1 runs per level' },
  ],
});

/** One of the four operation shares of a workload mix (see ./workloadMix), % of all operations. */
export function operationShareParam(key: string, label: string, defaultPercent: number, help: string) {
  return numberParam({ key, label, unit: '%', default: defaultPercent, min: 0, max: 100, step: 1, help });
}

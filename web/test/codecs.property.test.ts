/**
 * Property tests (fast-check) of what links and imported files feed the app: every page's URL
 * state, the hash router, the lab's EngineConfig / Workload conversions and import detection.
 * Links come from anyone; whatever they hold, decoding never throws and never yields a value the
 * page's own checks would refuse, and a state survives its own link unchanged.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectImportKind } from '../src/documents/importKind';
import type { PresetIndex } from '../src/documents/sources';
import { parseHash, ROUTES } from '../src/documents/routes';
import { decodeQuery, encodeQuery, statesEqual, type UrlSpec } from '../src/documents/url/codec';
import type { Param, Schema, StateOf } from '../src/documents/url/params';
import { valueProblem } from '../src/documents/url/validate';
import { exportUrlSpec } from '../src/documents/urls/export';
import { labUrl } from '../src/documents/urls/lab';
import { configToState, labProblems, stateToConfig, stateToWorkload, workloadToState } from '../src/documents/urls/labDocuments';
import { learnUrl } from '../src/documents/urls/learn';
import { memoryUrl } from '../src/documents/urls/memory';
import { monkeyUrl } from '../src/documents/urls/monkey';
import { mooseUrl } from '../src/documents/urls/moose';
import { mslsUrl } from '../src/documents/urls/msls';
import { teachUrl } from '../src/documents/urls/teaching';
import { tradeoffUrl } from '../src/documents/urls/tradeoffs';

/** Cases per property: 2,000 in `npm test`; FC_RUNS=… for a long run. */
const RUNS = Number(process.env.FC_RUNS ?? 2_000);

const exportUrl = exportUrlSpec({
  kind: 'lsm-navigator/preset-index',
  version: 1,
  presets: [
    { id: 'rocksdb', file: 'rocksdb.json', label: 'RocksDB', description: '' },
    { id: 'leveldb', file: 'leveldb.json', label: 'LevelDB', description: '' },
  ],
} satisfies PresetIndex);

const SPECS: [string, UrlSpec<Schema>][] = [
  ['learn', learnUrl],
  ['teaching', teachUrl],
  ['monkey', monkeyUrl],
  ['tradeoffs', tradeoffUrl],
  ['moose', mooseUrl],
  ['memory', memoryUrl],
  ['msls', mslsUrl],
  ['lab', labUrl],
  ['export', exportUrl],
] as unknown as [string, UrlSpec<Schema>][];

/** A value the parameter accepts. */
function validValue(p: Param): fc.Arbitrary<unknown> {
  switch (p.kind) {
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...p.options.map((o) => o.value));
    case 'number':
      return p.integer ? fc.integer({ min: Math.ceil(p.min), max: Math.floor(p.max) }) : fc.double({ min: p.min, max: p.max, noNaN: true });
    case 'numbers': {
      const item = p.integer ? fc.integer({ min: Math.ceil(p.min), max: Math.floor(p.max) }) : fc.double({ min: p.min, max: p.max, noNaN: true });
      return fc.array(item, { minLength: p.minLength, maxLength: p.maxLength });
    }
  }
}

function validState<S extends Schema>(spec: UrlSpec<S>): fc.Arbitrary<StateOf<S>> {
  const fields = Object.fromEntries(Object.entries(spec.params).map(([name, p]) => [name, validValue(p)]));
  return fc.record(fields) as unknown as fc.Arbitrary<StateOf<S>>;
}

/** Query strings as people and link mangling make them: real keys, junk values, escapes, repeats. */
function hostileQuery(spec: UrlSpec<Schema>): fc.Arbitrary<string> {
  const keys = [...Object.values(spec.params).map((p) => p.key), 'v', 'zz', ''];
  const value = fc.oneof(
    fc.string(),
    fc.constantFrom('NaN', 'Infinity', '-1', '1e309', '0x10', '1,2,,3', '%', '%E0%A4%A', '&&', '=', '1e-320', '9'.repeat(400)),
    fc.double().map(String),
  );
  const pair = fc.tuple(fc.constantFrom(...keys), value).map(([k, v]) => `${k}=${v}`);
  return fc.oneof(fc.array(pair, { maxLength: 12 }).map((ps) => ps.join('&')), fc.string({ maxLength: 300 }));
}

describe.each(SPECS)('the %s page’s link', (_name, spec) => {
  it('decodes anything without throwing, to values the page accepts', () => {
    fc.assert(
      fc.property(hostileQuery(spec), (query) => {
        const { state } = decodeQuery(spec, query);
        for (const [name, p] of Object.entries(spec.params)) {
          expect(valueProblem(p, state[name]), `${p.key} from "${query}"`).toBeNull();
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('carries every valid state unchanged and without notices', () => {
    fc.assert(
      fc.property(validState(spec), (state) => {
        const decoded = decodeQuery(spec, encodeQuery(spec, state));
        expect(decoded.notices).toEqual([]);
        expect(statesEqual(spec, decoded.state, state)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('the hash router', () => {
  it('maps any hash to a known route', () => {
    const paths = ROUTES.map((r) => r.path);
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.constantFrom(...paths).map((p) => `#/${p}?x`)), (hash) => {
        expect(paths).toContain(parseHash(hash).path);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('the lab’s documents', () => {
  // Valid control values, combined so the lab's cross-field checks hold (the mix sums to 1, pages
  // are powers of two, the buffer holds a page and an entry, range lookups cover something).
  const labState = fc
    .tuple(validState(labUrl), fc.integer({ min: 8, max: 16 }), fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 6, maxLength: 6 }))
    .map(([s, pageLog2, weights]) => {
      const total = weights.reduce((a, b) => a + b, 0) || 1;
      const [insert, update, remove, getExisting, getMissing] = weights.map((w) => w / total);
      const pageBytes = 2 ** pageLog2;
      const bufferKiB = Math.min(labUrl.params.bufferKiB.max, Math.max(s.bufferKiB, (pageBytes + s.keyBytes + s.valueBytes) / 1024));
      return {
        ...s,
        pageBytes,
        bufferKiB,
        insert,
        update,
        remove,
        getExisting,
        getMissing,
        range: Math.max(0, 1 - (insert + update + remove + getExisting + getMissing)),
        keySpace: s.keySpace !== 0 && s.keySpace <= s.preload ? 0 : s.keySpace,
        selectivity: Math.max(s.selectivity, 1e-6),
      };
    });
  it('a valid lab state becomes an EngineConfig and Workload that read back to the same state', () => {
    fc.assert(
      fc.property(labState, (s) => {
        fc.pre(labProblems(s).length === 0);
        const back = { ...s, ...configToState(stateToConfig(s)), ...workloadToState(stateToWorkload(s)) };
        const config = stateToConfig(back);
        expect(config).toEqual(stateToConfig(s));
        expect(stateToWorkload(back)).toEqual(stateToWorkload(s));
      }),
      { numRuns: RUNS },
    );
  });
});

describe('import detection', () => {
  it('names a kind for any text and file name, without throwing', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 500 }), fc.option(fc.string({ maxLength: 40 })), (text, name) => {
        expect(['engine', 'rocksdb']).toContain(detectImportKind(text, name ?? undefined));
      }),
      { numRuns: RUNS },
    );
  });
});

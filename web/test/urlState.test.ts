import { describe, expect, it } from 'vitest';
import { PAGE_LOADERS } from '../src/app/pages';
import { parseHash, ROUTES } from '../src/documents/routes';
import { learnLink } from '../src/documents/learnSections';
import {
  applyPreset,
  decodeQuery,
  defineUrlState,
  encodeQuery,
  matchingPreset,
  splitQuery,
} from '../src/documents/url/codec';
import { booleanParam, defaultsOf, enumParam, numberListParam, numberParam } from '../src/documents/url/params';

const params = {
  sizeRatio: numberParam({ key: 'T', label: 'size ratio', default: 10, min: 2, max: 100, integer: true }),
  bits: numberParam({ key: 'b', label: 'bits per key', default: 10, min: 0, max: 24 }),
  entries: numberParam({ key: 'N', label: 'entries', default: 1e8, min: 1e5, max: 1e11, integer: true }),
  policy: enumParam({
    key: 'pol',
    label: 'merge policy',
    default: 'lev',
    options: [
      { value: 'lev', label: 'Leveling' },
      { value: 'tier', label: 'Tiering' },
    ],
  }),
  measured: booleanParam({ key: 'm', label: 'show measured', default: false }),
  ratios: numberListParam({ key: 'Ts', label: 'size ratios', default: [10, 10, 4], min: 2, max: 100, minLength: 1, maxLength: 8 }),
};

const spec = defineUrlState({
  page: 'demo',
  version: 2,
  params,
  presets: [
    { id: 'rocks', label: 'RocksDB', values: { sizeRatio: 10, policy: 'lev', bits: 10 } },
    { id: 'tiered', label: 'Tiered', values: { sizeRatio: 4, policy: 'tier' } },
  ],
  // v1 called the size ratio "t".
  migrate: (raw, from) => {
    if (from < 2 && raw.has('t')) {
      raw.set('T', raw.get('t') ?? '');
      raw.delete('t');
    }
    return raw;
  },
});

describe('URL state codec', () => {
  it('writes every control compactly, version first, in schema order', () => {
    expect(encodeQuery(spec, defaultsOf(params))).toBe('v=2&T=10&b=10&N=100000000&pol=lev&m=0&Ts=10,10,4');
  });

  it('round-trips every kind of value exactly', () => {
    const state = { sizeRatio: 7, bits: 3.25, entries: 123_456_789, policy: 'tier' as const, measured: true, ratios: [2, 100, 4.5] };
    const q = encodeQuery(spec, state);
    expect(q).toBe('v=2&T=7&b=3.25&N=123456789&pol=tier&m=1&Ts=2,100,4.5');
    const back = decodeQuery(spec, q);
    expect(back.notices).toEqual([]);
    expect(back.state).toEqual(state);
  });

  it('round-trips tiny and huge numbers without "+" signs', () => {
    const p = { x: numberParam({ key: 'x', label: 'x', default: 1, min: 0, max: 1e30 }) };
    const s = defineUrlState({ page: 'p', version: 1, params: p });
    for (const x of [1e-9, 0.1 + 0.2, 1e21, 123456.789]) {
      const q = encodeQuery(s, { x });
      expect(q).not.toContain('+');
      expect(decodeQuery(s, q).state.x).toBe(x);
    }
  });

  it('reads an empty query as the defaults, silently', () => {
    expect(decodeQuery(spec, '')).toEqual({ state: defaultsOf(params), notices: [] });
  });

  it('keeps valid values and replaces bad ones with defaults, with a notice naming the range', () => {
    const { state, notices } = decodeQuery(spec, 'v=2&T=500&b=abc&pol=zigzag&m=yes&Ts=10,1,4&N=1e6');
    expect(state).toEqual({ ...defaultsOf(params), entries: 1e6 });
    expect(notices).toHaveLength(5);
    expect(notices[0]).toBe(
      'The link value T=500 is not valid (size ratio must be a whole number between 2 and 100); using the default, 10.',
    );
    expect(notices[1]).toContain('bits per key must be a number between 0 and 24');
    expect(notices[2]).toContain('merge policy must be one of lev, tier');
    expect(notices[3]).toContain('show measured must be 1 or 0');
    expect(notices[4]).toContain('size ratios: item 2 ("1") must be between 2 and 100');
  });

  it('rejects non-integers for integer params and never yields NaN', () => {
    const { state, notices } = decodeQuery(spec, 'v=2&T=2.5&b=NaN&N=Infinity');
    expect(state.sizeRatio).toBe(10);
    expect(state.bits).toBe(10);
    expect(state.entries).toBe(1e8);
    expect(notices).toHaveLength(3);
  });

  it('reports unknown keys and undecodable parts instead of throwing', () => {
    const { state, notices } = decodeQuery(spec, 'v=2&zz=1&b=%E0%A4%A&T=4');
    expect(state.sizeRatio).toBe(4);
    expect(notices.some((n) => n.includes('"zz" is not used on this page'))).toBe(true);
    expect(notices.some((n) => n.includes('could not be read'))).toBe(true);
  });

  it('migrates links of an older version', () => {
    const { state, notices } = decodeQuery(spec, 'v=1&t=4&pol=tier');
    expect(notices).toEqual([]);
    expect(state.sizeRatio).toBe(4);
    expect(state.policy).toBe('tier');
  });

  it('reads links from a newer version as far as possible, with a notice', () => {
    const { state, notices } = decodeQuery(spec, 'v=3&T=4');
    expect(state.sizeRatio).toBe(4);
    expect(notices[0]).toContain('newer version of this page (v3)');
  });

  it('flags a malformed version but still reads the values', () => {
    const { state, notices } = decodeQuery(spec, 'v=x&T=4');
    expect(state.sizeRatio).toBe(4);
    expect(notices[0]).toContain('version "x" is not valid');
  });

  it('lets the last duplicate win', () => {
    expect(splitQuery('a=1&a=2').pairs.get('a')).toBe('2');
    expect(decodeQuery(spec, 'v=2&T=3&T=5').state.sizeRatio).toBe(5);
  });
});

describe('presets', () => {
  it('apply their values over the current state and are recognised afterwards', () => {
    const start = { ...defaultsOf(params), bits: 3 };
    expect(matchingPreset(spec, start)).toBeNull();
    const tiered = applyPreset(spec, start, 'tiered');
    expect(tiered).toEqual({ ...start, sizeRatio: 4, policy: 'tier' });
    expect(matchingPreset(spec, tiered)?.id).toBe('tiered');
    expect(matchingPreset(spec, defaultsOf(params))?.id).toBe('rocks');
    expect(applyPreset(spec, start, 'nope')).toBe(start);
  });
});

describe('URL spec definition', () => {
  it('rejects duplicate keys, bad presets and unsafe keys or options', () => {
    const T = numberParam({ key: 'T', label: 'a', default: 2, min: 2, max: 3 });
    expect(() => defineUrlState({ page: 'p', version: 1, params: { a: T, b: { ...T } } })).toThrow(/used twice/);
    expect(() =>
      defineUrlState({ page: 'p', version: 1, params: { a: T }, presets: [{ id: 'x', label: 'x', values: { a: 9 } }] }),
    ).toThrow(/preset "x"/);
    expect(() => numberParam({ key: 'v', label: 'v', default: 1, min: 0, max: 2 })).toThrow(/other than "v"/);
    expect(() => numberParam({ key: 'a b', label: 'x', default: 1, min: 0, max: 2 })).toThrow();
    expect(() => numberParam({ key: 'a', label: 'x', default: 5, min: 0, max: 2 })).toThrow(/outside its range/);
    expect(() =>
      enumParam({ key: 'e', label: 'e', default: 'a b', options: [{ value: 'a b', label: 'A' }] }),
    ).toThrow(/not URL-safe/);
  });
});

describe('hash routes', () => {
  const routes = [{ path: 'learn' }, { path: 'lab' }];
  it('split the path from the page-owned query', () => {
    expect(parseHash('#/learn?v=1&b=10', routes)).toEqual({ path: 'learn', query: 'v=1&b=10' });
    expect(parseHash('#/lab', routes)).toEqual({ path: 'lab', query: '' });
    expect(parseHash('#/lab/', routes)).toEqual({ path: 'lab', query: '' });
  });
  it('take the app’s embed= and at= pairs out of the page’s query, refusing ids that are not plain words', () => {
    expect(parseHash('#/learn?v=1&at=learn-bloom&b=10', routes)).toEqual({ path: 'learn', query: 'v=1&b=10', at: 'learn-bloom' });
    expect(parseHash('#/lab?embed=tree&at=x_1', routes)).toEqual({ path: 'lab', query: '', embed: 'tree', at: 'x_1' });
    expect(parseHash('#/learn?at=%3Cimg%3E&b=10', routes)).toEqual({ path: 'learn', query: 'b=10' });
    expect(learnLink('size-ratio')).toBe('#/learn?at=learn-size-ratio');
    expect(parseHash(learnLink('monkey'), routes)).toEqual({ path: 'learn', query: '', at: 'learn-monkey' });
  });
  it('send unknown or empty paths to the default page, dropping their query', () => {
    expect(parseHash('', routes).query).toBe('');
    expect(parseHash('#/nowhere?x=1', routes)).toEqual({ path: 'learn', query: '', unknown: 'nowhere' });
    expect(parseHash('#/', routes)).toEqual({ path: 'learn', query: '' });
  });
  it('have one page component each, and no component without a route', () => {
    expect(Object.keys(PAGE_LOADERS).sort()).toEqual(ROUTES.map((r) => r.path).sort());
    expect(ROUTES.length).toBe(11);
  });
});

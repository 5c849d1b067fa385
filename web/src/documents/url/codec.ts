/**
 * The URL form of a page's state: `v=1&b=10&T=10,10,4&pol=lev`. Versioned so that links keep
 * working when a page's controls change (a `migrate` hook rewrites old keys); compact (short keys,
 * comma lists, no escaping of the characters we allow); and forgiving: a bad or out-of-range
 * value falls back to its default with a notice the page shows, it never throws.
 */
import { defaultsOf, valuesEqual, type Param, type Schema, type StateOf } from './params';
import { checkEnum, checkNumberListText, checkNumberText, valueProblem } from './validate';

export interface Preset<S extends Schema> {
  id: string;
  label: string;
  description?: string;
  /** The controls this preset sets; the others keep their current values. */
  values: Partial<StateOf<S>>;
}

export interface UrlSpec<S extends Schema> {
  /** The route path this state belongs to (`learn` for `#/learn?...`). */
  page: string;
  /** Bump when a key is renamed or its meaning changes, and add a `migrate` step. */
  version: number;
  params: S;
  presets?: readonly Preset<S>[];
  /** Rewrite the raw pairs of a link made for `fromVersion` into the current version's form. */
  migrate?: (raw: Map<string, string>, fromVersion: number) => Map<string, string>;
}

/** Check a page's URL spec once, when the page module loads: duplicate keys are a bug. */
export function defineUrlState<S extends Schema>(spec: UrlSpec<S>): UrlSpec<S> {
  const seen = new Set<string>();
  for (const p of Object.values(spec.params)) {
    if (seen.has(p.key)) throw new Error(`${spec.page}: URL key "${p.key}" is used twice`);
    seen.add(p.key);
  }
  for (const preset of spec.presets ?? []) {
    for (const [name, value] of Object.entries(preset.values)) {
      const p = spec.params[name];
      const problem = p ? valueProblem(p, value) : `unknown control "${name}"`;
      if (problem) throw new Error(`${spec.page}: preset "${preset.id}": ${problem}`);
    }
  }
  return spec;
}

function encodeNumber(n: number): string {
  return String(n).replace('e+', 'e');
}

export function encodeValue(p: Param, value: unknown): string {
  switch (p.kind) {
    case 'number':
      return encodeNumber(value as number);
    case 'enum':
      return value as string;
    case 'boolean':
      return value ? '1' : '0';
    case 'numbers':
      return (value as readonly number[]).map(encodeNumber).join(',');
  }
}

/** Parse one raw URL value; a message instead when it is not valid for the param. */
export function decodeValue(p: Param, raw: string): { ok: true; value: unknown } | { ok: false; message: string } {
  switch (p.kind) {
    case 'number':
      return checkNumberText(p, raw);
    case 'enum':
      return checkEnum(p, raw);
    case 'boolean':
      if (raw === '1' || raw === 'true') return { ok: true, value: true };
      if (raw === '0' || raw === 'false') return { ok: true, value: false };
      return { ok: false, message: `${p.label} must be 1 or 0` };
    case 'numbers':
      return checkNumberListText(p, raw);
  }
}

/** Every control, in schema order, after `v`. All values are written (not only non-defaults) so a
 * link means the same thing even if a default changes later. */
export function encodeQuery<S extends Schema>(spec: UrlSpec<S>, state: StateOf<S>): string {
  const parts = [`v=${spec.version}`];
  for (const [name, p] of Object.entries(spec.params)) {
    parts.push(`${p.key}=${encodeValue(p, state[name])}`);
  }
  return parts.join('&');
}

/** `a=1&b=2` → Map; later duplicates win; undecodable pairs are reported, not thrown. */
export function splitQuery(query: string): { pairs: Map<string, string>; broken: string[] } {
  const pairs = new Map<string, string>();
  const broken: string[] = [];
  for (const part of query.replace(/^\?/, '').split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const k = eq < 0 ? part : part.slice(0, eq);
    const v = eq < 0 ? '' : part.slice(eq + 1);
    try {
      pairs.set(decodeURIComponent(k), decodeURIComponent(v));
    } catch {
      broken.push(part);
    }
  }
  return { pairs, broken };
}

export interface Decoded<S extends Schema> {
  state: StateOf<S>;
  /** What was wrong with the link, for a notice on the page. Empty for a clean link. */
  notices: string[];
}

export function decodeQuery<S extends Schema>(spec: UrlSpec<S>, query: string): Decoded<S> {
  const state: Record<string, unknown> = { ...defaultsOf(spec.params) };
  const notices: string[] = [];
  const split = splitQuery(query);
  let pairs = split.pairs;
  for (const b of split.broken) notices.push(`The link part "${b}" could not be read and was ignored.`);

  const rawVersion = pairs.get('v');
  pairs.delete('v');
  if (rawVersion !== undefined) {
    const version = /^\d+$/.test(rawVersion) ? Number(rawVersion) : NaN;
    if (!Number.isInteger(version) || version < 1) {
      notices.push(`The link version "${rawVersion}" is not valid; its settings were read as version ${spec.version}.`);
    } else if (version > spec.version) {
      notices.push(
        `This link was made by a newer version of this page (v${version}); settings were read as v${spec.version} where possible.`,
      );
    } else if (version < spec.version && spec.migrate) {
      pairs = spec.migrate(new Map(pairs), version);
    }
  }

  const byKey = new Map(Object.entries(spec.params).map(([name, p]) => [p.key, { name, p }]));
  for (const [key, raw] of pairs) {
    const entry = byKey.get(key);
    if (!entry) {
      notices.push(`The link setting "${key}" is not used on this page and was ignored.`);
      continue;
    }
    const decoded = decodeValue(entry.p, raw);
    if (decoded.ok) {
      state[entry.name] = decoded.value;
    } else {
      notices.push(
        `The link value ${key}=${raw} is not valid (${decoded.message}); using the default, ${encodeValue(entry.p, entry.p.default)}.`,
      );
    }
  }
  return { state: state as StateOf<S>, notices };
}

export function statesEqual<S extends Schema>(spec: UrlSpec<S>, a: StateOf<S>, b: StateOf<S>): boolean {
  return Object.keys(spec.params).every((name) => valuesEqual(a[name], b[name]));
}

/** The preset whose every value matches the state, if any (what a preset select should show). */
export function matchingPreset<S extends Schema>(spec: UrlSpec<S>, state: StateOf<S>): Preset<S> | null {
  for (const preset of spec.presets ?? []) {
    const entries = Object.entries(preset.values) as [keyof S & string, unknown][];
    if (entries.every(([name, v]) => valuesEqual(state[name], v))) return preset;
  }
  return null;
}

export function applyPreset<S extends Schema>(spec: UrlSpec<S>, state: StateOf<S>, presetId: string): StateOf<S> {
  const preset = spec.presets?.find((p) => p.id === presetId);
  return preset ? { ...state, ...preset.values } : state;
}

/**
 * Typed descriptions of a page's controls. One `Param` says everything the app needs about a
 * setting: its short URL key, its label and unit for the control, its default, and its allowed
 * range. The URL codec, the controls and the validation messages are all driven from it, so they
 * can never disagree about what a valid value is.
 */

interface ParamBase {
  /** Short key in the URL (`T`, `b`, `pol`); letters, digits, `_`, `-`. */
  key: string;
  /** Human name, lower case, used in labels and messages ("size ratio"). */
  label: string;
  /** Math symbol shown after the label ("T", "M_buf"), as in the papers. */
  symbol?: string;
  /** One sentence shown as a hint next to the control. */
  help?: string;
}

export interface NumberParam extends ParamBase {
  kind: 'number';
  default: number;
  min: number;
  max: number;
  integer?: boolean;
  /** Unit shown next to the input and in axis/CSV headers ("bits/key", "MiB"). */
  unit?: string;
  /** Slider step in value units (linear sliders only). */
  step?: number;
  /** Slider moves in log space (for ranges spanning decades). Requires min > 0. */
  log?: boolean;
}

export interface EnumOption<T extends string> {
  value: T;
  label: string;
  help?: string;
}

export interface EnumParam<T extends string = string> extends ParamBase {
  kind: 'enum';
  default: T;
  options: readonly EnumOption<T>[];
}

export interface BooleanParam extends ParamBase {
  kind: 'boolean';
  default: boolean;
}

/** A list of numbers, e.g. per-level size ratios, written `T=10,10,4` in the URL. */
export interface NumberListParam extends ParamBase {
  kind: 'numbers';
  default: readonly number[];
  min: number;
  max: number;
  integer?: boolean;
  unit?: string;
  minLength: number;
  maxLength: number;
}

export type Param = NumberParam | EnumParam | BooleanParam | NumberListParam;

/** The value type a param holds. */
export type ValueOf<P> = P extends NumberParam
  ? number
  : P extends EnumParam<infer T>
    ? T
    : P extends BooleanParam
      ? boolean
      : P extends NumberListParam
        ? readonly number[]
        : never;

export type Schema = Record<string, Param>;

/** The state object of a schema: one typed field per param. */
export type StateOf<S extends Schema> = { [K in keyof S]: ValueOf<S[K]> };

const KEY_RE = /^[A-Za-z][A-Za-z0-9_-]*$/;
const ENUM_VALUE_RE = /^[A-Za-z0-9._-]+$/;

function checkKey(key: string): void {
  // Keys and enum values go into the URL unescaped; catching a bad one at definition time keeps
  // links short and readable.
  if (!KEY_RE.test(key) || key === 'v') throw new Error(`URL key "${key}" must be a short identifier other than "v"`);
}

export function numberParam(p: Omit<NumberParam, 'kind'>): NumberParam {
  checkKey(p.key);
  if (!(p.min <= p.default && p.default <= p.max)) throw new Error(`default of ${p.label} is outside its range`);
  if (p.log && p.min <= 0) throw new Error(`${p.label}: a log slider needs min > 0`);
  return { kind: 'number', ...p };
}

export function enumParam<const T extends string>(p: Omit<EnumParam<T>, 'kind'>): EnumParam<T> {
  checkKey(p.key);
  for (const o of p.options) {
    if (!ENUM_VALUE_RE.test(o.value)) throw new Error(`option "${o.value}" of ${p.label} is not URL-safe`);
  }
  if (!p.options.some((o) => o.value === p.default)) throw new Error(`default of ${p.label} is not an option`);
  return { kind: 'enum', ...p };
}

export function booleanParam(p: Omit<BooleanParam, 'kind'>): BooleanParam {
  checkKey(p.key);
  return { kind: 'boolean', ...p };
}

export function numberListParam(p: Omit<NumberListParam, 'kind'>): NumberListParam {
  checkKey(p.key);
  return { kind: 'numbers', ...p };
}

/** The defaults of a schema, as a state object. */
export function defaultsOf<S extends Schema>(schema: S): StateOf<S> {
  const out: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(schema)) out[name] = p.default;
  return out as StateOf<S>;
}

export function valuesEqual(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => x === b[i]);
  return a === b;
}

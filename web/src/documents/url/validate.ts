/**
 * Validation of control values, with messages that name the setting and its allowed range
 * ("size ratio must be between 2 and 100"). Shared by the controls (as the user types) and the
 * URL codec (for values arriving in a link), so both say the same thing.
 */
import type { EnumParam, NumberListParam, NumberParam, Param } from './params';

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

/** Built once: `toLocaleString` with options builds a formatter per call (same output). */
const BOUND_FORMAT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 });

/** A bound as people write it: 1000000 → "1,000,000", 1e-7 → "1e-7", 0.5 → "0.5". */
export function formatBound(n: number): string {
  if (n === Infinity) return '∞';
  if (n === -Infinity) return '−∞';
  const abs = Math.abs(n);
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e15)) return n.toExponential().replace('e+', 'e');
  return BOUND_FORMAT.format(n);
}

type Bounds = { min: number; max: number; integer?: boolean };

/** "between 2 and 100", or "a whole number between 2 and 100" for integers. */
function rangeText(p: Bounds): string {
  return `${p.integer ? 'a whole number ' : ''}between ${formatBound(p.min)} and ${formatBound(p.max)}`;
}

/** "a number between 2 and 100" / "a whole number between 2 and 100". */
function kindText(p: Bounds): string {
  return `${p.integer ? 'a whole number' : 'a number'} between ${formatBound(p.min)} and ${formatBound(p.max)}`;
}

/** Why `value` is not allowed for `p`, or null when it is. */
export function numberProblem(p: NumberParam | NumberListParam, value: number): string | null {
  if (!Number.isFinite(value) || value < p.min || value > p.max || (p.integer && !Number.isInteger(value))) {
    return `${p.label} must be ${rangeText(p)}`;
  }
  return null;
}

/**
 * Read a number the way people type it: surrounding spaces, thousands separators (`1,000`,
 * `1_000`) and exponents (`1e6`) are fine. Anything else is not a number.
 */
export function readNumber(text: string): number | null {
  const t = text.trim().replace(/[,_\s]/g, '').replace(/^\u2212/, '-');
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

export function checkNumberText(p: NumberParam, text: string): Checked<number> {
  if (text.trim() === '') return { ok: false, message: `${p.label} is required: enter ${kindText(p)}` };
  const n = readNumber(text);
  if (n === null) return { ok: false, message: `${p.label} must be ${kindText(p)}` };
  const problem = numberProblem(p, n);
  return problem ? { ok: false, message: problem } : { ok: true, value: n };
}

/** A list like "10, 10, 4" (commas or spaces between items). */
export function checkNumberListText(p: NumberListParam, text: string): Checked<number[]> {
  const items = text.split(/[\s,;]+/).filter((s) => s !== '');
  const count =
    p.minLength === p.maxLength ? `${p.minLength}` : `${p.minLength} to ${p.maxLength}`;
  if (items.length < p.minLength || items.length > p.maxLength) {
    return { ok: false, message: `${p.label} must list ${count} values, got ${items.length}` };
  }
  const values: number[] = [];
  for (let i = 0; i < items.length; i++) {
    const n = readNumber(items[i]);
    if (n === null || numberProblem(p, n)) {
      return { ok: false, message: `${p.label}: item ${i + 1} ("${items[i]}") must be ${rangeText(p)}` };
    }
    values.push(n);
  }
  return { ok: true, value: values };
}

export function checkEnum<T extends string>(p: EnumParam<T>, raw: string): Checked<T> {
  const found = p.options.find((o) => o.value === raw);
  if (found) return { ok: true, value: found.value };
  return { ok: false, message: `${p.label} must be one of ${p.options.map((o) => o.value).join(', ')}` };
}

/** Is a value of the right type and inside the param's range? (for presets and programmatic sets) */
export function valueProblem(p: Param, value: unknown): string | null {
  switch (p.kind) {
    case 'number':
      return typeof value === 'number' ? numberProblem(p, value) : `${p.label} must be a number`;
    case 'enum':
      return typeof value === 'string' ? (checkEnum(p, value).ok ? null : `${p.label} is not an option`) : `${p.label} must be text`;
    case 'boolean':
      return typeof value === 'boolean' ? null : `${p.label} must be on or off`;
    case 'numbers': {
      if (!Array.isArray(value)) return `${p.label} must be a list`;
      if (value.length < p.minLength || value.length > p.maxLength) return `${p.label} has the wrong number of values`;
      for (const v of value) {
        const problem = typeof v === 'number' ? numberProblem(p, v) : `${p.label} must hold numbers`;
        if (problem) return problem;
      }
      return null;
    }
  }
}

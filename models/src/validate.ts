/**
 * Input validation shared by every model. Invalid input throws a `ModelInputError` that names the
 * field and the allowed range; models never return NaN.
 */

export class ModelInputError extends Error {
  readonly field: string;

  constructor(field: string, message: string) {
    super(`${field}: ${message}`);
    this.name = 'ModelInputError';
    this.field = field;
  }
}

export interface RangeOptions {
  /** Reject the lower bound itself (e.g. memory > 0). */
  exclusiveMin?: boolean;
  exclusiveMax?: boolean;
  integer?: boolean;
}

function describe(min: number, max: number, o: RangeOptions): string {
  const lo = o.exclusiveMin ? '(' : '[';
  const hi = o.exclusiveMax || max === Infinity ? ')' : ']';
  const kind = o.integer ? 'an integer' : 'a number';
  return `must be ${kind} in ${lo}${min}, ${max === Infinity ? '∞' : max}${hi}`;
}

/** Check that `value` is a finite number within [min, max] (bounds per `options`) and return it. */
export function requireNumber(
  field: string,
  value: unknown,
  min: number,
  max: number,
  options: RangeOptions = {},
): number {
  const ok =
    typeof value === 'number' &&
    !Number.isNaN(value) &&
    (Number.isFinite(value) || (value === Infinity && max === Infinity && !options.exclusiveMax)) &&
    (options.exclusiveMin ? value > min : value >= min) &&
    (options.exclusiveMax ? value < max : value <= max) &&
    (!options.integer || Number.isInteger(value));
  if (!ok) {
    throw new ModelInputError(field, `${describe(min, max, options)}, got ${String(value)}`);
  }
  return value as number;
}

/** A fraction in [0, 1]. */
export function requireFraction(field: string, value: unknown): number {
  return requireNumber(field, value, 0, 1);
}

/** Fractions that must add up to 1 (within 1e-9). */
export function requireSumToOne(field: string, parts: Record<string, number>): void {
  for (const [name, v] of Object.entries(parts)) requireFraction(`${field}.${name}`, v);
  const sum = Object.values(parts).reduce((a, b) => a + b, 0);
  if (Math.abs(sum - 1) > 1e-9) {
    const names = Object.keys(parts).join(' + ');
    throw new ModelInputError(field, `${names} must sum to 1, got ${sum}`);
  }
}

export function requireOneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new ModelInputError(field, `must be one of ${allowed.map((a) => `"${a}"`).join(', ')}, got ${String(value)}`);
  }
  return value as T;
}

/** Throw if a computed result is not a finite number (a model bug, reported with context). */
export function finite(what: string, value: number): number {
  if (!Number.isFinite(value)) {
    throw new Error(`${what} evaluated to ${value}; this is a model bug, please report the inputs`);
  }
  return value;
}

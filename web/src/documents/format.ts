/** Number formatting for the UI: grouped integers, fixed decimals, never "NaN". */

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function formatInt(n: number): string {
  return Number.isFinite(n) ? integer.format(n) : '—';
}

export function formatFixed(n: number, digits: number): string {
  return Number.isFinite(n) ? n.toFixed(digits) : '—';
}

export function formatBytes(n: number): string {
  if (!Number.isFinite(n)) return '—';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let u = 0;
  while (Math.abs(v) >= 1024 && u < units.length - 1) {
    v /= 1024;
    u += 1;
  }
  return `${u === 0 ? v.toFixed(0) : v.toFixed(v < 10 ? 2 : 1)} ${units[u]}`;
}

const SUPERSCRIPT: Record<string, string> = {
  '0': '⁰', '1': '¹', '2': '²', '3': '³', '4': '⁴', '5': '⁵', '6': '⁶', '7': '⁷', '8': '⁸', '9': '⁹', '-': '⁻',
};

/** 10 raised to an integer, typeset: `10⁻³`. */
export function powerOfTen(exponent: number): string {
  return `10${String(exponent).replace(/[-0-9]/g, (c) => SUPERSCRIPT[c])}`;
}

/**
 * One Intl.NumberFormat per number of decimals: `toLocaleString` with options builds a new
 * formatter on every call, which shows up when a slider drag re-renders dozens of numbers.
 * Same output as `n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: 0 })`.
 */
const plainFormats = new Map<number, Intl.NumberFormat>();
function plainFormat(decimals: number): Intl.NumberFormat {
  let f = plainFormats.get(decimals);
  if (!f) {
    f = new Intl.NumberFormat('en-US', { maximumFractionDigits: decimals, minimumFractionDigits: 0 });
    plainFormats.set(decimals, f);
  }
  return f;
}

/**
 * A measured or modelled quantity with `digits` significant digits: plain notation between 0.001
 * and 1e6 (`0.008193`, `12,345`), scientific outside it (`1.046 × 10⁻⁴`). Never "NaN".
 */
export function formatSig(n: number, digits = 4): string {
  if (!Number.isFinite(n)) return '—';
  if (n === 0) return '0';
  const abs = Math.abs(n);
  if (abs >= 1e-3 && abs < 1e6) {
    const decimals = Math.max(0, digits - 1 - Math.floor(Math.log10(abs)));
    return plainFormat(Math.min(decimals, 20)).format(n);
  }
  const [mantissa, exp] = n.toExponential(digits - 1).split('e');
  const m = mantissa.includes('.') ? mantissa.replace(/\.?0+$/, '') : mantissa;
  return `${m} × ${powerOfTen(Number(exp))}`;
}

/** A probability as a percentage with `digits` significant digits: 0.008193 → "0.8193%". */
export function formatPercent(p: number, digits = 3): string {
  if (!Number.isFinite(p)) return '—';
  return `${formatSig(p * 100, digits)}%`;
}

/** A measurement against a reference as a signed relative difference: "+4.4%", "−12.0%". */
export function formatDifference(measured: number, reference: number): string {
  if (!Number.isFinite(measured) || !Number.isFinite(reference) || reference === 0) return '—';
  const p = (measured / reference - 1) * 100;
  return `${p >= 0 ? '+' : '−'}${formatFixed(Math.abs(p), 1)}%`;
}

/** Large counts compactly: 52,428,800 → "52.4 M", 1,200 → "1,200". */
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return '—';
  const abs = Math.abs(n);
  if (abs < 1e4) return formatInt(n);
  const units: [number, string][] = [[1e12, 'T'], [1e9, 'G'], [1e6, 'M'], [1e3, 'k']];
  for (const [scale, suffix] of units) {
    if (abs >= scale) return `${formatSig(n / scale, 3)} ${suffix}`;
  }
  return formatInt(n);
}

/** A duration given in nanoseconds: 850 ns, 12.3 µs, 4.56 ms, 1.23 s. */
export function formatDuration(ns: number): string {
  if (!Number.isFinite(ns)) return '—';
  if (ns < 1e3) return `${Math.round(ns)} ns`;
  if (ns < 1e6) return `${formatSig(ns / 1e3, 3)} µs`;
  if (ns < 1e9) return `${formatSig(ns / 1e6, 3)} ms`;
  return `${formatSig(ns / 1e9, 3)} s`;
}

/**
 * Scales and ticks for the charts. d3 does the mapping; tick choice and labels are ours so that a
 * log axis reads as powers of ten (10⁻³, 10⁻²) and a count axis as 1k, 10M rather than 1e+7.
 */
import { scaleLinear, scaleLog, type ScaleLinear, type ScaleLogarithmic } from 'd3';
import { formatSig, powerOfTen } from '../../documents/format';
import { extentOf } from './clean';
import type { AxisSpec } from './types';

export type NumScale = ScaleLinear<number, number> | ScaleLogarithmic<number, number>;

export interface Tick {
  value: number;
  /** Empty for minor ticks (drawn shorter, not labelled). */
  label: string;
}

export function makeScale(axis: AxisSpec, values: readonly number[], range: [number, number]): NumScale {
  const domain = axis.domain ? ([axis.domain[0], axis.domain[1]] as [number, number]) : extentOf(values, axis.scale, axis.zero);
  if (axis.scale === 'log') {
    const s = scaleLog().domain(domain).range(range);
    return axis.domain ? s : s.nice();
  }
  const s = scaleLinear().domain(domain).range(range);
  return axis.domain ? s : s.nice();
}

/** Tick labels on a linear axis: 2.5, 100, 20k, 1.5M — short, never exponent notation. */
export function formatTick(v: number): string {
  const abs = Math.abs(v);
  if (abs >= 1e4) {
    for (const [scale, suffix] of [[1e12, 'T'], [1e9, 'G'], [1e6, 'M'], [1e3, 'k']] as const) {
      if (abs >= scale) return `${Number((v / scale).toPrecision(3))}${suffix}`;
    }
  }
  if (abs !== 0 && abs < 1e-3) return formatSig(v, 2);
  return String(Number(v.toPrecision(6)));
}

export function linearTicks(scale: NumScale, count: number, format?: (v: number) => string): Tick[] {
  return scale.ticks(count).map((value) => ({ value, label: (format ?? formatTick)(value) }));
}

/**
 * Log ticks: a labelled tick at each power of ten (every 2nd or 3rd when there are many decades),
 * unlabelled minor ticks at 2..9 × 10^k when there is room. Within one decade, d3's ticks, all
 * labelled.
 */
export function logTicks(scale: NumScale, pixels: number, format?: (v: number) => string): Tick[] {
  const [a, b] = scale.domain();
  const lo = Math.min(a, b);
  const hi = Math.max(a, b);
  const first = Math.ceil(Math.log10(lo) - 1e-9);
  const last = Math.floor(Math.log10(hi) + 1e-9);
  const decades = last - first;
  if (decades < 1) {
    return scale.ticks(Math.max(2, Math.floor(pixels / 60))).map((value) => ({ value, label: (format ?? formatTick)(value) }));
  }
  const room = Math.max(2, Math.floor(pixels / 38));
  const every = Math.ceil((decades + 1) / room);
  const ticks: Tick[] = [];
  const minor = decades <= pixels / 50;
  for (let e = Math.floor(Math.log10(lo)); e <= last; e++) {
    const major = 10 ** e;
    if (e >= first && (e - first) % every === 0) {
      ticks.push({ value: major, label: format ? format(major) : powerOfTen(e) });
    } else if (e >= first) {
      ticks.push({ value: major, label: '' });
    }
    if (!minor) continue;
    for (let m = 2; m <= 9; m++) {
      const v = m * major;
      if (v >= lo && v <= hi) ticks.push({ value: v, label: '' });
    }
  }
  return ticks;
}

export function axisTicks(axis: AxisSpec, scale: NumScale, pixels: number, spacing: number): Tick[] {
  if (axis.ticks) {
    const [a, b] = scale.domain();
    return axis.ticks
      .filter((v) => v >= Math.min(a, b) && v <= Math.max(a, b))
      .map((value) => ({ value, label: (axis.format ?? formatTick)(value) }));
  }
  if (axis.scale === 'log') return logTicks(scale, pixels, axis.format);
  return linearTicks(scale, Math.max(2, Math.floor(pixels / spacing)), axis.format);
}

/** Rough width of a label in px, to size margins without measuring the DOM (works in tests). */
export function textWidth(text: string, fontSize = 12): number {
  return text.length * fontSize * 0.58;
}

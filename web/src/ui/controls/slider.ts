/**
 * Mapping between a number param's value and a slider position. Log sliders move in log10 space
 * (a decade per equal distance) and snap to 3 significant digits, so dragging gives values people
 * would type (25,000,000 rather than 24,871,113).
 */
import type { NumberParam } from '../../documents/url/params';

/** Positions of a log slider; fine enough for 3 significant digits over a few decades. */
export const LOG_STEPS = 1000;

export interface SliderScale {
  min: number;
  max: number;
  step: number;
  toPosition: (value: number) => number;
  fromPosition: (position: number) => number;
}

function roundSignificant(v: number, digits: number): number {
  if (v === 0) return 0;
  const p = Math.pow(10, digits - 1 - Math.floor(Math.log10(Math.abs(v))));
  return Math.round(v * p) / p;
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}

export function sliderScale(p: NumberParam): SliderScale {
  if (p.log) {
    const lo = Math.log10(p.min);
    const hi = Math.log10(p.max);
    return {
      min: 0,
      max: LOG_STEPS,
      step: 1,
      toPosition: (v) => Math.round(((Math.log10(clamp(v, p.min, p.max)) - lo) / (hi - lo)) * LOG_STEPS),
      fromPosition: (pos) => {
        const raw = Math.pow(10, lo + (pos / LOG_STEPS) * (hi - lo));
        const v = roundSignificant(raw, 3);
        return clamp(p.integer ? Math.round(v) : v, p.min, p.max);
      },
    };
  }
  const step = p.step ?? (p.integer ? 1 : roundSignificant((p.max - p.min) / 200, 1));
  return {
    min: p.min,
    max: p.max,
    step,
    toPosition: (v) => clamp(v, p.min, p.max),
    fromPosition: (pos) => {
      // Snap to the step grid, removing float noise such as 0.30000000000000004.
      const snapped = p.min + Math.round((pos - p.min) / step) * step;
      const v = Number(snapped.toPrecision(12));
      return clamp(p.integer ? Math.round(v) : v, p.min, p.max);
    },
  };
}

/** Keys a slider answers, as the ARIA slider pattern has them. */
export type SliderKey = 'ArrowUp' | 'ArrowRight' | 'ArrowDown' | 'ArrowLeft' | 'PageUp' | 'PageDown' | 'Home' | 'End';

export function isSliderKey(key: string): key is SliderKey {
  return ['ArrowUp', 'ArrowRight', 'ArrowDown', 'ArrowLeft', 'PageUp', 'PageDown', 'Home', 'End'].includes(key);
}

/**
 * The value a slider key moves to: arrows to the next value the slider can show (one integer, one
 * step, or on a log slider the next 3-significant-digit value — the browser's own step there is
 * a thousandth of the track, which rounds back to the same value and looks ignored), Page keys
 * about a tenth of the track, Home and End the ends. Always a different value unless at an end.
 */
export function nudge(p: NumberParam, value: number, key: SliderKey): number {
  if (key === 'Home') return p.min;
  if (key === 'End') return p.max;
  const up = key === 'ArrowUp' || key === 'ArrowRight' || key === 'PageUp';
  const big = key === 'PageUp' || key === 'PageDown';
  const scale = sliderScale(p);
  const dir = up ? 1 : -1;
  const from = scale.toPosition(value);
  const jump = big ? (scale.max - scale.min) / 10 : scale.step;
  for (let pos = from + dir * jump; pos >= scale.min - 1e-9 && pos <= scale.max + 1e-9; pos += dir * scale.step) {
    const v = scale.fromPosition(pos);
    if (up ? v > value : v < value) return v;
  }
  return up ? p.max : p.min;
}

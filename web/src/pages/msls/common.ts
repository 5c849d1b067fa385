/** Shared pieces of the MSLS page: series colours, axes, number formats, the narrow-screen switch. */
import { useSyncExternalStore } from 'react';
import { SERIES_COLORS } from '../../ui/charts/palette';
import type { AxisSpec } from '../../ui/charts/types';
import { formatFixed, formatSig } from '../../documents/format';

export const UNIFORM_COLOR = SERIES_COLORS[0];
export const ZIPF_COLOR = SERIES_COLORS[1];
export const WORST_COLOR = '#5d6b7f';
export const WORST_DASH = '6 4';
export const WORST_LABEL = 'worst case (no redundancy)';
/** The systems measured: a real LevelDB and the engine (the MSLS model keeps UNIFORM_COLOR). */
export const LEVELDB_COLOR = '#5d6b7f';
export const ENGINE_COLOR = SERIES_COLORS[2];

export const WA_AXIS: AxisSpec = { label: 'write amplification', unit: '×', zero: true, format: (v) => formatSig(v, 4) };

export const zipfLabel = (theta: number) => `MSLS, Zipf θ = ${formatTheta(theta)}`;
export const formatTheta = (theta: number) => String(Number(theta.toFixed(3)));
export const formatWa = (wa: number) => formatFixed(wa, 2);

/** "4 MiB", "0.5 MiB", "1.5 GiB" for sizes given in MiB. */
export function formatMiB(mib: number): string {
  if (!Number.isFinite(mib)) return '—';
  if (mib >= 1024) return `${formatSig(mib / 1024, 3)} GiB`;
  if (mib < 1) return `${formatSig(mib * 1024, 3)} KiB`;
  return `${formatSig(mib, 3)} MiB`;
}

const NARROW = '(max-width: 760px)';
const subscribeNarrow = (onChange: () => void) => {
  const m = window.matchMedia(NARROW);
  m.addEventListener('change', onChange);
  return () => m.removeEventListener('change', onChange);
};

/** Phone-width screens: bar value labels would overlap there, and the tooltip still gives them. */
export function useNarrow(): boolean {
  return useSyncExternalStore(subscribeNarrow, () => window.matchMedia(NARROW).matches, () => false);
}

/**
 * The benchmark's last result, so the page never opens empty: the last run finished in this
 * browser (kept in localStorage), else the one shipped with the app (public/measured/browser-bench.json,
 * measured in headless Chromium by scripts/browser-bench.mjs). Checked on the way in: a stored
 * document that is not one of these is ignored, never drawn.
 */
import type { BenchRow } from './storageBench';

export interface StoredBench {
  kind: 'lsm-navigator/browser-bench';
  version: 1;
  entries: number;
  repeats: number;
  /** ISO date of the run. */
  date: string;
  /** The browser that ran it (navigator.userAgent). */
  browser: string;
  rows: BenchRow[];
}

const KEY = 'lsm-navigator/bench-last';

/** The document if it is a stored benchmark with at least one finite row, else null. */
export function checkStoredBench(doc: unknown): StoredBench | null {
  if (typeof doc !== 'object' || doc === null) return null;
  const d = doc as Partial<StoredBench>;
  if (d.kind !== 'lsm-navigator/browser-bench' || d.version !== 1 || !Array.isArray(d.rows) || d.rows.length === 0) return null;
  if (typeof d.entries !== 'number' || typeof d.repeats !== 'number' || typeof d.date !== 'string' || typeof d.browser !== 'string') return null;
  const ok = d.rows.every(
    (r) => typeof r?.id === 'string' && typeof r.label === 'string' && [r.inserts, r.insertsPerSecond, r.lookups, r.lookupsPerSecond].every((v) => typeof v === 'number' && Number.isFinite(v) && v >= 0),
  );
  return ok ? (d as StoredBench) : null;
}

export function saveLastRun(entries: number, repeats: number, rows: BenchRow[]): void {
  const doc: StoredBench = { kind: 'lsm-navigator/browser-bench', version: 1, entries, repeats, date: new Date().toISOString(), browser: navigator.userAgent, rows };
  try {
    localStorage.setItem(KEY, JSON.stringify(doc));
  } catch {
    // Storage full or disabled: the run is still on screen, just not kept.
  }
}

export function loadLastRun(): StoredBench | null {
  try {
    const text = localStorage.getItem(KEY);
    return text ? checkStoredBench(JSON.parse(text)) : null;
  } catch {
    return null;
  }
}

export async function fetchShippedRun(): Promise<StoredBench | null> {
  try {
    const r = await fetch('/measured/browser-bench.json');
    return r.ok ? checkStoredBench(await r.json()) : null;
  } catch {
    return null;
  }
}

/**
 * What the export panel knows about each format: waiting for the engine, the file and its
 * warnings, the engine's error, or "needs a workload". Pure, so the panel's logic is testable
 * without a worker or a DOM.
 */
import type { ExportFormat, ExportWarning } from '../../documents/engine';
import type { EngineConfig, Workload } from '../../documents/engine';
import { EXPORT_FORMATS, formatInfo } from '../../documents/exportFormats';

export interface ExportFile {
  text: string;
  warnings: ExportWarning[];
}

export type FormatResult =
  | { status: 'pending' }
  | ({ status: 'ready' } & ExportFile)
  | { status: 'failed'; message: string }
  | { status: 'needs-workload' };

export type ExportResults = Record<ExportFormat, FormatResult>;

/** The identity of one export request: the panel ignores answers for an older key. */
export function requestKey(config: EngineConfig, workload: Workload | null): string {
  return JSON.stringify([config, workload]);
}

/** Every format waiting for the engine, except db_bench without a workload (never asked). */
export function pendingResults(hasWorkload: boolean): ExportResults {
  const out = {} as ExportResults;
  for (const f of EXPORT_FORMATS) out[f.format] = f.needsWorkload && !hasWorkload ? { status: 'needs-workload' } : { status: 'pending' };
  return out;
}

/** The formats to ask the engine for, given the results `pendingResults` set up. */
export function formatsToRequest(results: ExportResults): ExportFormat[] {
  return EXPORT_FORMATS.map((f) => f.format).filter((f) => results[f].status === 'pending');
}

/** One worker answer as a result. */
export function settle(outcome: PromiseSettledResult<ExportFile>): FormatResult {
  if (outcome.status === 'fulfilled') return { status: 'ready', text: outcome.value.text, warnings: outcome.value.warnings };
  const reason: unknown = outcome.reason;
  return { status: 'failed', message: reason instanceof Error ? reason.message : String(reason) };
}

export const WARNING_KINDS: readonly { kind: ExportWarning['kind']; label: string; meaning: string }[] = [
  { kind: 'dropped', label: 'dropped', meaning: 'no equivalent: the setting is gone' },
  { kind: 'rounded', label: 'rounded', meaning: 'expressed with a rounded value' },
  { kind: 'approximated', label: 'approximated', meaning: 'expressed by a setting that behaves close to, but not the same as, the engine' },
];

export function warningCounts(warnings: readonly ExportWarning[]): Record<ExportWarning['kind'], number> {
  const out = { dropped: 0, rounded: 0, approximated: 0 };
  for (const w of warnings) out[w.kind] += 1;
  return out;
}

/**
 * The line above a format's warnings: "Lossless" or "4 settings db_bench cannot express exactly:
 * 1 dropped, 3 approximated".
 */
export function warningHeadline(format: ExportFormat, warnings: readonly ExportWarning[]): string {
  const { target } = formatInfo(format);
  if (warnings.length === 0) return `Lossless: ${target} reads every setting of this design as it is.`;
  const counts = warningCounts(warnings);
  const parts = WARNING_KINDS.filter((k) => counts[k.kind] > 0).map((k) => `${counts[k.kind]} ${k.label}`);
  const n = warnings.length;
  return `${n} setting${n === 1 ? '' : 's'} ${target} cannot express exactly: ${parts.join(', ')}.`;
}

/** The small count on a format's tab: warnings of a ready file, '!' for an error, nothing otherwise. */
export function tabBadge(result: FormatResult): string | null {
  if (result.status === 'ready') return result.warnings.length > 0 ? String(result.warnings.length) : null;
  if (result.status === 'failed') return '!';
  return null;
}

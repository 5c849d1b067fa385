/**
 * The user's layout: preset buttons (the named designs and Smoose's choice, computed for the
 * current data set), the editable level table, and the layout's costs.
 */
import type { MooseLevel } from '@lsm/models';
import type { LayoutView } from '../../compute/sweeps/moose';
import { tableFromLayout, type TableEnv, type TableLevel } from '../../documents/mooseTable';
import { formatFixed, formatSig } from '../../documents/format';
import { Readouts } from '../../ui/layout/Readouts';
import { LevelTable } from './LevelTable';

export interface LayoutPreset {
  id: string;
  label: string;
  /** For a chart's category axis. */
  short: string;
  title: string;
  levels: readonly MooseLevel[] | undefined;
}

function matches(a: readonly TableLevel[], b: readonly TableLevel[], bits: boolean): boolean {
  return a.length === b.length && a.every((l, i) => l.sizeRatio === b[i].sizeRatio && l.runs === b[i].runs && (!bits || l.bitsPerEntry === b[i].bitsPerEntry));
}

export function LayoutCard({
  env,
  table,
  optimalFilters,
  onOptimalFilters,
  view,
  stale,
  error,
  presets,
  onCommit,
}: {
  env: TableEnv;
  table: readonly TableLevel[];
  optimalFilters: boolean;
  onOptimalFilters: (on: boolean) => void;
  view: LayoutView | undefined;
  /** The table or data set in the URL is not the one `view` was computed for. */
  stale: boolean;
  error: string | null;
  presets: readonly LayoutPreset[];
  onCommit: (table: TableLevel[]) => void;
}) {
  const c = view?.costs;
  return (
    <article className="card layout-card" data-testid="layout-card" aria-labelledby="layout-title">
      <header className="card-head">
        <div>
          <h2 id="layout-title">Your layout, level by level</h2>
          <p className="caption">
            Each level i has its own size ratio r<sub>i</sub> = N<sub>i</sub>/N<sub>i−1</sub> (N<sub>0</sub> = the buffer F), its own number of runs n
            <sub>i</sub> (1 = leveling, r<sub>i</sub> = tiering) and its own filter bits. Levels above the last are full; the last holds the rest of the
            data, so its ratio is a capacity and may be below 2. Values are checked as you type.
          </p>
        </div>
      </header>
      <div className="preset-row" role="group" aria-label="Layout presets">
        <span className="preset-row-label">Presets</span>
        {presets.map((p) => {
          const rows = p.levels && tableFromLayout(env, p.levels);
          const active = rows !== undefined && matches(rows, table, !optimalFilters);
          return (
            <button
              key={p.id}
              type="button"
              className={active ? 'preset-button active' : 'preset-button'}
              aria-pressed={active}
              disabled={!rows}
              title={p.title}
              data-testid={`preset-${p.id}`}
              onClick={() => rows && onCommit(rows)}
            >
              {p.label}
            </button>
          );
        })}
      </div>
      <LevelTable
        env={env}
        table={table}
        optimalFilters={optimalFilters}
        onOptimalFilters={onOptimalFilters}
        optimalBits={stale ? undefined : view?.optimalBits}
        details={stale ? undefined : c?.levels}
        onCommit={onCommit}
      />
      {error && !stale && (
        <p className="field-msg field-error" role="alert">
          {error}
        </p>
      )}
      {c && view && (
        <div className={stale ? 'stale' : undefined}>
          <Readouts
            label="Costs of your layout"
            items={[
              { label: 'Zero-result lookup Z', value: c.zeroResultPoint, text: formatSig(c.zeroResultPoint, 4), testId: 'cur-zero', hint: 'Σ n_i p_i, Eq.4' },
              { label: 'Existing-key lookup', value: c.nonZeroResultPoint, text: formatSig(c.nonZeroResultPoint, 4), testId: 'cur-nonzero', hint: '[extension] target in the last level' },
              { label: 'Range lookup R', value: c.range, text: formatSig(c.range, 4), testId: 'cur-range', hint: 'Σ n_i + σN/B, Eq.3' },
              { label: 'Update U', value: c.update, text: formatSig(c.update, 4), testId: 'cur-update', hint: c.updateModel === 'paper' ? '(1/B) Σ r_i/n_i, Eq.2' : '(1/B) Σ (r_i/n_i + 1)/2' },
              { label: 'Weighted, I/O per op', value: c.weighted, text: formatSig(c.weighted, 4), testId: 'cur-weighted' },
              { label: 'Space amp.', value: c.spaceAmplification, text: `${formatSig(c.spaceAmplification, 3)}×`, testId: 'cur-sa', hint: 'n_L·N/N_L, Eq.15' },
              { label: 'Filters, bits/entry', value: view.filterBitsPerEntry, text: formatFixed(view.filterBitsPerEntry, 2), testId: 'cur-bits' },
              { label: 'N_L / N', value: view.lastLevelFraction, text: formatSig(view.lastLevelFraction, 4), testId: 'cur-nl' },
            ]}
          />
        </div>
      )}
    </article>
  );
}

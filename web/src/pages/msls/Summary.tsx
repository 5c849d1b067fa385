/** The headline numbers of the current design and the model's warnings about it. */
import type { CurrentResult, OptimizeResult } from '../../compute/sweeps/msls';
import { formatPercent, formatSig } from '../../documents/format';
import { Readouts } from '../../ui/layout/Readouts';
import { formatTheta, formatWa } from './common';
import type { MslsState } from '../../documents/urls/msls';

export function Summary({
  s,
  current,
  error,
  optimize,
}: {
  s: MslsState;
  current: CurrentResult | undefined;
  error: string | null;
  optimize: OptimizeResult | undefined;
}) {
  if (!current) {
    return (
      <p role="alert" className="error">
        {error ?? 'No design to show.'}
      </p>
    );
  }
  const { msls, worst } = current;
  const ratio = worst.total / msls.total;
  const dist = s.dist === 'z' ? `Zipf θ = ${formatTheta(s.theta)}` : 'uniform keys';
  return (
    <section className="msls-summary" aria-label="Current design">
      {error && (
        <p role="alert" className="error">
          These settings are not a valid design, so the figures show the last valid one. {error}
        </p>
      )}
      <Readouts
        label="Write amplification of the current design"
        items={[
          { label: `WA, MSLS (${dist})`, value: msls.total, text: formatWa(msls.total), testId: 'wa-msls' },
          { label: 'WA, worst case', value: worst.total, text: formatWa(worst.total), testId: 'wa-worst', hint: 'No-redundancy worst case: every level moves wholesale and no duplicate is dropped.' },
          { label: 'Worst case ÷ MSLS', value: ratio, text: `${formatSig(ratio, 3)}×`, testId: 'wa-ratio' },
          {
            label: s.levels > 0 ? 'Levels L (set)' : 'Levels L (auto)',
            value: msls.resolved.levels,
            text: String(msls.resolved.levels),
            testId: 'wa-levels',
          },
          optimize
            ? { label: 'Optimized sizes save', value: optimize.gain, text: formatPercent(optimize.gain, 3), testId: 'wa-gain' }
            : { label: 'Optimized sizes save', text: '…', testId: 'wa-gain' },
        ]}
      />
      {msls.warnings.length > 0 && (
        <div className="notice msls-warnings" role="note" data-testid="model-warnings">
          <div>
            <strong>Where the model is less accurate</strong>
            <ul>
              {msls.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          </div>
        </div>
      )}
    </section>
  );
}

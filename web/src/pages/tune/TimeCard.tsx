/**
 * Time as well as pages: calibrate this browser's storage (OPFS page reads and writes) and the
 * engine's CPU per operation class, then price the current and the recommended design in µs per
 * operation and ops/s (`lsm calibrate` and `lsm predict --calibration` natively, the same code).
 * The calibration is kept in this browser (localStorage) until it is run again; the page holds it,
 * since the tuner can rank by it ("rank by: predicted time on this device").
 */
import { useEffect, useRef, useState } from 'react';
import type { Calibration, EngineConfig, PricedDesign, TimeCost, TuneResult } from '../../documents/engine';
import { formatSig } from '../../documents/format';
import { engineClient } from '../../engine/client';

const KEY = 'lsm-navigator/calibration';

/** The calibration this browser keeps, if any. */
export function storedCalibration(): Calibration | null {
  try {
    const text = localStorage.getItem(KEY);
    const c = text ? (JSON.parse(text) as Calibration) : null;
    return c?.kind === 'lsm-navigator/calibration' ? c : null;
  } catch {
    return null;
  }
}

export function TimeCard({
  result,
  current,
  calibration,
  onCalibrated,
  onProblem,
}: {
  result: TuneResult | null;
  current: EngineConfig;
  calibration: Calibration | null;
  onCalibrated: (c: Calibration) => void;
  onProblem: (p: string | null) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [times, setTimes] = useState<{ for: TuneResult; current: TimeCost; recommended: TimeCost } | null>(null);
  const rec: PricedDesign | null = result ? (result.recommended === 'robust' ? result.robust : result.nominal) : null;
  // The parent's callback changes every render; the pricing below must not re-run for it.
  const problem = useRef(onProblem);
  problem.current = onProblem;

  useEffect(() => {
    if (!result || !rec || !calibration) return;
    let live = true;
    const client = engineClient();
    Promise.all([result.current, rec].map((p) => client.call('timeCost', { io: p.prediction.class_costs, mix: result.mix, calibration })))
      .then(([c, r]) => live && setTimes({ for: result, current: c, recommended: r }))
      .catch((e: unknown) => live && problem.current(e instanceof Error ? e.message : String(e)));
    return () => {
      live = false;
    };
  }, [result, rec, calibration]);

  const calibrate = async () => {
    setBusy(true);
    onProblem(null);
    try {
      const { calibration: c } = await engineClient().call('calibrate', { config: current });
      localStorage.setItem(KEY, JSON.stringify(c));
      onCalibrated(c);
    } catch (e) {
      onProblem(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  const shown = times && times.for === result ? times : null;
  const gain = shown && shown.current.ops_per_sec > 0 ? shown.recommended.ops_per_sec / shown.current.ops_per_sec - 1 : null;
  return (
    <article className="card wide" data-testid="tune-time">
      <header className="card-head">
        <div>
          <h2>Time on this device</h2>
          <p className="caption">
            An operation costs its CPU plus its pages at this device's price. Calibrating times a 16 MiB probe file in this browser's storage and each operation class in memory (seconds).
          </p>
        </div>
      </header>
      <button type="button" onClick={() => void calibrate()} disabled={busy} data-testid="tune-calibrate">
        {busy ? 'Calibrating…' : calibration ? 'Calibrate again' : 'Calibrate this device'}
      </button>
      {calibration && (
        <p className="caption" data-testid="tune-calibration" data-read={calibration.page_read_us} data-write={calibration.page_write_us}>
          {calibration.device}: a page read costs {formatSig(calibration.page_read_us, 3)} µs, a page written {formatSig(calibration.page_write_us, 3)} µs; {calibration.store} CPU per operation:{' '}
          {['zero-result lookup', 'lookup', 'range lookup', 'write'].map((c, i) => `${c} ${formatSig(calibration.cpu_us[i], 3)} µs`).join(', ')}.
          {!calibration.direct_reads && ' The browser cannot bypass the OS cache, so reads may be cheaper here than on a cold disk.'}
        </p>
      )}
      {shown && (
        <table className="data-table" data-testid="tune-time-table">
          <thead>
            <tr>
              <th>design</th>
              <th>predicted µs per operation</th>
              <th>predicted ops/s</th>
            </tr>
          </thead>
          <tbody>
            {(['current', 'recommended'] as const).map((d) => (
              <tr key={d} data-testid={`tune-time-${d}`}>
                <td>{d}</td>
                <td className="num" data-value={shown[d].mean_us}>{formatSig(shown[d].mean_us, 3)}</td>
                <td className="num" data-value={shown[d].ops_per_sec}>{Math.round(shown[d].ops_per_sec).toLocaleString('en-US')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {gain !== null && (
        <p data-testid="tune-time-gain" data-value={gain}>
          Predicted throughput: {gain >= 0 ? '+' : ''}
          {(gain * 100).toFixed(1)}% for the recommended design on this device.
        </p>
      )}
    </article>
  );
}

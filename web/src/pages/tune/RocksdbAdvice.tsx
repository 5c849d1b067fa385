/**
 * The RocksDB recommendation in RocksDB's own words: the verdict with the model's error around the
 * gain ("keep your design" when that range holds 0), the options to change (old → new, why, and
 * each one's share of the gain), the memory as RocksDB charges it, each design's steady-state
 * write and space amplification, and why the robust design is what it is. When the user allowed the
 * per-level filter plugin and the recommendation needs it, it says so first: the bundle's policy.h
 * must be built into the application, or RocksDB runs other filters than those priced.
 */
import type { PricedDesign, TuneResult } from '../../documents/engine';
import { formatBytes, formatSig } from '../../documents/format';

function amplification(p: PricedDesign) {
  return p.steady ? `write amplification ${formatSig(p.steady.write_amp, 3)} (steady state), space amplification ${formatSig(p.steady.space_amp, 3)}` : '';
}

export function RocksdbAdvice({ result }: { result: TuneResult }) {
  const v = result.verdict;
  if (!v) return null;
  const rec = result.recommended === 'robust' ? result.robust : result.nominal;
  const changes = result.changes ?? [];
  const m = result.current.memory;
  const rm = rec.memory;
  return (
    <div data-testid="tune-advice">
      <p className={v.keep ? 'field-msg' : 'field-msg ok'} data-testid="tune-verdict-model" data-keep={String(v.keep)} data-gain={v.gain} data-low={v.low} data-high={v.high}>
        {/* The words carry the verdict ("keep your design: …" or "change: …"); said once, as a sentence. */}
        {v.words.charAt(0).toUpperCase() + v.words.slice(1)}.
      </p>
      {result.plugin && (
        <p className="field-msg" role="note" data-testid="tune-plugin-required" data-bits={result.plugin.bits_by_level.join(',')}>
          <strong>Plugin required:</strong> bits per key by level {result.plugin.bits_by_level.map((b, i) => `L${i} ${b}`).join(', ')} through{' '}
          <code>{result.plugin.policy}</code> in <code>{result.plugin.file}</code> (in the bundle). Build it into your application and set it as the
          table's filter_policy after loading the OPTIONS file; without it RocksDB gives every level the OPTIONS file's one value.
        </p>
      )}
      {!result.plugin && result.plugin_allowed && !v.keep && (
        <p className="caption" data-testid="tune-plugin-not-needed">
          The filter plugin was allowed; this recommendation does not need it (its OPTIONS file says everything).
        </p>
      )}
      {changes.length > 0 && (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="The recommendation as RocksDB options">
        <table className="data-table option-diff" data-testid="tune-changes">
          <caption>
            The recommendation as RocksDB options; shares of the gain in {result.rank === 'time' ? 'predicted time per operation' : 'I/O per operation'}
            {result.shares_note ? ` (${result.shares_note})` : ''}
          </caption>
          <thead>
            <tr>
              <th>option</th>
              <th>now</th>
              <th>recommended</th>
              <th>share of the gain</th>
            </tr>
          </thead>
          <tbody>
            {changes.map((c) => (
              <tr key={`${c.section}/${c.option}`} data-option={c.option}>
                <td>
                  <code>{c.option}</code>
                </td>
                <td className="num">{c.from}</td>
                <td className="num">{c.to}</td>
                <td className="num" data-value={c.share}>{c.share > 0 ? `${(c.share * 100).toFixed(0)}%` : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
        </div>
      )}
      {changes.length > 0 && (
        <details data-testid="tune-reasons">
          <summary>Why each option changes</summary>
          <ul>
            {changes.map((c) => (
              <li key={`${c.section}/${c.option}`}>
                <code>{c.option}</code>: {c.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
      {m && (
        <p className="caption" data-testid="tune-memory" data-total={m.total}>
          Current memory as RocksDB charges it: {formatBytes(m.total)} = {formatBytes(m.memtables)} memtables ({result.write_buffers ?? 2} × write_buffer_size) + {formatBytes(m.block_cache)} block cache + {formatBytes(m.outside_cache)} index and filters outside it.
        </p>
      )}
      {rm && (
        <p className="caption" data-testid="tune-memory-recommended" data-total={rm.total}>
          Recommended: {formatBytes(rm.total)} = {formatBytes(rm.memtables)} memtables + {formatBytes(rm.block_cache)} block cache + {formatBytes(rm.outside_cache)} outside it.
        </p>
      )}
      {result.current.steady && rec.steady && (
        <p className="caption" data-testid="tune-amplification">
          Current: {amplification(result.current)}. Recommended: {amplification(rec)}.
        </p>
      )}
      {result.robust_note && (
        <p className="caption" data-testid="tune-robust-note">
          Robust design: {result.robust_note}.
        </p>
      )}
      {(result.export_warnings ?? []).length > 0 && (
        <ul className="caption" data-testid="tune-export-warnings">
          {(result.export_warnings ?? []).map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

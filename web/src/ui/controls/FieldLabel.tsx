import type { Param } from '../../documents/url/params';

/** "Size ratio T" with the allowed range on the right. Labels are sentence case; params store
 * lower-case labels because they also start validation messages. */
export function FieldLabel({ htmlFor, param, hint }: { htmlFor: string; param: Param; hint?: string }) {
  return (
    <div className="field-head">
      <label htmlFor={htmlFor}>
        {capitalize(param.label)}
        {param.symbol && <MathSymbol symbol={param.symbol} />}
      </label>
      {hint && <span className="field-hint">{hint}</span>}
    </div>
  );
}

export function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** A symbol as the papers write it: `M_buf` → M with subscript buf. */
export function MathSymbol({ symbol }: { symbol: string }) {
  const [base, sub] = symbol.split('_');
  return (
    <var className="symbol">
      {' '}
      {base}
      {sub && <sub>{sub}</sub>}
    </var>
  );
}

/**
 * A list of numbers typed as "10, 10, 4" (per-level size ratios, run counts). Validated as typed,
 * like NumberField; the page keeps the last valid list while the text is wrong.
 */
import { useEffect, useId, useState } from 'react';
import type { NumberListParam } from '../../documents/url/params';
import { checkNumberListText, formatBound } from '../../documents/url/validate';
import { FieldLabel } from './FieldLabel';

export interface NumberListFieldProps {
  param: NumberListParam;
  value: readonly number[];
  onChange: (value: readonly number[]) => void;
  disabled?: boolean;
}

const show = (v: readonly number[]) => v.map(formatBound).join(', ');
const same = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export function NumberListField({ param, value, onChange, disabled }: NumberListFieldProps) {
  const id = useId();
  const msgId = `${id}-msg`;
  const [text, setText] = useState(() => show(value));
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const typed = checkNumberListText(param, text);
    if (!typed.ok || !same(typed.value, value)) {
      setText(show(value));
      setError(null);
    }
    // Only a new value should rewrite the box, never the user's own typing.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new value should rewrite the box; reacting to the text would undo the user's typing
  }, [value, param]);

  const count = param.minLength === param.maxLength ? `${param.minLength}` : `${param.minLength}–${param.maxLength}`;
  return (
    <div className={`field list-field${error ? ' invalid' : ''}`}>
      <FieldLabel
        htmlFor={id}
        param={param}
        hint={`${count} values, ${formatBound(param.min)} – ${formatBound(param.max)}`}
      />
      <span className="number-box">
        <input
          id={id}
          type="text"
          autoComplete="off"
          spellCheck={false}
          value={text}
          disabled={disabled}
          aria-invalid={error ? true : undefined}
          aria-describedby={msgId}
          onChange={(e) => {
            setText(e.target.value);
            const checked = checkNumberListText(param, e.target.value);
            if (checked.ok) {
              setError(null);
              if (!same(checked.value, value)) onChange(checked.value);
            } else {
              setError(checked.message);
            }
          }}
        />
        {param.unit && <span className="unit">{param.unit}</span>}
      </span>
      <p id={msgId} className={error ? 'field-msg field-error' : 'field-msg'} aria-live="polite">
        {error ?? param.help}
      </p>
    </div>
  );
}

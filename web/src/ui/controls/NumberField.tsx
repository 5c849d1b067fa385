/**
 * A number setting: a slider for exploring plus a text box for exact values. The text is
 * validated as it is typed; while it is invalid the message (naming the allowed range) shows
 * next to the box and the page keeps the last valid value, so the charts stay drawn.
 */
import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import type { NumberParam } from '../../documents/url/params';
import { formatCount } from '../../documents/format';
import { checkNumberText, formatBound } from '../../documents/url/validate';
import { isSliderKey, nudge, sliderScale } from './slider';
import { FieldLabel } from './FieldLabel';

export interface NumberFieldProps {
  param: NumberParam;
  value: number;
  onChange: (value: number) => void;
  /** Hide the slider (for settings people type rather than explore). */
  noSlider?: boolean;
  disabled?: boolean;
}

export function NumberField({ param, value, onChange, noSlider, disabled }: NumberFieldProps) {
  const id = useId();
  const msgId = `${id}-msg`;
  const [text, setText] = useState(() => formatBound(value));
  const [error, setError] = useState<string | null>(null);

  // The value changed from outside (slider, reset, preset, a pasted link): show it, unless the
  // box already says the same number in the user's own spelling.
  useEffect(() => {
    const typed = checkNumberText(param, text);
    if (!typed.ok || typed.value !== value) {
      setText(formatBound(value));
      setError(null);
    }
    // Only a new value should rewrite the box; reacting to `text` would undo the user's typing.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new value should rewrite the box; reacting to the text would undo the user's typing
  }, [value, param]);

  const commitText = (next: string) => {
    setText(next);
    const checked = checkNumberText(param, next);
    if (checked.ok) {
      setError(null);
      if (checked.value !== value) onChange(checked.value);
    } else {
      setError(checked.message);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Escape') {
      setText(formatBound(value));
      setError(null);
      return;
    }
    const step = param.step ?? (param.integer ? 1 : undefined);
    if (step === undefined || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) return;
    e.preventDefault();
    const next = Math.min(param.max, Math.max(param.min, value + (e.key === 'ArrowUp' ? step : -step)));
    commitText(formatBound(Number(next.toPrecision(12))));
  };

  const scale = sliderScale(param);
  // Huge ranges read better as 100 k – 100 G than as 100,000 – 100,000,000,000.
  const bound = param.max >= 1e6 ? formatCount : formatBound;
  const range = `${bound(param.min)} – ${bound(param.max)}`;
  const chars = Math.min(15, Math.max(4, formatBound(param.max).length, formatBound(param.min).length));
  return (
    <div className={`field number-field${error ? ' invalid' : ''}`}>
      <FieldLabel htmlFor={id} param={param} hint={range} />
      <div className="field-row">
        {!noSlider && (
          <input
            type="range"
            className="slider"
            min={scale.min}
            max={scale.max}
            step={scale.step}
            value={scale.toPosition(value)}
            disabled={disabled}
            aria-label={`${param.label} slider`}
            aria-valuetext={`${formatBound(value)}${param.unit ? ` ${param.unit}` : ''}`}
            onKeyDown={(e) => {
              // The browser's own step can round back to the same value (log sliders): move to the next one.
              if (!isSliderKey(e.key)) return;
              e.preventDefault();
              const v = nudge(param, value, e.key);
              setText(formatBound(v));
              setError(null);
              if (v !== value) onChange(v);
            }}
            onChange={(e) => {
              const v = scale.fromPosition(Number(e.target.value));
              setText(formatBound(v));
              setError(null);
              if (v !== value) onChange(v);
            }}
          />
        )}
        <span className="number-box">
          <input
            id={id}
            type="text"
            inputMode="decimal"
            autoComplete="off"
            spellCheck={false}
            style={{ width: `${chars + 2}ch` }}
            value={text}
            disabled={disabled}
            aria-invalid={error ? true : undefined}
            aria-describedby={msgId}
            onChange={(e) => commitText(e.target.value)}
            onKeyDown={onKeyDown}
          />
          {param.unit && <span className="unit">{param.unit}</span>}
        </span>
      </div>
      <p id={msgId} className={error ? 'field-msg field-error' : 'field-msg'} aria-live="polite">
        {error ? (
          <>
            {error}
            <span className="field-kept"> · still using {formatBound(value)}</span>
          </>
        ) : (
          param.help
        )}
      </p>
    </div>
  );
}

/**
 * Settings with a fixed set of options: a segmented toggle (few options, all visible), a select
 * (many options), and a checkbox. Native radio/select/checkbox elements keep keyboard behaviour
 * (arrows, space) and screen-reader semantics for free; the CSS only restyles them.
 */
import { useId } from 'react';
import type { BooleanParam, EnumParam } from '../../documents/url/params';
import { capitalize, FieldLabel, MathSymbol } from './FieldLabel';

export interface EnumFieldProps<T extends string> {
  param: EnumParam<T>;
  value: T;
  onChange: (value: T) => void;
  disabled?: boolean;
}

export function SegmentedField<T extends string>({ param, value, onChange, disabled }: EnumFieldProps<T>) {
  const name = useId();
  return (
    <fieldset className="field segmented-field" disabled={disabled}>
      <legend>
        {capitalize(param.label)}
        {param.symbol && <MathSymbol symbol={param.symbol} />}
      </legend>
      <div className="segmented">
        {param.options.map((o) => (
          <label key={o.value} className="segment" title={o.help}>
            <input
              type="radio"
              name={name}
              value={o.value}
              checked={o.value === value}
              onChange={() => onChange(o.value)}
            />
            <span>{o.label}</span>
          </label>
        ))}
      </div>
      {param.help && <p className="field-msg">{param.help}</p>}
    </fieldset>
  );
}

export function SelectField<T extends string>({ param, value, onChange, disabled }: EnumFieldProps<T>) {
  const id = useId();
  // A select shows a short label; the chosen option's help says the rest, under it.
  const chosen = param.options.find((o) => o.value === value);
  return (
    <div className="field select-field">
      <FieldLabel htmlFor={id} param={param} />
      <select
        id={id}
        value={value}
        disabled={disabled}
        onChange={(e) => {
          const found = param.options.find((o) => o.value === e.target.value);
          if (found) onChange(found.value);
        }}
      >
        {param.options.map((o) => (
          <option key={o.value} value={o.value} title={o.help}>
            {o.label}
          </option>
        ))}
      </select>
      {chosen?.help && <p className="field-msg" data-testid="select-choice-help">{chosen.help}</p>}
      {param.help && <p className="field-msg">{param.help}</p>}
    </div>
  );
}

export interface CheckboxFieldProps {
  param: BooleanParam;
  value: boolean;
  onChange: (value: boolean) => void;
  disabled?: boolean;
}

export function CheckboxField({ param, value, onChange, disabled }: CheckboxFieldProps) {
  const id = useId();
  return (
    <div className="field checkbox-field">
      <input id={id} type="checkbox" checked={value} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />
      <label htmlFor={id}>{capitalize(param.label)}</label>
      {param.help && <p className="field-msg">{param.help}</p>}
    </div>
  );
}

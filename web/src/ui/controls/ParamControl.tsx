/**
 * The right control for any param, so a page can write `<ParamControl {...url.bind('T')} />`
 * without repeating the param's kind.
 */
import type { Binding } from '../state/useUrlState';
import type { BooleanParam, EnumParam, NumberListParam, NumberParam, Param, ValueOf } from '../../documents/url/params';
import { CheckboxField, SegmentedField, SelectField } from './ChoiceFields';
import { NumberField } from './NumberField';
import { NumberListField } from './NumberListField';

export interface ParamControlProps<P extends Param> extends Binding<P, ValueOf<P>> {
  /** For enums: a segmented toggle (default up to 4 options) or a select. */
  variant?: 'segmented' | 'select';
  noSlider?: boolean;
  disabled?: boolean;
}

export function ParamControl<P extends Param>(props: ParamControlProps<P>) {
  // The binding's value and callback are typed by P; narrowing P through `kind` is not something
  // TypeScript can do for a generic, hence the casts below, each guarded by the switch.
  const p: Param = props.param;
  switch (p.kind) {
    case 'number':
      return (
        <NumberField
          param={p as NumberParam}
          value={props.value as number}
          onChange={props.onChange as (v: number) => void}
          noSlider={props.noSlider}
          disabled={props.disabled}
        />
      );
    case 'enum': {
      const Field = (props.variant ?? (p.options.length <= 4 ? 'segmented' : 'select')) === 'segmented' ? SegmentedField : SelectField;
      return (
        <Field
          param={p as EnumParam}
          value={props.value as string}
          onChange={props.onChange as (v: string) => void}
          disabled={props.disabled}
        />
      );
    }
    case 'boolean':
      return (
        <CheckboxField
          param={p as BooleanParam}
          value={props.value as boolean}
          onChange={props.onChange as (v: boolean) => void}
          disabled={props.disabled}
        />
      );
    case 'numbers':
      return (
        <NumberListField
          param={p as NumberListParam}
          value={props.value as readonly number[]}
          onChange={props.onChange as (v: readonly number[]) => void}
          disabled={props.disabled}
        />
      );
  }
}

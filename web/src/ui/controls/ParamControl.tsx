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

/** The binding typed for one kind of param (the caller's switch has checked which). */
function narrowed<Q extends Param, V>(props: { param: Param; value: unknown; onChange: unknown; disabled?: boolean }) {
  return { param: props.param as Q, value: props.value as V, onChange: props.onChange as (v: V) => void, disabled: props.disabled };
}

export function ParamControl<P extends Param>(props: ParamControlProps<P>) {
  // The binding's value and callback are typed by P; narrowing P through `kind` is not something
  // TypeScript can do for a generic, hence `narrowed`'s casts, each guarded by the switch.
  const p: Param = props.param;
  switch (p.kind) {
    case 'number':
      return <NumberField {...narrowed<NumberParam, number>(props)} noSlider={props.noSlider} />;
    case 'enum': {
      const Field = (props.variant ?? (p.options.length <= 4 ? 'segmented' : 'select')) === 'segmented' ? SegmentedField : SelectField;
      return <Field {...narrowed<EnumParam, string>(props)} />;
    }
    case 'boolean':
      return <CheckboxField {...narrowed<BooleanParam, boolean>(props)} />;
    case 'numbers':
      return <NumberListField {...narrowed<NumberListParam, readonly number[]>(props)} />;
  }
}

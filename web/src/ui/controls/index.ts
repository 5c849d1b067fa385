export { NumberField, type NumberFieldProps } from './NumberField';
export { NumberListField, type NumberListFieldProps } from './NumberListField';
export { CheckboxField, SegmentedField, SelectField, type EnumFieldProps } from './ChoiceFields';
export { ParamControl, type ParamControlProps } from './ParamControl';
export { ControlGroup } from './ControlGroup';
export { KeyPopularityControls } from './KeyPopularityControls';

import { Textarea, TextInput } from '@mantine/core';
import { emptyText, textOf, type FieldProps } from './field-props.ts';

/** A textbox, or an 8-row textarea for unlimited text and text over TEXTAREA_THRESHOLD (spec 000 §5). An emptied
 * field is null, so a required one says '{Column} is required.'; no maxLength attribute stops the typing, so the
 * message '{Column} cannot be more than {n} characters.' can say why the value is refused. */
export function TextField({ field, value, error, onChange, onBlur }: FieldProps) {
  const common = {
    label: field.column.name,
    value: textOf(value),
    error,
    withAsterisk: field.required,
    readOnly: field.readOnly,
    // Read-only inputs look filled, so a person sees at once what cannot be typed into.
    variant: field.readOnly ? 'filled' : 'default',
    placeholder: value === null ? emptyText(field) : undefined,
    onBlur,
    'data-column': field.column.name,
  };
  const change = (text: string) => onChange(text === '' ? null : text);
  if (field.kind === 'textarea') {
    return <Textarea {...common} rows={8} onChange={(event) => change(event.currentTarget.value)} />;
  }
  return <TextInput {...common} onChange={(event) => change(event.currentTarget.value)} />;
}

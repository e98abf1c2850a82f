import { Switch } from '@mantine/core';
import { emptyText, type FieldProps } from './field-props.ts';

/** A bit column: a switch (spec 000 §5). Null shows as off and stays null until switched (a new row starts with the
 * column's default, so the switch shows what a save stores); one the database sets says so. Read-only: disabled. */
export function SwitchField({ field, value, error, onChange, onBlur }: FieldProps) {
  return (
    <Switch
      label={field.column.name}
      description={value === null && field.setByDatabase ? emptyText(field) : undefined}
      checked={value === true}
      disabled={field.readOnly}
      error={error}
      onChange={(event) => onChange(event.currentTarget.checked)}
      onBlur={onBlur}
      mt="lg"
      data-column={field.column.name}
    />
  );
}

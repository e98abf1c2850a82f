import '@mantine/dates/styles.css';
import { DatePickerInput, DateTimePicker, TimeInput } from '@mantine/dates';
import dayjs from 'dayjs';
import { parseWireDate, pickerValue, timeValue, wireDate } from '#web/features/browser/editor/date-values.ts';
import { editorMessages as em } from '#web/features/browser/editor/editor-messages.ts';
import { emptyText, textOf, type FieldProps } from './field-props.ts';
import { TextField } from './text-field.tsx';

/** Dates in the grid's short form (spec 000 §9), with the seconds a person may edit; a value with an offset shows it
 * and is shown in it (the grid shows such values in the viewer's zone; the editor edits what the database holds). */
const DATE_FORMAT = 'YYYY-MM-DD';
const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/**
 * A date or time column (spec 000 §5: text showing a formatted date): the formatted value with a picker. The value
 * travels as ISO text in its own offset (date-values.ts). Text the pickers cannot read (a MySQL zero date) is shown
 * and edited as plain text, which the server checks.
 */
export function DateField(props: FieldProps) {
  const { field, value, error, onChange, onBlur } = props;
  const { column } = field;
  const text = value === null ? null : textOf(value);
  const common = {
    label: column.name,
    error,
    withAsterisk: field.required,
    readOnly: field.readOnly,
    // Read-only inputs look filled, so a person sees at once what cannot be typed into.
    variant: field.readOnly ? 'filled' : 'default',
    onBlur,
    'data-column': column.name,
  };

  if (field.kind === 'time') {
    const time = timeValue(text);
    if (text !== null && time === null) return <TextField {...props} />;
    return (
      <TimeInput
        {...common}
        withSeconds
        value={time ?? ''}
        onChange={(event) => {
          const next = event.currentTarget.value;
          onChange(next === '' ? null : next.length === 5 ? `${next}:00` : next);
        }}
      />
    );
  }

  const withTime = field.kind === 'datetime';
  const picked = pickerValue(text, withTime);
  if (text !== null && picked === null) return <TextField {...props} />;
  const clearable = column.isNullable && !field.readOnly;
  // These pickers are buttons: their placeholder is text, which must be as readable as any hint (WCAG AA).
  const styles = { placeholder: { color: 'var(--mantine-color-dimmed)' } };
  const clearButtonProps = { 'aria-label': em.clearValue(column.name) };
  const change = (next: string | null) => onChange(wireDate(next, withTime, text, column.type));

  if (!withTime) {
    return (
      <DatePickerInput
        {...common}
        value={picked}
        valueFormat={DATE_FORMAT}
        placeholder={text === null ? emptyText(field) : undefined}
        styles={styles}
        clearable={clearable}
        clearButtonProps={clearButtonProps}
        onChange={change}
      />
    );
  }
  const offset = text === null ? null : (parseWireDate(text)?.offset ?? null);
  return (
    <DateTimePicker
      {...common}
      value={picked}
      withSeconds
      valueFormat={(date) => `${dayjs(date).format(DATE_TIME_FORMAT)}${offset ? ` ${offset}` : ''}`}
      placeholder={text === null ? emptyText(field) : undefined}
      styles={styles}
      clearable={clearable}
      clearButtonProps={clearButtonProps}
      onChange={change}
    />
  );
}

import '@mantine/dates/styles.css';
import { DateTimePicker } from '@mantine/dates';
import { isoOfLocalInput, localInputValue } from './audit-address.ts';

export interface AuditDateInputProps {
  label: 'From' | 'To';
  /** ISO instant or null. */
  value: string | null;
  onChange: (iso: string | null) => void;
  /** ISO bounds: From is not after To. */
  minDate?: string | null;
  maxDate?: string | null;
}

/** A filter instant ("From", "To"): Mantine's date-time picker in local time; the address keeps it as ISO. */
export function AuditDateInput({ label, value, onChange, minDate, maxDate }: AuditDateInputProps) {
  return (
    <DateTimePicker
      label={label}
      value={localInputValue(value)}
      onChange={(local) => onChange(isoOfLocalInput(local))}
      valueFormat="YYYY-MM-DD HH:mm"
      clearable
      // A day picked without a time covers the whole day: From at its start, To at its end.
      defaultTimeValue={label === 'From' ? '00:00:00' : '23:59:59'}
      minDate={localInputValue(minDate ?? null) ?? undefined}
      maxDate={localInputValue(maxDate ?? null) ?? undefined}
      popoverProps={{ withinPortal: true }}
      clearButtonProps={{ 'aria-label': label === 'From' ? 'Clear the start time' : 'Clear the end time' }}
      submitButtonProps={{ 'aria-label': 'Done choosing the time' }}
    />
  );
}

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
      placeholder={label === 'From' ? 'The beginning' : 'Now'}
      value={localInputValue(value)}
      onChange={(local) => onChange(isoOfLocalInput(local))}
      valueFormat="YYYY-MM-DD HH:mm"
      clearable
      minDate={localInputValue(minDate ?? null) ?? undefined}
      maxDate={localInputValue(maxDate ?? null) ?? undefined}
      popoverProps={{ withinPortal: true }}
      clearButtonProps={{ 'aria-label': `Clear ${label}` }}
      submitButtonProps={{ 'aria-label': `Set ${label}` }}
    />
  );
}

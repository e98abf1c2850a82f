import '@mantine/dates/styles.css';
import { DateInput } from '@mantine/dates';

export interface SearchDateInputProps {
  label: string;
  description?: string;
  size: 'sm';
  placeholder: string;
  /** The plain input it replaces had the focus. */
  autoFocus?: boolean;
  /** YYYY-MM-DD, or '' for no term. */
  value: string;
  onChange: (term: string) => void;
}

/** The search form's date term: Mantine's date input with its calendar. Its own chunk (with @mantine/dates and
 * dayjs), loaded by the search form when a person reaches for the date term. */
export default function SearchDateInput({ value, onChange, ...common }: SearchDateInputProps) {
  return (
    <DateInput
      {...common}
      value={/^\d{4}-\d{2}-\d{2}$/.test(value) ? value : null}
      onChange={(date) => onChange(date ?? '')}
      valueFormat="YYYY-MM-DD"
      clearable
      popoverProps={{ withinPortal: true }}
    />
  );
}

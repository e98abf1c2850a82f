import { lazy, Suspense, useState, type FormEvent, type ReactNode } from 'react';
import { Button, Group, Select, SimpleGrid, Text, TextInput } from '@mantine/core';
import { IconSearch, IconX } from '@tabler/icons-react';
import type { Column, TableListItem } from '#common/contract/sql.ts';

/*
 * The search form (spec 000 §2, §5): one input per indexed column, by type, each with the match rule the server
 * applies (server/engines/search-terms.ts) as its description. Terms are trimmed; an empty one is no term.
 */

/** How the server matches a term of a column, or null when the column cannot be searched. */
export type MatchRule = 'starts with' | 'exact' | 'whole day';

export function matchRuleOf(column: Column): MatchRule | null {
  switch (column.typeGroup) {
    case 'Text':
      return 'starts with';
    case 'Date':
      // A bare date (YYYY-MM-DD), which the date input gives, matches that whole day.
      return 'whole day';
    case 'Number':
    case 'Time':
    case 'guid':
    case 'bit':
      return 'exact';
    default:
      // Binary, image and Other columns cannot be searched, even when indexed.
      return null;
  }
}

/** The columns the form offers: indexed (search on them is fast) and of a type the server can match. */
export function searchableColumns(table: TableListItem): Column[] {
  return table.columns.filter((column) => column.isIndexed && matchRuleOf(column) !== null);
}

/** The terms as a filter: trimmed, empty ones left out. */
export function termsToFilter(terms: Record<string, string>): Record<string, string> {
  const filter: Record<string, string> = {};
  for (const [column, term] of Object.entries(terms)) {
    const trimmed = term.trim();
    if (trimmed !== '') filter[column] = trimmed;
  }
  return filter;
}

export interface SearchFormProps {
  table: TableListItem;
  /** The search applied now (from the address). */
  filter: Record<string, string>;
  /** Applies a search (the caller goes back to page 1); {} clears it. */
  onSearch: (filter: Record<string, string>) => void;
  /** Placed between Clear and Search (the Export button). */
  actions?: ReactNode;
}

export function SearchForm({ table, filter, onSearch, actions }: SearchFormProps) {
  const columns = searchableColumns(table);
  const [terms, setTerms] = useState<Record<string, string>>(() => ({ ...filter }));
  const setTerm = (name: string, term: string) => setTerms((current) => ({ ...current, [name]: term }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = termsToFilter(terms);
    setTerms(next);
    onSearch(next);
  };
  const clear = () => {
    setTerms({});
    onSearch({});
  };

  if (columns.length === 0) {
    return (
      <Group justify="space-between" gap="sm">
        <Text size="sm" c="dimmed">
          No column of this table is indexed for searching, so its rows are paged in order.
        </Text>
        {actions}
      </Group>
    );
  }

  return (
    <form aria-label="Search" onSubmit={submit} noValidate>
      <SimpleGrid cols={{ base: 2, md: 3, xl: 4 }} spacing="sm" verticalSpacing="xs">
        {columns.map((column) => (
          <TermInput
            key={column.name}
            column={column}
            value={terms[column.name] ?? ''}
            onChange={(term) => setTerm(column.name, term)}
          />
        ))}
      </SimpleGrid>
      <Group justify="flex-end" gap="xs" mt="sm">
        <Button variant="default" leftSection={<IconX size={16} aria-hidden="true" />} onClick={clear}>
          Clear
        </Button>
        {actions}
        <Button type="submit" leftSection={<IconSearch size={16} aria-hidden="true" />}>
          Search
        </Button>
      </Group>
    </form>
  );
}

/** The date input (with @mantine/dates and dayjs) is a chunk of its own, asked for when a person reaches for it. */
const SearchDateInput = lazy(() => import('./search-date-input.tsx'));

const BIT_CHOICES = [
  { value: 'any', label: 'any' },
  { value: 'true', label: 'true' },
  { value: 'false', label: 'false' },
];

const PLACEHOLDERS: Partial<Record<Column['typeGroup'], string>> = {
  Number: 'A number',
  Time: 'HH:MM:SS',
  guid: '8-4-4-4-12 hexadecimal',
  Date: 'YYYY-MM-DD',
};

function TermInput({
  column,
  value,
  onChange,
}: {
  column: Column;
  value: string;
  onChange: (term: string) => void;
}) {
  const common = { label: column.name, description: matchRuleOf(column) ?? undefined, size: 'sm' as const };
  switch (column.typeGroup) {
    case 'bit':
      return (
        <Select
          {...common}
          data={BIT_CHOICES}
          value={value === '' ? 'any' : value}
          onChange={(choice) => onChange(choice === null || choice === 'any' ? '' : choice)}
          allowDeselect={false}
        />
      );
    case 'Date':
      return <DateTermInput {...common} value={value} onChange={onChange} />;
    default:
      return (
        <TextInput
          {...common}
          value={value}
          onChange={(event) => onChange(event.currentTarget.value)}
          placeholder={PLACEHOLDERS[column.typeGroup]}
          inputMode={column.typeGroup === 'Number' ? 'decimal' : undefined}
          autoComplete="off"
          spellCheck={false}
        />
      );
  }
}

/**
 * A date term: a plain text input (same label, hint and YYYY-MM-DD format) until the pointer comes over it or it
 * gets the focus; then Mantine's date input with its calendar loads and takes its place (with the focus, when the
 * plain one had it). The first rows and the browser's first load so carry no date library.
 */
function DateTermInput({
  label,
  description,
  size,
  value,
  onChange,
}: {
  label: string;
  description: string | undefined;
  size: 'sm';
  value: string;
  onChange: (term: string) => void;
}) {
  const [wanted, setWanted] = useState(false);
  // Reached by the keyboard: the date input takes the focus when it replaces the plain one.
  const [focusOnSwap, setFocusOnSwap] = useState(false);
  const stand = (
    <TextInput
      label={label}
      description={description}
      size={size}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      placeholder={PLACEHOLDERS.Date}
      autoComplete="off"
      spellCheck={false}
      autoFocus={focusOnSwap}
      onPointerEnter={() => setWanted(true)}
      onFocus={() => {
        setFocusOnSwap(true);
        setWanted(true);
      }}
    />
  );
  if (!wanted) return stand;
  return (
    <Suspense fallback={stand}>
      <SearchDateInput
        label={label}
        description={description}
        size={size}
        value={value}
        onChange={onChange}
        placeholder={PLACEHOLDERS.Date ?? ''}
        autoFocus={focusOnSwap}
      />
    </Suspense>
  );
}

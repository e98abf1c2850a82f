import { Fragment, useState, type MouseEvent } from 'react';
import { CloseButton, Loader, NavLink, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconEye, IconSearch, IconTable } from '@tabler/icons-react';
import { SEARCH_DEBOUNCE_MS } from '#common/limits.ts';
import type { TableListItem } from '#common/contract/sql.ts';
import { browserAddressUrl, freshView, type BrowserTableName } from './browser-address.ts';

/** How the list names a table (spec 000 §2). */
export const tableLabel = (table: { schema: string; name: string }) => `${table.schema}.${table.name}`;

/** The tables whose schema.name contains the search text (any case); all of them for an empty search. */
export function filterTables(tables: readonly TableListItem[], search: string): TableListItem[] {
  const wanted = search.trim().toLowerCase();
  if (wanted === '') return [...tables];
  return tables.filter((table) => tableLabel(table).toLowerCase().includes(wanted));
}

export const isSameTable = (table: BrowserTableName | null, item: { schema: string; name: string }) =>
  table !== null && table.schema === item.schema && table.name === item.name;

export interface TableListProps {
  db: string;
  /** undefined while loading. */
  tables: TableListItem[] | undefined;
  failed: boolean;
  selected: BrowserTableName | null;
  onSelect: (table: TableListItem) => void;
  /** The scrolling list's height (the page's side column is as tall as the screen). */
  maxHeight?: string;
}

/**
 * The table list (spec 000 §2): every table the person's links allow, as schema.name, with a search box filtering
 * it after a pause in typing (250 ms). Each entry is a link to the table's address, so it opens in a new tab too;
 * a plain click selects the table in place.
 */
export function TableList({ db, tables, failed, selected, onSelect, maxHeight }: TableListProps) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const shown = tables ? filterTables(tables, debounced) : [];

  const select = (event: MouseEvent, table: TableListItem) => {
    // Ctrl, Shift, Meta or a middle click open the link as the browser does.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    onSelect(table);
  };

  return (
    <Stack component="nav" aria-label="Tables" gap="xs">
      <TextInput
        label="Search tables"
        placeholder="schema.name"
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setSearch('');
        }}
        leftSection={<IconSearch size={16} aria-hidden="true" />}
        rightSection={
          search ? (
            <CloseButton size="sm" aria-label="Clear table search" onClick={() => setSearch('')} />
          ) : null
        }
        autoComplete="off"
        spellCheck={false}
      />
      {tables === undefined ? (
        failed ? (
          <Text size="sm" c="dimmed">
            The tables could not be read. Reload the page to try again.
          </Text>
        ) : (
          <Loader size="sm" role="status" aria-label="Loading tables" />
        )
      ) : tables.length === 0 ? (
        <Text size="sm" c="dimmed">
          This database has no tables your access allows.
        </Text>
      ) : shown.length === 0 ? (
        <Text size="sm" c="dimmed" role="status">
          No table matches “{debounced.trim()}”.
        </Text>
      ) : (
        <ScrollArea.Autosize mah={maxHeight} type="auto" offsetScrollbars>
          <Stack gap={2} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {shown.map((table) => {
              const active = isSameTable(selected, table);
              const Icon = table.isView ? IconEye : IconTable;
              return (
                <li key={table.id}>
                  <NavLink
                    component="a"
                    href={browserAddressUrl(freshView(db, { schema: table.schema, name: table.name }))}
                    onClick={(event: MouseEvent) => select(event, table)}
                    label={<BreakableName text={tableLabel(table)} />}
                    active={active}
                    aria-current={active ? 'page' : undefined}
                    title={table.isView ? `${tableLabel(table)} (view)` : tableLabel(table)}
                    leftSection={<Icon size={16} aria-hidden="true" />}
                    // The page's text colour on the light highlight: the primary's light text is under 4.5:1 on it.
                    c={active ? 'var(--mantine-color-text)' : undefined}
                    fw={active ? 600 : undefined}
                    styles={{ label: { overflowWrap: 'anywhere' } }}
                  />
                </li>
              );
            })}
          </Stack>
        </ScrollArea.Autosize>
      )}
    </Stack>
  );
}

/** A name that may wrap after its dots and underscores (main.order_<wbr>statuses) rather than inside a word; the
 * text, and so the accessible name, stays the same. */
function BreakableName({ text }: { text: string }) {
  const parts = text.split(/(?<=[._])/);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}

import { useQuery } from '@tanstack/react-query';
import type { Filter, FilterValue } from '#common/contract/filter.ts';
import { opsByTypeGroup } from '#common/contract/filter-ops.ts';
import type { Row, Table } from '#common/contract/sql.ts';
import { PAGE_SIZES } from '#common/limits.ts';
import { unwrapData } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';
import { fetchFilterQuery } from './filter-query.ts';
import type { TableRef } from './paths.ts';

/** A row's key: its primary key columns' values, as the page answered them. */
export type RowKey = Record<string, FilterValue>;

/**
 * The row's key when the table has one that a filter can name (docs/decisions/0064-rich-values.md): every primary
 * key column's value (without a primary key, the identity or guid column's), each a column whose type takes `eq`
 * (not binary) and not null; otherwise null (a table without a key, a view, a binary key), and the value panel keeps
 * the value the page read.
 */
export function rowKeyOf(
  table: Pick<Table, 'primaryKey' | 'columns'> & Partial<Pick<Table, 'identityColumn' | 'guidColumn'>>,
  row: Row,
): RowKey | null {
  const names =
    table.primaryKey.length > 0
      ? table.primaryKey
      : table.identityColumn
        ? [table.identityColumn]
        : table.guidColumn
          ? [table.guidColumn]
          : [];
  if (names.length === 0) return null;
  const key: RowKey = {};
  for (const name of names) {
    const column = table.columns.find((c) => c.name === name);
    const value = row[name];
    if (!column || value === null || value === undefined || !opsByTypeGroup[column.typeGroup].includes('eq'))
      return null;
    key[name] = value;
  }
  return key;
}

/** The filter document that keeps the one row of a key. */
export const keyFilter = (key: RowKey): Filter => ({
  and: Object.entries(key).map(([column, value]) => ({ column, op: 'eq' as const, value })),
});

/**
 * The row of a key as the database holds it now, whole (no cutText: decision 0066): POST …/query (the filter call,
 * issue 35) with `{ where: key = … }`, first page. Null when no row has the key any more (deleted since the page was
 * read).
 */
export async function fetchRowByKey(ref: TableRef, key: RowKey, signal?: AbortSignal): Promise<Row | null> {
  const page = unwrapData(
    await fetchFilterQuery(
      { ...ref, where: keyFilter(key), filter: {}, sort: null, page: 1, pageSize: PAGE_SIZES[0] },
      signal,
    ),
  );
  return page.results[0] ?? null;
}

/**
 * The row of a key as the database holds it now (fetchRowByKey). Used by the value panel to read a value whole
 * (docs/decisions/0064-rich-values.md) and by the row editor to read a row the page holds cut (0066); disabled while
 * `key` is null.
 */
export function useRowByKey(ref: TableRef, key: RowKey | null) {
  return useQuery({
    queryKey: queryKeys.sql.row(ref, key ?? {}),
    queryFn: ({ signal }): Promise<Row | null> => fetchRowByKey(ref, key ?? {}, signal),
    enabled: key !== null,
    staleTime: 0,
    // A failed read says so in the panel, which keeps the page's value; no retries behind the person's back.
    retry: false,
  });
}

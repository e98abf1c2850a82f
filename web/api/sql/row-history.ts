import { queryOptions, useQuery } from '@tanstack/react-query';
import { rowHistory, type Row, type RowHistoryEntry, type Table } from '#common/contract/sql.ts';
import { apiPostEncoded, type ApiResult } from '#web/api/client.ts';
import { unwrapData } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';
import { tableApiPath, type TableRef } from './paths.ts';

/** The values that name a row: its identity, else its guid, else its primary key (the server's rule); the whole row
 * when the table has none (the server then says it cannot tell the row). Sending the key alone keeps images out of
 * the request. */
export function rowKeyOf(table: Pick<Table, 'identityColumn' | 'guidColumn' | 'primaryKey'>, row: Row): Row {
  const names = table.identityColumn
    ? [table.identityColumn]
    : table.guidColumn
      ? [table.guidColumn]
      : table.primaryKey;
  if (names.length === 0) return row;
  return Object.fromEntries(names.map((name) => [name, row[name] ?? null]));
}

/** POST /api/sql/{db}/{schema}/{table}/history: the audit entries of the row with this key, newest first (at most
 * 50), each saying whether the caller may undo it. */
export function fetchRowHistory(
  ref: TableRef,
  key: Row,
  signal?: AbortSignal,
): Promise<ApiResult<RowHistoryEntry[]>> {
  return apiPostEncoded(`${tableApiPath(ref)}/history`, key, { schema: rowHistory, signal });
}

export const rowHistoryQueryOptions = (ref: TableRef, key: Row) =>
  queryOptions({
    queryKey: queryKeys.sql.history(ref, key),
    queryFn: async ({ signal }) => unwrapData(await fetchRowHistory(ref, key, signal)),
    // Someone else may have changed the row meanwhile: each opening of the tab reads it again.
    staleTime: 0,
  });

/** A row's history; `table` tells which of the row's values are its key. */
export function useRowHistory(
  ref: TableRef,
  table: Pick<Table, 'identityColumn' | 'guidColumn' | 'primaryKey'>,
  row: Row,
) {
  return useQuery(rowHistoryQueryOptions(ref, rowKeyOf(table, row)));
}

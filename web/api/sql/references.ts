import { queryOptions, useQuery } from '@tanstack/react-query';
import { references, type Reference } from '#common/contract/relations.ts';
import type { Row, Table } from '#common/contract/sql.ts';
import { apiPostEncoded, type ApiResult } from '#web/api/client.ts';
import { unwrapData } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';
import { tableApiPath, type TableRef } from './paths.ts';
import { rowKeyOf } from './row-history.ts';

type KeyedTable = Pick<Table, 'identityColumn' | 'guidColumn' | 'primaryKey'>;

/** Whether rows of the table have a key the server can name them by (identity, guid or primary key); without one
 * nothing can be asked about a row's references (the server answers a 400). */
export const hasRowKey = (table: KeyedTable) =>
  table.identityColumn !== null || table.guidColumn !== null || table.primaryKey.length > 0;

/** POST /api/sql/{db}/{schema}/{table}/references (issue 37, decision 0065): for each foreign key of a readable table
 * that points at this table, the referencing table and columns, its ON DELETE rule and how many rows point at the
 * row with this key (exact where an index makes it cheap, capped at 1,000, else null). */
export function fetchReferences(
  ref: TableRef,
  key: Row,
  signal?: AbortSignal,
): Promise<ApiResult<Reference[]>> {
  return apiPostEncoded(`${tableApiPath(ref)}/references`, key, { schema: references, signal });
}

export const referencesQueryOptions = (ref: TableRef, key: Row) =>
  queryOptions({
    queryKey: queryKeys.sql.references(ref, key),
    queryFn: async ({ signal }) => unwrapData(await fetchReferences(ref, key, signal)),
    // Rows of other tables come and go: each opening of the tab or of the delete question counts again.
    staleTime: 0,
  });

/** What references a row (the editor's "Referenced by" tab and its delete question share the answer); `table` tells
 * which of the row's values are its key. Not asked while `enabled` is false, nor for a table without a row key. */
export function useReferences(ref: TableRef, table: KeyedTable, row: Row, enabled = true) {
  return useQuery({
    ...referencesQueryOptions(ref, rowKeyOf(table, row)),
    enabled: enabled && hasRowKey(table),
  });
}

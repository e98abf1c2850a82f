import { mutationOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { row, type Row } from '#common/contract/sql.ts';
import { apiPostEncoded, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';
import { tableApiPath, type TableRef } from './paths.ts';

/** POST /api/sql/{db}/{schema}/{table}: inserts (CanInsert) or updates (CanUpdate) one row, sent in the spec's
 * encoding; answers the row as saved (with its new identity after an insert) and the server's success message. */
export function postRow(ref: TableRef, value: Row): Promise<ApiResult<Row>> {
  return apiPostEncoded(tableApiPath(ref), value, { schema: row });
}

export const upsertRowMutationOptions = (ref: TableRef) =>
  mutationOptions({
    mutationKey: ['sql', 'upsert', ref.db, ref.schema, ref.table],
    mutationFn: async (value: Row) => unwrap(await postRow(ref, value)),
  });

/** Saves a row; the table's pages and history are stale afterwards (the grid refreshes them when the editor closes). */
export function useUpsertRow(ref: TableRef) {
  const queryClient = useQueryClient();
  return useMutation({
    ...upsertRowMutationOptions(ref),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: queryKeys.sql.table(ref), refetchType: 'none' }),
  });
}

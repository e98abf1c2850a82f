import { mutationOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { row, type Row } from '#common/contract/sql.ts';
import { apiPostEncoded, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';
import { tableApiPath, type TableRef } from './paths.ts';

/** POST /api/sql/{db}/{schema}/{table}/delete: deletes one row by its key (CanDelete); answers the row as it was. */
export function postDeleteRow(ref: TableRef, value: Row): Promise<ApiResult<Row>> {
  return apiPostEncoded(`${tableApiPath(ref)}/delete`, value, { schema: row });
}

export const deleteRowMutationOptions = (ref: TableRef) =>
  mutationOptions({
    mutationKey: ['sql', 'delete', ref.db, ref.schema, ref.table],
    mutationFn: async (value: Row) => unwrap(await postDeleteRow(ref, value)),
  });

export function useDeleteRow(ref: TableRef) {
  const queryClient = useQueryClient();
  return useMutation({
    ...deleteRowMutationOptions(ref),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: queryKeys.sql.table(ref), refetchType: 'none' }),
  });
}

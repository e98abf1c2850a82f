import { mutationOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { undoResult, type UndoResult } from '#common/contract/sql.ts';
import { apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';
import { tableApiPath, type TableRef } from './paths.ts';

/** POST /api/sql/{db}/{schema}/{table}/history/{id}/undo: undoes one change of the table (an update back, an added
 * row deleted, a deleted row restored); answers what the undo did and the server's message saying it. */
export function postUndoRowChange(ref: TableRef, id: number): Promise<ApiResult<UndoResult>> {
  return apiPost(`${tableApiPath(ref)}/history/${id}/undo`, undefined, { schema: undoResult });
}

export const undoRowChangeMutationOptions = (ref: TableRef) =>
  mutationOptions({
    mutationKey: ['sql', 'undo', ref.db, ref.schema, ref.table],
    mutationFn: async (id: number) => unwrap(await postUndoRowChange(ref, id)),
  });

/** Undoes a change; the table's pages are stale afterwards (the grid refreshes when the editor closes) and the
 * histories shown read again. */
export function useUndoRowChange(ref: TableRef) {
  const queryClient = useQueryClient();
  return useMutation({
    ...undoRowChangeMutationOptions(ref),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.sql.table(ref), refetchType: 'none' });
      await queryClient.invalidateQueries({ queryKey: [...queryKeys.sql.table(ref), 'history'] });
    },
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { undoResult, type UndoResult } from '#common/contract/admin.ts';
import { apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';

/** POST /api/admin/audit/{id}/undo: undoes one data change (an update back, an added row deleted, a deleted row
 * restored); a refusal's message says why (changed since, no longer allowed…). */
export function postUndoAuditEntry(id: number): Promise<ApiResult<UndoResult>> {
  return apiPost(`/api/admin/audit/${id}/undo`, undefined, { schema: undoResult });
}

/** Undoes an entry; the trail, the start page and every table's pages read again. */
export function useUndoAuditEntry() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['admin', 'undo'],
    mutationFn: async (id: number) => unwrap(await postUndoAuditEntry(id)),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.admin.audit() }),
        queryClient.invalidateQueries({ queryKey: queryKeys.admin.overview() }),
        queryClient.invalidateQueries({ queryKey: queryKeys.sql.all, refetchType: 'none' }),
      ]),
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { savedView, type SavedView, type ViewInput } from '#common/contract/views.ts';
import { apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';
import { tableApiPath, type TableRef } from '#web/api/sql/paths.ts';

/** POST /api/sql/{db}/{schema}/{table}/views: creates (Id 0) or changes a view; answers it as this person sees it. */
export function postView(ref: TableRef, view: ViewInput): Promise<ApiResult<SavedView>> {
  return apiPost(`${tableApiPath(ref)}/views`, view, { schema: savedView });
}

export function useSaveView(ref: TableRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['views', 'save'],
    mutationFn: async (view: ViewInput) => unwrap(await postView(ref, view)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.sql.views(ref) }),
  });
}

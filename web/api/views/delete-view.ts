import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';
import { tableApiPath, type TableRef } from '#web/api/sql/paths.ts';

/** POST /api/sql/{db}/{schema}/{table}/views/delete with `{ Id }`: its author or an administrator deletes a view. */
export function postDeleteView(ref: TableRef, id: number): Promise<ApiResult<unknown>> {
  return apiPost(`${tableApiPath(ref)}/views/delete`, { Id: id }, { schema: z.unknown() });
}

export function useDeleteView(ref: TableRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['views', 'delete'],
    mutationFn: async (id: number) => unwrap(await postDeleteView(ref, id)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.sql.views(ref) }),
  });
}

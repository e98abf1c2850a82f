import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiDelete, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';

/** DELETE /api/admin/roles/{id}: deletes a role that is not built in (Id above 3); 'Successfully deleted role.'. */
export function deleteRole(id: number): Promise<ApiResult<null>> {
  return apiDelete(`/api/admin/roles/${id}`, undefined, { schema: z.null() });
}

export function useDeleteRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['admin', 'deleteRole'],
    mutationFn: async (id: number) => unwrap(await deleteRole(id)),
    onSuccess: async (_result, id) => {
      queryClient.removeQueries({ queryKey: queryKeys.admin.role(id) });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.admin.roles() }),
        queryClient.invalidateQueries({ queryKey: queryKeys.admin.users() }),
        queryClient.invalidateQueries({ queryKey: queryKeys.admin.overview() }),
      ]);
    },
  });
}

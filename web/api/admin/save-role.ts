import { useMutation, useQueryClient } from '@tanstack/react-query';
import { role, type Role } from '#common/contract/admin.ts';
import { apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';

/** POST /api/admin/roles: creates (Id 0) or replaces a whole role in one transaction; answers it as saved (new
 * items with their Ids) and 'Successfully updated role.'. The server applies every role rule. */
export function postRole(value: Role): Promise<ApiResult<Role>> {
  return apiPost('/api/admin/roles', value, { schema: role });
}

export function useSaveRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['admin', 'saveRole'],
    mutationFn: async (value: Role) => unwrap(await postRole(value)),
    onSuccess: async (result) => {
      queryClient.setQueryData(queryKeys.admin.role(result.data.Id), result.data);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.admin.roles() }),
        queryClient.invalidateQueries({ queryKey: queryKeys.admin.users() }),
        queryClient.invalidateQueries({ queryKey: queryKeys.admin.overview() }),
      ]);
    },
  });
}

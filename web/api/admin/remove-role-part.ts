import { useMutation, useQueryClient } from '@tanstack/react-query';
import { appRow, type AppRow } from '#common/contract/admin.ts';
import { apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';

/** A saved part of a role, by the app store table holding it. */
export type RolePart = 'role_links' | 'role_permissions' | 'user_roles';

/** POST /api/admin/app/main/{table}/delete {id} (spec 000 §7 "Admin data"): removes one saved link, permission or
 * user of a role at once; the server checks the role's rules with the row gone and answers the row as it was. */
export function postRemoveRolePart(part: RolePart, id: number): Promise<ApiResult<AppRow>> {
  return apiPost(`/api/admin/app/main/${part}/delete`, { id }, { schema: appRow });
}

/** Removes a saved part of role `roleId`; the role, the role list's counts and the users' roles read again. */
export function useRemoveRolePart(roleId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['admin', 'removeRolePart', roleId],
    mutationFn: async ({ part, id }: { part: RolePart; id: number }) =>
      unwrap(await postRemoveRolePart(part, id)),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.admin.roles() }),
        queryClient.invalidateQueries({ queryKey: queryKeys.admin.users() }),
      ]),
  });
}

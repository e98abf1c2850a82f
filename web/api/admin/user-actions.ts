import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  adminUserDetail,
  type AdminUserDetail,
  type LockInput,
  type UserRolesInput,
} from '#common/contract/admin.ts';
import { apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';

/** The actions on one user, each a POST /api/admin/users/{id}/{action} answering the user as changed and the
 * server's message (the toast). */
type UserAction = 'roles' | 'lock' | 'unlock' | 'reset-2fa' | 'end-sessions';

export function postUserAction(
  id: number,
  action: UserAction,
  body?: unknown,
): Promise<ApiResult<AdminUserDetail>> {
  return apiPost(`/api/admin/users/${id}/${action}`, body, { schema: adminUserDetail });
}

/** An action's mutation: afterwards the user's page shows the answer, and the lists showing them, the start page's
 * counts (and, for roles, the role pages) read again. */
function useUserAction<Body = void>(id: number, action: UserAction) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['admin', 'user', id, action],
    mutationFn: async (body: Body) => unwrap(await postUserAction(id, action, body ?? undefined)),
    onSuccess: async (result) => {
      queryClient.setQueryData(queryKeys.admin.user(id), result.data);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.admin.users() }),
        queryClient.invalidateQueries({ queryKey: queryKeys.admin.overview() }),
        action === 'roles' && queryClient.invalidateQueries({ queryKey: queryKeys.admin.roles() }),
      ]);
    },
  });
}

/** POST …/roles {roleIds}: sets the user's roles to exactly these; their sessions see it at their next call. */
export const useSaveUserRoles = (id: number) => useUserAction<UserRolesInput>(id, 'roles');
/** POST …/lock {until?}: locks the user until an instant, or until unlocked; their sessions end at once. */
export const useLockUser = (id: number) => useUserAction<LockInput>(id, 'lock');
/** POST …/unlock: unlocks the user and clears their failed checks. */
export const useUnlockUser = (id: number) => useUserAction(id, 'unlock');
/** POST …/reset-2fa: removes the user's app, phone and passkeys and clears their recovery codes; they sign in with
 * an emailed code. */
export const useResetSecondFactor = (id: number) => useUserAction(id, 'reset-2fa');
/** POST …/end-sessions: ends every session of the user. */
export const useEndSessions = (id: number) => useUserAction(id, 'end-sessions');

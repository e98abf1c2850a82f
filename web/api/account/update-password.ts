import { mutationOptions, useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import type { UpdatePasswordRequest } from '#common/contract/account.ts';
import { apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { callDirectly, type RecentAuthRunner } from './recent-auth.ts';

/** POST /api/account/updatePassword: a new password; the server ends every other session of the account. */
export function postUpdatePassword(request: UpdatePasswordRequest): Promise<ApiResult<null>> {
  return apiPost('/api/account/updatePassword', request, { schema: z.null() });
}

export const updatePasswordMutationOptions = (run: RecentAuthRunner = callDirectly) =>
  mutationOptions({
    mutationKey: ['account', 'updatePassword'],
    mutationFn: async (request: UpdatePasswordRequest) =>
      unwrap(await run(() => postUpdatePassword(request))),
  });

/** Needs a recent sign-in: `run` (the page's useReauth) asks for the password when the server wants it. */
export function useUpdatePassword(run?: RecentAuthRunner) {
  return useMutation(updatePasswordMutationOptions(run));
}

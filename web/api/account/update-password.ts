import { mutationOptions, useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import type { UpdatePasswordRequest } from '#common/contract/account.ts';
import { apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';

/** POST /api/account/updatePassword: a new password; the server ends every other session of the account. */
export function postUpdatePassword(request: UpdatePasswordRequest): Promise<ApiResult<null>> {
  return apiPost('/api/account/updatePassword', request, { schema: z.null() });
}

export const updatePasswordMutationOptions = () =>
  mutationOptions({
    mutationKey: ['account', 'updatePassword'],
    mutationFn: async (request: UpdatePasswordRequest) => unwrap(await postUpdatePassword(request)),
  });

export function useUpdatePassword() {
  return useMutation(updatePasswordMutationOptions());
}

import { mutationOptions, useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import type { ReauthRequest } from '#common/contract/account.ts';
import { apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';

/** POST /api/account/reauth: the password, or a code of the authenticator app; changes that need a recent proof
 * (two-factor setup, password, deleting the account, social links) are allowed for the next 10 minutes. */
export function postReauth(request: ReauthRequest): Promise<ApiResult<null>> {
  return apiPost('/api/account/reauth', request, { schema: z.null() });
}

export const reauthMutationOptions = () =>
  mutationOptions({
    mutationKey: ['account', 'reauth'],
    mutationFn: async (request: ReauthRequest) => unwrap(await postReauth(request)),
  });

export function useReauthMutation() {
  return useMutation(reauthMutationOptions());
}

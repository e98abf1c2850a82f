import { mutationOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { user, type TwoFactorMethod, type User } from '#common/contract/account.ts';
import { apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';

/** POST /api/account/preferred2fa: the method whose code is sent at sign-in; only a verified one. Answers the
 * saved user. */
export function postPreferred2fa(preferred2fa: TwoFactorMethod): Promise<ApiResult<User>> {
  return apiPost('/api/account/preferred2fa', { preferred2fa }, { schema: user });
}

export const preferred2faMutationOptions = () =>
  mutationOptions({
    mutationKey: ['account', 'preferred2fa'],
    mutationFn: async (method: TwoFactorMethod) => unwrap(await postPreferred2fa(method)),
  });

/** Saves the preferred method and puts the saved user in the account query. */
export function usePreferred2fa() {
  const queryClient = useQueryClient();
  return useMutation({
    ...preferred2faMutationOptions(),
    onSuccess: (answer) => queryClient.setQueryData(queryKeys.account.user(), answer.data),
  });
}

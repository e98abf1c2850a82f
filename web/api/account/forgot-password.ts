import { mutationOptions, useMutation } from '@tanstack/react-query';
import { preSignInToken, type ForgotPasswordRequest } from '#common/contract/account.ts';
import { apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';

/** POST /api/account/forgotPassword: sends a code to the account's email; answers `pu` for /account/login?pu=… */
export function postForgotPassword(request: ForgotPasswordRequest): Promise<ApiResult<string>> {
  return apiPost('/api/account/forgotPassword', request, { schema: preSignInToken });
}

export const forgotPasswordMutationOptions = () =>
  mutationOptions({
    mutationKey: ['account', 'forgotPassword'],
    mutationFn: async (request: ForgotPasswordRequest) => unwrap(await postForgotPassword(request)),
  });

export function useForgotPassword() {
  return useMutation(forgotPasswordMutationOptions());
}

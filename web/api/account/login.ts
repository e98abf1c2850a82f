import { mutationOptions, useMutation } from '@tanstack/react-query';
import { preSignIn, type LoginRequest, type PreSignIn } from '#common/contract/account.ts';
import { apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';

/** POST /api/account/login: the password and the solved human check; answers the pre-sign-in step. */
export function postLogin(request: LoginRequest): Promise<ApiResult<PreSignIn>> {
  return apiPost('/api/account/login', request, { schema: preSignIn, signInStep: true });
}

export const loginMutationOptions = () =>
  mutationOptions({
    mutationKey: ['account', 'login'],
    mutationFn: async (request: LoginRequest) => unwrap(await postLogin(request)),
  });

export function useLogin() {
  return useMutation(loginMutationOptions());
}

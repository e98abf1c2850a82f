import { mutationOptions, useMutation } from '@tanstack/react-query';
import { preSignInToken, type SignupRequest } from '#common/contract/account.ts';
import { apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';

/** POST /api/account/signup: creates the account and emails a code; answers `pu` for /account/login?pu=… */
export function postSignup(request: SignupRequest): Promise<ApiResult<string>> {
  return apiPost('/api/account/signup', request, { schema: preSignInToken });
}

export const signupMutationOptions = () =>
  mutationOptions({
    mutationKey: ['account', 'signup'],
    mutationFn: async (request: SignupRequest) => unwrap(await postSignup(request)),
  });

export function useSignup() {
  return useMutation(signupMutationOptions());
}

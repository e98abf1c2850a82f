import { mutationOptions, useMutation } from '@tanstack/react-query';
import { verification, type SecondStepLinkRequest, type Verification } from '#common/contract/account.ts';
import { apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';

/** POST /api/account/login/link: after the password, a second-step link (`dbui admin reset-2fa`) stands in for the
 * second step once; answers the session's verification. */
export function postLoginLink(request: SecondStepLinkRequest): Promise<ApiResult<Verification>> {
  return apiPost('/api/account/login/link', request, { schema: verification, signInStep: true });
}

export const loginLinkMutationOptions = () =>
  mutationOptions({
    mutationKey: ['account', 'login', 'link'],
    mutationFn: async (request: SecondStepLinkRequest) => unwrap(await postLoginLink(request)),
  });

export function useLoginLink() {
  return useMutation(loginLinkMutationOptions());
}
